"""Bot speed: milliseconds per move for every bot of every game.

    .venv/bin/python benchmarks/bots.py                       # every bot, 2 games each
    .venv/bin/python benchmarks/bots.py --games 5 --game mexican_train
    .venv/bin/python benchmarks/bots.py --bots pimc:budget_ms=200,planner --game mexican_train

The bots are `dominohall.bots.names(game)`, so new bots appear here by themselves. Each
bot sits in seat 0 of `--games` games against `--opponent` bots (default: `random`) and
only seat 0's `act()` calls are timed (building the view is the arena's cost, not the
bot's). Games: Mexican Train with 4 players and `--rounds` rounds (default 1; the full
match is 13), All Fives with 2 players to 250. Seeds come from `--seed`, as in the arena.

    .venv/bin/python benchmarks/bots.py --pimc            # pimc, pure vs compiled engine

``--pimc`` compares the engine builds (one worker process each, see benchmarks/builds.py)
for the search bot, whose strength at a fixed thinking time is its speed:

* rollouts/s and decisions/s: ``pimc`` with a fixed 32 worlds per decision
  (``samples=32, min_samples=32``, no clock) plays seat 0 of 2-player All Fives games
  against ``fives`` for ``--seconds`` CPU seconds per build (interleaved ``--repeat``
  rounds, medians); a rollout is one candidate move played out in one sampled world;
* the arena: ``pimc:budget_ms=B:min_samples=4`` (a clock, so the faster build thinks
  through more worlds) against ``fives`` in 2-player Block, one hand, over ``--deals``
  duplicate deals per build, with the finish-ahead rate and its 95% interval (bootstrap
  over deals).  The clock is wall time: on a loaded machine both builds lose alike only
  if the load is steady, so say how loaded it was.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import builds  # benchmarks/builds.py: the pure and the compiled engine side by side

from dominohall import bots, new_game
from dominohall.arena.match import make_bot
from dominohall.arena.seeds import bot_seed, deal_seed

GAMES = {"mexican_train": 4, "all_fives": 2}


def measure(game: str, entry: str, games: int, seed: int, rounds: int,
            opponent: str) -> list[float]:
    """Milliseconds of every seat-0 act() over `games` games."""
    players = GAMES[game]
    options = {"rounds": rounds} if game == "mexican_train" else {}
    times: list[float] = []
    for k in range(games):
        g = new_game(game, players=players, seed=deal_seed(seed, k), options=options)
        seats = [make_bot(entry if s == 0 else opponent, bot_seed(seed, k, s), game)
                 for s in range(players)]
        while not g.is_over:
            s = g.current_seat
            assert s is not None
            view = g.view(s)
            start = time.perf_counter()
            action = seats[s].act(view)
            if s == 0:
                times.append((time.perf_counter() - start) * 1000)
            g.apply(action, seat=s)
    return times


def pimc_speed(seconds: float, seed: int) -> dict[str, float]:
    """Rollouts and decisions of pimc (32 worlds a decision, no clock) in `seconds` CPU s."""
    from dominohall.bots.pimc import PimcBot

    class Counting(PimcBot):
        rollouts = 0

        def _outcome(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            Counting.rollouts += 1
            return super()._outcome(*args, **kwargs)

    decisions = 0
    clock = time.process_time
    start = clock()
    k = 0
    while clock() - start < seconds:
        g = new_game("all_fives", players=2, seed=deal_seed(seed, k))
        bot = Counting(seed=bot_seed(seed, k, 0), samples=32, min_samples=32, budget_ms=0)
        other = make_bot("fives", bot_seed(seed, k, 1), "all_fives")
        while not g.is_over and clock() - start < seconds:
            s = g.current_seat
            view = g.view(s)
            if s == 0:
                action = bot.act(view)
                decisions += 1
            else:
                action = other.act(view)
            g.apply(action, seat=s)
        k += 1
    used = clock() - start
    return {"rollouts": Counting.rollouts / used, "decisions": decisions / used}


def pimc_arena(deals: int, budget_ms: float, seed: int) -> dict[str, object]:
    from dominohall import arena

    entry = f"pimc:budget_ms={budget_ms:g}:min_samples=4"
    r = arena.run("block", players=2, bots=[entry, "fives"], deals=deals, seed=seed,
                  options={"hands": 1})
    pair = [x for x in r.stats["pairs"] if x["bot"] == entry][0]
    return {"bot": entry, "games": len(r.games), "ahead_rate": pair["ahead_rate"],
            "ahead_ci": pair["ahead_ci_deals"] or pair["ahead_ci"]}


def _work(request: dict[str, object]) -> dict[str, object]:
    if request["op"] == "speed":
        return pimc_speed(float(request["seconds"]), int(request["seed"]))  # type: ignore
    return pimc_arena(int(request["deals"]), float(request["budget_ms"]),  # type: ignore
                      int(request["seed"]))  # type: ignore[call-overload]


def compare_builds(args: argparse.Namespace) -> None:
    workers = builds.start(__file__, args)
    speed: dict[str, list[dict[str, float]]] = {b: [] for b in workers}
    for k in range(args.repeat):
        for b, w in workers.items():
            got = w.call(op="speed", seconds=args.seconds, seed=args.seed)
            speed[b].append(got)
            print(f"  round {k + 1}: {b}: {got['rollouts']:,.0f} rollouts/s, "
                  f"{got['decisions']:,.1f} decisions/s", file=sys.stderr, flush=True)
    print(f"pimc, 32 worlds a decision, 2-player All Fives vs fives "
          f"(median of {args.repeat} x {args.seconds:g} CPU s)")
    med = {b: {key: statistics.median(x[key] for x in rows) for key in ("rollouts", "decisions")}
           for b, rows in speed.items()}
    for b, m in med.items():
        print(f"  {b:9s} {m['rollouts']:>10,.0f} rollouts/s  {m['decisions']:>8,.1f} decisions/s")
    if len(workers) == 2:
        ratios = [c["rollouts"] / p["rollouts"] for c, p in zip(speed["compiled"], speed["pure"])]
        print(f"  compiled / pure: {statistics.median(ratios):.2f}x "
              f"(median of {', '.join(f'{x:.2f}' for x in ratios)})")
    print(f"\narena: 2-player Block (1 hand), {args.deals} duplicate deals x 2 seatings, "
          f"pimc at budget_ms={args.budget_ms:g} vs fives")
    for b, w in workers.items():
        got = w.call(op="arena", deals=args.deals, budget_ms=args.budget_ms, seed=args.seed)
        lo, hi = got["ahead_ci"]
        print(f"  {b:9s} {got['bot']} finishes ahead of fives {got['ahead_rate']:.1%} "
              f"[{lo:.1%}, {hi:.1%}] over {got['games']} games", flush=True)
    for w in workers.values():
        w.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", action="append", choices=list(GAMES),
                   help="game to measure (repeatable; default: both)")
    p.add_argument("--bots", help="comma separated bot entries (default: bots.names(game)); "
                                  "parameters as name:KEY=VALUE, e.g. pimc:budget_ms=200")
    p.add_argument("--games", type=int, default=2, help="games per bot (default 2)")
    p.add_argument("--rounds", type=int, default=1, help="Mexican Train rounds (default 1)")
    p.add_argument("--opponent", default="random", help="the other seats' bot (default random)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pimc", action="store_true",
                   help="pimc speed and arena strength, pure vs compiled engine")
    p.add_argument("--seconds", type=float, default=5.0,
                   help="--pimc: CPU seconds per speed measurement (default 5)")
    p.add_argument("--repeat", type=int, default=3, help="--pimc: interleaved rounds (3)")
    p.add_argument("--deals", type=int, default=200, help="--pimc: arena deals (default 200)")
    p.add_argument("--budget-ms", type=float, default=10.0,
                   help="--pimc: pimc's thinking time per move in the arena (default 10)")
    builds.add_arguments(p)
    args = p.parse_args()
    if args.worker:
        return builds.serve(_work)
    if args.pimc:
        compare_builds(args)
        return 0

    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"ms per move, bot in seat 0 vs {args.opponent}, {args.games} games")
    for col in ("game", "bot", "moves", "mean", "median", "p99", "max"):
        table.add_column(col, justify="left" if col in ("game", "bot") else "right")
    for game in args.game or list(GAMES):
        entries = args.bots.split(",") if args.bots else bots.names(game)
        for entry in entries:
            t = sorted(measure(game, entry, args.games, args.seed, args.rounds, args.opponent))
            p99 = t[min(len(t) - 1, int(0.99 * len(t)))]
            table.add_row(game, entry, str(len(t)), f"{statistics.fmean(t):.3f}",
                          f"{statistics.median(t):.3f}", f"{p99:.3f}", f"{t[-1]:.3f}")
            console.print(f"  {game} {entry}: {len(t)} moves, mean {statistics.fmean(t):.3f} ms",
                          highlight=False)
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
