"""The SQL both stores share; each backend supplies its dialect through a few hooks."""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from typing import Any

from . import StoredTable, StoreError


class SqlStore:
    """The Store interface over a DB-API connection.  Subclasses set `db`, the
    placeholder `P`, the table-name `prefix` and the `integrity_error` class, and
    implement `_tx`, `_json_in`, `_json_out` and `_executemany`."""

    db: Any
    P = "?"
    prefix = ""
    integrity_error: type[Exception] = Exception

    # ------------------------------------------------------------------ dialect hooks
    def _tx(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _json_in(self, value: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _json_out(self, value: Any) -> dict[str, Any]:
        raise NotImplementedError

    def _executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    def _sql(self, text: str) -> str:
        """`text` with {t} table-name prefixes and {p} placeholders filled in."""
        return text.format(t=self.prefix, p=self.P)

    # ------------------------------------------------------------------ the interface
    def create_table(self, table: StoredTable) -> None:
        try:
            with self._tx():
                self.db.execute(
                    self._sql("INSERT INTO {t}tables (id, record, settings, created) "
                              "VALUES ({p}, {p}, {p}, {p})"),
                    (table.id, self._json_in(table.record), self._json_in(table.settings),
                     table.created or time.time()))
                self._executemany(
                    self._sql("INSERT INTO {t}seats (table_id, seat, kind, bot, token, name) "
                              "VALUES ({p}, {p}, {p}, {p}, {p}, {p})"),
                    [(table.id, i, s["kind"], s.get("bot"), s["token"], s.get("name"))
                     for i, s in enumerate(table.seats)])
        except self.integrity_error as err:
            raise StoreError(f"table {table.id}: {err}") from None

    def append_action(self, table_id: str, seq: int, seat: int | None, action: str) -> None:
        try:
            with self._tx():
                self.db.execute(
                    self._sql("INSERT INTO {t}actions (table_id, seq, seat, action, created) "
                              "VALUES ({p}, {p}, {p}, {p}, {p})"),
                    (table_id, seq, seat, action, time.time()))
        except self.integrity_error as err:
            raise StoreError(f"table {table_id} action {seq}: {err}") from None

    def set_seat_name(self, table_id: str, seat: int, name: str) -> None:
        with self._tx():
            self.db.execute(
                self._sql("UPDATE {t}seats SET name = {p} WHERE table_id = {p} AND seat = {p}"),
                (name, table_id, seat))

    def load_tables(self) -> list[StoredTable]:
        out: dict[str, StoredTable] = {}
        for tid, record, settings, created in self.db.execute(self._sql(
                "SELECT id, record, settings, created FROM {t}tables ORDER BY created, id")):
            out[tid] = StoredTable(tid, self._json_out(record), self._json_out(settings), [], [],
                                   created)
        for tid, kind, bot, token, name in self.db.execute(self._sql(
                "SELECT table_id, kind, bot, token, name FROM {t}seats "
                "ORDER BY table_id, seat")):
            out[tid].seats.append({"kind": kind, "bot": bot, "token": token, "name": name})
        for tid, action in self.db.execute(self._sql(
                "SELECT table_id, action FROM {t}actions ORDER BY table_id, seq")):
            out[tid].actions.append(action)
        return list(out.values())

    def close(self) -> None:
        self.db.close()
