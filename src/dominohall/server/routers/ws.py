"""The game websocket, ``/ws/{table_id}``: one per seat (or spectator), see
:mod:`dominohall.server.protocol` for its messages."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ...i18n import normalize
from .. import hints, pages, protocol
from ..deps import address, find_table, get_hub, get_settings, seat_of, secret_of
from ..protocol import Rejected
from ..security import origin_ok
from ..tables import Connection, TableState

router = APIRouter()


async def refuse(ws: WebSocket, err: Rejected, code: int) -> None:
    await ws.send_text(err.ws())
    await ws.close(code)


@router.websocket("/ws/{table_id}")
async def websocket(ws: WebSocket, table_id: str, token: str | None = None) -> None:
    settings = get_settings(ws)
    if not origin_ok(ws, settings):     # cross-site websocket hijacking
        await ws.close(4403)            # before accepting: the handshake gets a 403
        return
    hub = get_hub(ws)
    limits = settings.limits
    addr = address(ws)
    await ws.accept()
    wait = hub.limiter.check("connect", addr, limits.connect_per_minute)
    if wait:
        after = max(1, round(wait + 0.5))
        await refuse(ws, Rejected("rate_limited", "Too many connections; try again in "
                                  "{seconds} s.", reason="rate_limited_connect",
                                  params={"seconds": after}, retry_after=after), 4429)
        return
    try:
        table = await find_table(hub, table_id)
    except Rejected as err:
        await refuse(ws, err, 4404)
        return
    try:
        seat = seat_of(ws, table, token)
    except Rejected as err:
        await refuse(ws, err, 4403)
        return
    if table.audience_total() >= limits.conns_per_table or \
            hub.conns_by_address[addr] >= limits.conns_per_address:
        await refuse(ws, Rejected("too_many", "Too many connections to this table or from "
                                  "your address.", reason="too_many_connections"), 4429)
        return
    conn = Connection(seat, addr, lang=pages.lang_of(ws),
                      secret=secret_of(ws, table, token) if seat is not None else None)
    hub.conns_by_address[addr] += 1
    writer: asyncio.Task[None] | None = None
    try:
        await hub.connect(table, conn)
        writer = asyncio.create_task(_write(ws, conn))
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None:
                raw = msg.get("bytes") or b""
            await _handle(hub.current(table), conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        hub.conns_by_address[addr] -= 1
        if hub.conns_by_address[addr] <= 0:
            del hub.conns_by_address[addr]
        hub.disconnect(table, conn)
        conn.send(None)
        if writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)


async def _handle(table: TableState, conn: Connection, raw: str | bytes) -> None:
    try:
        msg = protocol.parse_client_message(raw)
        if msg["type"] == "action":
            if conn.seat is None:
                raise Rejected("spectator", "spectators cannot play",
                               reason="spectators_cannot_play")
            if msg.get("seat") is not None and msg["seat"] != conn.seat:
                raise Rejected("wrong_seat", "this connection plays seat {seat}, not seat {asked}",
                               params={"seat": conn.seat, "asked": msg["seat"]})
            # the owner checks the seat secret again in the table's order: a device whose
            # seat was re-invited meanwhile cannot move (here or through another node)
            await table.submit(conn.seat, msg["action"], msg["version"], secret=conn.secret)
        elif msg["type"] == "ready":
            table.mark_ready(conn.seat)
        elif msg["type"] == "hint":
            conn.lang = normalize(msg.get("lang") if isinstance(msg.get("lang"), str)
                                  else None) or conn.lang     # switched in place since
            hints.request(table, conn)
        else:
            conn.send(protocol.dumps({"type": "pong"}))
    except Rejected as err:
        conn.send(err.ws(table.version))


async def _write(ws: WebSocket, conn: Connection) -> None:
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                await ws.close()
                return
            await ws.send_text(text)
    except Exception:          # the client went away; the reader notices too
        conn.closed = True
