"""SQLite is the embedded single-node store: one server per database file."""

from __future__ import annotations

import os
import subprocess
import sys


def test_a_second_node_on_one_sqlite_file_is_refused_with_one_line(server_factory, tmp_path):
    db = str(tmp_path / "one.sqlite3")
    first = server_factory(db).start()
    assert first.proc is not None
    p = subprocess.run([sys.executable, "-m", "dominohall.cli", "serve", "--db", db,
                        "--port", "1"], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "DOMINOHALL_DATA_DIR": str(tmp_path / "data")})
    assert p.returncode == 1
    assert p.stderr.strip().count("\n") == 0, p.stderr
    assert "another dominohall server is using" in p.stderr and "postgresql" in p.stderr
