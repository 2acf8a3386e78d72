"""kill -9 the real server mid-game, start it again: every table resumes, bots included,
and no bot worker process outlives the killed server."""

from __future__ import annotations

import random
import time

import pytest

from .conftest import Watcher, alive, children_of
from .helpers import play_humans

# three short rounds: one round could end (a first-turn chain empties a hand) before the
# six moves the test makes ahead of the crash
SHORT_MT = {"set_max": 6, "hand_size": 5, "rounds": 3}


def crash_and_resume(server_factory, db: str) -> None:
    rng = random.Random(11)
    server = server_factory(db, threads=False).start()       # bots in worker processes
    status, t = server.request("POST", "/api/tables", {
        "game": "mexican_train", "options": SHORT_MT, "ready_seconds": 0,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
                  {"kind": "human", "name": "Ben"}, {"kind": "bot", "bot": "random"}],
        "away_seconds": 3600})
    assert status == 201, t
    _, bots_only = server.request("POST", "/api/tables", {
        "game": "mexican_train", "seed": 4,      # a chosen seed: fine at an all-bot table
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]})
    tid = t["id"]
    tokens = {0: server.claim(tid, t["seats"][0]["token"], "Ann"),
              2: server.claim(tid, t["seats"][2]["token"], "Ben")}
    ann = tokens[0]
    with Watcher(server, tid), Watcher(server, bots_only["id"]):
        assert play_humans(server, tid, tokens, 6, rng)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            _, bot_before = server.request("GET", f"/api/tables/{bots_only['id']}/view")
            if bot_before["version"] >= 2:
                break
            time.sleep(0.05)
    _, before = server.request("GET", f"/api/tables/{tid}/view?token={ann}")
    assert before["version"] >= 6 and not before["is_over"] and not bot_before["is_over"]
    assert server.proc is not None
    workers = children_of(server.proc.pid)
    assert workers, "bots think in worker processes"
    server.kill9()
    deadline = time.monotonic() + 15        # the workers follow their server
    while time.monotonic() < deadline and any(alive(p) for p in workers):
        time.sleep(0.1)
    assert not [p for p in workers if alive(p)], "bot workers outlived the killed server"
    server.start()                                  # same port, same database
    watchers = [Watcher(server, tid), Watcher(server, bots_only["id"])]
    _, after = server.request("GET", f"/api/tables/{tid}/view?token={ann}")
    assert after["hand"] == before["hand"] and after["version"] >= before["version"]
    assert after["log"][:len(before["log"])] == before["log"]
    deadline = time.monotonic() + 60                # the bot-only table goes on by itself
    while time.monotonic() < deadline:
        _, bot_after = server.request("GET", f"/api/tables/{bots_only['id']}/view")
        if bot_after["version"] > bot_before["version"] + 3 or bot_after["is_over"]:
            break
        time.sleep(0.1)
    assert bot_after["version"] > bot_before["version"]
    while play_humans(server, tid, tokens, 1, rng):  # the same table, to the end
        pass
    _, v = server.request("GET", f"/api/tables/{tid}/view")
    assert v["winners"] and any(e["type"] == "game_end" for e in v["log"])
    for w in watchers:
        w.close()


def test_kill_9_and_restart_resumes_every_table_sqlite(server_factory):
    crash_and_resume(server_factory, None)


@pytest.mark.usefixtures("pg_url")
def test_kill_9_and_restart_resumes_every_table_postgres(server_factory, pg_url):
    crash_and_resume(server_factory, pg_url)
