"""Seats across the nodes of a cluster: Ready, re-invite and stand-in bots with the player
on one node and the table's owner on another, and a node restarted under its old name.

Real server processes on the test PostgreSQL, as in test_cluster.py."""

from __future__ import annotations

import contextlib
import json
import time

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import Watcher

SHORT_MT = {"set_max": 6, "hand_size": 7, "rounds": 1}


@pytest.fixture()
def nodes(cluster_db, server_factory):
    """Three nodes of one cluster; node one creates (so owns) every table here."""
    return [server_factory(cluster_db).start() for _ in range(3)]


def create(node, seats, **kw):
    status, t = node.request("POST", "/api/tables", {
        "game": "mexican_train", "options": SHORT_MT, "seats": seats, "ready_seconds": 0, **kw})
    assert status == 201, t
    return t


def ws(node, tid, secret=None):
    q = f"?token={secret}" if secret else ""
    return connect(f"ws://127.0.0.1:{node.port}/ws/{tid}{q}", open_timeout=10)


def recv_until(sock, test, seconds=20.0):
    """Messages from `sock` until one passes `test` (returned)."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such message"
        m = json.loads(sock.recv(timeout=left))
        if test(m):
            return m


def info(node, tid):
    status, body = node.request("GET", f"/api/tables/{tid}")
    assert status == 200, body
    return body


def wait_for(check, seconds=15.0, what=""):
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)
    return found


def view(node, tid, secret=None):
    status, v = node.request("GET", f"/api/tables/{tid}/view",
                             headers={"X-Seat-Token": secret} if secret else None)
    assert status == 200, v
    return v


def play_until_turn_of(node, tid, seat, secrets):
    """Play the first legal action of whoever's turn it is until it is `seat`'s."""
    for _ in range(60):
        v = view(node, tid)
        if v["current_seat"] == seat:
            return v["version"]
        who = v["current_seat"]
        assert who is not None and not v["is_over"], {k: v.get(k) for k in (
            "version", "is_over", "round", "current_seat")}
        mine = view(node, tid, secrets[who])
        status, r = node.request("POST", f"/api/tables/{tid}/actions",
                                 {"action": mine["legal_actions"][0], "version": v["version"]},
                                 headers={"X-Seat-Token": secrets[who]})
        assert status == 200, r
    raise AssertionError("the turn never came")


def test_a_re_invited_seat_is_lost_through_every_node_and_its_late_move_is_refused(nodes):
    one, two, three = nodes
    t = create(one, [{"kind": "human"}, {"kind": "human"}], take_seat=0, name="Ann")
    tid, ann = t["id"], t["seat_token"]
    invite = next(s["token"] for s in t["seats"] if s["seat"] == 1)
    ben = two.claim(tid, invite, "Ben")
    at = play_until_turn_of(one, tid, 1, {0: ann, 1: ben})
    for attempt in range(3):        # each time Ben's device sends its move just too late
        with ws(two, tid, ben) as old, ws(three, tid) as spectator:   # Ben on node two
            state = recv_until(old, lambda m: m["type"] == "state")
            assert state["view"]["version"] == at and state["view"]["legal_actions"]
            recv_until(spectator, lambda m: m["type"] == "state")
            status, r = three.request("POST", f"/api/tables/{tid}/seats/1/invite",
                                      headers={"X-Admin-Token": t["admin"]})
            assert status == 200, r                     # the host, through a third node
            with contextlib.suppress(ConnectionClosed):     # (unless already let go)
                old.send(json.dumps({"type": "action", "version": at,
                                     "action": state["view"]["legal_actions"][0]}))
            told = recv_until(old, lambda m: m["type"] == "error")
            assert told["code"] in ("reinvited", "bad_token"), told
            with pytest.raises(ConnectionClosed):       # the old device is let go
                recv_until(old, lambda m: m["type"] == "state" and
                           m["view"]["version"] > at, seconds=5)
            told_so_far = attempt + 1
            notice = recv_until(spectator, lambda m, n=told_so_far: m["type"] == "table"
                                and len(m["table"]["notices"]) == n)
            assert notice["table"]["notices"][-1]["type"] == "reinvited"
            assert notice["table"]["notices"][-1]["seat"] == 1
        for node in nodes:                  # the move was not applied, on any node
            v = view(node, tid)
            assert (v["version"], v["current_seat"]) == (at, 1), (attempt, node.port, v)
            status, body = node.request("GET", f"/api/tables/{tid}/view",
                                        headers={"X-Seat-Token": ben})
            assert status == 403 and body["error"] == "bad_token", body
            status, body = node.request("POST", f"/api/tables/{tid}/actions",
                                        {"action": "end", "version": at},
                                        headers={"X-Seat-Token": ben})
            assert status == 403 and body["error"] == "bad_token", body
        with ws(one, tid, ben) as stale:
            refused = recv_until(stale, lambda m: m["type"] == "error")
            assert refused["code"] == "bad_token"
        ben = (two, three, one)[attempt].claim(tid, r["token"], "Ben")  # the new invite
    mine = view(three, tid, ben)            # the last new device plays through node three
    status, played = three.request("POST", f"/api/tables/{tid}/actions",
                                   {"action": mine["legal_actions"][0], "version": at},
                                   headers={"X-Seat-Token": ben})
    assert status == 200 and played["version"] == at + 1, played
    assert [s["name"] for s in info(one, tid)["seats"]] == ["Ann", "Ben"]


def test_ready_on_a_follower_node_ends_the_owners_round_end_pause(nodes):
    one, two, three = nodes
    t = create(one, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], take_seat=0,
               name="Ann", ready_seconds=300, options={**SHORT_MT, "rounds": 2})
    tid, ann = t["id"], t["seat_token"]
    with ws(two, tid, ann) as sock:                     # Ann plays round 1 on node two
        while True:
            m = json.loads(sock.recv(timeout=30))
            if m["type"] == "state":
                v = m["view"]
                if v["round"] > 1 or v["is_over"]:
                    break
                if v["current_seat"] == 0 and v["legal_actions"]:
                    legal = v["legal_actions"]
                    sock.send(json.dumps({"type": "action", "version": v["version"],
                                          "action": "end" if "end" in legal else legal[0]}))
        assert not v["is_over"]
        paused = wait_for(lambda: (i := info(three, tid))["pause"] > 200 and i, what="pause")
        assert paused["ready"] == []                    # every node sees the owner's pause
        at = v["version"]
        sock.send(json.dumps({"type": "ready"}))
        # the only person present is ready: the pause ends on the owner, at once
        wait_for(lambda: info(three, tid)["pause"] == 0, seconds=10, what="pause ended")
        if v["current_seat"] == 1:                      # and the bot plays its turn
            wait_for(lambda: view(three, tid)["version"] > at, seconds=10, what="bot")


def test_a_player_gone_from_a_follower_node_is_stood_in_for_and_gets_the_seat_back(
        cluster_db, server_factory):
    # bots a little slow here, so the match is still on when she comes back
    one, two, three = [server_factory(cluster_db, bot_delay=0.25).start() for _ in range(3)]
    t = create(one, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], take_seat=0,
               name="Ann", away_seconds=1, options={**SHORT_MT, "rounds": 3})
    tid, ann = t["id"], t["seat_token"]
    with Watcher(one, tid):                             # someone watches on the owner
        with ws(two, tid, ann) as sock:                 # Ann arrives on node two...
            recv_until(sock, lambda m: m["type"] == "state")
            wait_for(lambda: info(three, tid)["seats"][0]["connected"], what="connected")
            at = view(three, tid)["version"]
        # ... and leaves: after 1 s the owner's stand-in plays for her
        gone = wait_for(lambda: (i := info(three, tid))["seats"][0]["controller"] == "away"
                        and i, what="away")
        assert gone["seats"][0]["connected"] is False
        moved = wait_for(lambda: (v := view(two, tid))["version"] > at + 2 and v,
                         seconds=20, what="the stand-in plays")
        assert not moved["is_over"]
        with ws(three, tid, ann) as sock:               # back, through another node
            state = recv_until(sock, lambda m: m["type"] == "state")
            wait_for(lambda: info(one, tid)["seats"][0]["controller"] == "human",
                     what="human again")
            # her turn comes and waits for her: nobody plays it
            while not (state["view"]["current_seat"] == 0 and state["view"]["legal_actions"]):
                state = recv_until(sock, lambda m: m["type"] == "state", seconds=30)
            assert not state["view"]["is_over"]
            time.sleep(1.5)
            v = view(one, tid)
            assert (v["version"], v["current_seat"]) == (state["view"]["version"], 0)


def owners(db: str) -> dict[str, tuple[str, int]]:
    with psycopg.connect(db) as conn:
        rows = conn.execute("SELECT table_id, node, epoch FROM dh_owners").fetchall()
    return {tid: (node, epoch) for tid, node, epoch in rows}


def test_a_node_restarted_under_its_name_takes_back_only_the_tables_still_its_own(
        cluster_db, server_factory):
    alpha = server_factory(cluster_db)
    alpha.start_args = ["--node-name", "alpha"]
    alpha.start()
    tables = []
    for _ in ("kept", "taken"):
        t = create(alpha, [{"kind": "human"}, {"kind": "human"}], take_seat=0, name="Ann")
        invite = next(s["token"] for s in t["seats"] if s["seat"] == 1)
        tables.append((t["id"], {0: t["seat_token"], 1: alpha.claim(t["id"], invite, "Ben")}))
    (kept, kept_secrets), (taken, taken_secrets) = tables
    for tid, secrets in tables:
        play_until_turn_of(alpha, tid, 1, secrets)
        play_until_turn_of(alpha, tid, 0, secrets)      # two tables with moves in them
    before = owners(cluster_db)
    assert {before[kept][0], before[taken][0]} == {"alpha"}
    alpha.kill9()
    alpha.start()                                       # the same name, nobody took over
    assert owners(cluster_db) == before                 # it holds both leases again
    at = {tid: view(alpha, tid)["version"] for tid, _ in tables}
    assert all(v >= 2 for v in at.values())
    beta = server_factory(cluster_db)
    beta.start_args = ["--node-name", "beta"]
    beta.start()
    with Watcher(beta, taken):          # a client on beta: beta takes "taken" over at once
        alpha.kill9()
        wait_for(lambda: owners(cluster_db).get(taken, ("",))[0] == "beta", seconds=10,
                 what="beta takes the table over")
        alpha.start()                                   # alpha again, under its name
        time.sleep(1.5)
        now = owners(cluster_db)
        assert now[taken][0] == "beta" and now[taken][1] > before[taken][1], now
        assert now[kept] in (before[kept], ("beta", before[kept][1] + 1)), now
        for tid, secrets in tables:     # both tables play on, through either node, once
            for node in (alpha, beta, alpha):
                v = view(node, tid)
                assert v["version"] >= at[tid], (tid, v["version"])
                who = v["current_seat"]
                mine = view(node, tid, secrets[who])
                status, r = node.request("POST", f"/api/tables/{tid}/actions",
                                         {"action": mine["legal_actions"][0],
                                          "version": v["version"]},
                                         headers={"X-Seat-Token": secrets[who]})
                assert status == 200 and r["version"] == v["version"] + 1, r
        assert owners(cluster_db)[taken][0] == "beta"
        with psycopg.connect(cluster_db) as conn:
            for tid, _ in tables:
                seqs = [r[0] for r in conn.execute(
                    "SELECT seq FROM dh_actions WHERE table_id = %s ORDER BY seq",
                    (tid,)).fetchall()]
                assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) == at[tid] + 3


def test_the_owner_refuses_a_relayed_move_whose_seat_secret_no_longer_opens_the_seat(
        nodes, cluster_db):
    """A follower node whose copy of the seats is behind (it has not heard of the
    re-invite yet) relays the old device's move: the owner checks the secret again."""
    one, two, three = nodes
    t = create(one, [{"kind": "human"}, {"kind": "human"}], take_seat=0, name="Ann")
    tid, ann = t["id"], t["seat_token"]
    invite = next(s["token"] for s in t["seats"] if s["seat"] == 1)
    ben = two.claim(tid, invite, "Ben")
    at = play_until_turn_of(one, tid, 1, {0: ann, 1: ben})
    move = view(two, tid, ben)["legal_actions"][0]
    status, r = one.request("POST", f"/api/tables/{tid}/seats/1/invite",
                            headers={"X-Admin-Token": t["admin"]})
    assert status == 200, r
    with psycopg.connect(cluster_db, autocommit=True) as conn:
        owner_key = conn.execute(
            "SELECT n.key FROM dh_owners o JOIN dh_nodes n ON n.name = o.node "
            "WHERE o.table_id = %s", (tid,)).fetchone()[0]
        conn.execute("LISTEN dh_node_7")            # this test plays a stale node, key 7
        for i, secret in enumerate((ben, None, "")):
            conn.execute("SELECT pg_notify(%s, %s)", (f"dh_node_{owner_key}", json.dumps({
                "id": f"probe{i}", "op": "submit", "t": tid, "from": 7, "n": "stale",
                "args": {"seat": 1, "text": move, "version": at, "secret": secret}})))
            reply = json.loads(next(conn.notifies(timeout=10, stop_after=1)).payload)
            assert reply["id"] == f"probe{i}" and reply["status"] == 403, reply
            assert reply["err"]["error"] == "bad_token", reply
    for node in nodes:
        v = view(node, tid)
        assert (v["version"], v["current_seat"]) == (at, 1), (node.port, v)
    ben = three.claim(tid, r["token"], "Ben")           # the new device moves, once
    status, played = two.request("POST", f"/api/tables/{tid}/actions",
                                 {"action": move, "version": at},
                                 headers={"X-Seat-Token": ben})
    assert status == 200 and played["version"] == at + 1, played
