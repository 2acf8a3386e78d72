"""Drive the terminal game by key presses and read back what every widget renders."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from dominohall import bots
from dominohall.tui import render
from dominohall.tui.app import NoticeScreen, PlayApp, PlayScreen
from dominohall.tui.session import Session

SIZE = (150, 45)


def run(coro: Awaitable[Any]) -> Any:
    return asyncio.run(coro)  # type: ignore[arg-type]


def widget_texts(screen: Any) -> list[str]:
    """The text every widget of `screen` renders (whole content, not only the visible part)."""
    out = []
    for widget in [screen, *screen.walk_children()]:
        try:
            rendered = widget.render()
        except Exception:                       # a container without its own content
            rendered = None
        plain = getattr(rendered, "plain", None)
        if plain is None and rendered is not None:
            plain = str(rendered)
        out.append(plain or "")
        for title in (widget.border_title, widget.border_subtitle):
            out.append(str(title or ""))
        for attr in ("value", "placeholder"):
            value = getattr(widget, attr, None)
            if isinstance(value, str):
                out.append(value)
    return out


def screen_text(app: PlayApp) -> str:
    """What is on the terminal now, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def region_text(app: Any, widget: Any) -> str:
    """The part of the terminal that `widget` covers (e.g. a notice over the table)."""
    r = widget.region
    lines = screen_text(app).splitlines()
    return "\n".join(line[r.x:r.x + r.width] for line in lines[r.y:r.y + r.height])


def notice_text(app: Any) -> str:
    """What the open notice (round end / match over) shows, as the player sees it."""
    assert isinstance(app.screen, NoticeScreen)
    return region_text(app, app.screen.query_one("Vertical"))


def tile_patterns(tile: str) -> re.Pattern[str]:
    a, b = render.halves(tile)
    forms = {f"{a}-{b}", f"{b}-{a}"}
    text = "|".join(re.escape(f) for f in forms)
    boxes = "|".join(re.escape(f"[{x}|{y}]") for x, y in {(a, b), (b, a)})
    return re.compile(rf"(?<!\d)(?:{text})(?!\d)|{boxes}")


def assert_no_hidden_tiles(app: PlayApp, session: Session) -> None:
    """No tile of another seat's current hand is rendered by any widget (round-end notices,
    which reveal the finished round, are the only screens left out)."""
    game = session.game
    if game.is_over:
        return
    patterns = [(s, t, tile_patterns(t)) for s in range(game.players) if s != session.human
                for t in game.view(s)["hand"]]
    texts = [screen_text(app)] if not isinstance(app.screen, NoticeScreen) else []
    for screen in app.screen_stack:
        if not isinstance(screen, NoticeScreen):
            texts.extend(widget_texts(screen))
    blob = "\n".join(texts)
    for seat, tile, pattern in patterns:
        m = pattern.search(blob)
        context = "" if m is None else blob[max(0, m.start() - 60):m.end() + 20]
        assert m is None, f"seat {seat}'s tile {tile} is visible: ...{context}..."


def play_screen(app: PlayApp) -> PlayScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
    return screen


async def press_action(pilot: Pilot[Any], app: PlayApp, action: str, arrows: bool) -> None:
    """Perform `action` with keys: d/p/e, or pick the tile (digit or arrows), a target, Enter."""
    keys = {"draw": "d", "pass": "p", "end": "e"}
    if action in keys:
        await pilot.press(keys[action])
        return
    screen = play_screen(app)
    view = screen.view()
    tile, target = render.split_action(action)
    assert tile is not None
    hand = screen.hand_order(view)
    index = hand.index(tile)
    if arrows or index >= 10:
        current = hand.index(screen.selected) if screen.selected in hand else 0
        step = "right" if index >= current else "left"
        for _ in range(abs(index - current)):
            await pilot.press(step)
    else:
        await pilot.press(str((index + 1) % 10))
    assert screen.selected == tile
    targets = render.targets_for(tile, view)
    for _ in range(targets.index(target)):
        await pilot.press("down")
    assert screen.target_index == targets.index(target)
    await pilot.press("enter")


async def play_out(pilot: Pilot[Any], app: PlayApp, session: Session,
                   choose: Callable[[dict[str, Any], int], str] | None = None,
                   max_steps: int = 400,
                   on_notice: Callable[[NoticeScreen], None] | None = None) -> int:
    """Play the human's seat by keys until the match is over; returns the human's moves."""
    bot = bots.make("random", seed=7)
    moves = 0
    for _ in range(max_steps):
        await pilot.pause()
        assert_no_hidden_tiles(app, session)
        if isinstance(app.screen, NoticeScreen):
            if on_notice:
                on_notice(app.screen)
            await pilot.press("enter")
            continue
        if session.game.is_over:
            return moves
        assert session.human_to_play, "the bots should have played up to your turn"
        view = session.view()
        action = choose(view, moves) if choose else bot.act(view)
        before = len(session.game.actions)
        await press_action(pilot, app, action, arrows=moves % 2 == 1)
        await pilot.pause()
        assert len(session.game.actions) > before, play_screen(app).message.plain
        assert str(session.game.actions[before]) == action
        moves += 1
    raise AssertionError("the match did not end")
