"""A cluster: several ``dominohall serve --db postgresql://...`` nodes on one database.

* **Nodes.**  Each node holds a session advisory lock ``(NODE_LOCK, key)`` on its own
  connection while it runs and has a row in ``dh_nodes``.  A node is alive exactly while
  PostgreSQL holds its lock: a node killed with -9 loses it as soon as its connection
  drops, a node cut off from the database as soon as PostgreSQL notices.
* **Leases.**  A live table's owner is its row in ``dh_owners`` (node, epoch), taken on
  demand (:meth:`PgDirectory.claim`) when nobody alive holds it, with the epoch bumped.
  Every write of the owner to that table is fenced by (node, epoch)
  (:attr:`~.store.sql.SqlStore.fences`): a node that lost a lease can no longer write.
* **Relay.**  Other nodes serve the table through a :class:`Follower`: it reads the
  table (seats, settings, the action log from its version on) from the database and
  relays its clients' actions, joins, re-invites, Ready and presence to the owner.
  Messages travel by ``NOTIFY``: to a node on ``dh_node_KEY`` (requests and their
  answers), to everyone on ``dh_tables`` (a table's events: its id, version, table info,
  the owner's node key, and for a new version the actions since the last one with a
  fingerprint of the seats and settings).  A follower applies an event's actions to its
  copy without reading the database; it reads the log instead when the event carried
  none (too long), when it sees a gap (a missed event) or when the seats or settings
  changed.  The log's ``(table_id, seq)`` key is the truth, only the owner appends to it,
  and a follower applies an action only at the version it follows (never twice).
  A relayed request goes to the owner its last event named (the database is asked when
  there is none, or the owner did not answer); queued notifications leave in one round
  trip (a pipeline).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import threading
import time
import zlib
from typing import Any

from .protocol import Rejected
from .store import StoredTable, StoreError
from .store.sql import LIVE
from .tables import again
from .tables.audience import Connection
from .tables.core import HERE, TableCore
from .tables.hub import Successor
from .tables.state import Seat, TableSettings, TableState

log = logging.getLogger("dominohall.server")

NODE_LOCK = 0x4448          # the advisory lock class of the nodes ("DH")
TABLES = "dh_tables"        # the channel every node listens to: tables' events
ACTIONS_MAX = 2000          # a state event carries its actions up to this many characters
PAYLOAD_MAX = 7000          # NOTIFY payloads are limited to 8000 bytes: longer go to mail
SEND_BATCH = 64             # notifications sent in one round trip at most
RELAY_SECONDS = 5.0         # a relayed request unanswered this long: the owner is gone


def meta_print(table: TableState) -> int:
    """A fingerprint of a table's seats and settings (what a follower reads besides the
    log): a state event carries it, and a follower whose copy differs reads them again."""
    stored = ([s.stored() for s in table.seats], table.settings.stored(), table.expired)
    return zlib.crc32(json.dumps(stored, sort_keys=True, default=str).encode())


def node_channel(key: int) -> str:
    return f"dh_node_{key}"


#: "the node named o.node is alive": it holds its advisory lock in this database
ALIVE = ("EXISTS (SELECT 1 FROM dh_nodes n JOIN pg_locks l ON l.locktype = 'advisory' "
         "AND l.classid = %s AND l.objid = n.key::oid AND l.objsubid = 2 AND l.granted "
         "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
         "WHERE n.name = {owner})")


class PgDirectory:
    """Table ownership on PostgreSQL: nodes with advisory locks, leases in ``dh_owners``."""

    def __init__(self, store: Any, name: str | None = None) -> None:
        self.store = store
        self.node = name or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"
        self.key = 0
        self._conn: Any = None
        self._guard = threading.Lock()      # the lock connection is used from many threads

    # --- the node's life -----------------------------------------------------------------

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(self.store.url, autocommit=True, connect_timeout=5)

    def start(self) -> None:
        conn = self._connect()
        alive = ALIVE.format(owner="%s")
        if conn.execute(f"SELECT {alive}", (NODE_LOCK, self.node)).fetchone()[0]:
            conn.close()
            raise StoreError(f"another running node is named {self.node!r}; give each "
                             "node its own --node-name")
        for _ in range(20):
            key = secrets.randbelow(2**31 - 1) + 1
            if conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (NODE_LOCK, key)
                            ).fetchone()[0]:
                break
        else:                                       # pragma: no cover - 20 taken keys
            conn.close()
            raise StoreError("cannot take a node lock in the database")
        now = time.time()
        conn.execute("DELETE FROM dh_nodes WHERE key = %s OR name = %s", (key, self.node))
        conn.execute("INSERT INTO dh_nodes (name, key, started, seen) VALUES (%s, %s, %s, %s)",
                     (self.node, key, now, now))
        self.key, self._conn = key, conn
        log.info("cluster node %s (key %d)", self.node, key)

    def stop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            conn.execute("DELETE FROM dh_owners WHERE node = %s", (self.node,))
            conn.execute("DELETE FROM dh_nodes WHERE name = %s", (self.node,))
        with contextlib.suppress(Exception):
            conn.close()
        self.store.fences.clear()

    def heartbeat(self) -> bool:
        """Mark this node seen; False if its lock connection is gone (it owns nothing)."""
        with self._guard:
            try:
                self._conn.execute("UPDATE dh_nodes SET seen = %s WHERE name = %s",
                                   (time.time(), self.node))
                return True
            except Exception:
                return False

    # --- leases --------------------------------------------------------------------------

    def claim(self, table_id: str) -> bool:
        alive = ALIVE.format(owner="dh_owners.node")
        with self.store.pool.connection() as db:
            row = db.execute(
                "INSERT INTO dh_owners (table_id, node, epoch, since) "
                "SELECT %s, %s, 1, %s WHERE EXISTS (SELECT 1 FROM dh_tables WHERE id = %s "
                "AND state = 'live') "
                "ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, "
                "epoch = dh_owners.epoch + 1, since = excluded.since "
                f"WHERE dh_owners.node <> excluded.node AND NOT {alive} "
                "RETURNING epoch", (table_id, self.node, time.time(), table_id, NODE_LOCK)
            ).fetchone()
            if row is None:
                row = db.execute("SELECT epoch FROM dh_owners WHERE table_id = %s "
                                 "AND node = %s", (table_id, self.node)).fetchone()
        if row is None:
            return False
        self.store.fences[table_id] = (self.node, int(row[0]))
        return True

    def release(self, table_id: str) -> None:
        self.store.fences.pop(table_id, None)
        with self.store.pool.connection() as db:
            db.execute("DELETE FROM dh_owners WHERE table_id = %s AND node = %s",
                       (table_id, self.node))

    def resume(self) -> list[StoredTable]:
        """The live tables whose lease this node (by its name) still holds."""
        with self.store.pool.connection() as db:
            ids = [r[0] for r in db.execute(
                "SELECT o.table_id FROM dh_owners o JOIN dh_tables t ON t.id = o.table_id "
                "WHERE o.node = %s AND t.state = 'live'", (self.node,)).fetchall()]
        out = []
        for tid in ids:
            if self.claim(tid):
                stored = self.store.load_table(tid)
                if stored is not None:
                    out.append(stored)
        return out

    def owner(self, table_id: str) -> str | None:
        found = self.owner_key(table_id)
        return found[0] if found else None

    def owner_key(self, table_id: str) -> tuple[str, int] | None:
        """The live owner of `table_id` and its node key, or None."""
        alive = ALIVE.format(owner="o.node")
        with self.store.pool.connection() as db:
            row = db.execute(
                f"SELECT o.node, n.key FROM dh_owners o JOIN dh_nodes n ON n.name = o.node "
                f"WHERE o.table_id = %s AND {alive}", (table_id, NODE_LOCK)).fetchone()
        return (str(row[0]), int(row[1])) if row else None

    def dead_owners(self, table_ids: list[str]) -> list[str]:
        """Of `table_ids`, the live tables nobody alive owns."""
        if not table_ids:
            return []
        alive = ALIVE.format(owner="o.node")
        with self.store.pool.connection() as db:
            rows = db.execute(
                "SELECT t.id FROM dh_tables t LEFT JOIN dh_owners o ON o.table_id = t.id "
                f"WHERE t.id = ANY(%s) AND t.state = 'live' AND (o.node IS NULL OR NOT {alive})",
                (table_ids, NODE_LOCK)).fetchall()
        return [r[0] for r in rows]

    def orphans(self) -> list[str]:
        """Live tables whose owner died (their lease row is left, nobody holds it)."""
        alive = ALIVE.format(owner="o.node")
        with self.store.pool.connection() as db:
            rows = db.execute(
                "SELECT o.table_id FROM dh_owners o JOIN dh_tables t ON t.id = o.table_id "
                f"WHERE t.state = 'live' AND NOT {alive}", (NODE_LOCK,)).fetchall()
        return [r[0] for r in rows]

    def alive_nodes(self) -> set[str]:
        alive = ALIVE.format(owner="m.name")
        with self.store.pool.connection() as db:
            rows = db.execute(f"SELECT m.name FROM dh_nodes m WHERE {alive}",
                              (NODE_LOCK,)).fetchall()
        return {r[0] for r in rows}

    def notify(self, channel: str, payload: str) -> None:
        self.notify_many([(channel, payload)])

    def notify_many(self, items: list[tuple[str, str]]) -> None:
        """Send notifications in this order, in one round trip (a pipeline; each its own
        transaction, so each is delivered as soon as it is sent)."""
        with self.store.pool.connection() as db, db.pipeline():
            for channel, payload in items:
                if len(payload.encode()) > PAYLOAD_MAX:
                    mail = secrets.token_hex(8)
                    db.execute("INSERT INTO dh_mail (id, payload, created) "
                               "VALUES (%s, %s, %s)", (mail, payload, time.time()))
                    payload = json.dumps({"mail": mail})
                db.execute("SELECT pg_notify(%s, %s)", (channel, payload))

    def read_mail(self, mail: str) -> str | None:
        with self.store.pool.connection() as db:
            row = db.execute("SELECT payload FROM dh_mail WHERE id = %s", (mail,)).fetchone()
        return str(row[0]) if row else None

    def sweep_mail(self) -> None:
        with self.store.pool.connection() as db:
            db.execute("DELETE FROM dh_mail WHERE created < %s", (time.time() - 60,))


class Publisher:
    """An owned table's events, to the other nodes (``NOTIFY dh_tables``)."""

    def __init__(self, cluster: PgCluster, core: TableCore) -> None:
        self.cluster, self.core = cluster, core
        self.sent = core.version            # the version the last state event announced

    def _send(self, kind: str, **fields: Any) -> None:
        self.cluster.publish({"k": kind, "t": self.core.id, "n": self.cluster.node,
                              "K": self.cluster.directory.key,
                              "v": self.core.version, "a": self.core.presence.total(),
                              **fields})

    def on_state(self, table: TableCore, info: dict[str, Any]) -> None:
        """The new version with the actions since the last one (`f`: the version they
        follow), so a follower applies them without reading the log, and a fingerprint of
        the seats and settings (`m`): when it changed, the follower reads them again."""
        start = min(self.sent, table.version)
        actions = table.game.actions[start:]
        self.sent = table.version
        extra: dict[str, Any] = {"m": meta_print(table)}
        if sum(len(a) for a in actions) <= ACTIONS_MAX:
            extra.update(f=start, x=actions)
        self._send("s", i=info, **extra)

    def on_table(self, info: dict[str, Any], but: Any = None) -> None:
        self._send("t", i=info)
        self.cluster.list_soon(self.core)

    def on_revoke(self, seat: int, message: str) -> None:
        self._send("r", seat=seat, msg=message)


