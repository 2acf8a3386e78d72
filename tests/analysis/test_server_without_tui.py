"""The server never imports the terminal game (issue 24): the hint's advice lives in
`dominohall.analysis`, which both use."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import dominohall

SERVER = pathlib.Path(dominohall.__file__).parent / "server"


def test_no_server_module_imports_tui():
    offenders = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
                names += [f"{names[0]}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n.startswith(("dominohall.tui", "..tui")) or n == "..tui" or
                   ".tui." in n or n.endswith(".tui") for n in names):
                offenders.append(f"{path.relative_to(SERVER)}:{node.lineno}")
    assert offenders == []


def test_the_running_server_loads_no_terminal_module():
    code = ("import sys, dominohall.server.app, dominohall.server.hints, dominohall.server.fair;"
            "print(sorted(m for m in sys.modules if m.startswith('dominohall.tui') or "
            "m.split('.')[0] == 'textual'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
