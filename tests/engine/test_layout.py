"""The line games' layout objects (`End`, `Spinner`): copies stay independent, pickling
and deepcopy keep them (both builds), and the read-only views of the open ends agree."""

from __future__ import annotations

import copy
import pickle
import random

import dominohall
from dominohall.engine import tile_text
from dominohall.engine.line_game import BARE, CROSS, TILE, End, Spinner


def _with_spinner_arms(seed: int = 0) -> dominohall.Game:
    """An All Fives game played until a spinner's arms are open."""
    for s in range(seed, seed + 200):
        g = dominohall.new_game("all_fives", players=2, seed=s)
        rng = random.Random(s)
        while not g.is_over and g.round == 1:
            if any(e.name == "U" for e in g.state.ends):
                return g
            g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("no spinner arms in 200 games")


def test_open_ends_read_like_the_layout():
    g = _with_spinner_arms()
    st = g.state
    ends = st.ends
    assert [e.name for e in ends][:4] == ["L", "R", "U", "D"]
    assert st.end_names == [e.name for e in ends]
    assert st.end_values == [e.value for e in ends]
    assert all(e.kind in (BARE, TILE, CROSS) for e in ends)
    spinner = next(s for s in st.spinners if s.arms)
    assert isinstance(spinner, Spinner) and spinner.opened and spinner.number == 1
    layout = g.view(None)["layout"]
    assert [(e["id"], e["value"]) for e in layout["ends"]] == [(e.name, e.value) for e in ends]
    assert layout["spinner"] == tile_text(spinner.tile)
    assert st.end_index("U") == 2 and st.end_index("U2") == -1
    # the compatibility views are copies: changing them changes nothing
    st.end_values.append(99)
    assert 99 not in st.end_values


def test_a_clone_pickle_and_deepcopy_copy_the_layout():
    g = _with_spinner_arms(7)
    for other in (g.clone(), pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert other.view(None) == g.view(None)
        assert all(a is not b and a.tiles is not b.tiles
                   for a, b in zip(other.state.ends, g.state.ends))
        assert all(a is not b for a, b in zip(other.state.spinners, g.state.spinners))
        before = g.view(None)
        other.apply(other.legal_actions()[0])
        assert g.view(None) == before
        # the copy plays on exactly as the original would
        twin = g.clone()
        twin.apply(twin.legal_actions()[0])
        assert twin.view(None)["layout"] == other.view(None)["layout"]


def test_end_and_spinner_pickle_alone():
    e = End("U2", 5, BARE, -1, [3, 4])
    back = pickle.loads(pickle.dumps(e))
    assert (back.name, back.value, back.kind, back.spinner, back.tiles) == ("U2", 5, BARE, -1,
                                                                            [3, 4])
    s = pickle.loads(pickle.dumps(Spinner(27, 1, True, 2, True)))
    assert (s.tile, s.value, s.bare, s.arms, s.opened, s.number) == (27, 6, 1, True, True, 2)
