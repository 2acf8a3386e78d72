"""Websocket players for tests with several real nodes (the cluster's and the deploy
recipe's): a seat or spectator in a thread, the leak scan, acknowledged actions."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator

from dominohall.engine import replay

from .helpers import tiles_mentioned


class WsPlayer:
    """A seat (or a spectator) on one node's websocket, in a thread: it plays its seat's
    turns from the messages it gets (a random legal action; 'end' when it may), keeps
    every message, and notes which of its actions the table acknowledged (a state after
    the version it played at, with no refusal in between)."""

    def __init__(self, node, tid: str, token: str | None = None, seed: int = 0,
                 play: bool = True, others: tuple = ()) -> None:
        self.node, self.tid, self.token, self.play = node, tid, token, play
        self.others = list(others)          # where it reconnects when its node is gone
        self.reconnects = 0
        self.rng = random.Random(seed)
        self.messages: list[dict] = []
        self.acked: list[tuple[int, str]] = []      # (version played at, action)
        self.refused: list[dict] = []
        self.sent: tuple[int, str] | None = None
        self.last: dict | None = None           # the latest view
        self.done = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def url(self) -> str:
        q = f"?token={self.token}" if self.token else ""
        return f"ws://127.0.0.1:{self.node.port}/ws/{self.tid}{q}"

    def run(self) -> None:
        from websockets.sync.client import connect

        while not self.stop.is_set() and not self.done.is_set():
            try:
                with connect(self.url(), open_timeout=10) as ws:
                    self.session(ws)
            except Exception:                          # the node went away: reconnect
                self.sent = None                # an action unanswered is not acknowledged
                if self.others:                 # (a load balancer picks a live node)
                    self.others.append(self.node)
                    self.node = self.others.pop(0)
                self.reconnects += 1
                time.sleep(0.2)

    def session(self, ws) -> None:
        while not self.stop.is_set():
            try:
                text = ws.recv(timeout=0.5)
            except TimeoutError:
                continue
            m = json.loads(text)
            self.messages.append(m)
            if m["type"] == "error":
                self.sent = None
                self.refused.append(m)
                if m.get("code") != "stale" and self.last is not None:
                    time.sleep(0.2)             # (a node going away): play again
                    self.act(ws, self.last)
                continue
            if m["type"] != "state":
                continue
            view = m["view"]
            if self.sent is not None and view["version"] > self.sent[0]:
                self.acked.append(self.sent)
                self.sent = None
            if view["is_over"]:
                self.done.set()
                return
            self.last = view
            if self.sent is None:
                self.act(ws, view)

    def act(self, ws, view: dict) -> None:
        if self.play and view["legal_actions"]:
            legal = view["legal_actions"]
            action = "end" if "end" in legal else self.rng.choice(legal)
            self.sent = (view["version"], action)
            ws.send(json.dumps({"type": "action", "version": view["version"],
                                "action": action}))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)

    @contextlib.contextmanager
    def closing(self) -> Iterator[WsPlayer]:
        try:
            yield self
        finally:
            self.close()


def leaks(record: dict, seat: int | None, messages: list[dict]) -> list[str]:
    """Tiles of other hands that `seat` was sent (each state checked against the hands
    as they stood at its version, from the finished match's record)."""
    found = []
    games: dict[int, object] = {}
    for m in messages:
        if m["type"] != "state":
            continue
        v = m["view"]["version"]
        if v not in games:
            games[v] = replay({**record, "actions": record["actions"][:v]})
        g = games[v]
        others = set()
        for s in range(g.players):
            if s != seat:
                others |= {t for t in g.view(s)["hand"] or []}
        bad = tiles_mentioned(m) & {tiles_canon(t) for t in others}
        if bad:
            found.append(f"version {v}: {sorted(bad)}")
    return found


def tiles_canon(t: str) -> str:
    a, b = t.split("-")
    return f"{max(int(a), int(b))}-{min(int(a), int(b))}"


def check_acknowledged(record: dict, players: list[WsPlayer]) -> int:
    """Every acknowledged action is in the record at its version; returns how many."""
    n = 0
    for p in players:
        for version, action in p.acked:
            assert record["actions"][version] == action, (version, action)
            n += 1
    return n
