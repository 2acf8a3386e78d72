"""What the web server tests share (no test module imports another): the REST and
websocket helpers of the in-process app, a real server's human players, and the browser
helpers (a page's errors, whose turn, a click that plays, what a page shows in a language)."""

from __future__ import annotations

import json
import pathlib
import random
import re
import time

import anyio

from dominohall.i18n import translator
from dominohall.i18n.catalogs import load

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
PHONE = {"width": 390, "height": 844}
PAGE_LANGS = ["be", "kk", "bg", "pt", "es", "ru"]

# ---- the in-process app: REST and websockets -------------------------------------------

SHORT_MT = {"set_max": 6, "hand_size": 7, "rounds": 1}
TILE = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")


def hub(client):
    return client.app.state.hub


def create(client, game="mexican_train", seats=None, options=None, claim=True, **kw):
    """A table; with `claim`, every human seat is claimed and its "token" is its seat secret."""
    seats = seats or [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]
    body = {"game": game, "options": SHORT_MT if options is None else options, "seats": seats,
            "ready_seconds": 0, **kw}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    t = r.json()
    if claim:
        for s in t["seats"]:
            if "token" in s:
                j = client.post(f"/api/tables/{t['id']}/join", json={
                    "token": s["token"], "name": s["name"] or f"P{s['seat']}"})
                assert j.status_code == 200, j.text
                s["token"] = j.json()["token"]
                client.cookies.clear()       # the test client stays a spectator
    return t


#: seconds a test waits for a message the server owes it before failing (never forever)
RECV_TIMEOUT = 20.0


def receive_text(ws, timeout: float = RECV_TIMEOUT) -> str:
    """`ws.receive_text()`, but an AssertionError after `timeout` seconds instead of a hang.

    Starlette's WebSocketTestSession waits without a limit; this waits on the same
    stream inside the session's event loop with a deadline (a cancelled wait on an
    anyio memory stream loses no message)."""
    async def get():
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(get)
    except TimeoutError:
        raise AssertionError(f"no message from the server within {timeout:g} s") from None
    ws._raise_on_close(message)
    return message["text"]


