"""Play again: the next table's seats, reserved for the same people.

The first *Play again* at a finished table makes its successor (see
:meth:`~.hub.Hub.again`).  Every human seat whose player held it at the finished table is
**reserved** for that player's device: the next table stores, in its settings'
``again``, a hash of the finished table's seat secret, and the seat has no invite at all
(``token`` ""), so nothing in anyone's view can open it.  Only a request carrying that
seat secret (the finished table's seat cookie) takes it.  The reservation runs for
``Limits.again_seconds``; a seat not taken by then is **freed**: played by the table's
stand-in bot (``free_as`` "bot", the default), or given an invite link the host sees
(``free_as`` "invite", the host's choice when the next table is made).  The match starts
once no seat is reserved any more (see :attr:`~.state.TableState.waiting`).

The successor's id is derived from the finished table's id and nonce, so two nodes of a
cluster asked at once make one table: the second insert fails and that node uses the
first one's.

``again`` (stored)::

    {"from": OLD_ID, "by": SEAT, "deadline": UNIX_TIME, "free_as": "bot" | "invite",
     "reserved": {"2": {"h": SHA256_OF_OLD_SECRET, "name": "Ben", "taken": false}},
     "freed": [2]}
"""

from __future__ import annotations

import base64
import hashlib
import time
from typing import Any

FREE_AS = ("bot", "invite")


def holder_hash(secret: str | None) -> str:
    """What a reservation keeps of the finished table's seat secret."""
    return hashlib.sha256(f"dominohall-again/{secret}".encode()).hexdigest()


def next_id(old: Any) -> str:
    """The successor's table id: the same on every node for the same finished table."""
    digest = hashlib.sha256(f"again/{old.id}/{old.settings.nonce or ''}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:9]).decode().replace("-", "x").replace("_", "y")


def reserve(made: Any, old: Any, by: int | None, seconds: float, free_as: str) -> None:
    """Reserve `made`'s human seats (a :class:`~.spec.TableSpec` not stored yet) for the
    players of `old`, and make `old`'s host its host."""
    reserved = {}
    for i, seat in enumerate(old.seats):
        if seat.human and seat.secret and made.seats[i].human:
            made.seats[i].token = ""            # no invite: nothing to see or to claim
            reserved[str(i)] = {"h": holder_hash(seat.secret), "name": seat.name,
                                "taken": False}
    made.settings.admin = old.settings.admin
    made.settings.again = {"from": old.id, "by": by, "deadline": time.time() + seconds,
                           "free_as": free_as if free_as in FREE_AS else "bot",
                           "reserved": reserved, "freed": []}


def pending(table: Any) -> list[int]:
    """The seats still reserved: neither taken by their player nor freed."""
    again = table.settings.again or {}
    freed = set(again.get("freed") or [])
    return sorted(int(s) for s, r in (again.get("reserved") or {}).items()
                  if not r.get("taken") and int(s) not in freed)


def seconds_left(table: Any) -> float:
    again = table.settings.again or {}
    return max(0.0, float(again.get("deadline") or 0) - time.time())


def info(table: Any) -> dict[str, Any] | None:
    """The public part (no hash): who asked, the seconds left, the seats still reserved."""
    again = table.settings.again
    if not again:
        return None
    by = again.get("by")
    name = table.seats[by].name if isinstance(by, int) and 0 <= by < len(table.seats) else None
    return {"from": again.get("from"), "by": by, "name": name,
            "left": round(seconds_left(table), 1), "reserved": pending(table),
            "free_as": again.get("free_as", "bot")}
