"""The tables' REST API: the lobby's list, creating a table, its info and record, claiming
a seat, re-inviting one, Play again, a seat's view and its actions."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from ...community import seats
from .. import protocol
from ..deps import (
    HubDep,
    SeatDep,
    SettingsDep,
    TableDep,
    address,
    admin_cookie,
    base_url,
    cookie_name,
    find_table,
    is_host,
    rate,
    seat_of,
    secret_of,
    set_cookie,
)
from ..errors import JSON
from ..models import (
    ActionIn,
    Again,
    AgainIn,
    Created,
    CreateTable,
    Joined,
    JoinSeat,
    Played,
    Reinvited,
    TableInfo,
)
from ..protocol import Rejected
from ..tables import TableState

router = APIRouter(tags=["tables"])


def invites(table: TableState, base: str) -> list[dict[str, Any]]:
    """Every seat; a token and invite link only for seats nobody has claimed."""
    open_ = set(table.open_invites())
    return [{"seat": i, "kind": s.kind, "name": s.name,
             "claimed": s.human and i not in open_,
             **({"token": s.token, "invite_url": f"{base}/t/{table.id}?invite={s.token}"}
                if i in open_ else {})}
            for i, s in enumerate(table.seats)]


@router.get("/api/tables", summary="public tables on this server (newest first)",
            response_model=list[TableInfo], response_model_exclude_unset=True)
async def tables(hub: HubDep) -> list[dict[str, Any]]:
    return await hub.lobby(50)


@router.post("/api/tables", status_code=201, response_model=Created,
             response_model_exclude_unset=True,
             summary="create a table; returns the invite links of its open seats",
             responses={422: {"description": "a bad option, seat or seed"},
                        429: {"description": "rate limited (Retry-After)"}})
async def create(request: Request, response: Response, spec: CreateTable, hub: HubDep,
                 settings: SettingsDep) -> dict[str, Any]:
    rate(request, "create", settings.limits.create_per_minute)
    data = spec.model_dump()
    if spec.take_seat is not None:
        if not spec.take_seat < len(spec.seats) or spec.seats[spec.take_seat].kind != "human":
            raise Rejected("bad_option", "take_seat must be one of the human seats", 422,
                           reason="take_seat")
        if not protocol.clean_name(spec.name):
            raise Rejected("bad_name", "name: your display name, to take a seat", 422,
                           reason="name_to_take_seat")
        data["seats"][spec.take_seat]["name"] = spec.name
    table = await hub.create_table(data, address(request))
    base = base_url(request)
    admin = table.settings.admin
    assert admin is not None
    set_cookie(request, response, admin_cookie(table.id), admin)
    out: dict[str, Any] = {"id": table.id, "url": f"{base}/t/{table.id}",
                           "spectator_url": f"{base}/t/{table.id}", "seat": spec.take_seat,
                           "admin": admin, "seats": invites(table, base),
                           "fairness": table.fairness()}
    if spec.take_seat is not None:
        secret = table.seats[spec.take_seat].secret
        assert secret is not None
        set_cookie(request, response, cookie_name(table.id), secret)
        out["seat_token"] = secret
        await seats.claimed(request, table, spec.take_seat, secret)
    return out


@router.get("/api/tables/{table_id}", response_model=TableInfo,
             response_model_exclude_unset=True,
             summary="a table's seats, status and deal commitment (and, for its creator, "
                    "the open invites)")
async def table(request: Request, table: TableDep, invite: str | None = None) -> dict[str, Any]:
    """``?invite=TOKEN``: the page says at once whether an invite link still opens a seat
    (before asking for a name), without claiming it."""
    out = table.public_info()
    host = is_host(request, table)
    out["you"] = {"seat": seat_of(request, table), "host": host}
    if host:
        out["invites"] = invites(table, base_url(request))
    if invite is not None:
        opens = [i for i in table.open_invites()
                 if len(invite) <= 200 and protocol.same_secret(table.seats[i].token, invite)]
        out["invite"] = {"valid": bool(opens), "seat": opens[0] if opens else None}
        host_seat = table.settings.host_seat
        if opens and isinstance(host_seat, int) and 0 <= host_seat < len(table.seats):
            out["invite"]["host"] = table.seats[host_seat].name
    return out


@router.get("/api/tables/{table_id}/record",
            summary="the full game record with the revealed seed (after the match)",
            responses={409: {"description": "the match is not over yet"}})
async def record(table: TableDep) -> JSON:
    return JSON(table.record(), headers={
        "Content-Disposition": f'attachment; filename="dominohall-{table.id}.json"'})


@router.post("/api/tables/{table_id}/join", response_model=Joined,
             response_model_exclude_unset=True,
             summary="claim the seat an invite opens (retires the invite) or rename yours")
async def join(request: Request, response: Response, table_id: str, body: JoinSeat,
               hub: HubDep, settings: SettingsDep) -> dict[str, Any]:
    rate(request, "join", settings.limits.join_per_minute)
    table = await find_table(hub, table_id)
    seat, secret = await table.join(body.token, body.name)
    set_cookie(request, response, cookie_name(table_id), secret)
    await seats.claimed(request, table, seat, secret)
    return {"seat": seat, "token": secret}


@router.post("/api/tables/{table_id}/seats/{seat}/invite", response_model=Reinvited,
             response_model_exclude_unset=True,
             summary="the host re-invites a seat (a lost device); everyone is told")
async def reinvite(request: Request, table: TableDep, seat: int) -> dict[str, Any]:
    if not is_host(request, table):
        raise Rejected("not_host", "Only the table's creator can re-invite a seat.", 403)
    token = await table.reinvite(seat)
    return {"seat": seat, "token": token,
            "invite_url": f"{base_url(request)}/t/{table.id}?invite={token}"}


@router.post("/api/tables/{table_id}/again", status_code=201, response_model=Again,
             response_model_exclude_unset=True,
             summary="play again: the next table with the same seats (after the match)")
async def again(request: Request, response: Response, table_id: str, hub: HubDep,
                settings: SettingsDep, body: AgainIn | None = None) -> dict[str, Any]:
    """Every human seat of the next table is kept for the player who held it here (their
    device's seat secret): nobody else can take it, the host included, and no view shows
    a way in.  A seat not taken within ``again_seconds`` (60) goes to the stand-in bot,
    or gets an invite link if the host chose ``free_as: "invite"``."""
    rate(request, "create", settings.limits.create_per_minute)
    old = await find_table(hub, table_id)
    host = is_host(request, old)
    nxt = await hub.again(old, seat_of(request, old), host, address(request),
                          body.free_as if body is not None else None)
    base = base_url(request)
    if host and nxt.admin:
        set_cookie(request, response, admin_cookie(nxt.id), nxt.admin)
    out: dict[str, Any] = {"id": nxt.id, "url": f"{base}/t/{nxt.id}", "seat": nxt.seat}
    if nxt.secret is not None:
        set_cookie(request, response, cookie_name(nxt.id), nxt.secret)
        out["seat_token"] = nxt.secret
    return out


@router.post("/api/tables/{table_id}/again/decline", status_code=204,
             summary="no thanks to Play again: the seat kept for you at the next table is "
                     "freed now")
async def decline_again(request: Request, table_id: str, hub: HubDep) -> Response:
    old = await find_table(hub, table_id)
    await hub.decline_again(old, seat_of(request, old))
    return Response(status_code=204)


@router.get("/api/tables/{table_id}/view", summary="Game.view for your seat (or a spectator)")
async def view(table: TableDep, seat: SeatDep) -> dict[str, Any]:
    return await table.view(seat)


@router.post("/api/tables/{table_id}/actions", response_model=Played,
             response_model_exclude_unset=True,
             summary="play an action for your seat")
async def act(request: Request, table: TableDep, body: ActionIn) -> dict[str, Any]:
    seat = seat_of(request, table, body.token)
    if body.seat is not None and body.seat != seat:
        raise Rejected("wrong_seat", "your token is for seat {seat}, not seat {asked}", 403,
                       reason="token_other_seat", params={"seat": seat, "asked": body.seat})
    # the secret is checked again by the owner, in the table's order (here or relayed)
    return {"version": await table.submit(seat, body.action, body.version,
                                          secret=secret_of(request, table, body.token))}

