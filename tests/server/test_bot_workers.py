"""The bots' worker processes: one killed (out of memory, an operator's kill -9) is
replaced, and the move it took with it is made again; the table never waits forever."""

from __future__ import annotations

import os
import pathlib
import signal
import time

from .conftest import Watcher, alive, children_of

SHORT_MT = {"set_max": 6, "hand_size": 7, "rounds": 1}


def bot_workers(pid: int) -> list[int]:
    """The server's bot worker processes (spawned multiprocessing children)."""
    out = []
    for child in children_of(pid):
        cmd = pathlib.Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        if b"spawn_main" in cmd and alive(child):
            out.append(child)
    return out


def latest_version(w: Watcher) -> int:
    states = [m for m in w.messages if m["type"] == "state"]
    return states[-1]["view"]["version"] if states else -1


def test_a_killed_bot_worker_is_replaced_and_the_table_plays_to_the_end(server_factory):
    server = server_factory(threads=False, bot_delay=0.15).start()  # one worker process
    status, t = server.request("POST", "/api/tables", {
        "game": "mexican_train", "options": SHORT_MT, "ready_seconds": 0,
        "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]})
    assert status == 201, t
    with Watcher(server, t["id"]) as w:
        deadline = time.monotonic() + 30
        while latest_version(w) < 2 or not bot_workers(server.proc.pid):
            assert time.monotonic() < deadline, latest_version(w)
            time.sleep(0.05)
        killed = bot_workers(server.proc.pid)
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        at_kill = latest_version(w)
        deadline = time.monotonic() + 60
        while not any(m["type"] == "state" and m["view"]["is_over"] for m in w.messages):
            assert time.monotonic() < deadline, (
                f"stuck at version {latest_version(w)} (killed at {at_kill})")
            time.sleep(0.1)
        assert latest_version(w) > at_kill + 1
        replaced = bot_workers(server.proc.pid)
    assert replaced and not set(replaced) & set(killed), (killed, replaced)
    assert server.proc.poll() is None
    assert "a worker process died" in server.log_path.read_text()
