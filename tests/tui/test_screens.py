"""What the player sees at common terminal sizes: the round-end and match-over tables,
the compact layout at 80×24 and 100×30, the 'enlarge the window' message, the footer's
keys, focus after ':', the rules guide (h) and the All Fives hint."""

from __future__ import annotations

import re
import time

import pytest

import dominohall
from dominohall import bots, i18n, replay
from dominohall.guide import rules_markdown
from dominohall.tui import render
from dominohall.tui.app import HelpScreen, NoticeScreen, PlayApp, PlayScreen
from dominohall.tui.hint import why
from dominohall.tui.session import Session

from .helpers import assert_no_hidden_tiles, notice_text, play_screen, run, screen_text

KEYS = {"draw": "d", "pass": "p", "end": "e"}


async def first_legal_until_notice(pilot, app, session, limit=300) -> None:
    """Play the human's first legal action (by keys) until a notice opens."""
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, NoticeScreen):
            return
        action = str(session.view()["legal_actions"][0])
        await pilot.press(KEYS.get(action, "enter"))
    raise AssertionError("no notice opened")


async def until_your_turn(pilot, app, session, seconds: float = 20.0) -> None:
    """Wait (bounded) for the bots before you to move and the screen to say so: a
    mid-round table may open on a bot's turn, and a loaded machine is slow."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await pilot.pause()
        if session.game.is_over or (session.human_to_play
                                    and "your turn" in screen_text(app)):
            return
    raise AssertionError(f"still not your turn after {seconds:g} s:\n{screen_text(app)}")


def row_of(text: str, name: str) -> list[str]:
    """The cells of the table row that starts with `name` (borders stripped)."""
    for line in text.splitlines():
        cells = line.strip("█▌▐ ")
        if cells.startswith(name + " "):
            return cells.split()
    raise AssertionError(f"no row for {name!r} in:\n{text}")


def test_round_end_and_match_over_show_the_points_table():
    """The round-end notice (and the match-over one, same code) shows every hand, the
    points and the totals, and says which key continues: read from an 80×24 screen
    (test_play reads it at 150×45)."""
    size = (80, 24)
    session = Session.new("mexican_train", 4, 5, {"set_max": 6, "rounds": 2, "hand_size": 5},
                          ["greedy"], autosave=False)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=size) as pilot:
            await first_legal_until_notice(pilot, app, session)
            text = notice_text(app)
            event = [e for e in session.view()["log"] if e["type"] == "round_end"][0]
            assert f"Round {event['round']} over" in text
            for word in ("Player", "Tiles left", "Pips", "Points", "Total"):
                assert word in text
            for s, name in enumerate(["you", "Bot 2 · Greedy (easy)", "Bot 3 · Greedy (easy)",
                                      "Bot 4 · Greedy (easy)"]):
                cells = row_of(text, name)
                assert cells[-3:] == [str(event["pips"][s]), str(event["points"][s]),
                                      str(event["scores"][s])]
                for tile in event["hands"][s]:
                    assert render.glyph(tile) in text
            assert "Enter or Space: next round · q: quit" in text
            # the notice is drawn inside the screen, not cut off
            box = app.screen.query_one("Vertical").region
            assert box.width <= size[0] and box.height <= size[1] and box.width > 40
            assert session.game.round == 2          # the bots wait for the player
            before = len(session.game.actions)
            await pilot.press("space")
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen)
            await first_legal_until_notice(pilot, app, session)
            assert len(session.game.actions) > before
            # the last round's table: Enter leads to the match's result, not a next round
            last = notice_text(app)
            assert "Round 2 over" in last and "next round" not in last
            assert "Enter or Space: the final scores · q: quit" in last
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, NoticeScreen)
            final = notice_text(app)
            assert "Match over" in final and "★ winner" in final
            assert "Score sheet" in final and "Round 1" in final and "Round 2" in final
            assert row_of(final, "Total")[1:] == [str(p) for p in session.game.scores]
            assert "Enter or Space: back to the table" in final

    run(main())


def mid_round(game_name: str, players: int, seed: int, moves: int, **options) -> Session:
    """A game `moves` actions in (every seat played by greedy), you at seat 0."""
    game = dominohall.new_game(game_name, players=players, seed=seed, options=options)
    greedy = bots.make("greedy", seed=seed)
    while len(game.actions) < moves and not game.is_over and game.round == 1:
        game.apply(greedy.act(game.view(game.current_seat)))
    return Session(game, ["human"] + ["greedy"] * (players - 1), autosave=False)


SIZES = [(80, 24), (100, 30)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players, seed", [(4, 12), (6, 3), (8, 1)])
def test_every_train_and_open_end_is_on_screen(size, players, seed):
    session = mid_round("mexican_train", players, seed, 10 * players)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=size) as pilot:
            await until_your_turn(pilot, app, session)
            text = screen_text(app)
            view = session.view()
            assert view["round"] == 1 and not isinstance(app.screen, NoticeScreen)
            assert "enlarge" not in text
            lines = text.splitlines()
            assert len(lines) == size[1] and all(len(line) <= size[0] for line in lines)
            assert not re.search(r"\bt\d\b|\bmx\b", text), text      # no internal names
            for train in view["trains"]:
                owner = train["owner"]
                label = ("Mexican" if owner is None else "you" if owner == session.human
                         else render.bot_or_player(owner, session.names))
                line = next((x for x in lines if "▸" in x and (
                    f" {label} " in x or f"▶{label} " in x)), None)
                assert line is not None, f"{label}'s train is not on screen:\n{text}"
                assert f"▸{train['open_end']}" in line
                if train["tiles"]:                  # the newest tile, as it lies
                    inner, outer = render.oriented(train["tiles"], train["open_end"])[-1]
                    assert f"[{inner}|{outer}]" in line
                else:
                    assert "not started" in line
            assert "Your hand" in text and "your turn" in text
            for tile in view["hand"]:
                assert render.glyph(tile) in text
            assert_no_hidden_tiles(app, session)

    run(main())


def fives_with_spinner() -> Session:
    game = dominohall.new_game(
        "all_fives", players=4, leader=0, options={"hand_size": 5},
        hands=[["6-6", "2-2", "5-5", "4-4", "3-3"], ["6-3", "6-5", "6-4", "5-4", "5-3"],
               ["6-2", "1-1", "5-2", "4-3", "6-1"], ["6-0", "5-1", "5-0", "4-2", "4-1"]],
        boneyard=["4-0", "3-2", "3-1", "3-0", "2-1", "2-0", "1-0", "0-0"])
    for a in ["6-6", "6-3>L", "6-2>R", "6-0>U"]:
        game.apply(a)
    return Session(game, ["human", "greedy", "greedy", "greedy"], autosave=False)


@pytest.mark.parametrize("size", SIZES)
def test_all_fives_spinner_fits(size):
    session = fives_with_spinner()

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            text = screen_text(app)
            view = session.view()
            lay = view["layout"]
            assert "enlarge" not in text
            assert f"count {lay['count']}" in text and "spinner [6|6]" in text
            ends = {e["id"]: e for e in lay["ends"]}
            assert f"◂{ends['L']['value']} [3|6][6|6][6|2] ▸{ends['R']['value']}" in text
            assert f"the spinner's upper arm ▸{ends['U']['value']}: [6|0]" in text
            assert f"the spinner's lower arm ▸{ends['D']['value']}: empty" in text
            for s in range(1, 4):                   # every player's tiles and points
                assert f"Bot {s + 1} {render.tiles_word(view['hand_sizes'][s])}" in text
            assert "boneyard: 8 tiles" in text

    run(main())


def test_too_small_says_how_big_and_comes_back():
    session = mid_round("mexican_train", 4, 12, 40)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(60, 16)) as pilot:
            await pilot.pause()
            text = " ".join(screen_text(app).split())
            assert "The window is too small for this table (60×16): enlarge it" in text
            assert "at least 64×" in text
            assert "Table" not in text and "Your hand" not in text
            need = int(text.split("at least 64×")[1].split(".")[0])
            await pilot.resize_terminal(64, need)
            await until_your_turn(pilot, app, session)
            text = screen_text(app)
            assert "enlarge" not in text and "Your hand" in text
            for train in session.view()["trains"]:
                assert f"▸{train['open_end']}" in text
            await pilot.resize_terminal(64, need - 1)
            await pilot.pause()
            assert f"at least 64×{need}." in " ".join(screen_text(app).split())

    run(main())


def test_the_log_collapses_in_the_compact_layout():
    session = mid_round("mexican_train", 4, 12, 40)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until_your_turn(pilot, app, session)
            # the last line as the log says it (in words: "Bot 4 passed")
            last = render.log_text(session.view(), names=session.names).plain.splitlines()[-1]
            assert "seat" not in last
            assert "Log (l: hide)" in screen_text(app) and last in screen_text(app)
            assert "l Log" in await settled_footer(app, pilot)
            await pilot.press("l")
            await pilot.pause()
            assert "Log (l: hide)" not in screen_text(app) and last not in screen_text(app)
            await pilot.press("l")
            await pilot.pause()
            assert last in screen_text(app)

    run(main())


def footer(app) -> str:
    return screen_text(app).splitlines()[-1]


async def settled_footer(app, pilot) -> str:
    """The footer once Textual has redrawn it: it redraws after the bindings change, and
    on a loaded machine one pause was not always enough (an empty or stale footer)."""
    text = footer(app)
    for _ in range(40):
        await pilot.pause(0.05)
        now = footer(app)
        if "q Quit" in now and now == text:
            return now
        text = now
    return text


def test_the_footer_shows_only_keys_that_apply():
    session = Session.new("mexican_train", 4, 3, {}, ["greedy"], autosave=False)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(150, 45)) as pilot:
            await pilot.pause()
            seen_end = False
            for _ in range(12):
                await pilot.pause()
                if isinstance(app.screen, NoticeScreen):
                    break
                legal = [str(a) for a in session.view()["legal_actions"]]
                keys = await settled_footer(app, pilot)
                assert "Undo" not in keys
                assert "h Help" in keys and "q Quit" in keys
                assert ("End chain" in keys) == ("end" in legal)
                assert ("d Draw" in keys) == ("draw" in legal)
                assert ("p Pass" in keys) == ("pass" in legal)
                seen_end |= "end" in legal
                await pilot.press(KEYS.get(legal[0], "enter"))
            assert seen_end, "the first-turn chain should have offered End chain"
            # a key that does not apply says why (the engine's words)
            legal = [str(a) for a in session.view()["legal_actions"]]
            word = next(w for w in ("pass", "end", "draw") if w not in legal)
            with pytest.raises(dominohall.IllegalAction) as err:
                session.game.clone().apply(word, seat=session.human)
            await pilot.press(word[0])
            await pilot.pause()
            assert play_screen(app).message.plain == i18n.error_text(err.value, words=True)

    run(main())

    undo = Session.new("mexican_train", 4, 3, {}, ["greedy"], autosave=False, allow_undo=True)

    async def with_undo() -> None:
        app = PlayApp(undo, speed=0)
        async with app.run_test(size=(150, 45)) as pilot:
            await pilot.pause()
            assert "u Undo" in await settled_footer(app, pilot)

    run(with_undo())


def test_focus_returns_to_the_board_after_typing():
    session = Session.new("mexican_train", 4, 3, {}, ["greedy"], autosave=False)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = play_screen(app)
            assert "type an action" not in screen_text(app)       # only shown while typing
            await pilot.press("colon")
            await pilot.pause()
            assert "type an action" in screen_text(app)
            await pilot.press(*"nonsense", "enter")
            await pilot.pause()
            assert app.focused is not None and app.focused.id == "command"   # fix and retry
            action = str(session.view()["legal_actions"][0])
            before = len(session.game.actions)
            await pilot.press(*action, "enter")
            await pilot.pause()
            assert str(session.game.actions[before]) == action
            assert app.focused is None and "type an action" not in screen_text(app)
            await pilot.press("question_mark")                  # a key again, not a letter
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.message.plain.startswith("hint: ")

    run(main())


async def settle(pilot, done, seconds: float = 5.0) -> None:
    """Pause until `done()` (a scroll to the end or the start is animated)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        await pilot.pause(0.05)


