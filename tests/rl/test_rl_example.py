"""examples/train_block.py runs end to end in a tiny configuration (so it cannot rot)."""

from __future__ import annotations

import importlib.util
import pathlib

from peers import need

need("numpy", "gymnasium")

EXAMPLE = pathlib.Path(__file__).parents[2] / "examples" / "train_block.py"


def test_train_block_example_runs(capsys):
    spec = importlib.util.spec_from_file_location("train_block_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main(["--hands", "150", "--games", "60", "--deals", "40", "--seed", "1"])
    out = capsys.readouterr().out
    assert "trained on 150 hands" in out and "95% interval" in out
    assert "arena, 40 duplicate deals" in out          # the bot played through the arena
    assert result["arena_low"] <= result["arena_ahead"] <= result["arena_high"]
    assert 0.0 <= result["random"] <= 1.0 and result["trained_ci"] > 0
    assert 0.0 <= result["trained"] <= 1.0
    assert result["w_pips"] > 0           # even 150 hands teach it to shed heavy tiles first
