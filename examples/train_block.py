"""Train a tiny policy on 2-player Block against `random`, then show it beats `random`.

    .venv/bin/python examples/train_block.py                 # 4000 steps, 2000 test games
    .venv/bin/python examples/train_block.py --steps 6000 --games 2000

The policy is a linear softmax over the legal actions (numpy only): logits =
W @ observation + b, masked by ``action_mask``, trained by REINFORCE with a
running baseline on the Gymnasium env ``dominohall/Block-v0`` (one hand against
the ``random`` bot; reward = points difference at the end of the hand).  Then the
greedy (argmax) policy plays N fresh hands against ``random`` and the win rate is
printed next to that of a uniformly random player, the 50% line.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import dominohall.rl  # noqa: F401  (registers dominohall/Block-v0)


class LinearPolicy:
    def __init__(self, n_obs: int, n_actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((n_actions, n_obs), np.float64)
        self.b = np.zeros(n_actions, np.float64)
        self.rng = rng

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ obs + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: dict[str, np.ndarray], greedy: bool = False) -> int:
        p = self.probs(obs["observation"], obs["action_mask"])
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))

    def update(self, episode: list[tuple[np.ndarray, np.ndarray, int]], advantage: float,
               lr: float) -> None:
        for obs, mask, action in episode:
            p = self.probs(obs, mask)
            grad = -p
            grad[action] += 1.0                   # d log pi(action) / d logits
            self.w += lr * advantage * np.outer(grad, obs)
            self.b += lr * advantage * grad


def play(env: gymnasium.Env, policy: LinearPolicy | None, seed: int,
         rng: np.random.Generator) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    obs, _ = env.reset(seed=seed)
    total, episode, done = 0.0, [], False
    while not done:
        if policy is None:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            action = policy.act(obs, greedy=False)
            episode.append((obs["observation"] / 10.0, obs["action_mask"], action))
        obs, reward, done, _, _ = env.step(action)
        total += reward
    return total, episode


def win_rate(env: gymnasium.Env, policy: LinearPolicy | None, games: int, seed: int,
             rng: np.random.Generator) -> float:
    wins = 0.0
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        done, total = False, 0.0
        while not done:
            if policy is None:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                p = policy.probs(obs["observation"] / 10.0, obs["action_mask"])
                action = int(np.argmax(p))
            obs, reward, done, _, _ = env.step(action)
            total += reward
        wins += 1.0 if total > 0 else 0.5 if total == 0 else 0.0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=4000, help="training steps (decisions)")
    parser.add_argument("--games", type=int, default=2000, help="evaluation games")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    env = gymnasium.make("dominohall/Block-v0", opponents="random")
    space = env.observation_space["observation"]
    policy = LinearPolicy(space.shape[0], env.action_space.n, rng)

    steps, episodes, baseline = 0, 0, 0.0
    while steps < args.steps:
        ret, episode = play(env, policy, seed=10_000 + episodes, rng=rng)
        baseline += 0.05 * (ret - baseline)
        policy.update(episode, (ret - baseline) / 20.0, args.lr)
        steps += len(episode)
        episodes += 1
    print(f"trained {steps} steps ({episodes} hands of Block against random)")

    test_seed = 1_000_000
    trained = win_rate(env, policy, args.games, test_seed, rng)
    untrained = win_rate(env, None, args.games, test_seed, rng)
    print(f"win rate against random over {args.games} hands (ties count half):")
    print(f"  trained policy  {trained:6.1%}")
    print(f"  random policy   {untrained:6.1%}")
    se = (0.25 / args.games) ** 0.5
    print(f"  (one standard error: {se:.1%}; trained - 50% = {(trained - 0.5) / se:+.1f} SE)")


if __name__ == "__main__":
    main()