def test_help_key_shows_the_rules_guide():
    session = Session.new("all_fives", 2, 3, {}, ["greedy"], autosave=False)
    guide = rules_markdown()
    heading = next(line.lstrip("# ").strip() for line in guide.splitlines()
                   if line.startswith("#"))

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "h Help" in await settled_footer(app, pilot)
            await pilot.press("h")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            # one renderable, not a widget per block of the guide (that took seconds)
            assert len(list(app.screen.walk_children())) < 20
            text = screen_text(app)
            assert "Rules guide" in text and "Keys" in text
            assert "Esc, q or h: back to the game" in text
            flat = " ".join(text.split())
            assert "q Quit" in flat and "h f1 Help" in flat and "? Hint" in flat
            # scrolls at once (no Tab first): PgDn, arrows, End, Home
            scroll = app.screen.query_one("#help-scroll")
            await pilot.press("pagedown")
            await pilot.pause()
            assert scroll.scroll_y > 0 and screen_text(app) != text
            y = scroll.scroll_y
            await pilot.press("down")
            await pilot.pause()
            assert scroll.scroll_y == y + 1
            while "Symbols on the board" not in screen_text(app) and scroll.scroll_y > 0:
                await pilot.press("up")
                await pilot.pause()
            legend = " ".join(screen_text(app).split())
            assert "▶ whose turn it is" in legend
            assert "● a marker: that player's train is open to everyone" in legend
            await pilot.press("end")
            await settle(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y)
            assert scroll.scroll_y == scroll.max_scroll_y > 0
            await pilot.press("home")
            await settle(pilot, lambda: scroll.scroll_y == 0)
            assert scroll.scroll_y == 0
            for _ in range(400):                    # the guide itself is in the help
                if heading in screen_text(app):
                    break
                await pilot.press("down")
            assert heading in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen)
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            text = " ".join(screen_text(app).split())
            # what to type for this table's ends, in words
            whole = "\n".join(" ".join(x.split()) for x in screen_lines_of_help(app))
            assert "L the left end" in whole and "R the right end" in whole

    run(main())


