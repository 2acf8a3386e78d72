"""What the peer matches (`vs_dominoes.py`, `vs_openspiel.py`) share: duplicate deals,
bounded runs, results on disk, and the summary with 95% intervals.

A match plays deal after deal, each twice with the seats swapped (our bot on one side,
the peer on the other, then the other way round), until `--deals` are done or
`--minutes` have passed.  Every finished deal is appended to the results file (one JSON
object a line), so a run that is stopped keeps what it played.  The summary reads that
file: per deal, the mean over its two seatings of

* **points**: our side's points minus the peer side's, *as the peer's game scores them*;
* **win**: 1 for a win, 1/2 for a tie, 0 for a loss;

then the mean over deals with a seeded percentile-bootstrap 95% interval over deals
(`dominohall.arena.stats.bootstrap_mean`), and ms per move (mean and max) for each side,
timing only the choice itself in CPU time of this process (`time.process_time`: on a
shared machine wall time also counts the other jobs' turns on the cores).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from dominohall.arena.stats import bootstrap_mean

Game = dict[str, Any]   # one played seating: deal, seating, points, win, ms_ours, ms_peer


def match_parser(doc: str, default_out: str) -> argparse.ArgumentParser:
    """The options every match takes: our bot, how many deals, where results go."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--ours", default="pimc:budget_ms=100", help="our bot entry")
    p.add_argument("--deals", type=int, default=50, help="deals, each played twice (50)")
    p.add_argument("--minutes", type=float, default=None,
                   help="stop starting new deals after this many minutes")
    p.add_argument("--seed", type=int, default=1, help="deal seed (1)")
    p.add_argument("--first-deal", type=int, default=0, help="first deal number (0)")
    p.add_argument("--out", default=default_out, help=f"results file, JSON lines ({default_out})")
    p.add_argument("--summary", action="store_true", help="only summarise --out")
    return p


def run(args: argparse.Namespace, label: str,
        play_seating: Callable[[int, int, int], Game]) -> None:
    """Play deals `first_deal ..`, each in both seatings (``play_seating(seed, deal,
    seating)``), into `args.out`, then summarise."""
    out = Path(args.out)
    if not args.summary:
        out.parent.mkdir(parents=True, exist_ok=True)
        start = time.monotonic()
        for k in range(args.first_deal, args.first_deal + args.deals):
            if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
                print(f"  time is up after {k - args.first_deal} deals", file=sys.stderr)
                break
            games = [play_seating(args.seed, k, seating) for seating in (0, 1)]
            # opened for each deal: a file moved or replaced meanwhile (a checkout, say)
            # gets the next deal, not a handle to the old one
            with out.open("a") as f:
                for game in games:
                    f.write(json.dumps({"label": label, **game}) + "\n")
    print(format_summary(summarise(load(out, label)), label))


def load(path: Path, label: str) -> list[Game]:
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in rows if r.get("label") == label]


def summarise(games: Iterable[Game], seed: int = 0) -> dict[str, Any]:
    """Per-deal means (complete deals only) with bootstrap intervals, and ms per move."""
    by_deal: dict[int, list[Game]] = {}
    for g in games:
        by_deal.setdefault(g["deal"], []).append(g)
    complete = [rows for _, rows in sorted(by_deal.items()) if len(rows) == 2]
    points = [statistics.fmean(r["points"] for r in rows) for rows in complete]
    wins = [statistics.fmean(r["win"] for r in rows) for rows in complete]
    ours = [ms for rows in complete for r in rows for ms in r["ms_ours"]]
    peer = [ms for rows in complete for r in rows for ms in r["ms_peer"]]
    return {
        "deals": len(complete),
        "points": statistics.fmean(points) if points else None,
        "points_ci": bootstrap_mean(points, seed),
        "win": statistics.fmean(wins) if wins else None,
        "win_ci": bootstrap_mean(wins, seed + 1),
        "ms_ours": (statistics.fmean(ours), max(ours)) if ours else None,
        "ms_peer": (statistics.fmean(peer), max(peer)) if peer else None,
        "moves_ours": len(ours),
        "moves_peer": len(peer),
    }


def format_summary(s: dict[str, Any], label: str) -> str:
    def ci(pair: tuple[float, float] | None, digits: int) -> str:
        return "[n/a]" if pair is None else f"[{pair[0]:+.{digits}f}, {pair[1]:+.{digits}f}]"

    if not s["deals"]:
        return f"{label}: no complete deal yet"
    ms_o, ms_p = s["ms_ours"], s["ms_peer"]
    return (f"{label}: {s['deals']} deals x 2 seatings\n"
            f"  win rate {s['win']:.3f} {ci(s['win_ci'], 3).replace('+', '')}\n"
            f"  points a hand {s['points']:+.2f} {ci(s['points_ci'], 2)}\n"
            f"  ms/move ours: mean {ms_o[0]:.1f}, max {ms_o[1]:.1f} ({s['moves_ours']} moves)\n"
            f"  ms/move peer: mean {ms_p[0]:.1f}, max {ms_p[1]:.1f} ({s['moves_peer']} moves)")


def outcome(our_points: float, peer_points: float) -> float:
    """1 for a win, 1/2 for a tie, 0 for a loss."""
    return 1.0 if our_points > peer_points else 0.5 if our_points == peer_points else 0.0


def paired(games_a: Iterable[Game], games_b: Iterable[Game], seed: int = 0) -> dict[str, Any]:
    """Two of our bots against the same peer on the same deals: per deal, A's mean minus
    B's (points and win), with bootstrap intervals over the deals both completed."""
    def per_deal(games: Iterable[Game]) -> dict[int, tuple[float, float]]:
        by: dict[int, list[Game]] = {}
        for g in games:
            by.setdefault(g["deal"], []).append(g)
        return {d: (statistics.fmean(r["points"] for r in rows),
                    statistics.fmean(r["win"] for r in rows))
                for d, rows in by.items() if len(rows) == 2}
    a, b = per_deal(games_a), per_deal(games_b)
    both = sorted(set(a) & set(b))
    dp = [a[d][0] - b[d][0] for d in both]
    dw = [a[d][1] - b[d][1] for d in both]
    return {"deals": len(both),
            "points": statistics.fmean(dp) if dp else None, "points_ci": bootstrap_mean(dp, seed),
            "win": statistics.fmean(dw) if dw else None, "win_ci": bootstrap_mean(dw, seed + 1)}


if __name__ == "__main__":
    # python vs_common.py RESULTS.jsonl "LABEL A" "LABEL B": A minus B on shared deals
    path, label_a, label_b = sys.argv[1:4]
    s = paired(load(Path(path), label_a), load(Path(path), label_b))
    print(f"{label_a} minus {label_b}: {s['deals']} shared deals\n"
          f"  win rate {s['win']:+.3f} {s['win_ci']}\n  points {s['points']:+.2f} {s['points_ci']}")
