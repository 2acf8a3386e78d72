"""The Observer: named slices, masks, and never a hidden tile."""

from __future__ import annotations

import random

import pytest
from peers import need
from random_play import random_states

(np,) = need("numpy")

import dominohall  # noqa: E402
from dominohall.rl import Observer, advantage  # noqa: E402
from dominohall.rl.observer import TILE_ID  # noqa: E402

GAMES = [("mexican_train", 4, {}), ("mexican_train", 3, {"engine": "set_aside"}),
         ("all_fives", 2, {}), ("all_fives", 4, {"teams": True}), ("draw", 3, {}),
         ("block", 2, {})]


def states(name, players, options, seed, moves=250):
    return random_states(name, players, options, seed, moves)


@pytest.mark.parametrize("name,players,options", GAMES)
def test_slices_follow_the_view(name, players, options):
    obs = None
    for g in states(name, players, options, seed=11):
        seat = g.current_seat
        view = g.view(seat)
        obs = obs or Observer(g)
        t = obs.observe(view)
        assert t.dtype == np.float32 and t.shape == (obs.size,)
        parts = obs.named(t)
        assert sum(p.size for p in parts.values()) == obs.size
        hand = {TILE_ID[x] for x in view["hand"]}
        assert set(np.flatnonzero(parts["hand"])) == hand
        assert list(parts["hand_sizes"]) == view["hand_sizes"]
        assert parts["boneyard"][0] == view["boneyard"]
        assert list(parts["scores"]) == view["scores"]
        assert parts["seat"][seat] == 1 and parts["current"][seat] == 1
        mask = obs.action_mask(view)
        assert mask.dtype == np.int8 and mask.sum() == len(view["legal_actions"])
        assert {obs.spec.decode(i) for i in np.flatnonzero(mask)} == set(view["legal_actions"])
        if name == "mexican_train":
            for i, train in enumerate(view["trains"]):
                assert parts["train_open_end"][i, train["open_end"]] == 1
                assert parts["train_marker"][i] == train["marker"]
        else:
            assert parts["count"][0] == view["layout"]["count"]


@pytest.mark.parametrize("name,players,options", GAMES)
def test_hidden_tiles_never_change_the_observation(name, players, options):
    """Worlds that differ only in tiles the seat cannot see give the same tensor."""
    rng = random.Random(5)
    differed = 0
    for k, g in enumerate(states(name, players, options, seed=21)):
        if k % 7:
            continue
        seat = k % players
        obs = Observer(g)
        mine = obs.observe(g.view(seat))
        for _ in range(2):
            world = dominohall.sample_world(g.view(seat), rng)
            others = [s for s in range(players) if s != seat]
            if any(world.view(s)["hand"] != g.view(s)["hand"] for s in others):
                differed += 1
            assert np.array_equal(obs.observe(world.view(seat)), mine)
            assert np.array_equal(obs.action_mask(world.view(seat)), obs.action_mask(g.view(seat)))
    assert differed > 0


def test_stacked_deals_differing_in_hidden_tiles():
    """Same seat-0 hand, the other hand and the boneyard exchanged: seat 0 sees no difference
    until a hidden tile is shown."""
    tiles = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]
    rng = random.Random(3)
    rng.shuffle(tiles)
    h0, h1, rest = tiles[:7], tiles[7:14], tiles[14:]
    a = dominohall.new_game("all_fives", players=2, hands=[h0, h1], boneyard=rest, leader=0)
    b = dominohall.new_game("all_fives", players=2, hands=[h0, rest[:7]],
                            boneyard=h1 + rest[7:], leader=0)
    obs = Observer(a)
    assert np.array_equal(obs.observe(a.view(0)), obs.observe(b.view(0)))
    first = a.legal_actions()[0]
    a.apply(first)
    b.apply(first)
    assert np.array_equal(obs.observe(a.view(0)), obs.observe(b.view(0)))
    assert not np.array_equal(obs.observe(a.view(1)), obs.observe(b.view(1)))


def test_spectator_view_is_refused_and_public_mode_hides_the_hand():
    g = dominohall.new_game("block", players=2, seed=1)
    with pytest.raises(ValueError):
        Observer(g).observe(g.view(None))
    public = Observer(g, private=False)
    assert public.named(public.observe(g.view(0)))["hand"].sum() == 0


