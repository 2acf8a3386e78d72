"""``python -m dominohall.guide [--write | --check]``: the rules guide's generated tables.

Without an option it prints the guide.  ``--write`` rebuilds the generated blocks of
``src/dominohall/guide/rules.md`` and writes the same text to ``docs/rules.md`` (in a
source checkout); ``--check`` exits 1 if either file is not what ``--write`` would make.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from .generate import regenerate

GUIDE = pathlib.Path(__file__).with_name("rules.md")
ROOT = pathlib.Path(__file__).resolve().parents[3]          # a source checkout's root
DOCS = ROOT / "docs" / "rules.md"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m dominohall.guide",
                                description="Print or regenerate the rules guide.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true",
                      help="rebuild the generated tables in rules.md and docs/rules.md")
    mode.add_argument("--check", action="store_true",
                      help="exit 1 if rules.md or docs/rules.md is out of date")
    args = p.parse_args(argv)
    text = GUIDE.read_text(encoding="utf-8")
    fresh = regenerate(text)
    in_checkout = (ROOT / "pyproject.toml").is_file() and DOCS.parent.is_dir()
    targets = [GUIDE] + ([DOCS] if in_checkout else [])
    if args.write:
        for path in targets:
            path.write_text(fresh, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    if args.check:
        stale = [str(t) for t in targets if not t.exists() or
                 t.read_text(encoding="utf-8") != fresh]
        if stale:
            print("out of date (run python -m dominohall.guide --write): " + ", ".join(stale),
                  file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(fresh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
