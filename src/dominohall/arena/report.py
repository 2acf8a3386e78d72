"""Show arena results: rich tables on the terminal and a CSV with one row per bot."""

from __future__ import annotations

import csv
import io
import os
from typing import Any

from ..files import write_text_atomic
from .runner import Results


def _num(x: float | None, fmt: str = "{:.1f}") -> str:
    return "-" if x is None else fmt.format(x)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _interval(ci: list[float] | None, fmt: str) -> str:
    return "" if ci is None else f"[{fmt.format(ci[0])}, {fmt.format(ci[1])}]"


def print_tables(results: Results, console: Any = None) -> None:
    """The per-bot table and the head-to-head table."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    s = results.settings
    st = results.stats
    direction = "lower is better" if results.lower_is_better else "higher is better"
    score = "penalty" if results.lower_is_better else "points"
    title = (f"{s['game']}, {s['players']} players, seed {s['seed']}: "
             f"{st['games']} of {results.total} games, {st['complete_deals']} complete deals")
    if results.interrupted:
        title += " (interrupted)"
    bots = Table(title=title, caption=f"mean {score} per match: {direction}")
    for col in ("bot", "copies", "win share", f"mean {score}", "rating μ-3σ",
                "ms/move", "max ms"):
        bots.add_column(col, justify="left" if col == "bot" else "right")
    for name, row in st["bots"].items():
        bots.add_row(name, str(row["copies"]), _pct(row["win_share"]),
                     _num(row["mean_score"]), _num(row.get("rating"), "{:.2f}"),
                     _num(row["ms_mean"], "{:.3f}"), _num(row["ms_max"], "{:.2f}"))
    console.print(bots)
    if not st["pairs"]:
        return
    pairs = Table(title="head to head, with 95% intervals",
                  caption=f"finish ahead: ties count half, bootstrap over deals; {score} "
                          f"difference: bot - opponent per deal, bootstrap; {direction}")
    for col in ("bot", "opponent", "finish ahead", f"{score} difference"):
        pairs.add_column(col, justify="left" if col in ("bot", "opponent") else "right")
    order = list(st["bots"])
    for p in st["pairs"]:
        if order.index(p["bot"]) > order.index(p["opponent"]):
            continue              # the mirror row says the same thing
        interval = p.get("ahead_ci_deals") or p["ahead_ci"]
        ahead_ci = [100 * x for x in interval] if interval else None
        pairs.add_row(p["bot"], p["opponent"],
                      f"{_pct(p['ahead_rate'])} {_interval(ahead_ci, '{:.1f}')}",
                      f"{_num(p['diff_mean'], '{:+.2f}')} {_interval(p['diff_ci'], '{:+.2f}')}")
    console.print(pairs)


def csv_text(results: Results) -> str:
    """One row per bot; head-to-head columns ``ahead_vs_<opponent>`` etc. for each other bot."""
    st = results.stats
    names = list(st["bots"])
    base = ["bot", "copies", "games", "win_share", "mean_score", "rating", "mu", "sigma",
            "moves", "ms_mean", "ms_max"]
    pair_cols = ["ahead", "ahead_low", "ahead_high", "diff", "diff_low", "diff_high"]
    header = base + [f"{c}_vs_{o}" for o in names for c in pair_cols]
    pairs = {(p["bot"], p["opponent"]): p for p in st["pairs"]}
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for name in names:
        row = st["bots"][name]
        out: list[Any] = [name] + [row.get(c) for c in base[1:]]
        for other in names:
            p = pairs.get((name, other))
            if p is None:
                out += [None] * len(pair_cols)
                continue
            a = p["ahead_ci"] or [None, None]
            d = p["diff_ci"] or [None, None]
            out += [p["ahead_rate"], a[0], a[1], p["diff_mean"], d[0], d[1]]
        w.writerow(["" if v is None else v for v in out])
    return buf.getvalue()


def write_csv(results: Results, path: str | os.PathLike[str]) -> None:
    write_text_atomic(path, csv_text(results))
