"""The community's pages as a player sees them (issue 23): the account page (sign up, log
in, log out, the account's settings), a leaderboard, a player's page, friends and an
invitation that reaches the friend's lobby, a live table resumed on another device.

Playwright drives Debian's Chromium against a real `dominohall serve` under its real
Content-Security-Policy.  Every browser comes from its own address (X-Forwarded-For, which
the server trusts from 127.0.0.1 here), so the per-address sign-up limit counts each
player apart, as it would on the internet."""

from __future__ import annotations

import itertools
import re

import pytest

from dominohall.community.ratings import Player, lower_is_better
from dominohall.community.store import CommunityStore
from dominohall.i18n import translator
from dominohall.server.store import open_store

from .conftest import Server
from .helpers import COLLECT, PHONE, axe_serious, check, english_left

PW = "correct horse battery"
ADDRESSES = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("community")
    s = Server(str(tmp / "tables.sqlite3"), tmp)
    s.start_args = ["--forwarded-allow-ips", "127.0.0.1"]
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def rated(server, browser):
    """Rosa, Timur and Uma, with four rated Mexican Train matches (Rosa won them all)."""
    ctx, _ = context(browser, server)
    for name in ("Rosa", "Timur", "Uma"):
        sign_up(ctx, server, name)
    ctx.close()
    store = store_of(server)
    ids = [account_id(server, n) for n in ("Rosa", "Timur", "Uma")]
    lower = lower_is_better("mexican_train")
    for i in range(4):
        store.record_match(f"lb{i}", "mexican_train",
                           [Player(ids[0], 10 + i, rounds=13, outs=6 + i % 2),
                            Player(ids[1], 60, rounds=13, outs=4),
                            Player(ids[2], 90, rounds=13, outs=3)], lower, when=1.7e9 + i)


