"""`dominohall selfplay`: bots play a whole match; prints it round by round."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import bots
from ..engine import new_game
from ..engine.views import events
from ..i18n import _, get_language
from ..i18n.log import event_text
from .common import add_game_options, default_players, game_options


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "selfplay", help="bots play a whole match, printed round by round",
        description="Bots play a whole match of GAME and the result is printed round by round. "
                    "Example: dominohall selfplay mexican_train --players 4 --seed 1",
    )
    add_game_options(p)
    p.add_argument("--bots", default="greedy",
                   help=_("bot per seat, comma separated, or one for all "
                          "(choose from {bots}; default greedy)").format(
                              bots=", ".join(bots.names())))
    p.add_argument("--verbose", "-v", action="store_true", help="print every move")
    p.add_argument("--save", metavar="FILE", help="write the game record (JSON) to FILE")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    players = default_players(args)
    g = new_game(args.game, players=players, seed=args.seed, options=game_options(args))
    names = [n.strip() for n in args.bots.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise SystemExit(_("dominohall: error: {error}").format(
            error=_("--bots names {n} bots for {players} seats").format(
                n=len(names), players=players)))
    try:
        seats = [bots.make(n, seed=(g.seed if isinstance(g.seed, int) else 0) * 31 + s)
                 for s, n in enumerate(names)]
    except ValueError as err:
        raise SystemExit(_("dominohall: error: {error}").format(error=err)) from None
    print(_("{game}, {players} players, seed {seed}, bots {bots}").format(
        game=args.game, players=players, seed=g.seed, bots=", ".join(names)))
    shown = 0
    while not g.is_over:
        seat = g.current_seat
        assert seat is not None
        g.apply(seats[seat].act(g.view(seat)), seat=seat)
        for e in events(g, None, shown):
            shown += 1
            if args.verbose or e["type"] in ("round_end", "game_end", "engine"):
                indent = "" if e["type"] in ("round_end", "game_end") else "  "
                print(indent + event_text(e, None, get_language()))
    if args.save:
        with open(args.save, "w") as f:
            json.dump(g.to_record(), f)
        print(_("record saved to {file}").format(file=args.save))
    return 0
