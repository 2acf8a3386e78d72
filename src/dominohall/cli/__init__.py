"""The `dominohall` command."""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..engine import COMPILED, GAMES, DominohallError
from ..i18n import LANGUAGES, N_, _, error_text, normalize, set_language
from . import analyze, arena, options_cmd, play, replay, selfplay, serve

#: argparse's own words (its headings and errors), in our catalog so --help reads in one
#: language; the CLI hands argparse our translation of them.
ARGPARSE_MESSAGES = (
    N_("usage: "), N_("positional arguments"), N_("options"),
    N_("show this help message and exit"), N_("the following arguments are required: %s"),
    N_("%(prog)s: error: %(message)s\n"), N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
)


def _lang_arg(argv: list[str]) -> str | None:
    """The value of a global --lang in `argv` (read before the parser is built)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang", default=None)
    known, _rest = pre.parse_known_args(argv)
    return known.lang if isinstance(known.lang, str) else None


def _language(text: str) -> str:
    code = normalize(text)
    if code is None:
        raise argparse.ArgumentTypeError(
            _("unknown language '{lang}' (choose from {langs})").format(
                lang=text, langs=", ".join(LANGUAGES)))
    return code


def _translate(parser: argparse.ArgumentParser) -> None:
    """Every help text, description and epilog of `parser` and its subcommands in the
    chosen language (the extractor collects them from the add_argument calls)."""
    for attr in ("description", "epilog"):
        text = getattr(parser, attr)
        if text:
            setattr(parser, attr, _(text))
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            action.help = _(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = _(choice.help)
            for sub in set(action.choices.values()):
                _translate(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dominohall",
        description=_("Mexican Train and All Fives dominoes: exact rules, bots, replays."),
        epilog=_("Run 'dominohall COMMAND --help' for a command's options. "
                 "Games: {games}.").format(games=", ".join(GAMES)),
    )
    lang_help = N_("language of the messages: en, be, kk, bg, pt, es, ru "
                   "(default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)")
    parser.add_argument("--lang", type=_language, default=None, metavar="LANG", help=lang_help)
    version = (_("dominohall {version}, compiled engine (mypyc)") if COMPILED
               else _("dominohall {version}, pure-Python engine"))
    parser.add_argument("--version", action="version", version=version.format(version=__version__))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    selfplay.add_parser(sub)
    options_cmd.add_parser(sub)
    play.add_parser(sub)
    replay.add_parser(sub)
    analyze.add_parser(sub)
    arena.add_parser(sub)
    serve.add_parser(sub)
    for command in sub.choices.values():        # `dominohall play --lang be` works too
        command.add_argument("--lang", type=_language, default=argparse.SUPPRESS,
                             metavar="LANG", help=lang_help)
    _translate(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    set_language(_lang_arg(argv))
    argparse._ = _  # type: ignore[attr-defined]   # argparse's words in the same language
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
        return result
    except DominohallError as err:      # said from its code and params, in --lang
        print(_("dominohall: error: {error}").format(error=error_text(err)), file=sys.stderr)
        return 2
    except BrokenPipeError:          # e.g. `dominohall selfplay ... | head`
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(_("dominohall: interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
