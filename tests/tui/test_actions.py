"""Hint, illegal moves, the command line, mouse clicks, sorting and undo."""

from __future__ import annotations

import re

import pytest

from dominohall import IllegalAction
from dominohall.analysis.advice import HINT_BOT, advise
from dominohall.i18n import error_text
from dominohall.tui import render
from dominohall.tui.app import PlayApp
from dominohall.tui.hint import why
from dominohall.tui.session import Session

from .helpers import SIZE, assert_no_hidden_tiles, play_screen, run, screen_text


def mt(seed: int = 3, **kw) -> Session:
    return Session.new("mexican_train", 4, seed, {}, ["greedy"], **kw)


def engine_message(session: Session, action: str) -> str:
    with pytest.raises(IllegalAction) as err:
        session.game.clone().apply(action, seat=session.human)
    return error_text(err.value, words=True)      # as the terminal says it


def test_hint_says_the_strongest_bots_move_as_a_sentence():
    """The hint is a sentence in words: the tile, why (trains by name), which key plays
    it; no bot's name, no raw target ("t0", "mx") and no action syntax ("12-7>t0")."""
    session = mt()

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert session.human_to_play
            view = session.view()
            await pilot.press("question_mark")
            await app.workers.wait_for_complete()
            await pilot.pause()
            message = play_screen(app).message.plain
            expected = advise(view).action                  # the same view, the same advice
            tile = expected.partition(">")[0]
            names = lambda s: render.bot_or_player(s, session.names)  # noqa: E731
            assert message == (f"hint: play {tile} — {why(expected, view, names)} "
                               "(Enter plays it)"), message
            assert f"hint: play {tile} — " in screen_text(app)
            assert not re.search(r"\bt\d\b|\bmx\b|>", message), message
            assert HINT_BOT not in message
            before = len(session.game.actions)
            await pilot.press({"draw": "d", "pass": "p", "end": "e"}.get(expected, "enter"))
            await pilot.pause()
            assert str(session.game.actions[before]) == expected

    run(main())


def test_why_reads_the_view():
    view = {"game": "mexican_train", "seat": 0, "owed": ["t2"],
            "legal_actions": ["7-7>t2", "12-7>t0"],
            "trains": [{"id": "t0", "owner": 0, "started": False},
                       {"id": "t2", "owner": 2, "started": True},
                       {"id": "mx", "owner": None, "started": False}]}
    assert why("7-7>t2", view).startswith(
        "covers the owed double on Player 3's train; sheds 14 pips")
    assert why("12-7>t0", view) == "starts your train; sheds 19 pips (the most you can)"
    assert "draw" in why("draw", view)


def test_illegal_moves_show_the_engines_message():
    session = mt()

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = play_screen(app)
            view = session.view()
            before = (list(session.game.actions), view["version"], list(view["hand"]))
            # typed in the notation: a tile that is not in the hand
            absent = next(f"{a}-{b}" for a in range(12, -1, -1) for b in range(a, -1, -1)
                          if f"{a}-{b}" not in view["hand"] and f"{a}-{b}" != "12-12")
            await pilot.press("colon")
            await pilot.press(*f"{absent}>t0")
            await pilot.press("enter")
            await pilot.pause()
            assert screen.message.plain == engine_message(session, f"{absent}>t0")
            # nonsense
            await pilot.press(*"hello", "enter")
            await pilot.pause()
            assert screen.message.plain == engine_message(session, "hello")
            await pilot.press("escape")
            # a key for an action that is not legal now
            word = next(w for w in ("pass", "end", "draw") if w not in view["legal_actions"])
            await pilot.press(word[0])
            await pilot.pause()
            assert screen.message.plain == engine_message(session, word)
            assert "Traceback" not in screen_text(app)
            # none of the refused moves changed the game (bots may not move: it is our turn)
            after = session.view()
            assert (list(session.game.actions), after["version"], list(after["hand"])) == before
            assert_no_hidden_tiles(app, session)

    run(main())


def test_mouse_picks_a_tile_and_a_target():
    session = Session.new("all_fives", 2, 4, {"hands": 1}, ["greedy"], autosave=False)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert session.human_to_play, "seed 4 should let seat 0 lead: pick another seed"
            screen = play_screen(app)
            hand = screen.hand_order(session.view())
            hv = app.screen.query_one("#hand")
            cell = hv.cell
            # click the glyph row of the third tile: selects it
            await pilot.click("#hand", offset=(1 + 2 * cell + 3, 2))
            await pilot.pause()
            assert screen.selected == hand[2]
            # click its first target chip: plays it
            chips = app.screen.query_one("#chips")
            line, start, _end, action = chips.spans[0]
            assert render.split_action(action)[0] == hand[2]
            before = len(session.game.actions)
            await pilot.click("#chips", offset=(1 + start + 1, line))
            await pilot.pause()
            assert str(session.game.actions[before]) == action

    run(main())


def test_sort_by_pips_and_suit():
    hand = ["1-0", "6-6", "6-1", "3-1", "5-1"]
    assert render.sort_hand(hand, "pips") == ["6-6", "6-1", "5-1", "3-1", "1-0"]
    assert render.sort_hand(hand, "suit")[:4] == ["6-1", "5-1", "3-1", "1-0"]


def test_sort_by_planned_train():
    """Mexican Train: the longest chain from your train's open end first, in play order."""
    view = {"game": "mexican_train", "seat": 0,
            "trains": [{"owner": 0, "open_end": 6}, {"owner": None, "open_end": 6}]}
    hand = ["1-0", "6-6", "6-1", "3-1", "5-2"]
    # 6-6 6-1 then 1-3 (as long as 1-0, more pips); the rest by pips
    assert render.sort_hand(hand, "train", view) == ["6-6", "6-1", "3-1", "5-2", "1-0"]
    assert render.sort_modes(view) == ("pips", "suit", "train")
    assert render.sort_modes({"game": "all_fives"}) == ("pips", "suit")

    session = mt()

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "sorted by pips" in screen_text(app)
            await pilot.press("s")
            await pilot.pause()
            assert "sorted by suit" in screen_text(app)
            screen = play_screen(app)
            assert screen.hand_order(session.view()) == render.sort_hand(
                session.view()["hand"], "suit")

    run(main())


def test_undo_replays_to_before_your_last_move():
    session = mt(seed=8, allow_undo=True)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = play_screen(app)
            await pilot.press("u")
            await pilot.pause()
            assert "you have not moved yet" in screen.message.plain
            before = session.view()
            n = len(session.game.actions)
            legal = before["legal_actions"]
            await pilot.press("colon", *legal[0], "enter", "escape")
            await pilot.pause()
            assert len(session.game.actions) > n
            await pilot.press("u")
            await pilot.pause()
            assert screen.message.plain.startswith("undone")
            assert len(session.game.actions) == n
            assert session.view() == before
            assert session.seats == [session.seats[k] for k in range(n)]

    run(main())


def test_undo_is_off_by_default():
    session = mt()

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("u")
            await pilot.pause()
            assert "--allow-undo" in play_screen(app).message.plain

    run(main())


def test_the_hint_does_not_say_play_again_on_your_last_tile():
    view = {"game": "mexican_train", "seat": 0, "owed": [], "hand": ["7-7"],
            "legal_actions": ["7-7>t0"],
            "trains": [{"id": "t0", "owner": 0, "started": True, "open_end": 7},
                       {"id": "mx", "owner": None, "started": False}]}
    last = why("7-7>t0", view)
    assert "again" not in last, last
    two = why("7-7>t0", {**view, "hand": ["7-7", "5-1"]})
    assert "you play again" in two, two
