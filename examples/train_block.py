"""Train a small policy on 2-player Block against `random`, then show it beats `random`.

    .venv/bin/python examples/train_block.py          # ~25 s: 20000 hands, 4000 tests, arena
    .venv/bin/python examples/train_block.py --hands 300 --games 200 --deals 100  # a quick look

Result on a 2-core box (seed 0, 24 s): 63.9% [62.4%, 65.3%] against `random`, next
to 49.5% for a random player on the same deals; in the arena (2000 duplicate deals,
each played from both seats) it finishes ahead of `random` in 65.5% [64.2%, 66.8%]
of the games.

Everything goes through the public pieces of ``dominohall.rl``: the Gymnasium env
``dominohall/Block-v0`` (one hand against the ``random`` bot; reward = the points
difference at the end of the hand), its :class:`~dominohall.rl.Observer` tensor (read
by slice name) and ``action_mask``, and the fixed action space (``decode_action``).

* Features.  For every legal action ``a`` a few numbers derived from the observation
  tensor and the action's tile and target (:func:`action_features`): the tile's pips,
  whether it is a double, how many of our remaining tiles will still fit an open end
  afterwards, how many tiles of the new open number we hold and how many are already on
  the table (the opponent is short of them), and whether the play leaves us with a
  single number to play on.  Draw and pass are the only actions when they are legal.
* Policy.  A linear softmax over the legal actions, ``pi(a) ~ exp(theta . phi(a))``
  (numpy only), trained by REINFORCE with a running-mean baseline on the hand's return.
* Evaluation.  The greedy policy (highest score) plays ``--games`` fresh hands against
  ``random`` (a tie counts half), next to a uniformly random player on the same deals;
  each win rate is printed with its 95% confidence interval.
* The arena.  The trained policy becomes a bot (:class:`PolicyBot`: it sees only its
  seat's view, like every bot) registered with ``dominohall.bots.register``, and
  ``dominohall.arena.run`` plays it against ``random`` on ``--deals`` duplicate deals,
  each from both seats: the finish-ahead share with its 95% interval over deals.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import dominohall.rl  # noqa: F401  (registers dominohall/Block-v0)
from dominohall import arena, bots
from dominohall.rl.actions import TILE_TEXT

PIPS = [tuple(int(x) for x in text.split("-")) for text in TILE_TEXT]
FEATURES = ("bias", "pips", "double", "fits_after", "hold_new", "seen_new", "single_number")


class Features:
    """phi(observation, action) for every legal action, from the Observer's named slices."""

    def __init__(self, env: gymnasium.Env) -> None:
        base = env.unwrapped
        self.observer = base.observer
        self.spec = base.actions
        n_tiles = self.spec.n_tiles
        self.pips = np.array([a + b for a, b in PIPS[:n_tiles]], np.float64)
        self.halves = np.array(PIPS[:n_tiles])
        # number -> 0/1 vector of the tiles carrying it
        p = self.spec.set_max + 1
        self.carries = np.array([[x in PIPS[t] for t in range(n_tiles)] for x in range(p)],
                                np.float64)
        self.specials = len(self.spec.specials)
        self.targets = self.spec.targets

    def __call__(self, obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(legal action ids, their feature rows)."""
        legal = np.flatnonzero(obs["action_mask"])
        parts = self.observer.named(obs["observation"])
        hand, played = parts["hand"], parts["played"]
        ends = {}                                   # open end name -> its number
        for name, row in zip(self.targets[1:], parts["end_open"]):
            if row.any():
                ends[name] = int(row.argmax())
        phi = np.zeros((len(legal), len(FEATURES)))
        for i, code in enumerate(legal):
            phi[i, 0] = 1.0
            if code < self.specials:                # draw / pass: forced, nothing to choose
                continue
            k, tile = divmod(int(code) - self.specials, self.spec.n_tiles)
            a, b = self.halves[tile]
            target = self.targets[k]
            if target is None:                      # the lead: both halves become open ends
                numbers = [int(a), int(b)]
                new = numbers
            else:
                v = ends[target]
                u = int(b if a == v else a)
                numbers = [u] + [x for name, x in ends.items() if name != target]
                new = [u]
            rest = hand.copy()
            rest[tile] = 0.0
            fits = np.zeros_like(rest)
            for x in set(numbers):
                fits = np.maximum(fits, self.carries[x] * rest)
            phi[i, 1] = self.pips[tile] / 12.0
            phi[i, 2] = float(a == b)
            phi[i, 3] = fits.sum() / 7.0
            phi[i, 4] = sum((self.carries[x] * rest).sum() for x in new) / 7.0
            phi[i, 5] = sum((self.carries[x] * played).sum() for x in new) / 7.0
            phi[i, 6] = float(len(set(numbers)) == 1)
        return legal, phi


class SoftmaxPolicy:
    """pi(a | s) ~ exp(theta . phi(s, a)) over the legal actions."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.theta = np.zeros(len(FEATURES))
        self.rng = rng

    def probs(self, phi: np.ndarray) -> np.ndarray:
        z = phi @ self.theta
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()

    def act(self, phi: np.ndarray, greedy: bool) -> int:
        if greedy:
            return int(np.argmax(phi @ self.theta))
        return int(self.rng.choice(len(phi), p=self.probs(phi)))

    def grad_log(self, phi: np.ndarray, i: int) -> np.ndarray:
        return phi[i] - self.probs(phi) @ phi


def play_hand(env: gymnasium.Env, features: Features, policy: SoftmaxPolicy | None,
              seed: int, rng: np.random.Generator, greedy: bool = False,
              ) -> tuple[float, list[np.ndarray]]:
    """One hand; the return and the score-function terms of the learner's choices."""
    obs, _ = env.reset(seed=seed)
    total, grads, done = 0.0, [], False
    while not done:
        if policy is None:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            legal, phi = features(obs)
            i = policy.act(phi, greedy) if len(legal) > 1 else 0
            if not greedy and len(legal) > 1:
                grads.append(policy.grad_log(phi, i))
            action = int(legal[i])
        obs, reward, done, _, _ = env.step(action)
        total += reward
    return total, grads


def train(env: gymnasium.Env, features: Features, policy: SoftmaxPolicy, hands: int,
          lr: float, rng: np.random.Generator) -> int:
    """REINFORCE with a running-mean baseline; returns the number of decisions."""
    baseline, steps = 0.0, 0
    for k in range(hands):
        ret, grads = play_hand(env, features, policy, seed=10_000 + k, rng=rng)
        ret /= 20.0                                  # points -> about unit scale
        advantage = ret - baseline
        baseline += 0.02 * (ret - baseline)
        for g in grads:
            policy.theta += lr * advantage * g
        steps += len(grads)
    return steps


def win_rate(env: gymnasium.Env, features: Features, policy: SoftmaxPolicy | None,
             games: int, seed: int, rng: np.random.Generator) -> tuple[float, float]:
    """Win rate against `random` (ties count half) and the half-width of its 95% interval."""
    scores = np.empty(games)
    for k in range(games):
        total, _ = play_hand(env, features, policy, seed + k, rng, greedy=True)
        scores[k] = 1.0 if total > 0 else 0.5 if total == 0 else 0.0
    rate = float(scores.mean())
    return rate, 1.96 * float(scores.std(ddof=1)) / games ** 0.5


class PolicyBot:
    """The trained policy as a dominohall bot: the Observer turns its view (and nothing
    else) into the tensor and mask the policy was trained on; it plays the greedy choice."""

    def __init__(self, features: Features, policy: SoftmaxPolicy) -> None:
        self.features, self.policy = features, policy
        self.observer = features.observer
        self.engine_actions = features.spec.engine_actions

    def act(self, view: dict) -> str:
        obs = {"observation": self.observer.observe(view),
               "action_mask": self.observer.action_mask(view)}
        legal, phi = self.features(obs)
        i = self.policy.act(phi, greedy=True) if len(legal) > 1 else 0
        return str(self.engine_actions[int(legal[i])])


def arena_check(features: Features, policy: SoftmaxPolicy, deals: int,
                seed: int) -> dict[str, float]:
    """The trained bot against `random` in the arena: finish-ahead share over duplicate
    deals (each deal from both seats) with the arena's 95% interval over deals."""
    bots.register("trained_block", lambda seed=0: PolicyBot(features, policy), games=["block"])
    results = arena.run("block", 2, ["trained_block", "random"], deals=deals, seed=seed,
                        options={"hands": 1}, progress=True)
    pair = next(p for p in results.stats["pairs"] if p["bot"] == "trained_block")
    low, high = pair["ahead_ci_deals"]
    print(f"arena, {deals} duplicate deals x 2 seats: the trained bot finishes ahead of "
          f"random in {pair['ahead_rate']:.1%} [{low:.1%}, {high:.1%}] of the games "
          f"(ties half), {pair['diff_mean']:+.2f} points per game")
    return {"arena_ahead": pair["ahead_rate"], "arena_low": low, "arena_high": high}


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="training hands")
    parser.add_argument("--games", type=int, default=4000, help="evaluation hands")
    parser.add_argument("--deals", type=int, default=2000,
                        help="duplicate deals for the arena check (each played twice)")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    env = gymnasium.make("dominohall/Block-v0", opponents="random")
    features = Features(env)
    policy = SoftmaxPolicy(rng)

    start = time.perf_counter()
    steps = train(env, features, policy, args.hands, args.lr, rng)
    print(f"trained on {args.hands} hands of Block against random ({steps} choices among "
          f"2+ legal actions) in {time.perf_counter() - start:.0f} s")
    print("weights: " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, policy.theta)))

    test_seed = 1_000_000                           # deals never seen in training
    trained, t_ci = win_rate(env, features, policy, args.games, test_seed, rng)
    untrained, u_ci = win_rate(env, features, None, args.games, test_seed, rng)
    print(f"win rate against random over {args.games} hands (ties count half, 95% interval):")
    print(f"  trained policy  {trained:6.1%}  [{trained - t_ci:.1%}, {trained + t_ci:.1%}]")
    print(f"  random policy   {untrained:6.1%}  [{untrained - u_ci:.1%}, {untrained + u_ci:.1%}]")
    checked = arena_check(features, policy, args.deals, test_seed) if args.deals > 0 else {}
    return {"trained": trained, "trained_ci": t_ci, "random": untrained, "random_ci": u_ci,
            **checked, **{f"w_{name}": float(w) for name, w in zip(FEATURES, policy.theta)}}


if __name__ == "__main__":
    main()
