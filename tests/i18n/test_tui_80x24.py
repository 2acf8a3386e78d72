"""The terminal game at 80x24 in Belarusian and Portuguese: the panels' titles are in the
language and those shown are whole (no cut words); the log is in the language too."""

from __future__ import annotations

import asyncio
import re

import pytest

from dominohall import i18n
from dominohall.tui.app import PlayApp
from dominohall.tui.session import Session

TITLES = ["Players", "Score sheet", "Table", "Log"]


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINOHALL_DATA_DIR", str(tmp_path))
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["be", "pt"])
@pytest.mark.parametrize("game", ["mexican_train", "all_fives"])
def test_panel_titles_translated_and_whole(lang, game):
    assert i18n.set_language(lang) == lang
    tr = i18n.translator(lang)
    opts = {"set_max": 6, "rounds": 1, "hand_size": 5} if game == "mexican_train" else {}
    session = Session.new(game, 4 if game == "mexican_train" else 2, 3, opts, ["greedy"],
                          autosave=False)

    async def main() -> tuple[list[str], list[str], str]:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            titles = [str(w.border_title) for w in app.screen.walk_children() if w.border_title]
            shown = [str(w.border_title) for w in app.screen.walk_children()
                     if w.border_title and w.region.width > 0]
            screen = "\n".join(s.text for s in app.screen._compositor.render_strips())
            return titles, shown, screen

    titles, shown, screen = asyncio.run(main())
    want = [tr.gettext(t) for t in TITLES]
    assert all(w != t for w, t in zip(want, TITLES, strict=True))
    missing = [w for w in want if not any(t == w or t.startswith(w + " (") for t in titles)]
    assert not missing, f"panel titles not in {lang}: {titles}"
    hand = tr.gettext("Your hand")
    assert any(t.startswith(hand) for t in titles), titles
    assert len(shown) >= 3
    cut = [t for t in shown if t not in screen]
    assert not cut, f"titles cut at 80x24 in {lang}: {cut}"
    english_log = [line for line in screen.splitlines()
                   if re.search(r"seat \d+ (played|drew|passed|ended)", line)]
    assert not english_log, english_log
