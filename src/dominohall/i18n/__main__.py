"""Catalog maintenance: ``python -m dominohall.i18n extract|update|compile|check|stats``.

Run from a source checkout (the paths are the package's own):

* ``extract``  scans the sources (babel.cfg) into ``locale/dominohall.pot``;
* ``update``   merges the template into every language's ``.po`` (new messages appear
  untranslated, changed ones fuzzy; ``--init LANG`` starts a new language);
* ``compile``  checks every catalog (plural forms, placeholders) and writes ``.mo``
  files to ``--dir`` (default: a temporary directory) -- nothing needs them at run
  time, since dominohall reads the ``.po`` files with Babel;
* ``check``    fails when a message of the sources is missing or untranslated in any
  catalog, or a translation breaks its placeholders or plural forms;
* ``stats``    prints how many messages each catalog has translated.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from . import LOCALE_DIR
from .catalogs import LANGS, POT, check_all, extract, stats, update


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m dominohall.i18n", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("extract", help="sources -> locale/dominohall.pot")
    up = sub.add_parser("update", help="dominohall.pot -> every locale/<lang>/.../dominohall.po")
    up.add_argument("--init", metavar="LANG", help="start the catalog of a new language")
    comp = sub.add_parser("compile", help="check the catalogs and write .mo files")
    comp.add_argument("--dir", type=Path, default=None, help="where to write (default: temp)")
    sub.add_parser("check", help="every message translated, placeholders and plurals right")
    sub.add_parser("stats", help="translated messages per language")
    args = p.parse_args(argv)
    if args.cmd == "extract":
        n = extract(POT)
        print(f"{POT}: {n} messages")
        return 0
    if args.cmd == "update":
        for lang, path in update(POT, init=args.init).items():
            print(f"updated {path} ({lang})")
        return 0
    if args.cmd == "stats":
        for lang, (done, total) in stats().items():
            print(f"{lang}: {done}/{total} translated")
        return 0
    problems = check_all(fresh=args.cmd == "check")
    for line in problems:
        print(line, file=sys.stderr)
    if args.cmd == "compile" and not problems:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        out = args.dir or Path(tempfile.mkdtemp(prefix="dominohall-mo-"))
        for lang in LANGS:
            src = LOCALE_DIR / lang / "LC_MESSAGES" / "dominohall.po"
            dst = out / lang / "LC_MESSAGES" / "dominohall.mo"
            dst.parent.mkdir(parents=True, exist_ok=True)
            with src.open("rb") as f:
                catalog = read_po(f, locale=lang)
            with dst.open("wb") as f:
                write_mo(f, catalog)
        print(f"compiled {len(LANGS)} catalogs into {out}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
