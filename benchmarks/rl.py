"""RL environment speed: steps/second with observation tensors, ours next to OpenSpiel.

    .venv/bin/python benchmarks/rl.py              # 3 rounds of 2 s per measurement
    .venv/bin/python benchmarks/rl.py --seconds 1 --repeat 5

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
* ``OpenSpiel rl_environment``: OpenSpiel's own RL wrapper,
  ``rl_environment.Environment`` over the same game: ``reset`` / ``step``, which samples
  chance nodes itself and fills every player's information-state tensor.

Two comparisons are like with like.  The engine plus observation tensor, without an RL
wrapper: ours (Observer) / OpenSpiel python_block_dominoes, the issue's 5x target.
An RL environment on each side: ours (PettingZoo AEC) / OpenSpiel rl_environment.  The
AEC row against the bare OpenSpiel state is printed too; there the AEC also pays for
what an environment adds (the mask as a numpy array picked with ``np.flatnonzero``,
fresh arrays, rewards per agent, the final observation).

Time is this process's CPU time (``time.process_time``), so other load on a busy
machine slows neither side's count; the measurements are interleaved in ``--repeat``
rounds and each round's ratio is printed, then the median (> 1 means we are faster).
"""

from __future__ import annotations

import argparse
import random
import statistics
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
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(20):
            g = dominohall.new_game("block", players=2, seed=rng.randrange(2 ** 30),
                                    options={"hands": 1})
            while not g.is_over:
                view = g.view(g.current_seat)
                obs.observe(view, out=tensor)
                obs.action_mask(view, out=mask)
                g.apply(rng.choice(view["legal_actions"]))
                steps += 1
    return steps, time.process_time() - start


def ours_pettingzoo(seconds: float) -> tuple[int, float]:
    rng = random.Random(2)
    env = pettingzoo_env("block", players=2, options={"hands": 1}, seed=1)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(20):
            env.reset(seed=rng.randrange(2 ** 30))
            while True:
                observation, _, term, trunc, _ = env.last()
                if term or trunc:
                    break
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
                steps += 1
    return steps, time.process_time() - start


def openspiel(seconds: float) -> tuple[int, float]:
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    rng = random.Random(3)
    game = pyspiel.load_game("python_block_dominoes")
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
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
    return steps, time.process_time() - start


def openspiel_rl_environment(seconds: float) -> tuple[int, float]:
    import pyspiel
    from open_spiel.python import rl_environment
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    rng = random.Random(4)
    env = rl_environment.Environment(pyspiel.load_game("python_block_dominoes"), seed=4)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(20):
            step = env.reset()
            while not step.last():
                player = step.observations["current_player"]
                step = env.step([rng.choice(step.observations["legal_actions"][player])])
                steps += 1
    return steps, time.process_time() - start


COMPARISONS = [   # (ours, peer, target or None)
    ("ours (Observer)", "OpenSpiel python_block_dominoes", 5.0),
    ("ours (PettingZoo AEC)", "OpenSpiel rl_environment", None),
    ("ours (PettingZoo AEC)", "OpenSpiel python_block_dominoes", None),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds")
    args = parser.parse_args()
    rows: list[tuple[str, Callable[[float], tuple[int, float]]]] = [
        ("ours (Observer)", ours_observer),
        ("ours (PettingZoo AEC)", ours_pettingzoo),
        ("OpenSpiel python_block_dominoes", openspiel),
        ("OpenSpiel rl_environment", openspiel_rl_environment),
    ]
    print(f"2-player Block, random play, observation tensor every step "
          f"({args.repeat} x {args.seconds:g} CPU s each)")
    rates: dict[str, list[float]] = {label: [] for label, _ in rows}
    for k in range(args.repeat):
        for label, run in rows:
            try:
                steps, secs = run(args.seconds)
            except ImportError as err:
                if k == 0:
                    print(f"{label:34s} skipped: {err}")
                continue
            rates[label].append(steps / secs)
        line = "  ".join(f"{label.split()[-1].strip('()')} {r[-1]:,.0f}"
                         for label, r in rates.items() if len(r) > k)
        print(f"round {k + 1}: {line} steps/s")
    for label, r in rates.items():
        if r:
            print(f"{label:34s} {statistics.median(r):>10,.0f} steps/s (median)")
    for ours, peer, target in COMPARISONS:
        if rates[ours] and rates[peer]:
            ratios = [a / b for a, b in zip(rates[ours], rates[peer])]
            ratio = statistics.median(ratios)
            each = ", ".join(f"{x:.2f}" for x in ratios)
            verdict = "" if target is None else \
                f" ({'meets' if ratio >= target else 'below'} the {target:g}x target)"
            print(f"ratio {ours} / {peer}: {ratio:.2f}x median of {each}{verdict}")


if __name__ == "__main__":
    main()
