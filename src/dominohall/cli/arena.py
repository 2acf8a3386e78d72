"""`dominohall arena`: bots play duplicate deals against each other; strength with intervals."""

from __future__ import annotations

import argparse
import random
from typing import Any

from .. import arena
from ..arena.runner import check_resumable, make_settings
from ..i18n import _, ngettext
from .common import add_game_options, default_players, game_options


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "arena", help="bots play duplicate deals against each other; strength with intervals",
        description="Bots play DEALS duplicate deals of GAME, each deal once per seating "
                    "rotation, so every bot sits in every seat on the same tiles. Prints "
                    "win share, mean score, finish-ahead rates and paired score differences "
                    "with 95% intervals, openskill ratings and ms per move. Example: "
                    "dominohall arena mexican_train --players 4 --bots greedy,random,random,"
                    "random --deals 200 --jobs 2 --seed 1 --out results.json",
    )
    add_game_options(p)
    p.add_argument("--bots", required=True,
                   help="bot per seat, comma separated, or one name for every seat; "
                        "parameters as NAME:KEY=VALUE, e.g. pimc:budget_ms=200")
    p.add_argument("--deals", type=int, default=100,
                   help="duplicate deals; each is played once per rotation (default 100)")
    p.add_argument("--jobs", "-j", type=int, default=1,
                   help="worker processes on this machine (default 1); the results do not "
                        "depend on it")
    p.add_argument("--out", metavar="FILE",
                   help="write everything as JSON to FILE (updated as games finish)")
    p.add_argument("--csv", metavar="FILE", help="also write one row per bot as CSV to FILE")
    p.add_argument("--resume", metavar="FILE",
                   help="continue the run saved in FILE (same settings; --deals may grow); "
                        "--out defaults to FILE")
    p.add_argument("--ray", metavar="ADDRESS",
                   help="run on Ray: 'auto' (a running cluster), 'local' (start one here) or "
                        "an address; needs the 'ray' extra")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    players = default_players(args)
    out = args.out or args.resume
    seed = args.seed
    if seed is None:            # a resumed run keeps its seed; a new one draws one
        seed = (arena.load(args.resume).settings["seed"] if args.resume
                else random.SystemRandom().randrange(10 ** 6))
    if args.jobs < 1:
        raise arena.ArenaError(_("--jobs {jobs}: give at least 1").format(jobs=args.jobs))
    settings = make_settings(args.game, players, args.bots, args.deals, seed, game_options(args))
    resume = None
    if args.resume:
        resume = arena.load(args.resume)
        check_resumable(resume.settings, settings, args.resume)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    where = (_("on Ray ({address})").format(address=args.ray) if args.ray
             else ngettext("{n} job", "{n} jobs", args.jobs).format(n=args.jobs))
    err.print(_("{game}, {players} players, seed {seed}: {bots}; {deals} deals x {players} "
                "rotations = {games} games, {where}").format(
        game=args.game, players=players, seed=seed, bots=", ".join(settings["bots"]),
        deals=args.deals, games=args.deals * players, where=where))
    results = arena.run(args.game, players, args.bots, args.deals, seed, jobs=args.jobs,
                        options=game_options(args), progress=not args.quiet, ray=args.ray,
                        resume=resume, out=out)
    arena.print_tables(results, Console())
    if args.csv:
        arena.write_csv(results, args.csv)
    saved = [f for f in (out, args.csv) if f]
    if saved:
        err.print(_("written: {files}").format(files=", ".join(saved)))
    if results.interrupted:
        again = (_("continue with --resume {file}").format(file=out) if out
                 else _("(no --out file to resume from)"))
        err.print(_("interrupted after {done} of {total} games; {again}").format(
            done=len(results.games), total=results.total, again=again))
        return 130
    return 0

