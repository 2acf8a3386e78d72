"""SQLite storage (the default): one file, WAL mode, one transaction per write.

Each thread gets its own connection (the server uses a small pool of threads).  SQLite
has one writer at a time: writes take a lock in this process first (handed over at
once, where SQLite's own busy wait sleeps in steps of up to 100 ms) and SQLite's busy
timeout only for another process; reads (WAL) never wait for a write."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

from .schema import SQLITE, migrate
from .sql import SqlStore


class SqliteStore(SqlStore):
    """The Store interface on an SQLite file (``:memory:`` works for tests)."""

    P = "?"
    prefix = ""
    integrity_error = sqlite3.IntegrityError

    def __init__(self, path: str, busy_seconds: float = 10.0) -> None:
        self.path = path
        self.busy_seconds = busy_seconds
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._write = threading.Lock()
        self._shared: sqlite3.Connection | None = None
        if path == ":memory:":          # one database, so one connection for every thread
            self._shared = self._open()
        with self._tx() as db:
            migrate(db, SQLITE)

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                             timeout=self.busy_seconds)
        db.execute("PRAGMA journal_mode=WAL")
        # NORMAL: a committed transaction survives the process being killed (not a power cut)
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._all.append(db)
        return db

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection."""
        if self._shared is not None:
            return self._shared
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._open()
        return db

    @contextlib.contextmanager
    def _tx(self, begin: str = "BEGIN IMMEDIATE") -> Iterator[sqlite3.Connection]:
        db = self.db
        lock: contextlib.AbstractContextManager[Any]
        if self._shared is not None:
            lock = self._lock                       # :memory: one connection for all
        elif begin == "BEGIN IMMEDIATE":
            lock = self._write                      # one writer at a time
        else:
            lock = contextlib.nullcontext()         # WAL: reads never wait
        with lock:
            db.execute(begin)
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _read(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return self._tx("BEGIN")

    def _json_in(self, value: dict[str, Any]) -> str:
        return json.dumps(value)

    def _json_out(self, value: Any) -> dict[str, Any]:
        return json.loads(value)  # type: ignore[no-any-return]

    def close(self) -> None:
        with self._lock:
            for db in self._all:
                with contextlib.suppress(sqlite3.Error):
                    db.close()
            self._all.clear()
