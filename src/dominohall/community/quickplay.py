"""Quick play over HTTP (``/api/queue``) and each node's matcher.

``POST /api/queue`` puts the caller (an account, else this device: the HttpOnly
``dh_device`` cookie) in a queue; ``GET /api/queue`` says how many wait and for how
long, or, once matched, the table and the seat's invite link (the page polls it, so a
reload finds the same entry); ``POST /api/queue/bots`` accepts bots for the empty seats
(casual); ``POST /api/queue/leave``.  A rated queue needs an account.

:func:`start` runs the :class:`Matcher` on this node and rates a quick-play table's
match when it ends (:func:`rate_table`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..server.deps import address, rate, set_cookie
from ..server.protocol import Rejected, clean_name
from . import queue as Q
from . import ratings as R
from .routes import AccountsDep, MaybeAccount, SameSite
from .store import CommunityStore

log = logging.getLogger("dominohall.community")
DEVICE_COOKIE = "dh_device"
PER_ADDRESS = 4             # entries waiting from one address
router = APIRouter(tags=["quick play"])


class JoinQueue(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, description="mexican_train | all_fives | block | draw")
    players: int = Field(0, ge=0, le=16, strict=True,
                         description="the number of players; 0: any")
    rated: bool = Field(False, strict=True, description="rated (an account) or casual")
    name: str | None = Field(None, max_length=200, description="a guest's display name")


class QueueState(BaseModel):
    state: str = Field(description="none | waiting | matched")
    game: str | None = None
    players: int | None = None
    rated: bool | None = None
    waiting: int | None = Field(None, description="entries waiting in this queue")
    seconds: float | None = Field(None, description="how long this entry has waited")
    bots: bool | None = Field(None, description="bots accepted for the empty seats")
    bots_after: float | None = Field(None, description="seconds of waiting before bots")
    table: str | None = None
    seat: int | None = None
    url: str | None = Field(None, description="the seat's invite link")


def device_of(request: Request, response: Response | None = None) -> str:
    device = request.cookies.get(DEVICE_COOKIE, "")
    if not (16 <= len(device) <= 64 and device.replace("-", "").replace("_", "").isalnum()):
        device = secrets.token_urlsafe(18)
        if response is not None:
            set_cookie(request, response, DEVICE_COOKIE, device)
    return device


def _state(row: tuple[Any, ...] | None, waiting: int = 0) -> dict[str, Any]:
    if row is None:
        return {"state": "none"}
    (entry, game, players, rated, _mu, joined, bots, _addr, _dev, _acc, _name, table, seat,
     invite, _seen) = row
    base = {"game": game, "players": players, "rated": bool(rated)}
    if table and invite:
        return {"state": "matched", **base, "table": table, "seat": seat,
                "url": f"/t/{table}?invite={invite}"}
    return {"state": "waiting", **base, "waiting": waiting,
            "seconds": round(max(0.0, time.time() - joined), 1), "bots": bool(bots),
            "bots_after": None if rated else Q.BOT_WAIT}


async def _mine(request: Request, accounts: Any, account: Any) -> tuple[Any, ...] | None:
    device = request.cookies.get(DEVICE_COOKIE, "")
    if not account and not device:
        return None
    row: tuple[Any, ...] | None = await accounts.run_db(
        accounts.store.queue_entry, account.id if account else None, device)
    return row


@router.post("/api/queue", status_code=201, response_model=QueueState,
             response_model_exclude_none=True, dependencies=[SameSite],
             summary="wait for a game with strangers (one entry per account or device)")
async def join(request: Request, response: Response, body: JoinQueue, account: MaybeAccount,
               accounts: AccountsDep) -> dict[str, Any]:
    rate(request, "queue", 30)
    if body.game not in Q.SIZES:
        raise Rejected("bad_request", "unknown game {game} (choose from {games})", 422,
                       reason="no_such_game",
                       params={"game": repr(body.game), "games": ", ".join(Q.SIZES)})
    lo, hi, _ = Q.SIZES[body.game]
    if body.players and not lo <= body.players <= hi:
        raise Rejected("bad_request", "players: {game} takes {lo} to {hi} seats, not {n}", 422,
                       reason="seat_count",
                       params={"game": body.game, "lo": lo, "hi": hi, "n": body.players})
    if body.rated and account is None:
        raise Rejected("not_logged_in", "Rated play needs an account: log in first.", 401,
                       reason="rated_needs_account")
    name = account.name if account else (clean_name(body.name) or "Guest")
    mu = R.MU
    if account and body.rated:
        mu = await accounts.run_db(accounts.store.rating_mu, account.id, body.game) or R.MU
    device = device_of(request, response)
    entry = await accounts.run_db(lambda: accounts.store.join_queue(
        account_id=account.id if account else None, device=device, address=address(request),
        game=body.game, players=body.players, rated=body.rated, mu=mu, name=name,
        cap=PER_ADDRESS))
    if entry is None:
        raise Rejected("too_many", "At most {n} players from one address can wait at once.",
                       429, reason="queue_address", params={"n": PER_ADDRESS})
    row = await accounts.run_db(accounts.store.queue_entry, account.id if account else None,
                                device)
    waiting = await accounts.run_db(accounts.store.count_waiting, body.game, body.rated)
    return _state(row, waiting)


@router.get("/api/queue", response_model=QueueState, response_model_exclude_none=True,
            summary="this account's or device's queue entry: waiting, or its table")
async def status(request: Request, account: MaybeAccount, accounts: AccountsDep
                 ) -> dict[str, Any]:
    row = await _mine(request, accounts, account)
    if row is None:
        return {"state": "none"}
    await accounts.run_db(accounts.store.touch_entry, row[0])
    waiting = await accounts.run_db(accounts.store.count_waiting, row[1], bool(row[3]))
    return _state(row, waiting)


@router.post("/api/queue/bots", response_model=QueueState, response_model_exclude_none=True,
             dependencies=[SameSite], summary="casual: bots may take the empty seats")
async def accept_bots(request: Request, account: MaybeAccount, accounts: AccountsDep
                      ) -> dict[str, Any]:
    row = await _mine(request, accounts, account)
    if row is None:
        raise Rejected("not_queued", "You are not waiting for a game.", 404,
                       reason="not_queued")
    if row[3]:
        raise Rejected("bad_request", "Bots never play rated games.", 409, reason="bots_rated")
    await accounts.run_db(accounts.store.accept_bots, row[0])
    return _state(await _mine(request, accounts, account),
                  await accounts.run_db(accounts.store.count_waiting, row[1], False))


@router.post("/api/queue/leave", status_code=204, dependencies=[SameSite],
             summary="stop waiting")
async def leave(request: Request, account: MaybeAccount, accounts: AccountsDep) -> Response:
    row = await _mine(request, accounts, account)
    if row is not None:
        await accounts.run_db(accounts.store.leave_queue, row[0])
    return Response(status_code=204)


# ---------------------------------------------------------------- the matcher
class Matcher:
    """Makes the tables of the groups :func:`~.queue.groups` finds, on this node."""

    def __init__(self, hub: Any, store: CommunityStore, interval: float = 0.2) -> None:
        self.hub, self.store, self.interval = hub, store, interval

    async def run(self) -> None:
        while True:
            try:
                await self.match_once()
            except asyncio.CancelledError:
                raise
            except Exception:   # noqa: BLE001 - the matcher keeps going; the log says why
                log.exception("quick play: matching failed")
            await asyncio.sleep(self.interval)

    async def match_once(self) -> int:
        rows = await self.hub.run_db(self.store.waiting, Q.STALE)
        names = {r[0]: r[10] for r in rows}
        people = {r[0]: {"account": r[9], "address": r[7], "device": r[8]} for r in rows}
        entries = [Q.Entry(r[0], r[1], int(r[2]), bool(r[3]), float(r[4]), float(r[5]),
                           bool(r[6]), r[7], r[8], r[9]) for r in rows]

        async def make(group: Q.Group) -> bool:
            ids = [e.id for e in group.entries]
            token = "claim:" + secrets.token_urlsafe(9)
            if not await self.hub.run_db(self.store.claim, ids, token):
                return False                # another node took one of them
            seats = [{"kind": "human", "name": names[i]} for i in ids] + \
                [{"kind": "bot", "bot": Q.BOT}] * group.bots
            try:
                core = await self.hub.create_table({"game": group.game, "options": {},
                                                    "seats": seats, "public": True})
            except Exception:   # noqa: BLE001 - the entries wait on
                log.exception("quick play: a table could not be made")
                await self.hub.run_db(self.store.release, token)
                return False
            invites = [(e, i, core.seats[i].token) for i, e in enumerate(ids)]
            await self.hub.run_db(self.store.seat_entries, token, core.id, group.game,
                                  group.rated, invites,
                                  [people[i] for i in ids] + [None] * group.bots)
            return True

        # the round's tables are made side by side: one slow table holds up no other
        done = await asyncio.gather(*(make(g) for g in Q.groups(entries, time.time())))
        return sum(done)


def rounds_gone_out(game: Any, seats: int) -> tuple[int, list[int]]:
    """The rounds (hands) a finished match had, and per seat the ones it went out in."""
    from ..engine.views import events

    outs = [0] * seats
    if getattr(game, "state", None) is None:        # a bare result (tests): no log
        return 0, outs
    ends = [e for e in events(game, None) if e["type"] == "round_end"]
    for e in ends:
        if e.get("reason") == "domino" and isinstance(e.get("seat"), int) and \
                0 <= e["seat"] < seats:
            outs[e["seat"]] += 1
    return len(ends), outs


async def rate_table(store: CommunityStore, run_db: Any, core: Any) -> bool:
    """Rate a quick-play table's finished match, if it was rated (once, on any node)."""
    found = await run_db(store.queue_table, core.id)
    if found is None or not found[1]:
        return False
    game, _, seats = found
    g = core.game
    teams = bool(getattr(g.options, "teams", False))
    scoring = str(getattr(g.options, "scoring", "penalty"))
    lower = R.lower_is_better(game, scoring)
    scores = [int(x) for x in g.scores]
    # abandoning counts as the loss: a player still away (a bot playing for them past the
    # away time) when the match ends ranks last, and so does their partner
    gone = {i for i in range(len(seats)) if core.controller(i) == "away"}
    if teams:
        gone |= {i ^ 2 for i in gone if (i ^ 2) < len(seats)}
    if gone:
        worst = max(scores) + 1 if lower else min(scores) - 1
        scores = [worst if i in gone else x for i, x in enumerate(scores)]
    rounds, outs = rounds_gone_out(g, len(seats))
    players = [R.Player(s["account"], scores[i], i % 2 if teams else None,
                        s.get("address") or "", s.get("device") or "", rounds, outs[i])
               for i, s in enumerate(seats) if s and s.get("account")]
    if len(players) != len(seats) or R.same_player(players):
        return False                        # never rated against oneself
    return await run_db(store.record_match, core.id, game, players, lower) is not None


async def start(app: Any, hub: Any) -> Callable[[], Awaitable[None]]:
    """Run this node's matcher and rate quick-play matches as they end; returns stop."""
    from .routes import accounts_of

    class _Conn:                      # accounts_of wants something with .app
        def __init__(self, app: Any) -> None:
            self.app = app

    accounts = accounts_of(_Conn(app))  # type: ignore[arg-type]
    matcher = Matcher(hub, accounts.store)
    task = asyncio.create_task(matcher.run(), name="quick play matcher")

    async def over(core: Any) -> None:
        await rate_table(accounts.store, hub.run_db, core)

    listeners = getattr(hub, "match_listeners", None)
    if listeners is not None:
        listeners.append(over)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return stop
