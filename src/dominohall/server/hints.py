"""Hints at a web table: the terminal game's `?` (the same advice,
:func:`dominohall.analysis.advise`, from the seat's view alone), asked for over the seat's
own websocket with ``{"type": "hint"}``.

The answer goes to the asking connection only (never to another seat or a spectator):
``{"type": "hint", "version": 17, "action": "12-5>t1", "why": "starts your train; ..."}``.
The strongest bot thinks in the hub's bot pool (a worker process by default, taking its
turn in the bots' fair queue), from the table's record replayed there, so the event loop
never waits on it.

Whether a table allows hints is a table setting, ``hints``: the creator chooses; when
they do not, hints are on for a table with at most one human seat and off otherwise (a
hint is help the other humans at the table do not get).  ``table_info()["hints"]`` shows
it to everyone at the table.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from ..analysis.advice import advise
from ..engine import replay
from ..i18n.advice import advice_text
from . import protocol
from .protocol import Rejected
from .tables.limits import BACKGROUND

if TYPE_CHECKING:
    from .tables import Connection, Seat
    from .tables import TableState as Room

log = logging.getLogger("dominohall.server")

CACHE_SIZE = 256
#: (table id, version, seat, language) -> (action, why); a position's hint does not change
_cache: OrderedDict[tuple[str, int, int, str], tuple[str, str]] = OrderedDict()
#: (table, seat) with a hint being worked out: one at a time per seat, however many
#: sockets the seat opens
_busy: set[tuple[str, int]] = set()
_tasks: set[asyncio.Task[None]] = set()


def default_for(seats: list[Seat]) -> bool:
    """Hints are on by default only when at most one human sits at the table."""
    return sum(1 for s in seats if s.kind == "human") <= 1


def table_setting(value: object, seats: list[Seat]) -> bool:
    """The ``hints`` setting a create request asks for (None: the default for its seats)."""
    if value is None:
        return default_for(seats)
    if type(value) is not bool:
        raise Rejected("bad_option", "hints: true or false", 422, reason="hints_bool")
    return value


def allowed(room: Room) -> bool:
    """Whether this table gives hints (tables stored before the setting get the default)."""
    value = room.settings.hints
    return default_for(room.seats) if value is None else bool(value)


def compute(record: dict[str, Any], seat: int, lang: str = "en") -> tuple[str, str]:
    """(action, why): the hint for `seat` in the game `record`, its why said in `lang` (the
    asking player's; runs in a bot worker).  The advice (`dominohall.analysis.advise`)
    reads only `seat`'s view of the replayed game, never the other hands."""
    advice = advise(replay(record).view(seat))
    why = advice_text(advice.reasons, lang, viewer=seat)
    return advice.action, why          # the move and its why: no bot names (issue 21)


def request(room: Room, conn: Connection) -> None:
    """Start working out a hint for `conn`'s seat; raises Rejected when none can be given."""
    seat = conn.seat
    if seat is None:
        raise Rejected("spectator", "spectators get no hints", 403, reason="hints_spectator")
    if not allowed(room):
        raise Rejected("hints_off", "hints are off at this table")
    game = room.game
    if game.is_over:
        raise Rejected("game_over", "the match is over", reason="the_match_is_over")
    if game.current_seat != seat or not game.view(seat)["legal_actions"]:
        raise Rejected("not_your_turn", "a hint is for your own turn", 409, reason="hint_own_turn")
    version = room.version
    key = (room.id, version, seat, conn.lang)
    cached = _cache.get(key)
    if cached is not None:
        conn.send(_message(version, cached))
        return
    if (room.id, seat) in _busy:
        raise Rejected("busy", "a hint is already being worked out", 429)
    hub: Any = room.hub
    limiter, limits = getattr(hub, "limiter", None), getattr(hub, "limits", None)
    if limiter is not None and limits is not None:
        wait = limiter.check("hint", f"{room.id}/{seat}", limits.hints_per_minute)
        if wait:
            after = max(1, round(wait + 0.5))
            raise Rejected("rate_limited", "Too many requests; try again in {seconds} s.",
                           429, params={"seconds": after}, retry_after=after)
    _busy.add((room.id, seat))
    task = asyncio.get_running_loop().create_task(_answer(room, conn, key, game.to_record()))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _answer(room: Room, conn: Connection, key: tuple[str, int, int, str],
                  record: dict[str, Any]) -> None:
    try:
        loop = asyncio.get_running_loop()
        hub: Any = room.hub                              # the node's Hub (or a test's)
        queue = getattr(hub, "bot_queue", None)          # the bots' fair share of workers
        if queue is not None:                            # after every bot move waiting
            await queue.acquire(BACKGROUND)
        try:
            shared = getattr(hub, "shared_hint", None)   # a cluster's: worked out anywhere
            result = await shared(key) if shared is not None else None
            if result is None:
                result = await loop.run_in_executor(hub.bot_pool, compute, record, key[2],
                                                     key[3])
                keep = getattr(hub, "keep_hint", None)
                if keep is not None:
                    await keep(key, result)
        finally:
            if queue is not None:
                queue.release(BACKGROUND)
        _cache[key] = result
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
        conn.send(_message(key[1], result))
    except asyncio.CancelledError:
        raise
    except Exception as err:  # noqa: BLE001 - a failed hint is an error message, not a crash
        log.warning("table %s: hint failed: %r", room.id, err)
        conn.send(Rejected("hint_failed", "no hint could be worked out; try again")
                  .ws(room.version))
    finally:
        _busy.discard((room.id, key[2]))


def _message(version: int, result: tuple[str, str]) -> str:
    action, why = result
    return protocol.dumps({"type": "hint", "version": version, "action": action, "why": why})
