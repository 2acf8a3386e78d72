"""Table chat over the websocket on two server processes (nodes) over one PostgreSQL: a
phrase said on node 1 reaches a player connected to node 2, in that player's language,
and a spectator on node 2 never sees the players' channel (nor a player the spectators')."""

from __future__ import annotations

import json
import time

from websockets.sync.client import connect

from .conftest import Server
from .helpers import SHORT_MT


def chats(ws, want: int, seconds: float = 20.0) -> list[dict]:
    """The chat messages `ws` receives until it has `want` (or the time is up)."""
    out: list[dict] = []
    deadline = time.monotonic() + seconds
    while len(out) < want and time.monotonic() < deadline:
        try:
            m = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            break
        if m["type"] == "chat":
            out.append(m["message"])
    return out


def test_a_phrase_said_on_node_1_reaches_a_player_on_node_2(pg_url, tmp_path):
    for node in ("a", "b"):
        (tmp_path / node).mkdir()
    one = Server(pg_url, tmp_path / "a").start()
    two = Server(pg_url, tmp_path / "b").start()
    try:
        status, t = one.request("POST", "/api/tables", {
            "game": "mexican_train", "options": SHORT_MT, "ready_seconds": 0,
            "seats": [{"kind": "human"}, {"kind": "human"}], "take_seat": 0, "name": "Ann"})
        assert status == 201, t
        tid, ann = t["id"], t["seat_token"]
        ben = two.claim(tid, t["seats"][1]["token"], "Ben")
        base = f"ws://127.0.0.1:{two.port}/ws/{tid}"
        with connect(f"{base}?token={ben}&lang=ru", open_timeout=10) as player, \
                connect(f"{base}?lang=en", open_timeout=10) as watcher:
            time.sleep(0.5)
            status, out = one.request("POST", f"/api/tables/{tid}/chat",
                                      {"phrase": "well_played"}, {"X-Seat-Token": ann})
            assert status == 201, out
            [m] = chats(player, 1)
            assert m["text"] == "Хорошо сыграно" and m["phrase"] == "well_played"
            assert m["seat"] == 0 and m["name"] == "Ann" and m["id"] == out["id"]
            # a spectator (on node 1) talks to spectators only
            status, _ = one.request("POST", f"/api/tables/{tid}/chat", {"phrase": "oops"})
            assert status == 201
            [s] = chats(watcher, 1)
            assert s["text"] == "Oops" and s["seat"] is None
            assert "Хорошо" not in json.dumps(s)
            assert chats(player, 1, seconds=2) == []        # not the spectators' message
    finally:
        one.stop()
        two.stop()
