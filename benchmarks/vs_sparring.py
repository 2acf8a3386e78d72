"""Mexican Train: one of our bots against the sparring partners (`bots.sparring`) on
duplicate deals with the seats rotated, per round and per match, with 95% intervals.

    nice -n 15 python benchmarks/vs_sparring.py --players 2 --rounds 4 --ours deep \\
        --others longest --deals 100 --out benchmarks/results/mt2_deep_vs_longest.jsonl
    nice -n 15 python benchmarks/vs_sparring.py --players 4 --rounds 13 --ours deep \\
        --others longest,dumper,mexfirst --deals 30 --out benchmarks/results/mt4_deep.jsonl
    python benchmarks/vs_sparring.py --summary --out FILE [--label L]
    python benchmarks/vs_sparring.py --compare A.jsonl B.jsonl    # the same deals twice
    python benchmarks/vs_sparring.py --paired A.jsonl B.jsonl     # A minus B, same deals

Deal k (game seed from `--seed` and k, as the arena's) is played once per rotation: our
bot in seat r, the others in the other seats in `--others`' order, so every seat gets
every hand.  Bots' seeds come from the deal and the seat.  Per seating the file gets one
JSON line: every round's pips per seat, our seat, our CPU ms a move (this process's
`time.process_time`: on a shared machine wall time also counts other jobs), the load
average when it finished, and a digest of every move of the match (two runs with the same
digests played the same moves).

The summary, per deal the mean over its rotations, then the mean over deals with a
seeded bootstrap 95% interval over deals:

* **round win**: share of rounds where we have the fewest pips (ties split);
* **pips a round**: the others' mean pips a round minus ours (positive: we keep fewer);
* **pips a match**: the same over the match's totals;
* **first**: share of matches where our total is the lowest (ties split).

Scoring is the engine's (``penalty`` by default: pips left count against you).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from dominohall import new_game
from dominohall.arena.match import make_bot
from dominohall.arena.seeds import bot_seed, deal_seed
from dominohall.arena.stats import bootstrap_mean
from dominohall.engine import COMPILED


def play_seating(ours: str, others: list[str], players: int, options: dict[str, Any],
                 seed: int, deal: int, rotation: int,
                 game: str = "mexican_train") -> dict[str, Any]:
    entries = [""] * players
    entries[rotation] = ours
    rest = [s for s in range(players) if s != rotation]
    for i, s in enumerate(rest):
        entries[s] = others[i % len(others)]
    g = new_game(game, players=players, seed=deal_seed(seed, deal), options=options)
    seats = [make_bot(e, bot_seed(seed, deal, s), game) for s, e in enumerate(entries)]
    digest = hashlib.sha256()
    ms: list[float] = []
    wall = 0.0
    rounds: list[list[int]] = []
    before = list(g.scores)
    current = g.round
    while not g.is_over:
        s = g.current_seat
        assert s is not None
        view = g.view(s)
        start, start_wall = time.process_time(), time.perf_counter()
        action = seats[s].act(view)
        if s == rotation:
            ms.append((time.process_time() - start) * 1000.0)
            wall += time.perf_counter() - start_wall
        digest.update(f"{s}:{action};".encode())
        g.apply(action, seat=s)
        if g.round != current or g.is_over:
            rounds.append([a - b for a, b in zip(g.scores, before)])
            before = list(g.scores)
            current = g.round
    return {"deal": deal, "rotation": rotation, "entries": entries, "ours": rotation,
            "rounds": rounds, "totals": list(g.scores),
            "ms_sum": round(sum(ms), 3), "wall_ms_sum": round(wall * 1000.0, 3),
            "ms_max": round(max(ms), 3), "moves": len(ms),
            "digest": digest.hexdigest()[:16], "load": round(os.getloadavg()[0], 2),
            "compiled": COMPILED}


def _share_lowest(values: list[int], me: int) -> float:
    low = min(values)
    if values[me] != low:
        return 0.0
    return 1.0 / sum(1 for v in values if v == low)


def seating_stats(row: dict[str, Any], penalty: bool = True) -> dict[str, float]:
    me = row["ours"]
    sign = 1 if penalty else -1          # positive scoring: the most points is best

    def others_minus_me(v: list[int]) -> float:
        rest = [x for i, x in enumerate(v) if i != me]
        return sign * (statistics.fmean(rest) - v[me])

    rounds = row["rounds"]
    flip = (lambda v: v) if penalty else (lambda v: [-x for x in v])
    return {"round_win": statistics.fmean(_share_lowest(flip(r), me) for r in rounds),
            "pips_round": statistics.fmean(others_minus_me(r) for r in rounds),
            "pips_match": others_minus_me(row["totals"]),
            "first": _share_lowest(flip(row["totals"]), me)}


def summarise(rows: list[dict[str, Any]], players: int, penalty: bool = True,
              seed: int = 0) -> dict[str, Any]:
    by: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["deal"], []).append(r)
    complete = [v for _, v in sorted(by.items()) if len(v) == players]
    out: dict[str, Any] = {"deals": len(complete)}
    for key in ("round_win", "pips_round", "pips_match", "first"):
        per = [statistics.fmean(seating_stats(r, penalty)[key] for r in v) for v in complete]
        out[key] = statistics.fmean(per) if per else None
        out[key + "_ci"] = bootstrap_mean(per, seed)
    moves = sum(r["moves"] for v in complete for r in v)
    out["ms_mean"] = sum(r["ms_sum"] for v in complete for r in v) / max(1, moves)
    out["ms_max"] = max((r["ms_max"] for v in complete for r in v), default=0.0)
    out["moves"] = moves
    loads = [r["load"] for v in complete for r in v]
    out["load"] = (min(loads), max(loads)) if loads else None
    return out


def format_summary(s: dict[str, Any], label: str) -> str:
    if not s["deals"]:
        return f"{label}: no complete deal"

    def ci(key: str, d: int) -> str:
        c = s[key + "_ci"]
        return "[n/a]" if c is None else f"[{c[0]:+.{d}f}, {c[1]:+.{d}f}]"
    return (f"{label}: {s['deals']} deals, every seating\n"
            f"  round win   {s['round_win']:.3f} {ci('round_win', 3)}\n"
            f"  pips/round  {s['pips_round']:+.2f} {ci('pips_round', 2)} (others' mean - ours)\n"
            f"  pips/match  {s['pips_match']:+.1f} {ci('pips_match', 1)}\n"
            f"  first       {s['first']:.3f} {ci('first', 3)}\n"
            f"  ours CPU ms/move: mean {s['ms_mean']:.2f}, max {s['ms_max']:.1f} "
            f"({s['moves']} moves); load average {s['load'][0]}-{s['load'][1]}")


def load_rows(path: Path, label: str | None) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    return [r for r in rows if label is None or r.get("label") == label]


def compare(a: Path, b: Path) -> str:
    """Two runs of the same deals: how many seatings played the very same moves."""
    ka = {(r["label"], r["deal"], r["rotation"]): r for r in load_rows(a, None)}
    kb = {(r["label"], r["deal"], r["rotation"]): r for r in load_rows(b, None)}
    both = sorted(set(ka) & set(kb))
    same = sum(1 for k in both if ka[k]["digest"] == kb[k]["digest"])
    la = [ka[k]["load"] for k in both]
    lb = [kb[k]["load"] for k in both]
    return (f"{same} of {len(both)} seatings played identical moves "
            f"(load average {min(la, default=0)}-{max(la, default=0)} in {a.name}, "
            f"{min(lb, default=0)}-{max(lb, default=0)} in {b.name})")


def paired(a: Path, b: Path, seed: int = 0) -> str:
    """Two bots against the same others on the same deals: A minus B per deal (each the
    mean over its rotations), on the deals both completed, with bootstrap intervals."""
    def per_deal(path: Path) -> dict[int, dict[str, float]]:
        by: dict[int, list[dict[str, Any]]] = {}
        for r in load_rows(path, None):
            by.setdefault(r["deal"], []).append(r)
        return {d: {k: statistics.fmean(seating_stats(r)[k] for r in v)
                    for k in ("round_win", "pips_round")}
                for d, v in by.items() if len(v) == len(v[0]["entries"])}
    da, db = per_deal(a), per_deal(b)
    both = sorted(set(da) & set(db))
    lines = [f"{a.name} minus {b.name}: {len(both)} shared deals"]
    for k in ("round_win", "pips_round"):
        d = [da[x][k] - db[x][k] for x in both]
        c = bootstrap_mean(d, seed)
        lines.append(f"  {k} {statistics.fmean(d):+.3f} " + ("[n/a]" if c is None else
                                                            f"[{c[0]:+.3f}, {c[1]:+.3f}]"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--ours", default="deep")
    p.add_argument("--others", default="longest",
                   help="comma separated, filling the other seats in order (longest)")
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--first-deal", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--minutes", type=float, default=None,
                   help="start no new deal after this many minutes")
    p.add_argument("--out", default="benchmarks/results/vs_sparring.jsonl")
    p.add_argument("--label", default=None, help="default: ours vs others, players, rounds")
    p.add_argument("--summary", action="store_true", help="only summarise --out")
    p.add_argument("--compare", nargs=2, metavar="FILE", help="compare two runs' moves")
    p.add_argument("--paired", nargs=2, metavar="FILE",
                   help="A minus B on the deals both files completed")
    a = p.parse_args(argv)
    if a.paired:
        print(paired(Path(a.paired[0]), Path(a.paired[1])))
        return 0
    if a.compare:
        print(compare(Path(a.compare[0]), Path(a.compare[1])))
        return 0
    others = a.others.split(",")
    label = a.label or f"{a.ours} vs {a.others}, {a.players}p, {a.rounds} rounds"
    out = Path(a.out)
    if not a.summary:
        out.parent.mkdir(parents=True, exist_ok=True)
        options = {"rounds": a.rounds}
        start = time.monotonic()
        for k in range(a.first_deal, a.first_deal + a.deals):
            if a.minutes is not None and time.monotonic() - start > 60 * a.minutes:
                print(f"  time is up after {k - a.first_deal} deals", file=sys.stderr)
                break
            rows = [play_seating(a.ours, others, a.players, options, a.seed, k, r)
                    for r in range(a.players)]
            with out.open("a") as f:
                for r in rows:
                    f.write(json.dumps({"label": label, **r}) + "\n")
            print(f"  deal {k} done", file=sys.stderr, flush=True)
    rows = load_rows(out, label) if a.label or not a.summary else load_rows(out, None)
    players = rows[0]["entries"].__len__() if rows else a.players
    print(format_summary(summarise(rows, players), label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
