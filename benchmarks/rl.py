"""RL environment speed: steps/second with observation tensors, ours next to OpenSpiel.

    .venv/bin/python benchmarks/rl.py              # 5 s per measurement
    .venv/bin/python benchmarks/rl.py --seconds 1

Every step is one player decision of 2-player Block (double-6, 7 tiles each, one
hand) by a uniformly random legal action (seeded), *with* the acting player's
observation tensor computed first.  Dealing is part of the time on both sides.

* ``ours (Observer)``: ``Game.view(seat)`` -> ``Observer.observe`` + ``action_mask``
  -> ``Game.apply``: what any adapter pays per step.
* ``ours (PettingZoo AEC)``: ``pettingzoo_env("block")``, ``env.last()`` then
  ``env.step``, rewards and all.
* ``OpenSpiel python_block_dominoes``: ``state.observation_tensor(player)`` ->
  ``legal_actions()`` -> ``apply_action``; chance nodes (the deal) are applied but
  not counted as steps.

The ratios (ours / OpenSpiel, > 1 means we are faster) are printed at the end;
the target is >= 5x.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

import dominohall
from dominohall.rl import Observer, pettingzoo_env


def ours_observer(seconds: float) -> tuple[int, float]:
    rng = random.Random(1)
    probe = dominohall.new_game("block", players=2, seed=0, options={"hands": 1})
    obs = Observer(probe)
    tensor = np.zeros(obs.size, np.float32)
    mask = np.zeros(obs.spec.size, np.int8)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            g = dominohall.new_game("block", players=2, seed=rng.randrange(2 ** 30),
                                    options={"hands": 1})
            while not g.is_over:
                view = g.view(g.current_seat)
                obs.observe(view, out=tensor)
                obs.action_mask(view, out=mask)
                g.apply(rng.choice(view["legal_actions"]))
                steps += 1
    return steps, time.perf_counter() - start


def ours_pettingzoo(seconds: float) -> tuple[int, float]:
    rng = random.Random(2)
    env = pettingzoo_env("block", players=2, options={"hands": 1}, seed=1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            env.reset(seed=rng.randrange(2 ** 30))
            while True:
                observation, _, term, trunc, _ = env.last()
                if term or trunc:
                    break
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
    return steps, time.perf_counter() - start


def openspiel(seconds: float) -> tuple[int, float]:
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    rng = random.Random(3)
    game = pyspiel.load_game("python_block_dominoes")
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choice(outcomes)[0])
                    continue
                state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
    return steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    rows: list[tuple[str, Callable[[float], tuple[int, float]]]] = [
        ("ours (Observer)", ours_observer),
        ("ours (PettingZoo AEC)", ours_pettingzoo),
        ("OpenSpiel python_block_dominoes", openspiel),
    ]
    rates: dict[str, float] = {}
    print(f"2-player Block, random play, observation tensor every step ({args.seconds:g} s each)")
    for label, run in rows:
        try:
            steps, secs = run(args.seconds)
        except ImportError as err:
            print(f"{label:34s} skipped: {err}")
            continue
        rates[label] = steps / secs
        print(f"{label:34s} {rates[label]:>10,.0f} steps/s")
    peer = rates.get("OpenSpiel python_block_dominoes")
    if peer:
        for label in ("ours (Observer)", "ours (PettingZoo AEC)"):
            if label in rates:
                ratio = rates[label] / peer
                verdict = "meets" if ratio >= 5 else "below"
                print(f"ratio {label} / OpenSpiel: {ratio:.2f}x ({verdict} the 5x target)")


if __name__ == "__main__":
    main()
