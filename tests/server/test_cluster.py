"""Several `dominohall serve --db postgresql://...` processes on one database: one cluster.

Each test starts real server processes on the test PostgreSQL (DOMINOHALL_TEST_PG_DSN);
nothing is simulated in-process."""

from __future__ import annotations

import time

import pytest

SHORT_MT = {"set_max": 6, "hand_size": 7, "rounds": 1}


@pytest.fixture()
def nodes(pg_url, server_factory):
    """Three nodes of one cluster (started one after another on one database)."""
    return [server_factory(pg_url).start() for _ in range(3)]


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
