"""Player-facing text in the player's language.

Every string a player reads goes through this module, so that it can be translated:

    from dominohall.i18n import _, ngettext, N_
    _("Your turn")
    _("{name} has one tile left").format(name=name)
    ngettext("{n} tile", "{n} tiles", n).format(n=n)
    LABEL = N_("Boneyard")          # marked for extraction, translated later with _(LABEL)

Placeholders are ``str.format`` names in braces. English is the source text; the
catalogs are gettext ``.po`` files under ``locale/<lang>/LC_MESSAGES/dominohall.po``,
read with Babel at run time (no compiled files to keep in step). A message a catalog
lacks falls back to the English text, never to a key.

The terminal chooses its language once (:func:`set_language`, from ``--lang`` or the
environment). The web server follows each player, never its own ``LANG``: it picks the
language of a request with :func:`request_language` (``?lang=``, the menu's ``dh_lang``
cookie, ``Accept-Language``), translates with :func:`translator` or, for code that calls
``_()`` (a hint), inside :func:`use_language` (local to that thread or task), and serves
the browser the same catalogs as JSON (:func:`catalog_json`). Errors are said from their
``code`` and ``params`` with :func:`error_text` (templates in :mod:`.errors`).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext as _gettext
import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

#: The languages dominohall speaks, in their own names (English is the source).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "be": "Беларуская",
    "kk": "Қазақша",
    "bg": "Български",
    "pt": "Português",
    "es": "Español",
    "ru": "Русский",
}
DEFAULT = "en"
DOMAIN = "dominohall"
LOCALE_DIR = Path(__file__).with_name("locale")

__all__ = [
    "DEFAULT", "LANGUAGES", "LANG_COOKIE", "N_", "Translator", "_", "catalog_json",
    "error_text", "format_date", "format_decimal", "get_language", "language_from_env",
    "negotiate", "ngettext", "normalize", "NP_", "pgettext", "request_language", "say",
    "set_language", "translator", "use_language",
]


def normalize(lang: str | None) -> str | None:
    """``"pt_BR.UTF-8"``, ``"be-BY"``, ``"RU"`` -> a language code we ship, else None."""
    if not lang:
        return None
    code = re.split(r"[-_.@]", lang.strip(), maxsplit=1)[0].lower()
    return code if code in LANGUAGES else None


def negotiate(preferred: str | Iterable[str] | None) -> str:
    """The best language we ship for an ``Accept-Language`` header or a list of tags;
    English when none matches."""
    if preferred is None:
        return DEFAULT
    if isinstance(preferred, str):
        ranked: list[tuple[float, int, str]] = []
        for i, part in enumerate(preferred.split(",")):
            tag, _sep, params = part.strip().partition(";")
            q = 1.0
            m = re.search(r"q\s*=\s*([0-9.]+)", params)
            if m:
                try:
                    q = float(m.group(1))
                except ValueError:
                    q = 0.0
            if tag and q > 0:
                ranked.append((-q, i, tag))
        tags = [tag for _q, _i, tag in sorted(ranked)]
    else:
        tags = list(preferred)
    for tag in tags:
        code = normalize(tag)
        if code:
            return code
    return DEFAULT


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: ``LANGUAGE`` (a
    colon-separated list), then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English if none
    names a language we ship (``C`` and ``POSIX`` are English)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        if var == "LANGUAGE":
            for item in value.split(":"):
                code = normalize(item)
                if code:
                    return code
            continue
        code = normalize(value)
        return code or DEFAULT      # the first locale variable set decides, as in libc
    return DEFAULT


# ---- catalogs ---------------------------------------------------------------------------

def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def _catalog(lang: str) -> Any:
    """The Babel catalog of `lang` (None for English or a missing file)."""
    from babel.messages.pofile import read_po

    path = po_path(lang)
    if lang == DEFAULT or not path.exists():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


class Translator:
    """The messages of one language; missing or fuzzy messages fall back to English."""

    def __init__(self, lang: str) -> None:
        self.lang = normalize(lang) or DEFAULT
        catalog = _catalog(self.lang)
        if catalog is None:
            self._t: _gettext.NullTranslations = _gettext.NullTranslations()
        else:
            from babel.messages.mofile import write_mo

            buf = io.BytesIO()
            write_mo(buf, catalog)          # fuzzy and untranslated entries are left out
            buf.seek(0)
            self._t = _gettext.GNUTranslations(buf)
            self._t.add_fallback(_gettext.NullTranslations())

    def gettext(self, message: str) -> str:
        return self._t.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._t.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._t.pgettext(context, message)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


@functools.cache
def translator(lang: str | None) -> Translator:
    """The translator for `lang` (any tag: ``"pt-BR"`` is Portuguese; unknown is English)."""
    return Translator(normalize(lang) or DEFAULT)


_current: Translator | None = None
#: a language for this context only (a web request, a hint worked out for one player)
_local: contextvars.ContextVar[Translator | None] = contextvars.ContextVar(
    "dominohall_language", default=None)


def set_language(lang: str | None) -> str:
    """Choose the language for this process (the terminal game); returns the one used.

    ``None`` reads the environment (:func:`language_from_env`); an unknown language is
    English."""
    global _current
    code = normalize(lang) if lang else language_from_env()
    _current = translator(code or DEFAULT)
    return _current.lang


@contextlib.contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """Speak `lang` in this context only (this thread or task; the process's language is
    unchanged): the server says a player's text in that player's language."""
    token = _local.set(translator(lang))
    try:
        yield get_language()
    finally:
        _local.reset(token)


def _active() -> Translator | None:
    return _local.get() or _current


def get_language() -> str:
    tr = _active()
    return DEFAULT if tr is None else tr.lang


def _(message: str) -> str:
    """The message in the current language (English when untranslated)."""
    tr = _active()
    return message if tr is None else tr.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form of the message for ``n`` in the current language."""
    tr = _active()
    if tr is None:
        return singular if n == 1 else plural
    return tr.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the current language, as translated for `context`: the same English
    word in two places ("Play": the replay's playback button, the terminal's key that
    plays the picked tile) can be translated differently."""
    tr = _active()
    return message if tr is None else tr.pgettext(context, message)


#: gettext's separator of a message's context and its text (``NP_`` markers carry both)
CONTEXT_SEP = "\x04"


def NP_(context: str, message: str) -> str:  # noqa: N802
    """Mark a message with its context for extraction; :func:`say` translates it later."""
    return f"{context}{CONTEXT_SEP}{message}"


def say(marked: str) -> str:
    """A message marked with ``N_`` or ``NP_``, in the current language."""
    context, sep, message = marked.partition(CONTEXT_SEP)
    return pgettext(context, message) if sep else _(marked)


#: the cookie the language menu sets (js/i18n.js), so the server knows the choice too
LANG_COOKIE = "dh_lang"


def request_language(query: str | None = None, cookie: str | None = None,
                     accept_language: str | None = None) -> str:
    """The language of one web request: ``?lang=``, else the language menu's remembered
    choice (the ``dh_lang`` cookie), else the browser's ``Accept-Language``, else English."""
    return normalize(query) or normalize(cookie) or negotiate(accept_language)


