"""Live tables: seats with secret tokens, connections, bots, and the write-then-broadcast rule.

A :class:`Room` holds one :class:`dominohall.Game`.  Every accepted action goes
through :meth:`Room.submit`, under the room's lock:

1. the version the client saw must be the current one (else ``stale``);
2. ``game.apply(text, seat=seat)`` checks the turn and the rules (the engine's
   message goes back on error, the state unchanged);
3. the action is appended to the store (its own transaction) — if that fails
   the game is rebuilt without it;
4. only then is each connection sent its own ``game.view(seat)``.

Bots (bot seats, human seats whose player has been away for the table's
``away_seconds``, and a seat whose turn outlasts the table's ``turn_seconds``)
think in an executor (a process pool by default) so the event
loop never waits on them.  The :class:`Hub` owns every room, the store (used
from a small pool of threads) and the bot pool, shared fairly between tables; on
start it rebuilds every live table from its stored record with
:func:`dominohall.replay` (finished and expired tables stay stored, not loaded).

Seats: a human seat has an **invite** token until someone claims it; claiming it
(:meth:`Room.claim`) issues that device a fresh **seat secret** and retires the
invite, so an invite link seen by others is worthless once used.  The host may
re-invite a seat (a lost device): everyone at the table is told.

A table with nobody connected pauses (bots do not play to an empty room) and
expires after ``Limits.idle_seconds``.  Every table's seed has 128 random bits and
is committed to in the table info (see :mod:`dominohall.server.fair`).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import ctypes
import hashlib
import logging
import multiprocessing
import os
import secrets
import signal
import threading
import time
from dataclasses import dataclass, field, fields
from typing import Any

from .. import bots
from ..engine import GAMES, BadOption, Game, IllegalAction, NotYourTurn, new_game, replay
from ..engine.errors import GameOver
from ..engine.options import PLAYERS, PRESET_LABELS, PRESETS, specs_for
from ..i18n.labels import BOT_NAMES
from . import fair, hints, protocol
from .protocol import MAX_NAME, Rejected, clean_name, same_secret
from .store import Store, StoredTable, StoreError
from .store.sql import EXPIRED, OVER

log = logging.getLogger("dominohall.server")

DEFAULT_PLAYERS = {"mexican_train": 4, "all_fives": 2, "draw": 2, "block": 2}
GAME_LABELS = {"mexican_train": "Mexican Train", "all_fives": "All Fives",
               "draw": "Draw dominoes", "block": "Block dominoes"}
#: bot construction parameters used by the server (pimc gets a short think)
BOT_PARAMS: dict[str, dict[str, Any]] = {"pimc": {"budget_ms": 300, "samples": 24}}
SETTINGS_DEFAULTS = {"away_seconds": 30, "ready_seconds": 20, "turn_seconds": 0,
                     "away_bot": "greedy"}
#: the table settings a lobby request may set: name -> allowed range (whole seconds)
SETTINGS_RANGES = {"away_seconds": (0, 3600), "ready_seconds": (0, 600),
                   "turn_seconds": (0, 3600)}
MAX_QUEUE = 256         # messages waiting for one slow client before it is dropped
TABLE_EVERY = 0.1       # seconds: at most one coalesced "table" broadcast per table
STRONG_BOTS = ("pimc",)  # the bots that cost the most to think
MAX_OPEN_INT = 100      # an option without an upper bound (hands, hand_size) stops here
__all__ = ["MAX_NAME", "Connection", "Hub", "Limits", "Room", "lobby_catalogue"]


@dataclass
class Limits:
    """What one server allows; every field can be set with ``serve --limit NAME=VALUE``.

    Rates are per client address and per minute (a burst of the same size is allowed).
    """

    create_per_minute: int = 20         # tables created
    join_per_minute: int = 60           # seats claimed / renamed
    connect_per_minute: int = 120       # websocket handshakes
    max_tables: int = 1000              # live tables on the server
    conns_per_table: int = 100          # websockets on one table (seats and spectators)
    conns_per_address: int = 60         # websockets from one address
    bot_tables_per_address: int = 4     # live all-bot tables created from one address
    strong_bots_per_address: int = 8    # live strongest-bot seats (pimc) from one address
    idle_seconds: int = 6 * 3600        # a table nobody is connected to expires after this
    finished_seconds: int = 600         # a finished table stays in memory this long

    @classmethod
    def parse(cls, items: list[str]) -> Limits:
        """From ``NAME=VALUE`` texts; ValueError names a bad one."""
        names = {f.name for f in fields(cls)}
        out = cls()
        for item in items:
            name, _, value = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in names:
                raise ValueError(f"unknown limit {name!r} (one of {', '.join(sorted(names))})")
            if not value.strip().isdigit():
                raise ValueError(f"{name}: a whole number >= 0, not {value!r}")
            setattr(out, name, int(value))
        return out


class RateLimiter:
    """Token buckets per (what, address): `per_minute` tokens a minute, as a burst too."""

    def __init__(self) -> None:
        self.buckets: dict[tuple[str, str], tuple[float, float]] = {}

    def check(self, what: str, address: str, per_minute: int) -> float:
        """0 if allowed (and counted), else the seconds to wait."""
        if per_minute <= 0:
            return 0.0
        now = time.monotonic()
        tokens, at = self.buckets.get((what, address), (float(per_minute), now))
        tokens = min(float(per_minute), tokens + (now - at) * per_minute / 60)
        if tokens < 1:
            self.buckets[(what, address)] = (tokens, now)
            return (1 - tokens) * 60 / per_minute
        self.buckets[(what, address)] = (tokens - 1, now)
        if len(self.buckets) > 100_000:                 # forget the full buckets
            self.buckets = {k: v for k, v in self.buckets.items() if v[0] < per_minute - 1}
        return 0.0


class FairQueue:
    """The bot workers, shared between tables: a table waits its turn in FIFO order
    (each table has at most one bot thinking or waiting, so FIFO is round-robin), and
    tables where a seated player is connected go before tables watched only by
    spectators."""

    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        self.waiting: tuple[collections.deque[asyncio.Future[None]], ...] = (
            collections.deque(), collections.deque())

    async def acquire(self, priority: int) -> None:
        if self.free > 0 and not any(self.waiting):
            self.free -= 1
            return
        fut = asyncio.get_running_loop().create_future()
        self.waiting[priority].append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()          # it was handed a slot just as it was cancelled
            raise

    def release(self) -> None:
        for queue in self.waiting:
            while queue:
                fut = queue.popleft()
                if not fut.done():
                    fut.set_result(None)
                    return
        self.free += 1


def bot_move(name: str, game: str, seed: int, view: dict[str, Any]) -> str:
    """One bot decision (runs in a worker process or thread)."""
    bot = bots.make(name, seed=seed, game=game, **BOT_PARAMS.get(name, {}))
    return bot.act(view)


def _warm() -> bool:
    return True


def _die_with_parent(parent: int) -> None:
    """Bot worker initializer: exit when the server process goes, even by kill -9."""
    try:                                        # Linux: the kernel sends SIGKILL
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:                  # it died before prctl took effect
        os._exit(0)

    def watch() -> None:                        # everywhere else: notice the new parent
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="dh-parent-watch").start()


def lobby_catalogue() -> list[dict[str, Any]]:
    """What the lobby form is built from: games, players, options, presets, bot levels."""
    out = []
    for name in GAMES:
        lo, hi = PLAYERS[name]
        out.append({
            "name": name, "label": GAME_LABELS[name],
            "players": {"min": lo, "max": hi, "default": DEFAULT_PLAYERS[name]},
            "presets": {k: dict(v) for k, v in PRESETS[name].items()},
            "preset_labels": {k: dict(v) for k, v in PRESET_LABELS[name].items()},
            "bots": bots.names(name),
            "bot_labels": {b: BOT_NAMES.get(b, b) for b in bots.names(name)},
            "options": [{"name": s.name, "default": s.default, "choices": list(s.choices),
                         "label": s.label, "help": s.help, "int_range": bounded(s.int_range)}
                        for s in specs_for(name) if s.name != "game"],
        })
    return out


def bounded(int_range: tuple[int, int | None] | None) -> tuple[int, int] | None:
    """An option's whole-number range as the server accepts it (no unbounded matches)."""
    if int_range is None:
        return None
    lo, hi = int_range
    return (lo, MAX_OPEN_INT if hi is None else min(hi, MAX_OPEN_INT))


