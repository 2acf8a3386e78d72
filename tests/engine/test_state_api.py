"""The states' public helpers for bots: `set_hands` (other hidden tiles, the same table)
and Mexican Train's `clear_table` (the round's table as dealt)."""

from __future__ import annotations

import copy
import random

import dominohall
from dominohall.engine.tiles import BIT, HIGH, LOW, TEXT, parse_tile

FIELDS = ("engine", "ends", "trains", "markers", "owed", "deferred", "pending",
          "first_done", "passes", "drawn", "drew", "must_follow", "chain", "turn_draws")


def _table(st) -> dict[str, object]:
    return {f: getattr(st, f) for f in FIELDS}


def test_clear_table_gives_back_the_table_as_dealt() -> None:
    """Three rounds in: the table after `clear_table` is the one each round began with,
    and the hands, boneyard, scores and log are left as they were."""
    rng = random.Random(4)
    g = dominohall.new_game("mexican_train", players=3, seed=6)
    for _ in range(3):
        dealt = copy.deepcopy(_table(g.state))
        round_ = g.round
        while g.round == round_ and not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            if g.round == round_ and len(g.state.log) % 7 == 0:
                st = g.state.clone()
                before = (st.hands[:], st.boneyard[:], st.scores[:], len(st.log))
                st.clear_table()
                assert _table(st) == dealt
                assert (st.hands, st.boneyard, st.scores, len(st.log)) == before
        if g.is_over:
            break


def test_clear_table_places_each_rounds_engine() -> None:
    g = dominohall.new_game("mexican_train", players=4, seed=2)
    for round_ in (1, 2, 5):
        g.state.round = round_
        g.state.clear_table()
        assert g.state.engine == 12 - round_ + 1
        assert g.state.ends == [13 - round_] * 5


def test_set_hands_lists_the_new_hands_plays() -> None:
    """A hand swapped in is what `legal` reads next (no stale list); the table stays."""
    g = dominohall.new_game("block", players=2, seed=3, options={"hands": 1})
    g.apply(g.legal_actions()[0])
    st = g.state
    ends = st.end_values[:]
    p = st.current
    assert g.legal_actions()                       # the old list, now cached
    played = {str(e["tile"]) for e in g.view(0)["log"] if e["type"] == "play"}
    # one tile that fits the left end and is in nobody's hand nor on the table
    tile = next(TEXT[t] for t in range(28)
                if ends[0] in (HIGH[t], LOW[t]) and TEXT[t] not in played
                and not any(h & BIT[t] for h in st.hands))
    hands = st.hands[:]
    hands[p] = BIT[parse_tile(tile)]
    boneyard = st.boneyard[:2]
    st.set_hands(hands, boneyard)
    assert st.hands[p] == BIT[parse_tile(tile)] and st.boneyard == boneyard
    assert st.end_values == ends
    assert {str(a).split(">")[0] for a in g.legal_actions()} == {tile}
    mt = dominohall.new_game("mexican_train", players=2, seed=1)
    assert mt.legal_actions() != ["draw"]
    hands = mt.state.hands[:]
    hands[mt.current_seat] = 0
    mt.state.set_hands(hands)                        # the boneyard left as it was
    assert [str(a) for a in mt.legal_actions()] == ["draw"]
