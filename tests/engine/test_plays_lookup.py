"""The plays of a line game, worked out here from the hand and the open ends, equal the
engine's in either of its two ways of finding them (``line_game.WALK_BITS``: compiled, the
hand's bits are walked; interpreted, cached tables are read).  In the pure build both ways
are run (the flag is a module attribute there); compiled it is a C constant, and the
engine's own way is checked."""

from __future__ import annotations

import pytest
from random_play import random_states

import dominohall
from dominohall.engine import line_game
from dominohall.engine.actions import PLAYS
from dominohall.engine.tiles import HIGH, LOW, ids


def expected_plays(st):
    """Every tile of the current hand that matches an open end, end by end in layout
    order and tiles by id within an end; a lead plays any tile."""
    hand = ids(st.hands[st.current])
    if st.lead < 0:
        return [PLAYS[None][t] for t in hand]
    return [PLAYS[e.name][t] for e in st.ends for t in hand
            if e.value in (HIGH[t], LOW[t])]


GAMES = [("all_fives", 2, {}), ("all_fives", 4, {"teams": True, "spinner": "every_double"}),
         ("draw", 3, {"must_play": False}), ("block", 4, {"teams": True}),
         ("all_fives", 2, {"set_max": 9})]


@pytest.mark.parametrize("walk", [False, True])
@pytest.mark.parametrize("name, players, options", GAMES)
def test_the_plays_on_the_open_ends(monkeypatch, walk, name, players, options):
    if not dominohall.engine.COMPILED:
        monkeypatch.setattr(line_game, "WALK_BITS", walk)
    checked = 0
    for seed in range(6):
        for g in random_states(name, players, dict(options), seed, 400):
            st = g.state
            st._legal = None
            plays = [a for a in st.legal() if a.kind == 0]
            assert plays == expected_plays(st), (name, seed, g.to_record()["actions"])
            checked += 1
    assert checked > 200
