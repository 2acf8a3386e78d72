"""The server's second hostile round (issue 25): one regression test per finding, each
failing on the code before its fix.  The attacker is a stranger or a player with odd
bodies, odd names, odd URLs, floods and races; the answer is a clear 4xx and nothing
changed."""

from __future__ import annotations

import logging
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from dominohall.engine import BadOption, new_game
from dominohall.server.app import create_app
from dominohall.server.protocol import clean_name, imitates_bot
from dominohall.server.security import HideSecrets, hide_secrets

from .helpers import SHORT_MT, create, hub, recv, run_async

BOTS2 = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def make_client(tmp_path, name="h2.sqlite3", **kw):
    kw.setdefault("bot_delay", 0)
    kw.setdefault("bot_processes", False)
    return TestClient(create_app(str(tmp_path / name), **kw))


@pytest.fixture()
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


# --- a preset that is not a name --------------------------------------------------------

@pytest.mark.parametrize("preset", [[], ["puremco"], {}, {"a": 1}, 5, 1.5, True])
def test_preset_of_wrong_type_is_422_naming_the_field(client, preset):
    r = client.post("/api/tables", json={"game": "mexican_train", "seats": BOTS2,
                                         "options": {"preset": preset}})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "bad_option" and body["params"]["field"] == "preset", body
    assert "preset" in body["message"]
    assert client.get("/api/tables").json() == []          # nothing was made


def test_engine_raises_its_typed_error_for_an_unhashable_preset():
    with pytest.raises(BadOption) as err:
        new_game("all_fives", players=2, options={"preset": ["x"]})
    assert err.value.field == "preset"


# --- names nobody can see, names that pass for a bot ----------------------------------------

INVISIBLE = ["\u3164", "\u2800", "\u034f", "\u17b4", "\u17b5", "\u115f\u1160", "\uffa0",
             "\u3164 \u2800", "\u0301\u0301", "\u180e"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_with_no_visible_character_is_refused(client, name):
    assert clean_name(name) == ""
    t = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
               claim=False)
    r = client.post(f"/api/tables/{t['id']}/join", json={"token": t["seats"][0]["token"],
                                                         "name": name})
    assert r.status_code == 422 and r.json()["code"] == "name_needed", r.text
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["seats"][0]["name"] is None                 # the seat is still open
    r = client.post("/api/tables", json={"game": "mexican_train", "seats": [
        {"kind": "human", "name": name}, {"kind": "human"}]})
    assert r.status_code == 422 and r.json()["code"] == "name_invisible", r.text


def test_blank_look_alikes_inside_a_name_are_spaces():
    assert clean_name("Ann\u3164\u3164Lee") == "Ann Lee"
    assert clean_name("\u2800Ann\u2800") == "Ann"


BOT_LIKE = ["Bot 1", "bot", "BOT 2", "B0t 3", "Бот 1", "бот", "Вот 1",   # Cyrillic В
            "\uff22\uff4f\uff54 1", "Bot-4", "Bot 1 (greedy)"]


@pytest.mark.parametrize("name", BOT_LIKE)
def test_a_name_imitating_a_bot_label_is_refused(client, name):
    assert imitates_bot(name)
    t = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
               claim=False)
    r = client.post(f"/api/tables/{t['id']}/join", json={"token": t["seats"][0]["token"],
                                                         "name": name})
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "name_like_bot", r.text
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] is None
    r = client.post("/api/tables", json={"game": "mexican_train", "take_seat": 0,
                                         "name": name, "seats": [{"kind": "human"},
                                                                 {"kind": "human"}]})
    assert r.status_code == 422 and r.json()["code"] == "name_like_bot", r.text


@pytest.mark.parametrize("name", ["Botond", "Ботагоз", "Abbot", "Robot", "Ann", "Bo 1"])
def test_real_names_near_bot_are_allowed(client, name):
    assert not imitates_bot(name)
    t = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}],
               claim=False)
    r = client.post(f"/api/tables/{t['id']}/join", json={"token": t["seats"][0]["token"],
                                                         "name": name})
    assert r.status_code == 200, r.text


