"""PostgreSQL storage (psycopg 3): the same tables as SQLite, for a shared server."""

from __future__ import annotations

import time
from typing import Any

from . import StoredTable, StoreError

SCHEMA = """
CREATE TABLE IF NOT EXISTS dh_tables (
    id       TEXT PRIMARY KEY,
    record   JSONB NOT NULL,
    settings JSONB NOT NULL,
    created  DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS dh_seats (
    table_id TEXT NOT NULL REFERENCES dh_tables(id),
    seat     INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    bot      TEXT,
    token    TEXT NOT NULL,
    name     TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS dh_actions (
    table_id TEXT NOT NULL REFERENCES dh_tables(id),
    seq      INTEGER NOT NULL,
    seat     INTEGER,
    action   TEXT NOT NULL,
    created  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""


class PostgresStore:
    """The Store interface on PostgreSQL (``postgresql://user@host:port/db``)."""

    def __init__(self, url: str) -> None:
        import psycopg
        from psycopg.types.json import Jsonb

        self._psycopg = psycopg
        self._jsonb = Jsonb
        self.db: Any = psycopg.connect(url, autocommit=True)
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(4242)")   # concurrent first starts
            self.db.execute(SCHEMA)

    def create_table(self, table: StoredTable) -> None:
        try:
            with self.db.transaction():
                self.db.execute(
                    "INSERT INTO dh_tables (id, record, settings, created) "
                    "VALUES (%s, %s, %s, %s)",
                    (table.id, self._jsonb(table.record), self._jsonb(table.settings),
                     table.created or time.time()))
                with self.db.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO dh_seats (table_id, seat, kind, bot, token, name) "
                        "VALUES (%s, %s, %s, %s, %s, %s)",
                        [(table.id, i, s["kind"], s.get("bot"), s["token"], s.get("name"))
                         for i, s in enumerate(table.seats)])
        except self._psycopg.errors.IntegrityError as err:
            raise StoreError(f"table {table.id}: {err}") from None

    def append_action(self, table_id: str, seq: int, seat: int | None, action: str) -> None:
        try:
            with self.db.transaction():
                self.db.execute(
                    "INSERT INTO dh_actions (table_id, seq, seat, action, created) "
                    "VALUES (%s, %s, %s, %s, %s)", (table_id, seq, seat, action, time.time()))
        except self._psycopg.errors.IntegrityError as err:
            raise StoreError(f"table {table_id} action {seq}: {err}") from None

    def set_seat_name(self, table_id: str, seat: int, name: str) -> None:
        with self.db.transaction():
            self.db.execute("UPDATE dh_seats SET name = %s WHERE table_id = %s AND seat = %s",
                            (name, table_id, seat))

    def load_tables(self) -> list[StoredTable]:
        out: dict[str, StoredTable] = {}
        for tid, record, settings, created in self.db.execute(
                "SELECT id, record, settings, created FROM dh_tables ORDER BY created, id"):
            out[tid] = StoredTable(tid, record, settings, [], [], created)
        for tid, kind, bot, token, name in self.db.execute(
                "SELECT table_id, kind, bot, token, name FROM dh_seats ORDER BY table_id, seat"):
            out[tid].seats.append({"kind": kind, "bot": bot, "token": token, "name": name})
        for tid, action in self.db.execute(
                "SELECT table_id, action FROM dh_actions ORDER BY table_id, seq"):
            out[tid].actions.append(action)
        return list(out.values())

    def close(self) -> None:
        self.db.close()