def recv(ws, kind="state", timeout: float = RECV_TIMEOUT):
    """The next message of a type (table updates about connections are skipped); an
    AssertionError if none comes within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            m = json.loads(receive_text(ws, max(0.0, left)))
        except AssertionError:
            raise AssertionError(f"no {kind!r} message within {timeout:g} s") from None
        if m["type"] == kind:
            return m
        assert m["type"] in ("table", "state"), m


def canon(a: str, b: str) -> str:
    x, y = int(a), int(b)
    return f"{max(x, y)}-{min(x, y)}"


def tiles_mentioned(msg: dict) -> set[str]:
    """Every tile text in a message, except in round/game end events (those reveal hands)."""
    m = dict(msg)
    m["events"] = [e for e in msg.get("events", []) if e["type"] not in ("round_end", "game_end")]
    return {canon(a, b) for a, b in TILE.findall(json.dumps(m))}



# ---- a real server's human players (REST) ----------------------------------------------

def play_humans(server, tid: str, tokens: dict[int, str], moves: int,
                rng: random.Random) -> bool:
    """Play `moves` actions of the human seats (bots play the rest); False once it is over."""
    played = 0
    deadline = time.monotonic() + 60
    while played < moves:
        assert time.monotonic() < deadline, "the table stopped moving"
        _, v = server.request("GET", f"/api/tables/{tid}/view")
        if v["is_over"]:
            return False
        seat = v["current_seat"]
        if seat not in tokens:
            time.sleep(0.02)                    # a bot's turn
            continue
        _, mine = server.request("GET", f"/api/tables/{tid}/view?token={tokens[seat]}")
        if not mine["legal_actions"]:
            continue
        status, r = server.request("POST", f"/api/tables/{tid}/actions", {
            # 'end' stops a first-turn chain, which could empty a hand and end the
            # one-round game before the crash
            "action": "end" if "end" in mine["legal_actions"] else
            rng.choice(mine["legal_actions"]), "version": mine["version"]},
            headers={"X-Seat-Token": tokens[seat]})
        if status == 409:                       # a bot moved in between
            continue
        assert status == 200, r
        played += 1
    return True



# ---- a fake table for the page (its REST and websocket routed by the test) -----------

def table_info(game, names: list[str], hints: bool = False) -> dict:
    return {"id": "fake", "game": game.name, "status": "over" if game.is_over else "playing",
            "seats": [{"seat": i, "kind": "human" if i == 0 else "bot",
                       "bot": None if i == 0 else "greedy", "name": n, "connected": True,
                       "controller": "human" if i == 0 else "bot"}
                      for i, n in enumerate(names)],
            "spectators": 0, "away_seconds": 30, "ready_seconds": 0, "turn_seconds": 0,
            "turn": None, "pause": 0, "ready": [], "hints": hints}


def state_message(game, seat: int | None, names: list[str]) -> str:
    view = game.view(seat)
    log = view.pop("log")
    return json.dumps({"type": "state", "view": view, "log_start": 0, "events": log,
                       "table": table_info(game, names)})


# ---- Chromium pages --------------------------------------------------------------------

def watch_errors(page, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)


def my_turn(page) -> bool:
    return page.evaluate("document.body.dataset.myTurn === '1'")


def is_over(page) -> bool:
    return page.evaluate("document.body.dataset.over === '1'")


def click_move(page) -> None:
    """Play one action by clicking: a playable tile then a lit target, else a button."""
    version = page.evaluate("document.body.dataset.version")
    tiles = page.locator("#hand svg.domino.playable")
    if tiles.count():
        tiles.first.click()
        page.locator(".target.lit").first.click()
    else:
        for button in ("#btn-draw", "#btn-pass", "#btn-end"):
            if page.locator(button).is_enabled():
                page.locator(button).click()
                break
        else:
            raise AssertionError("my turn, but nothing to click")
    page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=10_000)


# visible text, attributes a screen reader reads, and boxes whose content is wider than
# they are (overflow hidden or visible: cut or spilling text)
COLLECT = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script,style,[hidden]') || !el.getClientRects().length) continue;
    const s = n.textContent.trim();
    if (s) texts.push(s);
  }
  for (const el of document.querySelectorAll('[placeholder],[title],[aria-label]')) {
    for (const a of ['placeholder', 'title', 'aria-label']) {
      if (el.getAttribute(a)) texts.push(el.getAttribute(a));
    }
  }
  texts.push(document.title);
  const over = [];
  for (const el of document.body.querySelectorAll('*')) {
    const cs = getComputedStyle(el);
    if (!el.getClientRects().length || ['auto', 'scroll'].includes(cs.overflowX)) continue;
    if (['INPUT', 'SELECT', 'TEXTAREA', 'svg'].includes(el.tagName) || el.closest('svg')) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
      over.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}: `
                + `${el.scrollWidth} > ${el.clientWidth}`);
  }
  return { texts, over, lang: document.documentElement.lang,
           menu: !!document.querySelector('header #lang-menu, header select.lang-menu'),
           pageWidth: document.documentElement.scrollWidth };
}"""


def english_left(lang: str, texts: list[str]) -> list[str]:
    """The English messages (with a different translation) still shown."""
    cat = load(lang)
    tr = translator(lang)
    english = set()
    for m in cat:
        msgid = m.id[0] if isinstance(m.id, tuple) else m.id
        if not msgid or "{" in msgid or "%" in msgid or not re.search(r"[A-Za-z]{3}", msgid):
            continue
        if tr.gettext(msgid) != msgid:
            english.add(msgid.strip())
    return sorted({t for t in texts if t.strip() in english})


def open_in(browser, server, lang: str):
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('dominohall.lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def check(page, lang: str, errors: list[str]) -> None:
    got = page.evaluate(COLLECT)
    assert got["lang"] == lang
    assert got["menu"], "no language menu in the page header"
    left = english_left(lang, got["texts"])
    assert not left, f"English left in {lang}: {left}"
    assert got["pageWidth"] <= PHONE["width"], f"page is {got['pageWidth']} px wide"
    assert not got["over"], f"overflowing in {lang}: {got['over'][:10]}"
    assert not errors




def run_async(coro):
    """asyncio.run(coro) in a thread of its own: a module whose `browser` fixture (Playwright's
    sync API) is open has an event loop running in the main thread, where asyncio.run fails."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def fits(page) -> tuple[int, int]:
    """The page's width and the window's (equal: nothing scrolls sideways)."""
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")  # type: ignore[no-any-return]


def axe_serious(page) -> list[str]:
    """axe-core's serious and critical findings on the page (axe-playwright-python)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            f"{[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def route_fake_chat(page) -> None:
    """The chat of /t/fake (an empty players' chat), routed as its REST is."""
    page.route("**/api/tables/fake/chat**", lambda r: r.fulfill(json={
        "channel": "players", "free_text": False, "messages": [],
        "phrases": {"good_game": "Good game", "thanks": "Thanks"}}))
