"""A hostile client against the server: one regression test per finding of issue 10.

Each test plays the attacker (a player reading another hand, a creator choosing the
deal, a page on another origin, a flood of requests, odd Unicode, huge bodies) and
checks the server answers with a clear 4xx / protocol error and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import subprocess
import sys
import threading
import time
import warnings
from urllib.parse import quote

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from dominohall import replay
from dominohall.engine import IllegalAction
from dominohall.server import fair
from dominohall.server.app import create_app, hide_secrets
from dominohall.server.protocol import MAX_MESSAGE, clean_name
from dominohall.server.store import open_store
from dominohall.server.tables import TABLE_EVERY, FairQueue, Limits
from dominohall.server.tables import core as table_core

from .conftest import Watcher, another_browser, free_port
from .helpers import create, hub, receive_text, recv

BOTS2 = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def make_client(tmp_path, name="h.sqlite3", **kw):
    kw.setdefault("bot_delay", 0)
    kw.setdefault("bot_processes", False)
    return TestClient(create_app(str(tmp_path / name), **kw))


@pytest.fixture()
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


def play_out(client, tid: str, room, secrets_by_seat: dict[int, str] | None = None,
             watchers=None) -> list[str]:
    """Play a table to its end (humans over websockets, random moves); every message text.

    Each socket sees every version once, from the one it connected at: a socket that
    connects after a bot's first move starts a version ahead of the others, so the
    sockets are not in lockstep.  The spectator's stream paces the game (one state
    per action, whoever made it) and every seat's socket is brought to the same
    version before anyone moves; a message that never comes fails the test (recv's
    timeout) instead of hanging it.  The last message of each socket carries the end.
    """
    texts: list[str] = []
    rng = random.Random(1)
    secrets_by_seat = secrets_by_seat or {}
    import contextlib

    def state(s, w):
        try:
            m = recv(w)
        except AssertionError as err:
            raise AssertionError(
                f"{err} on seat {s}'s socket: views at "
                f"{ {k: v['version'] for k, v in views.items()} }, table at version "
                f"{room.version}, seat {room.game.current_seat} to play, bot task "
                f"{room.bot_task}, pause {room.pause_until}, {room.presence.total()} connections, "
                f"over {room.game.is_over}") from None
        texts.append(json.dumps(m))
        views[s] = m["view"]

    def catch_up(version: int) -> None:
        for s, w in socks.items():
            while views[s]["version"] < version:
                state(s, w)
            assert views[s]["version"] == version, (s, views[s]["version"], version)

    with contextlib.ExitStack() as stack:
        socks = {s: stack.enter_context(client.websocket_connect(
            f"/ws/{tid}", headers={"X-Seat-Token": tok})) for s, tok in secrets_by_seat.items()}
        socks[None] = stack.enter_context(client.websocket_connect(f"/ws/{tid}"))
        views: dict = {}
        for s, w in socks.items():
            state(s, w)
        catch_up(max(v["version"] for v in views.values()))
        for _ in range(2000):
            seen = views[None]
            if seen["is_over"]:
                break
            seat = seen["current_seat"]
            if seat in socks and views[seat]["legal_actions"]:
                socks[seat].send_text(json.dumps({
                    "type": "action", "version": seen["version"],
                    "action": rng.choice(views[seat]["legal_actions"])}))
            state(None, socks[None])            # the next action, the human's or a bot's
            assert views[None]["version"] == seen["version"] + 1
            catch_up(views[None]["version"])
        else:
            raise AssertionError("the match did not end in 2000 actions")
        assert room.game.is_over
        return texts


# --- fair deals --------------------------------------------------------------------------

def test_every_server_seed_has_128_bits_and_no_path_gives_a_small_one(client, monkeypatch):
    assert all(fair.new_seed() >= 2**128 for _ in range(1000))
    calls = []
    real = fair.new_seed
    monkeypatch.setattr(fair, "new_seed", lambda: calls.append(1) or real())
    for seats, take in ((BOTS2, None),
                        ([{"kind": "human"}, {"kind": "human"}], None),
                        ([{"kind": "human"}, {"kind": "bot", "bot": "random"}], 0)):
        body = {"game": "draw", "seats": seats, "take_seat": take, "name": "Ann"}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        room = hub(client).tables[r.json()["id"]]
        assert room.base_record["seed"] >= 2**128
    assert len(calls) == 3
    stored = {t.id: t.record["seed"] for t in hub(client).store.load_tables()}
    assert all(s >= 2**128 for s in stored.values())
    # the engine's record format replays a big seed (JSON round trip included)
    t = next(iter(hub(client).store.load_tables()))
    g = replay(json.loads(json.dumps({**t.record, "actions": []})))
    assert g.seed == t.record["seed"]
    assert g.view(0)["hand"] == hub(client).tables[t.id].game.view(0)["hand"]


def test_a_chosen_seed_is_refused_when_another_human_sits(client):
    two = [{"kind": "human"}, {"kind": "human"}]
    r = client.post("/api/tables", json={"game": "draw", "seats": two, "seed": 42})
    assert r.status_code == 422 and "seed" in r.json()["message"]
    r = client.post("/api/tables", json={"game": "draw", "seats": two, "seed": 42,
                                         "take_seat": 0, "name": "Ann"})
    assert r.status_code == 422
    assert not hub(client).tables
    solo = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    r = client.post("/api/tables", json={"game": "draw", "seats": solo, "seed": 42,
                                         "take_seat": 0, "name": "Ann"})
    assert r.status_code == 201 and r.json()["fairness"]["seed_chosen"] is True
    r = client.post("/api/tables", json={"game": "draw", "seats": BOTS2, "seed": 42})
    assert r.status_code == 201


def test_commitment_is_shown_to_all_and_the_seed_only_after_the_match(client, tmp_path):
    t = create(client, game="draw", options={"hands": 1})
    tid, tokens = t["id"], {s["seat"]: s["token"] for s in t["seats"]}
    room = hub(client).tables[tid]
    seed, nonce = room.base_record["seed"], room.settings.nonce
    info = client.get(f"/api/tables/{tid}").json()
    promised = info["fairness"]["commitment"]
    assert promised == fair.commitment(seed, nonce) and "seed" not in info["fairness"]
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 409 and r.json()["error"] == "not_over"
    texts = play_out(client, tid, room, tokens)
    before_end = texts[:-3]            # the last messages of each socket carry the end
    for text in texts:
        m = json.loads(text)
        assert m["table"]["fairness"]["commitment"] == promised     # every seat and spectator
    for text in before_end:
        assert str(seed) not in text and nonce not in text, "the seed leaked before the end"
        assert "boneyard_order" not in text and '"deck"' not in text
    info = client.get(f"/api/tables/{tid}").json()
    assert info["status"] == "over" and info["fairness"]["seed"] == str(seed)
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["fairness"]["commitment"] == promised
    assert fair.verify(record).startswith("fair deal")
    g = replay(record)
    assert g.actions == room.game.actions and g.is_over
    path = tmp_path / "record.json"
    path.write_text(r.text)
    out = subprocess.run([sys.executable, "-m", "dominohall.server.fair", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "fair deal" in out.stdout
    from dominohall.tui.session import load_record, rebuild  # what `dominohall replay` reads

    game, _seats = rebuild(load_record(path))
    assert game.actions == room.game.actions
    record["fairness"]["seed"] += 1                 # a forged seed does not verify
    with pytest.raises(fair.NotFair):
        fair.verify(record)


# --- credentials -------------------------------------------------------------------------

def test_the_admin_view_lists_only_unclaimed_invites(client):
    r = client.post("/api/tables", json={"game": "draw", "seats": [{"kind": "human"}] * 3,
                                         "take_seat": 0, "name": "Host"})
    t = r.json()
    tid = t["id"]
    assert [("token" in s) for s in t["seats"]] == [False, True, True]
    friend = another_browser(client)
    friend.post(f"/api/tables/{tid}/join", json={"token": t["seats"][1]["token"], "name": "F"})
    invites = client.get(f"/api/tables/{tid}").json()["invites"]
    assert [("token" in s) for s in invites] == [False, False, True]
    assert t["seats"][1]["token"] not in json.dumps(invites)


def test_an_invite_is_single_use_and_the_seat_secret_is_a_strict_httponly_cookie(client):
    t = create(client, game="draw", options={}, claim=False,
               seats=[{"kind": "human"}, {"kind": "human"}], take_seat=0, name="Host")
    tid, invite = t["id"], t["seats"][1]["token"]
    friend = another_browser(client)
    r = friend.post(f"/api/tables/{tid}/join", json={"token": invite, "name": "Ben"})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    secret = r.json()["token"]
    # the group chat saw the link: it opens nothing any more
    thief = another_browser(client)
    r = thief.post(f"/api/tables/{tid}/join", json={"token": invite, "name": "Thief"})
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    assert thief.get(f"/api/tables/{tid}/view", headers={"X-Seat-Token": invite}).status_code == 403
    with thief.websocket_connect(f"/ws/{tid}", headers={"X-Seat-Token": invite}) as ws:
        assert json.loads(receive_text(ws))["code"] == "bad_token"
    assert hub(client).tables[tid].seats[1].name == "Ben"
    # the owner renames with their own secret
    r = friend.post(f"/api/tables/{tid}/join", json={"token": secret, "name": "Benny"})
    assert r.status_code == 200 and r.json()["token"] == secret


def test_the_host_re_invites_a_seat_visibly_and_the_old_device_loses_it(client):
    t = create(client, game="draw", options={})
    tid, secret = t["id"], t["seats"][1]["token"]
    room = hub(client).tables[tid]
    stranger = another_browser(client)
    r = stranger.post(f"/api/tables/{tid}/seats/1/invite")
    assert r.status_code == 403 and r.json()["error"] == "not_host"
    with client.websocket_connect(f"/ws/{tid}") as spec, \
            client.websocket_connect(f"/ws/{tid}", headers={"X-Seat-Token": secret}) as old:
        recv(spec), recv(old)
        r = client.post(f"/api/tables/{tid}/seats/1/invite",    # the creator's admin token
                        headers={"X-Admin-Token": t["admin"]})
        assert r.status_code == 200
        new_invite = r.json()["token"]
        m = recv(old, "error")
        assert m["code"] == "reinvited"
        while True:
            m = json.loads(receive_text(spec))
            if m["table"]["notices"]:
                break
        assert m["table"]["notices"][-1] == {"type": "reinvited", "seat": 1,
                                             "time": m["table"]["notices"][-1]["time"]}
    assert room.seat_of(secret) is None
    r = another_browser(client).post(f"/api/tables/{tid}/join",
                                    json={"token": new_invite, "name": "Ben again"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert client.get(f"/api/tables/{tid}").json()["notices"][0]["seat"] == 1


def test_tokens_never_reach_the_access_log(server_factory, tmp_path):
    assert hide_secrets("/api/tables/x/view?token=abc&x=1") == \
        "/api/tables/x/view?token=[hidden]&x=1"
    server = server_factory(threads=True)
    server.start_args = ["--log-level", "info"]
    server.start()
    _, t = server.request("POST", "/api/tables", {
        "game": "draw", "seats": [{"kind": "human"}, {"kind": "human"}],
        "take_seat": 0, "name": "Ann"})
    secret, invite = t["seat_token"], t["seats"][1]["token"]
    server.request("GET", f"/api/tables/{t['id']}/view?token={secret}")
    import urllib.request

    urllib.request.urlopen(f"{server.url}/t/{t['id']}?invite={invite}", timeout=10).read()
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{server.port}/ws/{t['id']}?token={secret}") as ws:
        ws.recv()
    time.sleep(0.3)
    server.stop()
    log = server.log_path.read_text()
    assert "/view?token=[hidden]" in log and "invite=[hidden]" in log
    assert secret not in log and invite not in log


# --- browser security --------------------------------------------------------------------

def test_security_headers_on_every_page_and_api_response(client):
    t = create(client, game="draw", options={})
    for path in ("/", f"/t/{t['id']}", "/api/games", f"/api/tables/{t['id']}",
                 "/static/js/table.js", "/api/tables/nope", "/openapi.json", "/docs"):
        r = client.get(path)
        h = r.headers
        assert h["x-content-type-options"] == "nosniff", path
        assert h["referrer-policy"] == "no-referrer", path
        csp = h["content-security-policy"]
        assert "frame-ancestors 'none'" in csp, path
        script = next(p for p in csp.split(";") if p.strip().startswith("script-src"))
        assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, path
    assert "<script>" not in client.get("/").text and "<script>" not in client.get("/t/x").text


def test_a_websocket_from_another_origin_is_refused(tmp_path):
    with make_client(tmp_path, allow_origins=("https://friends.example",)) as c:
        t = create(c, game="draw", options={})
        tid, secret = t["id"], t["seats"][0]["token"]
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect(f"/ws/{tid}", headers={
                    "X-Seat-Token": secret, "Origin": "http://testserver:9999"}) as ws:
                receive_text(ws)
        for origin in ("http://testserver", "https://friends.example"):
            with c.websocket_connect(f"/ws/{tid}", headers={"X-Seat-Token": secret,
                                                            "Origin": origin}) as ws:
                assert recv(ws)["view"]["seat"] == 0


def test_https_cookies_and_invite_urls_from_the_public_url(tmp_path):
    with make_client(tmp_path, public_url="https://dominoes.example.org/",
                     behind_https=True) as c:
        r = c.post("/api/tables", json={"game": "draw", "take_seat": 0, "name": "Ann",
                                        "seats": [{"kind": "human"}, {"kind": "human"}]},
                   headers={"Host": "evil.example"})
        assert r.status_code == 201
        assert all("Secure" in v for v in r.headers.get_list("set-cookie"))
        assert r.json()["seats"][1]["invite_url"].startswith("https://dominoes.example.org/t/")
        assert "evil" not in r.text
        assert "max-age" in r.headers["strict-transport-security"]
        tid = r.json()["id"]
        with pytest.raises(WebSocketDisconnect):          # Host is not the public origin
            with c.websocket_connect(f"/ws/{tid}", headers={"Origin": "http://testserver"}) as ws:
                receive_text(ws)
        with c.websocket_connect(f"/ws/{tid}",
                                 headers={"Origin": "https://dominoes.example.org"}) as ws:
            assert recv(ws)["view"]["seat"] is None


# --- bad input ---------------------------------------------------------------------------

def test_non_ascii_tokens_are_403_never_500(client):
    t = create(client, game="draw", options={})
    tid = t["id"]
    for bad in ("ü" * 10, "\u202etoken", "tok\x00en"):
        quoted = bad.encode("utf-8")
        r = client.get(f"/api/tables/{tid}/view", params={"token": bad})
        assert r.status_code == 403 and r.json()["error"] == "bad_token", bad
        r = client.post(f"/api/tables/{tid}/actions", json={"action": "x", "version": 0,
                                                             "token": bad})
        assert r.status_code == 403, bad
        r = client.post(f"/api/tables/{tid}/join", json={"token": bad, "name": "X"})
        assert r.status_code == 403, bad
        with client.websocket_connect(f"/ws/{tid}?token={quote(bad)}") as ws:
            assert json.loads(receive_text(ws))["code"] == "bad_token"
        del quoted
    latin = "é€".encode()                              # raw UTF-8 bytes in a header
    for headers in ({"X-Seat-Token": latin}, {"X-Admin-Token": latin}):
        r = client.get(f"/api/tables/{tid}/view", headers=headers)
        assert r.status_code == (403 if "Seat" in next(iter(headers)) else 200), r.text
    r = client.get(f"/api/tables/{tid}", headers={"Cookie": f"dh_seat_{tid}=ÿü€".encode()})
    assert r.status_code == 200 and r.json()["you"]["seat"] is None


def test_deep_json_on_the_websocket_is_bad_json_and_the_connection_stays(client):
    t = create(client, game="draw", options={})
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        recv(ws)
        ws.send_text("[" * 5000 + "]" * 5000)
        assert recv(ws, "error")["code"] == "bad_json"
        ws.send_text('{"a":' * 2000 + "1" + "}" * 2000)
        assert recv(ws, "error")["code"] == "bad_json"
        ws.send_text("x" * (MAX_MESSAGE + 1))
        assert recv(ws, "error")["code"] == "bad_json"
        ws.send_text('{"type": "ping"}')
        assert recv(ws, "pong")["type"] == "pong"


NASTY = ["Ann\u202e\u200bLee", "\x00Bob\x00", "\ud800Cy\udfff", "\ue000Dee\U000f0000",
         "e\u0301va", " \t\n Eve \u2028 ", "Zoë" * 20]


def post_json(c, path, body):
    """A JSON body as ASCII escapes (httpx cannot send a lone surrogate otherwise)."""
    return c.post(path, content=json.dumps(body).encode(),
                  headers={"Content-Type": "application/json"})


def test_display_names_are_normalised_and_empty_is_422(client):
    assert [clean_name(n) for n in NASTY] == [
        "AnnLee", "Bob", "Cy", "Dee", "\u00e9va", "Eve", ("Zoë" * 20)[:24]]
    t = create(client, game="draw", options={}, claim=False,
               seats=[{"kind": "human"}, {"kind": "human"}])
    tid = t["id"]
    for bad in ("", "\u200b\u202e", "\x00", "\ud800", "   "):
        r = post_json(another_browser(client), f"/api/tables/{tid}/join",
                      {"token": t["seats"][0]["token"], "name": bad})
        assert r.status_code == 422, (bad, r.text)
    r = client.post("/api/tables", json={"game": "draw", "take_seat": 0, "name": "\u200b",
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 422
    r = post_json(another_browser(client), f"/api/tables/{tid}/join",
                  {"token": t["seats"][0]["token"], "name": NASTY[2]})
    assert r.status_code == 200
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Cy"


def test_names_with_nul_and_surrogates_on_postgres(pg_url, tmp_path):
    with TestClient(create_app(pg_url, bot_delay=0, bot_processes=False)) as c:
        r = post_json(c, "/api/tables", {"game": "draw", "take_seat": 0, "name": NASTY[1],
                                         "seats": [{"kind": "human", "name": NASTY[2]},
                                                   {"kind": "human", "name": NASTY[0]}]})
        assert r.status_code == 201, r.text
        names = [s["name"] for s in c.get(f"/api/tables/{r.json()['id']}").json()["seats"]]
        assert names == ["Bob", "AnnLee"]


def test_huge_bodies_huge_numbers_and_strings_for_numbers_are_refused(client):
    big = {"game": "draw", "seats": BOTS2, "options": {"x": "y" * (MAX_MESSAGE + 10)}}
    r = client.post("/api/tables", json=big)
    assert r.status_code == 413 and r.json()["error"] == "too_large"
    def chunks():
        for _ in range(100):
            yield b"x" * 1024
    r = client.post("/api/tables", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    for bad in ({"options": {"hands": 10**18}}, {"options": {"hands": "1000000000000000000"}},
                {"turn_seconds": "5"}, {"away_seconds": True}, {"seed": "5"},
                {"seed": 2**300}, {"options": {"hand_size": 10**9}}):
        r = client.post("/api/tables", json={"game": "all_fives", "seats": BOTS2, **bad})
        assert r.status_code == 422, (bad, r.text)
    assert not hub(client).tables
    r = client.post("/api/tables", json={"game": "all_fives", "seats": BOTS2,
                                         "options": {"hands": "3"}})      # a form's text
    assert r.status_code == 201


def test_an_illegal_action_carries_the_engines_code_and_params(client, monkeypatch):
    t = create(client, game="draw", options={})
    tid, tokens = t["id"], {s["seat"]: s["token"] for s in t["seats"]}
    room = hub(client).tables[tid]

    class Coded(IllegalAction):
        code = "no_such_tile"
        params = {"tile": "9-9"}

    def refuse(self, text, seat=None):
        raise Coded("you have no 9-9")

    seat = room.game.current_seat
    with client.websocket_connect(f"/ws/{tid}", headers={"X-Seat-Token": tokens[seat]}) as ws:
        v = recv(ws)["view"]
        monkeypatch.setattr(type(room.game), "apply", refuse)
        ws.send_text(json.dumps({"type": "action", "action": "9-9", "version": v["version"]}))
        m = recv(ws, "error")
    assert m["code"] == "illegal" and m["reason"] == "no_such_tile"
    assert m["params"] == {"tile": "9-9"}


# --- one client cannot degrade everyone --------------------------------------------------

def test_rate_limits_answer_429_with_retry_after(tmp_path):
    limits = Limits(create_per_minute=3, join_per_minute=2, connect_per_minute=3)
    with make_client(tmp_path, limits=limits) as c:
        codes = [c.post("/api/tables", json={"game": "draw", "seats": BOTS2}).status_code
                 for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        r = c.post("/api/tables", json={"game": "draw", "seats": BOTS2})
        assert r.json()["error"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
        tid = next(iter(hub(c).tables))
        codes = [c.post(f"/api/tables/{tid}/join", json={"token": "x", "name": "x"}).status_code
                 for _ in range(3)]
        assert codes == [403, 403, 429]
        for i in range(4):
            with c.websocket_connect(f"/ws/{tid}") as ws:
                m = json.loads(receive_text(ws))
                assert (m["type"] == "error") == (i == 3)
        assert m["code"] == "rate_limited" and m["retry_after"] >= 1


def test_caps_on_tables_and_connections(tmp_path):
    limits = Limits(max_tables=2, conns_per_table=2, conns_per_address=3)
    with make_client(tmp_path, limits=limits) as c:
        ids = [c.post("/api/tables", json={"game": "draw", "seats": BOTS2}).json()["id"]
               for _ in range(2)]
        r = c.post("/api/tables", json={"game": "draw", "seats": BOTS2})
        assert r.status_code == 503 and r.json()["error"] == "server_full"
        with c.websocket_connect(f"/ws/{ids[0]}") as a, c.websocket_connect(f"/ws/{ids[0]}") as b:
            recv(a), recv(b)
            with c.websocket_connect(f"/ws/{ids[0]}") as x:
                assert json.loads(receive_text(x))["code"] == "too_many"
            with c.websocket_connect(f"/ws/{ids[1]}") as d:
                recv(d)
                with c.websocket_connect(f"/ws/{ids[1]}") as x:     # the address's 4th
                    assert json.loads(receive_text(x))["code"] == "too_many"


def test_bot_only_tables_and_strongest_bots_per_address(tmp_path):
    with make_client(tmp_path, limits=Limits(bot_tables_per_address=2,
                                             strong_bots_per_address=3)) as c:
        codes = [c.post("/api/tables", json={"game": "draw", "seats": BOTS2}).status_code
                 for _ in range(3)]
        assert codes == [201, 201, 429]
        pimc = {"kind": "bot", "bot": "pimc"}
        r = c.post("/api/tables", json={"game": "all_fives", "take_seat": 0, "name": "A",
                                        "seats": [{"kind": "human"}, pimc, pimc]})
        assert r.status_code == 201
        r = c.post("/api/tables", json={"game": "all_fives", "take_seat": 0, "name": "A",
                                        "seats": [{"kind": "human"}, pimc, pimc]})
        assert r.status_code == 429 and "pimc" in r.json()["message"]


def test_the_bot_queue_is_fair_between_tables():
    async def scenario() -> list[str]:
        q = FairQueue(1)
        order: list[str] = []

        async def job(name: str, priority: int) -> None:
            await q.acquire(priority)
            order.append(name)
            await asyncio.sleep(0.01)
            q.release()

        await q.acquire(0)                  # the worker is busy
        tasks = [asyncio.create_task(job(f"bots{i}", 1)) for i in range(8)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(job("player", 0)))
        await asyncio.sleep(0)
        q.release()
        await asyncio.gather(*tasks)
        return order

    order = asyncio.run(scenario())
    assert order[0] == "player"             # a seated player's table goes first
    assert order[1:] == [f"bots{i}" for i in range(8)]   # the rest in turn


def test_table_broadcasts_are_coalesced(client, monkeypatch):
    t = create(client, game="draw", options={})
    room = hub(client).tables[t["id"]]
    sent: list[float] = []
    flush = room._flush_table

    def counted(but=None):
        sent.append(time.monotonic())
        flush(but)

    monkeypatch.setattr(room, "_flush_table", counted)
    import contextlib

    with contextlib.ExitStack() as stack:
        for _ in range(40):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{t['id']}"))
            recv(ws)
        time.sleep(3 * TABLE_EVERY)
    assert 1 <= len(sent) < 40
    gaps = [b - a for a, b in zip(sent, sent[1:])]
    assert all(g >= TABLE_EVERY * 0.9 for g in gaps), gaps


def test_a_table_nobody_watches_pauses_then_expires_and_is_not_loaded_again(tmp_path):
    limits = Limits(idle_seconds=1, finished_seconds=0)
    with make_client(tmp_path, limits=limits) as c:
        idle = c.post("/api/tables", json={"game": "draw", "seats": BOTS2}).json()["id"]
        done = c.post("/api/tables", json={"game": "all_fives", "seats": BOTS2,
                                           "options": {"hands": 1}}).json()["id"]
        room = hub(c).tables[done]
        with c.websocket_connect(f"/ws/{done}") as ws:
            recv(ws)
            deadline = time.monotonic() + 30
            while not room.game.is_over and time.monotonic() < deadline:
                time.sleep(0.05)
        assert room.game.is_over
        assert hub(c).tables[idle].version == 0          # paused: nobody connected
        deadline = time.monotonic() + 10
        while (idle in hub(c).tables or done in hub(c).tables) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert idle not in hub(c).tables and done not in hub(c).tables
        assert c.get(f"/api/tables/{idle}").json()["status"] == "expired"
        r = c.get(f"/api/tables/{idle}/record")
        assert r.status_code == 200 and fair.verify(r.json())
        r = c.post(f"/api/tables/{idle}/actions", json={"action": "draw", "version": 0})
        assert r.status_code in (400, 403)
    store = open_store(tmp_path / "h.sqlite3")
    assert {t.id: t.state for t in store.load_tables()} == {idle: "expired", done: "over"}
    store.close()
    with make_client(tmp_path) as c:            # a restart loads neither
        assert not hub(c).tables
        r = c.get(f"/api/tables/{done}/record")
        assert r.status_code == 200 and replay(r.json()).is_over


# --- storage and processes ---------------------------------------------------------------

def test_a_slow_write_does_not_stall_other_tables(client):
    a = create(client, game="draw", options={})
    b = create(client, game="draw", options={})
    store = hub(client).store
    real = store.append_action
    release = threading.Event()

    def append(table_id, seq, seat, action):
        if table_id == a["id"]:
            release.wait(30)                    # a locked row / a slow disk
        real(table_id, seq, seat, action)

    store.append_action = append
    try:
        results: dict[str, int] = {}

        def move(t) -> None:
            room = hub(client).tables[t["id"]]
            seat = room.game.current_seat
            v = room.game.view(seat)
            tok = next(s["token"] for s in t["seats"] if s["seat"] == seat)
            r = client.post(f"/api/tables/{t['id']}/actions", headers={"X-Seat-Token": tok},
                            json={"action": v["legal_actions"][0], "version": v["version"]})
            results[t["id"]] = r.status_code

        slow = threading.Thread(target=move, args=(a,))
        slow.start()
        time.sleep(0.2)
        move(b)                                 # returns while table a's write hangs
        assert results == {b["id"]: 200} and slow.is_alive()
    finally:
        release.set()
        slow.join(30)
        store.append_action = real
    assert results[a["id"]] == 200


def test_serve_validates_the_port_and_reports_a_port_in_use():
    for bad in ("70000", "0", "-1", "http"):
        p = subprocess.run([sys.executable, "-m", "dominohall.cli", "serve", "--port", bad],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode != 0 and "not a port number" in p.stderr, p.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        p = subprocess.run([sys.executable, "-m", "dominohall.cli", "serve", "--port",
                            str(port), "--db", ":memory:"],
                           capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    assert p.stderr.strip().count("\n") == 0 and "cannot listen on" in p.stderr, p.stderr
    assert "open http" not in p.stdout
    help_text = subprocess.run([sys.executable, "-m", "dominohall.cli", "serve", "--help"],
                               capture_output=True, text=True, timeout=60).stdout
    assert "--host" in help_text and "0.0.0.0" in help_text and "--public-url" in help_text


def test_rest_only_clients_still_work_with_a_watcher(server_factory):
    """A sanity check of the real server: claim by invite, watch, play over REST."""
    server = server_factory().start()
    _, t = server.request("POST", "/api/tables", {
        "game": "draw", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        "take_seat": 0, "name": "Ann"})
    secret = t["seat_token"]
    with Watcher(server, t["id"]) as w:
        _, v = server.request("GET", f"/api/tables/{t['id']}/view",
                              headers={"X-Seat-Token": secret})
        assert v["seat"] == 0
        deadline = time.monotonic() + 10
        while not w.messages and time.monotonic() < deadline:
            time.sleep(0.05)
        assert w.messages[0]["type"] == "state"
    assert free_port()


# --- play again (issue 15) ---------------------------------------------------------------

def test_play_again_carries_every_seat_to_a_successor_table(client):
    t = create(client, game="all_fives", options={"hands": 1},
               seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                      {"kind": "human", "name": "Ben"}])
    tid, tokens = t["id"], {s["seat"]: s["token"] for s in t["seats"] if "token" in s}
    room = hub(client).tables[tid]
    ann, ben, stranger = (another_browser(client) for _ in range(3))
    r = ann.post(f"/api/tables/{tid}/again", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 409 and r.json()["error"] == "not_over"
    play_out(client, tid, room, tokens)
    assert stranger.post(f"/api/tables/{tid}/again").status_code == 403
    r = ann.post(f"/api/tables/{tid}/again", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 201, r.text
    nxt = r.json()
    assert nxt["seat"] == 0 and nxt["seat_token"] != tokens[0]
    assert client.get(f"/api/tables/{tid}").json()["next_table"] == nxt["id"]
    again = ann.post(f"/api/tables/{tid}/again", headers={"X-Seat-Token": tokens[0]}).json()
    assert again == nxt                                     # the same table, the same seat
    r = ben.post(f"/api/tables/{tid}/again", headers={"X-Seat-Token": tokens[2]})
    assert r.json()["id"] == nxt["id"] and r.json()["seat"] == 2
    new = hub(client).tables[nxt["id"]]
    assert [(s.kind, s.bot, s.name) for s in new.seats] == \
        [("human", None, "Ann"), ("bot", "random", "Bot 1"), ("human", None, "Ben")]
    assert new.game.options.as_dict() == room.game.options.as_dict()
    assert new.base_record["seed"] != room.base_record["seed"] >= 2**128
    assert new.seat_of(nxt["seat_token"]) == 0 and new.seat_of(r.json()["seat_token"]) == 2
    assert new.seat_of(tokens[0]) is None                   # old secrets open nothing here
    # the host's invites for the new table: none open, both carried over
    host = client.get(f"/api/tables/{nxt['id']}", headers={"X-Admin-Token": t["admin"]}).json()
    assert host["you"]["host"] and all("token" not in s for s in host["invites"])


def test_a_trusted_proxy_saying_https_makes_cookies_secure(server_factory):
    server = server_factory()
    server.start_args = ["--forwarded-allow-ips", "127.0.0.1"]
    server.start()
    import urllib.request

    body = json.dumps({"game": "draw", "seats": BOTS2}).encode()
    for proto, secure in (("https", True), ("http", False)):
        req = urllib.request.Request(server.url + "/api/tables", data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "X-Forwarded-Proto": proto})
        with urllib.request.urlopen(req, timeout=20) as r:
            cookie = r.headers["set-cookie"]
        assert ("Secure" in cookie) is secure, cookie


def test_a_database_failure_is_a_503_not_a_500(client, monkeypatch):
    def down(*a, **kw):
        raise OSError("connection refused")

    monkeypatch.setattr(hub(client).store, "create_table", down)
    r = client.post("/api/tables", json={"game": "draw", "seats": BOTS2})
    assert r.status_code == 503 and r.json()["error"] == "storage"


def test_an_action_being_stored_is_shown_only_once_stored_and_only_once(
        client, monkeypatch):
    """Write, then broadcast: a socket that connects (or a REST view asked for) while
    an action waits for its database write is not shown that action before it is
    stored (a crash would lose it), and the socket then gets it exactly once (the
    broadcast), so its versions go up one at a time."""
    t = create(client)
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    room = hub(client).tables[tid]
    store = hub(client).store
    writing, release = threading.Event(), threading.Event()
    real = store.append_action

    def slow_append(*args, **kw):
        writing.set()
        assert release.wait(20)
        return real(*args, **kw)

    monkeypatch.setattr(store, "append_action", slow_append)
    with client.websocket_connect(f"/ws/{tid}", headers={"X-Seat-Token": tokens[0]}) as w0, \
            client.websocket_connect(f"/ws/{tid}", headers={"X-Seat-Token": tokens[1]}) as w1:
        views = [recv(w0)["view"], recv(w1)["view"]]
        seat = views[0]["current_seat"]
        v = views[seat]
        (w0, w1)[seat].send_text(json.dumps({"type": "action", "version": v["version"],
                                             "action": v["legal_actions"][0]}))
        assert writing.wait(20)
        got: list = []
        rest = threading.Thread(target=lambda: got.append(
            client.get(f"/api/tables/{tid}/view").json()))
        rest.start()                        # the REST view waits for the write too
        with client.websocket_connect(f"/ws/{tid}") as late:
            with pytest.raises(AssertionError, match="no 'state' message"):
                recv(late, timeout=0.5)     # the action is applied but not yet stored
            assert not got
            release.set()
            rest.join(20)
            assert [v["version"] for v in got] == [1]
            late.send_text('{"type": "ping"}')
            versions = []
            while (m := json.loads(receive_text(late)))["type"] != "pong":
                if m["type"] == "state":
                    versions.append(m["view"]["version"])
            assert versions == [1] and room.version == 1


def test_requests_from_another_event_loop_still_reach_the_table(client, monkeypatch):
    """A table's coalesced table broadcast is a timer: one scheduled on a loop that is
    gone never fired and every later table update was swallowed.  Each join from
    another browser (its own client, on the app's loop) reaches the spectator, the
    coalesced second one included."""
    monkeypatch.setattr(table_core, "TABLE_EVERY", 1.0)      # the second join is coalesced
    t = create(client, claim=False)
    tid, invites = t["id"], [s["token"] for s in t["seats"]]
    with client.websocket_connect(f"/ws/{tid}") as spec:
        recv(spec)
        for seat, name in enumerate(("Ann", "Ben")):
            other = another_browser(client)              # its own loop for each request
            r = other.post(f"/api/tables/{tid}/join", json={"token": invites[seat],
                                                            "name": name})
            assert r.status_code == 200, r.text
        names: list = []
        while names != ["Ann", "Ben"]:
            m = recv(spec, "table", timeout=10)
            names = [s["name"] for s in m["table"]["seats"]]
