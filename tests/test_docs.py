"""The spec ships with the code: the rules reference and the architecture notes are under
docs/, the code and tests cite them there (never a folder outside the repository), and
the architecture's layout names only files that exist."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "dominohall"


def test_the_rules_reference_is_in_docs():
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert rules.startswith("# Rules specification")
    # the sections the code cites ("RULES.md A6", "B6") are there
    for section in ("A6", "A10", "B6", "B7"):
        assert re.search(rf"\b{section}\b", rules), section


def test_code_and_tests_cite_docs_not_a_folder_outside():
    for path in [*SRC.rglob("*.py"), *(ROOT / "tests").rglob("*.py"), ROOT / "README.md"]:
        if path == pathlib.Path(__file__):
            continue
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "/work/shared" not in text, path


def _layout() -> list[str]:
    arch = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = arch.split("## Layout", 1)[1].split("```", 2)[1]
    return block.splitlines()


def test_the_architecture_layout_names_files_that_exist():
    names = {p.name for p in SRC.rglob("*.py")}
    dirs = {p.name for p in ROOT.rglob("*") if p.is_dir() and ".venv" not in p.parts}
    lines = _layout()
    assert lines
    missing = []
    for line in lines:
        layout_part = line.strip().split("  ")[0]      # the names, before their description
        for token in re.findall(r"[\w.]+\.py|[\w]+/", layout_part):
            if token.endswith(".py") and token not in names and not (ROOT / token).exists():
                missing.append(token)
            if token.endswith("/") and token[:-1] not in dirs:
                missing.append(token)
    assert not missing, f"docs/architecture.md names what does not exist: {missing}"
    # and the docs it lists are there
    for doc in ("rules.md", "architecture.md", "how-to-play.md", "engine-api.md", "deploy.md"):
        assert (ROOT / "docs" / doc).exists(), doc


def test_no_test_module_imports_another():
    """Shared fixtures and helpers live in conftest.py and helpers modules."""
    pattern = re.compile(r"^\s*(from\s+[\w.]*\btest_\w+\s+import|import\s+[\w.]*\btest_\w+)", re.M)
    for path in (ROOT / "tests").rglob("*.py"):
        assert not pattern.search(path.read_text(encoding="utf-8")), path
