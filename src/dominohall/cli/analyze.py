"""`dominohall analyze RECORD.json`: every decision of a saved game weighed by the top bot."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "analyze", help="weigh every move of a saved game, like a chess site's analysis",
        description="For every decision (a turn with more than one legal action) of a saved "
                    "game record, the value of each legal action for the mover's side, "
                    "judged only from what the mover could see then (the other hands "
                    "sampled as the bots do), in points for the rest of the hand or round "
                    "against the others; the chosen move's loss against the best and a "
                    "mark: best, good, inaccuracy, mistake, blunder. Then each player's "
                    "points lost and accuracy (the share of moves marked best or good).",
    )
    p.add_argument("file", help="a game record (JSON), from play --save, selfplay --save "
                                "or a finished online table")
    p.add_argument("--seat", type=int, default=None, metavar="N",
                   help="only this seat's decisions (0-based, as in the record)")
    p.add_argument("--bot", default=None, metavar="SPEC",
                   help="the search's settings, e.g. deep:worlds=96 (more worlds: slower, "
                        "steadier values)")
    p.add_argument("--quick", action="store_true",
                   help="a quick pass: a quarter of the worlds")
    p.add_argument("--hindsight", action="store_true",
                   help="add a column with every hand known (exact for endings where "
                        "nobody can draw); never mixed with the fair values")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the sampled worlds (default 0: the same analysis every time)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def load(path: str) -> dict[str, Any]:
    """The record in `path` (BadRecord with a one-line reason if it cannot be read)."""
    from ..tui.session import load_record
    return load_record(path)


def run_analysis(record: dict[str, Any], args: argparse.Namespace) -> Any:
    """The analysis `args` ask for, with a progress bar on stderr unless --quiet."""
    from ..analysis import review
    from ..engine import replay

    game = replay({**record, "actions": []})   # BadRecord first: a foreign file says so
    if args.seat is not None and not 0 <= args.seat < game.players:
        raise SystemExit(_("dominohall: error: --seat must be 0..{last}").format(
            last=game.players - 1))
    try:
        settings = review.settings_for(game.name, args.bot, args.quick, args.seed)
    except ValueError as err:
        raise SystemExit(_("dominohall: error: {error}").format(error=err)) from None
    if args.quiet:
        return review.analyse(record, args.seat, settings, args.hindsight)
    from ..progress import progress_bar

    bar = progress_bar(_("decisions"), elapsed=None, eta=_("ETA"), transient=True)
    with bar:
        task = bar.add_task("analysis", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return review.analyse(record, args.seat, settings, args.hindsight, progress)


def report(analysis: Any) -> list[str]:
    """The analysis as lines of text: a line per decision, then a summary per player."""
    from ..i18n.analysis import GAME_NAMES, decision_line, player

    data = analysis.as_dict()
    lines = [_("{game}, {players} players: {n} decisions weighed ({worlds} worlds each, "
               "seed {seed})").format(game=_(GAME_NAMES[data["game"]]),
                                      players=data["players"], n=len(data["decisions"]),
                                      worlds=data["settings"]["worlds"],
                                      seed=data["settings"]["seed"])]
    for d in data["decisions"]:
        lines.append(_("#{k} round {round}, {player}: {line}").format(
            k=d["index"] + 1, round=d["round"], player=player(d["seat"]),
            line=decision_line(d)))
    lines.append("")
    for key, title in (("players_summary", None),
                       ("players_summary_hindsight", _("With hindsight:"))):
        if key not in data:
            continue
        if title:
            lines.append(title)
        for p in data[key]:
            lines.append(_("{player}: {n} decisions, {lost} points lost ({mean} a decision), "
                           "accuracy {accuracy}%").format(
                player=player(p["seat"]), n=p["decisions"], lost=f"{p['total_loss']:.1f}",
                mean=f"{p['mean_loss']:.2f}", accuracy=f"{p['accuracy']:.0f}"))
    return lines


def run(args: argparse.Namespace) -> int:
    record = load(args.file)
    analysis = run_analysis(record, args)
    if args.json:
        json.dump(analysis.as_dict(), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n".join(report(analysis)))
    return 0
