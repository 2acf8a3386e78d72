"""PettingZoo AEC environments: api_test for every game, same seed -> same game."""

from __future__ import annotations

import pytest
from peers import need

np, _ = need("numpy", "pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

import dominohall  # noqa: E402
from dominohall.rl import pettingzoo_env  # noqa: E402

CASES = [("mexican_train", 4, {"rounds": 1}), ("mexican_train", 2, {"rounds": 2}),
         ("all_fives", 2, {"target": 100}), ("all_fives", 4, {"teams": True, "hands": 1}),
         ("draw", 3, {"hands": 1}), ("block", 2, {"hands": 1})]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name,players,options", CASES)
def test_api_test(name, players, options):
    api_test(pettingzoo_env(name, players=players, options=options, seed=1), num_cycles=300)


def run(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    trace, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=5000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, obs["observation"].tobytes()))
        env.step(action)
    return trace, totals, env.game


@pytest.mark.parametrize("name,players,options", CASES[:1] + CASES[2:3] + CASES[5:])
def test_same_seed_same_game(name, players, options):
    env = pettingzoo_env(name, players=players, options=options)
    a, totals, game = run(env, seed=42)
    b, _, _ = run(env, seed=42)
    c, _, _ = run(env, seed=43)
    assert a == b and a != c
    record = game.to_record()                  # the env's game is new_game(seed=42)
    ref = dominohall.new_game(name, players=players, seed=42, options=options)
    assert dominohall.replay(dict(record, actions=[])).view(0) == ref.view(0)
    # rewards add up to each seat's final advantage, zero-sum
    assert abs(sum(totals.values())) < 1e-6
    adv = env._advantages(game.scores)
    for k, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx(adv[k])


def test_illegal_action_ends_the_episode_with_the_penalty():
    env = pettingzoo_env("block", players=2, options={"hands": 1}, seed=3)
    env.reset()
    agent = env.agent_selection
    obs = env.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -100.0 and "illegal" in env.infos[agent]
