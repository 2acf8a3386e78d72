"""``python -m dominohall.guide [--write | --check]``: the rules guide's generated tables.

Without an option it prints the guide (``--lang`` picks a translation).  ``--write``
rebuilds the generated blocks of ``src/dominohall/guide/rules.md`` and writes the same text
to ``docs/how-to-play.md`` (in a source checkout), and rebuilds each translation's blocks in its
language (``rules.<lang>.md``); ``--check`` exits 1 if any file is not what ``--write``
would make.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from ..i18n import translator
from . import TRANSLATED, guide_file
from .generate import regenerate

GUIDE = pathlib.Path(__file__).with_name("rules.md")
ROOT = pathlib.Path(__file__).resolve().parents[3]          # a source checkout's root
DOCS = ROOT / "docs" / "how-to-play.md"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m dominohall.guide",
                                description="Print or regenerate the rules guide.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true",
                      help="rebuild the generated tables in rules.md and docs/how-to-play.md")
    mode.add_argument("--check", action="store_true",
                      help="exit 1 if rules.md or docs/how-to-play.md is out of date")
    p.add_argument("--lang", choices=("en",) + TRANSLATED, default="en",
                   help="the guide to print (default: en)")
    args = p.parse_args(argv)
    english = regenerate(GUIDE.read_text(encoding="utf-8"))
    in_checkout = (ROOT / "pyproject.toml").is_file() and DOCS.parent.is_dir()
    fresh = {GUIDE: english, **({DOCS: english} if in_checkout else {})}
    for lang in TRANSLATED:
        path = GUIDE.with_name(guide_file(lang))
        if not path.is_file():
            print(f"missing translation: {path}", file=sys.stderr)
            return 1
        fresh[path] = regenerate(path.read_text(encoding="utf-8"), translator(lang).gettext)
    if args.write:
        for path, text in fresh.items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    if args.check:
        stale = [str(t) for t, text in fresh.items() if not t.exists() or
                 t.read_text(encoding="utf-8") != text]
        if stale:
            print("out of date (run python -m dominohall.guide --write): " + ", ".join(stale),
                  file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(fresh[GUIDE.with_name(guide_file(args.lang))])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
