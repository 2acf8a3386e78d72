"""The catalogs: every message of the sources translated in every language, with the
right plural forms and the English placeholders; the glossary used consistently."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog

from dominohall.i18n import LANGUAGES
from dominohall.i18n.catalogs import (
    LANGS,
    PLURAL_FORMS,
    POT,
    check_all,
    load,
    placeholders,
    problems_of,
    template,
)


@pytest.fixture(scope="module")
def source_ids():
    return [m.id for m in template() if m.id]


def test_seven_languages_six_catalogs():
    assert list(LANGUAGES) == ["en", "be", "kk", "bg", "pt", "es", "ru"]
    assert set(LANGS) == set(PLURAL_FORMS) == {"be", "kk", "bg", "pt", "es", "ru"}


def test_every_message_translated_everywhere_with_placeholders_and_plurals():
    """The same check as `python -m dominohall.i18n check` (fresh extraction)."""
    problems = check_all(fresh=True)
    assert not problems, "\n".join(problems[:50])


def test_template_is_current(source_ids):
    """locale/dominohall.pot holds what the sources say (run extract when this fails)."""
    from babel.messages.pofile import read_po

    with POT.open("rb") as f:
        committed = {m.id for m in read_po(f) if m.id}
    fresh = set(source_ids)
    assert fresh - committed == set(), "run: python -m dominohall.i18n extract"
    assert committed - fresh == set(), "run: python -m dominohall.i18n extract"


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_header(lang):
    cat = load(lang)
    want_n = int(re.search(r"nplurals=(\d)", PLURAL_FORMS[lang]).group(1))
    assert cat.num_plurals == want_n
    assert {"be": 3, "ru": 3, "kk": 2, "bg": 2, "pt": 2, "es": 2}[lang] == want_n
    for m in cat:
        if isinstance(m.id, tuple):
            assert len(m.string) == want_n and all(m.string), (lang, m.id)


def test_slavic_plural_examples():
    from dominohall.i18n import translator

    be, ru = translator("be"), translator("ru")
    got = [be.ngettext("{n} tile", "{n} tiles", n).format(n=n) for n in (1, 2, 5, 11, 21, 22)]
    assert got == ["1 костка", "2 косткі", "5 костак", "11 костак", "21 костка", "22 косткі"]
    got = [ru.ngettext("{n} tile", "{n} tiles", n).format(n=n) for n in (1, 3, 12, 104, 111)]
    assert got == ["1 костяшка", "3 костяшки", "12 костяшек", "104 костяшки", "111 костяшек"]
    pt = translator("pt")
    assert [pt.ngettext("{n} tile", "{n} tiles", n).format(n=n) for n in (0, 1, 2)] == \
        ["0 peças", "1 peça", "2 peças"]          # zero takes the plural (a tester: "0 peça")


def test_the_checker_catches_bad_catalogs():
    """The check can fail: a lost placeholder, a missing plural form, an untranslated id."""
    cat = Catalog(locale="ru", domain="dominohall", header_comment="# Glossary: x")
    cat.mime_headers = [("Plural-Forms", PLURAL_FORMS["ru"])]
    cat.add("{name} passed", "пас")                                  # lost {name}
    cat.add(("{n} tile", "{n} tiles"), ("{n} костяшка", "{n} костяшки"))   # 2 of 3 forms
    cat.add("Your turn", "")
    problems = problems_of("ru", cat, ["{name} passed", ("{n} tile", "{n} tiles"),
                                       "Your turn", "Pass"])
    text = "\n".join(problems)
    assert "'{name} passed': placeholders" in text
    assert "2 plural forms, ru has 3" in text
    assert "untranslated 'Your turn'" in text
    assert "missing 'Pass'" in text
    assert placeholders("%(prog)s: error: %(message)s {x}") == {"%(prog)s", "%(message)s", "x"}


# Each language's word for a domino term (a stem), from the glossary in its catalog header.
GLOSSARY = {
    "boneyard": {"ru": "базар", "be": "банк", "kk": "банк", "bg": "банк", "pt": "monte",
                 "es": "pozo"},
    "train": {"ru": "поезд", "be": "цягнік", "kk": "пойыз", "bg": "влак", "pt": "trem",
              "es": "tren"},
    "spinner": {"ru": "вертушк", "be": "круцёлк", "kk": "айналма", "bg": "въртележк",
                "pt": "giratória", "es": "giratoria"},
    "marker": {"ru": "маркер", "be": "маркер", "kk": "маркер", "bg": "маркер",
               "pt": "marcador", "es": "marcador"},
    "engine": {"ru": "станци", "be": "станцы", "kk": "вокзал", "bg": "гар", "pt": "estaç",
               "es": "estaci"},
}
# English uses some of these words for other things in a few messages
NOT_THE_TERM = re.compile(r"t0\.\.t|--|_train|HIGH-LOW|mypyc|pure-Python")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("term", sorted(GLOSSARY))
def test_glossary_words_are_used_consistently(lang, term):
    cat = load(lang)
    assert GLOSSARY[term][lang] in cat.header_comment.lower() or \
        GLOSSARY[term][lang] in cat.header_comment
    stem = GLOSSARY[term][lang].lower()
    wrong = []
    for m in cat:
        english = m.id[0] if isinstance(m.id, tuple) else m.id
        words = re.sub(r"\{\w*\}", " ", english or "")
        if not words or NOT_THE_TERM.search(words) or not re.search(rf"\b{term}s?\b", words, re.I):
            continue
        if term == "train" and ("Mexican Train" in english and "mexican_train" in english):
            continue
        forms = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        if not all(stem in f.lower() for f in forms):
            wrong.append((english, forms))
    assert not wrong, wrong


@pytest.mark.parametrize("lang, phrase", [
    ("ru", "на поезд игрока Бот 3"), ("be", "на цягнік гульца Бот 3"),
    ("kk", "Бот 3 ойыншысының пойызына"), ("bg", "на влака на Бот 3"),
    ("pt", "no trem de Бот 3"), ("es", "en el tren de Бот 3")])
def test_a_play_on_another_players_train_reads_naturally(lang, phrase):
    """A name stays as it is (nominative) where the language would inflect it: ru and be
    say "the train of the player Bot 3" ("на поезд игрока Бот 3", not "на поезд Бот 3"),
    kk puts the genitive on "player"; the others have a preposition."""
    from dominohall.i18n.log import event_text

    e = {"type": "play", "seat": 0, "tile": "6-3", "target": "t2"}
    got = event_text(e, seat=1, lang=lang, names=["Аня", "Бен", "Бот 3"],
                     game="mexican_train")
    assert phrase in got and "Аня" in got, got
