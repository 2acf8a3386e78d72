"""Smoke runs: 300 random complete matches per game and preset (RULES.md A10/A11, B6/B7).

Each match must end, log one round_end per round (13 for Mexican Train by
default), and its totals must be the sum of the logged round points.
"""

from __future__ import annotations

import random

import pytest

import dominohall


def pips(hand: list[str]) -> int:
    return sum(int(x) for tile in hand for x in tile.split("-"))


CASES = [
    ("mexican_train", 4, {"preset": "seed"}),
    ("mexican_train", 6, {"preset": "puremco"}),
    ("mexican_train", 3, {"preset": "casual"}),
    ("all_fives", 2, {}),
    ("all_fives", 4, {"teams": True}),
    ("draw", 3, {}),
    ("block", 2, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_300_random_matches(name, players, options):
    rng = random.Random(2026)
    for seed in range(300):
        g = dominohall.new_game(name, players=players, seed=seed, options=options)
        steps = 0
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
            assert steps < 50_000
        log = g.view(None)["log"]
        ends = [e for e in log if e["type"] == "round_end"]
        totals = [0] * players
        for e in ends:
            totals = [a + b for a, b in zip(totals, e["points"])]
            blank = g.options.double_blank if name == "mexican_train" else 0
            assert e["pips"] == [pips(h) + (blank if "0-0" in h else 0) for h in e["hands"]]
        if name == "mexican_train":
            assert len(ends) == g.options.rounds == 13
            assert totals == g.scores
            low = min(g.scores) if g.options.scoring == "penalty" else max(g.scores)
            assert g.winners == [s for s in range(players) if g.scores[s] == low]
        else:
            if g.options.teams:
                assert g.scores[0] == g.scores[2] and g.scores[1] == g.scores[3]
            assert max(g.scores) >= g.options.target
            assert g.winners == [s for s in range(players) if g.scores[s] == max(g.scores)]
        assert log[-1]["type"] == "game_end"
