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
from one dedicated thread) and the bot pool; on start it rebuilds every table
from its stored record with :func:`dominohall.replay`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from .. import bots
from ..engine import GAMES, BadOption, Game, IllegalAction, NotYourTurn, new_game, replay
from ..engine.errors import GameOver
from ..engine.options import PLAYERS, PRESET_LABELS, PRESETS, specs_for
from . import protocol
from .protocol import Rejected
from .store import Store, StoredTable

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
MAX_NAME = 24
MAX_QUEUE = 256         # messages waiting for one slow client before it is dropped


def bot_move(name: str, game: str, seed: int, view: dict[str, Any]) -> str:
    """One bot decision (runs in a worker process or thread)."""
    bot = bots.make(name, seed=seed, game=game, **BOT_PARAMS.get(name, {}))
    return bot.act(view)


def _warm() -> bool:
    return True


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
            "options": [{"name": s.name, "default": s.default, "choices": list(s.choices),
                         "label": s.label, "help": s.help, "int_range": s.int_range}
                        for s in specs_for(name) if s.name != "game"],
        })
    return out


@dataclass(eq=False)
class Connection:
    """One websocket: its seat (None: spectator) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    sent_log: int = 0           # log events this connection already has
    closed: bool = False

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
        self.settings = {**SETTINGS_DEFAULTS, **stored.settings}
        self.game = game
        self.created = stored.created
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        now = time.monotonic()
        # human seats without a connection, since when (a restart counts as leaving)
        self.away_since: dict[int, float] = {s: now for s in self.human_seats()}
        self.pause_until = 0.0
        self.ready: set[int] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.timer: asyncio.TimerHandle | None = None
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

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens, or None."""
        if not token:
            return None
        for i, s in enumerate(self.seats):
            if s["kind"] == "human" and secrets.compare_digest(s["token"], token):
                return i
        return None

    @property
    def waiting(self) -> bool:
        """Some open seat has not been taken yet: nobody moves."""
        return any(s["kind"] == "human" and not s.get("name") for s in self.seats)

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
        return "waiting" if self.waiting else "playing"

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
            "pause": round(pause, 1),
            "ready": sorted(self.ready) if pause else [],
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
                or self.controller(seat) != "human"):
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

    async def join(self, token: str, name: str) -> int:
        """Take the seat a token opens, under a display name (again: a rename)."""
        seat = self.seat_of(token)
        if seat is None:
            raise Rejected("bad_token", "this invite link is not valid for this table", 403)
        name = " ".join(name.split())[:MAX_NAME]
        if not name:
            raise Rejected("bad_message", "a display name is needed to take a seat")
        async with self.lock:
            await self.hub.run_db(self.hub.store.set_seat_name, self.id, seat, name)
            self.seats[seat]["name"] = name
            self._time_turn()
        self.broadcast_table()
        self.kick()
        return seat

    # --- connections ---------------------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        self.conns.add(conn)
        if conn.seat is not None:
            self.away_since.pop(conn.seat, None)
        self._time_turn()
        self.send_state(conn)
        self.broadcast_table(but=conn)

    def disconnect(self, conn: Connection) -> None:
        self.conns.discard(conn)
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
            raise Rejected("spectator", "spectators cannot play", 403)
        async with self.lock:
            g = self.game
            now_version = self.version
            if g.is_over:
                raise Rejected("game_over", "the match is over")
            if self.waiting:
                raise Rejected("waiting", "waiting for every invited player to take their seat")
            if version != now_version:
                raise Rejected("stale", f"stale action: it was chosen at version {version} but "
                               f"the table is at version {now_version}; look again", 409)
            if (by_bot and self.controller(seat) == "human"
                    and not self.turn_expired(seat)):
                raise Rejected("stale", "the player is back")
            round_before = g.round
            try:
                g.apply(text, seat=seat)
            except NotYourTurn as err:
                raise Rejected("not_your_turn", str(err), 409) from None
            except GameOver as err:
                raise Rejected("game_over", str(err)) from None
            except IllegalAction as err:
                raise Rejected("illegal", str(err)) from None
            try:
                await self.hub.run_db(self.hub.store.append_action, self.id, now_version + 1,
                                      seat, g.actions[-1])
            except Exception as err:   # the action is not stored: it did not happen
                log.exception("table %s: storing action %s failed", self.id, text)
                self.game = self._rebuild(g.actions[:-1])
                raise Rejected("storage", f"the action could not be saved ({err}); try again",
                               503) from None
            if not by_bot:
                self.away_since.pop(seat, None)
            if g.current_seat != seat or g.round != round_before:
                self.turn_no += 1               # the next turn begins
            self._after_action(round_before)
            self._time_turn()
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
        for conn in list(self.conns):
            conn.send(self.state_message(conn, views, cache, table))

    def broadcast_table(self, but: Connection | None = None) -> None:
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
        """Start a bot's move if a bot (or an away player's stand-in) is to play."""
        g = self.game
        if g.is_over or self.waiting or self.bot_task is not None or self.hub.closing:
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

    async def _bot_turn(self, seat: int, name: str, delay: bool = True) -> None:
        version = self.version
        if delay and self.hub.bot_delay:
            await asyncio.sleep(self.hub.bot_delay)
        if self.version != version or self.hub.closing:
            return
        view = self.game.view(seat)
        seed = zlib.crc32(f"{self.base_record.get('seed')}/{seat}/{version}".encode())
        action = await self.hub.think(name, self.game.name, seed, view)
        try:
            await self.submit(seat, action, version, by_bot=True)
        except Rejected as err:
            if err.code != "stale":
                log.warning("table %s: bot %s's move %s refused: %s", self.id, name, action, err)


