"""The `dominohall` command."""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..engine import COMPILED, GAMES, DominohallError
from ..i18n import _
from . import arena, options_cmd, play, replay, selfplay, serve


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dominohall",
        description="Mexican Train and All Fives dominoes: exact rules, bots, replays.",
        epilog="Run 'dominohall COMMAND --help' for a command's options. "
               f"Games: {', '.join(GAMES)}.",
    )
    version = (_("dominohall {version}, compiled engine (mypyc)") if COMPILED
               else _("dominohall {version}, pure-Python engine"))
    parser.add_argument("--version", action="version", version=version.format(version=__version__))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    selfplay.add_parser(sub)
    options_cmd.add_parser(sub)
    play.add_parser(sub)
    replay.add_parser(sub)
    arena.add_parser(sub)
    serve.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
        return result
    except DominohallError as err:
        print(f"dominohall: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:          # e.g. `dominohall selfplay ... | head`
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("dominohall: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
