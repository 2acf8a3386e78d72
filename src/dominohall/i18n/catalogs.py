"""Extract, update and check the catalogs with Babel (``python -m dominohall.i18n``)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from . import DOMAIN, LANGUAGES, LOCALE_DIR, po_path

PACKAGE = Path(__file__).resolve().parent.parent          # src/dominohall
MAPPING = Path(__file__).with_name("babel.cfg")
POT = LOCALE_DIR / f"{DOMAIN}.pot"
LANGS = tuple(code for code in LANGUAGES if code != "en")
KEYWORDS: dict[str, Any] = {"_": None, "ngettext": (1, 2), "N_": None, "t": None,
                            "tn": (1, 2), "pgettext": ((1, "c"), 2), "NP_": ((1, "c"), 2)}
COMMENT_TAGS = ("TRANSLATORS:",)

#: gettext plural rules (the classic GNU ones: dominohall counts tiles and points, so the
#: CLDR "many" form for millions in pt/es is left out). The browser evaluates the same
#: expression (served with the catalog JSON).
PLURAL_FORMS: dict[str, str] = {
    "be": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
          "(n%100<10 || n%100>=20) ? 1 : 2);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
          "(n%100<10 || n%100>=20) ? 1 : 2);",
    "kk": "nplurals=2; plural=(n != 1);",
    "bg": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n != 1);",          # "0 peças", as players write it
    "es": "nplurals=2; plural=(n != 1);",
}

PLACEHOLDER = re.compile(r"\{(\w*)\}")
PERCENT = re.compile(r"%(?:\(\w+\))?[sdr]")       # argparse's own messages


def template() -> Catalog:
    """Every message of the sources, as Babel extracts them with babel.cfg."""
    with MAPPING.open() as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    cat = Catalog(project="dominohall", domain=DOMAIN, fuzzy=False,
                  msgid_bugs_address="", copyright_holder="dominohall")
    for filename, lineno, message, comments, context in extract_from_dir(
            PACKAGE, method_map, options_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS,
            strip_comment_tags=True):
        path = f"{PACKAGE.name}/{filename}"
        cat.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return cat


def extract(pot: Path = POT) -> int:
    cat = template()
    pot.parent.mkdir(parents=True, exist_ok=True)
    with pot.open("wb") as f:
        write_po(f, cat, width=100, sort_by_file=True, omit_header=False, include_lineno=False)
    return len(cat)


def load(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def save(lang: str, cat: Catalog) -> Path:
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    if lang in PLURAL_FORMS:
        cat.mime_headers = [("Plural-Forms", PLURAL_FORMS[lang])]
    cat.project, cat.version = "dominohall", "0.1"
    cat.language_team = f"{LANGUAGES.get(lang, lang)} ({lang})"
    cat.last_translator = "dominohall"
    cat.msgid_bugs_address = ""
    cat.revision_date = cat.creation_date
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_by_file=True, ignore_obsolete=True,
             include_lineno=False)
    path.write_bytes(buf.getvalue())
    return path


def update(pot: Path = POT, init: str | None = None) -> dict[str, Path]:
    with pot.open("rb") as f:
        tmpl = read_po(f)
    done = {}
    langs = list(LANGS)
    if init and init not in langs:
        langs.append(init)
    for lang in langs:
        if po_path(lang).exists():
            cat = load(lang)
        elif lang == init:
            cat = Catalog(locale=lang, domain=DOMAIN, project="dominohall", fuzzy=False)
        else:
            continue
        cat.update(tmpl, update_header_comment=False)
        done[lang] = save(lang, cat)
    return done


def placeholders(text: Any) -> set[str]:
    """The names in braces, and any %-style placeholders (argparse's messages)."""
    s = str(text)
    return set(PLACEHOLDER.findall(s)) | set(PERCENT.findall(s))


@dataclass(frozen=True)
class InContext:
    """A source message with a context (``pgettext``): the same English, its own entry."""
    context: str
    id: Any


def problems_of(lang: str, cat: Catalog, ids: list[Any] | None) -> list[str]:
    """What is wrong with one catalog; `ids` are the source's messages (None: skip)."""
    out = []
    want = PLURAL_FORMS.get(lang)
    got = f"nplurals={cat.num_plurals}; plural={cat.plural_expr};"
    if want and " ".join(got.split()) != " ".join(want.split()):
        out.append(f"{lang}: Plural-Forms is {got!r}, not {want!r}")
    if "Glossary" not in (cat.header_comment or ""):
        out.append(f"{lang}: no glossary in the header comments")
    for m in cat:
        if not m.id:
            continue
        where = f"{po_path(lang).name}[{lang}] {m.id!r}"
        if isinstance(m.id, tuple):
            forms = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
            if len(forms) != cat.num_plurals:
                out.append(f"{where}: {len(forms)} plural forms, {lang} has {cat.num_plurals}")
            english = placeholders(m.id[1]) | placeholders(m.id[0])
            for i, form in enumerate(forms):
                if form and placeholders(form) - english:
                    out.append(f"{where}: form {i} has placeholders "
                               f"{sorted(placeholders(form))}, English {sorted(english)}")
                if form and placeholders(m.id[1]) - placeholders(form) - {"n"}:
                    out.append(f"{where}: form {i} drops "
                               f"{sorted(placeholders(m.id[1]) - placeholders(form))}")
        elif m.string and placeholders(m.string) != placeholders(m.id):
            out.append(f"{where}: placeholders {sorted(placeholders(m.string))}, "
                       f"English {sorted(placeholders(m.id))}")
    if ids is not None:
        for mid in ids:
            context = None
            if isinstance(mid, InContext):
                context, mid = mid.context, mid.id
            found = cat.get(mid, context=context)
            key = mid[0] if isinstance(mid, tuple) else mid
            if found is None:
                out.append(f"{lang}: missing {key!r} (run extract and update)")
            elif found.fuzzy:
                out.append(f"{lang}: fuzzy {key!r}")
            elif isinstance(found.string, (list, tuple)):
                if not all(found.string):
                    out.append(f"{lang}: untranslated plural {key!r}")
            elif not found.string:
                out.append(f"{lang}: untranslated {key!r}")
    return out


def check_all(fresh: bool = True) -> list[str]:
    ids = [InContext(m.context, m.id) if m.context else m.id
           for m in template() if m.id] if fresh else None
    out = []
    for lang in LANGS:
        if not po_path(lang).exists():
            out.append(f"{lang}: no catalog at {po_path(lang)}")
            continue
        out += problems_of(lang, load(lang), ids)
    return out


def stats() -> dict[str, tuple[int, int]]:
    out = {}
    for lang in LANGS:
        cat = load(lang)
        msgs = [m for m in cat if m.id]
        done = sum(1 for m in msgs if not m.fuzzy and (
            all(m.string) if isinstance(m.string, (list, tuple)) else bool(m.string)))
        out[lang] = (done, len(msgs))
    return out
