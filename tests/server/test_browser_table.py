"""The web table (issue 15), in Debian's Chromium: readable tiles, the All Fives layout,
following the game, hints, the keyboard and an accessibility scan.

Two kinds of test: against a real server (tables created through the REST API from
inside the page, so the browser holds the seat cookie), and against positions made by
the engine itself and fed to the page through a routed websocket (exact, repeatable
layouts: a spinner with both arms, a long train).

Set DOMINOHALL_SCREENSHOTS=1 to refresh docs/web-table-*.png.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import re
import time

import pytest

from dominohall.engine import Game, new_game
from dominohall.tui.hint import strongest_bot

from .conftest import running_server
from .helpers import (
    click_move,
    is_over,
    my_turn,
    route_fake_chat,
    state_message,
    table_info,
    watch_errors,
)

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
SHOTS = bool(os.environ.get("DOMINOHALL_SCREENSHOTS"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module (tables do not meet); the disconnect test has its own."""
    with running_server(tmp_path_factory, "table") as s:
        yield s


@pytest.fixture()
def page(browser):
    # bypass_csp: Playwright's own evaluate (and axe-core's injection) need it; the page's
    # code runs under the real CSP in test_csp_browser.py
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 860})
    ctx.set_default_timeout(15_000)
    pg = ctx.new_page()
    pg.errors = []
    watch_errors(pg, pg.errors)
    route_fake_chat(pg)
    yield pg
    ctx.close()


def create_table(page, server, body: dict) -> str:
    """POST /api/tables from inside the page (the seat cookie lands in the browser)."""
    page.goto(server.url + "/")             # any page of the origin (the lobby)
    out = page.evaluate("""async (body) => {
        const r = await fetch('/api/tables', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
        return [r.status, await r.json()];
    }""", body)
    assert out[0] == 201, out
    table_id = out[1]["id"]
    page.goto(f"{server.url}/t/{table_id}")
    page.wait_for_selector("body[data-version]")
    return table_id


def mexican_vs_bots(page, server, **extra) -> str:
    body = {"game": "mexican_train", "options": {"set_max": 6, "first_turn": "single",
                                                 "rounds": 1, "hand_size": 6},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                      {"kind": "bot", "bot": "random"}],
            "take_seat": 0, "name": "Ana", "ready_seconds": 0, "seed": 7, **extra}
    return create_table(page, server, body)


def wait_my_turn(page, deadline: float = 30) -> None:
    end = time.monotonic() + deadline
    while not my_turn(page):
        assert not is_over(page), "the match ended before my turn"
        assert time.monotonic() < end
        page.wait_for_timeout(30)


# ---- positions from the engine, fed through a routed websocket ---------------------------

def serve_position(page, server, game: Game, seat: int | None, names: list[str]) -> None:
    """Open /t/fake showing `game` from `seat`, the page's REST and websocket routed here."""
    info = {**table_info(game, names), "you": {"seat": seat}}
    page.route("**/api/tables/fake", lambda r: r.fulfill(json=info))
    text = state_message(game, seat, names)
    page.route_web_socket("**/ws/fake", lambda ws: ws.send(text))
    page.goto(f"{server.url}/t/fake")
    page.wait_for_selector(f"body[data-version='{game.view(seat)['version']}']")


def find_position(name: str, players: int, done, options: dict | None = None) -> Game:
    """The first deal (seed 0, 1, ...) where random legal moves (a play whenever there is
    one) reach a position with done(game), the game still on and seat 0 to play."""
    for seed in range(300):
        g = new_game(name, players=players, seed=seed, options=options or {})
        rng = random.Random(seed)
        for _ in range(300):
            if g.is_over:
                break
            if g.current_seat == 0 and done(g):
                return g
            legal = g.legal_actions()
            plays = [a for a in legal if "-" in a]
            g.apply(rng.choice(plays or legal), seat=g.current_seat)
    raise AssertionError("no such position in 300 deals")


def ends_of(g: Game) -> dict:
    return {e["id"]: e for e in g.view(0)["layout"]["ends"]}


