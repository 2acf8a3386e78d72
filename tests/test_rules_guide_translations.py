"""The rules guide in each language (issue 12): ``rules.<lang>.md`` is the English guide
translated whole, and the How to play page and the terminal's help show it.

A translation must keep the guide's shape, so that nothing is lost in it: the same
headings at the same levels, the same generated blocks (rebuilt in its language from
the option definitions), every option name and value (code spans) and tile the English
text has; and none of the English headings may be left in it.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from dominohall.guide import TRANSLATED, guide_language, rules_markdown
from dominohall.guide.generate import _BLOCK, regenerate
from dominohall.i18n import translator, use_language
from dominohall.server.pages import guide_headings, guide_page

ENGLISH = rules_markdown("en")
HEADING = re.compile(r"^(#{1,6}) (.+)$", re.M)
CODE = re.compile(r"`([^`\n]+)`")
#: a game's name some languages keep (their catalogs say "All Fives (Cinco em Cinco)")
NAMES = {"All Fives"}
TILE = re.compile(r"(?<![\w.-])\d{1,2}-\d{1,2}(?![\w-])")


def prose(text: str) -> str:
    """The guide without its generated blocks."""
    return _BLOCK.sub("", text)


@pytest.fixture(params=TRANSLATED)
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_every_language_has_a_guide_of_its_own(lang):
    text = rules_markdown(lang)
    assert text != ENGLISH and guide_language(lang) == lang
    assert len(text) > 0.6 * len(ENGLISH)


def test_a_translation_keeps_the_headings_levels_and_none_is_left_in_english(lang):
    ours = HEADING.findall(prose(rules_markdown(lang)))
    english = HEADING.findall(prose(ENGLISH))
    assert [len(h) for h, _t in ours] == [len(h) for h, _t in english]
    left = {t for _h, t in english} & {t for _h, t in ours} - NAMES
    assert not left, f"headings still in English: {sorted(left)}"


def test_a_translation_keeps_every_option_value_and_tile(lang):
    text = prose(rules_markdown(lang))
    assert set(CODE.findall(text)) == set(CODE.findall(prose(ENGLISH)))
    assert Counter(TILE.findall(text)) >= Counter(set(TILE.findall(prose(ENGLISH))))


def test_its_generated_blocks_are_current_and_said_in_its_language(lang):
    text = rules_markdown(lang)
    tr = translator(lang)
    names = [m.group(2) for m in _BLOCK.finditer(text)]
    assert names == [m.group(2) for m in _BLOCK.finditer(ENGLISH)]
    assert regenerate(text, tr.gettext) == text, "run python -m dominohall.guide --write"
    for header in ("What it changes", "Tiles per player", "Standard rules"):
        assert f" {tr.gettext(header)} " in text and tr.gettext(header) != header


def test_the_language_falls_back_to_english_and_follows_the_current_one():
    assert rules_markdown("fr") == ENGLISH and guide_language("fr") == "en"
    assert rules_markdown("pt-BR") == rules_markdown("pt")
    with use_language("kk"):
        assert rules_markdown() == rules_markdown("kk")


def test_the_how_to_play_page_shows_the_guide_in_the_readers_language(lang):
    page = guide_page(lang)
    assert f'<article id="guide" class="card guide" lang="{lang}">' in page
    first = HEADING.search(rules_markdown(lang))
    assert first is not None and first.group(2) in page
    contents = [t for level, _i, t in guide_headings(lang) if level == 2]
    english = [t for level, _i, t in guide_headings("en") if level == 2]
    assert len(contents) == len(english) and not set(contents) & set(english) - NAMES
