"""Gymnasium single-agent environments against bots."""

from __future__ import annotations

import pytest
from peers import need

np, gymnasium = need("numpy", "gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import dominohall.rl  # noqa: E402,F401


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("env_id,kwargs", [
    ("dominohall/MexicanTrain-v0", {"opponents": "greedy", "options": {"rounds": 2}}),
    ("dominohall/AllFives-v0", {"opponents": "greedy"}),
    ("dominohall/Block-v0", {}),
    ("dominohall/Draw-v0", {"players": 3, "opponents": ["random", "greedy"]}),
])
def test_check_env_and_rewards(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(1)
    total, done = 0.0, False
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        total += reward
        assert not truncated
    game = env.unwrapped.game
    assert game.is_over and info["scores"] == game.scores
    assert total == pytest.approx(env.unwrapped._advantages(game.scores)[0])


def test_every_bot_name_is_accepted_and_unknown_names_are_not():
    from dominohall import bots

    for name in bots.names("all_fives"):
        env = gymnasium.make("dominohall/AllFives-v0", opponents=name)
        env.reset(seed=1)
    with pytest.raises(ValueError, match="unknown bot"):
        gymnasium.make("dominohall/AllFives-v0", opponents="nobody")


def test_mexican_train_reward_is_the_negative_penalty_difference():
    env = gymnasium.make("dominohall/MexicanTrain-v0", players=2, opponents="random",
                         options={"rounds": 1})
    obs, _ = env.reset(seed=9)
    rng = np.random.default_rng(2)
    rewards, done = [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, _, info = env.step(action)
        rewards.append(reward)
    mine, theirs = info["scores"]
    assert sum(rewards) == pytest.approx(-(mine - theirs))
    assert all(r == 0 for r in rewards[:-1])        # paid at the round's end only


def test_same_seed_same_episode_and_illegal_actions():
    env = gymnasium.make("dominohall/Block-v0")
    a, _ = env.reset(seed=7)
    b, _ = env.reset(seed=7)
    assert np.array_equal(a["observation"], b["observation"])
    illegal = int(np.flatnonzero(b["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -100.0 and "illegal" in info