def spinner_with_arms() -> Game:
    """All Fives: a spinner whose up and down arms both carry tiles, seat 0 to play."""
    return find_position("all_fives", 2, lambda g: "U" in ends_of(g)
                         and len(ends_of(g)["U"]["tiles"]) >= 2
                         and len(ends_of(g)["D"]["tiles"]) >= 1
                         and any("-" in a for a in g.legal_actions()), {"hands": 1})


def long_train() -> Game:
    """Mexican Train: some train with more than 8 tiles (the page used to show 8)."""
    return find_position("mexican_train", 2, lambda g: max(
        len(t["tiles"]) for t in g.view(0)["trains"]) >= 11, {"set_max": 9, "rounds": 1})


# ---- 1. readable tiles -------------------------------------------------------------------

def mid_round_screenshot(page, server) -> None:
    game = find_position("mexican_train", 4, lambda g: max(
        len(t["tiles"]) for t in g.view(0)["trains"]) >= 9 and g.view(0)["trains"][-1]["started"]
        and any("-" in a for a in g.legal_actions()), {"set_max": 12, "rounds": 1})
    serve_position(page, server, game, 0, ["Ana", "Ben", "Chloe", "Dev"])
    page.locator("#hand svg.domino.playable").first.click()            # its targets light up
    page.screenshot(path=str(DOCS / "web-table-mexican-train.png"))
    page.unroute_all()


def test_tile_size_and_numerals_change_what_is_drawn_and_are_remembered(page, server):
    if SHOTS:
        mid_round_screenshot(page, server)
    game = long_train()
    serve_position(page, server, game, 0, ["Ana", "Ben"])
    longest = max(game.view(0)["trains"], key=lambda t: len(t["tiles"]))
    row = page.locator(f".train[data-target='{longest['id']}']")
    # every tile of the train is drawn (no "+3" stub), wrapping inside the board
    assert row.locator(".ttiles svg.domino").count() == len(longest["tiles"]) >= 11
    assert row.locator(".ttiles").evaluate("n => n.scrollWidth <= n.clientWidth + 1")
    hand = page.locator("#hand svg.domino").first
    normal = hand.bounding_box()
    board_tile = page.locator("#board .ttiles svg.domino.h").first.bounding_box()
    assert page.locator("#hand svg.domino circle").count() > 0        # pips
    assert page.locator("#hand svg.domino text").count() == 0

    page.click("#btn-settings")
    page.select_option("#set-size", "large")
    page.select_option("#set-face", "numerals")
    big = page.locator("#hand svg.domino").first.bounding_box()
    assert big["height"] > normal["height"] * 1.3 and big["width"] > normal["width"] * 1.3
    assert page.locator("#board .ttiles svg.domino.h").first.bounding_box()["width"] > \
        board_tile["width"] * 1.3
    # numerals: each half shows its value as text, no pips anywhere
    first = page.locator("#hand svg.domino").first
    a, b = first.get_attribute("data-tile").split("-")
    assert first.locator("text").all_text_contents() == [a, b]
    assert page.locator("svg.domino circle").count() == 0
    # remembered by this browser: a reload draws the same
    page.reload()
    page.wait_for_selector("body[data-version]")
    assert page.locator("body").get_attribute("data-size") == "large"
    assert page.locator("#hand svg.domino text").count() == 2 * len(game.view(0)["hand"])
    assert abs(page.locator("#hand svg.domino").first.bounding_box()["height"]
               - big["height"]) < 1
    assert not page.errors, page.errors


def test_end_turn_only_inside_the_first_turn_chain(page, server):
    chain = find_position("mexican_train", 2, lambda g: "end" in g.legal_actions(),
                          {"set_max": 6, "rounds": 1, "hand_size": 7})
    serve_position(page, server, chain, 0, ["Ana", "Ben"])
    assert page.locator("#btn-end").is_visible() and page.locator("#btn-end").is_enabled()
    later = find_position("mexican_train", 2, lambda g: "end" not in g.legal_actions()
                          and g.view(0)["first_turn_done"] == [0, 1],
                          {"set_max": 6, "rounds": 1, "hand_size": 7})
    serve_position(page, server, later, 0, ["Ana", "Ben"])
    assert page.locator("#btn-draw").is_visible()
    assert not page.locator("#btn-end").is_visible()
    assert not page.errors, page.errors


