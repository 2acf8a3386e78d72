"""ARCHITECTURE principle 1: the engine imports only the standard library and itself."""

from __future__ import annotations

import ast
import pathlib
import sys

import dominohall.engine

ENGINE = pathlib.Path(dominohall.engine.__file__).parent


def imported_modules(path: pathlib.Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, 0) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", node.level))
    return out


def test_engine_imports_only_stdlib_and_itself():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 8
    bad = []
    for f in files:
        for module, level in imported_modules(f):
            if level > 0:
                continue  # relative import inside the engine
            top = module.split(".")[0]
            if top in sys.stdlib_module_names:
                continue
            if module.startswith("dominohall.engine"):
                continue
            bad.append(f"{f.name}: {module}")
    assert bad == []


def test_the_checker_sees_a_bad_import(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("import numpy\nfrom dominohall import bots\nfrom . import tiles\n")
    mods = imported_modules(f)
    assert ("numpy", 0) in mods and ("dominohall", 0) in mods and ("", 1) in mods
