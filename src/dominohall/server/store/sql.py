"""The SQL both stores share; each backend supplies its connections and dialect."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any

from . import LeaseLost, StoredTable, StoreError

#: table states: live tables are rebuilt at start; finished and expired ones stay stored
LIVE, OVER, EXPIRED = "live", "over", "expired"


class SqlStore:
    """The Store interface over DB-API connections.  Subclasses set the placeholder `P`,
    the table-name `prefix` and the `integrity_error` class, and implement `_tx` (a
    connection inside one transaction, safe to use from the calling thread), `_json_in`,
    `_json_out`."""

    P = "?"
    prefix = ""
    integrity_error: type[Exception] = Exception
    #: table id -> (node, epoch): a cluster node's leases; each write to such a table
    #: happens only while the lease is still (node, epoch), else LeaseLost
    fences: dict[str, tuple[str, int]]

    # ------------------------------------------------------------------ dialect hooks
    def _tx(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _read(self) -> AbstractContextManager[Any]:
        """A connection for reading (by default the same as for writing)."""
        return self._tx()

    def _json_in(self, value: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _json_out(self, value: Any) -> dict[str, Any]:
        raise NotImplementedError

    def _sql(self, text: str) -> str:
        """`text` with {t} table-name prefixes and {p} placeholders filled in."""
        return text.format(t=self.prefix, p=self.P)

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._read() as db:
            return list(db.execute(self._sql(sql), args).fetchall())

    # ------------------------------------------------------------------ the interface
    def create_table(self, table: StoredTable) -> None:
        try:
            with self._tx() as db:
                db.execute(
                    self._sql("INSERT INTO {t}tables (id, record, settings, created, state, "
                              "creator) VALUES ({p}, {p}, {p}, {p}, {p}, {p})"),
                    (table.id, self._json_in(table.record), self._json_in(table.settings),
                     table.created or time.time(), table.state, table.creator or ""))
                for i, s in enumerate(table.seats):
                    db.execute(
                        self._sql("INSERT INTO {t}seats (table_id, seat, kind, bot, token, "
                                  "secret, name) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})"),
                        (table.id, i, s["kind"], s.get("bot"), s.get("token") or "",
                         s.get("secret"), s.get("name")))
        except self.integrity_error as err:
            raise StoreError(f"table {table.id}: {err}") from None

    def _fence(self, table_id: str) -> tuple[str, tuple[Any, ...]]:
        """The condition that this node still holds `table_id`'s lease ("" if unfenced)."""
        fence = getattr(self, "fences", {}).get(table_id)
        if fence is None:
            return "", ()
        return (self._sql(" AND EXISTS (SELECT 1 FROM {t}owners WHERE table_id = {p} "
                          "AND node = {p} AND epoch = {p})"), (table_id, *fence))

    @staticmethod
    def _fenced(cursor: Any, fence: str, table_id: str) -> None:
        if fence and cursor.rowcount == 0:
            raise LeaseLost(f"table {table_id}: this node no longer holds its lease")

    def append_action(self, table_id: str, seq: int, seat: int | None, action: str) -> None:
        fence, args = self._fence(table_id)
        try:
            with self._tx() as db:
                if fence:
                    cur = db.execute(
                        self._sql("INSERT INTO {t}actions (table_id, seq, seat, action, "
                                  "created) SELECT {p}, {p}, {p}, {p}, {p} WHERE TRUE") + fence,
                        (table_id, seq, seat, action, time.time(), *args))
                    self._fenced(cur, fence, table_id)
                else:
                    db.execute(
                        self._sql("INSERT INTO {t}actions (table_id, seq, seat, action, "
                                  "created) VALUES ({p}, {p}, {p}, {p}, {p})"),
                        (table_id, seq, seat, action, time.time()))
        except self.integrity_error as err:
            raise StoreError(f"table {table_id} action {seq}: {err}") from None

    def set_seat_name(self, table_id: str, seat: int, name: str) -> None:
        self.update_seat(table_id, seat, name=name)

    def update_seat(self, table_id: str, seat: int, **fields: Any) -> None:
        """Set some of a seat's `token` (its invite; "" once retired), `secret`, `name`,
        `kind` and `bot` (a Play again seat freed to a bot)."""
        cols = [k for k in ("token", "secret", "name", "kind", "bot") if k in fields]
        if not cols:
            return
        sets = ", ".join(f"{k} = {{p}}" for k in cols)
        fence, args = self._fence(table_id)
        with self._tx() as db:
            cur = db.execute(self._sql(f"UPDATE {{t}}seats SET {sets} "
                                       "WHERE table_id = {p} AND seat = {p}") + fence,
                             (*(fields[k] if k != "token" else fields[k] or "" for k in cols),
                              table_id, seat, *args))
            self._fenced(cur, fence, table_id)

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        fence, args = self._fence(table_id)
        with self._tx() as db:
            cur = db.execute(self._sql("UPDATE {t}tables SET settings = {p} WHERE id = {p}")
                             + fence, (self._json_in(settings), table_id, *args))
            self._fenced(cur, fence, table_id)

    def set_state(self, table_id: str, state: str) -> None:
        """Mark a table live, over (the match ended) or expired (abandoned)."""
        fence, args = self._fence(table_id)
        with self._tx() as db:
            cur = db.execute(self._sql("UPDATE {t}tables SET state = {p} WHERE id = {p}")
                             + fence, (state, table_id, *args))
            self._fenced(cur, fence, table_id)

    def live_tables_of(self, creator: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
        """The live tables created from address `creator`: (id, [(kind, bot) per seat])."""
        out: dict[str, list[tuple[str, str | None]]] = {}
        for tid, kind, bot in self._rows(
                "SELECT t.id, s.kind, s.bot FROM {t}tables t JOIN {t}seats s ON s.table_id = t.id "
                "WHERE t.state = 'live' AND t.creator = {p} ORDER BY t.id, s.seat", (creator,)):
            out.setdefault(tid, []).append((kind, bot))
        return list(out.items())

    def count_live(self) -> int:
        """How many tables are live (on every node of a cluster)."""
        rows = self._rows("SELECT count(*) FROM {t}tables WHERE state = 'live'")
        return int(rows[0][0])

    def load_tables(self, live_only: bool = False) -> list[StoredTable]:
        where = " WHERE state = 'live'" if live_only else ""
        return self._load(where, ())

    def load_table(self, table_id: str) -> StoredTable | None:
        found = self._load(" WHERE id = {p}", (table_id,))
        return found[0] if found else None

    def _load(self, where: str, args: tuple[Any, ...]) -> list[StoredTable]:
        out: dict[str, StoredTable] = {}
        sub = "SELECT id FROM {t}tables" + where
        with self._read() as db:
            for tid, record, settings, created, state, creator in db.execute(self._sql(
                    "SELECT id, record, settings, created, state, creator FROM {t}tables" +
                    where + " ORDER BY created, id"), args).fetchall():
                out[tid] = StoredTable(tid, self._json_out(record), self._json_out(settings),
                                       [], [], created, state, creator or "")
            for tid, kind, bot, token, secret, name in db.execute(self._sql(
                    "SELECT table_id, kind, bot, token, secret, name FROM {t}seats "
                    f"WHERE table_id IN ({sub}) ORDER BY table_id, seat"), args).fetchall():
                out[tid].seats.append({"kind": kind, "bot": bot, "token": token or "",
                                       "secret": secret, "name": name})
            for tid, action in _rows(db.execute(self._sql(
                    "SELECT table_id, action FROM {t}actions "
                    f"WHERE table_id IN ({sub}) ORDER BY table_id, seq"), args)):
                out[tid].actions.append(action)
        return list(out.values())

    def close(self) -> None:
        raise NotImplementedError


def _rows(cursor: Any) -> Iterator[tuple[Any, ...]]:
    while True:
        batch = cursor.fetchmany(5000)
        if not batch:
            return
        yield from batch