# ---- 2. All Fives as a real layout -------------------------------------------------------

def box(locator) -> dict:
    b = locator.bounding_box()
    assert b is not None
    return b


def test_all_fives_spinner_arms_are_drawn_up_and_down_from_the_spinner(page, server):
    game = spinner_with_arms()
    layout = game.view(0)["layout"]
    ends = {e["id"]: e for e in layout["ends"]}
    serve_position(page, server, game, 0, ["Ana", "Ben"])
    spinner = page.locator(".cross svg.domino.spinner")
    assert spinner.get_attribute("data-tile") == layout["spinner"]
    assert "v" in spinner.get_attribute("class").split()       # a double lies across the line
    s = box(spinner)
    for arm, above in (("U", True), ("D", False)):
        tiles = page.locator(f".arm[data-arm='{arm}'] svg.domino")
        assert tiles.count() == len(ends[arm]["tiles"])
        drawn = sorted(tiles.evaluate_all("ns => ns.map(n => n.dataset.tile)"))
        assert drawn == sorted(ends[arm]["tiles"])
        for i in range(tiles.count()):
            b = box(tiles.nth(i))
            assert abs((b["x"] + b["width"] / 2) - (s["x"] + s["width"] / 2)) < 2  # in line
            if above:
                assert b["y"] + b["height"] <= s["y"] + 1
            else:
                assert b["y"] >= s["y"] + s["height"] - 1
            double = tiles.nth(i).get_attribute("data-tile").split("-")
            cls = tiles.nth(i).get_attribute("class").split()
            assert ("h" in cls) == (double[0] == double[1])     # doubles across the arm
    # the line: every L and R tile plus the lead, left to right on one row
    line = page.locator(".cross > svg.domino")
    assert line.count() == len(ends["L"]["tiles"]) + len(ends["R"]["tiles"]) + 1
    ys = {round(box(line.nth(i))["y"] + box(line.nth(i))["height"] / 2)
          for i in range(line.count())}
    assert max(ys) - min(ys) <= 1
    # the count and each open end's value
    assert page.locator("#board .count").inner_text().startswith(f"Count {layout['count']}")
    for e in layout["ends"]:
        assert page.locator(f".end[data-target='{e['id']}']").inner_text() == str(e["value"])
        assert page.locator(f".ends-list li[data-end='{e['id']}']").inner_text().endswith(
            f": {e['value']}")
    if SHOTS:
        page.locator("#hand svg.domino.playable").first.click()        # light its targets
        page.screenshot(path=str(DOCS / "web-table-all-fives.png"))
    # the board uses the space it has: a bigger window draws bigger tiles, a small one
    # shrinks them until the whole cross fits
    small_u = float(page.locator(".cross").get_attribute("data-u"))
    page.set_viewport_size({"width": 1800, "height": 1200})
    page.wait_for_function(f"Number(document.querySelector('.cross').dataset.u) > {small_u}")
    page.set_viewport_size({"width": 900, "height": 640})
    page.wait_for_function(f"Number(document.querySelector('.cross').dataset.u) < {small_u}")
    assert page.locator("#board").evaluate(
        "n => n.scrollWidth <= n.clientWidth + 1 && n.scrollHeight <= n.clientHeight + 1")
    assert not page.errors, page.errors


def test_every_double_a_spinner_each_with_its_own_arms(page, server):
    game = find_position("all_fives", 2, lambda g: "U2" in ends_of(g),
                         {"spinner": "every_double", "hands": 1})
    doubles = [e["tile"] for e in game.view(0)["log"] if e["type"] == "play"
               and e["tile"].split("-")[0] == e["tile"].split("-")[1]]
    serve_position(page, server, game, 0, ["Ana", "Ben"])
    for k, arm in ((0, "U"), (1, "U2"), (1, "D2")):
        tile = page.locator(f".cross > svg.domino.spinner[data-tile='{doubles[k]}']")
        if not tile.count():
            continue                                   # that spinner sits on an arm
        t, a = box(tile), box(page.locator(f".arm[data-arm='{arm}']"))
        assert abs((t["x"] + t["width"] / 2) - (a["x"] + a["width"] / 2)) < 2
        assert (a["y"] + a["height"] <= t["y"] + 1) if arm.startswith("U") else \
            (a["y"] >= t["y"] + t["height"] - 1)
    assert page.locator(".cross > svg.domino.spinner").count() >= 2
    assert not page.errors, page.errors


