"""Where the engine benchmark's time goes: a profile of benchmarks/engine.py's loop.

    .venv/bin/python benchmarks/profile_engine.py                    # pure, cProfile
    .venv/bin/python benchmarks/profile_engine.py --games 300 --only block4
    PYTHONPATH=build/bench-compiled/<hash>/src .venv/bin/python \
        benchmarks/profile_engine.py --sections      # the compiled build, timed sections

Two ways to split a game's time into the shares of the issue (the benchmark loop and
``random.choice``, ``legal()``, ``apply``, the deal, the end of a hand, the public API's
per-call overhead):

* ``cProfile`` (the default): every Python-level call is timed.  Meaningful for the pure
  engine; compiled functions are invisible to it (mypyc calls its own functions in C), so
  for the compiled build it only shows the interpreted callers.  cProfile's own overhead
  per call inflates the many tiny calls, so its shares lean towards call-heavy code.
* ``--sections``: no profiler.  The same games are replayed with the same random choices
  once per section and the section's time is the difference between two runs that differ
  only in that section (e.g. ``legal()`` called twice instead of once costs one more
  ``legal()``; a cached ``legal()`` costs only the API's overhead).  It works on both builds
  because it only calls the public API and the states' own methods, and it measures CPU
  time (``time.process_time``), the best of ``--repeat`` rounds (other load on the machine
  only ever adds time).  Differences of small totals are noisy: run enough games.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable

from engine import _ours  # benchmarks/engine.py: its game loop

import dominohall
import dominohall.engine

GAMES: dict[str, tuple[str, int, dict[str, object]]] = {
    "block4": ("block", 4, {"teams": True, "hands": 1}),
    "mt4": ("mexican_train", 4, {}),
    "af2": ("all_fives", 2, {}),
    "block2": ("block", 2, {"hands": 1}),
}


def play(name: str, players: int, options: dict[str, object], rng: random.Random,
         seed: int) -> int:
    """benchmarks/engine.py's game loop, the same code."""
    return _ours(name, players, options)(rng, seed)


def profile(key: str, games: int, top: int) -> None:
    name, players, options = GAMES[key]
    rng = random.Random(1)
    play(name, players, options, rng, 0)       # warm-up: caches, PLAYS_ON tables
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(1, games + 1):
        play(name, players, options, rng, seed)
    prof.disable()
    st = pstats.Stats(prof)
    total = st.total_tt                         # type: ignore[attr-defined]
    rows = st.stats                             # type: ignore[attr-defined]
    print(f"\n== {key}: {games} games, cProfile total {total:.2f} s "
          f"(compiled={dominohall.engine.COMPILED})")

    def cum(pred: Callable[[str, str], bool]) -> float:
        # cumulative time of the outermost matching functions (recursion counted once)
        return sum(v[3] for (f, _, fn), v in rows.items() if pred(f, fn))

    def own(pred: Callable[[str, str], bool]) -> float:
        return sum(v[2] for (f, _, fn), v in rows.items() if pred(f, fn))

    shares = {
        "the loop (play) and random.choice (own time)":
            own(lambda f, fn: fn == "run" and f.endswith("benchmarks/engine.py"))
            + own(lambda f, fn: fn in ("choice", "_randbelow_with_getrandbits")
                  or "method 'random'" in fn or "getrandbits" in fn),
        "Game.legal_actions + Game.apply + is_over (own time: API overhead)":
            own(lambda f, fn: f.endswith("engine/game.py")
                and fn in ("legal_actions", "apply", "is_over")),
        "state legal() (cumulative)": cum(lambda f, fn: fn == "legal"
                                          and ("line_game" in f or "mexican" in f)),
        "state apply() (cumulative, includes the end of hands and deals within)":
            cum(lambda f, fn: fn == "apply" and ("line_game" in f or "mexican" in f)),
        "end of hand/round (_end_hand/_end_round, cumulative)":
            cum(lambda f, fn: fn in ("_end_hand", "_end_round") and "engine" in f),
        "deals (_start_hand/_start_round, cumulative, the first one too)":
            cum(lambda f, fn: fn in ("_start_hand", "_start_round") and "engine" in f),
        "new_game (cumulative: options, first deal)": cum(lambda f, fn: fn == "new_game"),
    }
    for label, seconds in shares.items():
        print(f"  {100 * seconds / total:5.1f}%  {label}")
    print(f"  top {top} by own time:")
    for (f, line, fn), v in sorted(rows.items(), key=lambda kv: -kv[1][2])[:top]:
        where = f.rsplit("/", 2)[-1] if "/" in f else f
        print(f"    {100 * v[2] / total:5.1f}%  {v[1]:>8} calls  {where}:{line} {fn}")


