"""The vector env is N single envs: same seeds, same observations, masks, rewards and ends.

And the StateObserver, which reads the engine's state instead of ``Game.view``, writes the
Observer's tensor of the view exactly, and nothing a seat cannot see changes it.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from peers import need

need("gymnasium")

import dominohall  # noqa: E402
import dominohall.rl as rl  # noqa: E402
from dominohall.engine.tiles import BIT, TEXT, ids  # noqa: E402
from dominohall.rl import Observer  # noqa: E402
from dominohall.rl.gym_env import DominohallEnv  # noqa: E402
from dominohall.rl.state_observer import StateObserver, line_layout, supports  # noqa: E402

# short matches, so that episodes end and autoreset happens inside a test
GAMES = {
    "block": (2, {"hands": 1}),
    "draw": (3, {"target": 100}),
    "all_fives": (2, {"target": 100}),
    "mexican_train": (3, {"rounds": 2}),
}
FEW = settings(max_examples=6, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.too_slow])


def random_legal(mask, rng):
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if len(legal) else 0


@pytest.mark.parametrize("game", list(GAMES))
@FEW
@given(seed=st.integers(0, 2 ** 31), actions_seed=st.integers(0, 2 ** 31))
def test_vector_env_is_n_single_envs(game, seed, actions_seed):
    players, options = GAMES[game]
    n = 3
    opponents = "random" if game != "mexican_train" else ["random", "greedy"]
    vec = rl.vector_env(game, num_envs=n, players=players, options=options, seed=seed,
                        opponents=opponents)
    singles = [DominohallEnv(game, players=players, options=options, opponents=opponents)
               for _ in range(n)]
    obs, _ = vec.reset()
    # SyncVectorEnv's seeding: env i is reset with seed + i, then without a seed
    expect = [env.reset(seed=seed + i)[0] for i, env in enumerate(singles)]
    rng = np.random.default_rng(actions_seed)
    pending = [False] * n
    episodes = 0
    for step in range(120):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], expect[i]["observation"]), (step, i)
            assert np.array_equal(obs["action_mask"][i], expect[i]["action_mask"]), (step, i)
        actions = [random_legal(obs["action_mask"][i], rng) for i in range(n)]
        if step % 37 == 36:                  # now and then an illegal action in slot 1
            actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
        obs, reward, terminated, truncated, info = vec.step(np.array(actions))
        for i, env in enumerate(singles):
            if pending[i]:                   # NEXT_STEP autoreset: a new deal, reward 0
                expect[i], _ = env.reset()
                r, t = 0.0, False
            else:
                expect[i], r, t, _, _ = env.step(actions[i])
                episodes += t
            assert reward[i] == r and terminated[i] == t, (step, i)
            assert not truncated[i]
            pending[i] = t
    assert episodes >= 1


@pytest.mark.parametrize("game", list(GAMES))
@FEW
@given(seed=st.integers(0, 2 ** 31))
def test_batched_games_rows_are_the_observer_of_the_view(game, seed):
    players, options = GAMES[game]
    b = rl.batched_games(game, num_envs=2, players=players, options=options, seed=seed)
    obs, masks, seats = b.reset()
    rng = np.random.default_rng(seed)
    for step in range(150):
        for i, g in enumerate(b.games):
            reference = Observer(g)           # fresh: nothing shared with the batch
            view = g.view(int(seats[i]))
            assert np.array_equal(obs[i], reference.observe(view)), (step, i)
            assert np.array_equal(masks[i], reference.action_mask(view)), (step, i)
        obs, masks, seats, *_ = b.step([random_legal(m, rng) for m in masks])


def test_both_interfaces_read_the_state_not_the_view():
    """The fast path is on for every game with this engine (a refactored engine state
    falls back to views: correct, but slow; this test says so)."""
    for game, (players, options) in GAMES.items():
        g = dominohall.new_game(game, players=players, seed=1, options=options)
        assert supports(g), f"{game}: the StateObserver no longer reads this engine's state"
        assert rl.vector_env(game, players=players, options=options)._batch.fast
        assert rl.batched_games(game, players=players, options=options)._batch.fast


# ------------------------------------------------------------------ hidden information
def row(game, seat, like=None):
    """The StateObserver's row of `seat`'s observation, from a fresh track (`like`: a
    Game of the same kind, when `game` is not a Game)."""
    so = StateObserver(Observer(game if like is None else like))
    store = np.zeros((2, so.size), np.float32)
    so.write_rows(store, memoryview(store.reshape(-1)), [0], [game], [seat], [so.new_track()])
    return store[0]


def hide_differently(game, seat, rng):
    """A copy of `game` that `seat` cannot tell apart: another seat's tile swapped with a
    boneyard tile, the boneyard shuffled, and every tile another seat drew (in the raw
    log) replaced by some other tile."""
    twin = game.clone()
    s = twin.state
    others = [o for o in range(twin.players) if o != seat and s.hands[o]]
    if others and s.boneyard:
        o = others[rng.integers(len(others))]
        mine = ids(s.hands[o])
        t = mine[rng.integers(len(mine))]
        k = int(rng.integers(len(s.boneyard)))
        u = s.boneyard[k]
        s.hands[o] ^= BIT[t] | BIT[u]
        s.boneyard[k] = t
    rng.shuffle(s.boneyard)
    fake = int(rng.integers(28))
    for k, e in enumerate(s.log):
        if e.__class__ is tuple and e[0] == "draw" and e[1] != seat:
            s.log[k] = (e[0], e[1], fake, e[3])
        elif isinstance(e, dict) and e.get("type") == "draw" and e["seat"] != seat:
            s.log[k] = {**e, "tile": TEXT[fake]}
    return twin


def played(game: str, players: int, options: dict, seed: int, moves: int):
    """A game after up to `moves` random legal moves from the deal of `seed`, and the
    generator that chose them (for more random choices after)."""
    g = dominohall.new_game(game, players=players, seed=seed, options=options)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if g.is_over:
            break
        legal = g.legal_actions()
        g.apply(legal[rng.integers(len(legal))])
    return g, rng


@pytest.mark.parametrize("game", list(GAMES))
@FEW
@given(seed=st.integers(0, 2 ** 31), moves=st.integers(0, 60))
def test_hidden_tiles_change_nothing_in_the_state_rows(game, seed, moves):
    players, options = GAMES[game]
    g, rng = played(game, players, options, seed, moves)
    for seat in range(players):
        mine = row(g, seat)
        assert np.array_equal(mine, Observer(g).observe(g.view(seat)))
        twin = hide_differently(g, seat, rng)
        assert twin.state.hands[seat] == g.state.hands[seat]
        assert np.array_equal(row(twin, seat), mine), seat
        # and what the seat does see matters: its own hand
        if g.state.hands[seat] and twin.state.boneyard and not g.is_over:
            s = twin.state
            t = ids(s.hands[seat])[0]
            u = s.boneyard[0]
            s.hands[seat] ^= BIT[t] | BIT[u]
            s.boneyard[0] = t
            assert not np.array_equal(row(twin, seat), mine)


class _OtherLayout:
    """A line-game state seen through the other layout form the StateObserver reads: from
    parallel lists, the open ends as objects (name, value, tiles) and the spinners as
    objects (tile, arms), as the engine's End and Spinner classes keep them; from those
    objects, the parallel lists and spinner lists [tile, value, bare, arms, ...]."""

    def __init__(self, st):
        for name in ("hands", "boneyard", "log", "lead", "count", "drew", "passes", "over",
                     "current", "scores", "round", "n"):
            setattr(self, name, getattr(st, name))
        if line_layout(st) == "lists":
            self.ends = [SimpleNamespace(name=n, value=v, tiles=t)
                         for n, v, t in zip(st.end_names, st.end_values, st.end_tiles)]
            self.spinners = [SimpleNamespace(tile=s[0], arms=bool(s[3])) for s in st.spinners]
        else:
            self.end_names = [e.name for e in st.ends]
            self.end_values = [e.value for e in st.ends]
            self.end_tiles = [e.tiles for e in st.ends]
            self.spinners = [[s.tile, s.value, s.bare, int(s.arms)] for s in st.spinners]


@pytest.mark.parametrize("game", ["block", "draw", "all_fives"])
@FEW
@given(seed=st.integers(0, 2 ** 31), moves=st.integers(0, 60))
def test_state_rows_read_both_layout_forms(game, seed, moves):
    players, options = GAMES[game]
    if game == "all_fives":
        options = {**options, "spinner": "every_double"}      # arms U, D, U2, D2, ...
    g, rng = played(game, players, options, seed, moves)
    twin = SimpleNamespace(state=_OtherLayout(g.state), name=g.name)
    assert {line_layout(g.state), line_layout(twin.state)} == {"lists", "objects"}
    for seat in range(players):
        assert np.array_equal(row(twin, seat, like=g), row(g, seat)), seat
        assert np.array_equal(row(g, seat), Observer(g).observe(g.view(seat)))
