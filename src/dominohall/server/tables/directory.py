"""Which node owns which table.

Exactly one node at a time owns a live table: only its :class:`~.core.TableCore`
applies actions, drives the bots, the turn timer and the pauses.  The hub asks its
directory before it builds a core (:meth:`Directory.claim`), gives a table back when it
leaves memory (:meth:`Directory.release`), and learns at start which tables to resume
(:meth:`Directory.resume`).

:class:`LocalDirectory` is the single node (SQLite, the embedded default): it owns every
table, and it refuses a second server on the same database file with one clear line.
The PostgreSQL cluster's directory (leases with a heartbeat, taken on demand) has the
same interface.
"""

from __future__ import annotations

import contextlib
import os
from typing import IO, TYPE_CHECKING, Any, Protocol

from ..store import Store, StoredTable, StoreError

if TYPE_CHECKING:
    from .audience import Connection
    from .core import TableCore
    from .hub import Successor
    from .state import TableState


class Directory(Protocol):
    """Table ownership, as the hub needs it."""

    #: this node's name (shown in logs and in the cluster's tables)
    node: str

    def start(self) -> None:
        """Join (the cluster's nodes, or lock the database file); StoreError if refused."""

    def stop(self) -> None:
        """Leave: every lease this node holds is given up."""

    def claim(self, table_id: str) -> bool:
        """Take `table_id`'s lease if nobody alive holds it; True if this node owns it."""

    def release(self, table_id: str) -> None:
        """Give up `table_id` (it left this node's memory)."""

    def resume(self) -> list[StoredTable]:
        """The live tables this node owns at start (to rebuild)."""

    def owner(self, table_id: str) -> str | None:
        """The node that owns a live table now, or None if nobody does."""


class Cluster(Protocol):
    """What the hub asks of its node's part in a cluster (:mod:`dominohall.server.cluster`):
    tables other nodes own are served through it."""

    followers: dict[str, Any]

    async def open(self) -> None:
        """Join the cluster (before the hub resumes its tables)."""

    async def close(self) -> None:
        """Hand every owned table over, then leave."""

    def attach(self, core: TableCore) -> None:
        """An owned table's events reach the nodes that follow it."""

    async def resolve(self, table_id: str) -> TableState | None:
        """A table this node does not own yet: its core (the lease taken now, nobody
        alive holding it) or a follower of its owner; None if there is no such table."""

    async def connect(self, table: Any, conn: Connection) -> None: ...

    def disconnect(self, table: Any, conn: Connection) -> None: ...

    async def again(self, old: Any, seat: int | None, host: bool, address: str,
                    free_as: str | None = None) -> Successor: ...

    async def take_seat_again(self, nxt: Any, seat: int, holder: str) -> str: ...

    async def relay(self, table: Any, op: str, **args: Any) -> Any:
        """`op` on the owner of `table`."""

    def tell(self, table_id: str, text: str) -> None:
        """A message to the connections of `table_id` on the other nodes."""

    async def let_go(self, table_id: str) -> None:
        """An owned table leaves this node's memory."""

    async def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        """The public tables of every node."""

    def demote_soon(self, core: TableCore) -> None:
        """Another node took `core`'s table over."""


class LocalDirectory:
    """One node owns everything.  A second node on the same SQLite file is refused
    (an exclusive lock on ``FILE.lock`` next to it, held while the server runs)."""

    node = "local"

    def __init__(self, store: Store, path: str | None = None) -> None:
        self.store = store
        self.path = path if path is not None else getattr(store, "path", None)
        self._lock: IO[str] | None = None

    def start(self) -> None:
        if not self.path or self.path == ":memory:":
            return
        import fcntl

        lock_path = self.path + ".lock"
        handle = open(lock_path, "a+")  # noqa: SIM115 - held open while the server runs
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            other = handle.read().strip()
            handle.close()
            raise StoreError(f"another dominohall server is using {self.path}"
                             f"{f' (process {other})' if other else ''}; an SQLite "
                             "database serves one node: stop it, or give both "
                             "--db postgresql://... to run a cluster") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._lock = handle

    def stop(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self._lock.close()
            self._lock = None

    def claim(self, table_id: str) -> bool:
        return True

    def release(self, table_id: str) -> None:
        return None

    def resume(self) -> list[StoredTable]:
        return self.store.load_tables(True)

    def owner(self, table_id: str) -> str | None:
        return self.node
