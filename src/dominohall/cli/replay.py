"""`dominohall replay FILE`: step through a saved game in the terminal."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "replay", help="step through a saved game in the terminal",
        description="Step through a saved game record (from play --save, the autosave or "
                    "selfplay --save). Keys: right/n next, left/p previous, home start, "
                    "end end, q quit. Shows the spectator view; every hand at round ends.",
    )
    p.add_argument("file", help="a game record (JSON)")
    p.add_argument("--seat", type=int, default=None,
                   help="show the game as this seat saw it (default: a spectator)")
    p.add_argument("--step", default="0", metavar="N|end",
                   help="start at action N, or at the end (default 0)")
    p.add_argument("--analyze", action="store_true",
                   help="weigh every move first (as 'dominohall analyze') and show each "
                        "move's mark and the better move under the board")
    p.add_argument("--quick", action="store_true",
                   help="with --analyze: a quick pass (a quarter of the worlds)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..tui.session import load_record, rebuild

    record = load_record(args.file)
    game, _ = rebuild(record)               # validates the whole record before the screen opens
    if args.seat is not None and not 0 <= args.seat < game.players:
        raise SystemExit(f"dominohall: error: --seat must be 0..{game.players - 1}")
    from ..tui.app import ReplayApp

    if args.step == "end":
        step = len(record["actions"])
    else:
        try:
            step = int(args.step)
        except ValueError:
            raise SystemExit("dominohall: error: --step takes a number or 'end'") from None
    analysis = None
    if args.analyze:
        from .analyze import run_analysis
        options = argparse.Namespace(seat=None, bot=None, quick=args.quick, seed=0,
                                     hindsight=False, quiet=False)
        analysis = run_analysis(record, options).as_dict()
    app = ReplayApp(record, seat=args.seat, start_step=step, analysis=analysis)
    app.run()
    return 0
