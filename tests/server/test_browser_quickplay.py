"""Quick play and table chat in the browser, as players see them (Playwright, Debian's
Chromium, a real `dominohall serve` under its real Content-Security-Policy).

* A guest with no account queues for a casual Block game on a 390 px phone with the
  keyboard only, sees the count and the timer, reloads (the entry is still there), takes
  bots after the wait and plays the match to its end.
* Two accounts (one reading English, one Russian) queue for rated Mexican Train, are
  matched at one table, say phrases to each other (each reads them in their language),
  play to the end, and their new ratings are on the leaderboard.
* Free text at a private table is shown as text (markup never runs).
"""

from __future__ import annotations

import json
import re
import time

import pytest

from dominohall.i18n import translator
from dominohall.server.deps import cookie_name

from .cluster_players import WsPlayer
from .conftest import Server, running_server
from .helpers import PAGE_LANGS, PHONE, axe_serious, check, fits, open_in

PW = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, "quickplay") as s:
        yield s


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    """A server behind a (pretend) proxy: each browser says its own address, as two
    people at two homes would (a rated table never seats one address twice)."""
    tmp = tmp_path_factory.mktemp("quickplay-proxied")
    s = Server(str(tmp / "tables.sqlite3"), tmp)
    s.start_args = ["--forwarded-allow-ips", "127.0.0.1"]
    s.start()
    try:
        yield s
    finally:
        s.stop()


def context(browser, locale="en-US", viewport=None, address=None):
    ctx = browser.new_context(viewport=viewport or {"width": 1200, "height": 900}, locale=locale,
                              extra_http_headers={"X-Forwarded-For": address} if address else None)
    ctx.set_default_timeout(20_000)
    return ctx


def watch_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


class ReadyPlayer(WsPlayer):
    """A seat played from a test, that is also ready at once after every round."""

    def act(self, ws, view: dict) -> None:
        ws.send(json.dumps({"type": "ready"}))
        super().act(ws, view)


def seat_secret(ctx, tid: str) -> str:
    [c] = [c for c in ctx.cookies() if c["name"] == cookie_name(tid)]
    return c["value"]


def table_of(page) -> str:
    page.wait_for_url(re.compile(r"/t/[^/?]+"), timeout=40_000)
    return page.url.split("/t/")[1].split("?")[0]


def play_out(server, ctx, tid: str, seed: int) -> ReadyPlayer:
    return ReadyPlayer(server, tid, seat_secret(ctx, tid), seed=seed)


def test_a_guest_plays_a_quick_casual_game_against_bots_on_a_phone(browser, server):
    ctx = context(browser, viewport=PHONE)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(server.url + "/play")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("h2").first.inner_text() == "Quick play"
    assert page.locator("#qp-rated-rated").is_disabled()           # no account: casual only
    assert page.locator("#qp-rated-note a").get_attribute("href").startswith("/account")
    assert axe_serious(page) == []
    width, inner = fits(page)
    assert width <= inner == PHONE["width"]
    # the keyboard: arrows move through the games (a radio group), Enter sends the form
    page.focus("#qp-game-mexican_train")
    page.keyboard.press("ArrowDown")                # All Fives
    page.keyboard.press("ArrowDown")                # Block
    assert page.locator("#qp-game-block").is_checked()
    page.focus("#qp-players")
    page.select_option("#qp-players", "2")
    page.focus("#qp-name")
    page.keyboard.type("Gus")
    page.focus("#qp-join")
    page.keyboard.press("Enter")
    page.wait_for_selector("#qp-wait")
    assert page.locator("#qp-count").inner_text() == "1 player waiting in this queue"
    assert "Block dominoes · 2 players · Unrated" in page.locator("#qp-wait").inner_text()
    assert re.fullmatch(r"0:0\d", page.locator("#qp-timer").inner_text())
    assert page.evaluate("document.activeElement.id") == "qp-leave"
    time.sleep(2.2)
    page.reload()                                   # the queue survives a reload
    page.wait_for_selector("#qp-wait")
    assert int(page.locator("#qp-timer").inner_text().split(":")[1]) >= 2
    assert page.locator("#qp-bots").is_hidden()
    assert axe_serious(page) == []
    width, inner = fits(page)
    assert width <= inner
    page.wait_for_selector("#qp-bots", state="visible", timeout=20_000)     # after 10 s
    page.focus("#qp-bots")
    page.keyboard.press("Enter")
    tid = table_of(page)
    status, info = server.request("GET", f"/api/tables/{tid}")
    assert status == 200 and info["game"] == "block"
    assert [s["kind"] for s in info["seats"]] == ["human", "bot"]
    assert info["seats"][0]["name"] == "Gus"
    page.wait_for_selector("#chat h2")
    assert page.locator("#chat h2").inner_text() == "Chat"
    assert page.locator("#chat-form").is_hidden()           # a public table: phrases only
    width, inner = fits(page)
    assert width <= inner, "the table with its chat is wider than the phone"
    player = play_out(server, ctx, tid, seed=3)
    try:
        assert player.done.wait(120), "the match did not end"
    finally:
        player.close()
    page.wait_for_selector("#modal:not([hidden]) #modal-title", timeout=20_000)     # the end box
    ctx.close()
    assert not errors, errors


