"""The players' rules guide ("How to play"), shipped inside the package.

``rules_markdown()`` is the guide as Markdown: the web app's *How to play* page and the
terminal game's help screen both show it; ``docs/how-to-play.md`` is the same text for readers of
the repository. Its option and deal tables are generated from the engine's option
definitions: ``python -m dominohall.guide --write`` rebuilds them (see ``generate.py``).

The guide is translated whole: ``rules.<lang>.md`` beside ``rules.md`` is the same guide
(the same headings, the same generated blocks, every option name and tile as in English)
in that language. ``rules_markdown(lang)`` gives the translation when there is one, and
the English guide otherwise; `guide_language` says which one that is.
"""

from __future__ import annotations

from importlib import resources

from ..i18n import get_language, normalize

#: the languages with a translated guide (``rules.<lang>.md``)
TRANSLATED = ("be", "bg", "es", "kk", "pt", "ru")


def guide_language(lang: str | None = None) -> str:
    """The language `rules_markdown(lang)` is written in: `lang` (the current language
    when None) if the guide is translated into it, else English."""
    code = normalize(lang if lang is not None else get_language())
    return code if code in TRANSLATED else "en"


def guide_file(lang: str) -> str:
    """The file name of the guide in `lang` (``rules.md`` for English)."""
    return "rules.md" if lang == "en" else f"rules.{lang}.md"


def rules_markdown(lang: str | None = None) -> str:
    """The whole rules guide as Markdown, in `lang` (the current language when None) or
    in English when it has no translation."""
    name = guide_file(guide_language(lang))
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
