"""The batched environments: every row is what the single-game adapters would give."""

from __future__ import annotations

import numpy as np
import pytest

import dominohall
import dominohall.rl as rl
from dominohall.rl import Observer
from dominohall.rl.observer import advantages


def reference_rows(game, seat):
    """Observation and mask of `game`'s view for `seat`, from a replayed copy and a fresh
    Observer (nothing shared with the batch)."""
    twin = dominohall.replay(game.to_record())
    obs = Observer(twin)
    view = twin.view(seat)
    return obs.observe(view), obs.action_mask(view)


def random_legal(masks, rng):
    """A random legal action per row (0 for a finished game's empty mask: ignored)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("game, players, options", [
    ("block", 2, None), ("all_fives", 4, {"teams": True, "target": 100}),
    ("mexican_train", 3, {"rounds": 1}),
])
def test_vector_env_rows_match_the_games_and_autoreset_next_step(game, players, options):
    env = rl.vector_env(game, num_envs=5, players=players, options=options, seed=3,
                        opponents="random")
    assert env.metadata["autoreset_mode"].name == "NEXT_STEP"
    obs, info = env.reset()
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    adv = advantages(env.games[0])
    returns = np.zeros(5)
    ended = 0
    pending_reset = np.zeros(5, bool)
    for step in range(300):
        for i, g in enumerate(env.games):
            if (step + i) % 7 == 0:               # a replayed copy now and then (slow)
                o, m = reference_rows(g, 0)
                assert np.array_equal(obs["observation"][i], o)
                assert np.array_equal(obs["action_mask"][i], m)
        before = [g for g in env.games]
        obs, reward, terminated, truncated, info = env.step(
            random_legal(obs["action_mask"], rng))
        assert not truncated.any()
        for i in range(5):
            if pending_reset[i]:                  # the step after the end: a new deal
                assert env.games[i] is not before[i] and reward[i] == 0
                assert not terminated[i]
                returns[i] = 0.0
                continue
            returns[i] += reward[i]
            if terminated[i]:
                g = env.games[i]
                assert g.is_over
                # the rewards of an episode add up to the learner's final advantage
                assert returns[i] == pytest.approx(adv(g.scores)[0])
                ended += 1
        pending_reset = terminated.copy()
    assert ended >= 3


def test_vector_env_seeding_and_illegal_actions():
    def run(seed):
        env = rl.vector_env("block", num_envs=4, seed=seed)
        obs, _ = env.reset()
        rng = np.random.default_rng(1)
        out = []
        for _ in range(30):
            obs, r, t, _, _ = env.step(random_legal(obs["action_mask"], rng))
            out.append((obs["observation"].copy(), r.copy(), t.copy()))
        return out
    a, b, c = run(7), run(7), run(8)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])
               for x, y in zip(a, b))
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a, c))

    env = rl.vector_env("block", num_envs=3, seed=1, illegal_reward=-7.0)
    obs, _ = env.reset()
    actions = obs["action_mask"].argmax(axis=1)
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    actions[1] = illegal
    actions[2] = 10 ** 6                          # not an action id at all
    version = env.games[1].view(0)["version"]
    obs, reward, terminated, _, info = env.step(actions)
    assert list(terminated) == [False, True, True] or terminated[0] == env.games[0].is_over
    assert reward[1] == reward[2] == -7.0 and info["illegal"] == {1: illegal, 2: 10 ** 6}
    assert env.games[1].view(0)["version"] == version        # nothing was applied
    assert not obs["action_mask"][1].any()
    obs, reward, terminated, _, _ = env.step(obs["action_mask"].argmax(axis=1))
    assert reward[1] == 0 and not terminated[1] and obs["action_mask"][1].any()  # a new deal

    with pytest.raises(ValueError, match="give 3 actions"):
        env.step([0, 0])
    with pytest.raises(ValueError, match="num_envs"):
        rl.vector_env("block", num_envs=0)
    with pytest.raises(ValueError, match="seat must be"):
        rl.vector_env("block", num_envs=2, seat=5)


def test_batched_games_every_seat_and_rewards():
    b = rl.batched_games("all_fives", num_envs=6, players=3, seed=5,
                         options={"target": 100})
    obs, masks, seats = b.reset()
    rng = np.random.default_rng(2)
    totals = np.zeros((6, 3))
    adv = advantages(b.games[0])
    finished = 0
    for step in range(400):
        for i, g in enumerate(b.games):
            assert seats[i] == g.current_seat
            if (step + i) % 7 == 0:
                o, m = reference_rows(g, int(seats[i]))
                assert np.array_equal(obs[i], o) and np.array_equal(masks[i], m)
        games = list(b.games)
        obs, masks, seats, rewards, ended, info = b.step(random_legal(masks, rng))
        assert rewards.shape == (6, 3)
        totals += rewards
        for i in np.flatnonzero(ended):
            final = info["final_scores"][i]
            assert games[i].is_over and final == games[i].scores
            assert list(totals[i]) == pytest.approx(adv(final))
            assert b.games[i] is not games[i]
            totals[i] = 0
            finished += 1
    assert finished >= 2


def test_batched_games_reject_an_illegal_action_before_moving_any_game():
    b = rl.batched_games("block", num_envs=3, seed=1)
    obs, masks, seats = b.reset()
    versions = [g.view(None)["version"] for g in b.games]
    actions = masks.argmax(axis=1)
    actions[2] = int(np.flatnonzero(masks[2] == 0)[0])
    with pytest.raises(dominohall.IllegalAction, match="game 2: action"):
        b.step(actions)
    assert [g.view(None)["version"] for g in b.games] == versions