def test_history_is_most_recent_first():
    g = dominohall.new_game("block", players=2, seed=4, options={"hands": 1})
    first = str(g.legal_actions()[0])
    g.apply(first)
    obs = Observer(g, history=4)
    rows = obs.named(obs.observe(g.view(1)))["history"]
    assert rows[0, 0] == 1 and rows[0, 4 + 0] == 1            # a play by seat 0
    assert rows[0, 4 + 2 + TILE_ID[first]] == 1
    assert not rows[1:].any()


def test_advantage_is_zero_sum_and_signed():
    g = dominohall.new_game("mexican_train", players=3, seed=1)
    view = g.view(0)
    scores = [10, 20, 60]
    values = [advantage(view, s, scores) for s in range(3)]
    assert abs(sum(values)) < 1e-9 and values[0] == -(10 - 40)   # penalty: low is good
    fives = dominohall.new_game("all_fives", players=4, seed=1, options={"teams": True})
    assert advantage(fives.view(1), 1, [5, 15, 5, 15]) == 10


EQUIVALENCE = GAMES + [("all_fives", 3, {"spinner": "every_double", "hands": 2}),
                       ("mexican_train", 2, {"rounds": 2})]


@pytest.mark.parametrize("name,players,options", EQUIVALENCE)
@pytest.mark.parametrize("history,private,compact", [(16, True, False), (3, False, False),
                                                     (0, True, False), (400, True, True)])
def test_the_optimised_observer_matches_the_reference(name, players, options, history, private,
                                                      compact):
    """Incremental history, played tiles from the log and reused tracks change nothing: one
    long-lived Observer (switching seats, games and sampled worlds) gives, tensor for tensor,
    what the straightforward implementation gives on the view alone."""
    from observer_reference import ReferenceObserver

    kept = None
    rng = random.Random(9)
    for seed in (31, 32):
        rng_moves = random.Random(seed)
        g = dominohall.new_game(name, players=players, seed=seed, options=options)
        kept = kept or Observer(g, history=history, private=private, compact=compact)
        ref = ReferenceObserver(g, history=history, private=private, compact=compact)
        assert kept.shapes == ref.shapes and kept.offsets == ref.offsets
        other = dominohall.new_game(name, players=players, seed=seed + 100, options=options)
        steps = 0
        while True:
            for seat in range(players):
                view = g.view(seat)
                assert np.array_equal(kept.observe(view), ref.observe(view))
                assert np.array_equal(kept.action_mask(view), ref.action_mask(view))
            if not other.is_over:             # interleave a second game in the same Observer
                view = other.view(steps % players)
                assert np.array_equal(kept.observe(view), ref.observe(view))
                other.apply(rng.choice(other.legal_actions()))
            if steps % 23 == 5:               # and a sampled world now and then
                world = dominohall.sample_world(g.view(g.current_seat if not g.is_over else 0),
                                                rng)
                view = world.view(g.current_seat if not g.is_over else 0)
                assert np.array_equal(kept.observe(view), ref.observe(view))
            if g.is_over or steps > 600:
                break
            g.apply(rng_moves.choice(g.legal_actions()))
            steps += 1
        # a fresh Observer on the final view (a track built from the log in one go)
        fresh = Observer(g, history=history, private=private, compact=compact)
        assert np.array_equal(fresh.observe(g.view(0)), ref.observe(g.view(0)))


@pytest.mark.parametrize("name,players,options", [("block", 2, {}), ("draw", 3, {}),
                                                  ("mexican_train", 3, {"rounds": 2})])
def test_reused_buffers_and_views_out_of_order(name, players, options):
    """`out` is overwritten whole whatever it held, and views may come in any order (an
    older view after a newer one, seats interleaved, several events at once)."""
    from observer_reference import ReferenceObserver

    rng = random.Random(4)
    g = dominohall.new_game(name, players=players, seed=4, options=options)
    obs = Observer(g, history=5)
    ref = ReferenceObserver(g, history=5)
    out = np.full(obs.size, 7.0, np.float32)
    kept = []
    for step in range(400):
        if g.is_over:
            break
        view = g.view(g.current_seat)
        kept.append(view)
        if step % 5 == 0:
            out.fill(rng.choice([-1.0, 3.5, np.nan]))
        assert np.array_equal(obs.observe(view, out=out), ref.observe(view))
        if step % 9 == 4:                     # look back at an older view of some seat
            old = kept[rng.randrange(len(kept))]
            assert np.array_equal(obs.observe(old, out=out), ref.observe(old))
        g.apply(rng.choice(view["legal_actions"]))
