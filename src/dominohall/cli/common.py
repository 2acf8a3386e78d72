"""Argument helpers shared by the commands."""

from __future__ import annotations

import argparse
from typing import Any

from ..engine import BadOption
from ..i18n import _


def add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=["mexican_train", "all_fives", "draw", "block"],
                   help="which game to play")
    p.add_argument("--players", type=int, default=None,
                   help="number of seats (default: 4 for Mexican Train, 2 otherwise)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random)")
    p.add_argument("--preset", default=None,
                   help="a named bundle of options: seed, puremco, casual (Mexican Train)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="set any RULES.md option, e.g. -o double_blank=50 "
                        "(repeatable; 'dominohall options GAME' lists them)")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options dict from --preset and --option NAME=VALUE flags."""
    out: dict[str, Any] = {}
    if args.preset:
        out["preset"] = args.preset
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise BadOption(item, _("write options as NAME=VALUE, e.g. double_blank=50"))
        out[name.strip()] = value.strip()
    return out


def default_players(args: argparse.Namespace) -> int:
    if args.players is not None:
        return int(args.players)
    return 4 if args.game == "mexican_train" else 2
