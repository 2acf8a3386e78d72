"""Post-game analysis quality (issue 22): consistency, calibration and speed.

    nice -n 15 .venv/bin/python benchmarks/analysis_quality.py --games 10 \
        --out benchmarks/results/analysis_quality.txt

For each game, `--games` first hands (Mexican Train: first rounds) of matches with the
default target are played with every seat taken by one bot of the ladder (random,
greedy, the middle rung, the top ``deep``), and each is analysed
(`dominohall.analysis.review.analyse`, every seat) at ``--worlds-scale`` times the
default worlds (default 2: stronger than the default):

* **consistency**: the mean loss per decision of each bot's own moves, with a bootstrap
  95% interval over games; the issue asks the top bot's to be under 10% of random's;
* **calibration**: every decision's predicted value of the chosen move (points of the
  mover's side against the others, for the rest of the hand or round) against what was
  then really scored from that decision to the hand's end, in bins of the prediction:
  the realised mean with a bootstrap 95% interval, and whether the bin's mean
  prediction lies inside it;
* **speed**: CPU seconds of one core per analysed hand or round (`time.process_time`),
  at the default setting and with ``--quick``, in this build (pure or compiled, printed).

The games are played from `--seed`; the analysis uses seed 0.  One process, no workers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from dominohall import bots, new_game, replay
from dominohall.analysis import review
from dominohall.arena.stats import bootstrap_mean
from dominohall.engine import COMPILED

LADDER = {
    "mexican_train": ["random", "greedy", "planner", "deep"],
    "all_fives": ["random", "greedy", "fives", "deep"],
    "draw": ["random", "greedy", "blocker", "deep"],
    "block": ["random", "greedy", "blocker", "deep"],
}
PLAYERS = {"mexican_train": 4, "all_fives": 4, "draw": 2, "block": 2}
OPTIONS: dict[str, dict[str, Any]] = {"mexican_train": {}, "all_fives": {"teams": True},
                                      "draw": {}, "block": {}}
#: the top bot as users meet it, but with a fixed amount of work (reproducible)
TOP = {"deep": {"worlds": 16}}


def play(game: str, bot: str, seed: int) -> dict[str, Any]:
    """The first hand (round) of a match with the default target: a hand that ends the
    match would have the bots play for the match bonus, not for the points measured."""
    players = PLAYERS[game]
    g = new_game(game, players=players, seed=seed, options=OPTIONS[game])
    seats = [bots.make(bot, seed=seed * 10 + s, game=game, **TOP.get(bot, {}))
             for s in range(players)]
    while not g.is_over and g.round == 1:
        s = g.current_seat
        g.apply(seats[s].act(g.view(s)))
    return g.to_record()


def realised(record: dict[str, Any], index: int, seat: int) -> float:
    """What the mover's side really scored against the others from action `index` to the
    end of that hand or round (the same measure as the values)."""
    before = replay({**record, "actions": record["actions"][:index]})
    start = before.round
    g = before.clone()
    start_scores = g.scores[:]
    for text in record["actions"][index:]:
        if g.is_over or g.round != start:
            break
        g.apply(text)
    gained = [a - b for a, b in zip(g.scores, start_scores)]
    if g.name == "mexican_train":
        others = [gained[s] for s in range(len(gained)) if s != seat]
        diff = gained[seat] - sum(others) / len(others)
        return -diff if g.options.scoring == "penalty" else diff  # type: ignore[union-attr]
    st: Any = g.state
    mine = st.side(seat)
    return float(gained[seat] - max(gained[s] for s in range(len(gained))
                                    if st.side(s) != mine))


def calibration(points: Sequence[tuple[float, float]], bins: int = 6
                ) -> list[tuple[float, float, int, float, float, tuple[float, float] | None]]:
    """(low, high, n, mean prediction, realised mean, its interval) per bin of equal
    counts."""
    pts = sorted(points)
    out = []
    size = max(1, len(pts) // bins)
    for i in range(0, len(pts), size):
        chunk = pts[i:i + size]
        if len(chunk) < size // 2 and out:
            break
        pred = statistics.fmean(p for p, _ in chunk)
        real = [r for _, r in chunk]
        out.append((chunk[0][0], chunk[-1][0], len(chunk), pred, statistics.fmean(real),
                    bootstrap_mean(real, seed=i)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds-scale", type=float, default=2.0)
    ap.add_argument("--only", default=None, help="these games (comma-separated)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--jsonl", default=None, help="every decision's numbers")
    args = ap.parse_args(argv)
    lines = [f"analysis quality: {args.games} games per bot and game, analysis at "
             f"{args.worlds_scale}x the default worlds; build: "
             f"{'compiled' if COMPILED else 'pure'}"]
    dump = open(args.jsonl, "w") if args.jsonl else None  # noqa: SIM115
    games = args.only.split(",") if args.only else list(LADDER)
    for game in games:
        worlds = max(2, round(review.WORLDS[game] * args.worlds_scale))
        strong = review.Settings(game, worlds)
        losses: dict[str, list[float]] = {}
        points: list[tuple[float, float]] = []
        cpu_strong = []
        for bot in LADDER[game]:
            per_game = []
            for k in range(args.games):
                record = play(game, bot, args.seed * 1000 + k)
                t = time.process_time()
                a = review.analyse(record, settings=strong)
                cpu_strong.append(time.process_time() - t)
                if a.decisions:
                    per_game.append(statistics.fmean(d.fair.loss for d in a.decisions))
                for d in a.decisions:
                    pred = d.fair.values[d.action]
                    real = realised(record, d.index, d.seat)
                    points.append((pred, real))
                    if dump:
                        dump.write(json.dumps({"game": game, "bot": bot, "deal": k,
                                               "index": d.index, "loss": d.fair.loss,
                                               "mark": d.fair.mark, "pred": pred,
                                               "real": real}) + "\n")
            losses[bot] = per_game
            print(game, bot, "done", file=sys.stderr, flush=True)
        # speed at the default and the quick setting, on the top bot's games
        cpu_default, cpu_quick = [], []
        for k in range(min(args.games, 5)):
            record = play(game, "deep", args.seed * 1000 + k)
            for setting, out in ((review.settings_for(game), cpu_default),
                                 (review.settings_for(game, quick=True), cpu_quick)):
                t = time.process_time()
                review.analyse(record, settings=setting)
                out.append(time.process_time() - t)
        lines.append("")
        lines.append(f"== {game} ({PLAYERS[game]} players, {OPTIONS[game]}), analysis "
                     f"{worlds} worlds a decision")
        lines.append("consistency: mean loss per decision of each bot's own moves "
                     "[95% interval over games]")
        random_mean = statistics.fmean(losses["random"]) if losses["random"] else 0.0
        for bot, vals in losses.items():
            mean = statistics.fmean(vals) if vals else float("nan")
            ci = bootstrap_mean(vals, seed=1)
            share = mean / random_mean if random_mean else float("nan")
            ci_text = f"[{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "[-]"
            lines.append(f"  {bot:8s} {mean:6.2f} {ci_text:16s} {100 * share:5.1f}% of random"
                         f"  ({len(vals)} games)")
        lines.append("calibration: predicted value of the chosen move against what was "
                     "scored (bins of equal counts)")
        inside = 0
        rows = calibration(points)
        for lo, hi, n, pred, real_mean, ci in rows:
            ok = ci is not None and ci[0] <= pred <= ci[1]
            inside += ok
            ci_text = f"[{ci[0]:7.2f}, {ci[1]:7.2f}]" if ci else "[-]"
            lines.append(f"  pred {lo:7.2f}..{hi:7.2f}  n={n:4d}  mean pred {pred:7.2f}  "
                         f"realised {real_mean:7.2f} {ci_text}  {'in' if ok else 'OUT'}")
        err = statistics.fmean(abs(p - r) for p, r in points) if points else float("nan")
        bias = statistics.fmean(p - r for p, r in points) if points else float("nan")
        lines.append(f"  {inside} of {len(rows)} bins' mean prediction inside the interval; "
                     f"mean prediction - realised {bias:+.2f}, mean |error| {err:.2f} "
                     f"over {len(points)} decisions")
        unit = "round" if game == "mexican_train" else "hand"
        lines.append(f"speed (CPU s of one core per {unit}"
                     f", top bot's games): default {statistics.fmean(cpu_default):.2f}, "
                     f"quick {statistics.fmean(cpu_quick):.2f}, at {worlds} worlds "
                     f"{statistics.fmean(cpu_strong):.2f}")
        print("\n".join(lines[-12:]), file=sys.stderr, flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text)
    if dump:
        dump.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
