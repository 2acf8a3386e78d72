"""The node: its live tables (cores it owns), their audiences here, the store (used from a
small pool of threads), the bot pool and the directory.

On start the hub rebuilds every live table its directory says it owns with
:func:`dominohall.replay` (finished and expired tables stay stored, not loaded); a
finished or expired table asked for later is read back from the store into a small
archive.  A table nobody is connected to expires after ``Limits.idle_seconds``; a
finished one leaves memory after ``Limits.finished_seconds``.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import json
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from .. import protocol
from ..protocol import Rejected
from ..store import Store, StoredTable, StoreError
from ..store.sql import EXPIRED
from . import again
from . import spec as specs
from .audience import Audience, Connection
from .bots import BotPool
from .core import HERE, TableCore
from .directory import Cluster, Directory, LocalDirectory
from .limits import Limits, RateLimiter
from .state import SETTINGS_RANGES, TableState

log = logging.getLogger("dominohall.server")


@dataclass
class Successor:
    """Play again's answer: the next table, and the caller's seat and secret there."""

    id: str
    admin: str | None
    seat: int | None
    secret: str | None


class Here:
    """A core's events, to this node's connections to its table (if any)."""

    def __init__(self, hub: Hub, table_id: str) -> None:
        self.hub, self.table_id = hub, table_id

    def on_state(self, table: TableCore, info: dict[str, Any]) -> None:
        audience = self.hub.audiences.get(self.table_id)
        if audience is not None:
            audience.broadcast_state(table, info)

    def on_table(self, info: dict[str, Any], but: Any = None) -> None:
        audience = self.hub.audiences.get(self.table_id)
        if audience is not None:
            audience.broadcast_table(info, but)

    def on_revoke(self, seat: int, message: str) -> None:
        audience = self.hub.audiences.get(self.table_id)
        if audience is not None:
            audience.revoke(seat, message)


def unstarted(core: TableCore) -> bool:
    """A table that never saw a move nor a second person in its seats: nobody's game is
    lost when it goes, so it expires after ``unstarted_seconds`` unwatched, not
    ``idle_seconds`` (tables made by the thousand to fill the server go quickly)."""
    moved = any(not a.startswith("top ") for a in core.game.actions)
    seated = sum(1 for s in core.seats if s.kind == "human" and s.secret)
    return not moved and seated <= 1


class Hub:
    """Every table of one server process (node), the store and the bot pool."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, bot_workers: int = 2,
                 bot_processes: bool = True, limits: Limits | None = None,
                 db_threads: int = 4, directory: Directory | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.limiter = RateLimiter()
        self.directory: Directory = directory or LocalDirectory(store)
        #: this node's part in a cluster (PostgreSQL), or None (one node)
        self.cluster: Cluster | None = None
        #: the live tables this node owns
        self.tables: dict[str, TableCore] = {}
        #: finished or expired tables read back from the store (most recent last)
        self.archive: collections.OrderedDict[str, TableCore] = collections.OrderedDict()
        #: this node's connections, per table
        self.audiences: dict[str, Audience] = {}
        self.conns_by_address: collections.Counter[str] = collections.Counter()
        self._closing = False
        self.sweeper: asyncio.Task[None] | None = None
        # several threads: one slow or locked write holds up only its own table
        self.db_pool = concurrent.futures.ThreadPoolExecutor(max(1, db_threads),
                                                             thread_name_prefix="dh-db")
        self.bots = BotPool(bot_workers, bot_processes)
        #: called with a table's core when its match ends on this node (quick play's ratings)
        self.match_listeners: list[Any] = []
        #: the store calls failing now: each is logged when it starts and stops failing
        self.db_failing: set[str] = set()

    @property
    def closing(self) -> bool:
        return self._closing

    @property
    def bot_pool(self) -> concurrent.futures.Executor:
        return self.bots.executor

    @property
    def bot_queue(self) -> Any:
        return self.bots.queue

    async def run_db(self, fn: Any, *args: Any, **kw: Any) -> Any:
        """`fn` in a database thread; any database failure becomes a StoreError."""
        loop = asyncio.get_running_loop()
        name = getattr(fn, "__name__", str(fn))
        try:
            result = await loop.run_in_executor(self.db_pool, lambda: fn(*args, **kw))
        except StoreError:
            raise
        except Exception as err:
            if name not in self.db_failing:     # once while it keeps failing (a full disk)
                self.db_failing.add(name)
                log.warning("database: %s failed: %r", name, err)
            raise StoreError(f"the database is not reachable ({type(err).__name__})") from err
        if name in self.db_failing:
            self.db_failing.discard(name)
            log.warning("database: %s works again", name)
        return result

    def lease_lost(self, table: TableCore) -> None:
        """Another node took `table` over: this node follows it from now on."""
        if self.cluster is not None:
            self.cluster.demote_soon(table)

    async def shared_hint(self, key: tuple[str, int, int, str]) -> tuple[str, str] | None:
        """A hint another node of the cluster worked out already (None: one node)."""
        if self.cluster is None:
            return None
        try:
            return await self.run_db(self.cluster.hint_get, key)  # type: ignore[attr-defined,no-any-return]
        except StoreError:
            return None

    async def keep_hint(self, key: tuple[str, int, int, str], result: tuple[str, str]) -> None:
        """A hint worked out here, for every node of the cluster."""
        if self.cluster is not None:
            try:
                await self.run_db(self.cluster.hint_put, key, result)  # type: ignore[attr-defined]
            except StoreError:
                pass

    async def think(self, table: TableCore, name: str, game: str, seed: int,
                    view: dict[str, Any]) -> str:
        """One bot decision, when the fair queue gives this table a worker."""
        return await self.bots.move(0 if table.presence.seated else 1, name, game, seed, view)

    # --- the node's life -----------------------------------------------------------------

    async def start(self) -> None:
        """Join the directory, then rebuild every live table this node owns (they wait,
        paused, until someone connects)."""
        await self.run_db(self.directory.start)
        if self.cluster is not None:
            await self.cluster.open()
        stored = await self.run_db(self.directory.resume)
        for t in stored:
            self._adopt(t)
        if any(s.kind == "bot" for r in self.tables.values() for s in r.seats):
            await self.bots.warm()
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())
        log.info("%d tables resumed", len(self.tables))

    def _adopt(self, stored: StoredTable) -> TableCore | None:
        """A live stored table, rebuilt as a core of this node."""
        try:
            game = TableState.rebuild(stored)
        except Exception:
            log.exception("table %s cannot be rebuilt; skipped", stored.id)
            return None
        core = self.tables[stored.id] = self._core(stored, game)
        core.watch_again()
        return core

    def _core(self, stored: StoredTable, game: Any) -> TableCore:
        core = TableCore(self, stored, game)
        core.listeners.append(Here(self, stored.id))
        if self.cluster is not None:
            self.cluster.attach(core)
        return core

    async def stop(self) -> None:
        self._closing = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        if self.cluster is not None:
            await self.cluster.close()      # every table handed over first
        for core in self.tables.values():
            core.stop()
        for audience in self.audiences.values():
            audience.close_all()
        self.bots.shutdown()
        # every query still running finishes first: closing a connection another thread
        # is using can crash the process (SQLite), so the store closes after the pool
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self.directory.stop)
        await loop.run_in_executor(None, lambda: self.db_pool.shutdown(wait=True))
        try:
            self.store.close()
        except Exception as err:                 # a store that is already gone
            log.warning("database: close failed: %r", err)

    async def _sweep(self) -> None:
        """Expire tables nobody is connected to; let finished tables leave memory."""
        every = max(0.2, min(30.0, self.limits.idle_seconds / 4, self.limits.finished_seconds / 4,
                             self.limits.unstarted_seconds / 4))
        while not self._closing:
            await asyncio.sleep(every)
            await self.sweep()

    async def sweep(self) -> None:
        now = time.monotonic()
        for core in list(self.tables.values()):
            if core.presence.total():
                continue
            if core.finished:
                if core.over_since is not None and \
                        now - core.over_since >= self.limits.finished_seconds:
                    await self._forget(core.id)
            elif core.idle_since is not None and \
                    now - core.idle_since >= self.idle_limit(core):
                try:
                    await self.run_db(self.store.set_state, core.id, EXPIRED)
                except Exception:
                    log.exception("table %s: expiring failed", core.id)
                    continue
                core.expired = True
                core.over_since = now
                await self._forget(core.id)
                log.info("table %s expired (nobody connected)", core.id)

    def idle_limit(self, core: TableCore) -> float:
        """Seconds `core` may stay unwatched before it expires (see :func:`unstarted`)."""
        if unstarted(core):
            return min(self.limits.unstarted_seconds, self.limits.idle_seconds)
        return self.limits.idle_seconds

    async def _forget(self, table_id: str) -> None:
        """A table leaves this node's memory (and its lease is given up)."""
        core = self.tables.pop(table_id, None)
        if core is not None:
            core.stop()
        if self.cluster is not None:
            await self.cluster.let_go(table_id)
        try:
            await self.run_db(self.directory.release, table_id)
        except StoreError:
            log.warning("table %s: releasing its lease failed", table_id)

    # --- finding a table -----------------------------------------------------------------

    def audience(self, table_id: str) -> Audience:
        """This node's connections to a table (made when first needed)."""
        audience = self.audiences.get(table_id)
        if audience is None:
            audience = self.audiences[table_id] = Audience()
        return audience

    async def table(self, table_id: str) -> TableState | None:
        """A live table, or a finished/expired one read back from the store.  In a
        cluster: the table's core if this node owns it (or takes it over now, nobody
        alive holding it), else a follower of the node that does."""
        core = self.tables.get(table_id)
        if core is not None:
            return core
        if self.cluster is not None:
            return await self.cluster.resolve(table_id)
        core = self.archive.get(table_id)
        if core is not None:
            self.archive.move_to_end(table_id)
            return core
        if not (0 < len(table_id) <= 64 and table_id.isascii()):
            return None
        stored = await self.run_db(self.store.load_table, table_id)
        if stored is None:
            return None
        try:
            game = TableState.rebuild(stored)
        except Exception:
            log.exception("table %s cannot be rebuilt", table_id)
            return None
        core = self._core(stored, game)
        if not core.finished:           # live in the store but not here: an expired table
            core.expired = True
        self.archive[table_id] = core
        while len(self.archive) > 64:
            self.archive.popitem(last=False)
        return core

    def current(self, table: TableState) -> TableState:
        """`table` as this node serves it now (another node may have taken it over since
        it was looked up, or this node it)."""
        if self.cluster is None:
            return table
        return self.tables.get(table.id) or self.cluster.followers.get(table.id) or table

    def live_tables(self) -> int:
        return sum(1 for r in self.tables.values() if not r.finished)

    async def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        """The public tables, newest first (in a cluster: of every node)."""
        if self.cluster is not None:
            return await self.cluster.lobby(limit)
        listed = sorted((t for t in self.tables.values() if t.settings.public),
                        key=lambda t: t.created, reverse=True)
        return [{**t.public_info(), "version": t.version} for t in listed[:limit]]

    # --- connections ---------------------------------------------------------------------

    async def connect(self, table: TableState, conn: Connection) -> None:
        """Add a connection and send it the table as it stands.

        Under the table's lock: an action being stored (applied to the game, awaiting
        its database write) is not shown before it is stored, and the connection then
        gets that action's broadcast like everyone else, not the same version twice.
        A table another node owns: the connection is counted there."""
        if not isinstance(table, TableCore):
            assert self.cluster is not None
            await self.cluster.connect(table, conn)
            return
        core = table
        audience = self.audience(core.id)
        async with core.lock:
            audience.add(conn)
            core.arrive(conn.seat, HERE)
            audience.send_state(core, conn, core.table_info())
            core.broadcast_table(but=conn)
            core.kick()

    def disconnect(self, table: TableState, conn: Connection) -> None:
        table = self.current(table)
        if not isinstance(table, TableCore):
            assert self.cluster is not None
            self.cluster.disconnect(table, conn)
            return
        core = table
        audience = self.audiences.get(core.id)
        if audience is None or not audience.remove(conn):
            return
        if not audience:
            del self.audiences[core.id]
        core.leave(conn.seat, HERE)

    def connections(self, table_id: str) -> int:
        """The connections to a table (seats and spectators)."""
        audience = self.audiences.get(table_id)
        return len(audience) if audience is not None else 0

    # --- making tables -------------------------------------------------------------------

    async def create_table(self, spec: dict[str, Any], address: str = "", *,
                           table_id: str | None = None, prepare: Any = None) -> TableCore:
        """Make a table from a lobby request (see app.CreateTable); raises Rejected.

        The live-table cap and the per-address caps count from the store: the same on
        every node of a cluster, and after a restart."""
        if await self.run_db(self.store.count_live) >= self.limits.max_tables:
            raise Rejected("server_full", "This server has as many tables as it can host; "
                                           "try again later.", 503)
        made = specs.validate(spec)
        if prepare is not None:         # Play again: its seats reserved before it is stored
            prepare(made)
        await self.check_address(made, address)
        record = made.game.to_record()
        record.pop("actions")
        new_id = table_id or secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        table = StoredTable(new_id,
                            record, made.settings.stored(), [s.stored() for s in made.seats],
                            [], time.time(), creator=address)
        await self.run_db(self.store.create_table, table)
        await self.run_db(self.directory.claim, table.id)
        core = self.tables[table.id] = self._core(table, made.game)
        core.watch_again()
        core.kick()
        return core

    async def check_address(self, made: specs.TableSpec, address: str) -> None:
        """The per-address caps on live tables, bot-only tables and strongest-bot seats
        (counted from the store: the same on every node)."""
        if not address:
            return
        mine = await self.run_db(self.store.live_tables_of, address)
        if len(mine) >= self.limits.tables_per_address:     # 50 addresses cannot fill
            raise Rejected("too_many", "You already have {n} tables going; finish or "  # it
                           "leave some first.", 429, reason="tables_per_address",
                           params={"n": self.limits.tables_per_address})
        if made.bot_only and sum(1 for _, seats in mine if all(k == "bot" for k, _ in seats)) \
                >= self.limits.bot_tables_per_address:
            raise Rejected("too_many", "You already have {n} bot-only tables going.", 429,
                           reason="bot_tables",
                           params={"n": self.limits.bot_tables_per_address})
        strong = made.strong_bots
        if strong:
            have = sum(specs.bot_cost(bot) for _, seats in mine for kind, bot in seats
                       if kind == "bot")
            if have + strong > self.limits.strong_bots_per_address:
                raise Rejected("too_many", "At most {n} {bots} seats at once from one address.",
                               429, reason="strong_bots",
                               params={"n": self.limits.strong_bots_per_address,
                                       "bots": "/".join(specs.STRONG_BOTS)})

    async def again(self, old: TableState, seat: int | None, host: bool,
                    address: str = "", free_as: str | None = None) -> Successor:
        """"Play again": the finished table's successor, with the same seats.

        The first call creates it (same game, options, bots, names and table settings;
        a new 128-bit seed), every human seat reserved for the player who held it (see
        :mod:`.again`; `free_as`, the host's choice: what a seat not taken in time
        becomes).  Each of them who calls it from their own device (their seat secret of
        the old table) takes their seat with a fresh secret; the host may call it too,
        and gets only their own seat.  Everyone at the finished table, on every node, is
        told (the ``again`` message).
        """
        if not isinstance(old, TableCore):
            assert self.cluster is not None
            return await self.cluster.again(old, seat, host, address, free_as)
        if not old.finished:
            raise Rejected("not_over", "Play again once the match is over.", 409,
                           reason="again_not_over")
        if seat is None and not host:
            raise Rejected("spectator", "Only the table's players can play again.", 403,
                           reason="again_players_only")
        async with old.lock:
            nxt_id = again.next_id(old)
            nxt = await self.table(nxt_id)
            if nxt is None:
                r = old.base_record
                spec = {"game": old.game.name, "options": dict(r.get("options") or {}),
                        "seats": [{"kind": s.kind, "bot": s.bot,
                                   "name": s.name if s.human else None}
                                  for s in old.seats],
                        **{k: getattr(old.settings, k) for k in (*SETTINGS_RANGES, "away_bot")},
                        "public": old.settings.public is True}       # listed as before
                spec["options"].pop("game", None)
                choice = free_as if host and free_as in again.FREE_AS else "bot"
                try:
                    nxt = await self.create_table(
                        spec, address, table_id=nxt_id,
                        prepare=lambda made: again.reserve(made, old, seat,
                                                           self.limits.again_seconds, choice))
                except StoreError:          # another node made it a moment ago
                    nxt = await self.table(nxt_id)
                    if nxt is None:
                        raise
            if old.settings.next_table != nxt_id:
                await old.set_settings(next_table=nxt_id)
        old.broadcast_table()               # everyone at the old table sees the link
        out = Successor(nxt.id, nxt.settings.admin if host else None, None, None)
        if seat is not None and old.seats[seat].human:
            holder = again.holder_hash(old.seats[seat].secret)
            if isinstance(nxt, TableCore):
                secret = await nxt.take_seat_again(seat, holder)
            else:
                assert self.cluster is not None
                secret = await self.cluster.take_seat_again(nxt, seat, holder)
                await nxt.sync()
            out = Successor(nxt.id, out.admin, seat, secret)
        self.tell(old.id, protocol.dumps({"type": "again", "table": nxt.id,
                                          "again": again.info(nxt)}))
        return out

    async def decline_again(self, old: TableState, seat: int | None) -> None:
        """"No thanks" to Play again: the seat kept for the caller at the next table is
        freed at once (the others need not wait for the countdown)."""
        if seat is None or not old.finished or not old.seats[seat].human:
            raise Rejected("spectator", "Only the table's players can play again.", 403,
                           reason="again_players_only")
        nxt = await self.table(again.next_id(old))
        if nxt is None:
            raise Rejected("not_over", "Play again once the match is over.", 409,
                           reason="again_not_over")
        holder = again.holder_hash(old.seats[seat].secret)
        if isinstance(nxt, TableCore):
            await nxt.decline_again(seat, holder)
        else:
            assert self.cluster is not None
            await self.cluster.relay(nxt, "decline_again", seat=seat, holder=holder)
            await nxt.sync()
        self.tell(old.id, protocol.dumps({"type": "again", "table": nxt.id,
                                          "again": again.info(nxt)}))

    def saw_again(self, table_id: str, text: str) -> None:
        """Another node made `table_id`'s successor: this node's copy links to it too."""
        try:
            nxt = json.loads(text).get("table")
        except (ValueError, AttributeError):
            return
        copy = self.tables.get(table_id) or self.archive.get(table_id)
        if copy is None and self.cluster is not None:
            copy = self.cluster.followers.get(table_id)
        if copy is not None and isinstance(nxt, str) and copy.settings.next_table != nxt:
            copy.settings = copy.settings.copy(next_table=nxt)

    def tell(self, table_id: str, text: str) -> None:
        """A message to everyone connected to `table_id`, on every node."""
        audience = self.audiences.get(table_id)
        if audience is not None:
            audience.send_all(text)
        if self.cluster is not None:
            self.cluster.tell(table_id, text)
