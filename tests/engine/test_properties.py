"""Property tests (Hypothesis) over random seeds, player counts and option combinations.

Invariants: no tile is created or lost; every random match terminates; replaying
the record reproduces the state and log; a view never contains another seat's
hand; legal actions apply, and illegal ones raise IllegalAction and change nothing.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import dominohall
from dominohall.engine.options import LINE_GAME_SPECS, MEXICAN_TRAIN_SPECS
from dominohall.engine.tiles import TEXT, set_size

MT_CHOICES = {s.name: s.choices for s in MEXICAN_TRAIN_SPECS if s.name not in ("rounds",)}
LINE_CHOICES = {s.name: s.choices for s in LINE_GAME_SPECS if s.name not in ("game",)}


@st.composite
def mexican_train_setups(draw):
    players = draw(st.integers(2, 10))
    opts = {name: draw(st.sampled_from(choices)) for name, choices in MT_CHOICES.items()}
    opts["preset"] = draw(st.sampled_from(["seed", "puremco", "casual"]))
    for name in list(opts):
        if name != "preset" and draw(st.booleans()):
            del opts[name]          # leave some to the preset / defaults
    opts["rounds"] = draw(st.integers(1, 3))
    if "hand_size" in opts and opts["hand_size"] == "table" and draw(st.booleans()):
        opts["hand_size"] = draw(st.integers(1, 8))
    return "mexican_train", players, opts


@st.composite
def line_setups(draw):
    name = draw(st.sampled_from(["all_fives", "draw", "block"]))
    players = draw(st.integers(2, 4))
    opts = {k: draw(st.sampled_from(v)) for k, v in LINE_CHOICES.items() if draw(st.booleans())}
    if players != 4:
        opts.pop("teams", None)
    opts["target"] = draw(st.sampled_from([100, 150]))
    return name, players, opts


setups = st.one_of(mexican_train_setups(), line_setups())


def make(setup, seed):
    name, players, opts = setup
    try:
        return dominohall.new_game(name, players=players, seed=seed, options=opts)
    except dominohall.BadOption:
        assume(False)


def table_tiles(g) -> list[str]:
    v = g.view(None)
    if g.name == "mexican_train":
        out = [t for train in v["trains"] for t in train["tiles"]]
        return out + [v["engine"]]
    layout = v["layout"]
    out = [layout["lead"]] if layout["lead"] else []
    st_ = g.state
    out += [TEXT[t] for e in st_.ends for t in e.tiles]
    return out


def check_conservation(g) -> None:
    hands = [t for s in range(g.players) for t in g.view(s)["hand"]]
    bone = [TEXT[t] for t in g.state.boneyard]
    everything = hands + bone + table_tiles(g)
    assert len(everything) == len(set(everything)), "a tile is in two places"
    assert len(everything) == set_size(g.options.set_max), "a tile was created or lost"


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