@pytest.mark.parametrize("lang", ["ru", "kk"])
def test_help_lists_keys_and_symbols_in_the_language(lang):
    i18n.set_language(lang)
    tr = i18n.translator(lang)
    session = Session.new("mexican_train", 4, 3, {}, ["greedy"], autosave=False)

    async def main() -> list[str]:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            first = " ".join(screen_text(app).split())
            assert tr.gettext("Keys") in first
            assert f"q {tr.gettext('Quit')}" in first
            return [" ".join(line.split()) for line in screen_lines_of_help(app)]

    lines = "\n".join(run(main()))
    for english in ("whose turn it is", "a marker: that player's train is open to everyone",
                    "Symbols on the board"):
        assert tr.gettext(english) != english and tr.gettext(english) in lines, english
    assert f"t0 {tr.gettext('your train')}" in lines
    assert "mx " + tr.gettext("the Mexican train") in lines
    assert "Keys" not in lines and "Quit" not in lines


def screen_lines_of_help(app) -> list[str]:
    """The help's whole body as the terminal would show it, scrolled page by page."""
    width = app.screen.query_one("#help-scroll").scrollable_content_region.width
    console = app.console
    lines = console.render_lines(app.screen.body, console.options.update_width(width))
    return ["".join(seg.text for seg in line) for line in lines]


