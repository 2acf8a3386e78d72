"""Playwright driving Debian's Chromium against a real server: click (or drag) to play.

Set DOMINOHALL_SCREENSHOTS=1 to refresh docs/web-lobby.png (the table's screenshots are
made by test_browser_table.py).
"""

from __future__ import annotations

import os
import time

import pytest

from .helpers import DOCS, PHONE, click_move, is_over, my_turn, watch_errors


@pytest.fixture()
def server(server_factory):
    return server_factory(bot_delay=0.02).start()


def create_in_lobby(page, server, game: str, players: int, seats: list[str],
                    options: dict[str, str], numbers: dict[str, str] | None = None,
                    table: dict[str, str] | None = None) -> str:
    page.goto(server.url + "/")
    page.select_option("#game", game)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    page.fill("#name", "Ann")
    for i, value in enumerate(seats):
        page.select_option(f"select[data-seat='{i}']", value)
    page.click("#options-box summary")
    for name, value in options.items():
        page.select_option(f"select[data-option='{name}']", value)
    for name, value in (numbers or {}).items():
        page.fill(f"input[data-option-number='{name}']", value)
    page.click("#table-box summary")
    page.fill("#ready_seconds", "0")
    for field, value in (table or {}).items():
        page.fill(f"#{field}", value)
    if os.environ.get("DOMINOHALL_SCREENSHOTS"):
        page.screenshot(path=str(DOCS / "web-lobby.png"), full_page=True)
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("body[data-version]")
    return page.url.rsplit("/", 1)[1]


def test_mexican_train_round_against_three_bots_by_clicking(browser, server):
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 860})
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    create_in_lobby(page, server, "mexican_train", 4,
                    ["you", "bot:greedy", "bot:random", "bot:planner"],
                    {"set_max": "6", "first_turn": "single"},   # no bot goes out at once
                    {"rounds": "1", "hand_size": "5"})
    assert page.locator("#hand svg.domino").count() >= 4          # SVG tiles in hand
    assert page.locator(".train").count() == 5                     # 4 trains + the Mexican train
    clicks = 0
    deadline = time.monotonic() + 120
    while not is_over(page):
        assert time.monotonic() < deadline
        if my_turn(page):
            click_move(page)
            clicks += 1
        else:
            page.wait_for_timeout(30)
    assert clicks >= 2
    # the round's end: every hand revealed, points and totals, and the match result
    modal = page.locator("#modal")
    modal.wait_for(state="visible")
    assert "Match over" in modal.inner_text()
    assert page.locator(".round-end tbody tr").count() == 4
    page.click("#modal .modal-buttons button")             # Close
    page.click(".tab[data-tab='scores']")
    assert page.locator("#scores tr.total").is_visible()
    assert not errors, errors
    ctx.close()


def test_two_browsers_play_all_fives_via_the_invite_link_and_a_reload_resumes(browser, server):
    a_ctx = browser.new_context(bypass_csp=True, viewport={"width": 1100, "height": 800})
    b_ctx = browser.new_context(bypass_csp=True, viewport=PHONE, is_mobile=True, has_touch=True)
    for ctx in (a_ctx, b_ctx):
        ctx.set_default_timeout(15_000)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    errors: list[str] = []
    watch_errors(a, errors)
    watch_errors(b, errors)
    create_in_lobby(a, server, "all_fives", 2, ["you", "friend"], {}, {"hands": "1"})
    a.locator("#modal[data-kind='invite']").wait_for(state="visible")
    link = a.locator("input.link[data-seat='1']").input_value()
    assert "?invite=" in link
    a.click("#modal .modal-buttons button")                   # close the invite box
    assert a.locator("#banner").is_visible()                  # waiting for seat 1

    b.goto(link)
    b.fill("#join-name", "Ben")
    b.click("#join-btn")
    b.wait_for_function("document.body.dataset.seat === '1'")
    a.wait_for_function("document.querySelector('#status').textContent !== 'waiting for players'")
    assert b.locator("#hand svg.domino").count() == 7

    moves, reloaded = 0, False
    deadline = time.monotonic() + 120
    while not (is_over(a) and is_over(b)):
        assert time.monotonic() < deadline
        moved = False
        for page in (a, b):
            if not is_over(page) and my_turn(page):
                click_move(page)
                moves += 1
                moved = True
        if moves >= 4 and not reloaded:                    # reload mid-game: same seat, same hand
            hand = b.locator("#hand svg.domino").evaluate_all(
                "ns => ns.map(n => n.dataset.tile)")
            b.reload()
            b.wait_for_function("document.body.dataset.seat === '1'")
            assert b.locator("#hand svg.domino").evaluate_all(
                "ns => ns.map(n => n.dataset.tile)") == hand
            reloaded = True
        if not moved:
            a.wait_for_timeout(30)
    assert reloaded and moves >= 4
    for page in (a, b):
        page.locator("#modal[data-kind='over']").wait_for(state="visible")
        assert page.locator(".round-end tbody tr").count() == 2
    assert not errors, errors
    a_ctx.close()
    b_ctx.close()


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


