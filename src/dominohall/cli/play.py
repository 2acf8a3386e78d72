"""`dominohall play`: you against bots in the terminal (Textual)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import bots
from .common import add_game_options, default_players, game_options


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "play", help="play against bots in the terminal",
        description="Play a match in the terminal: you at seat 0, bots at the other seats. "
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
    p.add_argument("--resume", metavar="FILE", nargs="?", const="",
                   help="continue a saved game (no FILE: the last autosave)")
    p.add_argument("--allow-undo", action="store_true",
                   help="allow 'u' to take back your last move (all opponents are bots)")
    p.add_argument("--no-autosave", action="store_true",
                   help="do not autosave to the user data folder")
    p.set_defaults(run=run)


def make_session(args: argparse.Namespace) -> Any:
    """The Session described by the arguments; raises DominohallError or SystemExit."""
    from ..tui.session import Session, autosave_path, expand_bots

    common: dict[str, Any] = {"save": args.save, "autosave": not args.no_autosave}
    if args.allow_undo:
        common["allow_undo"] = True
    if args.resume is not None:
        path = args.resume or str(autosave_path())
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
    try:
        from ..tui.app import PlayApp
    except ImportError as err:                  # pragma: no cover - textual is a dependency
        raise SystemExit(f"dominohall: error: the terminal game needs textual ({err})") from None
    PlayApp(session, speed=args.speed, inline_bots=False).run()
    where = ", ".join(str(p) for p in session.save_paths)
    if where:
        print(f"game saved to {where} (dominohall play --resume FILE)", file=sys.stderr)
    return 0
