"""Seats that belong to an account: a seat claimed while logged in (joining by an invite,
or the creator's own seat) is recorded for the account, so the account returns to its
live tables from any device where it is logged in (``GET /api/account/tables``,
``POST /api/account/tables/{id}/resume`` sets that device's seat cookie).

The record keeps a hash of the seat's secret as it was claimed: once the host re-invites
the seat (a lost device) and somebody else takes it, the secret changes and the account's
claim lapses.  Nobody but the account that claimed a seat can resume it.  The rows are in
the server's database, so every node of a cluster answers the same."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from ..server.deps import cookie_name, find_table, get_hub, set_cookie
from ..server.protocol import Rejected, same_secret
from .routes import SESSION_COOKIE, AccountDep, AccountsDep, SameSite, accounts_of, current_account

MAX_TABLES = 20                 # the live tables listed, newest first
router = APIRouter(tags=["accounts"])


def secret_hash(secret: str) -> str:
    return hashlib.sha256(("seat:" + secret).encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------- store
def own_seat(store: Any, account_id: str, table_id: str, seat: int, secret: str, game: str,
             public: bool) -> None:
    def once() -> None:
        with store._tx() as db:
            db.execute(store._sql("DELETE FROM {t}account_seats WHERE table_id = {p} "
                                  "AND seat = {p}"), (table_id, seat))
            db.execute(store._sql(
                "INSERT INTO {t}account_seats (account_id, table_id, seat, secret_hash, game, "
                "public, created) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})"),
                (account_id, table_id, seat, secret_hash(secret), game, int(public), time.time()))
    retrying = getattr(store, "_retrying", None)
    retrying(once) if retrying else once()


def seats_of(store: Any, account_id: str, limit: int) -> list[tuple[Any, ...]]:
    """(table_id, seat, secret_hash, game) of the account's seats at live tables."""
    return list(store._rows(
        "SELECT s.table_id, s.seat, s.secret_hash, s.game FROM {t}account_seats s "
        "JOIN {t}tables t ON t.id = s.table_id WHERE s.account_id = {p} AND t.state = 'live' "
        "ORDER BY s.created DESC LIMIT {p}", (account_id, limit)))


def seat_row(store: Any, account_id: str, table_id: str) -> tuple[Any, ...] | None:
    rows = store._rows("SELECT seat, secret_hash FROM {t}account_seats WHERE account_id = {p} "
                       "AND table_id = {p} ORDER BY created DESC", (account_id, table_id))
    return rows[0] if rows else None


# ---------------------------------------------------------------- the hook
async def claimed(request: Request, table: Any, seat: int, secret: str) -> None:
    """Called by the routes that give a device a seat: a logged-in caller owns it."""
    if not request.cookies.get(SESSION_COOKIE):
        return
    accounts = accounts_of(request)
    account = await current_account(request, accounts)
    if account is None:
        return
    await accounts.run_db(own_seat, accounts.store.store, account.id, table.id, seat, secret,
                          table.game.name, bool(getattr(table.settings, "public", False)))


def holds(table: Any, seat: int, hashed: str) -> bool:
    """The seat's secret is still the one the account claimed."""
    if not 0 <= seat < len(table.seats):
        return False
    secret = table.seats[seat].secret
    return bool(secret) and same_secret(secret_hash(secret), hashed)


# ---------------------------------------------------------------- routes
class LiveTable(BaseModel):
    table: str
    seat: int
    game: str
    url: str


@router.get("/api/account/tables", response_model=list[LiveTable],
            summary="your live tables: seats you claimed while logged in, on any device")
async def my_tables(request: Request, account: AccountDep,
                    accounts: AccountsDep) -> list[dict[str, Any]]:
    rows = await accounts.run_db(seats_of, accounts.store.store, account.id, MAX_TABLES)
    hub = get_hub(request)
    out = []
    for table_id, seat, hashed, game in rows:
        table = await hub.table(table_id)
        if table is None or table.finished or not holds(table, seat, hashed):
            continue
        out.append({"table": table_id, "seat": seat, "game": game, "url": f"/t/{table_id}"})
    return out


@router.post("/api/account/tables/{table_id}/resume", dependencies=[SameSite],
             summary="take your seat at this table on this device (sets its seat cookie)")
async def resume(request: Request, table_id: str, account: AccountDep,
                 accounts: AccountsDep) -> Response:
    row = await accounts.run_db(seat_row, accounts.store.store, account.id, table_id[:64])
    if row is None:
        raise Rejected("not_your_seat", "You have no seat at this table.", 404,
                       reason="not_your_seat")
    table = await find_table(get_hub(request), table_id)
    seat, hashed = row
    if not holds(table, seat, hashed):
        raise Rejected("not_your_seat", "You have no seat at this table.", 404,
                       reason="not_your_seat")
    if table.finished:
        raise Rejected("match_over", "The match is over.", 409, reason="match_is_over")
    response = Response(status_code=204)
    set_cookie(request, response, cookie_name(table.id), table.seats[seat].secret)
    return response
