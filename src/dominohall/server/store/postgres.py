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

from .schema import POSTGRES, migrate
from .sql import SqlStore

log = logging.getLogger("dominohall.server")


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
        self.url = url
        self.fences = {}
        self.pool = ConnectionPool(url, min_size=1, max_size=max_connections,
                                   kwargs={"autocommit": True, "connect_timeout": 5},
                                   check=ConnectionPool.check_connection, open=False,
                                   name="dominohall", reconnect_timeout=0)
        self.pool.open(wait=True, timeout=10)
        with self.pool.connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(4242)")   # concurrent first starts
            migrate(db, POSTGRES)

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

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._retrying(super()._rows, sql, args)  # type: ignore[no-any-return]

    def _load(self, where: str, args: tuple[Any, ...]) -> list[Any]:
        return self._retrying(super()._load, where, args)  # type: ignore[no-any-return]

    def _json_in(self, value: dict[str, Any]) -> Any:
        return self._jsonb(value)

    def _json_out(self, value: Any) -> dict[str, Any]:
        return dict(value)          # JSONB arrives decoded

    def close(self) -> None:
        self.pool.close()