# ---- 3. follow the game ------------------------------------------------------------------

def server_view(page, table_id: str) -> dict:
    """The seat's view as the server has it (REST, with this browser's cookie)."""
    return page.evaluate(f"fetch('/api/tables/{table_id}/view').then(r => r.json())")


def test_a_bot_move_is_highlighted_and_flies_in_and_your_turn_is_signalled(page, server):
    table_id = mexican_vs_bots(page, server)
    page.click("#btn-settings")
    page.check("#set-sound")                     # off by default; a chime when my turn starts
    page.click("#settings-close")
    chimes = int(page.evaluate("document.body.dataset.chimes || '0'"))
    seen = 0
    deadline = time.monotonic() + 60
    while seen < 2:
        assert time.monotonic() < deadline and not is_over(page)
        wait_my_turn(page)
        view = server_view(page, table_id)
        last = [e for e in view["log"] if e["type"] in ("play", "deal", "round_end")][-1]
        if last["type"] == "play" and last["seat"] != 0:
            # the tile the bot just played is the one highlighted on the board
            hl = page.locator("#board svg.domino.last")
            assert hl.count() == 1
            assert hl.get_attribute("data-tile") == last["tile"]
            train = page.locator(f".train[data-target='{last['target']}']")
            assert train.locator("svg.domino.last").count() == 1
            assert "the last move" in hl.get_attribute("aria-label")
            assert hl.evaluate("n => getComputedStyle(n.querySelector('.face')).strokeWidth") \
                == "4px"
            # ... and it flew in from the bot's name card
            assert page.locator("#board").get_attribute("data-animated") == last["tile"]
            seen += 1
        assert page.title().startswith("▶ Your turn")
        assert page.locator("#turn").inner_text() == "Your turn"
        version = page.evaluate("document.body.dataset.version")
        click_move(page)
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        assert not page.title().startswith("▶") or my_turn(page)
    assert int(page.evaluate("document.body.dataset.chimes || '0'")) > chimes
    assert not page.errors, page.errors


def test_a_lost_connection_shows_a_banner_with_its_countdown_and_recovers(page, server_factory):
    server = server_factory(bot_delay=0.02).start()
    mexican_vs_bots(page, server)
    banner = page.locator("#conn-banner")
    assert not banner.is_visible()
    server.stop()
    banner.wait_for(state="visible")
    assert banner.get_attribute("role") == "alert"
    assert serious(page, "#conn-banner") == []
    page.wait_for_function("/Reconnecting in \\d+ seconds?…/.test("
                           "document.querySelector('#conn-text').textContent)")
    # the countdown runs down and starts again after each failed attempt
    first = int(banner.get_attribute("data-seconds"))
    page.wait_for_function(f"Number(document.querySelector('#conn-banner').dataset.seconds)"
                           f" !== {first}", timeout=10_000)
    assert page.locator("#conn").get_attribute("aria-label") == "not connected"
    page.click("#btn-reconnect")                     # try now: the backoff starts again
    page.wait_for_function("Number(document.querySelector('#conn-banner').dataset.seconds)"
                           " <= 1 && !document.querySelector('#conn-banner').hidden")
    server.start()                                   # the same port: the page comes back
    banner.wait_for(state="hidden", timeout=20_000)
    assert page.locator("#conn").get_attribute("aria-label") == "connected"
    assert page.locator("#hand svg.domino").count() >= 1
    assert not [e for e in page.errors if "WebSocket" not in e and "ERR_CONNECTION" not in e]


