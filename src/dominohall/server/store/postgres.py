"""PostgreSQL storage (psycopg 3 + psycopg_pool): the same tables as SQLite, for a shared
server.

Connections come from a pool that checks each one before lending it, so a PostgreSQL
restart costs the next statement a reconnect, not the server's life; a statement that
fails because the connection was lost is retried on a fresh connection (with a short
backoff) for up to `retry_seconds`.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Any

from .sql import SqlStore

log = logging.getLogger("dominohall.server")

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
ALTER TABLE dh_tables ADD COLUMN IF NOT EXISTS state TEXT NOT NULL DEFAULT 'live';
ALTER TABLE dh_seats ADD COLUMN IF NOT EXISTS secret TEXT;
CREATE INDEX IF NOT EXISTS dh_tables_state ON dh_tables(state);
"""


class PostgresStore(SqlStore):
    """The Store interface on PostgreSQL (``postgresql://user@host:port/db``)."""

    P = "%s"
    prefix = "dh_"

    def __init__(self, url: str, *, max_connections: int = 8,
                 retry_seconds: float = 20.0) -> None:
        import psycopg
        from psycopg.types.json import Jsonb
        from psycopg_pool import ConnectionPool

        self.integrity_error = psycopg.errors.IntegrityError
        self._lost = (psycopg.OperationalError, psycopg.InterfaceError)
        self._jsonb = Jsonb
        self.retry_seconds = retry_seconds
        self.pool = ConnectionPool(url, min_size=1, max_size=max_connections,
                                   kwargs={"autocommit": True, "connect_timeout": 5},
                                   check=ConnectionPool.check_connection, open=False,
                                   name="dominohall", reconnect_timeout=0)
        self.pool.open(wait=True, timeout=10)
        with self.pool.connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(4242)")   # concurrent first starts
            row = db.execute("SELECT to_regclass('dh_seats')").fetchone()
            had_seats = row is not None and row[0] is not None
            had_secret = had_seats and db.execute(
                "SELECT 1 FROM information_schema.columns WHERE table_name = 'dh_seats' "
                "AND column_name = 'secret'").fetchone() is not None
            db.execute(SCHEMA)
            if had_seats and not had_secret:
                from .sqlite import LEGACY_SECRETS

                db.execute(LEGACY_SECRETS.format(t="dh_"))

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:
        with self.pool.connection(timeout=self.retry_seconds) as db, db.transaction():
            yield db

    def _retrying(self, fn: Any, *args: Any, **kw: Any) -> Any:
        """`fn` again on a fresh connection while the server is unreachable."""
        deadline = time.monotonic() + self.retry_seconds
        delay = 0.05
        attempt = 0
        while True:
            attempt += 1
            try:
                return fn(*args, **kw)
            except self._lost as err:
                if time.monotonic() + delay > deadline:
                    raise
                log.warning("PostgreSQL connection lost (%s); retrying", err)
                self.pool.check()           # drop the dead connections of the pool
                time.sleep(delay)
                delay = min(1.0, delay * 2)

    # every statement goes through the retry loop ------------------------------------------
    def create_table(self, table: Any) -> None:
        self._retrying(super().create_table, table)

    def append_action(self, table_id: str, seq: int, seat: int | None, action: str) -> None:
        from . import StoreError

        first = [True]

        def once() -> None:
            try:
                SqlStore.append_action(self, table_id, seq, seat, action)
            except StoreError:
                # after a lost connection the insert may have committed: that is success
                if not first[0] and self._stored(table_id, seq) == (seat, action):
                    return
                raise
            finally:
                first[0] = False

        self._retrying(once)

    def _stored(self, table_id: str, seq: int) -> tuple[Any, ...] | None:
        rows = self._rows("SELECT seat, action FROM {t}actions WHERE table_id = {p} "
                          "AND seq = {p}", (table_id, seq))
        return tuple(rows[0]) if rows else None

    def update_seat(self, table_id: str, seat: int, **fields: Any) -> None:
        self._retrying(super().update_seat, table_id, seat, **fields)

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        self._retrying(super().set_settings, table_id, settings)

    def set_state(self, table_id: str, state: str) -> None:
        self._retrying(super().set_state, table_id, state)

    def _load(self, where: str, args: tuple[Any, ...]) -> list[Any]:
        return self._retrying(super()._load, where, args)  # type: ignore[no-any-return]

    def _json_in(self, value: dict[str, Any]) -> Any:
        return self._jsonb(value)

    def _json_out(self, value: Any) -> dict[str, Any]:
        return dict(value)          # JSONB arrives decoded

    def close(self) -> None:
        self.pool.close()