class Follower(TableState):
    """A table another node owns, as this node serves it: read from the database,
    its changes relayed to the owner."""

    def __init__(self, cluster: PgCluster, stored: StoredTable, game: Any) -> None:
        super().__init__(stored, game)
        self.cluster = cluster
        self.hub = cluster.hub
        self.info: dict[str, Any] | None = None     # the owner's latest table info
        self.total = 0                              # connections on every node
        self.lock = asyncio.Lock()
        self.shown = self.version                   # the version this node's clients have
        self.owner_node: str | None = None
        self.owner_at: tuple[str, int] | None = None    # the owner and its node key, as
        #                                 its last event said (None: ask the database)
        self.seats_print: int | None = None         # meta_print of the copy's seats...

    # --- reading -------------------------------------------------------------------------

    async def sync(self) -> None:
        """Seats, settings, state and the actions after this copy's version, from the
        database (the log is the truth: a missed notification costs nothing)."""
        async with self.lock:
            await self._sync()

    async def _sync(self) -> None:
        """(Under the lock.)  The database is read in a database thread and the copy
        changed here, in the event loop: a view being made never sees a game half
        changed by another thread."""
        actions, seats, row, rebuilt = await self.hub.run_db(self._read, self.version)
        if rebuilt is not None:
            self.game = rebuilt
        else:
            for seq, action in actions:
                if seq == self.version + 1:     # only at the version it follows: once
                    self.game.apply(action)
        self.seats = [Seat.from_stored({"kind": k, "bot": b, "token": tok or "",
                                        "secret": sec, "name": n})
                      for k, b, tok, sec, n in seats]
        if row:
            self.settings = TableSettings.from_stored(self.hub.store._json_out(row[0][0]))
            self.expired = row[0][1] == "expired"
        self.seats_print = meta_print(self)

    async def take(self, start: Any, actions: Any, meta: Any) -> None:
        """A state event's actions (`start`: the version they follow) applied to this copy
        without reading the database, under the same lock and version check as
        :meth:`sync`: an action is applied only at the version it follows, so never
        twice.  Read from the database instead when the event carried no actions, a gap
        is seen (a missed event) or the seats or settings changed (`meta`)."""
        async with self.lock:
            if (isinstance(start, int) and isinstance(actions, list) and start <= self.version
                    and meta is not None and meta == self.seats_print):
                try:
                    for action in actions[self.version - start:]:
                        self.game.apply(str(action))
                    return
                except Exception:               # cannot happen: the log decides
                    log.exception("table %s: an announced action did not apply", self.id)
            await self._sync()

    def _read(self, version: int) -> tuple[list[Any], list[Any], list[Any], Any]:
        """(A database thread.)  The actions after `version`, the seats, the settings and
        state; and the game rebuilt from the store if the actions have a gap."""
        store = self.hub.store
        rows = store._rows("SELECT seq, action FROM {t}actions WHERE table_id = {p} "
                           "AND seq > {p} ORDER BY seq", (self.id, version))
        rebuilt = None
        if [seq for seq, _ in rows] != list(range(version + 1, version + 1 + len(rows))):
            stored = store.load_table(self.id)  # a gap cannot happen; rebuild to be sure
            if stored is not None:
                rebuilt = TableState.rebuild(stored)
        seats = store._rows("SELECT kind, bot, token, secret, name FROM {t}seats WHERE "
                            "table_id = {p} ORDER BY seat", (self.id,))
        row = store._rows("SELECT settings, state FROM {t}tables WHERE id = {p}", (self.id,))
        return rows, seats, row, rebuilt

    def table_info(self) -> dict[str, Any]:
        info = dict(self.info or {})
        connected = {s["seat"]: s for s in info.get("seats", [])}
        info.update({
            "id": self.id, "game": self.game.name, "status": self.status(),
            "seats": [{"seat": i, "kind": s.kind, "bot": s.bot, "name": s.name,
                       "connected": connected.get(i, {}).get("connected", s.kind == "bot"),
                       "controller": connected.get(i, {}).get("controller", s.kind)}
                      for i, s in enumerate(self.seats)],
            "fairness": self.fairness(), "notices": list(self.settings.notices),
            "next_table": self.settings.next_table,
            "again": again.info(self),
            "away_seconds": self.settings.away_seconds,
            "ready_seconds": self.settings.ready_seconds,
            "turn_seconds": self.settings.turn_seconds,
        })
        for key, default in (("spectators", 0), ("turn", None), ("hints", False),
                             ("pause", 0.0), ("ready", []), ("paused", False)):
            info.setdefault(key, default)
        return info

    def audience_total(self) -> int:
        return max(self.total, self.hub.connections(self.id))

    async def view(self, seat: int | None) -> dict[str, Any]:
        await self.sync()
        return self.game.view(seat)

    # --- relayed to the owner ------------------------------------------------------------

    async def submit(self, seat: int | None, text: str, version: int, *,
                     by_bot: bool = False, secret: str | None = None) -> int:
        """Relayed with the seat secret it came with: the owner checks it again in the
        table's order (a re-invited seat's old device cannot act through any node)."""
        if seat is None:
            raise Rejected("spectator", "spectators cannot play", 403,
                           reason="spectators_cannot_play")
        out = await self.cluster.relay(self, "submit", seat=seat, text=text, version=version,
                                       secret=secret)
        return int(out)

    async def join(self, token: str, name: Any, secret: str | None = None) -> tuple[int, str]:
        out = await self.cluster.relay(self, "join", token=token, name=name,
                                       secret=secret or secrets.token_urlsafe(24))
        await self.sync()
        return int(out[0]), str(out[1])

    async def reinvite(self, seat: Any) -> str:
        out = await self.cluster.relay(self, "reinvite", seat=seat)
        await self.sync()
        return str(out)

    def mark_ready(self, seat: int | None) -> None:
        self.cluster.spawn(self.cluster.relay(self, "ready", seat=seat))


