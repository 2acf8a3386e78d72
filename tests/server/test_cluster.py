"""Several `dominohall serve --db postgresql://...` processes on one database: one cluster.

Each test starts real server processes on the test PostgreSQL (DOMINOHALL_TEST_PG_DSN);
nothing is simulated in-process."""

from __future__ import annotations

import json
import time

import pytest

from .cluster_players import WsPlayer, check_acknowledged, leaks

SHORT_MT = {"set_max": 6, "hand_size": 7, "rounds": 1}


@pytest.fixture()
def nodes(cluster_db, server_factory):
    """Three nodes of one cluster (started one after another on one database)."""
    return [server_factory(cluster_db).start() for _ in range(3)]


# A round of double-9 (the leak scan reads one deal): a double-6 round is about 20 actions,
# few enough that a player may act fewer than six times, or the match end before the step
# a test waits for, now that relayed moves are quick
LONG_ROUND = {"set_max": 9, "hand_size": 12, "rounds": 1}


def create(node, seats, **kw):
    status, t = node.request("POST", "/api/tables", {
        "game": "mexican_train", "options": SHORT_MT, "seats": seats, "ready_seconds": 0, **kw})
    assert status == 201, t
    return t


def test_the_seed_and_record_stay_hidden_on_every_node_while_the_match_is_played(nodes):
    one, two, three = nodes
    t = create(one, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
               take_seat=0, name="Ann")
    tid = t["id"]
    for node in (one, two, three):
        status, body = node.request("GET", f"/api/tables/{tid}/record")
        assert status == 409, (node.port, body)
        assert body["error"] == "not_over"
        status, info = node.request("GET", f"/api/tables/{tid}")
        assert status == 200, info
        assert info["status"] == "playing"
        assert "seed" not in info["fairness"] and "nonce" not in info["fairness"]
        assert info["fairness"]["commitment"] == t["fairness"]["commitment"]


def test_a_seat_is_claimed_and_played_through_any_node(nodes):
    one, two, three = nodes
    t = create(one, [{"kind": "human"}, {"kind": "human"}], take_seat=0, name="Ann")
    tid = t["id"]
    invite = next(s["token"] for s in t["seats"] if s["seat"] == 1)
    ben = two.claim(tid, invite, "Ben")                 # through another node than its maker
    for node in (one, two, three):                      # every node knows the seat is taken
        status, info = node.request("GET", f"/api/tables/{tid}")
        assert [s["name"] for s in info["seats"]] == ["Ann", "Ben"], (node.port, info)
    status, again = three.request("POST", f"/api/tables/{tid}/join",
                                  {"token": invite, "name": "Eve"})
    assert status == 403 and again["error"] == "bad_token"      # the invite is retired
    secrets = {0: t["seat_token"], 1: ben}
    played = 0
    for _ in range(6):
        status, view = one.request("GET", f"/api/tables/{tid}/view")
        seat = view["current_seat"]
        status, mine = two.request("GET", f"/api/tables/{tid}/view",
                                   headers={"X-Seat-Token": secrets[seat]})
        assert status == 200 and mine["version"] == view["version"] == played, mine
        action = mine["legal_actions"][0]
        node = (one, two, three)[played % 3]
        status, r = node.request("POST", f"/api/tables/{tid}/actions",
                                 {"action": action, "version": played},
                                 headers={"X-Seat-Token": secrets[seat]})
        assert status == 200, (node.port, r)
        played += 1
        assert r["version"] == played
    for node in (one, two, three):
        status, view = node.request("GET", f"/api/tables/{tid}/view")
        assert view["version"] == played, node.port


def test_players_bot_and_spectators_on_different_nodes_play_a_match(nodes):
    one, two, three = nodes
    t = create(one, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
               options=LONG_ROUND)
    tid = t["id"]
    invites = {s["seat"]: s["token"] for s in t["seats"] if "token" in s}
    ann = two.claim(tid, invites[0], "Ann")
    ben = three.claim(tid, invites[1], "Ben")
    players = [WsPlayer(two, tid, ann, seed=1), WsPlayer(three, tid, ben, seed=2)]
    watchers = [WsPlayer(three, tid, play=False), WsPlayer(one, tid, play=False)]
    try:
        deadline = time.monotonic() + 120
        while not all(p.done.is_set() for p in players + watchers):
            assert time.monotonic() < deadline, progress(players + watchers)
            time.sleep(0.2)
        # presence is cluster-wide: the owner saw both players connected from other nodes
        seen = [[s["connected"] for s in m["table"]["seats"]] for m in watchers[1].messages
                if "table" in m]
        assert [True, True, True] in seen, seen
    finally:
        for p in players + watchers:
            p.close()
    status, record = two.request("GET", f"/api/tables/{tid}/record")
    assert status == 200, record
    assert record["fairness"]["seed"] == record["seed"]
    assert check_acknowledged(record, players) > 5, [p.refused[:3] for p in players]
    for seat, p in ((0, players[0]), (1, players[1]), (None, watchers[0]), (None, watchers[1])):
        assert not leaks(record, seat, p.messages), (seat, leaks(record, seat, p.messages))
        last = [m for m in p.messages if m["type"] == "state"][-1]
        assert last["view"]["version"] == len(record["actions"])
    for node in nodes:                               # every node serves the same record
        status, r = node.request("GET", f"/api/tables/{tid}/record")
        assert r["actions"] == record["actions"]


def progress(players: list[WsPlayer]) -> list[tuple]:
    """Each player's node, whether done, messages, reconnects and its last few messages
    (what a stalled match's failure says)."""
    return [(p.node.port, p.done.is_set(), len(p.messages), p.reconnects,
             [(m["type"], m.get("view", {}).get("version"), m.get("code"))
              for m in p.messages[-3:]]) for p in players]


