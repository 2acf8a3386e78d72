"""Choosing a language, falling back to English (never to a key), numbers and dates."""

from __future__ import annotations

import datetime
import gettext

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import dominohall.i18n as i18n
from dominohall.i18n import (
    _,
    format_date,
    format_decimal,
    language_from_env,
    negotiate,
    ngettext,
    normalize,
    set_language,
    translator,
)


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language("en")


def test_set_language_translates_and_english_is_the_source():
    assert set_language("be") == "be"
    assert _("Your turn") == "Ваш ход"
    assert ngettext("{n} tile", "{n} tiles", 5).format(n=5) == "5 костак"
    assert set_language("en") == "en"
    assert _("Your turn") == "Your turn"
    assert ngettext("{n} tile", "{n} tiles", 1) == "{n} tile"


def test_unknown_message_and_language_fall_back_to_english():
    set_language("kk")
    assert _("a message no catalog has") == "a message no catalog has"
    assert ngettext("one new thing", "{n} new things", 3) == "{n} new things"
    assert set_language("xx") == "en"
    assert translator("tlh").gettext("Your turn") == "Your turn"


def test_untranslated_and_fuzzy_entries_fall_back_to_english(tmp_path, monkeypatch):
    cat = Catalog(locale="ru", domain="dominohall")
    cat.add("Your turn", "")                                 # untranslated
    cat.add("Pass", "Пас-пас", flags=["fuzzy"])              # fuzzy: not trusted
    cat.add("Draw", "Взять")
    cat.add(("{n} tile", "{n} tiles"), ("", "", ""))          # plural, untranslated
    po = tmp_path / "ru" / "LC_MESSAGES" / "dominohall.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as f:
        write_po(f, cat)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n._catalog.cache_clear()
    try:
        tr = i18n.Translator("ru")
        assert tr.gettext("Your turn") == "Your turn"
        assert tr.gettext("Pass") == "Pass"
        assert tr.gettext("Draw") == "Взять"
        assert tr.ngettext("{n} tile", "{n} tiles", 5) == "{n} tiles"
        body = i18n.catalog_json("ru")
        assert body["messages"] == {"Draw": "Взять"}
    finally:
        i18n._catalog.cache_clear()


@pytest.mark.parametrize("env, want", [
    ({}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANG": "be_BY.UTF-8"}, "be"),
    ({"LANG": "pt_BR.UTF-8", "LC_ALL": "kk_KZ.UTF-8"}, "kk"),
    ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "bg_BG.UTF-8"}, "bg"),
    ({"LANGUAGE": "fr:es:ru", "LANG": "bg_BG"}, "es"),
    ({"LANGUAGE": "fr", "LC_ALL": "de_DE.UTF-8", "LANG": "ru_RU"}, "en"),   # libc: LC_ALL wins
    ({"LANG": "sr@latin"}, "en"),
])
def test_language_from_env(env, want):
    assert language_from_env(env) == want


def test_set_language_none_reads_the_environment(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "es_MX.UTF-8")
    assert set_language(None) == "es"
    assert _("Pass") == "Pasar"


@pytest.mark.parametrize("header, want", [
    ("ru-RU,ru;q=0.9,en;q=0.8", "ru"),
    ("de-DE,pt-BR;q=0.8,en;q=0.5", "pt"),
    ("en;q=0.2, kk;q=0.9", "kk"),
    ("es;q=0, bg", "bg"),
    ("fr, de", "en"),
    ("", "en"),
    ("*", "en"),
    (";;;q=abc,,,be", "be"),
    ("x" * 10_000, "en"),
])
def test_negotiate_accept_language(header, want):
    assert negotiate(header) == want


def test_normalize_odd_input():
    assert normalize("PT_br.utf8") == "pt"
    assert normalize("") is None and normalize(None) is None
    assert normalize("беларуская") is None
    assert negotiate(["fr-CA", "be-BY"]) == "be"


def test_numbers_and_dates_through_babel():
    assert format_decimal(1234567.5, "ru") == "1\xa0234\xa0567,5"
    assert format_decimal(1234567.5, "pt") == "1.234.567,5"
    assert format_decimal(1234567.5, "en") == "1,234,567.5"
    d = datetime.date(2026, 12, 1)
    assert format_date(d, "es") == "1 dic 2026"
    assert "2026" in format_date(d, "kk") and "2026" in format_date(d, "be")


@pytest.mark.parametrize("lang", ["be", "kk", "bg", "pt", "es", "ru"])
def test_plural_rule_matches_gettext(lang):
    """The catalog's plural expression (also shipped to the browser) gives valid forms."""
    body = i18n.catalog_json(lang)
    f = gettext.c2py(body["plural"])
    assert {f(n) for n in range(0, 300)} == set(range(body["nplurals"]))
