"""SQLite storage (the default): one file, WAL mode, one transaction per write."""

from __future__ import annotations

import json
import sqlite3
import time

from . import StoredTable, StoreError

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


class SqliteStore:
    """The Store interface on an SQLite file (``:memory:`` works for tests)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL: a committed transaction survives the process being killed (not a power cut)
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def create_table(self, table: StoredTable) -> None:
        try:
            with self._tx():
                self.db.execute(
                    "INSERT INTO tables (id, record, settings, created) VALUES (?, ?, ?, ?)",
                    (table.id, json.dumps(table.record), json.dumps(table.settings),
                     table.created or time.time()))
                self.db.executemany(
                    "INSERT INTO seats (table_id, seat, kind, bot, token, name) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(table.id, i, s["kind"], s.get("bot"), s["token"], s.get("name"))
                     for i, s in enumerate(table.seats)])
        except sqlite3.IntegrityError as err:
            raise StoreError(f"table {table.id}: {err}") from None

    def append_action(self, table_id: str, seq: int, seat: int | None, action: str) -> None:
        try:
            with self._tx():
                self.db.execute(
                    "INSERT INTO actions (table_id, seq, seat, action, created) "
                    "VALUES (?, ?, ?, ?, ?)", (table_id, seq, seat, action, time.time()))
        except sqlite3.IntegrityError as err:
            raise StoreError(f"table {table_id} action {seq}: {err}") from None

    def set_seat_name(self, table_id: str, seat: int, name: str) -> None:
        with self._tx():
            self.db.execute("UPDATE seats SET name = ? WHERE table_id = ? AND seat = ?",
                            (name, table_id, seat))

    def load_tables(self) -> list[StoredTable]:
        out: dict[str, StoredTable] = {}
        for tid, record, settings, created in self.db.execute(
                "SELECT id, record, settings, created FROM tables ORDER BY created, id"):
            out[tid] = StoredTable(tid, json.loads(record), json.loads(settings), [], [], created)
        for tid, _seat, kind, bot, token, name in self.db.execute(
                "SELECT table_id, seat, kind, bot, token, name FROM seats ORDER BY table_id, seat"):
            out[tid].seats.append({"kind": kind, "bot": bot, "token": token, "name": name})
        for tid, action in self.db.execute(
                "SELECT table_id, action FROM actions ORDER BY table_id, seq"):
            out[tid].actions.append(action)
        return list(out.values())

    def close(self) -> None:
        self.db.close()

    def _tx(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, err: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
