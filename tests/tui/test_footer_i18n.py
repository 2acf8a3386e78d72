"""The footer at 80x24 in every language: its keys are in the player's language (said at
run time, not when the module was imported) and Quit and Help are always on it; keys with
no room are left out whole, never cut."""

from __future__ import annotations

import pytest

from dominohall import i18n
from dominohall.tui.app import PlayApp, PlayScreen, ReplayApp
from dominohall.tui.session import Session

from .helpers import run, screen_text

LANGS = list(i18n.LANGUAGES)


def footer_line(app) -> str:
    return screen_text(app).splitlines()[-1]


async def settled(app, pilot) -> str:
    line = footer_line(app)
    for _ in range(40):
        await pilot.pause(0.05)
        now = footer_line(app)
        if now == line and now.strip():
            return now
        line = now
    return line


@pytest.mark.parametrize("lang", LANGS)
def test_quit_and_help_fit_at_80_columns(lang):
    i18n.set_language(lang)
    tr = i18n.translator(lang)
    session = Session.new("mexican_train", 4, 3, {}, ["greedy"], autosave=False,
                          allow_undo=True)

    async def main() -> str:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await settled(app, pilot)

    line = run(main())
    assert f"q {tr.gettext('Quit')}" in line, line
    assert f"h {tr.gettext('Help')}" in line, line
    assert f"⏎ {tr.pgettext('terminal key', 'Play')}" in line, line
    assert line.rstrip() == line.rstrip()[:79], line           # nothing past the edge
    if lang != "en":
        assert " Quit" not in line and " Help" not in line, line


@pytest.mark.parametrize("lang", ["ru", "be", "bg"])
def test_the_replay_footer_keeps_quit(lang):
    i18n.set_language(lang)
    tr = i18n.translator(lang)
    record = Session.new("all_fives", 2, 3, {"hands": 1}, ["greedy"], autosave=False
                         ).game.to_record()

    async def main() -> str:
        app = ReplayApp(record)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await settled(app, pilot)

    line = run(main())
    assert f"q {tr.gettext('Quit')}" in line, line


def test_a_dropped_key_still_works():
    """At 80 columns in Russian the sort key has no room in the footer; s still sorts."""
    i18n.set_language("ru")
    session = Session.new("mexican_train", 4, 3, {}, ["greedy"], autosave=False,
                          allow_undo=True)

    async def main() -> tuple[str, str, str]:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            line = await settled(app, pilot)
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            before = screen.sort_mode
            await pilot.press("s")
            await pilot.pause()
            return line, before, screen.sort_mode

    line, before, after = run(main())
    sort = i18n.translator("ru").gettext("Sort")
    assert f"s {sort}" not in line
    assert before != after


def test_play_has_its_own_context():
    """The terminal's Play key and the replay's Play button are two messages: a
    translator can say "make a move" for one and "start playback" for the other."""
    for lang in LANGS[1:]:
        tr = i18n.translator(lang)
        key, button = tr.pgettext("terminal key", "Play"), tr.gettext("Play")
        assert key != "Play" and button != "Play" and key != button, lang
    assert "terminal key\x04Play" in i18n.catalog_json("ru")["messages"]
    assert i18n.catalog_json("ru")["messages"]["Play"] == i18n.translator("ru").gettext("Play")


@pytest.mark.parametrize("lang", LANGS[1:])
def test_a_refused_key_is_said_without_english(lang):
    """Pressing d during the first-turn chain: the refusal names the action as the footer
    does ("Взять: ..."), not the engine's "draw: ..."."""
    i18n.set_language(lang)
    tr = i18n.translator(lang)
    session = Session.new("mexican_train", 4, 3, {}, ["greedy"], autosave=False)

    async def main() -> str:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert session.human_to_play
            assert "draw" not in session.view()["legal_actions"]
            await pilot.press("d")
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            assert screen.message.plain in " ".join(screen_text(app).split()) or \
                screen.message.plain[:40] in screen_text(app)
            return screen.message.plain

    message = run(main())
    assert message.startswith(tr.gettext("Draw") + ": "), message
    assert not message.lower().startswith("draw"), message
    assert "must_play" not in message, message
