"""Friends over HTTP (``/api/friends``): add one by name, see who is online and at which
quick-play table, invite a friend to your table (the invitation waits in their lobby,
``GET /api/friends`` lists it; no link needs to be sent).

A friend is one-way (like following); an invitation may go only to a mutual friend, so
nobody is sent invitations by strangers.  Only a player seated at the table may invite;
the host's invitation carries an open seat's invite link, anyone else's the table's
page.  Online: a session of theirs was used in the last
:data:`~.routes.ONLINE_SECONDS`."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..server.deps import find_table, get_hub, is_host, rate, seat_of
from ..server.protocol import Rejected
from .names import name_key
from .routes import ONLINE_SECONDS, AccountDep, AccountsDep, SameSite

INVITE_SECONDS = 15 * 60        # an invitation shows this long
router = APIRouter(tags=["friends"])


class FriendName(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)


class InviteFriend(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    table: str = Field(max_length=64)


class Friend(BaseModel):
    name: str
    mutual: bool = Field(description="they added you too (invitations need this)")
    online: bool
    table: str | None = Field(None, description="the quick-play or public table they sit at")


class Invitation(BaseModel):
    name: str = Field(description="who invites you")
    table: str
    url: str
    time: float


class Friends(BaseModel):
    friends: list[Friend]
    invitations: list[Invitation]


async def _other(accounts: Any, account: Any, name: str) -> Any:
    other = await accounts.run_db(accounts.store.account_by_key, name_key(name))
    if other is None:
        raise Rejected("no_player", "No player is called {name}.", 404,
                       params={"name": repr(name[:40])})
    if other.id == account.id:
        raise Rejected("bad_request", "You cannot add yourself.", 422, reason="friend_self")
    return other


async def owns_seat(accounts: Any, account: Any, table: Any) -> bool:
    """The account claimed a seat at `table` (on any device) and still holds it."""
    from . import seats

    row = await accounts.run_db(seats.seat_row, accounts.store.store, account.id, table.id)
    return row is not None and seats.holds(table, row[0], row[1])


@router.get("/api/friends", response_model=Friends,
            summary="your friends (online, at which table) and invitations to tables")
async def friends(account: AccountDep, accounts: AccountsDep) -> dict[str, Any]:
    now = time.time()
    rows = await accounts.run_db(accounts.store.friends_of, account.id, now - ONLINE_SECONDS)
    invites = await accounts.run_db(accounts.store.invites_for, account.id,
                                    now - INVITE_SECONDS)
    return {"friends": [{"name": n, "mutual": bool(m), "online": bool(o),
                         "table": t if o else None} for n, m, o, t in rows],
            "invitations": [{"name": n, "table": t, "url": u, "time": c}
                            for n, t, u, c in invites]}


@router.post("/api/friends/add", status_code=204, dependencies=[SameSite],
             summary="add a friend by name")
async def add(request: Request, body: FriendName, account: AccountDep,
              accounts: AccountsDep) -> Response:
    rate(request, "friends", 30)
    other = await _other(accounts, account, body.name)
    await accounts.run_db(accounts.store.add_friend, account.id, other.id)
    return Response(status_code=204)


@router.post("/api/friends/remove", status_code=204, dependencies=[SameSite],
             summary="remove a friend")
async def remove(request: Request, body: FriendName, account: AccountDep,
                 accounts: AccountsDep) -> Response:
    rate(request, "friends", 30)
    other = await _other(accounts, account, body.name)
    await accounts.run_db(accounts.store.remove_friend, account.id, other.id)
    return Response(status_code=204)


@router.post("/api/friends/invite", status_code=204, dependencies=[SameSite],
             summary="invite a mutual friend to the table you sit at")
async def invite(request: Request, body: InviteFriend, account: AccountDep,
                 accounts: AccountsDep) -> Response:
    rate(request, "friends", 30)
    other = await _other(accounts, account, body.name)
    if not await accounts.run_db(accounts.store.is_mutual, account.id, other.id):
        raise Rejected("forbidden", "You can invite only a friend who added you too.", 403,
                       reason="not_mutual")
    table = await find_table(get_hub(request), body.table)
    host = is_host(request, table)
    if seat_of(request, table) is None and not host and \
            not await owns_seat(accounts, account, table):
        raise Rejected("forbidden", "Only a player at this table can invite to it.", 403,
                       reason="not_at_table")
    if table.game.is_over:
        raise Rejected("match_over", "The match is over.", 409, reason="match_is_over")
    url = f"/t/{table.id}"
    open_ = table.open_invites() if host else []
    if open_:
        url += f"?invite={table.seats[open_[0]].token}"
    await accounts.run_db(accounts.store.invite, account.id, other.id, table.id, url)
    return Response(status_code=204)
