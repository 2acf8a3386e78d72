"""The README's batched-environment example runs as printed."""

from __future__ import annotations

import pathlib
import re

from peers import need

need("numpy", "gymnasium")

README = pathlib.Path(__file__).parents[2] / "README.md"


def test_readme_batched_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    example = [b for b in blocks if "vector_env(" in b and "batched_games(" in b]
    assert len(example) == 1
    exec(compile(example[0], "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    shapes = re.match(r"\(64, (\d+)\) \(64, 142\) (\d+) (\S+)$", out[0])
    assert shapes, out[0]                     # All Fives, 2 players: 142 action ids
    assert int(shapes[2]) > 0                 # episodes ended and were dealt again
    assert out[1].endswith("(16, 2)")         # a reward per game and seat
