import pytest


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    """Autosaves go to a temporary folder, never the user's data folder."""
    monkeypatch.setenv("DOMINOHALL_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"
