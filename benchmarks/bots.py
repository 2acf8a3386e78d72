"""Bot speed: milliseconds per move for every bot of every game.

    .venv/bin/python benchmarks/bots.py                       # every bot, 2 games each
    .venv/bin/python benchmarks/bots.py --games 5 --game mexican_train
    .venv/bin/python benchmarks/bots.py --bots pimc:budget_ms=200,planner --game mexican_train

The bots are `dominohall.bots.names(game)`, so new bots appear here by themselves. Each
bot sits in seat 0 of `--games` games against `--opponent` bots (default: `random`) and
only seat 0's `act()` calls are timed (building the view is the arena's cost, not the
bot's). Games: Mexican Train with 4 players and `--rounds` rounds (default 1; the full
match is 13), All Fives with 2 players to 250. Seeds come from `--seed`, as in the arena.
"""

from __future__ import annotations

import argparse
import statistics
import time

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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", action="append", choices=list(GAMES),
                   help="game to measure (repeatable; default: both)")
    p.add_argument("--bots", help="comma separated bot entries (default: bots.names(game)); "
                                  "parameters as name:KEY=VALUE, e.g. pimc:budget_ms=200")
    p.add_argument("--games", type=int, default=2, help="games per bot (default 2)")
    p.add_argument("--rounds", type=int, default=1, help="Mexican Train rounds (default 1)")
    p.add_argument("--opponent", default="random", help="the other seats' bot (default random)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

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


if __name__ == "__main__":
    main()
