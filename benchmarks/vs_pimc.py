"""The top bot against today's `pimc`, on duplicate deals: All Fives to 250 (4 players
in partnerships) and Mexican Train (4 players, 13 rounds).

Each deal (a game seed derived from `--seed` and the deal number, as the arena does) is
played twice: the new bot in seats 0 and 2 and `pimc` in 1 and 3, then the other way
round, so both sides get the same tiles in the same seats.  Both bots get a fixed number
of worlds a move (``--worlds``: ``deep:worlds=N`` against ``pimc:samples=N``), so the
result does not depend on the machine's load.  Every finished deal is appended to
`--out` (one JSON object a line); a stopped run keeps what it played and is continued
with ``--first-deal``.  ``--summary`` reads the file and prints, per deal the mean over
its two seatings of

* **win**: the new side's share of the match wins (1, 1/2 on a tie, 0);
* **points**: All Fives: the new team's final score minus pimc's; Mexican Train: pimc's
  mean penalty total minus the new bots' mean (positive: the new bot keeps fewer pips);

the mean over deals with a seeded percentile-bootstrap 95% interval over deals, and ms
per move of each bot (mean and max; CPU time of this process, so other jobs on a shared
machine do not count; wall time beside it).

    cd benchmarks
    python vs_pimc.py all_fives --worlds 8 --deals 400 --out results/vs_pimc_all_fives.jsonl
    python vs_pimc.py mexican_train --worlds 4 --deals 200 \
        --out results/vs_pimc_mexican_train.jsonl
    python vs_pimc.py all_fives --summary --out results/vs_pimc_all_fives.jsonl

``--against FILE`` (with ``--summary``) compares two runs deal by deal: the new bot of
``--out`` minus the new bot of FILE, on the deals both hold, with bootstrap intervals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import dominohall
from dominohall import bots
from dominohall.arena.match import parse_bot
from dominohall.arena.seeds import bot_seed, deal_seed
from dominohall.arena.stats import bootstrap_mean

OPTIONS = {"all_fives": {"teams": True}, "mexican_train": {}}


def play(game: str, entries: list[str], seed: int, deal: int, seating: int,
         options: dict[str, Any]) -> dict[str, Any]:
    """One match: entries[0] in seats 0, 2 and entries[1] in 1, 3 (seating 0), or swapped."""
    side_of = [(s + seating) % 2 for s in range(4)]        # 0: new bot, 1: pimc
    g = dominohall.new_game(game, players=4, seed=deal_seed(seed, deal), options=options)
    players = []
    for s in range(4):
        name, params = parse_bot(entries[side_of[s]])
        players.append(bots.make(name, seed=bot_seed(seed, deal, s), game=game, **params))
    moves = [0, 0]
    cpu = [0.0, 0.0]
    wall = [0.0, 0.0]
    cpu_max = [0.0, 0.0]
    while not g.is_over:
        seat = g.current_seat
        assert seat is not None
        view = g.view(seat)
        w0, c0 = time.perf_counter(), time.process_time()
        action = players[seat].act(view)
        c = (time.process_time() - c0) * 1000.0
        side = side_of[seat]
        wall[side] += (time.perf_counter() - w0) * 1000.0
        cpu[side] += c
        cpu_max[side] = max(cpu_max[side], c)
        moves[side] += 1
        g.apply(action, seat=seat)
    scores = g.scores
    winners = g.winners
    new = [s for s in range(4) if side_of[s] == 0]
    old = [s for s in range(4) if side_of[s] == 1]
    mean_new = sum(scores[s] for s in new) / 2
    mean_old = sum(scores[s] for s in old) / 2
    penalty = game == "mexican_train" and g.options.scoring == "penalty"  # type: ignore[union-attr]
    return {
        "deal": deal, "seating": seating, "scores": scores, "winners": winners,
        "rounds": g.round,
        "win": sum(1 for s in winners if s in new) / len(winners),
        "points": (mean_old - mean_new) if penalty else (mean_new - mean_old),
        "moves": moves, "ms_cpu": [round(x, 3) for x in cpu],
        "ms_wall": [round(x, 3) for x in wall], "ms_cpu_max": [round(x, 3) for x in cpu_max],
    }


def summary(path: Path, seed: int = 1) -> dict[str, Any]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_deal.setdefault(r["deal"], []).append(r)
    deals = [v for v in by_deal.values() if len(v) == 2]
    win = [sum(r["win"] for r in v) / 2 for v in deals]
    points = [sum(r["points"] for r in v) / 2 for v in deals]
    out: dict[str, Any] = {"deals": len(deals), "games": 2 * len(deals)}
    for name, values in (("win", win), ("points", points)):
        mean = sum(values) / len(values) if values else float("nan")
        out[name] = mean
        out[name + "_ci"] = bootstrap_mean(values, seed)
    used = [r for v in deals for r in v]
    for side, label in ((0, "new"), (1, "pimc")):
        moves = sum(r["moves"][side] for r in used) or 1
        out[f"ms_{label}_mean_cpu"] = sum(r["ms_cpu"][side] for r in used) / moves
        out[f"ms_{label}_mean_wall"] = sum(r["ms_wall"][side] for r in used) / moves
        out[f"ms_{label}_max_cpu"] = max((r["ms_cpu_max"][side] for r in used), default=0.0)
    head = rows[0] if rows else {}
    out["entries"] = head.get("entries")
    return out


def paired(path: Path, other: Path, seed: int = 1) -> dict[str, Any]:
    """`path`'s new bot minus `other`'s on the deals both hold (each deal's mean over its
    two seatings), with bootstrap 95% intervals over deals: two versions of the new bot
    compared on the same tiles against the same baseline."""
    def per_deal(p: Path) -> dict[int, tuple[float, float]]:
        rows: dict[int, list[dict[str, Any]]] = {}
        for line in p.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                rows.setdefault(r["deal"], []).append(r)
        return {k: (sum(r["win"] for r in v) / 2, sum(r["points"] for r in v) / 2)
                for k, v in rows.items() if len(v) == 2}
    a, b = per_deal(path), per_deal(other)
    common = sorted(set(a) & set(b))
    out: dict[str, Any] = {"deals": len(common)}
    for i, name in enumerate(("win", "points")):
        d = [a[k][i] - b[k][i] for k in common]
        out[name + "_diff"] = sum(d) / len(d) if d else float("nan")
        out[name + "_diff_ci"] = bootstrap_mean(d, seed + i)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("game", choices=sorted(OPTIONS))
    p.add_argument("--worlds", type=int, default=8, help="worlds a move for both bots (8)")
    p.add_argument("--new", default=None,
                   help="the new bot's entry (default deep:worlds=WORLDS)")
    p.add_argument("--old", default=None,
                   help="the baseline's entry (default pimc:samples=WORLDS:budget_ms=1e9)")
    p.add_argument("--deals", type=int, default=50, help="deals, each played twice (50)")
    p.add_argument("--first-deal", type=int, default=0, help="first deal number (0)")
    p.add_argument("--minutes", type=float, default=None,
                   help="start no new deal after this many minutes")
    p.add_argument("--seed", type=int, default=1, help="deal seed (1)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="a game option beside the defaults (e.g. rounds=3)")
    p.add_argument("--out", required=True, help="results file, JSON lines (appended)")
    p.add_argument("--summary", action="store_true", help="only summarise --out")
    p.add_argument("--against", default=None, metavar="FILE",
                   help="with --summary: --out minus FILE on the deals both hold")
    args = p.parse_args()
    out = Path(args.out)
    if not args.summary:
        new = args.new or f"deep:worlds={args.worlds}"
        old = args.old or f"pimc:samples={args.worlds}:budget_ms=1e9"
        options = dict(OPTIONS[args.game])
        for item in args.option:
            k, _, v = item.partition("=")
            options[k] = parse_bot(f"x:{k}={v}")[1][k]
        out.parent.mkdir(parents=True, exist_ok=True)
        start = time.monotonic()
        for k in range(args.first_deal, args.first_deal + args.deals):
            if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
                print(f"time is up after {k - args.first_deal} deals", file=sys.stderr)
                break
            games = [play(args.game, [new, old], args.seed, k, s, options) for s in (0, 1)]
            with out.open("a") as f:
                for r in games:
                    r.update(entries=[new, old], options=options, seed=args.seed,
                             compiled=dominohall.engine.COMPILED)
                    f.write(json.dumps(r) + "\n")
            print(f"deal {k}: win {sum(r['win'] for r in games) / 2:.2f} "
                  f"points {sum(r['points'] for r in games) / 2:+.1f}", file=sys.stderr)
    print(json.dumps(summary(out, args.seed), indent=1))
    if args.against:
        print(json.dumps(paired(out, Path(args.against), args.seed), indent=1))


if __name__ == "__main__":
    main()
