"""Engine speed: random games per second, ours next to the peer libraries.

    .venv/bin/python benchmarks/engine.py              # 3 rounds of 5 s per row, both builds
    .venv/bin/python benchmarks/engine.py --quick      # 1 round of 1 s per row
    .venv/bin/python benchmarks/engine.py --seconds 10 --repeat 5 --only block2 \
        --only block2_openspiel
    .venv/bin/python benchmarks/engine.py --builds pure          # the pure engine only
    .venv/bin/python benchmarks/engine.py --compiled-python .venv-compiled/bin/python
    .venv/bin/python benchmarks/engine.py --baseline-src /tmp/main/src   # + main's pure

Every row of ours is measured with both engine builds, the pure-Python engine and the
mypyc-compiled one (see benchmarks/builds.py: one worker process per build, driven in
interleaved rounds); the peers run in the first build's worker.

Every game is played to its end by picking uniformly among the legal actions with a
seeded ``random.Random``; dealing (``new_game`` / chance nodes / ``Game.new``) is part
of each game's time. Rows:

* ``mexican_train 4p match``: 4 players, default options, the full 13-round match.
* ``all_fives 2p to 250``: 2 players, default options (target 250).
* ``block 2p (ours)``: double-6, 7 tiles each, no draw, ``hands=1`` (RULES B8).
* ``block 2p (OpenSpiel)``: ``python_block_dominoes`` through its state API
  (``chance_outcomes``/``legal_actions``/``apply_action``; no observation tensors).
* ``block 4p teams (ours)``: ``players=4, teams=True, hands=1``.
* ``block 4p teams (dominoes)``: the ``dominoes`` package's 4-player partnership game,
  ``Game.new()`` then ``make_move(*random valid move)`` until ``result`` is set.

The ratios compare the same game on both sides: ours/OpenSpiel for 2-player Block,
ours/dominoes for the partnership game (> 1 means we are faster), per build, and
compiled/pure for every game of ours. A peer that is not installed is reported and its
row skipped.

Time is this process's CPU time (``time.process_time``), so other load on a busy
machine slows neither side's count. The rows are measured in ``--repeat`` interleaved
rounds; the table shows each row's median games/s and each ratio is the median of the
rounds' ratios (every round's ratio is printed too).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

import builds  # benchmarks/builds.py: the pure and the compiled engine side by side

# A game runner plays one whole game with the given rng and returns the number of
# decisions (actions applied, chance outcomes included for OpenSpiel).
Runner = Callable[[random.Random, int], int]


@dataclass
class Row:
    key: str
    label: str
    games: int = 0
    seconds: float = 0.0
    actions: int = 0
    note: str = ""

    @property
    def games_per_s(self) -> float | None:
        return self.games / self.seconds if self.games and self.seconds else None

    @property
    def actions_per_s(self) -> float | None:
        return self.actions / self.seconds if self.games and self.seconds else None


# ----------------------------------------------------------------------------- ours


def _ours(name: str, players: int, options: dict[str, object]) -> Runner:
    import dominohall

    def run(rng: random.Random, seed: int) -> int:
        g = dominohall.new_game(name, players=players, seed=seed, options=dict(options))
        n = 0
        choice = rng.choice
        legal = g.legal_actions
        apply = g.apply
        while not g.is_over:
            apply(choice(legal()))
            n += 1
        return n

    return run


# ------------------------------------------------------------------------ OpenSpiel


def _openspiel_block() -> Runner:
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_block_dominoes")

    def run(rng: random.Random, seed: int) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]  # uniform outcomes
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            n += 1
        state.returns()
        return n

    return run


# ------------------------------------------------------------------------- dominoes


def _dominoes_partnership() -> Runner:
    import dominoes

    def run(rng: random.Random, seed: int) -> int:
        # dominoes.Game.new() shuffles with the global `random`; seed it per game.
        random.seed(seed)
        g = dominoes.Game.new(starting_player=seed % 4)
        n = 0
        while g.result is None:
            g.make_move(*rng.choice(g.valid_moves))
            n += 1
        return n

    return run


# ---------------------------------------------------------------------------- runner

OURS: list[tuple[str, str, Callable[[], Runner]]] = [
    ("mt4", "mexican_train 4p, 13-round match", lambda: _ours("mexican_train", 4, {})),
    ("af2", "all_fives 2p, to 250", lambda: _ours("all_fives", 2, {})),
    ("block2", "block 2p, 1 hand", lambda: _ours("block", 2, {"hands": 1})),
    ("block4", "block 4p teams, 1 hand", lambda: _ours("block", 4, {"teams": True, "hands": 1})),
]
PEERS: list[tuple[str, str, Callable[[], Runner]]] = [
    ("block2_openspiel", "block 2p (OpenSpiel python_block_dominoes)", _openspiel_block),
    ("block4_dominoes", "block 4p teams (dominoes package)", _dominoes_partnership),
]
MAKERS = {key: make for key, _, make in OURS + PEERS}


def measure(row: Row, make: Callable[[], Runner], seconds: float, seed: int) -> None:
    try:
        run = make()
    except ImportError as exc:
        row.note = f"skipped: {exc.name or exc} not installed"
        return
    rng = random.Random(seed)
    # One untimed warm-up game (imports, caches), then play whole games until time is up.
    try:
        run(rng, seed)
        games = actions = 0
        clock = time.process_time
        start = clock()
        deadline = start + seconds
        game_seed = seed + 1
        while True:
            actions += run(rng, game_seed)
            games += 1
            game_seed += 1
            now = clock()
            if now >= deadline:
                break
    except Exception as exc:  # report and go on with the other rows
        traceback.print_exc()
        row.note = f"error: {type(exc).__name__}: {exc}"
        return
    row.games, row.actions, row.seconds = games, actions, now - start


def _work(request: dict[str, object]) -> dict[str, object]:
    """A worker's answer to one request: measure one row."""
    key = str(request["row"])
    row = Row(key, key)
    measure(row, MAKERS[key], float(request["seconds"]), int(request["seed"]))  # type: ignore
    return {"games": row.games, "seconds": row.seconds, "actions": row.actions,
            "note": row.note}


