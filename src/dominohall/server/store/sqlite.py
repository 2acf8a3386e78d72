"""SQLite storage (the default): one file, WAL mode, one transaction per write."""

from __future__ import annotations

import json
import sqlite3
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


class SqliteStore(SqlStore):
    """The Store interface on an SQLite file (``:memory:`` works for tests)."""

    P = "?"
    prefix = ""
    integrity_error = sqlite3.IntegrityError

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL: a committed transaction survives the process being killed (not a power cut)
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def _tx(self) -> _Transaction:
        return _Transaction(self.db)

    def _json_in(self, value: dict[str, Any]) -> str:
        return json.dumps(value)

    def _json_out(self, value: Any) -> dict[str, Any]:
        return json.loads(value)  # type: ignore[no-any-return]

    def _executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        self.db.executemany(sql, rows)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, err: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
