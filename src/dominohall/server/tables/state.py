"""A table's typed state: its seats, its settings, and what every node knows of a table
(:class:`TableState`: the game, who sits where, the deal's commitment, the record).

Seats: a human seat has an **invite** token until someone claims it; claiming it gives
that device a fresh **seat secret** and retires the invite, so an invite link seen by
others is worthless once used.  A bot seat has neither.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ...engine import Game, replay
from .. import fair
from ..protocol import Rejected, same_secret
from ..store import StoredTable
from ..store.sql import EXPIRED, LIVE, OVER
from . import again

#: the table settings a lobby request may set: name -> allowed range (whole seconds)
SETTINGS_RANGES = {"away_seconds": (0, 3600), "ready_seconds": (0, 600),
                   "turn_seconds": (0, 3600)}


@dataclass
class Seat:
    """One seat: a bot (`bot` names its level) or a person.

    `token` is a human seat's invite ("" once claimed); `secret` the claiming device's
    seat secret (None until claimed); `name` the display name (None: nobody sat yet)."""

    kind: str                       # "human" | "bot"
    bot: str | None = None
    name: str | None = None
    token: str = ""
    secret: str | None = None

    @property
    def human(self) -> bool:
        return self.kind == "human"

    @classmethod
    def from_stored(cls, s: dict[str, Any]) -> Seat:
        return cls(kind=s["kind"], bot=s.get("bot"), name=s.get("name"),
                   token=s.get("token") or "", secret=s.get("secret"))

    def stored(self) -> dict[str, Any]:
        return {"kind": self.kind, "bot": self.bot, "token": self.token,
                "secret": self.secret, "name": self.name}


@dataclass
class TableSettings:
    """A table's settings as stored (JSON): the creator's choices and the facts the
    table keeps (the host's admin token, the deal's nonce, notices, Play again's table).
    Keys this version does not know are kept in `extra` and stored again unchanged."""

    admin: str | None = None
    nonce: str | None = None
    seed_chosen: bool = False
    away_seconds: int = 30
    ready_seconds: int = 20
    turn_seconds: int = 0
    away_bot: str = "greedy"
    hints: bool | None = None       # None: a table from before the setting (the default)
    public: bool = False
    host_seat: int | None = None        # the seat the creator took (the invite names them)
    notices: list[dict[str, Any]] = field(default_factory=list)
    next_table: str | None = None
    again: dict[str, Any] | None = None     # Play again's reservations (see .again)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_stored(cls, d: dict[str, Any]) -> TableSettings:
        known = {f.name for f in fields(cls)} - {"extra"}
        out = cls(**{k: v for k, v in d.items() if k in known})
        out.notices = list(out.notices or [])
        out.extra = {k: v for k, v in d.items() if k not in known}
        return out

    def stored(self) -> dict[str, Any]:
        d = asdict(self)
        extra = d.pop("extra")
        for key in ("next_table", "again"):
            if d[key] is None:
                del d[key]
        return {**extra, **d}

    def copy(self, **changes: Any) -> TableSettings:
        return TableSettings.from_stored({**self.stored(), **changes})


class TableState:
    """What any node knows of one table: its game rebuilt from the stored record, seats,
    settings, and whether it is over.  The owner's :class:`~.core.TableCore` adds the
    live parts (presence, clocks, bots); a cluster node's follower of a table another
    node owns relays to it."""

    hub: Any            # the node's Hub (set by each kind of table)

    def __init__(self, stored: StoredTable, game: Game) -> None:
        self.id = stored.id
        self.base_record = stored.record
        self.seats = [Seat.from_stored(s) for s in stored.seats]
        self.settings = TableSettings.from_stored(stored.settings)
        self.game = game
        self.created = stored.created
        self.expired = stored.state == EXPIRED
        self.creator_address = stored.creator
        #: counts changes of seats and settings (a follower on another node reloads them)
        self.meta = 0

    @classmethod
    def rebuild(cls, stored: StoredTable) -> Game:
        """The game of a stored table (its record and action log); raises on a bad one."""
        return replay({**stored.record, "actions": stored.actions})

    # --- seats ---------------------------------------------------------------------------

    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human]

    def seat_of(self, secret: str | None) -> int | None:
        """The seat a seat secret opens (an invite token opens nothing but /join), or None."""
        if not secret:
            return None
        for i, s in enumerate(self.seats):
            if s.human and same_secret(s.secret, secret):
                return i
        return None

    def invited_seat(self, token: str | None) -> int | None:
        """The unclaimed seat an invite token is for, or None (a claimed invite is retired)."""
        for i, s in enumerate(self.seats):
            if s.human and not s.secret and same_secret(s.token, token):
                return i
        return None

    def open_invites(self) -> list[int]:
        """Human seats nobody has claimed yet (their invites are still valid)."""
        return [i for i in self.human_seats() if not self.seats[i].secret and self.seats[i].token]

    def is_host(self, admin: str | None) -> bool:
        return same_secret(self.settings.admin, admin)

    @property
    def waiting(self) -> bool:
        """Some open seat has not been taken yet, or a seat is still reserved for its
        player (Play again): nobody moves."""
        return any(s.human and not s.name for s in self.seats) or bool(again.pending(self))

    # --- the match -----------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.game.actions)

    @property
    def finished(self) -> bool:
        """The match is over or the table expired: the seed may be revealed."""
        return self.expired or self.game.is_over

    @property
    def state(self) -> str:
        return EXPIRED if self.expired else OVER if self.game.is_over else LIVE

    def status(self) -> str:
        if self.game.is_over:
            return "over"
        if self.expired:
            return "expired"
        return "waiting" if self.waiting else "playing"

    def fairness(self) -> dict[str, Any]:
        """The deal's commitment; once the match is over, the seed and nonce behind it."""
        nonce = self.settings.nonce
        seed = self.base_record.get("seed")
        if not nonce or seed is None:       # a table from before commitments existed
            return {"commitment": None, "scheme": fair.SCHEME, "seed_chosen": True}
        out: dict[str, Any] = {"commitment": fair.commitment(seed, nonce),
                               "scheme": fair.SCHEME,
                               "seed_chosen": bool(self.settings.seed_chosen)}
        if self.finished:
            out["seed"] = str(seed)         # text: a 129-bit number does not fit a JS number
            out["nonce"] = nonce
            out["ending"] = "expired" if self.expired else "over"
            out["record_hash"] = fair.record_hash(out["commitment"], self.game.actions,
                                                  out["ending"])
            out["record_scheme"] = fair.RECORD_SCHEME
        return out

    def record(self) -> dict[str, Any]:
        """The full record with the revealed seed (only once the match is over)."""
        if not self.finished:
            raise Rejected("not_over", "The record is published when the match is over.", 409,
                           reason="record_not_ready")
        record = {**self.base_record, "actions": self.game.actions[:]}
        info = self.fairness()
        if info.get("seed") is not None:
            info["seed"] = self.base_record.get("seed")
        record["fairness"] = info
        return record

    # --- what every table answers (the owner's core, or another node's follower) --------

    def table_info(self) -> dict[str, Any]:
        """Public facts about the table (never a token)."""
        raise NotImplementedError

    def public_info(self) -> dict[str, Any]:
        """The table info with the round and the number of players (the REST API's)."""
        info = self.table_info()
        info["round"] = self.game.round
        info["players"] = self.game.players
        return info

    def audience_total(self) -> int:
        """Connections to this table, on every node."""
        raise NotImplementedError

    async def sync(self) -> None:
        """Bring this node's copy up to date before a request reads it."""

    async def view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    async def submit(self, seat: int | None, text: str, version: int, *,
                     by_bot: bool = False, secret: str | None = None) -> int:
        raise NotImplementedError

    async def join(self, token: str, name: Any, secret: str | None = None) -> tuple[int, str]:
        raise NotImplementedError

    async def reinvite(self, seat: Any) -> str:
        raise NotImplementedError

    def mark_ready(self, seat: int | None) -> None:
        raise NotImplementedError

    def stored(self) -> StoredTable:
        """This table as the store keeps it."""
        return StoredTable(self.id, self.base_record, self.settings.stored(),
                           [s.stored() for s in self.seats], self.game.actions[:],
                           self.created or time.time(), self.state, self.creator_address)
