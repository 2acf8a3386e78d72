"""Property tests (Hypothesis) over random seeds, player counts and option combinations.

Invariants: no tile is created or lost; every random match terminates; replaying
the record reproduces the state and log; a view never contains another seat's
hand; legal actions apply, and illegal ones raise IllegalAction and change nothing.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_helpers import check_conservation, make, setups

import dominohall


def current_round_json(v) -> str:
    """The view without the seat's own hand and without earlier rounds' log."""
    v = dict(v)
    v.pop("hand")
    log = v.pop("log")
    start = max(i for i, e in enumerate(log) if e["type"] == "deal")
    v["log"] = log[start:]
    return json.dumps(v)


def check_no_peeking(g) -> None:
    for seat in [None, *range(g.players)]:
        text = current_round_json(g.view(seat))
        for other in range(g.players):
            if other == seat:
                continue
            for tile in g.view(other)["hand"]:
                assert f'"{tile}"' not in text and f'"{tile}>' not in text, (
                    f"seat {seat}'s view shows {tile} of seat {other}")


def random_action_texts(rng: random.Random, g) -> list[str]:
    set_max = g.options.set_max
    targets = ["L", "R", "U", "D", "U2", "mx", "t0", "t1", "t3", "t9", None]
    out = ["draw", "pass", "end", "", "12-", "x>t0", "3-3>zz"]
    for _ in range(6):
        a, b = rng.randint(0, set_max), rng.randint(0, set_max)
        target = rng.choice(targets)
        out.append(f"{a}-{b}" if target is None else f"{b}-{a}>{target}")
    return out


def snapshot(g):
    return json.dumps([g.view(None), g.view(g.state.current), g.to_record(),
                       g.state.boneyard], sort_keys=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups, st.integers(0, 2 ** 32))
def test_random_matches_keep_every_invariant(setup, seed):
    g = make(setup, seed)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over:
        steps += 1
        assert steps < 20_000, "the match does not terminate"
        legal = g.legal_actions()
        assert legal, "a seat to move has no legal action"
        assert len({str(a) for a in legal}) == len(legal)
        if steps % 7 == 0:
            check_conservation(g)
            check_no_peeking(g)
            before = snapshot(g)
            legal_text = {str(a) for a in legal}
            for text in random_action_texts(rng, g):
                try:
                    parsed = str(dominohall.parse_action(text))
                except dominohall.IllegalAction:
                    parsed = None
                if parsed in legal_text:
                    continue
                with pytest.raises(dominohall.IllegalAction):
                    g.apply(text)
                assert snapshot(g) == before
        g.apply(rng.choice(legal))
    assert g.current_seat is None and g.winners
    assert g.legal_actions() == []
    record = json.loads(json.dumps(g.to_record()))
    again = dominohall.replay(record)
    for seat in [None, *range(g.players)]:
        assert again.view(seat) == g.view(seat)


@settings(max_examples=40, deadline=None)
@given(setups, st.integers(0, 2 ** 32), st.integers(0, 300))
def test_replay_midgame_and_clone_reproduce_the_state(setup, seed, cut):
    g = make(setup, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    again = dominohall.replay(json.loads(json.dumps(g.to_record())))
    clone = g.clone()
    for seat in [None, *range(g.players)]:
        assert again.view(seat) == g.view(seat)
        assert clone.view(seat) == g.view(seat)
    assert again.state.boneyard == g.state.boneyard
    # the clone and the original then go their own ways without touching each other
    if not g.is_over:
        before = g.view(None)
        clone.apply(clone.legal_actions()[-1])
        assert g.view(None) == before


def test_every_legal_action_applies_from_a_fresh_state():
    for name, players in [("mexican_train", 4), ("all_fives", 3), ("block", 2)]:
        g = dominohall.new_game(name, players=players, seed=11)
        for a in g.legal_actions():
            c = g.clone()
            c.apply(str(a))