def context(browser, server, lang: str = "en", width: int = 1100):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="en-US",
                              extra_http_headers={"X-Forwarded-For": f"10.9.0.{next(ADDRESSES)}"})
    ctx.set_default_timeout(15_000)
    if lang != "en":
        ctx.add_init_script(f"localStorage.setItem('dominohall.lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: errors.append(f"dialog: {d.message}"))
    page.errors = errors        # type: ignore[attr-defined]
    return ctx, page


def open_page(page, server, path: str) -> None:
    page.goto(server.url + path)
    page.wait_for_selector("body[data-ready='1']")


def said(page, selector: str, before: str = "") -> str:
    """The text an alert or status line comes to say (it changes from `before`)."""
    page.wait_for_function("([s, b]) => { const t = document.querySelector(s).textContent;"
                           " return t !== '' && t !== b; }", arg=[selector, before])
    return str(page.locator(selector).inner_text())


def sign_up(ctx, server, name: str) -> None:
    r = ctx.request.post(server.url + "/api/account/signup", data={"name": name, "password": PW})
    assert r.status == 201, r.text()


def store_of(server) -> CommunityStore:
    return CommunityStore(open_store(server.db))


def account_id(server, name: str) -> str:
    account = store_of(server).account_by_key(name.casefold())
    assert account is not None
    return account.id


# --- the account page ------------------------------------------------------------------

def test_sign_up_log_out_and_log_in_from_the_keyboard(browser, server):
    ctx, page = context(browser, server)
    open_page(page, server, "/account")
    # keyboard only: Tab into the sign-up form, type, Enter submits it
    page.locator("#signup-name").focus()
    page.keyboard.type("Keyla")
    page.keyboard.press("Tab")
    page.keyboard.type("short")
    page.keyboard.press("Enter")
    assert said(page, "#signup-error") == "A password has at least 8 characters."
    page.locator("#signup-password").fill("")
    page.locator("#signup-password").focus()
    page.keyboard.type(PW)
    page.keyboard.press("Enter")
    page.wait_for_selector("#me-h")
    assert page.locator("#me-h").inner_text() == "Logged in as Keyla"
    # the lobby says who is logged in
    open_page(page, server, "/")
    page.wait_for_selector("#lobby-invitations")
    assert "Logged in as Keyla" in page.locator("#lobby-invitations").inner_text()
    # log out: a guest again
    open_page(page, server, "/account")
    page.locator("#logout").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#login-name")
    assert page.evaluate("fetch('/api/account').then(r => r.json())")["name"] is None
    # a wrong password is said in words, the same as an unknown name
    page.fill("#login-name", "Keyla")
    page.fill("#login-password", "not the password")
    page.locator("#login-password").press("Enter")
    assert said(page, "#login-error") == "Wrong name or password."
    page.fill("#login-name", "Nobody here")
    page.locator("#login button[type=submit]").click()
    assert said(page, "#login-error") == "Wrong name or password."
    page.fill("#login-name", "keyla")                  # names fold case
    page.fill("#login-password", PW)
    page.locator("#login-password").press("Enter")
    page.wait_for_selector("#me-h")
    assert page.locator("#me-h").inner_text() == "Logged in as Keyla"
    assert page.errors == []                            # type: ignore[attr-defined]
    ctx.close()


def test_change_password_log_out_everywhere_and_delete(browser, server):
    ctx, page = context(browser, server)
    other, other_page = context(browser, server)
    sign_up(ctx, server, "Dora")
    r = other.request.post(server.url + "/api/account/login", data={"name": "Dora", "password": PW})
    assert r.status == 200
    open_page(page, server, "/account")
    page.fill("#old-password", "wrong one")
    page.fill("#new-password", "a new long password")
    page.locator("#password button[type=submit]").click()
    assert said(page, "#password-error") == "That is not your password."
    page.fill("#old-password", PW)
    page.locator("#password button[type=submit]").click()
    assert said(page, "#password-done") == "The password is changed."
    # the other device was logged out by the change; this one stays in
    assert other.request.get(server.url + "/api/account").json()["name"] is None
    assert ctx.request.get(server.url + "/api/account").json()["name"] == "Dora"
    # delete: refused until confirmed, then with the wrong password, then done
    page.fill("#delete-password", "a new long password")
    page.locator("#delete button[type=submit]").click()
    assert said(page, "#delete-error") == "Tick the box to confirm first."
    assert ctx.request.get(server.url + "/api/account").json()["name"] == "Dora"
    page.check("#delete-sure")
    page.fill("#delete-password", "not it at all")
    page.locator("#delete button[type=submit]").click()
    assert said(page, "#delete-error", "Tick the box to confirm first.") == \
        "That is not your password."
    page.fill("#delete-password", "a new long password")
    page.locator("#delete button[type=submit]").click()
    page.wait_for_selector("#deleted")
    assert page.locator("#deleted").inner_text() == "The account is deleted."
    assert ctx.request.get(server.url + "/api/players/Dora").status == 404
    ctx.close()
    other.close()


# --- leaderboards and a player's page --------------------------------------------------

def test_leaderboard_and_player_page_show_ratings_history_and_statistics(browser, server,
                                                                         rated):
    ctx, page = context(browser, server)
    board = server.request("GET", "/api/leaderboard/mexican_train")[1]
    open_page(page, server, "/players?game=mexican_train")
    rows = page.locator("#board tbody tr")
    assert rows.count() == len(board) >= 3
    shown = [[c.strip() for c in row.split("\t")] for row in rows.all_inner_texts()]
    rosa = next(r for r in shown if r[1] == "Rosa")
    expected = next(b for b in board if b["name"] == "Rosa")
    assert rosa[0] == str(expected["place"])
    assert rosa[2] == f"{expected['rating']} (provisional)"
    assert rosa[3:] == ["4", "4"]
    # another game's board is empty
    open_page(page, server, "/players?game=all_fives")
    assert page.locator("#board-empty").inner_text() == "Nobody is rated in this game yet."
    # the player's page: the rating, a point of the graph per match, statistics, replays
    open_page(page, server, "/players?game=mexican_train")
    page.locator("#board a", has_text="Rosa").click()
    page.wait_for_selector("body[data-ready='1']")
    assert page.url.endswith("/players/Rosa")
    player = server.request("GET", "/api/players/Rosa")[1]
    card = page.locator("#game-mexican_train")
    assert card.locator(".rating-value").inner_text() == str(player["ratings"][0]["rating"])
    stats = dict(zip(card.locator("dt").all_inner_texts(), card.locator("dd").all_inner_texts()))
    assert stats == {"Matches": "4", "Wins": "4", "Average points per match": "11.5",
                     "Rounds played": "52", "Rounds gone out": "26"}
    assert card.locator("svg.rating-graph circle").count() == 4
    ys = [float(y) for y in card.locator("svg.rating-graph circle").evaluate_all(
        "cs => cs.map(c => c.getAttribute('cy'))")]
    assert ys == sorted(ys, reverse=True)               # four wins: the rating climbs
    links = page.locator("#history a.replay-link")
    assert links.count() == 4
    assert links.first.get_attribute("href") == "/replay?table=lb3"
    assert page.locator("#history tbody tr").first.locator("td").nth(2).inner_text() == "1 of 3"
    open_page(page, server, "/players/Nobody%20at%20all")
    assert page.locator("main .error").inner_text() == "No player is called 'Nobody at all'."
    ctx.close()


# --- friends and seats that belong to an account ---------------------------------------

def create_table(ctx, server, name: str, public: bool = True) -> str:
    r = ctx.request.post(server.url + "/api/tables", data={
        "game": "mexican_train", "options": {"set_max": 6, "hand_size": 5, "rounds": 1},
        "seats": [{"kind": "human"}, {"kind": "human"}], "take_seat": 0, "name": name,
        "public": public})
    assert r.status == 201, r.text()
    return str(r.json()["id"])


def test_a_friend_invite_reaches_the_friends_lobby(browser, server):
    a, a_page = context(browser, server)
    b, b_page = context(browser, server)
    sign_up(a, server, "Vera")
    sign_up(b, server, "Wanda")
    # each adds the other by name on the friends page
    for page, other in ((a_page, "Wanda"), (b_page, "Vera")):
        open_page(page, server, "/friends")
        page.fill("#add-name", other)
        page.locator("#add-name").press("Enter")
        page.wait_for_selector(f"li.friend[data-name='{other}']")
    tid = create_table(a, server, "Vera")
    open_page(a_page, server, "/friends")
    row = a_page.locator("li.friend[data-name='Wanda']")
    assert "online" in row.inner_text()
    # Vera's public table shows on Wanda's friends page
    open_page(b_page, server, "/friends")
    vera = b_page.locator("li.friend[data-name='Vera']")
    assert vera.locator("a", has_text="at a table").get_attribute("href") == f"/t/{tid}"
    # Wanda's lobby is open; Vera invites her from the friends page
    open_page(b_page, server, "/")
    b_page.wait_for_selector("#lobby-invitation-list")
    assert b_page.locator("#lobby-invitation-list").inner_text() == "No invitations now."
    row.locator("select").select_option(tid)
    row.locator("button", has_text="Invite Wanda").click()
    assert said(a_page, "#friends-done") == \
        "Wanda is invited: the invitation waits in their lobby."
    link = b_page.locator("#lobby-invitation-list a", has_text="Vera invites you to a table")
    link.wait_for(timeout=15_000)                       # the lobby polls: no reload, no link sent
    assert link.get_attribute("href").startswith(f"/t/{tid}?invite=")
    link.click()
    b_page.wait_for_url(re.compile(rf"/t/{tid}"))
    a.close()
    b.close()


def test_a_live_table_returns_on_another_device_and_to_nobody_else(browser, server):
    phone, phone_page = context(browser, server)
    laptop, laptop_page = context(browser, server)
    stranger, _ = context(browser, server)
    sign_up(phone, server, "Xenia")
    tid = create_table(phone, server, "Xenia", public=False)
    r = laptop.request.post(server.url + "/api/account/login",
                            data={"name": "Xenia", "password": PW})
    assert r.status == 200
    assert laptop.request.get(server.url + f"/api/tables/{tid}").json()["you"]["seat"] is None
    open_page(laptop_page, server, "/account")
    button = laptop_page.locator("#my-tables button")
    assert button.all_inner_texts() == ["Return to Mexican Train (seat 1)"]
    button.click()
    laptop_page.wait_for_url(re.compile(rf"/t/{tid}$"))
    assert laptop.request.get(server.url + f"/api/tables/{tid}").json()["you"]["seat"] == 0
    # another account cannot resume it; a guest is asked to log in
    sign_up(stranger, server, "Yuri")
    r = stranger.request.post(server.url + f"/api/account/tables/{tid}/resume", data={})
    assert r.status == 404 and r.json()["code"] == "not_your_seat"
    assert stranger.request.get(server.url + "/api/account/tables").json() == []
    assert stranger.request.get(server.url + f"/api/tables/{tid}").json()["you"]["seat"] is None
    guest, _ = context(browser, server)
    assert guest.request.post(server.url + f"/api/account/tables/{tid}/resume",
                              data={}).status == 401
    for c in (phone, laptop, stranger, guest):
        c.close()


# --- hostile: CSRF and names as markup -------------------------------------------------

def test_new_posts_refuse_another_sites_page(browser, server):
    ctx, _ = context(browser, server)
    sign_up(ctx, server, "Zora")
    tid = create_table(ctx, server, "Zora")
    evil = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    for path, body in ((f"/api/account/tables/{tid}/resume", {}),
                       ("/api/account/logout-everywhere", {}),
                       ("/api/account/password", {"old": PW, "new": "x" * 12}),
                       ("/api/account/delete", {"password": PW}),
                       ("/api/friends/add", {"name": "Keyla"}),
                       ("/api/friends/invite", {"name": "Keyla", "table": tid})):
        r = ctx.request.post(server.url + path, data=body, headers=evil)
        assert r.status == 403 and r.json()["code"] == "cross_site", (path, r.text())
    assert ctx.request.get(server.url + "/api/account").json()["name"] == "Zora"
    ctx.close()


def test_a_name_made_of_markup_stays_text(browser, server):
    ctx, page = context(browser, server)
    b, _ = context(browser, server)
    name = '<img src=x onerror=1>'
    r = ctx.request.post(server.url + "/api/account/signup", data={"name": name, "password": PW})
    assert r.status == 201, r.text()
    shown = r.json()["name"]
    sign_up(b, server, "Plain Pat")
    b.request.post(server.url + "/api/friends/add", data={"name": shown})
    ctx.request.post(server.url + "/api/friends/add", data={"name": "Plain Pat"})
    store = store_of(server)
    store.record_match("xss1", "block", [Player(account_id(server, shown), 100),
                                         Player(account_id(server, "Plain Pat"), 50)],
                       lower_is_better("block"))
    for path in ("/account", "/players?game=block", "/players/" + shown, "/friends"):
        open_page(page, server, path)
        assert page.locator("main img, main script").count() == 0, path
    open_page(page, server, "/account")
    assert page.locator("#me-h").inner_text() == f"Logged in as {shown}"
    open_page(page, server, "/players/" + shown)
    assert page.locator("#player-h").inner_text() == shown
    _, bp = b, b.new_page()
    open_page(bp, server, "/friends")
    assert bp.locator("li.friend a").first.inner_text() == shown
    assert bp.locator("main img").count() == 0
    assert page.errors == []                            # type: ignore[attr-defined]
    ctx.close()
    b.close()


# --- every page: a phone, axe-core, the languages --------------------------------------

PAGES = ["/account", "/players?game=mexican_train", "/players/Rosa", "/friends"]


@pytest.mark.parametrize("lang", ["en", "ru", "pt", "be", "kk", "bg", "es"])
def test_every_page_on_a_phone_in_each_language(browser, server, rated, lang):
    ctx, page = context(browser, server, lang, width=PHONE["width"])
    if lang == "en":
        # a guest's account page first (the forms), then logged in
        open_page(page, server, "/account")
        assert axe_serious(page) == []
        assert page.evaluate(COLLECT)["pageWidth"] <= PHONE["width"]
    sign_up(ctx, server, f"Phone {lang}")
    create_table(ctx, server, f"Phone {lang}")
    tr = translator(lang)
    for path in PAGES:
        open_page(page, server, path)
        got = page.evaluate(COLLECT)
        assert got["lang"] == lang, path
        assert got["pageWidth"] <= PHONE["width"], (path, got["pageWidth"])
        assert not got["over"], (path, got["over"][:5])
        if lang != "en":
            assert not english_left(lang, got["texts"]), (path, english_left(lang, got["texts"]))
            check(page, lang, page.errors)             # type: ignore[attr-defined]
        assert axe_serious(page) == [], (path, axe_serious(page))
    open_page(page, server, "/account")
    assert page.locator("#me-h").inner_text() == tr.gettext("Logged in as {name}").format(
        name=f"Phone {lang}")
    ctx.close()
