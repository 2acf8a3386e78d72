"""The view-to-text functions: orientation, trains, owed doubles, the score sheet."""

from __future__ import annotations

import re

import dominohall
from dominohall.tui import render


def test_orientation_follows_the_open_end():
    assert render.oriented(["12-7", "7-7", "7-3"], 3) == [(12, 7), (7, 7), (7, 3)]
    assert render.oriented([], 12) == []
    assert render.glyph("12-5", flip=True) == "[5|12]"


def test_trains_show_owner_open_end_marker_and_owed_double():
    view = {"engine": "12-12", "seat": 0, "owed": ["t1"], "trains": [
        {"id": "t0", "owner": 0, "tiles": ["12-3"], "open_end": 3, "marker": False,
         "started": True},
        {"id": "t1", "owner": 1, "tiles": ["12-7", "7-7"], "open_end": 7, "marker": True,
         "started": True},
        {"id": "mx", "owner": None, "tiles": [], "open_end": 12, "marker": True,
         "started": False}]}
    text = render.trains_text(view, 80)
    lines = text.plain.splitlines()
    assert "owed: Player 2's train — cover it first" in lines[0]
    assert lines[1].startswith("you ") and lines[1].endswith("▸3  [12|3]")
    assert lines[2].startswith("Player 2  ● ▸7") and lines[2].endswith("[12|7][7|7]")
    assert lines[3].startswith("Mexican ") and "not started" in lines[3]
    assert not re.search(r"\bt\d\b|\bmx\b", text.plain), text.plain     # no internal names
    owed = [span for span in text.spans if "on red" in str(span.style)]
    assert any(text.plain[s.start:s.end] == "[7|7]" for s in owed)


def test_score_sheet_and_header_for_ten_players():
    g = dominohall.new_game("mexican_train", players=10, seed=1)
    view = g.view(0)
    sheet = render.score_sheet(view, []).plain.splitlines()
    assert all(len(line) <= 4 + 5 * 10 for line in sheet)
    assert sheet[0].split() == ["you", *(f"#{n}" for n in range(2, 11))]     # 1-based
    assert "Round 1 of 13 — engine 12-12" in render.header(view, []).plain
