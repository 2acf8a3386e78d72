"""What a server allows: :class:`Limits` (``serve --limit NAME=VALUE``), the per-address
:class:`RateLimiter`, and the :class:`FairQueue` that shares the bot workers between
tables."""

from __future__ import annotations

import asyncio
import collections
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, fields


@dataclass
class Limits:
    """What one server allows; every field can be set with ``serve --limit NAME=VALUE``.

    Rates are per client address and per minute (a burst of the same size is allowed).
    """

    create_per_minute: int = 20         # tables created
    join_per_minute: int = 60           # seats claimed / renamed
    connect_per_minute: int = 120       # websocket handshakes
    max_tables: int = 1000              # live tables on the server
    conns_per_table: int = 100          # websockets on one table (seats and spectators)
    conns_per_address: int = 60         # websockets from one address
    tables_per_address: int = 20        # live tables of any kind created from one address
    bot_tables_per_address: int = 4     # live all-bot tables created from one address
    strong_bots_per_address: int = 8    # live searching-bot seats (pimc, deep; by BOT_COST)
    replays_per_minute: int = 20        # POST /api/replay (and a table's replay) per address
    hints_per_minute: int = 12          # hints asked by one seat of one table
    idle_seconds: int = 6 * 3600        # a table nobody is connected to expires after this
    unstarted_seconds: int = 600        # ... one that never saw a move or a second human
    finished_seconds: int = 600         # a finished table stays in memory this long
    again_seconds: int = 60             # Play again: seats reserved for their players

    @classmethod
    def parse(cls, items: list[str]) -> Limits:
        """From ``NAME=VALUE`` texts; ValueError names a bad one."""
        names = {f.name for f in fields(cls)}
        out = cls()
        for item in items:
            name, _, value = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in names:
                raise ValueError(f"unknown limit {name!r} (one of {', '.join(sorted(names))})")
            if not value.strip().isdigit():
                raise ValueError(f"{name}: a whole number >= 0, not {value!r}")
            setattr(out, name, int(value))
        return out


def address_key(address: str) -> str:
    """The address limits count by: an IPv6 address's /64 network (one subscriber's
    block; an attacker picks any of its 2**64 addresses), an IPv4 address (also one
    mapped into IPv6) as itself.

    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("::ffff:10.0.0.7")
    ('2001:db8:1:2::/64', '10.0.0.7')
    """
    if ":" not in address:              # IPv4 (or a name, from a test client)
        return address
    try:
        packed = socket.inet_pton(socket.AF_INET6, address.split("%", 1)[0])
    except (OSError, ValueError):
        return address
    if packed[:12] == _V4_MAPPED:
        return socket.inet_ntop(socket.AF_INET, packed[12:])
    return socket.inet_ntop(socket.AF_INET6, packed[:8] + bytes(8)) + "/64"


_V4_MAPPED = bytes(10) + b"\xff\xff"


class RateLimiter:
    """Token buckets per (what, address): `per_minute` tokens a minute, as a burst too.

    A bucket untouched for a minute is full again, the same as none: such buckets are
    forgotten, oldest first, a few at each check, so memory follows the addresses of the
    last minute and a check costs O(1) however many addresses were ever seen.
    """

    #: seconds after which an untouched bucket has refilled (per_minute a minute)
    FORGET_AFTER = 60.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.buckets: collections.OrderedDict[tuple[str, str], tuple[float, float]] = (
            collections.OrderedDict())

    def check(self, what: str, address: str, per_minute: int) -> float:
        """0 if allowed (and counted), else the seconds to wait."""
        now = self.clock()
        self.forget(now)
        if per_minute <= 0:
            return 0.0
        key = (what, address_key(address))
        tokens, at = self.buckets.pop(key, (float(per_minute), now))
        tokens = min(float(per_minute), tokens + (now - at) * per_minute / 60)
        if tokens < 1:
            self.buckets[key] = (tokens, now)        # the newest, at the end
            return (1 - tokens) * 60 / per_minute
        self.buckets[key] = (tokens - 1, now)
        return 0.0

    def forget(self, now: float, most: int = 4) -> None:
        """Drop up to `most` buckets untouched for FORGET_AFTER seconds (the oldest are
        first: each check moves its bucket to the end)."""
        for _ in range(most):
            if not self.buckets:
                return
            key, (_tokens, at) = next(iter(self.buckets.items()))
            if now - at < self.FORGET_AFTER:
                return
            del self.buckets[key]


#: FairQueue priorities: a bot's move where a seated player is connected, one watched
#: only by spectators, and the work nobody's turn waits on (hints, replays of records,
#: post-game analyses): it only gets a worker that no move is waiting for
MOVE, WATCHED, BACKGROUND = 0, 1, 2


class FairQueue:
    """The bot workers, shared between tables: a table waits its turn in FIFO order
    (each table has at most one bot thinking or waiting, so FIFO is round-robin), and
    tables where a seated player is connected go before tables watched only by
    spectators, and both before hints, replays and post-game analyses (BACKGROUND)."""

    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        self.waiting: tuple[collections.deque[asyncio.Future[None]], ...] = (
            collections.deque(), collections.deque(), collections.deque())
        #: background work holds at most all workers but one (a replay or a hint takes
        #: a worker for a while: a move must always find one free soon)
        self.background_cap = max(1, slots - 1)
        self.background = asyncio.Semaphore(self.background_cap)

    async def acquire(self, priority: int) -> None:
        """Wait for a worker; pair it with ``release(priority)``."""
        if priority == BACKGROUND:
            await self.background.acquire()
        try:
            await self._acquire(priority)
        except BaseException:
            if priority == BACKGROUND:
                self.background.release()
            raise

    async def _acquire(self, priority: int) -> None:
        if self.free > 0 and not any(self.waiting):
            self.free -= 1
            return
        fut = asyncio.get_running_loop().create_future()
        self.waiting[priority].append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self._release()         # it was handed a slot just as it was cancelled
            raise

    def release(self, priority: int | None = None) -> None:
        """Give the worker back (``priority``: the one it was acquired with)."""
        self._release()
        if priority == BACKGROUND:
            self.background.release()

    def _release(self) -> None:
        for queue in self.waiting:
            while queue:
                fut = queue.popleft()
                if not fut.done():
                    fut.set_result(None)
                    return
        self.free += 1
