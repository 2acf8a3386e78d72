"""`dominohall play`: you against bots in the terminal (Textual)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .. import bots
from ..i18n import _, ngettext
from .common import add_game_options, default_players, game_options


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "play", help="play against bots in the terminal",
        description="Play a match in the terminal: you are Player 1, bots play the other "
                    "seats. "
                    "Examples: dominohall play; dominohall play all_fives --players 2 "
                    "--bot greedy; dominohall play mexican_train --players 6 --preset puremco "
                    "-o double_blank=50; dominohall play --resume FILE",
    )
    add_game_options(p)
    for action in p._actions:                   # the game is optional here: Mexican Train
        if action.dest == "game":
            action.nargs = "?"
            action.default = "mexican_train"
    p.add_argument("--bots", "--bot", dest="bots", default=None, metavar="NAME[,NAME...]",
                   help="one bot for every other seat, or one per other seat "
                        f"(choose from {', '.join(bots.names())}; default: the strongest)")
    p.add_argument("--speed", type=float, default=0.6, metavar="SECONDS",
                   help="pause before each bot move (default 0.6)")
    p.add_argument("--save", metavar="FILE",
                   help="also write the game record (JSON) to FILE after every move")
    p.add_argument("--resume", metavar="FILE|N", nargs="?", const="",
                   help=_("continue a saved game; without FILE, pick one of the unfinished "
                          "autosaved games from a list (N: the Nth of that list)"))
    p.add_argument("--allow-undo", action="store_true",
                   help="allow 'u' to take back your last move (all opponents are bots)")
    p.add_argument("--no-autosave", action="store_true",
                   help="do not autosave to the user data folder")
    p.set_defaults(run=run)


def pick_unfinished(choice: str) -> str | None:
    """The autosave to resume for `--resume` without a file (or with a list number):
    the player picks it from the list; None when they quit the list."""
    from ..tui.session import autosave_dir, unfinished_games

    games = unfinished_games()
    if not games:
        raise SystemExit("dominohall: error: " + _(
            "no unfinished game to resume in {folder}; start one with: dominohall play").format(
                folder=autosave_dir()))
    if choice:
        k = int(choice)
        if not 1 <= k <= len(games):
            raise SystemExit("dominohall: error: " + ngettext(
                "--resume {k}: there is {n} unfinished game (dominohall play --resume lists it)",
                "--resume {k}: there are {n} unfinished games (dominohall play --resume lists "
                "them)", len(games)).format(k=k, n=len(games)))
        return str(games[k - 1].path)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        from ..tui.resume import describe
        print(_("Unfinished games (resume one with: dominohall play --resume N or FILE):"))
        for k, g in enumerate(games, 1):
            print(f"{k:>3}. {describe(g)}\n     {g.path}")
        return None
    from ..tui.resume import ResumeApp
    return ResumeApp(games).run()


def make_session(args: argparse.Namespace) -> Any:
    """The Session described by the arguments; raises DominohallError or SystemExit.
    None: `--resume` listed the unfinished games and none was picked."""
    from ..tui.session import Session, expand_bots

    common: dict[str, Any] = {"save": args.save, "autosave": not args.no_autosave}
    if args.allow_undo:
        common["allow_undo"] = True
    if args.resume is not None:
        path: str | None = args.resume
        if not path or (path.isdigit() and not os.path.exists(path)):
            path = pick_unfinished(path or "")
            if path is None:
                return None
        return Session.resume(path, **common)
    players = default_players(args)
    if not 2 <= players <= 10:
        raise SystemExit(f"dominohall: error: --players must be 2..10, not {players}")
    names = (args.bots or bots.names(args.game)[-1]).split(",")
    try:
        expand_bots(names, players, 0, args.game)
    except ValueError as err:
        raise SystemExit(f"dominohall: error: {err}") from None
    return Session.new(args.game, players, args.seed, game_options(args), names, **common)


def run(args: argparse.Namespace) -> int:
    if args.speed < 0:
        raise SystemExit("dominohall: error: --speed must be 0 or more seconds")
    session = make_session(args)
    if session is None:
        return 0
    try:
        from ..tui.app import PlayApp
    except ImportError as err:                  # pragma: no cover - textual is a dependency
        raise SystemExit(f"dominohall: error: the terminal game needs textual ({err})") from None
    PlayApp(session, speed=args.speed, inline_bots=False).run()
    where = ", ".join(str(p) for p in session.save_paths)
    if where and session.game.is_over:          # nothing to carry on: a finished match
        print(_("match saved to {where} (dominohall replay {where} to watch it)").format(
            where=where), file=sys.stderr)
    elif where:
        print(_("game saved to {where} (dominohall play --resume to carry on)").format(
            where=where), file=sys.stderr)
    return 0
