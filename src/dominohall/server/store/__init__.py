"""Storage behind one small interface: tables, seats and an append-only action log.

A table is stored as its game record without actions (options, seed, deck; see
``Game.to_record``) plus its seats and room settings; every accepted action is
one row ``(table_id, seq, seat, action)`` inserted in its own transaction, never
updated or deleted.  ``load_tables()`` returns everything needed to rebuild every
table with ``dominohall.replay``.

The interface is synchronous and thread-safe: the server calls it from a small pool
of threads, so the event loop never waits on the disk and one slow write (a locked
table) does not hold up the others.  A table is ``live`` until its match ends
(``over``) or it is abandoned (``expired``); only live tables are rebuilt at start,
the others stay stored (their records downloadable).

>>> s = open_store(":memory:")
>>> s.create_table(StoredTable("t1", {"game": "draw"}, {"away_seconds": 0},
...                [{"kind": "bot", "bot": "random", "token": "x", "name": None}]))
>>> s.append_action("t1", 1, 0, "6-6")
>>> [t.actions for t in s.load_tables()]
[['6-6']]
"""

from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass, field
from typing import Any, Protocol


class StoreError(Exception):
    """The database refused a write (e.g. a duplicate action number)."""


class LeaseLost(StoreError):
    """A cluster node wrote to a table whose lease another node has taken since."""


@dataclass
class StoredTable:
    """One table as stored: enough to rebuild it exactly."""

    id: str
    record: dict[str, Any]            # Game.to_record() with the actions left out
    settings: dict[str, Any]          # room settings: away_seconds, ready_seconds, admin token...
    seats: list[dict[str, Any]]       # per seat: kind ("human"|"bot"), bot, name, token (its
    #                                   invite, "" once claimed), secret (the claiming device's)
    actions: list[str] = field(default_factory=list)
    created: float = 0.0
    state: str = "live"               # live | over | expired
    creator: str = ""                 # the client address that created it (per-address caps)


class Store(Protocol):
    """What the server needs from a database."""

    def create_table(self, table: StoredTable) -> None:
        """Insert a new table and its seats (one transaction)."""

    def append_action(self, table_id: str, seq: int, seat: int | None, action: str) -> None:
        """Append action number `seq` (1-based) of a table; StoreError if `seq` exists."""

    def set_seat_name(self, table_id: str, seat: int, name: str) -> None:
        """Record the display name of whoever took a seat."""

    def update_seat(self, table_id: str, seat: int, **fields: Any) -> None:
        """Set a seat's `token` (its invite), `secret` and/or `name`."""

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        """Replace a table's room settings."""

    def set_state(self, table_id: str, state: str) -> None:
        """Mark a table live, over or expired."""

    def live_tables_of(self, creator: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
        """The live tables created from address `creator`: (id, [(kind, bot) per seat])."""

    def count_live(self) -> int:
        """How many tables are live (in a cluster: on every node)."""

    def load_tables(self, live_only: bool = False) -> list[StoredTable]:
        """Every table (or every live one) with its actions in order."""

    def load_table(self, table_id: str) -> StoredTable | None:
        """One table with its actions, whatever its state; None if there is none."""

    def close(self) -> None:
        """Release the connection."""


def default_db_path() -> pathlib.Path:
    """$DOMINOHALL_DATA_DIR/dominohall.sqlite3, else the user's data folder (platformdirs)."""
    env = os.environ.get("DOMINOHALL_DATA_DIR")
    if env:
        base = pathlib.Path(env)
    else:
        import platformdirs

        base = pathlib.Path(platformdirs.user_data_dir("dominohall", appauthor=False))
    return base / "dominohall.sqlite3"


def is_postgres(where: str | os.PathLike[str] | None) -> bool:
    """`where` names a PostgreSQL database (else an SQLite file)."""
    return where is not None and os.fspath(where).startswith(("postgresql://", "postgres://"))


def open_store(where: str | os.PathLike[str] | None = None) -> Store:
    """A store for a file path (SQLite), a ``postgresql://`` URL, or None (the default file)."""
    text = "" if where is None else os.fspath(where)
    try:
        if is_postgres(text):
            from .postgres import PostgresStore

            return PostgresStore(text)
        from .sqlite import SqliteStore

        if not text:
            path = default_db_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            text = str(path)
        return SqliteStore(text)
    except (OSError, ImportError, StoreError):
        raise
    except Exception as err:        # sqlite3.Error / psycopg.Error: say which database
        raise StoreError(f"cannot open the database {describe(where)}: {err}") from None


def describe(where: str | os.PathLike[str] | None) -> str:
    """Where a store lives, for messages (a PostgreSQL password is hidden)."""
    text = "" if where is None else os.fspath(where)
    if "://" in text:
        scheme, rest = text.split("://", 1)
        if "@" in rest:
            creds, host = rest.rsplit("@", 1)
            user = creds.split(":", 1)[0]
            return f"{scheme}://{user}@{host}"
        return text
    return text or str(default_db_path())


__all__ = ["LeaseLost", "Store", "StoreError", "StoredTable", "default_db_path", "describe",
           "is_postgres", "open_store"]