def test_one_tile_left_notices_clear_at_the_rounds_end(page, server):
    game = find_position("mexican_train", 2, lambda g: g.view(0)["hand_sizes"][1] == 1,
                         {"set_max": 6, "rounds": 2, "hand_size": 7})
    names = ["Ana", "Ben"]
    sockets = []
    info = {**table_info(game, names), "you": {"seat": 0}}
    page.route("**/api/tables/fake", lambda r: r.fulfill(json=info))

    def on_ws(ws):
        sockets.append(ws)
        ws.send(state_message(game, 0, names))

    page.route_web_socket("**/ws/fake", on_ws)
    page.goto(f"{server.url}/t/fake")
    notice = page.locator("#notices .notice[data-seat='1']")
    notice.wait_for()
    assert notice.inner_text() == "Ben has one tile left!"
    assert page.locator(".player[data-seat='1'] .badge.one-left").is_visible()
    # play on to the round's end: the next round's state has no such notice
    round_ = game.round
    rng = random.Random(0)
    while game.round == round_:
        legal = game.legal_actions()
        game.apply(rng.choice([a for a in legal if "-" in a] or legal), seat=game.current_seat)
    view = game.view(0)
    log = view.pop("log")
    sockets[0].send(json.dumps({"type": "state", "view": view, "log_start": 0, "events": log,
                                "table": table_info(game, names)}))
    page.locator("#modal[data-kind='round']").wait_for(state="visible")
    page.wait_for_function("document.querySelectorAll('#notices .notice').length === 0")
    if SHOTS:
        page.screenshot(path=str(DOCS / "web-table-round-end.png"))
    assert serious(page) == []                              # the round's summary, scanned
    assert page.locator(".badge.one-left").count() == 0
    assert not page.errors, page.errors


# ---- 4. help while playing ---------------------------------------------------------------

RAW_HINT = """() => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/ws/${location.pathname.split('/')[2]}`);
    ws.onopen = () => ws.send(JSON.stringify({type: 'hint'}));
    ws.onmessage = (ev) => { const m = JSON.parse(ev.data);
        if (m.type === 'error' || m.type === 'hint') { ws.close(); resolve(m); } };
})"""


def test_hint_gives_a_legal_move_with_its_reason_and_it_can_be_played(page, server):
    table_id = mexican_vs_bots(page, server)
    assert page.locator("#hints-badge").inner_text() == "hints allowed"   # one human: on
    hinted = 0
    deadline = time.monotonic() + 60
    while hinted < 2:
        assert time.monotonic() < deadline
        wait_my_turn(page)
        version = page.evaluate("document.body.dataset.version")
        page.click("#btn-hint")
        page.locator("#hint-text").wait_for(state="visible")
        action = page.locator("#hint-text").get_attribute("data-action")
        legal = server_view(page, table_id)["legal_actions"]
        assert action in legal, (action, legal)
        text = page.locator("#hint-text").inner_text()
        bot = strongest_bot("mexican_train")       # the reason in words, no bot's name
        assert text.startswith("Hint: ") and f" — {bot}: " not in text
        assert len(text.split(" — ")[1]) > 8, text
        if "-" in action:
            tile, _, target = action.partition(">")
            hi, lo = sorted(map(int, tile.split("-")), reverse=True)
            assert page.locator("#hand svg.domino.selected.hinted").get_attribute(
                "data-tile") == f"{hi}-{lo}"
            spot = page.locator("#board [data-target].lit.hinted")
            assert spot.get_attribute("data-target") == (target or "lead")
            spot.click()
        else:
            page.locator(f"#btn-{action}.hinted").click()
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        assert page.locator("#hint-text").is_hidden()              # a hint is for one position
        hinted += 1
    assert not page.errors, page.errors


