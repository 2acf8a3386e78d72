"""The table core: the one place a live table changes.

A :class:`TableCore` runs on the node that owns the table (see :mod:`.directory`).  It
takes actions, joins, re-invites, Ready and presence changes (who is connected, from
any node) under its lock, applies them, stores them, and emits **events** to its
listeners (:class:`TableListener`: this node's :class:`~.audience.Audience`, and in a
cluster the publisher that relays them to other nodes).  It drives the table's bots,
the turn timer and the pauses.  It holds no connection: presence arrives as counts.

Every accepted action goes through :meth:`TableCore.submit`:

1. the version the client saw must be the current one (else ``stale``);
2. ``game.apply(text, seat=seat)`` checks the turn and the rules (the engine's message
   goes back on error, the state unchanged);
3. the action is appended to the store (its own transaction, key ``(table_id, seq)``)
   — if that fails the game is rebuilt without it;
4. only then is the ``state`` event emitted (each connection gets its own view).

Events, in order, each with the table info of the moment:

* ``on_state(table, info)``: the table's version went up (an action, stored);
* ``on_table(info, but)``: seats, presence, Ready, pause, turn clock or notices changed
  (at most one every ``TABLE_EVERY`` seconds: changes in between are coalesced);
* ``on_revoke(seat, message)``: the host re-invited `seat`: its devices lose it.

Bots (bot seats, human seats whose player has been away for the table's
``away_seconds``, and a seat whose turn outlasts the table's ``turn_seconds``) think
through the hub's bot pool, off the event loop.  Nobody connected: the table pauses
(bots do not play to an empty room).
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import secrets
import time
from typing import Any, Protocol

from ...engine import Game, IllegalAction, NotYourTurn, replay
from ...engine.errors import GameOver
from .. import hints
from ..protocol import Rejected, clean_name, imitates_bot
from ..store import LeaseLost, Store, StoredTable
from ..store.sql import OVER
from . import again
from .state import TableState

log = logging.getLogger("dominohall.server")

TABLE_EVERY = 0.1       # seconds: at most one coalesced "table" broadcast per table
HERE = ""               # the presence source of this node's own connections


class TableListener(Protocol):
    """Who hears a core's events (see the module docstring)."""

    def on_state(self, table: TableCore, info: dict[str, Any]) -> None: ...

    def on_table(self, info: dict[str, Any], but: Any = None) -> None: ...

    def on_revoke(self, seat: int, message: str) -> None: ...


class TableEnv(Protocol):
    """What a core needs from its node (the :class:`~.hub.Hub`)."""

    store: Store
    bot_delay: float

    @property
    def closing(self) -> bool: ...

    async def run_db(self, fn: Any, *args: Any, **kw: Any) -> Any: ...

    async def think(self, table: TableCore, name: str, game: str, seed: int,
                    view: dict[str, Any]) -> str: ...

    def lease_lost(self, table: TableCore) -> None:
        """A write found the table's lease gone: another node owns it now."""


class Presence:
    """Who is connected to one table, per source (this node, or another node's name):
    connections per seat (None: spectators)."""

    def __init__(self) -> None:
        self.by_source: dict[str, collections.Counter[int | None]] = {}

    def total(self) -> int:
        return sum(sum(c.values()) for c in self.by_source.values())

    def seats(self) -> set[int]:
        """The seats connected from anywhere."""
        return {s for c in self.by_source.values() for s, n in c.items()
                if s is not None and n > 0}

    def spectators(self) -> int:
        return sum(c[None] for c in self.by_source.values())

    @property
    def seated(self) -> bool:
        """Some seated player is connected (their table's bots go first)."""
        return bool(self.seats())

    def add(self, source: str, seat: int | None, n: int = 1) -> None:
        counts = self.by_source.setdefault(source, collections.Counter())
        counts[seat] += n
        if counts[seat] <= 0:
            del counts[seat]
        if not counts:
            del self.by_source[source]

    def replace(self, source: str, counts: dict[int | None, int]) -> None:
        kept = collections.Counter({s: n for s, n in counts.items() if n > 0})
        if kept:
            self.by_source[source] = kept
        else:
            self.by_source.pop(source, None)