def signed_up(browser, server, name: str, locale: str, address: str):
    ctx = context(browser, locale=locale, address=address)
    r = ctx.request.post(server.url + "/api/account/signup",
                         data={"name": name, "password": PW})
    assert r.status == 201, r.text()
    page = ctx.new_page()
    page.errors = watch_errors(page)    # type: ignore[attr-defined]
    return ctx, page


def queue_rated(page, server) -> None:
    page.goto(server.url + "/play")
    page.wait_for_selector("body[data-ready='1']")
    page.check("#qp-game-mexican_train")
    page.select_option("#qp-players", "2")
    page.check("#qp-rated-rated")
    page.click("#qp-join")


def test_two_accounts_are_matched_for_rated_mexican_train_chat_and_get_ratings(browser, proxied):
    server = proxied
    ann_ctx, ann = signed_up(browser, server, "Annabel", "en-US", "198.51.100.7")
    bor_ctx, bor = signed_up(browser, server, "Boris", "ru-RU", "203.0.113.9")
    queue_rated(ann, server)
    ann.wait_for_selector("#qp-wait")
    assert "Rated" in ann.locator("#qp-wait").inner_text()
    queue_rated(bor, server)
    tid = table_of(bor)
    assert table_of(ann) == tid
    status, info = server.request("GET", f"/api/tables/{tid}")
    assert sorted(s["name"] for s in info["seats"]) == ["Annabel", "Boris"]
    # phrases, each in its reader's language
    ann.wait_for_selector("#chat [data-phrase='well_played']")
    bor.wait_for_selector("#chat [data-phrase='thanks']")
    assert bor.locator("#chat h2").inner_text() == "Чат"
    ann.click("#chat [data-phrase='well_played']")
    bor.wait_for_selector("#chat-list li")
    assert bor.locator("#chat-list li").first.inner_text() == "Annabel: Хорошо сыграно"
    bor.click("#chat [data-phrase='thanks']")
    ann.wait_for_selector("#chat-list li:nth-child(2)")
    assert ann.locator("#chat-list li").nth(1).inner_text() == "Boris: Thanks"
    assert ann.locator("#chat-list li").nth(0).inner_text() == "Annabel: Well played"
    # Boris mutes Annabel: her messages leave his list (his own stay)
    bor.click("#chat-mutes button")
    assert bor.locator("#chat-mutes button").inner_text() == "Показать Annabel"
    assert bor.locator("#chat-mutes button").get_attribute("aria-pressed") == "true"
    assert bor.locator("#chat-list li").all_inner_texts() == ["Boris: Спасибо"]
    assert axe_serious(bor) == []

    before = {n: server.request("GET", f"/api/players/{n}")[1]["ratings"]
              for n in ("Annabel", "Boris")}
    assert before == {"Annabel": [], "Boris": []}
    players = [play_out(server, ctx, tid, seed=i) for i, ctx in enumerate((ann_ctx, bor_ctx))]
    try:
        for p in players:
            assert p.done.wait(300), "the match did not end"
    finally:
        for p in players:
            p.close()
    deadline = time.monotonic() + 20
    while True:
        status, board = server.request("GET", "/api/leaderboard/mexican_train")
        if {b["name"] for b in board} >= {"Annabel", "Boris"}:
            break
        assert time.monotonic() < deadline, board
        time.sleep(0.3)
    ratings = {b["name"]: b for b in board}
    assert ratings["Annabel"]["matches"] == ratings["Boris"]["matches"] == 1
    assert ratings["Annabel"]["rating"] != 1000 and ratings["Boris"]["rating"] != 1000
    assert ratings["Annabel"]["wins"] + ratings["Boris"]["wins"] == 1
    for ctx, page in ((ann_ctx, ann), (bor_ctx, bor)):
        assert not page.errors, page.errors   # type: ignore[attr-defined]
        ctx.close()