def test_hints_are_off_by_default_with_two_humans_and_never_for_spectators(page, server,
                                                                           browser):
    body = {"game": "all_fives", "seats": [{"kind": "human"}, {"kind": "human"}],
            "take_seat": 0, "name": "Ana"}
    create_table(page, server, body)
    page.locator("#modal[data-kind='invite']").wait_for()
    assert serious(page) == []                                 # the invite box, scanned
    page.click("#modal .modal-buttons button")                 # close the invite box
    assert page.locator("#hints-badge").inner_text() == "hints off"
    assert page.locator("#btn-hint").is_hidden()
    assert page.evaluate(RAW_HINT)["code"] == "hints_off"
    # the creator may allow them; everyone sees it, and a spectator still gets none
    table_id = create_table(page, server, {**body, "hints": True})
    page.click("#modal .modal-buttons button")
    assert page.locator("#hints-badge").inner_text() == "hints allowed"
    other = browser.new_context(bypass_csp=True)
    spectator = other.new_page()
    spectator.goto(f"{server.url}/t/{table_id}")
    spectator.wait_for_selector("body[data-seat='spectator']")
    assert spectator.locator("#hints-badge").inner_text() == "hints allowed"
    assert spectator.locator("#btn-hint").is_hidden()
    assert spectator.evaluate(RAW_HINT)["code"] == "spectator"
    other.close()
    status, _ = server.request("POST", "/api/tables", {**body, "hints": "yes"})
    assert status == 422
    assert not page.errors, page.errors


def test_auto_draw_plays_the_only_move_for_a_player_with_no_choice(page, server):
    game = find_position("mexican_train", 2, lambda g: g.legal_actions() == ["draw"],
                         {"set_max": 6, "rounds": 1, "hand_size": 7})
    sent: list[str] = []

    def on_ws(ws):
        ws.on_message(lambda m: sent.append(m))
        ws.send(state_message(game, 0, ["Ana", "Ben"]))

    info = {**table_info(game, ["Ana", "Ben"]), "you": {"seat": 0}}
    page.route("**/api/tables/fake", lambda r: r.fulfill(json=info))
    page.route_web_socket("**/ws/fake", on_ws)
    page.goto(f"{server.url}/t/fake")
    page.wait_for_selector("body[data-version]")
    page.wait_for_timeout(800)
    assert sent == []                                   # off by default: the player draws
    page.click("#btn-settings")
    page.check("#set-auto-draw")
    page.wait_for_function("document.body.dataset.myTurn === '0'")   # the draw went out
    assert [json.loads(m) for m in sent] == [
        {"type": "action", "action": "draw", "version": game.view(0)["version"]}]
    assert not page.errors, page.errors


# ---- 5. everyone can play ----------------------------------------------------------------

def focused(page) -> dict:
    return page.evaluate("""() => { const n = document.activeElement;
        return {tile: n.dataset.tile || null, target: n.dataset.target || null,
                label: n.getAttribute('aria-label') || '', cls: n.getAttribute('class') || '',
                inHand: !!n.closest('#hand'), outline: getComputedStyle(n).outlineStyle}; }""")


def test_the_whole_table_plays_from_the_keyboard_with_spoken_names(page, server):
    mexican_vs_bots(page, server)
    played = drawn = 0
    deadline = time.monotonic() + 60
    while played < 2 and not is_over(page):
        assert time.monotonic() < deadline
        wait_my_turn(page)
        version = page.evaluate("document.body.dataset.version")
        if page.locator("#hand svg.domino.playable").count() == 0:
            page.keyboard.press("d" if page.locator("#btn-draw").is_enabled() else "p")
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
            drawn += 1
            continue
        for _ in range(40):                              # Tab into the hand
            if focused(page)["inHand"]:
                break
            page.keyboard.press("Tab")
        f = focused(page)
        assert f["inHand"] and f["outline"] != "none"    # visible focus
        for _ in range(page.locator("#hand svg.domino").count()):
            if "playable" in focused(page)["cls"].split():
                break
            assert ", no play" in focused(page)["label"]
            page.keyboard.press("ArrowRight")
        f = focused(page)
        tile = f["tile"]
        assert f["label"].startswith(f"{tile}, plays on ")           # "6-4, plays on your train"
        assert "train" in f["label"]
        page.keyboard.press("Enter")                     # pick it: focus moves to a lit target
        g = focused(page)
        assert g["target"] is not None and "lit" in g["cls"].split()
        assert g["label"].endswith(f": play {tile} here")
        page.keyboard.press("Enter")                     # play it there
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        assert tile not in page.locator("#hand svg.domino").evaluate_all(
            "ns => ns.map(n => n.dataset.tile)")
        played += 1
        if not is_over(page):
            page.wait_for_function("document.activeElement.closest('#hand') !== null")
    assert played >= 1, (played, drawn)
    assert not page.errors, page.errors


