"""Hypothesis strategies for games and the conservation check, shared by the engine's
property tests (test_properties.py, test_sampling.py)."""

from __future__ import annotations

from hypothesis import assume
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


