"""Lobby REST and game websockets in-process: two seats and a spectator, leaks, rejections."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")

from dominohall.engine.views import events

from .conftest import another_browser, in_process_app
from .helpers import SHORT_MT, create, hub, receive_text, recv, tiles_mentioned


@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path) as c:
        yield c


def test_catalogue_lists_games_options_presets_and_bots(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"mexican_train", "all_fives", "draw", "block"}
    mt = games["mexican_train"]
    assert "puremco" in mt["presets"] and "greedy" in mt["bots"]
    names = {o["name"] for o in mt["options"]}
    assert {"engine", "first_turn", "double_blank", "rounds"} <= names
    assert all(o["help"] for o in mt["options"])
    assert "/api/tables" in client.get("/openapi.json").json()["paths"]


def test_create_rejects_bad_options_naming_the_field(client):
    r = client.post("/api/tables", json={"game": "mexican_train", "options": {"engine": "nope"},
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert r.status_code == 422 and "engine" in r.json()["message"]
    r = client.post("/api/tables", json={"game": "all_fives", "seats": [{"kind": "human"}] * 5})
    assert r.status_code == 422 and "seats" in r.json()["message"]
    r = client.post("/api/tables", json={"game": "all_fives",
                                         "seats": [{"kind": "human"}, {"kind": "bot", "bot": "x"}]})
    assert r.status_code == 422 and "unknown bot" in r.json()["message"]


def test_two_seats_and_a_spectator_play_a_full_round_without_leaks(client):
    t = create(client)
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    room = hub(client).tables[tid]
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as w1, \
            client.websocket_connect(f"/ws/{tid}") as spec:
        socks = {0: w0, 1: w1, None: spec}
        views = {s: recv(w)["view"] for s, w in socks.items()}
        assert views[None]["hand"] is None and views[0]["seat"] == 0 and views[1]["seat"] == 1
        messages = 0
        while not room.game.is_over:
            seat = room.game.current_seat
            v = views[seat]
            socks[seat].send_text(json.dumps({"type": "action", "version": v["version"],
                                              "action": rng.choice(v["legal_actions"])}))
            got = {s: recv(w) for s, w in socks.items()}    # the action is applied by now
            hands = [set(h) for h in
                     (room.game.view(s)["hand"] for s in range(room.game.players))]
            for s, m in got.items():
                messages += 1
                views[s] = m["view"]
                assert m["view"]["version"] == len(room.game.actions)
                assert m["view"]["seat"] == s
                others = set().union(*(h for i, h in enumerate(hands) if i != s))
                leaked = tiles_mentioned(m) & others
                assert not leaked, f"seat {s} was sent another seat's tiles {leaked}"
                if s is None:
                    assert m["view"]["hand"] is None
                    assert all("tile" not in e for e in m["events"] if e["type"] == "draw")
                else:
                    assert set(m["view"]["hand"]) == hands[s]
        assert messages > 30
        end = [e for e in got[None]["events"] if e["type"] == "round_end"]
        assert end and len(end[-1]["hands"]) == 2     # after the round: every hand revealed
        assert views[None]["is_over"] and views[0]["scores"] == room.game.scores
    stored = hub(client).store.load_tables()
    assert stored[0].actions == room.game.actions


def test_bad_requests_are_rejected_and_change_nothing(client):
    t = create(client)
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    room = hub(client).tables[tid]
    with client.websocket_connect(f"/ws/{tid}?token=not-a-token") as bad:
        m = json.loads(receive_text(bad))
        assert m["type"] == "error" and m["code"] == "bad_token"
    with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as w1, \
            client.websocket_connect(f"/ws/{tid}") as spec:
        views = {0: recv(w0)["view"], 1: recv(w1)["view"], None: recv(spec)["view"]}
        cur = room.game.current_seat
        other = 1 - cur
        socks = {0: w0, 1: w1}
        version = views[cur]["version"]
        legal = views[cur]["legal_actions"][0]
        before = (room.game.actions[:], room.game.view(None))

        def rejected(ws, payload, code):
            ws.send_text(payload if isinstance(payload, str) else json.dumps(payload))
            m = recv(ws, "error")
            assert m["code"] == code, m
            assert m["message"]
            return m["message"]

        rejected(socks[cur], "{this is not json", "bad_json")
        rejected(socks[cur], '{"type": "action", "action": "draw"}', "bad_message")
        rejected(socks[cur], '[1, 2]', "bad_message")
        rejected(socks[cur], {"type": "action", "action": legal, "version": version,
                              "seat": other}, "wrong_seat")
        msg = rejected(socks[other], {"type": "action", "action": legal, "version": version},
                       "not_your_turn")
        assert f"seat {cur}" in msg              # the engine's reason
        assert "stale" in rejected(socks[cur], {"type": "action", "action": legal,
                                                "version": version - 1}, "stale")
        assert rejected(socks[cur], {"type": "action", "action": "0-0>t7", "version": version},
                        "illegal")
        rejected(spec, {"type": "action", "action": legal, "version": version}, "spectator")
        # REST: a wrong token, a wrong seat
        r = client.post(f"/api/tables/{tid}/actions", json={"action": legal, "version": version},
                        headers={"X-Seat-Token": "nope"})
        assert r.status_code == 403 and r.json()["error"] == "bad_token"
        r = client.post(f"/api/tables/{tid}/actions",
                        json={"action": legal, "version": version, "seat": other},
                        headers={"X-Seat-Token": tokens[cur]})
        assert r.status_code == 403 and r.json()["error"] == "wrong_seat"
        assert (room.game.actions, room.game.view(None)) == before
        assert hub(client).store.load_tables()[0].actions == []
        # nobody was sent a state in between: the next state everyone sees is version + 1
        r = client.post(f"/api/tables/{tid}/actions", json={"action": legal, "version": version},
                        headers={"X-Seat-Token": tokens[cur]})
        assert r.status_code == 200 and r.json()["version"] == version + 1
        for ws in (w0, w1, spec):
            assert recv(ws)["view"]["version"] == version + 1


def test_join_by_invite_sets_a_cookie_and_a_reload_resumes_the_seat(client):
    t = create(client, game="all_fives", options={},
               seats=[{"kind": "human"}, {"kind": "human"}], take_seat=0, name="Ann",
               claim=False)
    tid = t["id"]
    assert client.get(f"/api/tables/{tid}").json()["status"] == "waiting"
    info = client.get(f"/api/tables/{tid}").json()
    assert info["you"]["seat"] == 0 and len(info["invites"]) == 2      # the creator's cookies
    assert "token" not in info["invites"][0]          # the creator's own seat: claimed
    invite = info["invites"][1]["token"]
    assert info["invites"][1]["invite_url"].endswith(f"/t/{tid}?invite={invite}")
    friend = another_browser(client)               # another browser: same app, own cookie jar
    r = friend.post(f"/api/tables/{tid}/join", json={"token": "wrong", "name": "Ben"})
    assert r.status_code == 403
    r = friend.post(f"/api/tables/{tid}/join", json={"token": invite, "name": "  Ben  "})
    secret = r.json()["token"]
    assert r.json()["seat"] == 1 and friend.cookies.get(f"dh_seat_{tid}") == secret != invite
    info = friend.get(f"/api/tables/{tid}").json()
    assert info["status"] == "playing" and info["you"]["seat"] == 1 and "invites" not in info
    assert [s["name"] for s in info["seats"]] == ["Ann", "Ben"]
    for _ in range(2):                            # connect, "reload", connect again
        with friend.websocket_connect(f"/ws/{tid}") as ws:
            v = recv(ws)["view"]
            assert v["seat"] == 1 and len(v["hand"]) == 7
    stranger = another_browser(client)
    with stranger.websocket_connect(f"/ws/{tid}") as ws:
        assert recv(ws)["view"]["seat"] is None


def test_an_away_player_is_replaced_by_a_bot_until_they_return(client):
    t = create(client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
               away_seconds=1)
    tid, token = t["id"], t["seats"][0]["token"]
    room = hub(client).tables[tid]
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        v = recv(ws)["view"]
        time.sleep(1.3)                     # present: nobody plays for seat 0
        if v["legal_actions"]:
            assert room.version == v["version"]
            assert room.table_info()["seats"][0]["controller"] == "human"
    # a spectator watches (with nobody connected the table would pause)
    with client.websocket_connect(f"/ws/{tid}") as spec:
        recv(spec)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not room.game.is_over:
            if any(s == 0 for s in _seats_that_played(room)):
                break
            time.sleep(0.1)
    assert room.controller(0) == "away"
    assert 0 in _seats_that_played(room), "the stand-in bot never played seat 0"
    with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
        recv(ws)
        assert room.controller(0) == "human"
        if not room.game.is_over:
            deadline = time.monotonic() + 5           # the bot finishes its turn, then waits
            while room.game.current_seat != 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            at = room.version
            time.sleep(0.5)
            assert room.version == at and room.game.current_seat == 0


def _seats_that_played(room):
    return {e["seat"] for e in events(room.game, None) if e["type"] in ("play", "pass", "draw")
            and not e.get("search")}


def test_bots_finish_a_bot_table_and_the_match_is_stored(client):
    t = create(client, game="all_fives", options={"hands": 1},
               seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "fives"}])
    room = hub(client).tables[t["id"]]
    time.sleep(0.3)
    assert room.version == 0, "bots played to an empty room"
    with client.websocket_connect(f"/ws/{t['id']}") as spec:
        recv(spec)
        deadline = time.monotonic() + 20
        while not room.game.is_over and time.monotonic() < deadline:
            time.sleep(0.05)
    assert room.game.is_over
    assert hub(client).store.load_tables()[0].actions == room.game.actions


def test_turn_seconds_is_a_table_option_off_by_default(client):
    t = create(client)
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["turn_seconds"] == 0 and info["turn"] is None
    for bad in (-1, 3601, "soon"):
        r = client.post("/api/tables", json={"game": "draw", "turn_seconds": bad,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 422 and "turn_seconds" in r.text
    t = create(client, turn_seconds=30)
    room = hub(client).tables[t["id"]]
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["turn_seconds"] == 30
    assert info["turn"]["seat"] == room.game.current_seat and 28 < info["turn"]["left"] <= 30


def stored_rows(db, tid: str) -> list[tuple[int, int, str]]:
    """The action log as an independent reader of the database file sees it."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return list(conn.execute("SELECT seq, seat, action FROM actions WHERE table_id = ? "
                                 "ORDER BY seq", (tid,)))


