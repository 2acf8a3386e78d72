"""The README's Python example runs as written, and its two commands are the ones CI uses."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_readme_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks, "the README has no Python example"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})


def test_ci_runs_the_readme_test_command():
    test_cmd = re.search(r"Test it.*?```sh\n(.*?)\n```", README, re.S).group(1).strip()
    ci = (ROOT / ".ci" / "run").read_text()
    assert test_cmd in ci
