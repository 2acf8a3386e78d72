"""`dominohall selfplay`: bots play a whole match; prints it round by round."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import bots
from ..engine import new_game
from ..engine.views import events
from .common import add_game_options, default_players, game_options


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "selfplay", help="bots play a whole match, printed round by round",
        description="Bots play a whole match of GAME and the result is printed round by round. "
                    "Example: dominohall selfplay mexican_train --players 4 --seed 1",
    )
    add_game_options(p)
    p.add_argument("--bots", default="greedy",
                   help=f"bot per seat, comma separated, or one for all "
                        f"(choose from {', '.join(bots.names())}; default greedy)")
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
        raise SystemExit(f"dominohall: error: --bots names {len(names)} bots for {players} seats")
    try:
        seats = [bots.make(n, seed=(g.seed if isinstance(g.seed, int) else 0) * 31 + s)
                 for s, n in enumerate(names)]
    except ValueError as err:
        raise SystemExit(f"dominohall: error: {err}") from None
    print(f"{args.game}, {players} players, seed {g.seed}, bots {', '.join(names)}")
    shown = 0
    while not g.is_over:
        seat = g.current_seat
        assert seat is not None
        g.apply(seats[seat].act(g.view(seat)), seat=seat)
        for e in events(g, None, shown):
            shown += 1
            if args.verbose or e["type"] in ("round_end", "game_end", "engine"):
                indent = "" if e["type"] in ("round_end", "game_end") else "  "
                print(indent + e["text"])
    if args.save:
        with open(args.save, "w") as f:
            json.dump(g.to_record(), f)
        print(f"record saved to {args.save}")
    return 0