class PgCluster:
    """This node's part in the cluster: the hub's :class:`~.tables.directory.Cluster`."""

    def __init__(self, hub: Any, directory: PgDirectory) -> None:
        self.hub, self.directory = hub, directory
        self.followers: dict[str, Follower] = {}
        self.pending: dict[str, asyncio.Future[Any]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self._outbox: asyncio.Queue[tuple[str, str] | None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listing: dict[str, asyncio.TimerHandle] = {}

    @property
    def node(self) -> str:
        return self.directory.node

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            err = task.exception()
            if not isinstance(err, Rejected | StoreError):
                log.warning("cluster task failed: %r", err)

    # --- joining and leaving -------------------------------------------------------------

    async def open(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._outbox = asyncio.Queue()
        ready = threading.Event()
        self._listener = threading.Thread(target=self._listen, args=(ready,), daemon=True,
                                          name="dh-listen")
        self._listener.start()
        await self.loop.run_in_executor(None, ready.wait, 10)
        self.spawn(self._send_loop())
        self.spawn(self._watch())

    async def close(self) -> None:
        """Hand every owned table over (its lease released, its clocks told), then leave."""
        for tid, core in list(self.hub.tables.items()):
            core.stop()
            clock = core.clock_state()
            with contextlib.suppress(StoreError):
                await self.hub.run_db(self.directory.release, tid)
            self.hub.tables.pop(tid, None)
            self.publish({"k": "free", "t": tid, "n": self.node, "clock": clock})
        if self._outbox is not None:
            self._outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._drained(), 3)
        self._stop.set()
        for task in list(self._tasks):
            task.cancel()

    async def _drained(self) -> None:
        while self._outbox is not None and not self._outbox.empty():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)

    def _listen(self, ready: threading.Event) -> None:
        """The LISTEN connection (a thread): notifications into the event loop."""
        while not self._stop.is_set():
            try:
                conn = self.directory._connect()
                conn.execute(f"LISTEN {TABLES}")
                conn.execute(f"LISTEN {node_channel(self.directory.key)}")
                ready.set()
                while not self._stop.is_set():
                    for note in conn.notifies(timeout=0.5, stop_after=64):
                        assert self.loop is not None
                        self.loop.call_soon_threadsafe(self._heard, note.channel, note.payload)
            except Exception as err:
                if self._stop.is_set():
                    return
                log.warning("cluster: LISTEN connection lost (%r); reconnecting", err)
                ready.set()
                time.sleep(0.5)
                if self.loop is not None:       # whatever was missed: read it again
                    self.loop.call_soon_threadsafe(self._resync_all)

    def publish(self, message: dict[str, Any], channel: str = TABLES) -> None:
        if self._outbox is not None:
            self._outbox.put_nowait((channel, json.dumps(message, separators=(",", ":"))))

    async def _send_loop(self) -> None:
        """Notifications go out in order: whatever queued up meanwhile in one round trip."""
        assert self._outbox is not None
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < SEND_BATCH:
                batch.append(self._outbox.get_nowait())
            items = [item for item in batch if item is not None]
            if items:
                try:
                    await self.hub.run_db(self.directory.notify_many, items)
                except StoreError as err:
                    log.warning("cluster: %d notifications were not sent: %s", len(items), err)
            if None in batch:
                return

    async def _watch(self) -> None:
        """Every second: the heartbeat, and the tables whose owner died are taken over
        (those this node's clients follow at once, the others on demand)."""
        n = 0
        while True:
            await asyncio.sleep(1.0)
            n += 1
            try:
                ok = await self.hub.run_db(self.directory.heartbeat)
                if not ok:
                    log.warning("cluster: the node's lock connection is lost")
                dead = await self.hub.run_db(self.directory.dead_owners,
                                             [t for t, f in self.followers.items()
                                              if self.hub.connections(t)])
                for tid in dead:
                    await self.promote(tid)
                if n % 2 == 0:
                    await self._forget_dead_presence()
                if n % 5 == 0:
                    await self._take_orphans()
                if n % 30 == 0:
                    await self.hub.run_db(self.directory.sweep_mail)
            except StoreError as err:
                log.warning("cluster: %s", err)
            except Exception:
                log.exception("cluster: watching failed")

    async def _forget_dead_presence(self) -> None:
        """Connections counted from a node that died are gone."""
        sources = {src for core in self.hub.tables.values()
                   for src in core.presence.by_source if src != HERE}
        if not sources:
            return
        alive = await self.hub.run_db(self.directory.alive_nodes)
        for core in list(self.hub.tables.values()):
            for src in list(core.presence.by_source):
                if src != HERE and src not in alive:
                    core.set_presence(src, {})

    async def _take_orphans(self) -> None:
        """Tables a dead node owned: one live node takes each over, so its bots and timers
        go on (the lease decides which: the claim is atomic)."""
        for tid in await self.hub.run_db(self.directory.orphans):
            if tid not in self.hub.tables:
                await self.promote(tid)

    # --- notifications -------------------------------------------------------------------

    def _heard(self, channel: str, payload: str) -> None:
        try:
            msg = json.loads(payload)
        except ValueError:
            return
        if "mail" in msg:
            self.spawn(self._fetch_mail(channel, msg["mail"]))
            return
        self._dispatch(channel, msg)

    async def _fetch_mail(self, channel: str, mail: str) -> None:
        text = await self.hub.run_db(self.directory.read_mail, mail)
        if text is not None:
            self._dispatch(channel, json.loads(text))

    def _dispatch(self, channel: str, msg: dict[str, Any]) -> None:
        if channel == TABLES:
            if msg.get("n") != self.node:
                self.spawn(self._table_event(msg))
        elif "op" in msg:
            self.spawn(self._serve(msg))
        else:
            future = self.pending.pop(str(msg.get("id")), None)
            if future is not None and not future.done():
                future.set_result(msg)

    async def _table_event(self, msg: dict[str, Any]) -> None:
        tid = str(msg.get("t"))
        kind = msg.get("k")
        if kind == "c":                     # table chat: to this node's connections
            from ..community.chat import deliver
            deliver(self.hub, tid, msg.get("m") or {})
            return
        follower = self.followers.get(tid)
        if kind == "m":                 # a message for this node's connections to the table
            self.hub.saw_again(tid, str(msg.get("msg")))
            audience = self.hub.audiences.get(tid)
            if audience is not None:
                audience.send_all(str(msg.get("msg")))
            return
        if kind == "free":
            if follower is not None and self.hub.connections(tid):
                await self.promote(tid, msg.get("clock"))
            return
        if follower is None:
            core = self.hub.tables.get(tid)
            if core is not None and kind in ("s", "t"):     # another node owns it now
                self.demote_soon(core)
            return
        follower.total = int(msg.get("a") or 0)
        if msg.get("n") and msg["n"] != follower.owner_node:
            if follower.owner_node is not None:     # a new owner: it learns who is here
                self.spawn(self._presence(tid))
            follower.owner_node = msg["n"]
        if msg.get("n") and isinstance(msg.get("K"), int):
            follower.owner_at = (str(msg["n"]), msg["K"])
        audience = self.hub.audiences.get(tid)
        if kind == "s":
            await follower.take(msg.get("f"), msg.get("x"), msg.get("m"))
            follower.info = msg.get("i") or follower.info
            if audience is not None and follower.version > follower.shown:
                audience.broadcast_state(follower, follower.table_info())
            follower.shown = max(follower.shown, follower.version)
        elif kind == "t":
            follower.info = msg.get("i") or follower.info
            await follower.sync()
            if audience is not None:
                audience.broadcast_table(follower.table_info())
        elif kind == "r":
            await follower.sync()
            if audience is not None:
                audience.revoke(int(msg["seat"]), str(msg["msg"]))

    def _resync_all(self) -> None:
        for tid, follower in list(self.followers.items()):
            self.spawn(self._table_event({"k": "s", "t": tid, "i": follower.info,
                                          "a": follower.total}))

    # --- requests to a table's owner -----------------------------------------------------

    async def relay(self, table: TableState, op: str, **args: Any) -> Any:
        """`op` on the owner of `table` (here, if this node takes the table over now)."""
        assert self.loop is not None
        give_up = self.loop.time() + 3 * RELAY_SECONDS     # a takeover takes a second or two
        while self.loop.time() < give_up:
            current = self.hub.current(table)
            if isinstance(current, TableCore):
                return await self._apply(current, op, args)
            found = getattr(table, "owner_at", None) or \
                await self.hub.run_db(self.directory.owner_key, table.id)
            if found is None or found[0] == self.node:
                if isinstance(table, Follower):
                    table.owner_at = None
                core = await self.promote(table.id)
                if core is not None:
                    return await self._apply(core, op, args)
                await asyncio.sleep(0.1)        # another node is taking it over
                continue
            rid = secrets.token_hex(8)
            assert self.loop is not None
            future = self.pending[rid] = self.loop.create_future()
            self.publish({"id": rid, "op": op, "t": table.id, "from": self.directory.key,
                          "n": self.node, "args": args}, node_channel(found[1]))
            answer = await self._answer(future, table.id, found)
            self.pending.pop(rid, None)
            if answer is None or answer.get("moved"):   # the owner died or left: ask the
                if isinstance(table, Follower) and table.owner_at == found:  # database
                    table.owner_at = None
            if answer is None:          # the owner died or left meanwhile: ask again
                continue
            if answer.get("moved"):
                await asyncio.sleep(0.05)
                continue
            if "err" in answer:
                raise Rejected.from_body(answer["err"], int(answer.get("status") or 400))
            return answer.get("ok")
        raise Rejected("storage", "the action could not be saved ({error}); try again", 503,
                       reason="action_not_saved",
                       params={"error": "the table's node did not answer"})

    async def _answer(self, future: asyncio.Future[Any], table_id: str,
                      owner: tuple[str, int]) -> dict[str, Any] | None:
        """The owner's answer; None once the owner is gone (dead, or the table moved),
        checked every half second, or after RELAY_SECONDS."""
        assert self.loop is not None
        deadline = self.loop.time() + RELAY_SECONDS
        while True:
            try:
                return await asyncio.wait_for(asyncio.shield(future), 0.5)  # type: ignore[no-any-return]
            except TimeoutError:
                pass
            if table_id in self.hub.tables or self.loop.time() > deadline:
                return None
            if await self.hub.run_db(self.directory.owner_key, table_id) != owner:
                return None

    async def _serve(self, msg: dict[str, Any]) -> None:
        """A request another node relayed for a table this node owns."""
        reply: dict[str, Any] = {"id": msg.get("id")}
        core = self.hub.tables.get(str(msg.get("t")))
        if core is None:
            reply["moved"] = True
        else:
            try:
                reply["ok"] = await self._apply(core, str(msg["op"]), dict(msg.get("args") or {}),
                                                source=str(msg.get("n")))
            except Rejected as err:
                reply["err"], reply["status"] = err.body(), err.status
            except Exception as err:
                log.exception("cluster: relayed %s failed", msg.get("op"))
                reply["err"] = Rejected("storage", "the action could not be saved ({error}); "
                                        "try again", 503, reason="action_not_saved",
                                        params={"error": type(err).__name__}).body()
                reply["status"] = 503
        self.publish(reply, node_channel(int(msg.get("from") or 0)))

    async def _apply(self, core: TableCore, op: str, args: dict[str, Any],
                     source: str | None = None) -> Any:
        if op == "submit":          # relayed: the seat secret must still open the seat
            secret = args.get("secret")
            return await core.submit(args["seat"], args["text"], args["version"],
                                     secret=str(secret or "") if source else secret)
        if op == "join":
            return list(await core.join(args["token"], args["name"], args.get("secret")))
        if op == "reinvite":
            return await core.reinvite(args["seat"])
        if op == "ready":
            core.mark_ready(args.get("seat"))
            return None
        if op == "presence":
            counts = {None if k == "-" else int(k): int(n)
                      for k, n in (args.get("counts") or {}).items()}
            core.set_presence(source or "?", counts)
            return {"info": core.table_info(), "a": core.presence.total()}
        if op == "info":
            return {"info": core.table_info(), "a": core.presence.total()}
        if op == "take_seat_again":
            return await core.take_seat_again(int(args["seat"]), str(args.get("holder")))
        if op == "decline_again":
            return await core.decline_again(int(args["seat"]), str(args.get("holder")))
        if op == "again":
            nxt = await self.hub.again(core, args.get("seat"), bool(args.get("host")),
                                       str(args.get("address") or ""), args.get("free_as"))
            return [nxt.id, nxt.admin, nxt.seat, nxt.secret]
        raise Rejected("bad_message", "unknown message type {type} (expected one of {types})",
                       reason="unknown_message", params={"type": repr(op), "types": "-"})

    # --- the hub's Cluster interface -----------------------------------------------------

    def attach(self, core: TableCore) -> None:
        core.listeners.append(Publisher(self, core))
        self.list_soon(core)

    async def resolve(self, table_id: str) -> TableState | None:
        follower = self.followers.get(table_id)
        if follower is not None:
            await follower.sync()
            if not follower.finished:
                return follower
            self.followers.pop(table_id, None)
        archived = self.hub.archive.get(table_id)
        if archived is not None:
            return archived
        if not (0 < len(table_id) <= 64 and table_id.isascii()):
            return None
        stored = await self.hub.run_db(self.hub.store.load_table, table_id)
        if stored is None:
            return None
        try:
            game = TableState.rebuild(stored)
        except Exception:
            log.exception("table %s cannot be rebuilt", table_id)
            return None
        if stored.state != LIVE or game.is_over:       # finished or expired: read only
            core = self.hub._core(stored, game)
            core.expired = stored.state == "expired" or core.expired
            if not core.finished:
                core.expired = True
            self.hub.archive[table_id] = core
            while len(self.hub.archive) > 64:
                self.hub.archive.popitem(last=False)
            return core
        if await self.hub.run_db(self.directory.claim, table_id):
            core = self.hub.tables.get(table_id)
            if core is None:
                core = self.hub._adopt(await self.hub.run_db(self.hub.store.load_table,
                                                             table_id) or stored)
            if core is not None:
                core.kick()
            return core
        follower = self.followers[table_id] = Follower(self, stored, game)
        self.spawn(self._presence(table_id, "info"))   # the owner's presence and clocks
        return follower

    async def promote(self, table_id: str, clock: dict[str, Any] | None = None
                      ) -> TableCore | None:
        """Take a table over (its owner left or died), with this node's clients."""
        if table_id in self.hub.tables:
            return self.hub.tables[table_id]
        if not await self.hub.run_db(self.directory.claim, table_id):
            return None
        stored = await self.hub.run_db(self.hub.store.load_table, table_id)
        if stored is None or table_id in self.hub.tables:
            return self.hub.tables.get(table_id)
        core = self.hub._adopt(stored)
        if core is None:
            return None
        self.followers.pop(table_id, None)
        if clock:
            core.restore_clock(clock)
        audience = self.hub.audiences.get(table_id)
        if audience is not None:
            for conn in list(audience.conns):
                core.arrive(conn.seat)
            audience.broadcast_state(core, core.table_info())
        core.broadcast_table()          # the other nodes learn the new owner (and resend
        #                                 their connections' presence to it)
        if any(s.kind == "bot" for s in core.seats):
            await self.hub.bots.warm()
        core.kick()
        log.info("table %s taken over by %s", table_id, self.node)
        return core

    def demote_soon(self, core: TableCore) -> None:
        """Another node owns `core`'s table now: stop driving it, follow it instead."""
        if self.hub.tables.get(core.id) is not core:
            return
        self.hub.tables.pop(core.id, None)
        core.stop()
        self.directory.store.fences.pop(core.id, None)
        follower = Follower(self, core.stored(), core.game)
        follower.info = core.table_info()
        self.followers[core.id] = follower
        self.spawn(self._presence(core.id))

    def _counts(self, table_id: str) -> dict[str, int]:
        audience = self.hub.audiences.get(table_id)
        if audience is None:
            return {}
        return {"-" if s is None else str(s): n for s, n in audience.seats().items()}

    async def _presence(self, table_id: str, op: str = "presence") -> None:
        """Tell the owner this node's connections to a table (or only ask for its table
        info: `op` "info"); the answer brings the owner's table info."""
        follower = self.followers.get(table_id)
        if follower is not None:
            with contextlib.suppress(Rejected):
                out = await self.relay(follower, op, counts=self._counts(table_id))
                if isinstance(out, dict) and (op == "presence" or follower.info is None):
                    follower.info = out.get("info") or follower.info
                    follower.total = int(out.get("a") or 0)

    async def connect(self, table: Any, conn: Connection) -> None:
        audience = self.hub.audience(table.id)
        async with table.lock:
            audience.add(conn)
            audience.send_state(table, conn, table.table_info())
        table.shown = max(table.shown, table.version)
        self.spawn(self._presence(table.id))

    def disconnect(self, table: Any, conn: Connection) -> None:
        audience = self.hub.audiences.get(table.id)
        if audience is None or not audience.remove(conn):
            return
        if not audience:
            del self.hub.audiences[table.id]
        self.spawn(self._presence(table.id))

    async def again(self, old: Any, seat: int | None, host: bool, address: str,
                    free_as: str | None = None) -> Successor:
        out = await self.relay(old, "again", seat=seat, host=host, address=address,
                               free_as=free_as)
        return Successor(*out)

    async def take_seat_again(self, nxt: Any, seat: int, holder: str) -> str:
        return str(await self.relay(nxt, "take_seat_again", seat=seat, holder=holder))

    def tell(self, table_id: str, text: str) -> None:
        """To every other node: a message for its connections to `table_id`, whoever
        owns the table (a finished table's players may sit on any node)."""
        self.publish({"k": "m", "t": table_id, "n": self.node, "msg": text})

    async def let_go(self, table_id: str) -> None:
        handle = self._listing.pop(table_id, None)
        if handle is not None:
            handle.cancel()

    # --- hints, worked out once for the cluster -----------------------------------------

    def hint_get(self, key: tuple[str, int, int, str]) -> tuple[str, str] | None:
        rows = self.hub.store._rows("SELECT action, why FROM {t}hints WHERE table_id = {p} "
                                    "AND version = {p} AND seat = {p} AND lang = {p}", key)
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    def hint_put(self, key: tuple[str, int, int, str], result: tuple[str, str]) -> None:
        with self.hub.store.pool.connection() as db:
            db.execute("INSERT INTO dh_hints (table_id, version, seat, lang, action, why, "
                       "created) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                       (*key, *result, time.time()))

    # --- the lobby -----------------------------------------------------------------------

    def list_soon(self, core: TableCore) -> None:
        """A public table's listing, written for the lobby of every node (at most about
        once a second a table)."""
        if not core.settings.public or core.id in self._listing or self.loop is None:
            return

        def write() -> None:
            self._listing.pop(core.id, None)
            if self.hub.tables.get(core.id) is core:
                listing = {**core.public_info(), "version": core.version}
                self.spawn(self.hub.run_db(self._write_listing, core.id, listing))

        self._listing[core.id] = self.loop.call_later(1.0, write)

    def _write_listing(self, table_id: str, listing: dict[str, Any]) -> None:
        store = self.hub.store
        with store.pool.connection() as db:
            db.execute("UPDATE dh_tables SET listing = %s WHERE id = %s",
                       (store._json_in(listing), table_id))

    async def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        mine = {t.id: {**t.public_info(), "version": t.version}
                for t in self.hub.tables.values() if t.settings.public and not t.finished}
        rows = await self.hub.run_db(
            self.hub.store._rows, "SELECT id, listing, created FROM {t}tables WHERE "
            "state = 'live' AND listing IS NOT NULL ORDER BY created DESC LIMIT {p}",
            (limit,))
        listed = dict(mine)
        created = {t.id: t.created for t in self.hub.tables.values()}
        for tid, listing, when in rows:
            if tid not in listed:
                listed[tid] = self.hub.store._json_out(listing)
                created[tid] = when
        order = sorted(listed, key=lambda t: created.get(t, 0), reverse=True)
        return [listed[t] for t in order[:limit]]
