"""SQLite storage (the default): one file, WAL mode, one transaction per write.

Each thread gets its own connection (the server writes from a small pool of threads,
so one slow or locked write does not hold up every table)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

from .sql import SqlStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    record   TEXT NOT NULL,
    settings TEXT NOT NULL,
    created  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat     INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    bot      TEXT,
    token    TEXT NOT NULL,
    name     TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq      INTEGER NOT NULL,
    seat     INTEGER,
    action   TEXT NOT NULL,
    created  REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""
#: columns added since the first schema: (table, column, definition)
ADDED = [("tables", "state", "TEXT NOT NULL DEFAULT 'live'"), ("seats", "secret", "TEXT")]
#: before seat secrets, a taken seat's invite token was its credential: it becomes the
#: seat's secret (old cookies keep working; an old invite link renames, as it did)
LEGACY_SECRETS = ("UPDATE {t}seats SET secret = token, token = '' "
                  "WHERE kind = 'human' AND name IS NOT NULL AND secret IS NULL")


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
        self._shared: sqlite3.Connection | None = None
        if path == ":memory:":          # one database, so one connection for every thread
            self._shared = self._open()
        db = self.db
        db.executescript(SCHEMA)
        for table, column, definition in ADDED:
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
                if column == "secret":
                    db.execute(LEGACY_SECRETS.format(t=""))
        db.execute("CREATE INDEX IF NOT EXISTS tables_state ON tables(state)")

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
    def _tx(self) -> Iterator[sqlite3.Connection]:
        db = self.db
        lock = self._lock if self._shared is not None else contextlib.nullcontext()
        with lock:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

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
