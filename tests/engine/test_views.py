"""views.py: the fast redaction of the line games' tuple events, hand texts, and views as
snapshots that later play does not change."""

from __future__ import annotations

import json
import random

import pytest
from random_play import random_game

import dominohall
from dominohall.engine.line_game import event_dict
from dominohall.engine.tiles import BIT, N_IDS, PIPS, TEXT, ids, mask_pips, texts
from dominohall.engine.views import describe, redact

LINE_SETUPS = [
    ("block", 2, {}),
    ("block", 4, {"teams": True}),
    ("draw", 3, {}),
    ("draw", 2, {"must_play": False}),
    ("draw", 4, {"draw": "one", "boneyard_reserve": 2}),
    ("all_fives", 2, {}),
    ("all_fives", 3, {"spinner": "every_double", "hands": 2}),
    ("all_fives", 4, {"teams": True, "spinner": "none"}),
]


def generic_redact(event, seat):
    """The plain expansion: event_dict, then the redaction, then describe."""
    e = event_dict(event)
    if e["type"] == "draw" and e["seat"] != seat:
        e.pop("tile", None)
    elif e["type"] == "round_end":
        e["hands"] = [texts(h) for h in e["hands"]]
    e["text"] = describe(e, seat)
    return e


def played(name, players, options, seed, moves=400):
    return random_game(name, players, options, seed, moves)


@pytest.mark.parametrize("name,players,options", LINE_SETUPS)
def test_fast_redaction_is_the_plain_expansion(name, players, options):
    """Every event of the state's log (tuples and dicts), for every seat and the spectator:
    the same dict, in the same key order, with the same text."""
    kinds = set()
    for seed in range(4):
        g = played(name, players, options, seed)
        for event in g.state.log:
            kinds.add(event[0] if isinstance(event, tuple) else event["type"])
            for seat in [None, *range(players)]:
                fast, plain = redact(event, seat), generic_redact(event, seat)
                assert fast == plain
                assert list(fast) == list(plain)
                assert json.dumps(fast) == json.dumps(plain)
    assert {"play", "deal", "round_end"} <= kinds and kinds & {"pass", "draw"}


def test_redaction_covers_draws_with_and_without_voids():
    g = played("draw", 2, {}, seed=3)
    draws = [e for e in g.state.log if isinstance(e, tuple) and e[0] == "draw"]
    assert draws and any(e[3] is not None for e in draws)
    for e in draws:
        mine, theirs, spectator = redact(e, e[1]), redact(e, 1 - e[1]), redact(e, None)
        assert mine["tile"] and mine["text"] == f"you drew {mine['tile']}"
        assert "tile" not in theirs and theirs["text"] == f"seat {e[1]} drew a tile"
        assert "tile" not in spectator
    g = played("draw", 2, {"must_play": False}, seed=3)
    assert all(redact(e, 0) == generic_redact(e, 0) for e in g.state.log)


def test_hands_read_by_byte_match_bit_by_bit():
    """tiles.ids / texts / mask_pips read a hand 8 tiles at a time: same as bit by bit."""
    rng = random.Random(1)
    for _ in range(2000):
        mask = 0
        for t in rng.sample(range(N_IDS), rng.randrange(0, 20)):
            mask |= BIT[t]
        bits = [t for t in range(N_IDS) if mask >> t & 1]
        assert ids(mask) == bits
        assert texts(mask) == [TEXT[t] for t in bits]
        assert mask_pips(mask) == sum(PIPS[t] for t in bits)


@pytest.mark.parametrize("name,players,options", [("block", 2, {}), ("all_fives", 3, {}),
                                                  ("mexican_train", 3, {"rounds": 2})])
def test_a_view_is_a_snapshot(name, players, options):
    """A view taken earlier reads the same after more play (its lists are its own, the
    shared log events are never changed), for every seat and the spectator."""
    rng = random.Random(7)
    g = dominohall.new_game(name, players=players, seed=7, options=options)
    kept = []
    for step in range(300):
        if g.is_over:
            break
        if step % 3 == 0:
            for seat in [None, *range(players)]:
                v = g.view(seat)
                kept.append((v, json.dumps(v)))
        g.apply(rng.choice(g.legal_actions()))
    for seat in [None, *range(players)]:
        g.view(seat)
    assert all(json.dumps(v) == text for v, text in kept)


def test_views_of_a_seat_share_events_not_log_lists():
    """Each event is redacted once per seat and shared by that seat's views (read-only);
    the log list itself is each view's own."""
    g = dominohall.new_game("block", players=2, seed=2)
    a = g.view(0)
    g.apply(g.legal_actions()[0])
    b = g.view(0)
    assert a["log"] is not b["log"] and a["log"][0] is b["log"][0]
    assert g.view(1)["log"][0] is not b["log"][0]


def test_every_view_starts_with_the_common_keys_in_order():
    """The line-game view is one dict literal; it must keep the keys every game shares,
    in the order the Mexican Train view has them."""
    mt = dominohall.new_game("mexican_train", players=3, seed=1).view(0)
    line = dominohall.new_game("block", players=2, seed=1).view(0)
    common = list(mt)[:list(mt).index("log") + 1]
    assert list(line)[:len(common)] == common
    assert list(line)[len(common):] == ["teams", "leader", "layout", "turn"]
    assert list(mt)[len(common):] == ["rounds", "engine", "trains", "owed", "first_turn_done",
                                      "turn"]
