"""The hint reads the asking seat's view alone (issue 25, High): twin positions whose view
for that seat is byte-for-byte the same, with other seats' hidden tiles exchanged (with the
boneyard or between them), get the same hint: the same action, the same reason codes and
params, and the same words in every language, asked through the server's one call point
(`server.hints.compute`) on each twin's own record.

Before the advice moved out of the terminal, All Fives' "scores P" on a last tile added the
opponents' hidden pips (the hand's domino bonus), and the bot's search was timed: this test
found differences in both (see the commit that added it)."""

from __future__ import annotations

import pytest

from dominohall.analysis import advice
from dominohall.engine import replay
from dominohall.i18n import LANGUAGES
from dominohall.server import hints

from .twins import Twin, twins

GAMES = ("mexican_train", "all_fives", "draw", "block")


def _compare(twin: Twin, langs: list[str]) -> list[str]:
    """The differences between a twin pair's hints (empty: none)."""
    out = []
    a = advice.advise(replay(twin.record).view(twin.seat))
    b = advice.advise(replay(twin.other).view(twin.seat))
    if a != b:
        out.append(f"advice: {a} != {b}")
    for lang in langs:
        ha = hints.compute(twin.record, twin.seat, lang)
        hb = hints.compute(twin.other, twin.seat, lang)
        if ha != hb:
            out.append(f"{lang}: {ha} != {hb}")
    return out


@pytest.fixture
def cheap_search(monkeypatch):
    """The hint's search at a few worlds: the same code path, fewer rollouts, so that many
    positions and every language fit in a test."""
    monkeypatch.setattr(advice, "HINT_SETTINGS",
                        {g: {**s, "worlds": 3} for g, s in advice.HINT_SETTINGS.items()})


@pytest.mark.parametrize("game", GAMES)
def test_twin_positions_get_the_same_hint_in_every_language(game, cheap_search):
    pairs = list(twins(game, 24, seed=1))
    assert len(pairs) == 24
    if game == "all_fives":
        assert sum(t.last_tile for t in pairs) >= 6       # the positions the leak was in
    differences = [(t.seat, d) for t in pairs for d in _compare(t, list(LANGUAGES))]
    assert differences == []


@pytest.mark.parametrize("game", GAMES)
def test_twin_positions_get_the_same_hint_at_the_real_setting(game):
    pairs = list(twins(game, 4, seed=2))
    differences = [(t.seat, d) for t in pairs for d in _compare(t, ["en", "ru"])]
    assert differences == []


def test_a_last_tile_in_all_fives_scores_only_the_count():
    """The play event's points: the count's, never the pips in the others' hands."""
    twin = next(t for t in twins("all_fives", 40, seed=3) if t.last_tile)
    view = replay(twin.record).view(twin.seat)
    tile_plays = [a for a in view["legal_actions"] if "-" in a]
    for action in tile_plays:
        codes = {r.code: r.params for r in advice.reasons(action, view)}
        assert "goes_out" in codes
        points = (codes.get("count_scores") or {"points": 0})["points"]
        assert points % 5 == 0 and points <= 5 * 12