class TableCore(TableState):
    """One live table on its owner: the game, seats, presence, clocks and bots."""

    def __init__(self, hub: TableEnv, stored: StoredTable, game: Game) -> None:
        super().__init__(stored, game)
        self.hub = hub
        self.listeners: list[TableListener] = []
        self.presence = Presence()
        self.lock = asyncio.Lock()
        now = time.monotonic()
        # human seats without a connection, since when (a restart counts as leaving)
        self.away_since: dict[int, float] = {s: now for s in self.human_seats()}
        self.idle_since: float | None = now      # nobody connected since
        self.over_since: float | None = now if self.finished else None
        self.pause_until = 0.0
        self.ready: set[int] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_failures = 0                   # bot moves failed in a row
        self.bot_retry: asyncio.TimerHandle | None = None
        self.storage_failing = False    # the last action could not be stored
        self.timer: asyncio.TimerHandle | None = None
        self.table_flush: asyncio.TimerHandle | None = None
        self.table_sent = 0.0                    # when the last table info went out
        # the turn timer (table setting turn_seconds; 0: none).  A turn is a run of
        # actions by one seat; turn_no counts them.  The clock runs only while a person
        # (not a bot or an away player's stand-in) is to move, never in a pause.
        self.turn_no = 0
        self.turn_key: tuple[int, int] | None = None       # (turn_no, seat) being timed
        self.turn_deadline = 0.0                            # time.monotonic() when it is up
        self.turn_timer: asyncio.TimerHandle | None = None
        self.again_timer: asyncio.TimerHandle | None = None     # Play again's countdown

    # --- who plays a seat ----------------------------------------------------------------

    def away_for(self, seat: int) -> float | None:
        since = self.away_since.get(seat)
        return None if since is None else time.monotonic() - since

    def controller(self, seat: int) -> str:
        """'bot', 'away' (a bot plays for an absent player), or 'human'."""
        if self.seats[seat].kind == "bot":
            return "bot"
        away = self.away_for(seat)
        limit = self.settings.away_seconds
        if away is not None and limit > 0 and away >= limit:
            return "away"
        return "human"

    def table_info(self) -> dict[str, Any]:
        """Public facts about the table (never a token)."""
        connected = self.presence.seats()
        pause = max(0.0, self.pause_until - time.monotonic())
        return {
            "id": self.id,
            "game": self.game.name,
            "status": self.status(),
            "seats": [{"seat": i, "kind": s.kind, "bot": s.bot, "name": s.name,
                       "connected": s.kind == "bot" or i in connected,
                       "controller": self.controller(i)}
                      for i, s in enumerate(self.seats)],
            "spectators": self.presence.spectators(),
            "away_seconds": self.settings.away_seconds,
            "ready_seconds": self.settings.ready_seconds,
            "turn_seconds": self.settings.turn_seconds,
            "turn": self.turn_clock(),
            "hints": hints.allowed(self),
            "pause": round(pause, 1),
            "ready": sorted(self.ready) if pause else [],
            "paused": not self.presence.total() and not self.finished,
            "fairness": self.fairness(),
            "notices": list(self.settings.notices),
            "next_table": self.settings.next_table,
            "again": again.info(self),
        }

    # --- the turn timer ------------------------------------------------------------------

    def turn_clock(self) -> dict[str, Any] | None:
        """The running turn timer: whose it is and the seconds left (0: a bot plays now)."""
        if self.turn_key is None:
            return None
        left = max(0.0, self.turn_deadline - time.monotonic())
        return {"seat": self.turn_key[1], "left": round(left, 1)}

    def turn_expired(self, seat: int) -> bool:
        """`seat`'s time for the turn in progress ran out (the stand-in bot plays it)."""
        return (self.turn_key is not None and self.turn_key[1] == seat
                and time.monotonic() >= self.turn_deadline)

    def _time_turn(self) -> None:
        """Start the clock when a person's turn begins; stop it when nobody is to be timed.

        Called before every broadcast that may follow a change of turn, controller,
        pause or seats; a turn already being timed keeps its deadline.
        """
        limit = self.settings.turn_seconds
        seat = self.game.current_seat
        if (not limit or seat is None or self.waiting or self.pause_until > time.monotonic()
                or self.controller(seat) != "human" or self.expired):
            self.turn_key = None
            if self.turn_timer is not None:
                self.turn_timer.cancel()
                self.turn_timer = None
            return
        key = (self.turn_no, seat)
        if key == self.turn_key:
            return
        self.turn_key = key
        self.turn_deadline = time.monotonic() + limit
        if self.turn_timer is not None:
            self.turn_timer.cancel()
        self.turn_timer = asyncio.get_running_loop().call_later(limit + 0.01, self._turn_up)

    def _turn_up(self) -> None:
        self.turn_timer = None
        self.broadcast_table()          # clients show "time's up"
        self.kick()

    # --- seats ---------------------------------------------------------------------------

    async def join(self, token: str, name: Any, secret: str | None = None) -> tuple[int, str]:
        """Claim the seat an invite opens (or, with the seat's own secret, rename it).

        Returns the seat and its secret (`secret`, when given, is the one to issue: a
        relayed join asked again after a lost answer then finds its own seat).  Claiming
        retires the invite: the same link never opens the seat again (the host can
        re-invite a seat).
        """
        clean = clean_name(name)
        if not clean:
            raise Rejected("bad_name", "A display name is needed to take a seat "
                                         "(letters, digits or symbols).", 422,
                           reason="name_needed")
        if imitates_bot(clean):
            raise Rejected("bad_name", "A player's name cannot look like a bot's label "
                                         "({name}).", 422, reason="name_like_bot",
                           params={"name": clean})
        if self.finished:
            raise Rejected("game_over", "The match is over.", 409, reason="match_is_over")
        async with self.lock:               # two devices claiming one invite: one wins
            seat = self.seat_of(token)
            if seat is None and secret is not None:
                seat = self.seat_of(secret)
            if seat is not None:
                secret = self.seats[seat].secret
            else:
                seat = self.invited_seat(token)
                if seat is None:
                    raise Rejected("bad_token", "This invite link is not valid for this "
                                                  "table (it may have been used already).",
                                   403, reason="invite_not_valid")
                secret = secret or secrets.token_urlsafe(24)
            assert secret is not None
            await self.hub.run_db(self.hub.store.update_seat, self.id, seat,
                                  token="", secret=secret, name=clean)
            mine = self.seats[seat]
            mine.token, mine.secret, mine.name = "", secret, clean
            self.meta += 1
            self._time_turn()
        self.broadcast_table()
        self.kick()
        return seat, secret

    async def reinvite(self, seat: Any) -> str:
        """The host's new invite for a human seat (a lost device); the seat's old secret
        and any older invite stop working, and everyone at the table is told."""
        if type(seat) is not int or not 0 <= seat < len(self.seats) or \
                not self.seats[seat].human:
            raise Rejected("bad_seat", "Only a player's seat can be re-invited.", 422)
        if self.finished:
            raise Rejected("game_over", "The match is over.", 409, reason="match_is_over")
        if self.settings.seed_chosen:     # whoever took the link would play a deal the
            raise Rejected("not_yours", "This table's deal was chosen by its creator, "  # host
                           "so its seat cannot be handed to anyone else.", 409,      # knows
                           reason="seed_chosen_no_reinvite")
        token = secrets.token_urlsafe(18)
        async with self.lock:
            if seat in again.pending(self):     # Play again: kept for its player, even
                raise Rejected("not_yours", "This seat at the new table is kept for the "
                               "player who held it.", 409, reason="again_seat_reserved",
                               params={"seat": seat})    # from the host
            notices = [*self.settings.notices,
                       {"type": "reinvited", "seat": seat, "time": round(time.time())}][-20:]
            settings = self.settings.copy(notices=notices)
            await self.hub.run_db(self.hub.store.update_seat, self.id, seat,
                                  token=token, secret=None)
            await self.hub.run_db(self.hub.store.set_settings, self.id, settings.stored())
            self.seats[seat].token, self.seats[seat].secret = token, None
            self.settings = settings
            self.meta += 1
        message = Rejected("reinvited", "The host re-invited seat {seat}: this device no "
                           "longer holds it.", params={"seat": seat}).ws()
        for listener in self.listeners:
            listener.on_revoke(seat, message)
        self.broadcast_table()
        return token

    def _reserved_for(self, seat: int, holder: str) -> dict[str, Any]:
        """Play again: `seat`'s reservation, if it is kept for `holder` (else refused)."""
        res = ((self.settings.again or {}).get("reserved") or {}).get(str(seat))
        if res is None or not secrets.compare_digest(str(res.get("h")), holder):
            raise Rejected("not_yours", "This seat at the new table is kept for the "
                           "player who held it.", 403, reason="again_seat_reserved",
                           params={"seat": seat})
        return dict(res)

    async def take_seat_again(self, seat: int, holder: str) -> str:
        """Play again: the player who held `seat` at the finished table (`holder`: the
        :func:`~.again.holder_hash` of their seat secret there) takes the seat reserved
        for them, with a fresh secret (the same one when they ask again).  Anyone else
        is refused, the host included (see :mod:`.again`)."""
        async with self.lock:
            res = self._reserved_for(seat, holder)
            state = self.settings.again or {}
            mine = self.seats[seat]
            if mine.secret and res.get("taken"):
                return mine.secret                      # the same device, asking again
            if mine.secret or not mine.human:
                raise Rejected("taken", "The countdown ran out: your seat at the new table "
                               "went to someone else.", 409, reason="again_seat_freed",
                               params={"seat": seat})
            secret = secrets.token_urlsafe(24)
            name = mine.name or res.get("name")
            await self.hub.run_db(self.hub.store.update_seat, self.id, seat, token="",
                                  secret=secret, name=name)
            reserved = {**state["reserved"], str(seat): {**res, "taken": True}}
            freed = [s for s in state.get("freed") or [] if s != seat]
            settings = self.settings.copy(again={**state, "reserved": reserved,
                                                 "freed": freed})
            await self.hub.run_db(self.hub.store.set_settings, self.id, settings.stored())
            mine.token, mine.secret, mine.name = "", secret, name
            self.settings = settings
            self.meta += 1
            self._time_turn()
        self.broadcast_table()
        self.kick()
        return secret

    def watch_again(self) -> None:
        """Free the reserved seats when Play again's countdown ends (see :mod:`.again`)."""
        if self.again_timer is not None:
            self.again_timer.cancel()
            self.again_timer = None
        if again.pending(self):
            self.again_timer = asyncio.get_running_loop().call_later(
                again.seconds_left(self) + 0.05, self._again_up)

    def _again_up(self) -> None:
        self.again_timer = None
        task = asyncio.get_running_loop().create_task(self.free_reserved())
        task.add_done_callback(self._freed)

    def _freed(self, task: asyncio.Task[list[int]]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: freeing reserved seats failed: %r", self.id, task.exception())
            self.again_timer = asyncio.get_running_loop().call_later(5, self._again_up)

    async def free_reserved(self) -> list[int]:
        """The countdown is over: each seat still reserved is played by the stand-in bot
        (``free_as`` "bot") or gets an invite link for the host (``free_as`` "invite")."""
        async with self.lock:
            seats = again.pending(self)
            if not seats or again.seconds_left(self) > 0:
                return []
            await self._free(seats)
        self.broadcast_table()
        self.kick()
        return seats

    async def decline_again(self, seat: int, holder: str) -> None:
        """The player `seat` was kept for says no: it is freed now, as at the countdown's end."""
        async with self.lock:
            self._reserved_for(seat, holder)
            if seat not in again.pending(self):
                return                              # taken or freed already: nothing to do
            await self._free([seat])
        self.broadcast_table()
        self.kick()

    async def _free(self, seats: list[int]) -> None:
        """Free reserved `seats` (under the lock)."""
        state = dict(self.settings.again or {})
        for seat in seats:
            mine = self.seats[seat]
            if state.get("free_as") == "invite":
                token = secrets.token_urlsafe(18)
                await self.hub.run_db(self.hub.store.update_seat, self.id, seat,
                                      token=token, secret=None, name=None)
                mine.token, mine.secret, mine.name = token, None, None
            else:
                bot, name = self.settings.away_bot, f"Bot {seat}"
                await self.hub.run_db(self.hub.store.update_seat, self.id, seat,
                                      kind="bot", bot=bot, token="", secret=None,
                                      name=name)
                mine.kind, mine.bot, mine.token, mine.secret, mine.name = \
                    "bot", bot, "", None, name
                self.away_since.pop(seat, None)
        state["freed"] = sorted({*state.get("freed", []), *seats})
        settings = self.settings.copy(again=state)
        await self.hub.run_db(self.hub.store.set_settings, self.id, settings.stored())
        self.settings = settings
        self.meta += 1
        self._time_turn()

    async def set_settings(self, **changes: Any) -> None:
        """Store new values of some settings (e.g. Play again's ``next_table``)."""
        settings = self.settings.copy(**changes)
        await self.hub.run_db(self.hub.store.set_settings, self.id, settings.stored())
        self.settings = settings
        self.meta += 1

    def audience_total(self) -> int:
        return self.presence.total()

    # --- presence ------------------------------------------------------------------------

    def arrive(self, seat: int | None, source: str = HERE) -> None:
        """A connection to `seat` (None: a spectator) opened, here or on node `source`."""
        self.presence.add(source, seat)
        self._arrived(seat)

    def _arrived(self, seat: int | None) -> None:
        self.idle_since = None
        if seat is not None:
            self.away_since.pop(seat, None)
        self._time_turn()

    def leave(self, seat: int | None, source: str = HERE) -> None:
        """A connection to `seat` closed."""
        self.presence.add(source, seat, -1)
        self._left(seat)
        self.broadcast_table()

    def _left(self, seat: int | None) -> None:
        if not self.presence.total():
            self.idle_since = time.monotonic()
        if seat is not None and seat not in self.presence.seats():
            self.away_since[seat] = time.monotonic()
            limit = self.settings.away_seconds
            if limit > 0:
                self._wake_in(limit + 0.05)

    def set_presence(self, source: str, counts: dict[int | None, int]) -> None:
        """Node `source` now holds `counts` connections per seat of this table."""
        before_seats, before_total = self.presence.seats(), self.presence.total()
        self.presence.replace(source, counts)
        after = self.presence.seats()
        for seat in after - before_seats:
            self._arrived(seat)
        if self.presence.total() and not before_total:
            self._arrived(None)
        for seat in before_seats - after:
            self._left(seat)
        if before_total and not self.presence.total():
            self._left(None)
        self.broadcast_table()
        self.kick()

    # --- actions -------------------------------------------------------------------------

    async def view(self, seat: int | None) -> dict[str, Any]:
        """`game.view(seat)` as stored: an action applied but still being written waits
        (a crash then would lose it, and nobody may have seen it)."""
        async with self.lock:
            return self.game.view(seat)

    async def submit(self, seat: int | None, text: str, version: int, *,
                     by_bot: bool = False, secret: str | None = None) -> int:
        """Apply, store, then broadcast one action; returns the new version or raises Rejected.

        `by_bot`: a stand-in's move for a human seat, refused once the player is back
        (and, for a turn that ran out of time, if the turn is no longer timed out).
        """
        if seat is None:
            raise Rejected("spectator", "spectators cannot play", 403,
                           reason="spectators_cannot_play")
        async with self.lock:
            # the seat is checked again here, in the table's order: a move sent by a device
            # whose seat the host re-invited meanwhile is refused, never applied after it
            if secret is not None and self.seat_of(secret) != seat:
                raise Rejected("bad_token", "this seat token is not valid for this table", 403,
                               reason="token_not_valid")
            g = self.game
            now_version = self.version
            if g.is_over:
                raise Rejected("game_over", "the match is over", reason="the_match_is_over")
            if self.expired:
                raise Rejected("expired", "This table expired: nobody was connected.")
            if self.waiting:
                raise Rejected("waiting", "waiting for every invited player to take their seat")
            if version != now_version:
                raise Rejected("stale", "stale action: it was chosen at version {version} but "
                               "the table is at version {now}; look again", 409,
                               params={"version": version, "now": now_version})
            if (by_bot and self.controller(seat) == "human"
                    and not self.turn_expired(seat)):
                raise Rejected("stale", "the player is back", reason="player_is_back")
            round_before = g.round
            try:
                g.apply(text, seat=seat)
            except NotYourTurn as err:
                raise Rejected.engine("not_your_turn", err, 409) from None
            except GameOver as err:
                raise Rejected.engine("game_over", err) from None
            except IllegalAction as err:
                raise Rejected.engine("illegal", err) from None
            try:
                await self.hub.run_db(self.hub.store.append_action, self.id, now_version + 1,
                                      seat, g.actions[-1])
            except Exception as err:   # the action is not stored: it did not happen
                if not self.storage_failing:    # a full disk: the traceback once, not
                    log.exception("table %s: storing action %s failed", self.id, text)
                self.storage_failing = True     # once a move (see _bot_done)
                self.game = self._rebuild(g.actions[:-1])
                if isinstance(err, LeaseLost):
                    self.hub.lease_lost(self)   # another node owns the table now
                raise Rejected("storage", "the action could not be saved ({error}); try again",
                               503, reason="action_not_saved",
                               params={"error": str(err)}) from None
            if self.storage_failing:
                self.storage_failing = False
                log.warning("table %s: storing actions works again", self.id)
            if not by_bot:
                self.away_since.pop(seat, None)
            if g.current_seat != seat or g.round != round_before:
                self.turn_no += 1               # the next turn begins
            self._after_action(round_before)
            self._time_turn()
            if g.is_over:
                self.over_since = time.monotonic()
                try:
                    await self.hub.run_db(self.hub.store.set_state, self.id, OVER)
                except Exception:       # still stored: at worst it is rebuilt once more
                    log.exception("table %s: marking the match over failed", self.id)
                for listener in self.hub.match_listeners:
                    try:
                        await listener(self)
                    except Exception:   # a listener's failure never stops the table
                        log.exception("table %s: a match-over listener failed", self.id)
            self.broadcast_state()
        self.kick()
        return self.version

    def _rebuild(self, actions: list[str]) -> Game:
        return replay({**self.base_record, "actions": actions})

    def _after_action(self, round_before: int) -> None:
        """A round just ended (and the match goes on): pause the bots for the summary."""
        g = self.game
        ended = g.round != round_before
        humans = [s for s in self.human_seats() if self.controller(s) == "human"]
        if ended and not g.is_over and humans and self.settings.ready_seconds > 0:
            self.pause_until = time.monotonic() + self.settings.ready_seconds
            self.ready = set()
            self._wake_in(self.settings.ready_seconds + 0.05)

    def mark_ready(self, seat: int | None) -> None:
        if seat is None or not self.pause_until:
            return
        self.ready.add(seat)
        if self.presence.seats() <= self.ready:
            self.pause_until = 0.0
            self._time_turn()
            self.kick()
        self.broadcast_table()

    # --- events --------------------------------------------------------------------------

    def broadcast_state(self) -> None:
        """Emit the new version (with the table info, which it carries)."""
        info = self.table_info()
        if self.table_flush is not None:        # this state carries the table info
            self.table_flush.cancel()
            self.table_flush = None
        self.table_sent = time.monotonic()
        for listener in self.listeners:
            listener.on_state(self, info)

    def broadcast_table(self, but: Any = None) -> None:
        """Emit the table info, at most once per TABLE_EVERY seconds: changes in between
        are coalesced into one message (800 spectators arriving cost 800 x 10 messages
        a second at most, not 800 x 800).  `but`: a connection that has it already."""
        if self.table_flush is not None:
            return                              # already due: it will carry this change
        wait = self.table_sent + TABLE_EVERY - time.monotonic()
        if wait > 0:
            self.table_flush = asyncio.get_running_loop().call_later(wait, self._flush_table)
            return
        self._flush_table(but)

    def _flush_table(self, but: Any = None) -> None:
        self.table_flush = None
        self.table_sent = time.monotonic()
        info = self.table_info()
        for listener in self.listeners:
            listener.on_table(info, but)

    # --- bots ----------------------------------------------------------------------------

    def _wake_in(self, seconds: float) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(seconds, self._wake)

    def _wake(self) -> None:
        self.timer = None
        if self.pause_until and time.monotonic() >= self.pause_until:
            self.pause_until = 0.0
            self.ready = set()
        self._time_turn()
        self.broadcast_table()
        self.kick()

    def kick(self) -> None:
        """Start a bot's move if a bot (or an away player's stand-in) is to play.

        Nobody connected: the table is paused (bots do not play to an empty room)."""
        g = self.game
        if (g.is_over or self.expired or self.waiting or self.bot_task is not None
                or self.hub.closing or not self.presence.total()):
            return
        now = time.monotonic()
        if self.pause_until:
            if now < self.pause_until:
                return
            self.pause_until = 0.0
        self._time_turn()
        seat = g.current_seat
        assert seat is not None
        ctrl = self.controller(seat)
        if ctrl == "human" and self.turn_expired(seat):
            ctrl = "timer"                      # out of time: the stand-in plays this turn
        if ctrl == "human":
            away = self.away_for(seat)
            limit = self.settings.away_seconds
            if away is not None and limit > 0 and (self.timer is None or self.timer.cancelled()):
                self._wake_in(limit - away + 0.05)
            return
        name = self.seats[seat].bot if ctrl == "bot" else self.settings.away_bot
        assert name is not None
        self.bot_task = asyncio.get_running_loop().create_task(
            self._bot_turn(seat, name, delay=ctrl != "timer"))
        self.bot_task.add_done_callback(self._bot_done)

    def _bot_done(self, task: asyncio.Task[None]) -> None:
        """The bot moved (or gave way): the next one. A bot that failed (its worker
        pool broke beyond repair, say) tries again later, 1, 2, 4... 30 s on: the table
        never waits forever."""
        self.bot_task = None
        if not task.cancelled() and task.exception() is not None:
            self.bot_failures += 1
            wait = min(30.0, 2.0 ** (self.bot_failures - 1))
            (log.error if self.bot_failures == 1 else log.debug)(
                "table %s: bot failed: %r; trying again in %g s", self.id,
                task.exception(), wait)
            self.bot_retry = asyncio.get_running_loop().call_later(wait, self.kick)
            return
        self.bot_failures = 0
        self.kick()

    def bot_seed(self, seat: int, version: int) -> int:
        """The bot's random stream for one decision: derived from the table's secret seed
        (a one-way hash, so bot choices reveal nothing about it)."""
        text = f"{self.base_record.get('seed')}/{seat}/{version}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:7], "big")

    async def _bot_turn(self, seat: int, name: str, delay: bool = True) -> None:
        version = self.version
        if delay and self.hub.bot_delay:
            await asyncio.sleep(self.hub.bot_delay)
        if self.version != version or self.hub.closing or not self.presence.total():
            return
        view = self.game.view(seat)
        action = await self.hub.think(self, name, self.game.name, self.bot_seed(seat, version),
                                      view)
        try:
            await self.submit(seat, action, version, by_bot=True)
        except Rejected as err:
            if err.code == "storage":
                raise           # not saved (a full disk): _bot_done backs off, 1, 2, 4... s
            if err.code != "stale":
                log.warning("table %s: bot %s's move %s refused: %s", self.id, name, action, err)

    # --- handing over --------------------------------------------------------------------

    def clock_state(self) -> dict[str, Any]:
        """The table's clocks as another node takes them over: the round-end pause and
        its Ready seats, the turn timer, how long each absent player has been away."""
        now = time.monotonic()
        return {"pause": max(0.0, self.pause_until - now), "ready": sorted(self.ready),
                "turn": self.turn_clock(),
                "away": {str(s): now - t for s, t in self.away_since.items()}}

    def restore_clock(self, state: dict[str, Any]) -> None:
        """Take the clocks over from the table's previous owner (see :meth:`clock_state`)."""
        now = time.monotonic()
        pause = float(state.get("pause") or 0)
        if pause > 0:
            self.pause_until = now + pause
            self.ready = {int(s) for s in state.get("ready") or []}
            self._wake_in(pause + 0.05)
        for seat, away in (state.get("away") or {}).items():
            if int(seat) in self.away_since:
                self.away_since[int(seat)] = now - float(away)
        turn = state.get("turn")
        limit = self.settings.turn_seconds
        if turn and limit and turn.get("seat") == self.game.current_seat:
            left = max(0.0, float(turn.get("left") or 0))
            self.turn_key = (self.turn_no, int(turn["seat"]))
            self.turn_deadline = now + left
            self.turn_timer = asyncio.get_running_loop().call_later(left + 0.01, self._turn_up)

    def stop(self) -> None:
        """Cancel the bot and the timers (the node is stopping or hands the table over)."""
        if self.bot_task is not None:
            self.bot_task.cancel()
        for handle in (self.timer, self.turn_timer, self.table_flush, self.bot_retry,
                       self.again_timer):
            if handle is not None:
                handle.cancel()
