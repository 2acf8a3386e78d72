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

Batched environments (``dominohall.rl.batched``), N = 1, 64 and 1024 games:

* ``vector env N``: ``vector_env("block", num_envs=N)``, the learner against the
  ``random`` bot; a step of N games counts N steps (each includes the bot's replies).
* ``SyncVectorEnv N``: ``gymnasium.vector.SyncVectorEnv`` of N ``dominohall/Block-v0``
  envs (``gymnasium.make``, so with Gymnasium's default wrappers), the same play, on the
  same engine build (the ratio compares like with like).
* ``batched games N``: ``batched_games("block", num_envs=N)``, every decision of both
  seats by the caller: the multi-agent interface, like with like with OpenSpiel's
  ``rl_environment`` (one decision per step, the OpenSpiel row above).
* memory per game at N = 1024: what a vector env of 1024 games holds after ``reset`` and
  20 steps (tracemalloc), divided by 1024; the same for the SyncVectorEnv of 1024 envs.
* ``vector env N`` / ``OpenSpiel rl_environment``: not quite like with like (a vector
  env step is the learner's decision plus the random bot's replies, an rl_environment
  step one decision of either player); ``batched games N`` is the like-with-like row.

    .venv/bin/python benchmarks/rl.py --only "vector env N=1" --only "vector env N=64" \
        --only "vector env N=1024" --only "SyncVectorEnv N=1" --only "SyncVectorEnv N=64" \
        --only "SyncVectorEnv N=1024" --only "OpenSpiel rl_environment"   # the vector rows

Actions are drawn from the masks by one numpy call per step (the same on both sides).

Every row of ours runs in both engine builds (pure and compiled, one worker process each,
see benchmarks/builds.py); the peers run in the first build's worker.  Time is each
worker's CPU time (``time.process_time``), so other load on a busy machine slows neither
side's count; the measurements are interleaved in ``--repeat`` rounds and each round's
ratio is printed, then the median (> 1 means we are faster).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import builds  # benchmarks/builds.py: the pure and the compiled engine side by side
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


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (0 where a row has none: ignored)."""
    noise = rng.random(masks.shape) * masks
    return noise.argmax(axis=1)


def _vector(n: int) -> Callable[[float], tuple[int, float]]:
    def run(seconds: float) -> tuple[int, float]:
        env = dominohall.rl.vector_env("block", num_envs=n, seed=5, opponents="random")
        rng = np.random.default_rng(5)
        obs, _ = env.reset()
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(max(1, 256 // n)):
                obs, *_ = env.step(_random_actions(obs["action_mask"], rng))
                steps += n
        return steps, time.process_time() - start
    return run


def _sync(n: int) -> Callable[[float], tuple[int, float]]:
    def run(seconds: float) -> tuple[int, float]:
        import gymnasium

        env = gymnasium.vector.SyncVectorEnv(
            [lambda: gymnasium.make("dominohall/Block-v0", opponents="random")
             for _ in range(n)])
        rng = np.random.default_rng(6)
        obs, _ = env.reset(seed=6)
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(max(1, 256 // n)):
                obs, *_ = env.step(_random_actions(obs["action_mask"], rng))
                steps += n
        env.close()
        return steps, time.process_time() - start
    return run


def _batched(n: int) -> Callable[[float], tuple[int, float]]:
    def run(seconds: float) -> tuple[int, float]:
        b = dominohall.rl.batched_games("block", num_envs=n, seed=7)
        rng = np.random.default_rng(7)
        obs, masks, seats = b.reset()
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(max(1, 256 // n)):
                obs, masks, seats, *_ = b.step(_random_actions(masks, rng))
                steps += n
        return steps, time.process_time() - start
    return run


def memory_per_game(n: int = 1024, kind: str = "vector") -> float:
    """Bytes a vector env of n Block games holds (after reset and 20 steps), per game;
    ``kind="sync"``: the SyncVectorEnv of n single envs instead."""
    import gc
    import tracemalloc

    import gymnasium

    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    if kind == "vector":
        env = dominohall.rl.vector_env("block", num_envs=n, seed=8, opponents="random")
    else:
        env = gymnasium.vector.SyncVectorEnv(
            [lambda: gymnasium.make("dominohall/Block-v0", opponents="random")
             for _ in range(n)])
    rng = np.random.default_rng(8)
    obs, _ = env.reset(seed=8)
    for _ in range(20):
        obs, *_ = env.step(_random_actions(obs["action_mask"], rng))
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del env
    return used / n


SIZES = (1, 64, 1024)
OURS: dict[str, Callable[[float], tuple[int, float]]] = {
    "ours (Observer)": ours_observer,
    "ours (PettingZoo AEC)": ours_pettingzoo,
    **{f"vector env N={n}": _vector(n) for n in SIZES},
    **{f"batched games N={n}": _batched(n) for n in SIZES},
    # N of our single envs: they run on the worker's engine build too
    **{f"SyncVectorEnv N={n}": _sync(n) for n in SIZES},
}
PEERS: dict[str, Callable[[float], tuple[int, float]]] = {
    "OpenSpiel python_block_dominoes": openspiel,
    "OpenSpiel rl_environment": openspiel_rl_environment,
}
ROWS = {**OURS, **PEERS}

COMPARISONS = [   # (ours, peer, target or None)
    ("ours (Observer)", "OpenSpiel python_block_dominoes", 5.0),
    ("ours (PettingZoo AEC)", "OpenSpiel rl_environment", None),
    ("ours (PettingZoo AEC)", "OpenSpiel python_block_dominoes", None),
    *[(f"vector env N={n}", f"SyncVectorEnv N={n}", 3.0 if n == 64 else None) for n in SIZES],
    *[(f"vector env N={n}", "OpenSpiel rl_environment", None) for n in SIZES],
    *[(f"batched games N={n}", "OpenSpiel rl_environment", None) for n in SIZES],
]


def _work(request: dict[str, object]) -> dict[str, object]:
    if request["op"] == "memory":
        return {"bytes": memory_per_game(int(request["n"]),  # type: ignore[call-overload]
                                         str(request.get("kind", "vector")))}
    label = str(request["row"])
    try:
        steps, secs = ROWS[label](float(request["seconds"]))  # type: ignore[arg-type]
    except ImportError as err:
        return {"skipped": str(err)}
    return {"steps": steps, "seconds": secs}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--only", action="append", choices=list(ROWS),
                        help="run only these rows (repeatable)")
    builds.add_arguments(parser)
    args = parser.parse_args()
    if args.worker:
        return builds.serve(_work)
    workers = builds.start(__file__, args)
    first = next(iter(workers.values()))
    plan = [(f"{label} [{b}]", label, w) for label in OURS for b, w in workers.items()]
    plan += [(label, label, first) for label in PEERS]
    plan = [p for p in plan if not args.only or p[1] in args.only]
    print(f"2-player Block, random play, observation tensor every step "
          f"({args.repeat} x {args.seconds:g} CPU s each)")
    rates: dict[str, list[float]] = {key: [] for key, _, _ in plan}
    for k in range(args.repeat):
        for key, label, worker in plan:
            got = worker.call(op="measure", row=label, seconds=args.seconds)
            if "skipped" in got:
                if k == 0:
                    print(f"{key:40s} skipped: {got['skipped']}")
                continue
            rates[key].append(got["steps"] / got["seconds"])
            print(f"  round {k + 1}: {key} {rates[key][-1]:,.0f} steps/s", flush=True)
    memory = {(b, kind): w.call(op="memory", n=1024, kind=kind)["bytes"]
              for b, w in workers.items() for kind in ("vector", "sync")
              if not args.only or any(label.startswith("vector env") for label in args.only)}
    for w in workers.values():
        w.close()
    print()
    for key, r in rates.items():
        if r:
            print(f"{key:40s} {statistics.median(r):>10,.0f} steps/s (median)")
    for (b, kind), used in memory.items():
        name = "vector env" if kind == "vector" else "SyncVectorEnv"
        print(f"memory per game, {name} N=1024 [{b}]: {used / 1024:,.1f} KiB")
    print()
    for b in workers:
        for ours, peer, target in COMPARISONS:
            a_key = f"{ours} [{b}]"
            p_key = f"{peer} [{b}]" if peer in OURS else peer      # the same build
            if rates.get(a_key) and rates.get(p_key):
                ratios = [a / p for a, p in zip(rates[a_key], rates[p_key])]
                ratio = statistics.median(ratios)
                each = ", ".join(f"{x:.2f}" for x in ratios)
                verdict = "" if target is None else \
                    f" ({'meets' if ratio >= target else 'below'} the {target:g}x target)"
                print(f"ratio {a_key} / {p_key}: {ratio:.2f}x median of {each}{verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