def _median_row(rows: list[Row]) -> Row:
    """The round whose games/s is the median (the lower middle one for an even count)."""
    measured = sorted((r for r in rows if r.games_per_s is not None),
                      key=lambda r: r.games_per_s or 0.0)
    return measured[(len(measured) - 1) // 2] if measured else rows[0]


def _fmt(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def _ratio(rounds: list[dict[str, Row]], ours: str, peer: str) -> str:
    ratios = []
    for rows in rounds:
        if ours not in rows or peer not in rows:
            return "n/a (not measured)"
        a, b = rows[ours].games_per_s, rows[peer].games_per_s
        if a is None or b is None:
            why = [
                f"{r.label}: {r.note or 'no games'}"
                for r in (rows[ours], rows[peer])
                if r.games_per_s is None
            ]
            return "n/a (" + "; ".join(why) + ")"
        ratios.append(a / b)
    each = ", ".join(f"{x:.2f}" for x in ratios)
    return f"{statistics.median(ratios):.2f}x (median of {each})"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="CPU seconds per row and round (default 5, or 1 with --quick)",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="interleaved rounds; medians are reported (default 3, or 1 with --quick)",
    )
    p.add_argument("--quick", action="store_true", help="1 round of 1 s per row")
    p.add_argument("--seed", type=int, default=12345, help="base seed (default 12345)")
    p.add_argument(
        "--only",
        action="append",
        choices=list(MAKERS),
        help="run only these rows (repeatable; ours run in every build of --builds)",
    )
    builds.add_arguments(p)
    args = p.parse_args(argv)
    if args.worker:
        return builds.serve(_work)
    seconds = args.seconds if args.seconds is not None else (1.0 if args.quick else 5.0)

    repeat = args.repeat if args.repeat is not None else (1 if args.quick else 3)
    if repeat < 1 or seconds <= 0:
        p.error("--repeat must be at least 1 and --seconds positive")
    workers = builds.start(__file__, args)
    first = next(iter(workers.values()))
    plan = [(f"{b}:{key}", f"{label} ({b})", key, w) for key, label, _ in OURS
            for b, w in workers.items()]
    plan += [(key, label, key, first) for key, label, _ in PEERS]
    rounds: list[dict[str, Row]] = []
    for k in range(repeat):
        rows = {}
        for row_key, label, key, worker in plan:
            row = rows[row_key] = Row(row_key, label)
            if args.only and key not in args.only:
                row.note = "not selected"
                continue
            print(f"  round {k + 1}/{repeat}: measuring {label} ...", file=sys.stderr, flush=True)
            got = worker.call(op="measure", row=key, seconds=seconds, seed=args.seed)
            row.games, row.seconds, row.actions, row.note = (
                got["games"], got["seconds"], got["actions"], got["note"])
            if row.note:
                print(f"  {label}: {row.note}", file=sys.stderr, flush=True)
        rounds.append(rows)
    for w in workers.values():
        w.close()
    rows = {key: _median_row([r[key] for r in rounds]) for key in rounds[0]}

    w = max(len(r.label) for r in rows.values())
    print(f"\nmedian of {repeat} round(s), CPU time")
    print(
        f"{'game':<{w}}  {'games':>8}  {'seconds':>7}  {'games/s':>10}  {'actions/s':>11}  note"
    )
    print("-" * (w + 50))
    for r in rows.values():
        print(
            f"{r.label:<{w}}  {r.games if r.games else '-':>8}  "
            f"{_fmt(r.seconds if r.games else None, 2):>7}  {_fmt(r.games_per_s):>10}  "
            f"{_fmt(r.actions_per_s, 0):>11}  {r.note}"
        )
    print()
    comparisons = []
    for b in workers:
        comparisons += [(f"block 2p, {b} / OpenSpiel:", f"{b}:block2", "block2_openspiel"),
                        (f"block 4p teams, {b} / dominoes:", f"{b}:block4", "block4_dominoes")]
    if "compiled" in workers and "pure" in workers:
        comparisons += [(f"{label}, compiled / pure:", f"compiled:{key}", f"pure:{key}")
                        for key, label, _ in OURS]
    if "base" in workers and "pure" in workers:
        comparisons += [(f"{label}, pure / base (pure of --baseline-src):", f"pure:{key}",
                         f"base:{key}") for key, label, _ in OURS]
    width = max(len(c[0]) for c in comparisons)
    for text, ours, peer in comparisons:
        print(f"ratio {text:<{width}}  {_ratio(rounds, ours, peer)}")
    failed = [r for rows in rounds for r in rows.values() if r.note.startswith("error")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
