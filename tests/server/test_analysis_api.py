""""Analyse this match" (issue 22): never before the match is over, worked out once in
the bot pool, the same analysis as `dominohall analyze` gives the record."""

from __future__ import annotations

import json
import random
import time

import pytest

from dominohall.analysis import review
from dominohall.server import analysis as server_analysis
from dominohall.server.tables.limits import FairQueue

from .conftest import in_process_app
from .helpers import create, hub, recv

BLOCK = {"hands": 1}


@pytest.fixture()
def client(tmp_path):
    server_analysis.JOBS.clear()
    with in_process_app(tmp_path) as c:
        yield c
    server_analysis.JOBS.clear()


def _play_out(client, tid, tokens, before_each=None):
    room = hub(client).tables[tid]
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as w1:
        socks = {0: w0, 1: w1}
        views = {0: recv(w0)["view"], 1: recv(w1)["view"]}
        while not room.game.is_over:
            if before_each:
                before_each()
            seat = room.game.current_seat
            v = views[seat]
            socks[seat].send_text(json.dumps({"type": "action", "version": v["version"],
                                              "action": rng.choice(v["legal_actions"])}))
            for s, w in socks.items():
                views[s] = recv(w)["view"]
    return room


def _refused_before_the_end(client, tid, tokens, asked):
    # POST is limited to 30 a minute per address, refusals included: ask it on the first
    # ten moves only (20 posts), so a long deal cannot spend the final request's allowance
    asked[0] += 1
    for headers in ({}, {"Cookie": ""}):
        r = client.get(f"/api/tables/{tid}/analysis", headers=headers)
        assert r.status_code == 409 and r.json()["code"] == "analysis_not_ready", r.text
        assert "tiles" not in r.text and "values" not in r.text
        if asked[0] > 10:
            continue
        r = client.post(f"/api/tables/{tid}/analysis", json={}, headers=headers)
        assert r.status_code == 409 and r.json()["code"] == "analysis_not_ready", r.text
    assert tid not in server_analysis.JOBS


def _wait_done(client, tid, timeout=120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r = client.get(f"/api/tables/{tid}/analysis")
        assert r.status_code == 200, r.text
        if r.json()["status"] == "done":
            return r.json()
        assert r.json()["status"] == "running"
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def test_the_analysis_is_refused_until_the_match_is_over_then_worked_out_once(client):
    t = create(client, game="block", options=BLOCK)
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    asked = [0]
    room = _play_out(client, tid, tokens,
                     before_each=lambda: _refused_before_the_end(client, tid, tokens, asked))
    assert client.get(f"/api/tables/{tid}/analysis").json() == {
        "status": "none", "done": 0, "total": 0}
    r = client.post(f"/api/tables/{tid}/analysis", json={})   # a spectator may ask
    assert r.status_code == 202 and r.json()["status"] in ("running", "done")
    done = _wait_done(client, tid)
    record = client.get(f"/api/tables/{tid}/record").json()
    expected = review.analyse(record, settings=review.settings_for("block"))
    assert done["analysis"] == json.loads(json.dumps(expected.as_dict()))
    assert done["done"] == done["total"] == len(expected.decisions) > 0
    assert record["actions"] == room.game.actions
    # asked again: the same result, no new work
    job = server_analysis.JOBS[tid]
    again = client.post(f"/api/tables/{tid}/analysis", json={}, headers={
        "Cookie": f"dh_seat_{tid}={tokens[0]}"})
    assert again.status_code == 202 and again.json() == done
    assert server_analysis.JOBS[tid] is job


def test_the_analysis_is_stored_with_the_table_and_served_after_a_restart(tmp_path):
    server_analysis.JOBS.clear()
    with in_process_app(tmp_path) as client:
        t = create(client, game="block", options=BLOCK)
        tid, tokens = t["id"], [s["token"] for s in t["seats"]]
        _play_out(client, tid, tokens)
        assert client.post(f"/api/tables/{tid}/analysis").status_code == 202
        done = _wait_done(client, tid)
        assert server_analysis.load(hub(client).store, tid) == done["analysis"]
    server_analysis.JOBS.clear()                 # a new process knows nothing of it
    with in_process_app(tmp_path) as client:
        calls = []
        real = hub(client).bots.run
        hub(client).bots.run = lambda *a: calls.append(a) or real(*a)
        again = client.get(f"/api/tables/{tid}/analysis")
        assert again.status_code == 200 and again.json() == done
        assert client.post(f"/api/tables/{tid}/analysis").json() == done
        assert calls == []                       # served from the database, no search
    server_analysis.JOBS.clear()


def test_unknown_tables_are_404_and_floods_are_rate_limited(client):
    assert client.get("/api/tables/nope/analysis").status_code == 404
    assert client.post("/api/tables/nope/analysis", json={}).status_code == 404
    t = create(client, game="block", options=BLOCK)
    codes = [client.post(f"/api/tables/{t['id']}/analysis", json={}).status_code for _ in range(40)]
    assert set(codes) <= {409, 429} and 429 in codes


def test_analyses_wait_behind_every_move_in_the_bot_queue():
    import asyncio

    async def go() -> list[str]:
        q = FairQueue(1)
        await q.acquire(0)                # a worker busy
        order: list[str] = []

        async def wait(p: int, name: str) -> None:
            await q.acquire(p)
            order.append(name)
            q.release()

        tasks = [asyncio.create_task(wait(2, "analysis")),
                 asyncio.create_task(wait(1, "watched move")),
                 asyncio.create_task(wait(0, "seated move"))]
        await asyncio.sleep(0)
        q.release()
        await asyncio.gather(*tasks)
        return order

    assert asyncio.run(go()) == ["seated move", "watched move", "analysis"]
