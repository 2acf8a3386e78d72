"""The routes' dependencies: the node's hub and settings, the table (a 404 in one place),
who the caller is (one seat authentication path for HTTP and websockets), rate limits
and cookies.

Seats: the creator of a table receives an invite link ``/t/{id}?invite=TOKEN`` per
open seat.  Claiming a seat (``POST /api/tables/{id}/join``) retires that invite and
gives the device a fresh seat secret, kept in the HttpOnly, SameSite=Strict cookie
``dh_seat_{id}`` so a reload resumes the seat.  Anyone else who opens ``/t/{id}`` is a
spectator.  Non-browser clients send the secret as the ``X-Seat-Token`` header
(``?token=`` is accepted too, and filtered out of the access log).  The creator's
``dh_admin_{id}`` cookie (or ``X-Admin-Token``) makes them the table's host.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection

from .protocol import Rejected
from .settings import ServerSettings
from .tables import Hub, TableState
from .tables.limits import address_key

COOKIE_AGE = 60 * 60 * 24 * 60


def cookie_name(table_id: str) -> str:
    return f"dh_seat_{table_id}"


def admin_cookie(table_id: str) -> str:
    return f"dh_admin_{table_id}"


def get_hub(conn: HTTPConnection) -> Hub:
    return conn.app.state.hub  # type: ignore[no-any-return]


def get_settings(conn: HTTPConnection) -> ServerSettings:
    return conn.app.state.settings  # type: ignore[no-any-return]


HubDep = Annotated[Hub, Depends(get_hub)]
SettingsDep = Annotated[ServerSettings, Depends(get_settings)]


async def find_table(hub: Hub, table_id: str) -> TableState:
    """The table `table_id` (live, finished or expired); Rejected 404 if there is none."""
    table = await hub.table(table_id)
    if table is None:
        raise Rejected("not_found", "no table {table}", 404, params={"table": repr(table_id)})
    return table


async def get_table(hub: HubDep, table_id: str) -> TableState:
    return await find_table(hub, table_id)


TableDep = Annotated[TableState, Depends(get_table)]


def seat_of(conn: HTTPConnection, table: TableState, token: str | None = None) -> int | None:
    """The caller's seat, for a request or a websocket handshake alike.

    An explicit secret (`token`: a ``?token=`` or a body's, else ``X-Seat-Token``) must
    open a seat of this table, or the call is refused (``bad_token``, 403); the seat
    cookie opens one if it can, and a stale cookie leaves the caller a spectator."""
    explicit = token or conn.headers.get("x-seat-token")
    if explicit:
        seat = table.seat_of(explicit)
        if seat is None:
            raise Rejected("bad_token", "this seat token is not valid for this table", 403,
                           reason="token_not_valid")
        return seat
    return table.seat_of(conn.cookies.get(cookie_name(table.id)))


def secret_of(conn: HTTPConnection, table: TableState, token: str | None = None) -> str | None:
    """The seat secret a call came with (the one :func:`seat_of` read its seat from): the
    owner checks it again in the table's order before a move is applied."""
    return token or conn.headers.get("x-seat-token") or conn.cookies.get(cookie_name(table.id))


def get_seat(request: Request, table: TableDep, token: str | None = None) -> int | None:
    return seat_of(request, table, token)


SeatDep = Annotated[int | None, Depends(get_seat)]


def is_host(conn: HTTPConnection, table: TableState) -> bool:
    """The caller holds the table's admin token (cookie or ``X-Admin-Token``)."""
    return table.is_host(conn.cookies.get(admin_cookie(table.id))
                         or conn.headers.get("x-admin-token"))


def address(conn: HTTPConnection) -> str:
    """The client's address as limits count it (the proxy's X-Forwarded-For once
    uvicorn trusts it; an IPv6 address's /64 network, see :func:`~.tables.limits.address_key`)."""
    return address_key(conn.client.host) if conn.client else ""


def rate(conn: HTTPConnection, what: str, per_minute: int) -> None:
    """Count one `what` for the caller's address; Rejected 429 (Retry-After) over the rate."""
    wait = get_hub(conn).limiter.check(what, address(conn), per_minute)
    if wait:
        after = max(1, round(wait + 0.5))
        raise Rejected("rate_limited", "Too many requests; try again in {seconds} s.", 429,
                       params={"seconds": after}, retry_after=after)


def base_url(request: Request) -> str:
    """Where links point: ``--public-url``, never a request's Host header when it is set."""
    return get_settings(request).public or str(request.base_url).rstrip("/")


def set_cookie(request: Request, response: Response, name: str, value: str) -> None:
    secure = get_settings(request).behind_https or request.url.scheme == "https"
    response.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="strict",
                        secure=secure, path="/")