def first_state_after(p: WsPlayer, start: int, version: int) -> None:
    """Wait until `p` has a state beyond `version` (messages from index `start` on)."""
    deadline = time.monotonic() + 60
    while not any(m["type"] == "state" and m["view"]["version"] > version
                  for m in p.messages[start:]):
        assert time.monotonic() < deadline, (
            f"no state beyond version {version}",
            [(m["type"], m.get("view", {}).get("version"), m.get("code"))
             for m in p.messages[-5:]])
        time.sleep(0.05)


@pytest.mark.parametrize("how", ["kill9", "sigterm"])
def test_the_owner_dies_mid_round_and_the_match_completes_elsewhere(nodes, how):
    one, two, three = nodes
    # (LONG_ROUND: the match must still be on when the owner dies)
    t = create(one, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
               options=LONG_ROUND)
    tid = t["id"]
    invites = {s["seat"]: s["token"] for s in t["seats"] if "token" in s}
    ann = two.claim(tid, invites[0], "Ann")
    ben = three.claim(tid, invites[1], "Ben")
    players = [WsPlayer(two, tid, ann, seed=3, others=(three,)),
               WsPlayer(one, tid, ben, seed=4, others=(two, three))]   # Ben is on the owner
    watchers = [WsPlayer(three, tid, play=False), WsPlayer(one, tid, play=False,
                                                           others=(three,))]
    everyone = players + watchers
    try:
        first_state_after(watchers[0], 0, 8)          # mid-round
        start = len(watchers[0].messages)
        if how == "kill9":
            one.kill9()
        else:
            one.stop()                                  # SIGTERM: it hands the table over
        versions = [m["view"]["version"] for m in watchers[0].messages if m["type"] == "state"]
        first_state_after(watchers[0], start, versions[-1])     # the table moves again
        deadline = time.monotonic() + 120
        while not all(p.done.is_set() for p in everyone):
            assert time.monotonic() < deadline, progress(everyone)
            time.sleep(0.2)
    finally:
        for p in everyone:
            p.close()
    assert players[1].reconnects >= 1 and watchers[1].reconnects >= 1
    status, record = two.request("GET", f"/api/tables/{tid}/record")
    assert status == 200, record
    assert check_acknowledged(record, players) > 5, [p.refused[:3] for p in players]
    for node in (two, three):
        _, r = node.request("GET", f"/api/tables/{tid}/record")
        assert r["actions"] == record["actions"]
    for seat, p in ((0, players[0]), (1, players[1]), (None, watchers[0]), (None, watchers[1])):
        assert not leaks(record, seat, p.messages), (seat, leaks(record, seat, p.messages))
        assert [m for m in p.messages if m["type"] == "state"][-1]["view"]["is_over"]


def test_a_hint_worked_out_on_one_node_is_kept_for_every_node(nodes, cluster_db):
    import psycopg
    from websockets.sync.client import connect

    one, two, three = nodes
    t = create(one, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], take_seat=0,
               name="Ann", hints=True)
    tid, secret = t["id"], t["seat_token"]
    answers = []
    for node in (two, three):
        with connect(f"ws://127.0.0.1:{node.port}/ws/{tid}?token={secret}",
                     open_timeout=10) as ws:
            while True:                         # until it is Ann's turn
                m = json.loads(ws.recv(timeout=30))
                if m["type"] == "state" and m["view"]["current_seat"] == 0:
                    break
            ws.send(json.dumps({"type": "hint", "lang": "en"}))
            while m["type"] != "hint":
                m = json.loads(ws.recv(timeout=30))
                assert m["type"] != "error", m
            answers.append((m["version"], m["action"], m["why"]))
    assert answers[0] == answers[1] and answers[0][1]
    with psycopg.connect(cluster_db) as conn:
        rows = conn.execute("SELECT version, seat, lang, action FROM dh_hints "
                            "WHERE table_id = %s", (tid,)).fetchall()
    assert rows == [(answers[0][0], 0, "en", answers[0][1])]


def test_the_lobby_lists_public_tables_of_every_node(nodes):
    one, two, three = nodes
    made = [create(node, [{"kind": "human"}, {"kind": "human"}], public=True)["id"]
            for node in (one, two)]
    private = create(three, [{"kind": "human"}, {"kind": "human"}])["id"]
    deadline = time.monotonic() + 30
    while True:
        listed = [{t["id"] for t in node.request("GET", "/api/tables")[1]} for node in nodes]
        if all(set(made) <= ids for ids in listed):
            break
        assert time.monotonic() < deadline, listed
        time.sleep(0.2)
    assert all(private not in ids for ids in listed)
    status, t = three.request("GET", "/api/tables")
    assert [x["id"] for x in t if x["id"] in made] == made[::-1]       # newest first


def test_every_node_shows_who_is_connected_anywhere(nodes):
    one, two, three = nodes
    t = create(one, [{"kind": "human"}, {"kind": "human"}], take_seat=0, name="Ann")
    tid = t["id"]
    status, info = three.request("GET", f"/api/tables/{tid}")
    assert [s["connected"] for s in info["seats"]] == [False, False]
    with WsPlayer(two, tid, t["seat_token"], play=False).closing():
        deadline = time.monotonic() + 20
        while True:             # Ann's socket is on node two; node three says so
            status, info = three.request("GET", f"/api/tables/{tid}")
            if info["seats"][0]["connected"]:
                break
            assert time.monotonic() < deadline, info
            time.sleep(0.2)
        assert info["seats"][1]["connected"] is False
