"""kill -9 the real server mid-game, start it again: every table resumes, bots included."""

from __future__ import annotations

import random
import time

import pytest

SHORT_MT = {"set_max": 6, "hand_size": 5, "rounds": 1}


def play_humans(server, tid: str, tokens: dict[int, str], moves: int,
                rng: random.Random) -> bool:
    """Play `moves` actions of the human seats (bots play the rest); False once it is over."""
    played = 0
    deadline = time.monotonic() + 60
    while played < moves:
        assert time.monotonic() < deadline, "the table stopped moving"
        _, v = server.request("GET", f"/api/tables/{tid}/view")
        if v["is_over"]:
            return False
        seat = v["current_seat"]
        if seat not in tokens:
            time.sleep(0.02)                    # a bot's turn
            continue
        _, mine = server.request("GET", f"/api/tables/{tid}/view?token={tokens[seat]}")
        if not mine["legal_actions"]:
            continue
        status, r = server.request("POST", f"/api/tables/{tid}/actions", {
            "action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
            headers={"X-Seat-Token": tokens[seat]})
        if status == 409:                       # a bot moved in between
            continue
        assert status == 200, r
        played += 1
    return True


def crash_and_resume(server_factory, db: str) -> None:
    rng = random.Random(11)
    server = server_factory(db, threads=False).start()       # bots in worker processes
    status, t = server.request("POST", "/api/tables", {
        "game": "mexican_train", "options": SHORT_MT, "seed": 21, "ready_seconds": 0,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
                  {"kind": "human", "name": "Ben"}, {"kind": "bot", "bot": "random"}],
        "away_seconds": 3600})
    assert status == 201, t
    _, bots_only = server.request("POST", "/api/tables", {
        "game": "mexican_train", "seed": 4,
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]})
    tid = t["id"]
    tokens = {0: t["seats"][0]["token"], 2: t["seats"][2]["token"]}
    ann = tokens[0]
    assert play_humans(server, tid, tokens, 6, rng)
    _, before = server.request("GET", f"/api/tables/{tid}/view?token={ann}")
    _, bot_before = server.request("GET", f"/api/tables/{bots_only['id']}/view")
    assert before["version"] >= 6 and not before["is_over"] and not bot_before["is_over"]
    server.kill9()
    server.start()                                  # same port, same database
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


def test_kill_9_and_restart_resumes_every_table_sqlite(server_factory):
    crash_and_resume(server_factory, None)


@pytest.mark.usefixtures("pg_url")
def test_kill_9_and_restart_resumes_every_table_postgres(server_factory, pg_url):
    crash_and_resume(server_factory, pg_url)