class Hub:
    """Every room of one server process, the store and the bot pool."""

    def __init__(self, store: Store, *, bot_delay: float = 0.6, bot_workers: int = 2,
                 bot_processes: bool = True) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.closing = False
        self.db_pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="dh-db")
        self.bot_pool: concurrent.futures.Executor
        if bot_processes:
            ctx = multiprocessing.get_context("spawn")
            self.bot_pool = concurrent.futures.ProcessPoolExecutor(max(1, bot_workers),
                                                                   mp_context=ctx)
        else:
            self.bot_pool = concurrent.futures.ThreadPoolExecutor(
                max(1, bot_workers), thread_name_prefix="dh-bot")

    async def run_db(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    async def think(self, name: str, game: str, seed: int, view: dict[str, Any]) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.bot_pool, bot_move, name, game, seed, view)

    async def start(self) -> None:
        """Rebuild every stored table and let its bots go on."""
        stored = await self.run_db(self.store.load_tables)
        for t in stored:
            try:
                game = replay({**t.record, "actions": t.actions})
            except Exception:
                log.exception("table %s cannot be rebuilt; skipped", t.id)
                continue
            self.rooms[t.id] = Room(self, t, game)
        if any(s["kind"] == "bot" for r in self.rooms.values() for s in r.seats):
            await asyncio.get_running_loop().run_in_executor(self.bot_pool, _warm)
        for room in self.rooms.values():
            room.kick()
        log.info("%d tables resumed", len(self.rooms))

    async def stop(self) -> None:
        self.closing = True
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
            for handle in (room.timer, room.turn_timer):
                if handle is not None:
                    handle.cancel()
            for conn in list(room.conns):
                conn.send(None)
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        await self.run_db(self.store.close)
        self.db_pool.shutdown(wait=True)

    async def create_table(self, spec: dict[str, Any]) -> Room:
        """Make a table from a lobby request (see app.CreateTable); raises Rejected."""
        game_name = spec.get("game")
        if game_name not in GAMES:
            raise Rejected("bad_message", f"unknown game {game_name!r} "
                           f"(choose from {', '.join(GAMES)})", 422)
        seats_in = spec.get("seats") or []
        lo, hi = PLAYERS[game_name]
        if not lo <= len(seats_in) <= hi:
            raise Rejected("bad_option", f"players: {game_name} takes {lo} to {hi} seats, "
                           f"not {len(seats_in)}", 422)
        options = {k: v for k, v in (spec.get("options") or {}).items()
                   if v is not None and v != ""}
        if spec.get("preset"):
            options["preset"] = spec["preset"]
        seed = spec.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        try:
            game = new_game(game_name, players=len(seats_in), seed=seed, options=options)
        except BadOption as err:
            raise Rejected("bad_option", str(err), 422) from None
        ladder = set(bots.names(game_name)) | set(bots.names(None))
        seats = []
        for i, s in enumerate(seats_in):
            kind = s.get("kind")
            if kind == "bot":
                if s.get("bot") not in ladder:
                    raise Rejected("bad_option", f"seat {i}: unknown bot {s.get('bot')!r} "
                                   f"(choose from {', '.join(bots.names(game_name))})", 422)
                seats.append({"kind": "bot", "bot": s["bot"], "token": secrets.token_urlsafe(8),
                              "name": f"Bot {i}"})
            elif kind == "human":
                name = " ".join(str(s.get("name") or "").split())[:MAX_NAME] or None
                seats.append({"kind": "human", "bot": None, "token": secrets.token_urlsafe(18),
                              "name": name})
            else:
                raise Rejected("bad_option", f"seat {i}: kind must be 'human' or 'bot'", 422)
        settings = {"admin": secrets.token_urlsafe(18)}
        for key, (lo_, hi_) in SETTINGS_RANGES.items():
            value = spec.get(key, SETTINGS_DEFAULTS[key])
            if type(value) is not int or not lo_ <= value <= hi_:
                raise Rejected("bad_option", f"{key}: a whole number {lo_}..{hi_}", 422)
            settings[key] = value
        away_bot = spec.get("away_bot") or SETTINGS_DEFAULTS["away_bot"]
        if away_bot not in ladder:
            raise Rejected("bad_option", f"away_bot: unknown bot {away_bot!r}", 422)
        settings["away_bot"] = away_bot
        settings["public"] = spec.get("public") is True     # unlisted unless asked for
        record = game.to_record()
        record.pop("actions")
        table = StoredTable(secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"),
                            record, settings, seats, [], time.time())
        await self.run_db(self.store.create_table, table)
        room = self.rooms[table.id] = Room(self, table, game)
        room.kick()
        return room
