"""`count_after` (the count a play would leave, B4) equals the count after laying the
tile, and `count_points` of it the points the play scores, for every legal play of random
All Fives and Block games with every spinner option; and a worked example by hand."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import dominohall
from dominohall.engine.actions import PLAY
from dominohall.engine.tiles import parse_tile


def _end(state, a) -> int:
    t, target, e = a.play
    return e if e >= 0 or target is None else state.end_index(target)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.sampled_from([2, 3, 4]),
       game=st.sampled_from(["all_fives", "block"]),
       spinner=st.sampled_from(["first_double", "every_double", "none"]),
       after=st.booleans(), threes=st.booleans())
def test_count_after_is_the_count_once_laid(seed, players, game, spinner, after, threes):
    opts = {"hands": 1}
    if game == "all_fives":
        opts |= {"spinner": spinner, "spinner_sides_after_ends": after,
                 "fives_and_threes": threes}
    g = dominohall.new_game(game, players=players, seed=seed, options=opts)
    rng = random.Random(seed)
    checked = 0
    while not g.is_over:
        s = g.state
        for a in s.legal():
            if a.kind != PLAY:
                continue
            c = s.clone()
            c.apply(a)
            if c.round != s.round:                 # the hand ended: a new layout
                continue
            count = s.count_after(a.tile, _end(s, a))
            assert count == c._count(), (a, s.ends)
            if game == "all_fives" and not c.over:     # what that count scores (B4)
                assert c.scores[s.current] - s.scores[s.current] == s.count_points(count)
            checked += 1
        g.apply_unchecked(rng.choice(s.legal()))
    assert checked > 0


def test_count_after_by_hand():
    """6-6 leads as the spinner (count 12); 6-3 on its left leaves 12 + 3 = 15 (both
    halves of the spinner still count while its right side is bare); 6-4 on the right
    then covers the last bare line end: 3 + 4 = 7, the spinner's halves no longer count."""
    hands = [["6-6", "6-4", "0-0", "1-1", "2-2", "0-1", "0-2"],
             ["6-3", "5-5", "4-4", "3-3", "1-2", "1-3", "2-3"]]
    dealt = {parse_tile(t) for h in hands for t in h}
    rest = [dominohall.engine.tiles.TEXT[t] for t in range(28) if t not in dealt]
    g = dominohall.new_game("all_fives", players=2, seed=1, hands=hands, boneyard=rest,
                            leader=0, options={"hands": 1})
    s = g.state
    assert s.count_after(parse_tile("6-6"), -1) == 12
    g.apply("6-6", seat=0)
    s = g.state
    assert s.count_after(parse_tile("6-3"), s.end_index("L")) == 15
    g.apply("6-3>L", seat=1)
    s = g.state
    assert s.count_after(parse_tile("6-4"), s.end_index("R")) == 7
    g.apply("6-4>R", seat=0)
    assert g.state.count == 7


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10 ** 6), spinner=st.sampled_from(["first_double", "every_double"]))
def test_lay_replays_a_hands_layout(seed, spinner):
    """`clear_layout` then `lay` for each play of the hand gives the table the game has:
    the same ends (names, values, kinds) and count."""
    g = dominohall.new_game("all_fives", players=3, seed=seed,
                            options={"hands": 1, "spinner": spinner})
    rng = random.Random(seed)
    plays = []
    while not g.is_over:
        s = g.state
        a = rng.choice(s.legal())
        if a.kind == PLAY:
            plays.append((a.tile, _end(s, a)))
            copy = s.clone()
            copy.clear_layout()
            for t, e in plays:
                copy.lay(t, e)
            live = s.clone()
            live.apply(a)
            if live.round != s.round or live.over:
                break
            assert [(x.name, x.value, x.kind) for x in copy.ends] == \
                [(x.name, x.value, x.kind) for x in live.ends]
            assert copy.count == live.count
        g.apply_unchecked(a)
    assert plays