class Pointer:
    """Press, move and release: the mouse, or a finger through Chrome's touch input."""

    def __init__(self, page, touch: bool) -> None:
        self.page, self.touch = page, touch
        self.cdp = page.context.new_cdp_session(page) if touch else None

    def _touch(self, kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if x is None else [{"x": x, "y": y}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x: float, y: float) -> None:
        if self.touch:
            self._touch("touchStart", x, y)
        else:
            self.page.mouse.move(x, y)
            self.page.mouse.down()

    def move(self, x0: float, y0: float, x1: float, y1: float, steps: int = 6) -> None:
        for i in range(1, steps + 1):
            x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
            if self.touch:
                self._touch("touchMove", x, y)
            else:
                self.page.mouse.move(x, y)

    def up(self) -> None:
        if self.touch:
            self._touch("touchEnd")
        else:
            self.page.mouse.up()


def hand_tiles(page) -> list[str]:
    return page.locator("#hand svg.domino").evaluate_all("ns => ns.map(n => n.dataset.tile)")


def drag_move(page, pointer: Pointer, try_wrong_target: bool = False) -> None:
    """Play a playable tile by dragging it onto a lit target."""
    version = page.evaluate("document.body.dataset.version")
    tile = page.locator("#hand svg.domino.playable").first
    name = tile.get_attribute("data-tile")
    x, y = centre(tile)
    pointer.down(x, y)
    pointer.move(x, y, x + 4, y - 30, steps=3)             # past the drag threshold
    page.locator("svg.drag-ghost").wait_for()
    lit = page.locator(".target.lit")
    assert lit.count() >= 1
    assert page.locator(f"#hand svg.domino.selected[data-tile='{name}']").count() == 1
    if try_wrong_target and page.locator("[data-target]:not(.lit)").count():
        # a target that is not lit does not take the tile: nothing is played
        wx, wy = centre(page.locator("[data-target]:not(.lit)").first)
        pointer.move(x + 4, y - 30, wx, wy)
        assert page.locator(".drop-hover").count() == 0
        pointer.up()
        page.locator("svg.drag-ghost").wait_for(state="detached")
        page.wait_for_function("document.querySelector('#msg').textContent"
                               ".includes('cannot go there')")
        page.wait_for_timeout(200)
        assert page.evaluate("document.body.dataset.version") == version
        assert name in hand_tiles(page)
        x, y = centre(page.locator(f"#hand svg.domino[data-tile='{name}']"))
        pointer.down(x, y)
        pointer.move(x, y, x + 4, y - 30, steps=3)
        page.locator("svg.drag-ghost").wait_for()
    tx, ty = centre(page.locator(".target.lit").first)
    pointer.move(x + 4, y - 30, tx, ty)
    page.locator(".target.lit.drop-hover").wait_for()       # the target under the tile
    pointer.up()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=10_000)
    assert name not in hand_tiles(page)
    page.locator("svg.drag-ghost").wait_for(state="detached")


def test_drag_tiles_onto_lit_targets_by_mouse_and_touch_with_a_turn_timer(browser, server):
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1100, "height": 860},
                              has_touch=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    create_in_lobby(page, server, "mexican_train", 3, ["you", "bot:greedy", "bot:random"],
                    {"set_max": "6", "first_turn": "single"},
                    {"rounds": "1", "hand_size": "6"}, {"turn_seconds": "120"})
    mouse, finger = Pointer(page, touch=False), Pointer(page, touch=True)
    drags = {"mouse": 0, "touch": 0}
    clock_seen = False
    deadline = time.monotonic() + 120
    while not is_over(page):
        assert time.monotonic() < deadline
        if not my_turn(page):
            page.wait_for_timeout(30)
            continue
        clock = page.locator("#clock")
        if clock.is_visible() and clock.get_attribute("data-seat") == "0":
            assert "s left" in clock.inner_text()
            assert 0 < int(clock.get_attribute("data-seconds")) <= 120
            clock_seen = True
        if page.locator("#hand svg.domino.playable").count():
            how = "touch" if drags["touch"] <= drags["mouse"] else "mouse"
            drag_move(page, finger if how == "touch" else mouse,
                      try_wrong_target=not any(drags.values()))
            drags[how] += 1
        else:
            click_move(page)
    assert drags["touch"] >= 1 and drags["mouse"] >= 1, drags
    assert clock_seen                        # the page showed the seat's remaining time
    page.locator("#modal[data-kind='over']").wait_for(state="visible")
    assert not errors, errors
    ctx.close()