def test_the_refusal_is_translated():
    from dominohall.i18n import translator
    from dominohall.i18n.errors import ERRORS
    for lang in ("be", "ru", "kk", "bg", "pt", "es"):
        text = translator(lang).gettext(ERRORS["name_like_bot"])
        assert text != ERRORS["name_like_bot"] and "{name}" in text, lang


# --- the log filter -----------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "/t/abc?%69nvite=SECRET", "/t/abc?x=1&%74oken=SECRET", "/t/abc?INVITE=SECRET",
    "/t/abc?%2569nvite=SECRET", "/t/abc?adm%69n=SECRET&y=2", "/t/abc?invite+=SECRET"])
def test_log_filter_hides_percent_encoded_secret_keys(url):
    assert "SECRET" not in hide_secrets(url)
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0,
                               '%s - "%s %s HTTP/%s" %d', ("1.2.3.4", "GET", url, "1.1", 200),
                               None)
    HideSecrets().filter(record)
    assert "SECRET" not in record.getMessage()


def test_log_filter_keeps_other_parameters():
    assert hide_secrets("/t/abc?inviter=ann&lang=be") == "/t/abc?inviter=ann&lang=be"


# --- /docs without a CDN ------------------------------------------------------------------

def test_docs_page_loads_swagger_from_this_origin_only(client):
    import re
    r = client.get("/docs")
    assert r.status_code == 200
    page = r.text
    assert "cdn" not in page.lower() and "https://" not in page, page
    csp = r.headers["content-security-policy"]
    assert "https:" not in csp and "cdn" not in csp, csp
    urls = re.findall(r"(?:src|href)=['\"]([^'\"]+)['\"]", page) + re.findall(
        r"url: ?['\"]([^'\"]+)['\"]", page)
    assert any(u.endswith("swagger-ui-bundle.js") for u in urls), urls
    for url in urls:
        assert url.startswith("/"), url                  # this origin
        got = client.get(url)
        assert got.status_code == 200 and got.content, url
    js = client.get("/docs/ui/swagger-ui-bundle.js")
    assert "SwaggerUIBundle" in js.text[:2_000_000]
    assert client.get("/docs/ui/index.html").status_code == 404   # only the files it needs
    assert client.get("/docs/ui/..%2F..%2Fapp.py").status_code == 404


