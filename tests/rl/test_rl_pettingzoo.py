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


def test_reset_seeds_follow_the_last_seed_given():
    import random

    def dealt(env):
        return env.game.to_record()["seed"]

    env = pettingzoo_env("block", players=2, options={"hands": 1}, seed=11)
    rng = random.Random(11)
    env.reset()
    assert dealt(env) == 11                     # the constructor's seed deals first
    env.reset()
    env.reset()
    assert dealt(env) == [rng.randrange(2 ** 62) for _ in range(2)][-1]
    env.reset(seed=5)
    assert dealt(env) == 5
    rng = random.Random(5)
    for _ in range(3):
        env.reset()
        assert dealt(env) == rng.randrange(2 ** 62)
    unseeded = pettingzoo_env("block", players=2, options={"hands": 1})
    unseeded.reset()
    unseeded.reset(seed=5)
    unseeded.reset()
    assert dealt(unseeded) == random.Random(5).randrange(2 ** 62)


def test_observations_and_rewards_are_new_objects_that_never_change():
    env = pettingzoo_env("all_fives", players=2, options={"hands": 1}, seed=4)
    env.reset()
    rng = np.random.default_rng(4)
    kept = []
    for agent in env.agent_iter(max_iter=500):
        obs, reward, term, trunc, info = env.last()
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].flags.owndata and obs["observation"].flags.writeable
        assert env.observation_space(agent).contains(obs)
        again = env.observe(agent)
        assert again["observation"] is not obs["observation"]
        assert again["action_mask"] is not obs["action_mask"]
        assert np.array_equal(again["observation"], obs["observation"])
        assert np.array_equal(again["action_mask"], obs["action_mask"])
        if term or trunc:               # (PettingZoo's dead steps empty the last rewards)
            env.step(None)
            continue
        kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy(),
                     env.rewards, dict(env.rewards)))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        legal = [str(a) for a in env.game.legal_actions()]
        assert sorted(legal) == sorted(str(env.actions.engine_actions[i])
                                       for i in np.flatnonzero(obs["action_mask"]))
        env.step(action)
    assert any(any(r.values()) for *_, r in kept)  # All Fives pays as it goes
    for obs, tensor, mask, rewards, copied in kept:
        assert np.array_equal(obs["observation"], tensor)
        assert np.array_equal(obs["action_mask"], mask)
        assert rewards == copied


@pytest.mark.parametrize("kind", ["np.int64", "float", "str", "bool"])
def test_other_action_types_are_taken_as_int(kind):
    def play(convert):
        env = pettingzoo_env("block", players=2, options={"hands": 1}, seed=2)
        env.reset()
        trace = []
        for agent in env.agent_iter(max_iter=200):
            obs, reward, term, trunc, _ = env.last()
            trace.append((agent, reward, obs["observation"].tobytes()))
            if term or trunc:
                env.step(None)
                continue
            env.step(convert(int(np.flatnonzero(obs["action_mask"])[-1])))
        return trace

    convert = {"np.int64": np.int64, "float": float, "str": str,
               "bool": lambda code: code}[kind]
    assert play(convert) == play(int)
    if kind == "bool":           # True is action 1: legal or not, it is taken as 1
        env = pettingzoo_env("block", players=2, options={"hands": 1}, seed=2)
        env.reset()
        agent = env.agent_selection
        legal = bool(env.observe(agent)["action_mask"][1])
        env.step(True)
        assert ("illegal" in env.infos[agent]) != legal


@pytest.mark.parametrize("action,shown", [(-1, -1), (10 ** 6, 10 ** 6), ("x", "x"),
                                          (None, None), ("mask0", "text")])
def test_illegal_actions_of_every_kind(action, shown):
    env = pettingzoo_env("block", players=2, options={"hands": 1}, seed=3)
    env.reset()
    agent = env.agent_selection
    other = next(a for a in env.agents if a != agent)
    if action == "mask0":
        action = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
        shown = str(env.actions.engine_actions[action])
    version = env.game.view(None)["version"]
    env.step(action)
    assert env.game.view(None)["version"] == version        # nothing was applied
    assert env.infos[agent]["illegal"] == shown and env.infos[agent]["error"]
    assert env.rewards == {agent: -100.0, other: 0.0}
    assert all(env.terminations.values()) and not any(env.truncations.values())
    obs, reward, term, _, _ = env.last()
    assert term and reward == -100.0 and not obs["action_mask"].any()
    assert not env.observe(other)["action_mask"].any()
    env.step(None)                                          # the dead steps, as usual
    obs, reward, term, _, _ = env.last()
    assert env.agent_selection == other and term and reward == 0.0
    env.step(None)
    assert env.agents == []
    env.reset()                                             # a new episode is legal again
    assert env.observe(env.agent_selection)["action_mask"].any()


def test_last_without_observing():
    env = pettingzoo_env("draw", players=3, options={"hands": 1}, seed=6)
    env.reset()
    obs, reward, term, trunc, info = env.last(observe=False)
    assert obs is None and reward == 0.0 and not term and not trunc and info == {}
