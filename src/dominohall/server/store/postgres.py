"""PostgreSQL storage (psycopg 3): the same tables as SQLite, for a shared server."""

from __future__ import annotations

from typing import Any

from .sql import SqlStore

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


class PostgresStore(SqlStore):
    """The Store interface on PostgreSQL (``postgresql://user@host:port/db``)."""

    P = "%s"
    prefix = "dh_"

    def __init__(self, url: str) -> None:
        import psycopg
        from psycopg.types.json import Jsonb

        self.integrity_error = psycopg.errors.IntegrityError
        self._jsonb = Jsonb
        self.db: Any = psycopg.connect(url, autocommit=True)
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(4242)")   # concurrent first starts
            self.db.execute(SCHEMA)

    def _tx(self) -> Any:
        return self.db.transaction()

    def _json_in(self, value: dict[str, Any]) -> Any:
        return self._jsonb(value)

    def _json_out(self, value: Any) -> dict[str, Any]:
        return dict(value)          # JSONB arrives decoded

    def _executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        with self.db.cursor() as cur:
            cur.executemany(sql, rows)