def serious(page, context=None) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page, context=context)
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in result.response["violations"] if v["impact"] in ("serious", "critical")]


def test_axe_finds_no_serious_violations_on_the_table(page, server):
    mexican_vs_bots(page, server)
    wait_my_turn(page)
    if page.locator("#hand svg.domino.playable").count():
        page.locator("#hand svg.domino.playable").first.click()   # targets lit, a tile selected
    assert serious(page) == []
    page.click("#btn-settings")                                    # the settings panel too
    assert serious(page) == []
    page.select_option("#set-face", "numerals")
    game = spinner_with_arms()
    serve_position(page, server, game, 0, ["Ana", "Ben"])          # the All Fives cross
    assert serious(page) == []
    assert not page.errors, page.errors


# ---- All Fives plays hands ---------------------------------------------------------------

def test_all_fives_says_hand_in_the_end_box_the_log_and_the_summary(page, server):
    """All Fives (a line game) says "hand" where Mexican Train says "round": the box at a
    hand's end (its title and who won it), the log, and the match summary's chart and
    table; partners' lines are one line per team."""
    game = new_game("all_fives", players=2, seed=3, options={"hands": 2})
    rng = random.Random(3)
    names = ["Ana", "Ben"]
    sockets = []
    info = {**table_info(game, names), "you": {"seat": 0}}
    page.route("**/api/tables/fake", lambda r: r.fulfill(json=info))

    def on_ws(ws):
        sockets.append(ws)
        ws.send(state_message(game, 0, names))

    page.route_web_socket("**/ws/fake", on_ws)
    page.goto(f"{server.url}/t/fake")
    page.wait_for_selector("body[data-version]")
    while game.round == 1:
        legal = game.legal_actions()
        game.apply(rng.choice([a for a in legal if "-" in a] or legal), seat=game.current_seat)
    sockets[0].send(state_message(game, 0, names))
    page.locator("#modal[data-kind='round']").wait_for(state="visible")
    assert page.locator("#modal-title").inner_text() == "Hand 1 over"
    how = page.locator("#modal .round-how").inner_text()
    assert re.fullmatch(r"Hand 1 (over: (you|Ben) went out|blocked: (you|Ben) won it"
                        r"|blocked: nobody won it|over: the target is reached)\.", how), how
    log = page.locator("#log").inner_text()
    assert "Hand 1 " in log and "Round" not in log and "round 1" not in log
    assert not re.search(r"\[|\bseat \d|\bon [LRUD]\b", log), log
    page.locator("#modal button#ready").click()
    # play the last hand out: the summary says hands too
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(rng.choice([a for a in legal if "-" in a] or legal), seat=game.current_seat)
    sockets[0].send(state_message(game, 0, names))
    page.locator("#modal[data-kind='over']").wait_for(state="visible")
    assert page.locator(".summary-table caption").inner_text() == "Totals after each hand"
    assert page.locator(".summary-table thead th").first.inner_text() == "Hand"
    assert "Hand" in page.locator("svg.summary-chart").inner_html()
    assert "round" not in page.locator("svg.summary-chart title").inner_html()
    assert not page.errors, page.errors


def test_partners_have_one_line_each_team_in_the_chart(page, server):
    game = new_game("all_fives", players=4, seed=2, options={"teams": True, "hands": 1})
    rng = random.Random(2)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(rng.choice([a for a in legal if "-" in a] or legal), seat=game.current_seat)
    names = ["Ana", "Ben", "Cy", "Dee"]
    info = {**table_info(game, names), "you": {"seat": 0}}
    page.route("**/api/tables/fake", lambda r: r.fulfill(json=info))
    text = state_message(game, 0, names)
    page.route_web_socket("**/ws/fake", lambda ws: ws.send(text))
    page.goto(f"{server.url}/t/fake")
    page.locator("#modal[data-kind='over']").wait_for(state="visible")
    assert page.locator("svg.summary-chart polyline.player-line").count() == 2
    assert page.locator(".summary-legend li").all_inner_texts() == ["Ana & Cy", "Ben & Dee"]
    assert not page.errors, page.errors