def test_docs_page_renders_the_api_under_its_csp_in_chromium(browser, server_factory):
    server = server_factory(bot_delay=0).start()
    ctx = browser.new_context()
    page = ctx.new_page()
    problems: list[str] = []
    asked: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: asked.append(r.url))
    page.goto(server.url + "/docs")
    page.locator(".opblock-summary-path").first.wait_for(timeout=20_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/tables" in p for p in paths), paths
    assert not problems, problems
    assert all(u.startswith(server.url) for u in asked), asked     # nothing from elsewhere
    ctx.close()


# --- the rate limiter: idle buckets expire, an IPv6 /64 is one address -----------------------

class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_limiter_forgets_idle_buckets_after_100000_addresses():
    from dominohall.server.tables import RateLimiter
    clock = Clock()
    limiter = RateLimiter(clock=clock)
    for i in range(100_000):
        assert limiter.check("join", f"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}", 60) == 0
        clock.now += 0.0001
    assert len(limiter.buckets) == 100_000          # all seen within ten seconds
    clock.now += 61                                  # a minute later: all full again
    limiter.check("join", "192.0.2.1", 60_000)       # O(1): forgets a few, not all
    assert 100_000 - len(limiter.buckets) <= 4
    for _ in range(30_000):
        limiter.check("join", "192.0.2.1", 60_000)
    assert len(limiter.buckets) < 2, len(limiter.buckets)   # forgotten, a few per check
    # a bucket still in use keeps its count: 60 a minute, then 429
    for _ in range(60):
        assert limiter.check("create", "192.0.2.9", 60) == 0
    assert limiter.check("create", "192.0.2.9", 60) > 0
    clock.now += 30
    for _ in range(1000):                            # others come and go meanwhile
        limiter.check("join", "198.51.100.7", 60_000)
    assert ("create", "192.0.2.9") in limiter.buckets   # not forgotten while it refills


def test_ipv6_addresses_of_one_64_count_as_one():
    from dominohall.server.tables import RateLimiter
    from dominohall.server.tables.limits import address_key
    assert address_key("2001:db8:0:1::1") == address_key("2001:db8:0:1:ffff:ffff:ffff:fffe")
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8:0:2::1")
    assert address_key("::ffff:192.0.2.4") == "192.0.2.4"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    limiter = RateLimiter()
    for i in range(5):
        assert limiter.check("create", f"2001:db8:0:1::{i + 1:x}", 5) == 0
    assert limiter.check("create", "2001:db8:0:1:dead:beef:1:2", 5) > 0
    assert limiter.check("create", "2001:db8:0:2::1", 5) == 0


def test_ipv6_neighbours_share_the_create_rate_over_http(tmp_path):
    from dominohall.server.tables import Limits
    app = create_app(str(tmp_path / "v6.sqlite3"), bot_delay=0, bot_processes=False,
                     limits=Limits(create_per_minute=2))
    body = {"game": "mexican_train", "seats": BOTS2, "options": SHORT_MT}
    with TestClient(app, client=("2001:db8:5:5::1", 4000)) as a:
        b = TestClient(app, client=("2001:db8:5:5::9:1", 4001))
        b.portal = a.portal
        c = TestClient(app, client=("2001:db8:5:6::1", 4002))
        c.portal = a.portal
        assert a.post("/api/tables", json=body).status_code == 201
        assert b.post("/api/tables", json=body).status_code == 201
        r = b.post("/api/tables", json=body)
        assert r.status_code == 429 and r.headers["retry-after"], r.text
        assert c.post("/api/tables", json=body).status_code == 201   # another /64


# --- slow clients (slowloris) -------------------------------------------------------------

def _closed_within(sock, seconds: float) -> bytes | None:
    """What the server sent before closing `sock` within `seconds` (None: still open)."""
    import time as _time
    sock.settimeout(0.2)
    got = b""
    deadline = _time.monotonic() + seconds
    while _time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return got
        if not chunk:
            return got
        got += chunk
    return None


def test_slow_headers_and_idle_connections_are_closed(server_factory):
    import socket as _socket
    server = server_factory(bot_delay=0)
    server.start_args = ["--header-timeout", "1.5", "--idle-timeout", "1"]
    server.start()
    # a request head that never ends, a byte now and then
    slow = _socket.create_connection(("127.0.0.1", server.port))
    slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
    sent = _closed_within(slow, 0.6)
    assert sent is None                                   # not cut off at once
    slow.sendall(b"X-a: 1\r\n")
    sent = _closed_within(slow, 4)
    assert sent is not None and sent.startswith(b"HTTP/1.1 408"), sent
    # a connection that never sends anything
    mute = _socket.create_connection(("127.0.0.1", server.port))
    assert _closed_within(mute, 4) is not None
    # a kept-alive connection left idle after its answer
    idle = _socket.create_connection(("127.0.0.1", server.port))
    idle.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    assert _closed_within(idle, 4).startswith(b"HTTP/1.1 200")
    # an honest client is served, and a websocket lives past the header timeout
    status, games = server.request("GET", "/api/games")
    assert status == 200 and games
    status, t = server.request("POST", "/api/tables", {
        "game": "mexican_train", "options": SHORT_MT, "seats": [{"kind": "human"},
                                                              {"kind": "human"}]})
    assert status == 201, t
    from websockets.sync.client import connect
    with connect(f"ws://127.0.0.1:{server.port}/ws/{t['id']}", open_timeout=10) as ws:
        ws.recv(timeout=10)
        import time as _time
        _time.sleep(2.5)
        ws.send('{"type": "ping"}')
        assert ws.recv(timeout=10)
    for s in (slow, mute, idle):
        s.close()


def test_serve_refuses_a_timeout_that_is_not_positive():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "dominohall.cli", "serve", "--header-timeout",
                        "0", "--port", "1"], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "--header-timeout" in r.stderr, r.stderr