def N_(message: str) -> str:
    """Mark a message for extraction without translating it yet (module-level labels)."""
    return message


# ---- numbers and dates ------------------------------------------------------------------

def format_decimal(number: float | int, lang: str | None = None) -> str:
    """A number the way the language writes it (``1 234,5`` in Russian)."""
    from babel.numbers import format_decimal as fmt

    return str(fmt(number, locale=normalize(lang) or get_language()))


def format_date(when: date | datetime, lang: str | None = None, form: str = "medium") -> str:
    """A date (or a datetime's date) the way the language writes it."""
    from babel.dates import format_date as fmt

    return str(fmt(when, format=form, locale=normalize(lang) or get_language()))


# ---- the browser's catalog --------------------------------------------------------------

def catalog_json(lang: str) -> dict[str, Any]:
    """What ``/api/i18n/{lang}.json`` serves: the translated messages of `lang` (plural
    messages as lists, keyed by the English singular), its gettext plural rule, and the
    language names for the menu. Raises KeyError for a language we do not ship."""
    code = normalize(lang)
    if code is None or code != lang.lower():
        raise KeyError(lang)
    catalog = _catalog(code)
    messages: dict[str, str | list[str]] = {}
    nplurals, plural = 2, "(n != 1)"
    if catalog is not None:
        nplurals, plural = catalog.num_plurals, catalog.plural_expr
        for m in catalog:
            if not m.id or m.fuzzy:
                continue
            if isinstance(m.id, tuple):
                forms = list(m.string)
                if all(forms):
                    messages[m.id[0]] = forms
            elif m.string and m.context:
                messages[f"{m.context}{CONTEXT_SEP}{m.id}"] = m.string
            elif m.string:
                messages[m.id] = m.string
    from .errors import ACTION_WORDS, ERRORS, PLAIN_REASONS, REASONS, option_labels

    return {"lang": code, "name": LANGUAGES[code], "nplurals": nplurals, "plural": plural,
            "languages": LANGUAGES, "messages": messages, "errors": ERRORS,
            "reasons": list(REASONS), "plain_reasons": PLAIN_REASONS,
            "actions": ACTION_WORDS, "options": option_labels()}


def error_text(err: Any, lang: str | None = None, *, words: bool = False) -> str:
    """An engine error (or ``{"code", "params", "message"}``) in a language (`words`: as
    the pages say it, see :func:`dominohall.i18n.errors.error_text`)."""
    from .errors import error_text as render

    return render(err, lang, words=words)