def fives_record() -> dict:
    """Seed 0, one hand: 5-4 led, 6-5 and 6-3 on L; seat 0 to play on L=3 / R=4."""
    g = dominohall.new_game("all_fives", players=2, seed=0, options={"hands": 1})
    for a in ["5-4", "6-5>L", "6-3>L"]:
        g.apply(a)
    return g.to_record()


def test_all_fives_hint_says_the_count_and_the_reply_it_denies():
    game = replay(fives_record())
    view = game.view(0)
    assert {"4-1>R", "3-1>L"} <= {str(a) for a in view["legal_actions"]}
    # 4-1 on R: ends 3 and 1, count 4, no score; 3-1 on L: ends 1 and 4, count 5 scores 5,
    # but then 6-1 (unseen by seat 0) on L makes 6 + 4 = 10 for seat 1.
    reason = why("4-1>R", view)
    assert reason.startswith("on the right end; count 4: no score; ")
    assert "the best reply Player 2 could make scores 5" in reason
    assert "3-1 (the left end) would score 5 but could give Player 2 10" in reason
    assert why("3-1>L", view).startswith(
        "on the left end; count 5: scores 5; the best reply Player 2 could make scores 10")
    # read from the view only: seat 1's real hand does not change the words
    other = replay(fives_record())
    st = other.state
    hand, bone = st.hands[1], st.boneyard           # swap one of seat 1's tiles for a drawable
    low = (hand & -hand)
    swap = bone[0]
    st.hands[1] = (hand & ~low) | (1 << swap)
    bone[0] = low.bit_length() - 1
    st._legal = None
    assert other.view(0) == view and other.view(1) != game.view(1)
    assert why("4-1>R", other.view(0)) == reason


def test_hint_keeps_its_signature_for_the_web_table():
    from dominohall.tui.hint import hint
    game = replay(fives_record())
    action, reason = hint(game, 0)
    assert action in {str(a) for a in game.legal_actions()}
    assert "count" in reason and not any(reason.startswith(b + ":")
                                         for b in bots.names("all_fives"))
    assert hint(game, 1) == ("", "it is not your turn")
