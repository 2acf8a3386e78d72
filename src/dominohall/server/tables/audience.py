"""A table's audience on this node: its websocket connections and what each is sent.

The :class:`Audience` knows nothing of rules or storage: it is handed a table (anything
with ``game`` and ``version``: the owner's core or a follower's copy) and the table info
of the moment, and turns each event of the table into messages, per seat: a seat's
``state`` carries only ``game.view(seat)`` (spectators ``view(None)``) and the log events
that connection does not have yet, built once per (seat, first event) however many
connections share them.
"""

from __future__ import annotations

import asyncio
import collections
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...engine import Game
from .. import protocol

MAX_QUEUE = 256         # messages waiting for one slow client before it is dropped


class Viewed(Protocol):
    game: Game


@dataclass(eq=False)
class Connection:
    """One websocket: its seat (None: spectator) and its outgoing queue."""

    seat: int | None
    address: str = ""
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    sent_log: int = 0           # log events this connection already has
    closed: bool = False
    lang: str = "en"            # its player's language (hints are said in it)
    secret: str | None = None   # the seat secret it opened its seat with

    def send(self, text: str | None) -> None:
        """Queue a message; None (or a stuck client's full queue) closes the connection."""
        if self.closed:
            return
        if text is None or self.queue.qsize() >= MAX_QUEUE:
            self.closed = True
            text = None
        self.queue.put_nowait(text)


class Audience:
    """The connections of one table on this node."""

    def __init__(self) -> None:
        self.conns: set[Connection] = set()

    def __len__(self) -> int:
        return len(self.conns)

    def __bool__(self) -> bool:
        return bool(self.conns)

    def add(self, conn: Connection) -> None:
        self.conns.add(conn)

    def remove(self, conn: Connection) -> bool:
        """Forget `conn`; False if it was not here."""
        if conn not in self.conns:
            return False
        self.conns.discard(conn)
        return True

    def seats(self) -> collections.Counter[int | None]:
        """Connections per seat (None: spectators)."""
        return collections.Counter(c.seat for c in self.conns)

    def has_seat(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    # --- messages ------------------------------------------------------------------------

    @staticmethod
    def state_message(table: Viewed, conn: Connection, views: dict[int | None, dict[str, Any]],
                      cache: dict[tuple[int | None, int], str], info: dict[str, Any]) -> str:
        seat = conn.seat
        view = views.get(seat)
        if view is None:
            view = views[seat] = table.game.view(seat)
        log_ = view["log"]
        start = conn.sent_log if conn.sent_log <= len(log_) else 0
        key = (seat, start)
        text = cache.get(key)
        if text is None:
            body = {k: v for k, v in view.items() if k != "log"}
            text = cache[key] = protocol.dumps({"type": "state", "view": body, "log_start": start,
                                                "events": log_[start:], "table": info})
        conn.sent_log = len(log_)
        return text

    def send_state(self, table: Viewed, conn: Connection, info: dict[str, Any]) -> None:
        """The whole table to one connection (its first message, or after a gap)."""
        conn.sent_log = 0
        conn.send(self.state_message(table, conn, {}, {}, info))

    def broadcast_state(self, table: Viewed, info: dict[str, Any]) -> None:
        """A new version: each connection its seat's view and the events it lacks."""
        views: dict[int | None, dict[str, Any]] = {}
        cache: dict[tuple[int | None, int], str] = {}
        for conn in list(self.conns):
            conn.send(self.state_message(table, conn, views, cache, info))

    def broadcast_table(self, info: dict[str, Any], but: Connection | None = None) -> None:
        text = protocol.dumps({"type": "table", "table": info})
        for conn in list(self.conns):
            if conn is not but:
                conn.send(text)

    def send_all(self, text: str) -> None:
        """One message to every connection (Play again's notice)."""
        for conn in list(self.conns):
            conn.send(text)

    def revoke(self, seat: int, message: str) -> None:
        """A re-invited seat: its connections are told, then closed."""
        for conn in list(self.conns):
            if conn.seat == seat:
                conn.send(message)
                conn.send(None)

    def close_all(self) -> None:
        for conn in list(self.conns):
            conn.send(None)