def test_free_text_at_a_private_table_is_text_never_markup(browser, server):
    status, t = server.request("POST", "/api/tables", {
        "game": "block", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        "take_seat": 0, "name": "Host", "ready_seconds": 0})
    assert status == 201, t
    ctx = context(browser, viewport=PHONE)
    ctx.add_cookies([{"name": cookie_name(t["id"]), "value": t["seat_token"],
                      "url": server.url},
                     {"name": f"dh_admin_{t['id']}", "value": t["admin"], "url": server.url}])
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/t/{t['id']}")
    page.wait_for_selector("#chat-form", state="visible")
    evil = '<img src=x onerror="document.title=\'pwned\'">'
    page.fill("#chat-input", evil)
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat-list li")
    assert page.locator("#chat-list li .chat-text").inner_text() == evil
    assert page.locator("#chat-list img").count() == 0 and page.title() != "pwned"
    assert page.input_value("#chat-input") == ""
    # the host turns free text off: the field goes, the phrases stay
    page.click("#chat-free")
    page.wait_for_selector("#chat-form", state="hidden")
    status, chat = server.request("GET", f"/api/tables/{t['id']}/chat")
    assert chat["free_text"] is False
    width, inner = fits(page)
    assert width <= inner
    # a spectator reads and writes the spectators' chat only
    other = context(browser, viewport=PHONE)
    watcher = other.new_page()
    watcher.goto(f"{server.url}/t/{t['id']}")
    watcher.wait_for_selector("#chat h2")
    assert watcher.locator("#chat h2").inner_text() == "Spectators' chat"
    assert watcher.locator("#chat-list li").count() == 0        # not the host's message
    watcher.click("#chat [data-phrase='good_game']")
    watcher.wait_for_selector("#chat-list li")
    assert watcher.locator("#chat-list li").inner_text() == "Guest: Good game"
    assert axe_serious(watcher) == []
    other.close()
    # a flood: the server refuses, the panel says why (12 a minute from one address)
    for _ in range(13):
        page.click("#chat [data-phrase='oops']")
    page.wait_for_selector("#chat-status:not(:empty)")
    assert page.locator("#chat-status").inner_text().startswith("Too many requests")
    assert page.locator("#chat-list li").count() <= 12
    assert page.locator("#chat-list li", has_text="Good game").count() == 0
    # the language menu switches in place: the panel and the phrases said already follow
    page.select_option("#lang-menu", "es")
    es = translator("es")
    page.wait_for_selector(f"#chat h2:text-is('{es.gettext('Chat')}')")
    oops = page.locator("#chat-list li .chat-text").nth(1).inner_text()
    assert oops == es.gettext("Oops") != "Oops"
    assert page.locator("#chat-list li .chat-text").first.inner_text() == evil     # text stays
    ctx.close()
    errors = [e for e in errors if "status of 429" not in e]       # the refusals we asked for
    assert not errors, errors


@pytest.mark.parametrize("lang", PAGE_LANGS)
def test_quick_play_in_each_language_on_a_phone(browser, server, lang):
    """The form and the wait: no English left, nothing wider than a 390 px phone."""
    ctx, page, errors = open_in(browser, server, lang)
    try:
        page.goto(server.url + "/play")
        page.wait_for_selector("body[data-ready='1']")
        check(page, lang, errors)
        page.check("#qp-game-draw")
        page.select_option("#qp-players", "0")
        page.click("#qp-join")
        page.wait_for_selector("#qp-wait")
        page.wait_for_selector("#qp-bots-note:not([hidden])")
        check(page, lang, errors)
        page.click("#qp-leave")                 # (four entries per address at most)
        page.wait_for_selector("#qp-form")
    finally:
        ctx.close()


def test_rated_needs_an_account_and_the_link_comes_back_to_quick_play(browser, server):
    ctx = context(browser, viewport=PHONE)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(server.url + "/play")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#qp-rated-note a")
    page.wait_for_url(re.compile(r"/account\?next=/play$"))
    page.fill("#signup-name", "Quinn")
    page.fill("#signup-password", PW)
    page.locator("#signup-password").press("Enter")
    page.wait_for_url(re.compile(r"/play$"))
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#qp-rated-rated").is_enabled()
    assert "Quinn" in page.locator("#qp-form").inner_text()
    page.check("#qp-rated-rated")
    page.click("#qp-join")
    page.wait_for_selector("#qp-wait")
    assert page.locator("#qp-bots-note").is_hidden()        # never bots at a rated table
    page.click("#qp-leave")
    page.wait_for_selector("#qp-form")
    ctx.close()
    assert not errors, errors