# --- CSRF: state changes need JSON and our Origin -------------------------------------------

def _host_table(client):
    """A table whose creator (this client, by its admin cookie) sits at seat 0."""
    r = client.post("/api/tables", json={"game": "mexican_train", "options": SHORT_MT,
                                         "take_seat": 0, "name": "Ann", "ready_seconds": 0,
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "text/plain",
                                  "multipart/form-data; boundary=x", None])
def test_a_form_cannot_reinvite_with_the_hosts_cookies(client, kind):
    t = _host_table(client)
    invite = t["seats"][1]["token"]
    headers = {"Content-Type": kind} if kind else {}
    r = client.post(f"/api/tables/{t['id']}/seats/0/invite", content=b"a=1", headers=headers)
    assert r.status_code == 415 and r.json()["code"] == "json_body_needed", r.text
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["notices"] == []                                   # nobody was re-invited
    assert [s.get("token") for s in info["invites"]] == [None, invite]
    assert client.get(f"/api/tables/{t['id']}/view").json()["seat"] == 0   # still seated
    r = client.post(f"/api/tables/{t['id']}/seats/0/invite", json={})      # the page's way
    assert r.status_code == 200, r.text


def test_a_form_cannot_press_play_again_with_the_seat_cookie(client):
    t = _host_table(client)
    r = client.post(f"/api/tables/{t['id']}/again", content=b"",
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 415, r.text
    r = client.post(f"/api/tables/{t['id']}/again")                        # no body at all
    assert r.status_code == 415, r.text
    r = client.post(f"/api/tables/{t['id']}/again", json={})
    assert r.status_code == 409 and r.json()["code"] == "again_not_over"   # it got through


@pytest.mark.parametrize("headers", [
    {"Origin": "http://testserver:9999"},            # another port of the same host
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site"}])
def test_another_origin_cannot_change_state_even_with_json(client, headers):
    t = _host_table(client)
    tables = set(hub(client).tables)
    for path, body in [(f"/api/tables/{t['id']}/seats/0/invite", {}),
                       (f"/api/tables/{t['id']}/again", {}),
                       (f"/api/tables/{t['id']}/actions", {"action": "draw", "version": 0}),
                       ("/api/tables", {"game": "mexican_train", "seats": BOTS2})]:
        r = client.post(path, json=body, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "cross_site", (path, r.text)
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["notices"] == [] and info["next_table"] is None
    assert set(hub(client).tables) == tables                   # no table was made
    ok = client.post(f"/api/tables/{t['id']}/seats/1/invite", json={},
                     headers={"Origin": "http://testserver"})
    assert ok.status_code == 200, ok.text


def test_scripts_with_token_headers_and_no_cookies_still_work(client):
    t = _host_table(client)
    admin = t["admin"]
    client.cookies.clear()
    r = client.post(f"/api/tables/{t['id']}/seats/1/invite",
                    headers={"X-Admin-Token": admin})
    assert r.status_code == 200, r.text


def test_the_json_refusal_is_translated():
    from dominohall.i18n import translator
    from dominohall.i18n.errors import ERRORS
    for lang in ("be", "ru", "kk", "bg", "pt", "es"):
        assert translator(lang).gettext(ERRORS["json_body_needed"]) != \
            ERRORS["json_body_needed"], lang


# --- hints and replays: through the bots' fair queue, after the moves, rate limited ---------

def test_background_work_waits_for_every_move_in_the_queue():
    import asyncio

    from dominohall.server.tables import FairQueue
    from dominohall.server.tables.limits import BACKGROUND, MOVE, WATCHED

    async def scenario():
        q = FairQueue(1)
        await q.acquire(MOVE)                       # the only worker is busy
        order = []

        async def job(name, priority):
            await q.acquire(priority)
            order.append(name)
            await asyncio.sleep(0)
            q.release(priority)

        tasks = [asyncio.create_task(job("hint", BACKGROUND))]
        await asyncio.sleep(0)
        tasks += [asyncio.create_task(job("watched", WATCHED)),
                  asyncio.create_task(job("move", MOVE))]
        await asyncio.sleep(0)
        q.release()
        await asyncio.gather(*tasks)
        return order

    assert run_async(scenario()) == ["move", "watched", "hint"]


def test_background_work_never_holds_the_last_free_worker():
    import asyncio

    from dominohall.server.tables import FairQueue
    from dominohall.server.tables.limits import BACKGROUND, MOVE

    async def scenario():
        q = FairQueue(3)
        await q.acquire(BACKGROUND)
        await q.acquire(BACKGROUND)                 # two replays: 2 of 3 workers
        third = asyncio.create_task(q.acquire(BACKGROUND))
        await asyncio.sleep(0.01)
        assert not third.done()                     # the last worker stays for moves
        await asyncio.wait_for(q.acquire(MOVE), 1)  # a move gets it at once
        q.release(MOVE)
        q.release(BACKGROUND)
        await asyncio.wait_for(third, 1)            # then the third replay
        third.cancel()
        waiting = asyncio.create_task(q.acquire(BACKGROUND))
        await asyncio.sleep(0.01)
        waiting.cancel()                            # a cancelled wait gives nothing away
        await asyncio.sleep(0.01)
        q.release(BACKGROUND)
        q.release(BACKGROUND)
        return q.free, q.background._value

    assert run_async(scenario()) == (3, 2)


def _hint_room(game, queue=None, limits=None, tid="h2"):
    import concurrent.futures
    from types import SimpleNamespace

    from dominohall.server.tables import RateLimiter, Seat, TableSettings
    hub = SimpleNamespace(bot_pool=concurrent.futures.ThreadPoolExecutor(1), bot_queue=queue,
                          limiter=RateLimiter(), limits=limits)
    return SimpleNamespace(id=tid, game=game, seats=[Seat("human"), Seat("bot")],
                           settings=TableSettings(hints=True), version=len(game.actions),
                           hub=hub)


def test_many_sockets_of_one_seat_get_one_hint_at_a_time():
    import asyncio
    import json

    from dominohall.server import hints
    from dominohall.server.protocol import Rejected
    from dominohall.server.tables import Connection
    game = new_game("all_fives", players=2, seed=3)
    room = _hint_room(game)
    socks = [Connection(game.current_seat) for _ in range(29)]

    async def scenario():
        hints.request(room, socks[0])
        refused = []
        for conn in socks[1:]:
            try:
                hints.request(room, conn)
            except Rejected as err:
                refused.append(err.code)
        reply = json.loads(await asyncio.wait_for(socks[0].queue.get(), 30))
        return refused, reply

    refused, reply = run_async(scenario())
    assert refused == ["busy"] * 28
    assert reply["type"] == "hint"
    room.hub.bot_pool.shutdown()


def test_hints_have_a_rate_per_seat_and_wait_behind_bot_moves():
    import asyncio
    import json

    from dominohall.server import hints
    from dominohall.server.protocol import Rejected
    from dominohall.server.tables import Connection, FairQueue, Limits
    from dominohall.server.tables.limits import MOVE
    game = new_game("all_fives", players=2, seed=4)
    queue = FairQueue(1)
    room = _hint_room(game, queue, Limits(hints_per_minute=2), tid="h2-rate")
    conn = Connection(game.current_seat)

    async def scenario():
        await queue.acquire(MOVE)                  # a bot is thinking
        hints.request(room, conn)
        await asyncio.sleep(0.05)
        move_waiting = asyncio.create_task(queue.acquire(MOVE))   # another table's bot
        await asyncio.sleep(0.05)
        assert conn.queue.empty()                  # the hint waits for a worker
        queue.release()                            # the worker goes to the move first
        await asyncio.wait_for(move_waiting, 5)
        await asyncio.sleep(0.2)
        assert conn.queue.empty()                  # still after the move
        queue.release()
        first = json.loads(await asyncio.wait_for(conn.queue.get(), 30))
        hints._cache.clear()                       # as if at a new position
        hints.request(room, conn)
        await asyncio.wait_for(conn.queue.get(), 30)
        hints._cache.clear()
        with pytest.raises(Rejected) as err:
            hints.request(room, conn)              # the third in a minute
        return first, err.value

    first, err = run_async(scenario())
    assert first["type"] == "hint"
    assert err.code == "rate_limited" and err.status == 429
    room.hub.bot_pool.shutdown()


def _played(game="mexican_train", **kw):
    g = new_game(game, seed=7, **kw)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    return g.to_record()


def test_replays_are_rate_limited_per_address(tmp_path):
    from dominohall.server.tables import Limits
    record = _played(players=2, options=SHORT_MT)
    with make_client(tmp_path, limits=Limits(replays_per_minute=3)) as c:
        codes = [c.post("/api/replay", json={"record": record}).status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429], codes
        r = c.post("/api/replay", json={"record": record})
        assert r.headers["retry-after"] and r.json()["code"] == "rate_limited"


def test_a_replay_waits_for_a_free_bot_worker_after_the_moves(tmp_path):
    import threading
    import time as _time

    from dominohall.server.tables.limits import MOVE
    record = _played(players=2, options=SHORT_MT)
    with make_client(tmp_path, bot_workers=1) as c:
        queue = hub(c).bots.queue
        c.portal.call(queue.acquire, MOVE)          # the one worker is thinking a move
        got = {}
        t = threading.Thread(target=lambda: got.update(
            r=c.post("/api/replay", json={"record": record})))
        t.start()
        _time.sleep(1.0)
        assert "r" not in got                       # not on the event loop, not a thread
        assert len(queue.waiting[2]) == 1
        assert c.get("/api/games").status_code == 200     # the loop is free meanwhile

        async def release():
            queue.release()
        c.portal.call(release)
        t.join(30)
        assert got["r"].status_code == 200, got["r"].text
        assert got["r"].json()["steps"] == len(record["actions"]) + 1
        bad = c.post("/api/replay", json={"record": {**record, "actions": ["nope"]}})
        assert bad.status_code == 422 and bad.json()["code"] == "replay_action", bad.text


# --- the strong-bot cap counts every searching bot by its cost ------------------------------

def test_deep_bots_count_against_the_strong_bot_cap(client):
    def table(bots):
        return client.post("/api/tables", json={
            "game": "all_fives", "options": {"hands": 1},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in bots]})
    made = [table(["deep", "deep", "deep"]).status_code for _ in range(2)]
    assert made == [201, 201]                                   # 6 of 8
    r = table(["deep", "deep", "deep"])                         # 9 > 8
    assert r.status_code == 429 and r.json()["code"] == "strong_bots", r.text
    assert "deep" in r.json()["message"]
    r = table(["pimc", "deep", "deep"])
    assert r.status_code == 429, r.text                         # a mix counts the same
    assert table(["deep", "pimc", "fives"]).status_code == 201   # 8 of 8
    assert table(["fives", "blocker", "scorer"]).status_code == 201   # the cheap ones: free
    assert table(["deep", "random", "random"]).status_code == 429


def test_every_bot_level_has_a_cost_and_a_new_one_counts():
    from dominohall import bots
    from dominohall.server.tables.spec import BOT_COST, bot_cost
    for game in ("mexican_train", "all_fives", "draw", "block"):
        for name in bots.names(game):
            if name in bots._REGISTERED:    # a user's bot (another test may have added one)
                assert bot_cost(name) == 1
                continue
            assert name in BOT_COST, (game, name)
    assert bot_cost("some_new_search") == 1 and bot_cost(None) == 0
    assert bot_cost("deep") == bot_cost("pimc") == 1


# --- tables made to fill the server go quickly ---------------------------------------------

def test_tables_without_a_move_or_a_second_human_expire_quickly(tmp_path):
    from dominohall.server.tables import Limits
    limits = Limits(unstarted_seconds=60, idle_seconds=3600)
    with make_client(tmp_path, limits=limits) as c:
        two = [{"kind": "human"}, {"kind": "human"}]
        empty = create(c, seats=two, claim=False)                       # nobody sat
        alone = _host_table(c)                                          # its creator only
        c.cookies.clear()
        pair = create(c, seats=[{"kind": "human", "name": "Ann"},
                                {"kind": "human", "name": "Ben"}])      # both claimed
        r = c.post("/api/tables", json={"game": "mexican_train", "options": SHORT_MT,
                                        "take_seat": 0, "name": "Ann", "ready_seconds": 0,
                                        "seats": [{"kind": "human"},
                                                  {"kind": "bot", "bot": "random"}]})
        moved = r.json()
        c.cookies.clear()
        room = hub(c).tables[moved["id"]]
        with c.websocket_connect(f"/ws/{moved['id']}",
                                 headers={"X-Seat-Token": moved["seat_token"]}) as ws:
            m = recv(ws)
            if m["view"]["current_seat"] == 0:
                ws.send_json({"type": "action", "action": m["view"]["legal_actions"][0],
                              "version": m["view"]["version"]})
            while not any(not a.startswith("top ") for a in room.game.actions):
                recv(ws)
        for t in (empty, alone, pair, moved):
            hub(c).tables[t["id"]].idle_since -= 61        # unwatched for a minute
        c.portal.call(hub(c).sweep)
        status = {k: c.get(f"/api/tables/{t['id']}").json()["status"]
                  for k, t in (("empty", empty), ("alone", alone), ("pair", pair),
                               ("moved", moved))}
        assert status["empty"] == status["alone"] == "expired", status
        assert status["pair"] != "expired" and status["moved"] != "expired", status
        for t in (pair, moved):                             # those wait idle_seconds
            hub(c).tables[t["id"]].idle_since -= 3600
        c.portal.call(hub(c).sweep)
        assert {c.get(f"/api/tables/{t['id']}").json()["status"] for t in (pair, moved)} \
            == {"expired"}


# --- fair: the end of the record is committed too --------------------------------------------

def test_a_record_cut_short_or_changed_does_not_verify(client, tmp_path):
    import copy
    import json as _json
    import subprocess
    import sys

    from dominohall.server import fair
    r = client.post("/api/tables", json={"game": "all_fives", "options": {"hands": 1},
                                         "seats": BOTS2})
    tid = r.json()["id"]
    room = hub(client).tables[tid]
    with client.websocket_connect(f"/ws/{tid}") as ws:          # bots play while watched
        while not room.game.is_over:
            recv(ws)
    info = client.get(f"/api/tables/{tid}").json()["fairness"]
    shown = info["record_hash"]                                   # what the table showed
    assert info["ending"] == "over" and len(shown) == 64
    record = client.get(f"/api/tables/{tid}/record").json()
    assert record["fairness"]["record_hash"] == shown
    assert "fair deal" in fair.verify(record, final=shown)

    short = copy.deepcopy(record)
    short["actions"] = short["actions"][:-3]                    # cut short, still legal
    with pytest.raises(fair.NotFair, match="cut short"):
        fair.verify(short)
    rehashed = copy.deepcopy(short)                              # the hash redone to match
    rehashed["fairness"]["record_hash"] = fair.record_hash(
        rehashed["fairness"]["commitment"], rehashed["actions"], "over")
    with pytest.raises(fair.NotFair, match="before the end"):
        fair.verify(rehashed)
    rehashed["fairness"]["ending"] = "expired"                   # posing as expired
    rehashed["fairness"]["record_hash"] = fair.record_hash(
        rehashed["fairness"]["commitment"], rehashed["actions"], "expired")
    assert fair.verify(rehashed)                                 # the record is consistent,
    with pytest.raises(fair.NotFair, match="shown at the table"):
        fair.verify(rehashed, final=shown)                       # but not what was shown
    missing = copy.deepcopy(record)
    del missing["fairness"]["record_hash"]
    with pytest.raises(fair.NotFair, match="final hash"):
        fair.verify(missing)

    path = tmp_path / "short.json"
    path.write_text(_json.dumps(short))
    out = subprocess.run([sys.executable, "-m", "dominohall.server.fair", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "NOT VERIFIED" in out.stderr, out
    path.write_text(_json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "dominohall.server.fair", str(path),
                          "--final", shown], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and shown[:16] in out.stdout, out


# --- the re-invite race: revocation and moves in the table's order ---------------------------

def test_a_move_queued_behind_a_reinvite_is_refused(client):
    import threading
    import time as _time
    t = create(client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}])
    tid = t["id"]
    room = hub(client).tables[tid]
    seat = room.game.current_seat
    old = t["seats"][seat]["token"]
    view = client.get(f"/api/tables/{tid}/view", headers={"X-Seat-Token": old}).json()
    version = room.version

    async def hold():
        await room.lock.acquire()
    client.portal.call(hold)                        # the table is busy (a move being saved)
    got = {}
    mover = threading.Thread(target=lambda: got.update(r=client.post(
        f"/api/tables/{tid}/actions", headers={"X-Seat-Token": old},
        json={"action": view["legal_actions"][0], "version": view["version"]})))
    mover.start()
    _time.sleep(0.5)                                # the old device's move waits its turn

    async def revoke_then_release():
        room.seats[seat].secret = None              # what reinvite does, under the lock
        room.lock.release()
    client.portal.call(revoke_then_release)
    mover.join(20)
    assert got["r"].status_code == 403, got["r"].text
    assert room.version == version and room.game.actions == []  # never applied


# --- a chosen seed holds for every later join ----------------------------------------------

def test_a_chosen_seed_table_cannot_hand_its_seat_to_another_human(client):
    """A solo table with a chosen seed: its creator knows every hand, so re-inviting the
    seat (which would seat somebody else at that deal) is refused and nothing changes."""
    r = client.post("/api/tables", json={"game": "block", "options": {"hands": 1},
                                         "take_seat": 0, "name": "Ann", "seed": 42,
                                         "seats": [{"kind": "human"},
                                                   {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    before = client.get(f"/api/tables/{tid}").json()
    r = client.post(f"/api/tables/{tid}/seats/0/invite", json={})
    assert r.status_code == 409 and r.json()["code"] == "seed_chosen_no_reinvite", r.text
    assert "token" not in r.text
    after = client.get(f"/api/tables/{tid}").json()
    assert after["notices"] == before["notices"] == []
    assert [s.get("token") for s in after["invites"]] == [None, None]
    assert client.get(f"/api/tables/{tid}/view").json()["seat"] == 0      # still seated


def test_one_address_cannot_fill_the_server_with_live_tables(tmp_path):
    """50 addresses made 1,000 tables and everyone after got server_full: each address
    may have only so many live tables (counted from the store, as on every node)."""
    from dominohall.server.tables.limits import Limits
    with make_client(tmp_path, limits=Limits(tables_per_address=3)) as c:
        ids = [create(c, claim=False)["id"] for _ in range(3)]
        r = c.post("/api/tables", json={"game": "mexican_train", "options": SHORT_MT,
                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 429 and r.json()["code"] == "tables_per_address", r.text
        assert r.json()["params"] == {"n": 3}
        assert c.get("/api/tables").status_code == 200
        assert len(hub(c).tables) == 3 and set(hub(c).tables) == set(ids)   # none made
