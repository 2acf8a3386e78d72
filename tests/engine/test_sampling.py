"""sample_world: complete games consistent with one seat's view, built without peeking."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from property_helpers import check_conservation, make, setups

import dominohall
from dominohall.engine.tiles import TEXT

ALL_SIX = [f"{a}-{b}" for a in range(6, -1, -1) for b in range(a, -1, -1)]


# found by Hypothesis: six hands bound by voids, where relaxing one hand's voids was
# not enough and sampling gave up
SIX_PLAYERS_MANY_VOIDS = ("mexican_train", 6, {
    "set_max": 12, "engine": "holder", "first_turn": "free",
    "first_turn_double_owed": "after_first_turns", "must_play": True,
    "draw_until_playable": True, "after_double": "on_double", "double_order": "played",
    "max_doubles_per_turn": "unlimited", "double_blank": 0, "scoring": "penalty",
    "preset": "seed", "rounds": 3})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups, st.integers(0, 2 ** 32))
@example(SIX_PLAYERS_MANY_VOIDS, 1837)
def test_every_sampled_world_reproduces_the_view(setup, seed):
    """All along a random match, worlds sampled from a seat's view show that seat the
    same view, conserve the tiles and play on legally."""
    g = make(setup, seed)
    rng = random.Random(seed)
    sampled = 0
    step = 0
    while not g.is_over:
        step += 1
        if step % 9 == 0:
            seat = rng.randrange(g.players)
            v = g.view(seat)
            w = dominohall.sample_world(v, rng)
            sampled += 1
            assert w.view(seat) == v
            check_conservation(w)
            for _ in range(40):         # a sampled world is a real game: it plays on
                if w.is_over:
                    break
                w.apply(rng.choice(w.legal_actions()))
        g.apply(rng.choice(g.legal_actions()))
    assert sampled >= step // 9


def test_a_pass_in_block_proves_the_passer_holds_none_of_the_open_numbers():
    """Seat 1 passes on ends 6 and 5 in Block (no drawing): no sampled hand of seat 1
    holds a 6 or a 5, while seat 1's real hand differs from most samples."""
    hand0 = ["6-6", "6-5", "5-5", "5-4", "4-4", "6-0", "5-0"]
    hand1 = ["3-3", "3-2", "2-2", "2-1", "1-1", "1-0", "3-1"]
    rest = [t for t in ALL_SIX if t not in hand0 + hand1]
    g = dominohall.new_game("block", players=2, options={"hands": 1}, hands=[hand0, hand1],
                            boneyard=rest, leader=0)
    g.apply("6-5")                        # ends 6 and 5
    assert [str(a) for a in g.legal_actions()] == ["pass"]
    g.apply("pass")
    v = g.view(0)
    assert v["log"][-1]["void"] == [5, 6]
    rng = random.Random(3)
    samples = set()
    for _ in range(200):
        w = dominohall.sample_world(v, rng)
        hand = w.view(1)["hand"]
        assert len(hand) == 7
        assert not any("6" in t or "5" in t for t in hand), hand
        samples.add(tuple(hand))
    assert len(samples) > 20


def test_a_draw_proves_the_hand_before_the_drawn_tile():
    """All Fives: seat 1 draws once on ends 6/6 (spinner lead) and the tile fits.
    Every sampled hand of seat 1 holds at most one tile with a 6 (the drawn one)."""
    hand0 = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    hand1 = ["5-4", "5-3", "5-2", "4-3", "4-2", "3-2", "5-1"]
    rest = [t for t in ALL_SIX if t not in hand0 + hand1]
    rest.remove("6-1")
    g = dominohall.new_game("all_fives", players=2, hands=[hand0, hand1],
                            boneyard=["6-1", *rest], leader=0)
    g.apply("6-6")
    g.apply("draw")                       # seat 1 draws 6-1, which fits
    v = g.view(0)
    assert v["log"][-1]["void"] == [6] and "tile" not in v["log"][-1]
    rng = random.Random(9)
    saw_a_six = False
    for _ in range(200):
        w = dominohall.sample_world(v, rng)
        sixes = [t for t in w.view(1)["hand"] if "6" in t]
        assert len(sixes) <= 1
        saw_a_six |= bool(sixes)
        assert w.view(0) == v
    assert saw_a_six


def test_sampling_reads_only_the_view():
    """Two games that differ only in tiles seat 0 cannot see give seat 0 the same view,
    and so, for the same RNG seed, exactly the same sampled worlds."""
    hand0 = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]
    others = [t for t in ALL_SIX if t not in hand0]
    a = dominohall.new_game("all_fives", players=2, hands=[hand0, others[:7]],
                            boneyard=others[7:], leader=0)
    b = dominohall.new_game("all_fives", players=2, hands=[hand0, others[-7:]],
                            boneyard=others[:-7], leader=0)
    assert a.view(0) == b.view(0)
    wa = dominohall.sample_world(a.view(0), random.Random(5))
    wb = dominohall.sample_world(b.view(0), random.Random(5))
    assert wa.view(1) == wb.view(1)
    assert [TEXT[t] for t in wa.state.boneyard] == [TEXT[t] for t in wb.state.boneyard]


def test_sampled_worlds_refuse_a_record_and_spectator_views():
    g = dominohall.new_game("mexican_train", players=3, seed=4)
    w = dominohall.sample_world(g.view(1), random.Random(0))
    try:
        w.to_record()
    except dominohall.BadRecord:
        pass
    else:
        raise AssertionError("a sampled world must not pretend to have a record")
    try:
        dominohall.sample_world(g.view(None), random.Random(0))
    except dominohall.DominohallError:
        pass
    else:
        raise AssertionError("a spectator view has no hand to sample around")
