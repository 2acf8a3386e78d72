"""Play again across two `dominohall serve` processes on one PostgreSQL (issues 21, 25):
the host presses it on one node, the guest sits on the other; the guest's socket there
gets the notice, the host cannot take the guest's seat through either node, and the
guest's one click on their node seats them at the new table."""

from __future__ import annotations

import json
import time
import urllib.request

from websockets.sync.client import connect

from .cluster_players import WsPlayer


def recv_until(sock, test, seconds=20.0):
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such message"
        m = json.loads(sock.recv(timeout=left))
        if test(m):
            return m


def finished(one, two):
    """A two-person Block match played to its end: the host (seat 0) on node one, the
    guest (seat 1) on node two."""
    status, t = one.request("POST", "/api/tables", {
        "game": "block", "options": {"hands": 1}, "ready_seconds": 0,
        "seats": [{"kind": "human"}, {"kind": "human"}], "take_seat": 0, "name": "Ann"})
    assert status == 201, t
    tid, host = t["id"], t["seat_token"]
    invite = next(s["token"] for s in t["seats"] if s["seat"] == 1)
    guest = two.claim(tid, invite, "Ben")
    players = [WsPlayer(one, tid, host, seed=1), WsPlayer(two, tid, guest, seed=2)]
    try:
        deadline = time.monotonic() + 120
        while not all(p.done.is_set() for p in players):
            assert time.monotonic() < deadline, "the match did not end"
            time.sleep(0.1)
    finally:
        for p in players:
            p.close()
    return t, tid, host, guest, invite


def test_play_again_across_nodes(cluster_db, server_factory):
    one, two = (server_factory(cluster_db).start() for _ in range(2))
    t, tid, host, guest, invite = finished(one, two)
    admin = {"X-Admin-Token": t["admin"]}
    with connect(f"ws://127.0.0.1:{two.port}/ws/{tid}?token={guest}", open_timeout=10) as ws:
        recv_until(ws, lambda m: m["type"] == "state")
        status, nxt = one.request("POST", f"/api/tables/{tid}/again", {},
                                  headers={"X-Seat-Token": host, **admin})
        assert status == 201 and nxt["seat"] == 0, nxt
        m = recv_until(ws, lambda m: m["type"] == "again")      # on the other node
    assert m["table"] == nxt["id"] and m["again"]["name"] == "Ann"
    assert m["again"]["reserved"] == [1] and m["again"]["left"] > 30
    for node in (one, two):
        status, info = node.request("GET", f"/api/tables/{nxt['id']}", headers=admin)
        assert status == 200 and info["you"]["host"], info
        assert all("token" not in s for s in info["invites"]), info["invites"]
        assert info["status"] == "waiting"
        status, r = node.request("POST", f"/api/tables/{nxt['id']}/join",
                                 {"token": invite, "name": "Guest"}, headers=admin)
        assert status == 403 and r["code"] == "invite_not_valid", r
        # the host's own seat secret at the old table opens only the host's seat
        status, r = node.request("POST", f"/api/tables/{tid}/again", {},
                                 headers={"X-Seat-Token": host, **admin})
        assert status == 201 and r["seat"] == 0 and r["id"] == nxt["id"], r
    # a stranger on node two with a forged seat secret: refused
    status, r = two.request("POST", f"/api/tables/{tid}/again", {},
                            headers={"X-Seat-Token": "forged" * 6})
    assert status == 403 and r["error"] == "bad_token", r
    # the guest's one click, on their own node: the seat is theirs and the match starts
    status, mine = two.request("POST", f"/api/tables/{tid}/again", {},
                               headers={"X-Seat-Token": guest})
    assert status == 201 and mine["seat"] == 1 and mine["id"] == nxt["id"], mine
    for node in (one, two):
        status, v = node.request("GET", f"/api/tables/{nxt['id']}/view",
                                 headers={"X-Seat-Token": mine["seat_token"]})
        assert status == 200 and v["seat"] == 1, v
    deadline = time.monotonic() + 10
    while True:
        _, info = one.request("GET", f"/api/tables/{nxt['id']}")
        if info["status"] == "playing":
            break
        assert time.monotonic() < deadline, info
        time.sleep(0.1)
    assert [s["name"] for s in info["seats"]] == ["Ann", "Ben"]
    assert info["again"]["reserved"] == []


def test_no_thanks_on_the_other_node_frees_the_seat_and_tells_the_host(cluster_db,
                                                                       server_factory):
    one, two = (server_factory(cluster_db).start() for _ in range(2))
    t, tid, host, guest, _ = finished(one, two)
    status, nxt = one.request("POST", f"/api/tables/{tid}/again", {},
                              headers={"X-Seat-Token": host})
    assert status == 201, nxt
    with connect(f"ws://127.0.0.1:{one.port}/ws/{tid}?token={host}", open_timeout=10) as ws:
        recv_until(ws, lambda m: m["type"] == "state")
        req = urllib.request.Request(f"{two.url}/api/tables/{tid}/again/decline", b"{}",
                                     method="POST", headers={"X-Seat-Token": guest,
                                                             "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=20) as r:
            assert r.status == 204
        m = recv_until(ws, lambda m: m["type"] == "again")
    assert m["again"]["reserved"] == []
    for node in (one, two):
        _, info = node.request("GET", f"/api/tables/{nxt['id']}")
        assert info["seats"][1]["kind"] == "bot" and info["again"]["reserved"] == [], info
    status, r = two.request("POST", f"/api/tables/{tid}/again", {},
                            headers={"X-Seat-Token": guest})
    assert status == 409 and r["code"] == "again_seat_freed", r
