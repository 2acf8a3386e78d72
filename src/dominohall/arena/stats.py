"""Arena statistics from raw game results (see `match.play_game` for their shape).

Bots are grouped by name: with ``--bots pimc,planner,planner,planner`` the three
planner copies pool into one "planner" row. Per-copy averages keep numbers
comparable across bots (a bot's win share has baseline 1/players).

- **win share**: games won per copy, ties split (``winners`` of 2 seats: half each).
- **mean score**: final match total per copy (penalty for Mexican Train with
  ``scoring=penalty``, where lower is better; points otherwise, higher is better).
- **finish-ahead** A vs B: over every game and every (copy of A, copy of B) pair,
  the share where A's final score is better; equal scores count half. Two 95%
  intervals: ``ahead_ci`` (Wilson over the comparisons, which treats them as
  independent although copies and rotations of one deal are correlated) and
  ``ahead_ci_deals`` (percentile bootstrap over complete deals of each deal's
  finish-ahead share: the honest one, shown in the table).
- **paired difference** A - B: per deal, the mean over that deal's rotations of
  (A's mean score over its copies - B's); only deals with every rotation finished.
  Mean over deals with a seeded percentile-bootstrap 95% interval over deals.
- **rating**: openskill Plackett-Luce, one rating per bot-list entry, games fed
  in (deal, rotation) order; reported as mu - 3 sigma, averaged over a bot's copies.
- **ms per move**: time spent in ``act()``: mean over all moves, and the maximum.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from .seeds import derive

Z95 = 1.959963984540054
BOOTSTRAP_RESAMPLES = 2000


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion; (0, 1) when n is 0.

    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap_mean(values: Sequence[float], seed: int,
                   resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float] | None:
    """Percentile bootstrap 95% interval of the mean (None for fewer than 2 values)."""
    n = len(values)
    if n < 2:
        return None
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(resamples))
    lo = means[int(0.025 * resamples)]
    hi = means[min(resamples - 1, int(math.ceil(0.975 * resamples)) - 1)]
    return (lo, hi)


def names_in_order(bots: Sequence[str]) -> list[str]:
    """Distinct bot names in order of first appearance."""
    return list(dict.fromkeys(bots))


def better(a: float, b: float, lower_is_better: bool) -> float:
    """1 if score a beats score b, 0.5 if equal, else 0."""
    if a == b:
        return 0.5
    return 1.0 if (a < b) == lower_is_better else 0.0


def compute(bots: Sequence[str], players: int, lower_is_better: bool,
            games: Iterable[dict[str, Any]], seed: int = 0,
            ratings: bool = True) -> dict[str, Any]:
    """Every statistic of the module docstring, as a JSON-ready dict."""
    games = sorted(games, key=lambda g: (g["deal"], g["rotation"]))
    names = names_in_order(bots)
    copies = {name: bots.count(name) for name in names}
    entries_of = {name: [i for i, b in enumerate(bots) if b == name] for name in names}
    n_games = len(games)

    wins: dict[str, float] = defaultdict(float)
    score_sum: dict[str, float] = defaultdict(float)
    moves: dict[str, int] = defaultdict(int)
    ms_total: dict[str, float] = defaultdict(float)
    ms_max: dict[str, float] = defaultdict(float)
    ahead: dict[tuple[str, str], float] = defaultdict(float)
    compared: dict[tuple[str, str], int] = defaultdict(int)
    per_deal: dict[int, list[list[float]]] = defaultdict(list)  # deal -> per game: score/entry
    ahead_by_deal: dict[tuple[str, str, int], list[float]] = defaultdict(lambda: [0.0, 0.0])

    for g in games:
        seat_of = {entry: seat for seat, entry in enumerate(g["lineup"])}
        entry_score = [float(g["scores"][seat_of[i]]) for i in range(len(bots))]
        share = 1.0 / len(g["winners"]) if g["winners"] else 0.0
        for i, name in enumerate(bots):
            seat = seat_of[i]
            if seat in g["winners"]:
                wins[name] += share
            score_sum[name] += entry_score[i]
            moves[name] += g["moves"][seat]
            ms_total[name] += g["ms_total"][seat]
            ms_max[name] = max(ms_max[name], g["ms_max"][seat])
        for a in names:
            for b in names:
                if a == b:
                    continue
                cell = ahead_by_deal[a, b, g["deal"]]
                for i in entries_of[a]:
                    for j in entries_of[b]:
                        won = better(entry_score[i], entry_score[j], lower_is_better)
                        ahead[a, b] += won
                        compared[a, b] += 1
                        cell[0] += won
                        cell[1] += 1
        per_deal[g["deal"]].append(entry_score)

    rated = _ratings(bots, games, lower_is_better) if ratings and games else None
    per_bot: dict[str, Any] = {}
    for name in names:
        denom = n_games * copies[name]
        row: dict[str, Any] = {
            "copies": copies[name],
            "games": n_games,
            "win_share": wins[name] / denom if denom else None,
            "mean_score": score_sum[name] / denom if denom else None,
            "moves": moves[name],
            "ms_mean": ms_total[name] / moves[name] if moves[name] else None,
            "ms_max": ms_max[name] if moves[name] else None,
        }
        if rated is not None:
            entries = [rated[i] for i in entries_of[name]]
            row["rating"] = sum(e["ordinal"] for e in entries) / len(entries)
            row["mu"] = sum(e["mu"] for e in entries) / len(entries)
            row["sigma"] = sum(e["sigma"] for e in entries) / len(entries)
        per_bot[name] = row

    complete = {d: rows for d, rows in per_deal.items() if len(rows) == players}
    pairs: list[dict[str, Any]] = []
    for a in names:
        for b in names:
            if a == b:
                continue
            n = compared[a, b]
            diffs = [
                sum(_mean(s, entries_of[a]) - _mean(s, entries_of[b]) for s in rows) / len(rows)
                for _, rows in sorted(complete.items())
            ]
            ci = bootstrap_mean(diffs, derive(seed, "bootstrap", a, b))
            shares = [ahead_by_deal[a, b, d][0] / ahead_by_deal[a, b, d][1]
                      for d in sorted(complete) if ahead_by_deal[a, b, d][1]]
            share_ci = bootstrap_mean(shares, derive(seed, "bootstrap-ahead", a, b))
            pairs.append({
                "bot": a,
                "opponent": b,
                "comparisons": n,
                "ahead": ahead[a, b],
                "ahead_rate": ahead[a, b] / n if n else None,
                "ahead_ci": list(wilson(ahead[a, b], n)) if n else None,
                "ahead_ci_deals": list(share_ci) if share_ci else None,
                "deals": len(diffs),
                "diff_mean": sum(diffs) / len(diffs) if diffs else None,
                "diff_ci": list(ci) if ci else None,
            })
    return {
        "games": n_games,
        "complete_deals": len(complete),
        "lower_is_better": lower_is_better,
        "bots": per_bot,
        "pairs": pairs,
        "entries": rated,
    }


def _mean(scores: Sequence[float], entries: Sequence[int]) -> float:
    return sum(scores[i] for i in entries) / len(entries)


def _ratings(bots: Sequence[str], games: Sequence[dict[str, Any]],
             lower_is_better: bool) -> list[dict[str, Any]]:
    """Plackett-Luce ratings per bot-list entry, games in (deal, rotation) order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating(name=f"{name}#{i}") for i, name in enumerate(bots)]
    for g in games:
        order = g["lineup"]                       # seat -> entry
        teams = [[current[entry]] for entry in order]
        sign = 1 if lower_is_better else -1
        ranks = [sign * float(s) for s in g["scores"]]
        new = model.rate(teams, ranks=ranks)
        for seat, entry in enumerate(order):
            current[entry] = new[seat][0]
    return [{"bot": name, "entry": i, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
            for i, (name, r) in enumerate(zip(bots, current))]