# ------------------------------------------------------------------------- sections


def _recorded(name: str, players: int, options: dict[str, object], games: int
              ) -> list[tuple[int, list[int]]]:
    """Seeds and the index chosen at every decision, so that every variant below plays
    exactly the same games."""
    rng = random.Random(1)
    out = []
    for seed in range(1, games + 1):
        g = dominohall.new_game(name, players=players, seed=seed, options=dict(options))
        picks = []
        while not g.is_over:
            legal = g.legal_actions()
            k = rng.randrange(len(legal))
            picks.append(k)
            g.apply(legal[k])
        out.append((seed, picks))
    return out


def sections(key: str, games: int, repeat: int) -> None:
    name, players, options = GAMES[key]
    recorded = _recorded(name, players, options, games)
    decisions = sum(len(p) for _, p in recorded)
    new_game = dominohall.new_game

    def deal_only() -> None:
        for seed, _ in recorded:
            new_game(name, players=players, seed=seed, options=dict(options))

    def bench_loop() -> None:          # the benchmark's loop, with rng.choice
        rng = random.Random(1)
        choice = rng.choice
        for seed, _ in recorded:
            g = new_game(name, players=players, seed=seed, options=dict(options))
            legal, apply = g.legal_actions, g.apply
            while not g.is_over:
                apply(choice(legal()))

    def replay_api() -> None:          # the same games, the picks given: no rng
        for seed, picks in recorded:
            g = new_game(name, players=players, seed=seed, options=dict(options))
            legal, apply = g.legal_actions, g.apply
            for k in picks:
                apply(legal()[k])

    def replay_state() -> None:        # no public API: the state's own legal/apply
        for seed, picks in recorded:
            st = new_game(name, players=players, seed=seed, options=dict(options)).state
            for k in picks:
                st.apply(st.legal()[k])

    def replay_state_cached_legal() -> None:   # legal() computed, then read from its cache
        for seed, picks in recorded:
            st = new_game(name, players=players, seed=seed, options=dict(options)).state
            for k in picks:
                st.legal()
                st.apply(st.legal()[k])

    def replay_state_legal_twice() -> None:    # legal() computed twice per decision
        for seed, picks in recorded:
            st = new_game(name, players=players, seed=seed, options=dict(options)).state
            for k in picks:
                st.legal()
                st._legal = None
                st.apply(st.legal()[k])

    variants: dict[str, Callable[[], None]] = {
        "deal": deal_only, "bench": bench_loop, "api": replay_api, "state": replay_state,
        "cached": replay_state_cached_legal, "twice": replay_state_legal_twice,
    }
    times: dict[str, list[float]] = {k: [] for k in variants}
    clock = time.process_time
    for _ in range(repeat):
        for k, fn in variants.items():
            t0 = clock()
            fn()
            times[k].append(clock() - t0)
    med = {k: min(v) for k, v in times.items()}     # load only ever adds time
    total = med["bench"]
    legal = med["twice"] - med["cached"]              # one more legal() computation
    state_loop = med["state"]
    shares = {
        "benchmark loop overhead and random.choice (bench - api)": med["bench"] - med["api"],
        "public API per-call overhead (api - state)": med["api"] - med["state"],
        "legal() (twice - cached)": legal,
        "deal: new_game (options, chance, first deal)": med["deal"],
        "apply and the rest (state - deal - legal)": state_loop - med["deal"] - legal,
    }
    print(f"\n== {key}: {games} games, {decisions} decisions, compiled="
          f"{dominohall.engine.COMPILED}, best of {repeat}: bench {total:.3f} s "
          f"({games / total:,.0f} games/s)")
    for label, seconds in shares.items():
        print(f"  {100 * seconds / total:5.1f}%  {seconds / decisions * 1e6:6.2f} us/decision"
              f"  {label}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=None, help="games per row")
    p.add_argument("--only", action="append", choices=list(GAMES))
    p.add_argument("--top", type=int, default=15)
    p.add_argument("--sections", action="store_true",
                   help="timed sections instead of cProfile (works on the compiled build)")
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args(argv)
    for key in args.only or ["block4", "mt4", "af2"]:
        games = args.games or {"block4": 2000, "block2": 2000, "mt4": 20, "af2": 100}[key]
        if args.sections:
            sections(key, games, args.repeat)
        else:
            profile(key, games, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