def test_a_turn_that_runs_out_is_played_by_the_stand_in_stored_then_broadcast(client, tmp_path):
    """Seat `slow` never moves: each of its turns is played by the stand-in bot once its
    second is up, stored before it is broadcast.  Seat `quick` moves in time, if late in
    its turn, and is never overridden."""
    started = time.monotonic()
    # three rounds: no deal ends the match before each seat has had three turns
    t = create(client, options={**SHORT_MT, "rounds": 3}, turn_seconds=1, away_seconds=0)
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    room = hub(client).tables[tid]
    slow = room.game.current_seat
    quick = 1 - slow
    order: list[tuple[str, int]] = []         # ("stored" | "broadcast", version), in order
    store, broadcast = room.hub.store, room.broadcast_state

    def append_action(table_id, seq, seat, action):
        store_append(table_id, seq, seat, action)
        order.append(("stored", seq))

    store_append = store.append_action
    store.append_action = append_action
    room.broadcast_state = lambda: (order.append(("broadcast", room.version)), broadcast())
    sent: dict[int, str] = {}                 # version -> the action quick sent for it
    timed_out = quick_turns = 0
    rng = random.Random(2)
    db = str(tmp_path / "t.sqlite3")
    try:
        with client.websocket_connect(f"/ws/{tid}?token={tokens[quick]}") as wq, \
                client.websocket_connect(f"/ws/{tid}?token={tokens[slow]}") as ws, \
                client.websocket_connect(f"/ws/{tid}") as spec:
            views = {quick: recv(wq)["view"], slow: recv(ws)["view"]}
            m = recv(spec)
            assert m["table"]["turn_seconds"] == 1
            assert m["table"]["turn"]["seat"] == slow
            turn_began, prev_actor = started, None
            while not room.game.is_over and (timed_out < 3 or quick_turns < 3):
                v = views[quick]
                seat = v["current_seat"]
                if v["legal_actions"]:              # quick's turn: move in time
                    if prev_actor != quick:         # the first move of quick's turn
                        quick_turns += 1
                        time.sleep(0.5)             # late in the turn, but in time
                    action = rng.choice(v["legal_actions"])
                    sent[v["version"] + 1] = action
                    wq.send_text(json.dumps({"type": "action", "action": action,
                                             "version": v["version"]}))
                deadline = time.monotonic() + 10
                while room.version == v["version"]:
                    assert time.monotonic() < deadline, "nobody moved: the turn timer is stuck"
                    time.sleep(0.01)
                m = recv(spec)                      # the next move, whoever made it
                version = m["view"]["version"]
                rows = stored_rows(db, tid)
                assert len(rows) >= version, "broadcast before it was stored"
                actor = rows[version - 1][1]
                assert actor == seat
                if actor == slow:
                    if prev_actor != slow:          # the first move of slow's turn
                        timed_out += 1
                        assert time.monotonic() - turn_began >= 0.9, "played before time"
                    assert rows[version - 1][2] == room.game.actions[version - 1]
                views = {quick: recv(wq)["view"], slow: recv(ws)["view"]}
                assert views[quick]["version"] == views[slow]["version"] == version
                prev_actor = actor
                nxt = m["view"]["current_seat"]
                if nxt is not None and nxt != actor:
                    turn_began = time.monotonic()
                    assert m["table"]["turn"]["seat"] == nxt    # a new turn, a new clock
                    assert 0.8 <= m["table"]["turn"]["left"] <= 1
            for w in (wq, ws, spec):                # nobody was sent an error
                w.send_text('{"type": "ping"}')
                recv(w, "pong")
    finally:
        store.append_action = store_append
    assert timed_out >= 3 and quick_turns >= 3 or room.game.is_over
    assert timed_out >= 2 and quick_turns >= 2
    rows = stored_rows(db, tid)
    assert [r[2] for r in rows] == room.game.actions[:len(rows)]
    for seq, seat, action in rows:
        if seq in sent:                             # quick's own moves, none overridden
            assert seat == quick and action == sent[seq]
        elif seat == quick:
            raise AssertionError(f"action {seq} ({action}) was played for quick")
    assert sent and set(sent) <= {r[0] for r in rows}
    for version in {r[0] for r in rows}:
        assert order.index(("stored", version)) < order.index(("broadcast", version))