# ---- invite links ------------------------------------------------------------------------

def test_a_used_invite_link_says_so_at_once_and_the_join_form_says_which_game(page, server):
    status, made = server.request("POST", "/api/tables", {
        "game": "mexican_train", "options": {"set_max": 6, "hand_size": 5, "rounds": 1},
        "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}, {"kind": "human"},
                  {"kind": "bot", "bot": "greedy"}], "ready_seconds": 0})
    assert status == 201, made
    tid = made["id"]
    first, second = (s["token"] for s in made["seats"] if s["seat"] in (1, 2))
    claim_ana = next(s["token"] for s in made["seats"] if s["seat"] == 0)
    assert server.request("POST", f"/api/tables/{tid}/join",
                          {"token": claim_ana, "name": "Ana"})[0] == 200
    assert server.request("POST", f"/api/tables/{tid}/join",
                          {"token": first, "name": "Ben"})[0] == 200
    # the used link: said at once, with no name form
    page.goto(f"{server.url}/t/{tid}?invite={first}")
    page.locator("#modal-title").wait_for()
    assert page.locator("#modal-title").inner_text() == "This invite link has been used"
    assert page.locator("#join-name").count() == 0
    assert page.locator("#watch-btn").is_visible()
    # a good link: which game, the seat it opens, who is already there
    page.goto(f"{server.url}/t/{tid}?invite={second}")
    page.locator("#join-name").wait_for()
    assert page.locator(".join-game").inner_text() == "A game of Mexican Train."
    assert page.locator(".join-seat").inner_text() == "The link invites you to sit as player 3."
    assert page.locator(".join-seated").inner_text() == "Already at the table: Ana, Ben, and Bot 4."
    assert not page.errors, page.errors


def test_the_join_form_names_who_invites_you(page, server):
    """The creator sat down as Ana: her invite link's form says "Ana invites you to a game
    of Mexican Train" (in the page's language); the API names her only while the link is
    good."""
    status, made = server.request("POST", "/api/tables", {
        "game": "mexican_train", "options": {"set_max": 6, "hand_size": 5, "rounds": 1},
        "take_seat": 0, "name": "Ana", "ready_seconds": 0,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    assert status == 201, made
    tid, link = made["id"], next(s["token"] for s in made["seats"] if s["seat"] == 1)
    page.goto(f"{server.url}/t/{tid}?invite={link}")
    page.locator("#join-name").wait_for()
    assert page.locator(".join-game").inner_text() == \
        "Ana invites you to a game of Mexican Train."
    page.goto(f"{server.url}/t/{tid}?invite={link}&lang=ru")
    page.locator("#join-name").wait_for()
    assert page.locator(".join-game").inner_text() == \
        "Ana приглашает вас сыграть в «Мексиканский поезд»."
    _, info = server.request("GET", f"/api/tables/{tid}?invite={link}")
    assert info["invite"] == {"valid": True, "seat": 1, "host": "Ana"}
    _, info = server.request("GET", f"/api/tables/{tid}?invite=not-{link}")
    assert info["invite"] == {"valid": False, "seat": None}
    assert not page.errors, page.errors


def test_phones_do_not_show_the_keyboard_help_line(page, server):
    game = find_position("mexican_train", 2, lambda g: any("-" in a for a in g.legal_actions()),
                         {"set_max": 6, "rounds": 1, "hand_size": 7})
    serve_position(page, server, game, 0, ["Ana", "Ben"])
    assert page.locator("#keys").is_visible()               # a desktop window shows it
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    assert not page.locator("#keys").is_visible()           # a phone does not
    assert not page.errors, page.errors
