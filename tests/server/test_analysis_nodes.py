"""The analysis on two `dominohall serve` processes on one PostgreSQL (issue 22): refused
on every node before the end; worked out once on the node asked, then every node serves
the stored result, the same as `dominohall analyze` gives the record."""

from __future__ import annotations

import json
import time

from dominohall.analysis import review

from .cluster_players import WsPlayer


def test_an_analysis_worked_out_on_one_node_is_served_by_the_other(cluster_db,
                                                                    server_factory):
    one, two = (server_factory(cluster_db).start() for _ in range(2))
    status, t = one.request("POST", "/api/tables", {
        "game": "block", "options": {"hands": 1}, "ready_seconds": 0,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    assert status == 201, t
    tid = t["id"]
    for node in (one, two):
        for method in ("GET", "POST"):
            status, body = node.request(method, f"/api/tables/{tid}/analysis")
            assert status == 409 and body["code"] == "analysis_not_ready", (node.port, body)
    ann = two.claim(tid, t["seats"][0]["token"], "Ann")
    player = WsPlayer(two, tid, ann, seed=4)
    try:
        deadline = time.monotonic() + 120
        while not player.done.is_set():
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        player.close()
    status, started = two.request("POST", f"/api/tables/{tid}/analysis")
    assert status == 202 and started["status"] in ("running", "done"), started
    deadline = time.monotonic() + 120
    while True:
        status, got = two.request("GET", f"/api/tables/{tid}/analysis")
        assert status == 200, got
        if got["status"] == "done":
            break
        assert got["status"] == "running" and time.monotonic() < deadline
        time.sleep(0.2)
    status, record = one.request("GET", f"/api/tables/{tid}/record")
    expected = json.loads(json.dumps(review.analyse(record).as_dict()))
    assert got["analysis"] == expected
    status, other = one.request("GET", f"/api/tables/{tid}/analysis")   # never asked there
    assert status == 200 and other == got