@dataclass(eq=False)
class Connection:
    """One websocket: its seat (None: spectator) and its outgoing queue."""

    seat: int | None
    address: str = ""
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    sent_log: int = 0           # log events this connection already has
    closed: bool = False
    lang: str = "en"            # its player's language (hints are said in it)

    def send(self, text: str | None) -> None:
        """Queue a message; None (or a stuck client's full queue) closes the connection."""
        if self.closed:
            return
        if text is None or self.queue.qsize() >= MAX_QUEUE:
            self.closed = True
            text = None
        self.queue.put_nowait(text)


class Room:
    """One table: a game, its seats, its connections and its bot driver."""

    def __init__(self, hub: Hub, stored: StoredTable, game: Game) -> None:
        self.hub = hub
        self.id = stored.id
        self.base_record = stored.record
        self.seats = stored.seats
        for s in self.seats:
            s.setdefault("secret", None)
        self.settings = {**SETTINGS_DEFAULTS, **stored.settings}
        self.game = game
        self.created = stored.created
        self.expired = stored.state == EXPIRED
        self.creator_address = ""           # in memory only: for the per-address limits
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        now = time.monotonic()
        # human seats without a connection, since when (a restart counts as leaving)
        self.away_since: dict[int, float] = {s: now for s in self.human_seats()}
        self.idle_since: float | None = now      # nobody connected since
        self.over_since: float | None = now if self.finished else None
        self.pause_until = 0.0
        self.ready: set[int] = set()
        self.bot_task: asyncio.Task[None] | None = None
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

    # --- seats ---------------------------------------------------------------------------

    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s["kind"] == "human"]

    def seat_of(self, secret: str | None) -> int | None:
        """The seat a seat secret opens (an invite token opens nothing but /join), or None."""
        if not secret:
            return None
        for i, s in enumerate(self.seats):
            if s["kind"] == "human" and same_secret(s.get("secret"), secret):
                return i
        return None

    def invited_seat(self, token: str | None) -> int | None:
        """The unclaimed seat an invite token is for, or None (a claimed invite is retired)."""
        for i, s in enumerate(self.seats):
            if s["kind"] == "human" and not s.get("secret") and same_secret(s.get("token"),
                                                                           token):
                return i
        return None

    def open_invites(self) -> list[int]:
        """Human seats nobody has claimed yet (their invites are still valid)."""
        return [i for i in self.human_seats()
                if not self.seats[i].get("secret") and self.seats[i].get("token")]

    @property
    def waiting(self) -> bool:
        """Some open seat has not been taken yet: nobody moves."""
        return any(s["kind"] == "human" and not s.get("name") for s in self.seats)

    @property
    def finished(self) -> bool:
        """The match is over or the table expired: the seed may be revealed."""
        return self.expired or self.game.is_over

    def away_for(self, seat: int) -> float | None:
        since = self.away_since.get(seat)
        return None if since is None else time.monotonic() - since

    def controller(self, seat: int) -> str:
        """'bot', 'away' (a bot plays for an absent player), or 'human'."""
        s = self.seats[seat]
        if s["kind"] == "bot":
            return "bot"
        away = self.away_for(seat)
        limit = self.settings["away_seconds"]
        if away is not None and limit > 0 and away >= limit:
            return "away"
        return "human"

    def status(self) -> str:
        if self.game.is_over:
            return "over"
        if self.expired:
            return "expired"
        return "waiting" if self.waiting else "playing"

    def fairness(self) -> dict[str, Any]:
        """The deal's commitment; once the match is over, the seed and nonce behind it."""
        nonce = self.settings.get("nonce")
        seed = self.base_record.get("seed")
        if not nonce or seed is None:       # a table from before commitments existed
            return {"commitment": None, "scheme": fair.SCHEME, "seed_chosen": True}
        out: dict[str, Any] = {"commitment": fair.commitment(seed, nonce),
                               "scheme": fair.SCHEME,
                               "seed_chosen": bool(self.settings.get("seed_chosen"))}
        if self.finished:
            out["seed"] = str(seed)         # text: a 129-bit number does not fit a JS number
            out["nonce"] = nonce
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

    def table_info(self) -> dict[str, Any]:
        """Public facts about the table (never a token)."""
        connected = {c.seat for c in self.conns}
        pause = max(0.0, self.pause_until - time.monotonic())
        return {
            "id": self.id,
            "game": self.game.name,
            "status": self.status(),
            "seats": [{"seat": i, "kind": s["kind"], "bot": s.get("bot"), "name": s.get("name"),
                       "connected": s["kind"] == "bot" or i in connected,
                       "controller": self.controller(i)}
                      for i, s in enumerate(self.seats)],
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "away_seconds": self.settings["away_seconds"],
            "ready_seconds": self.settings["ready_seconds"],
            "turn_seconds": self.settings["turn_seconds"],
            "turn": self.turn_clock(),
            "hints": hints.allowed(self),
            "pause": round(pause, 1),
            "ready": sorted(self.ready) if pause else [],
            "paused": not self.conns and not self.finished,
            "fairness": self.fairness(),
            "notices": list(self.settings.get("notices", [])),
            "next_table": self.settings.get("next_table"),
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
        limit = self.settings["turn_seconds"]
        g = self.game
        seat = g.current_seat
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

    async def join(self, token: str, name: Any) -> tuple[int, str]:
        """Claim the seat an invite opens (or, with the seat's own secret, rename it).

        Returns the seat and its secret.  Claiming retires the invite: the same link
        never opens the seat again (the host can re-invite a seat).
        """
        clean = clean_name(name)
        if not clean:
            raise Rejected("bad_name", "A display name is needed to take a seat "
                                         "(letters, digits or symbols).", 422,
                           reason="name_needed")
        if self.finished:
            raise Rejected("game_over", "The match is over.", 409, reason="match_is_over")
        async with self.lock:               # two devices claiming one invite: one wins
            seat = self.seat_of(token)
            secret = token
            fresh = seat is None
            if fresh:
                seat = self.invited_seat(token)
                if seat is None:
                    raise Rejected("bad_token", "This invite link is not valid for this "
                                                  "table (it may have been used already).",
                                   403, reason="invite_not_valid")
                secret = secrets.token_urlsafe(24)
            assert seat is not None
            await self.hub.run_db(self.hub.store.update_seat, self.id, seat,
                                  token="", secret=secret, name=clean)
            self.seats[seat].update(token="", secret=secret, name=clean)
            self._time_turn()
        self.broadcast_table()
        self.kick()
        return seat, secret

    async def reinvite(self, seat: Any) -> str:
        """The host's new invite for a human seat (a lost device); the seat's old secret
        and any older invite stop working, and everyone at the table is told."""
        if type(seat) is not int or not 0 <= seat < len(self.seats) or \
                self.seats[seat]["kind"] != "human":
            raise Rejected("bad_seat", "Only a player's seat can be re-invited.", 422)
        if self.finished:
            raise Rejected("game_over", "The match is over.", 409, reason="match_is_over")
        token = secrets.token_urlsafe(18)
        async with self.lock:
            notices = [*self.settings.get("notices", []),
                       {"type": "reinvited", "seat": seat, "time": round(time.time())}][-20:]
            settings = {**self.settings, "notices": notices}
            await self.hub.run_db(self.hub.store.update_seat, self.id, seat,
                                  token=token, secret=None)
            await self.hub.run_db(self.hub.store.set_settings, self.id, settings)
            self.seats[seat].update(token=token, secret=None)
            self.settings = settings
        for conn in list(self.conns):
            if conn.seat == seat:
                conn.send(Rejected("reinvited", "The host re-invited seat {seat}: this "
                                   "device no longer holds it.", params={"seat": seat}).ws())
                conn.send(None)
        self.broadcast_table()
        return token

    # --- connections ---------------------------------------------------------------------

    async def view(self, seat: int | None) -> dict[str, Any]:
        """`game.view(seat)` as stored: an action applied but still being written waits
        (a crash then would lose it, and nobody may have seen it)."""
        async with self.lock:
            return self.game.view(seat)

    async def connect(self, conn: Connection) -> None:
        """Add a connection and send it the table as it stands.

        Under the room's lock: an action being stored (applied to the game, awaiting
        its database write) is not shown before it is stored, and the connection then
        gets that action's broadcast like everyone else, not the same version twice."""
        async with self.lock:
            self._connect(conn)

    def _connect(self, conn: Connection) -> None:
        self.conns.add(conn)
        self.idle_since = None
        if conn.seat is not None:
            self.away_since.pop(conn.seat, None)
        self._time_turn()
        self.send_state(conn)
        self.broadcast_table(but=conn)
        self.kick()

    def disconnect(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if not self.conns:
            self.idle_since = time.monotonic()
        seat = conn.seat
        if seat is not None and not any(c.seat == seat for c in self.conns):
            self.away_since[seat] = time.monotonic()
            limit = self.settings["away_seconds"]
            if limit > 0:
                self._wake_in(limit + 0.05)
        self.broadcast_table()

    # --- actions -------------------------------------------------------------------------

    async def submit(self, seat: int | None, text: str, version: int, *,
                     by_bot: bool = False) -> int:
        """Apply, store, then broadcast one action; returns the new version or raises Rejected.

        `by_bot`: a stand-in's move for a human seat, refused once the player is back
        (and, for a turn that ran out of time, if the turn is no longer timed out).
        """
        if seat is None:
            raise Rejected("spectator", "spectators cannot play", 403,
                           reason="spectators_cannot_play")
        async with self.lock:
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
                log.exception("table %s: storing action %s failed", self.id, text)
                self.game = self._rebuild(g.actions[:-1])
                raise Rejected("storage", "the action could not be saved ({error}); try again",
                               503, reason="action_not_saved",
                               params={"error": str(err)}) from None
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
            self.broadcast_state()
        self.kick()
        return self.version

    @property
    def version(self) -> int:
        return len(self.game.actions)

    def _rebuild(self, actions: list[str]) -> Game:
        return replay({**self.base_record, "actions": actions})

    def _after_action(self, round_before: int) -> None:
        """A round just ended (and the match goes on): pause the bots for the summary."""
        g = self.game
        ended = g.round != round_before
        humans = [s for s in self.human_seats() if self.controller(s) == "human"]
        if ended and not g.is_over and humans and self.settings["ready_seconds"] > 0:
            self.pause_until = time.monotonic() + self.settings["ready_seconds"]
            self.ready = set()
            self._wake_in(self.settings["ready_seconds"] + 0.05)

    def mark_ready(self, seat: int | None) -> None:
        if seat is None or not self.pause_until:
            return
        self.ready.add(seat)
        present = {c.seat for c in self.conns if c.seat is not None}
        if present <= self.ready:
            self.pause_until = 0.0
            self._time_turn()
            self.kick()
        self.broadcast_table()

    # --- messages ------------------------------------------------------------------------

    def state_message(self, conn: Connection, views: dict[int | None, dict[str, Any]],
                      cache: dict[tuple[int | None, int], str], table: dict[str, Any]) -> str:
        seat = conn.seat
        view = views.get(seat)
        if view is None:
            view = views[seat] = self.game.view(seat)
        log_ = view["log"]
        start = conn.sent_log if conn.sent_log <= len(log_) else 0
        key = (seat, start)
        text = cache.get(key)
        if text is None:
            body = {k: v for k, v in view.items() if k != "log"}
            text = cache[key] = protocol.dumps({"type": "state", "view": body, "log_start": start,
                                                "events": log_[start:], "table": table})
        conn.sent_log = len(log_)
        return text

    def send_state(self, conn: Connection) -> None:
        conn.sent_log = 0
        conn.send(self.state_message(conn, {}, {}, self.table_info()))

    def broadcast_state(self) -> None:
        views: dict[int | None, dict[str, Any]] = {}
        cache: dict[tuple[int | None, int], str] = {}
        table = self.table_info()
        if self.table_flush is not None:        # this state carries the table info
            self.table_flush.cancel()
            self.table_flush = None
        self.table_sent = time.monotonic()
        for conn in list(self.conns):
            conn.send(self.state_message(conn, views, cache, table))

    def broadcast_table(self, but: Connection | None = None) -> None:
        """Send the table info to every connection, at most once per TABLE_EVERY seconds:
        changes in between are coalesced into one message (800 spectators arriving
        cost 800 x 10 messages a second at most, not 800 x 800)."""
        if self.table_flush is not None:
            return                              # already due: it will carry this change
        wait = self.table_sent + TABLE_EVERY - time.monotonic()
        if wait > 0:
            self.table_flush = asyncio.get_running_loop().call_later(wait, self._flush_table)
            return
        self._flush_table(but)

    def _flush_table(self, but: Connection | None = None) -> None:
        self.table_flush = None
        self.table_sent = time.monotonic()
        text = protocol.dumps({"type": "table", "table": self.table_info()})
        for conn in list(self.conns):
            if conn is not but:
                conn.send(text)

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
                or self.hub.closing or not self.conns):
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
            limit = self.settings["away_seconds"]
            if away is not None and limit > 0 and (self.timer is None or self.timer.cancelled()):
                self._wake_in(limit - away + 0.05)
            return
        name = self.seats[seat]["bot"] if ctrl == "bot" else self.settings["away_bot"]
        self.bot_task = asyncio.get_running_loop().create_task(
            self._bot_turn(seat, name, delay=ctrl != "timer"))
        self.bot_task.add_done_callback(self._bot_done)

    def _bot_done(self, task: asyncio.Task[None]) -> None:
        self.bot_task = None
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: bot failed: %r", self.id, task.exception())
            return
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
        if self.version != version or self.hub.closing or not self.conns:
            return
        view = self.game.view(seat)
        action = await self.hub.think(self, name, self.game.name, self.bot_seed(seat, version),
                                      view)
        try:
            await self.submit(seat, action, version, by_bot=True)
        except Rejected as err:
            if err.code != "stale":
                log.warning("table %s: bot %s's move %s refused: %s", self.id, name, action, err)


class Hub:
    """Every room of one server process, the store and the bot pool."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, bot_workers: int = 2,
                 bot_processes: bool = True, limits: Limits | None = None,
                 db_threads: int = 4) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.limiter = RateLimiter()
        self.rooms: dict[str, Room] = {}
        self.archive: collections.OrderedDict[str, Room] = collections.OrderedDict()
        self.conns_by_address: collections.Counter[str] = collections.Counter()
        self.closing = False
        self.sweeper: asyncio.Task[None] | None = None
        #: the event loop the hub started on: its rooms' locks, timers and tasks live
        #: there (app.HubLoop runs every request on it)
        self.loop: asyncio.AbstractEventLoop | None = None
        # several threads: one slow or locked write holds up only its own table
        self.db_pool = concurrent.futures.ThreadPoolExecutor(max(1, db_threads),
                                                             thread_name_prefix="dh-db")
        self.bot_queue = FairQueue(bot_workers)
        self.bot_pool: concurrent.futures.Executor
        if bot_processes:
            ctx = multiprocessing.get_context("spawn")
            self.bot_pool = concurrent.futures.ProcessPoolExecutor(
                max(1, bot_workers), mp_context=ctx, initializer=_die_with_parent,
                initargs=(os.getpid(),))
        else:
            self.bot_pool = concurrent.futures.ThreadPoolExecutor(
                max(1, bot_workers), thread_name_prefix="dh-bot")

    async def run_db(self, fn: Any, *args: Any, **kw: Any) -> Any:
        """`fn` in a database thread; any database failure becomes a StoreError."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.db_pool, lambda: fn(*args, **kw))
        except StoreError:
            raise
        except Exception as err:
            log.warning("database: %s failed: %r", getattr(fn, "__name__", fn), err)
            raise StoreError(f"the database is not reachable ({type(err).__name__})") from err

    async def think(self, room: Room, name: str, game: str, seed: int,
                    view: dict[str, Any]) -> str:
        """One bot decision, when the fair queue gives this table a worker."""
        seated = any(c.seat is not None for c in room.conns)
        await self.bot_queue.acquire(0 if seated else 1)
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.bot_pool, bot_move, name, game, seed, view)
        finally:
            self.bot_queue.release()

    async def start(self) -> None:
        """Rebuild every live stored table (they wait, paused, until someone connects)."""
        self.loop = asyncio.get_running_loop()
        stored = await self.run_db(self.store.load_tables, True)
        for t in stored:
            try:
                game = replay({**t.record, "actions": t.actions})
            except Exception:
                log.exception("table %s cannot be rebuilt; skipped", t.id)
                continue
            self.rooms[t.id] = Room(self, t, game)
        if any(s["kind"] == "bot" for r in self.rooms.values() for s in r.seats):
            await asyncio.get_running_loop().run_in_executor(self.bot_pool, _warm)
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())
        log.info("%d tables resumed", len(self.rooms))

    async def _sweep(self) -> None:
        """Expire tables nobody is connected to; let finished tables leave memory."""
        every = max(0.2, min(30.0, self.limits.idle_seconds / 4, self.limits.finished_seconds / 4))
        while not self.closing:
            await asyncio.sleep(every)
            await self.sweep()

    async def sweep(self) -> None:
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if room.conns:
                continue
            if room.finished:
                if room.over_since is not None and \
                        now - room.over_since >= self.limits.finished_seconds:
                    self.rooms.pop(room.id, None)
            elif room.idle_since is not None and \
                    now - room.idle_since >= self.limits.idle_seconds:
                try:
                    await self.run_db(self.store.set_state, room.id, EXPIRED)
                except Exception:
                    log.exception("table %s: expiring failed", room.id)
                    continue
                room.expired = True
                room.over_since = now
                self.rooms.pop(room.id, None)
                log.info("table %s expired (nobody connected)", room.id)

    async def room(self, table_id: str) -> Room | None:
        """A live table, or a finished/expired one read back from the store."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        room = self.archive.get(table_id)
        if room is not None:
            self.archive.move_to_end(table_id)
            return room
        if not (0 < len(table_id) <= 64 and table_id.isascii()):
            return None
        stored = await self.run_db(self.store.load_table, table_id)
        if stored is None:
            return None
        try:
            game = replay({**stored.record, "actions": stored.actions})
        except Exception:
            log.exception("table %s cannot be rebuilt", table_id)
            return None
        room = Room(self, stored, game)
        if not room.finished:           # live in the store but not here: an expired table
            room.expired = True
        self.archive[table_id] = room
        while len(self.archive) > 64:
            self.archive.popitem(last=False)
        return room

    async def stop(self) -> None:
        self.closing = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
            for handle in (room.timer, room.turn_timer, room.table_flush):
                if handle is not None:
                    handle.cancel()
            for conn in list(room.conns):
                conn.send(None)
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        # every query still running finishes first: closing a connection another thread
        # is using can crash the process (SQLite), so the store closes after the pool
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, lambda: self.db_pool.shutdown(wait=True))
        try:
            self.store.close()
        except Exception as err:                 # a store that is already gone
            log.warning("database: close failed: %r", err)

    async def again(self, room: Room, seat: int | None, host: bool,
                    address: str = "") -> tuple[Room, int | None, str | None]:
        """"Play again": the finished table's successor, with the same seats.

        The first call creates it (same game, options, bots, names and table settings;
        a new 128-bit seed).  Each seated player who calls it from their own device
        (their seat secret of the old table) takes the same seat at the new one with a
        fresh secret; the host may call it too.  Returns (room, seat, secret).
        """
        if not room.finished:
            raise Rejected("not_over", "Play again once the match is over.", 409,
                           reason="again_not_over")
        if seat is None and not host:
            raise Rejected("spectator", "Only the table's players can play again.", 403,
                           reason="again_players_only")
        async with room.lock:
            nxt_id = room.settings.get("next_table")
            nxt = await self.room(nxt_id) if nxt_id else None
            if nxt is None:
                r = room.base_record
                spec = {"game": room.game.name, "options": dict(r.get("options") or {}),
                        "seats": [{"kind": s["kind"], "bot": s.get("bot"),
                                   "name": s.get("name") if s["kind"] == "human" else None}
                                  for s in room.seats],
                        **{k: room.settings[k] for k in (*SETTINGS_RANGES, "away_bot")},
                        "public": room.settings.get("public") is True}   # listed as before
                spec["options"].pop("game", None)
                nxt = await self.create_table(spec, address)
                nxt.settings["admin"] = room.settings.get("admin")   # the same host
                await self.run_db(self.store.set_settings, nxt.id, nxt.settings)
                settings = {**room.settings, "next_table": nxt.id}
                await self.run_db(self.store.set_settings, room.id, settings)
                room.settings = settings
        room.broadcast_table()              # everyone at the old table sees the link
        if seat is None or room.seats[seat]["kind"] != "human":
            return nxt, None, None
        async with nxt.lock:
            mine = nxt.seats[seat]
            if mine.get("secret") and mine.get("from") != room.seats[seat].get("secret"):
                raise Rejected("taken", "Seat {seat} of the new table is taken.", 409,
                               params={"seat": seat})
            secret = mine.get("secret") or secrets.token_urlsafe(24)
            if not mine.get("secret"):
                await self.run_db(self.store.update_seat, nxt.id, seat, token="", secret=secret)
                mine.update(token="", secret=secret)
            mine["from"] = room.seats[seat].get("secret")     # in memory: a repeat call
        nxt.broadcast_table()
        nxt.kick()
        return nxt, seat, secret

    def live_tables(self) -> int:
        return sum(1 for r in self.rooms.values() if not r.finished)

    async def create_table(self, spec: dict[str, Any], address: str = "") -> Room:
        """Make a table from a lobby request (see app.CreateTable); raises Rejected.

        `spec["take_seat"]`: the creator's own seat (claimed at once); a chosen
        ``seed`` is refused when any other human seat exists (they could not trust it).
        """
        if self.live_tables() >= self.limits.max_tables:
            raise Rejected("server_full", "This server has as many tables as it can host; "
                                           "try again later.", 503)
        game_name = spec.get("game")
        if game_name not in GAMES:
            raise Rejected("bad_message", "unknown game {game} (choose from {games})", 422,
                           reason="no_such_game", params={"game": repr(game_name),
                                                          "games": ", ".join(GAMES)})
        seats_in = spec.get("seats") or []
        lo, hi = PLAYERS[game_name]
        if not lo <= len(seats_in) <= hi:
            raise Rejected("bad_option", "players: {game} takes {lo} to {hi} seats, not {n}", 422,
                           reason="seat_count", params={"game": game_name, "lo": lo, "hi": hi,
                                                        "n": len(seats_in)})
        take = spec.get("take_seat")
        options = {k: v for k, v in (spec.get("options") or {}).items()
                   if v is not None and v != ""}
        if len(options) > 64 or any(isinstance(v, str) and len(v) > 100
                                    for v in options.values()):
            raise Rejected("bad_option", "options: too many or too long", 422,
                           reason="options_too_many")
        if spec.get("preset"):
            options["preset"] = spec["preset"]
        others = [i for i, s in enumerate(seats_in) if s.get("kind") == "human" and i != take]
        seed = spec.get("seed")
        chosen = seed is not None
        if chosen and others:
            raise Rejected("bad_option", "seed: a chosen seed would let you know every "
                                          "hand; it is allowed only at a table with no "
                                          "other human seat", 422, reason="seed_not_allowed")
        if seed is None:
            seed = fair.new_seed()
        try:
            game = new_game(game_name, players=len(seats_in), seed=seed, options=options)
        except BadOption as err:
            raise Rejected.engine("bad_option", err, 422) from None
        chosen_options = game.options.as_dict()
        for spec_ in specs_for(game_name):
            value, bound = chosen_options.get(spec_.name), bounded(spec_.int_range)
            if bound is not None and type(value) is int and value > bound[1]:
                raise Rejected("bad_option", "{option}: at most {most} on this server", 422,
                               reason="option_too_big",
                               params={"option": spec_.name, "most": bound[1]})
        ladder = set(bots.names(game_name)) | set(bots.names(None))
        seats = []
        for i, s in enumerate(seats_in):
            kind = s.get("kind")
            if kind == "bot":
                if s.get("bot") not in ladder:
                    raise Rejected("bad_option",
                                   "seat {seat}: unknown bot {bot} (choose from {bots})", 422,
                                   reason="unknown_bot",
                                   params={"seat": i, "bot": repr(s.get("bot")),
                                           "bots": ", ".join(bots.names(game_name))})
                seats.append({"kind": "bot", "bot": s["bot"], "token": "", "secret": None,
                              "name": f"Bot {i}"})
            elif kind == "human":
                raw = s.get("name")
                name = clean_name(raw) or None
                if raw not in (None, "") and name is None:
                    raise Rejected("bad_name", "seat {seat}: the name has no visible characters",
                                   422, reason="name_invisible", params={"seat": i})
                seats.append({"kind": "human", "bot": None, "token": secrets.token_urlsafe(18),
                              "secret": None, "name": name})
            else:
                raise Rejected("bad_option", "seat {seat}: kind must be 'human' or 'bot'", 422,
                               reason="seat_kind", params={"seat": i})
        if not any(s["kind"] == "human" for s in seats):
            mine = [r for r in self.rooms.values() if r.creator_address == address
                    and not r.finished and not r.human_seats()]
            if address and len(mine) >= self.limits.bot_tables_per_address:
                raise Rejected("too_many", "You already have {n} bot-only tables going.", 429,
                               reason="bot_tables",
                               params={"n": self.limits.bot_tables_per_address})
        strong = sum(1 for s in seats if s["bot"] in STRONG_BOTS)
        if strong and address:
            have = sum(1 for r in self.rooms.values() if r.creator_address == address
                       and not r.finished for s in r.seats if s.get("bot") in STRONG_BOTS)
            if have + strong > self.limits.strong_bots_per_address:
                raise Rejected("too_many", "At most {n} {bots} seats at once from one address.",
                               429, reason="strong_bots",
                               params={"n": self.limits.strong_bots_per_address,
                                       "bots": "/".join(STRONG_BOTS)})
        settings: dict[str, Any] = {"admin": secrets.token_urlsafe(18),
                                    "nonce": fair.new_nonce(), "seed_chosen": chosen}
        for key, (lo_, hi_) in SETTINGS_RANGES.items():
            value = spec.get(key, SETTINGS_DEFAULTS[key])
            if type(value) is not int or not lo_ <= value <= hi_:
                raise Rejected("bad_option", "{option}: a whole number {lo}..{hi}", 422,
                               reason="setting_range",
                               params={"option": key, "lo": lo_, "hi": hi_})
            settings[key] = value
        away_bot = spec.get("away_bot") or SETTINGS_DEFAULTS["away_bot"]
        if away_bot not in ladder:
            raise Rejected("bad_option", "away_bot: unknown bot {bot}", 422,
                           reason="unknown_away_bot", params={"bot": repr(away_bot)})
        settings["away_bot"] = away_bot
        settings["hints"] = hints.table_setting(spec.get("hints"), seats)
        settings["public"] = spec.get("public") is True     # unlisted unless asked for
        if take is not None:                # the creator claims their seat at once
            seats[take].update(token="", secret=secrets.token_urlsafe(24))
        record = game.to_record()
        record.pop("actions")
        table = StoredTable(secrets.token_urlsafe(9).replace("-", "x").replace("_", "y"),
                            record, settings, seats, [], time.time())
        await self.run_db(self.store.create_table, table)
        room = self.rooms[table.id] = Room(self, table, game)
        room.creator_address = address
        room.kick()
        return room
