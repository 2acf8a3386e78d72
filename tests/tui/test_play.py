"""Whole rounds by key presses, with the hidden-information check after every step."""

from __future__ import annotations

import re

from dominohall import replay
from dominohall.tui import render
from dominohall.tui.app import NoticeScreen, PlayApp

from .helpers import (
    SIZE,
    assert_no_hidden_tiles,
    notice_text,
    play_out,
    play_screen,
    run,
    screen_text,
)

SMALL_MT = {"set_max": 6, "rounds": 2, "hand_size": 5}


def small_mt(seed: int = 5, **kw):
    from dominohall.tui.session import Session
    return Session.new("mexican_train", 4, seed, SMALL_MT, ["greedy"], **kw)


def test_mexican_train_rounds_by_keys():
    session = small_mt()
    notices: list[str] = []

    def seen(screen: NoticeScreen) -> None:
        notices.append(notice_text(screen.app))       # what the player sees

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Round 1 of 2 — engine 6-6" in text
            assert " Mexican " in text and "boneyard:" in text
            moves = await play_out(pilot, app, session, on_notice=seen)
            assert moves >= 2
            assert session.game.is_over
            # the log says it in words: who won by name, never a list of seat indexes
            text = screen_text(app)
            assert re.search(r"Match over: (you won!|Bot \d won\.)", text), text
            log = render.log_text(session.view(), names=session.names).plain
            assert not re.search(r"\bseat \d|\bt\d\b|\bon (L|R|mx)\b|\[", log), log
            assert "The match is over" in play_screen(app).message.plain

    run(main())
    # a round end reveals every hand, the points and totals; then the final table
    view = session.view()
    ends = [e for e in view["log"] if e["type"] == "round_end"]
    assert len(ends) == 2 and len(notices) == 3
    for event, body in zip(ends, notices):
        assert f"Round {event['round']} over" in body
        for hand in event["hands"]:
            for tile in hand:
                assert render.glyph(tile) in body
        for s, name in enumerate(["you", "Bot 2 · Greedy (easy)", "Bot 3 · Greedy (easy)",
                                  "Bot 4 · Greedy (easy)"]):
            row = next(line.strip("█ ") for line in body.splitlines()
                       if line.strip("█ ").startswith(name + " "))
            assert row.split()[-3:] == [str(event["pips"][s]), str(event["points"][s]),
                                        str(event["scores"][s])], row
        # the last round's notice offers the match's result, not a round that never comes
        last = event["round"] == ends[-1]["round"]
        assert ("Enter or Space: next round" in body) != last, body
        assert ("Enter or Space: the final scores" in body) == last, body
    assert "Match over" in notices[-1] and "winner" in notices[-1]
    assert "Enter or Space: back to the table" in notices[-1]
    # the autosaved record replays to the same game
    assert replay(session.record()).view(0) == view


def test_all_fives_hand_by_keys():
    from dominohall.tui.session import Session
    session = Session.new("all_fives", 2, 11, {"hands": 1}, ["greedy"])

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "All Fives · Hand 1 of 1" in screen_text(app)
            await play_out(pilot, app, session)
            assert session.game.is_over

    run(main())
    plays = [e for e in session.view()["log"] if e["type"] == "play" and e["seat"] == 0]
    assert plays, "the human played tiles by keys"


def test_layout_shows_spinner_arms_and_count():
    import dominohall
    from dominohall.tui.session import Session
    game = dominohall.new_game(
        "all_fives", players=2, leader=0,
        hands=[["6-6", "6-2", "5-5", "4-4", "3-3", "2-2", "1-1"],
               ["6-3", "6-5", "6-4", "5-4", "5-3", "5-2", "4-3"]],
        boneyard=["6-1", "6-0", "5-1", "5-0", "4-2", "4-1", "4-0",
                  "3-2", "3-1", "3-0", "2-1", "2-0", "1-0", "0-0"])
    for a in ["6-6", "6-3>L", "6-2>R", "6-5>U"]:
        game.apply(a)
    session = Session(game, ["human", "greedy"], autosave=False)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "spinner [6|6]" in text
            assert "◂3 [3|6][6|6][6|2] ▸2" in text
            assert "the spinner's upper arm ▸5: [6|5]" in text
            assert "count 10" in text
            assert_no_hidden_tiles(app, session)

    run(main())
