"""`dominohall replay --analyze`: each move's mark and the better move under the board."""

from __future__ import annotations

import json

from dominohall import bots, new_game
from dominohall.analysis import review
from dominohall.cli import main
from dominohall.tui.app import ReplayApp, ReplayScreen

from .helpers import SIZE, run, screen_text


def _record() -> dict:
    g = new_game("block", players=2, seed=5, options={"hands": 1})
    seats = [bots.make("greedy", seed=s, game="block") for s in range(2)]
    while not g.is_over:
        g.apply(seats[g.current_seat].act(g.view(g.current_seat)))
    return json.loads(json.dumps(g.to_record()))


def test_the_replay_shows_each_moves_mark_and_the_better_move():
    record = _record()
    analysis = review.analyse(record, settings=review.settings_for("block", quick=True))
    decisions = {d.index: d for d in analysis.decisions}
    flawed = next(d for d in analysis.decisions if d.fair.mark != "best")
    forced = next(k for k in range(len(record["actions"])) if k not in decisions)

    async def go() -> None:
        app = ReplayApp(record, analysis=analysis.as_dict())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            assert "Analysis: step forward to see each move's mark" in screen_text(app)
            for _ in range(flawed.index + 1):
                await pilot.press("right")
            await pilot.pause()
            text = screen_text(app)
            assert (f"Analysis: Player {flawed.seat + 1}, {flawed.action}: {flawed.fair.mark}, "
                    f"{flawed.fair.loss:.1f} points lost; best {flawed.fair.best}") in text
            await pilot.press("home")
            for _ in range(forced + 1):
                await pilot.press("right")
            await pilot.pause()
            assert (f"Analysis: {record['actions'][forced]} had no alternative"
                    in screen_text(app))

    run(go())


def test_a_replay_without_analyze_shows_no_analysis_line():
    async def go() -> None:
        app = ReplayApp(_record())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("right")
            await pilot.pause()
            assert "Analysis" not in screen_text(app)

    run(go())


def test_replay_analyze_weighs_the_record_before_the_screen_opens(tmp_path, monkeypatch):
    record = _record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    seen = {}
    monkeypatch.setattr(ReplayApp, "run", lambda self: seen.setdefault("a", self.analysis))
    assert main(["replay", str(path), "--analyze", "--quick"]) == 0
    expected = review.analyse(record, settings=review.settings_for("block", quick=True))
    assert seen["a"] == expected.as_dict()
