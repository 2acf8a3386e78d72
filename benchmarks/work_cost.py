"""What a work budget costs: CPU milliseconds a move for bot entries, to calibrate the
searching bots' default worlds once (and for the strength-vs-cost curve).

    nice -n 15 .venv/bin/python benchmarks/work_cost.py mexican_train --players 2 \\
        --rounds 4 --bots deep:worlds=2,deep:worlds=4,deep:worlds=8 --games 4
    nice -n 15 .venv/bin/python benchmarks/work_cost.py block --players 4 --teams \\
        --bots deep --games 6 --out benchmarks/results/work_cost_block.txt

Each entry plays seat 0 of `--games` matches (seeds from `--seed`, as the arena's deals)
against `--opponent` in every other seat; only seat 0's ``act()`` is timed, in this
process's CPU time (`time.process_time`: on a shared machine it does not count the other
jobs' turns on the cores).  Printed per entry: CPU ms a move over every move (forced
ones included, as the arena counts them), over moves with a choice, and the maximum.
Run it with the compiled engine to calibrate compiled costs: ``PYTHONPATH=$(python -c
'import builds; print(builds.compiled_tree())')/src`` from benchmarks/ (or a wheel).
"""

from __future__ import annotations

import argparse
import sys
import time

from dominohall import new_game
from dominohall.arena.match import make_bot
from dominohall.arena.seeds import bot_seed, deal_seed
from dominohall.engine import COMPILED


def measure(game: str, players: int, options: dict[str, object], entry: str,
            opponent: str, games: int, seed: int) -> dict[str, float]:
    every: list[float] = []
    chosen: list[float] = []
    for k in range(games):
        g = new_game(game, players=players, seed=deal_seed(seed, k), options=options)
        seats = [make_bot(entry if s == 0 else opponent, bot_seed(seed, k, s), game)
                 for s in range(players)]
        while not g.is_over:
            s = g.current_seat
            assert s is not None
            view = g.view(s)
            start = time.process_time()
            action = seats[s].act(view)
            if s == 0:
                ms = (time.process_time() - start) * 1000.0
                every.append(ms)
                if len(view["legal_actions"]) > 1:
                    chosen.append(ms)
            g.apply(action, seat=s)
    return {"moves": len(every), "mean": sum(every) / len(every),
            "mean_choice": sum(chosen) / max(1, len(chosen)), "max": max(every)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("game", choices=["mexican_train", "all_fives", "block", "draw"])
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--rounds", type=int, default=None, help="Mexican Train rounds")
    p.add_argument("--teams", action="store_true", help="line games: partnerships")
    p.add_argument("--hands", type=int, default=None, help="line games: hands a match")
    p.add_argument("--bots", default="deep", help="comma separated entries (deep)")
    p.add_argument("--opponent", default=None,
                   help="the other seats (planner in Mexican Train, blocker in Block/Draw, "
                        "fives in All Fives)")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None, help="also append the table to this file")
    a = p.parse_args(argv)
    options: dict[str, object] = {}
    if a.rounds is not None:
        options["rounds"] = a.rounds
    if a.teams:
        options["teams"] = True
    if a.hands is not None:
        options["hands"] = a.hands
    opponent = a.opponent or {"mexican_train": "planner", "all_fives": "fives"}.get(
        a.game, "blocker")
    lines = [f"# {' '.join(sys.argv)}",
             f"# {a.game}, {a.players} players, options {options}, against {opponent}, "
             f"{a.games} games, {'compiled' if COMPILED else 'pure'} engine; CPU ms a move",
             f"{'entry':44} {'moves':>6} {'mean':>8} {'choice':>8} {'max':>8}"]
    print("\n".join(lines), flush=True)
    for entry in a.bots.split(","):
        r = measure(a.game, a.players, options, entry, opponent, a.games, a.seed)
        line = (f"{entry:44} {r['moves']:6d} {r['mean']:8.2f} {r['mean_choice']:8.2f} "
                f"{r['max']:8.1f}")
        print(line, flush=True)
        lines.append(line)
    if a.out:
        with open(a.out, "a") as f:
            f.write("\n".join(lines) + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
