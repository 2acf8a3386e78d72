"""The FastAPI app: lobby REST (see /docs for the OpenAPI page), one websocket per seat,
and the static browser client.

Seats are opened by secret tokens: the creator of a table receives one per open
seat (as an invite link ``/t/{id}?invite=TOKEN``) and taking a seat stores the
token in a cookie ``dh_seat_{id}``, so a reload resumes the seat.  Anyone else
who opens ``/t/{id}`` is a spectator.  Non-browser clients pass the token as
``?token=`` (websocket) or ``X-Seat-Token`` (REST).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pathlib
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import Body, FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StrictBool

from . import pages, protocol
from .protocol import Rejected
from .rooms import Connection, Hub, Room, lobby_catalogue
from .store import open_store

STATIC = pathlib.Path(__file__).parent / "static"
COOKIE_AGE = 60 * 60 * 24 * 60
log = logging.getLogger("dominohall.server")


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"] = Field(description="'human': open for a friend; 'bot'")
    bot: str | None = Field(None, description="bot level for a bot seat, e.g. 'greedy'")
    name: str | None = Field(None, description="display name (for the creator's own seat)")


class CreateTable(BaseModel):
    game: str = Field(description="mexican_train | all_fives | draw | block")
    preset: str | None = Field(None, description="an option preset, e.g. 'puremco'")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="RULES.md option name -> value")
    seats: list[SeatSpec]
    take_seat: int | None = Field(None, description="the creator sits here (a human seat)")
    name: str | None = Field(None, description="the creator's display name")
    away_seconds: int = Field(30, description="an absent player's seat is played by a bot "
                                              "after this many seconds (0: never)")
    ready_seconds: int = Field(20, description="pause after a round for the summary (0: none)")
    turn_seconds: int = Field(0, description="turn timer: when a player's turn lasts this long "
                                             "the stand-in bot plays it for them (0: no timer)")
    away_bot: str = Field("greedy", description="the bot that stands in for absent players "
                                               "and for turns that run out of time")
    seed: int | None = Field(None, description="deal seed (random when omitted)")
    public: StrictBool = Field(False, description="list the table in the lobby (otherwise "
                                                  "only its link leads to it)")


class JoinSeat(BaseModel):
    token: str
    name: str


class ActionIn(BaseModel):
    action: str = Field(description="action text, e.g. '12-5>t0', 'draw'")
    version: int = Field(description="the version of the view the action was chosen from")
    seat: int | None = None
    token: str | None = Field(None, description="seat token (or header X-Seat-Token/cookie)")


def cookie_name(table_id: str) -> str:
    return f"dh_seat_{table_id}"


def admin_cookie(table_id: str) -> str:
    return f"dh_admin_{table_id}"


def create_app(db: str | None = None, *, bot_delay: float = 0.6, bot_workers: int = 2,
               bot_processes: bool = True) -> FastAPI:
    """The web app on store `db` (a file, a postgresql:// URL, or None: the default file)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.get_running_loop().run_in_executor(None, open_store, db)
        hub = Hub(store, bot_delay=bot_delay, bot_workers=bot_workers,
                  bot_processes=bot_processes)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="dominohall", summary="Mexican Train and All Fives online",
                  lifespan=lifespan)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(pages.router)

    def hub_of(request: Request | WebSocket) -> Hub:
        return request.app.state.hub  # type: ignore[no-any-return]

    def room_of(request: Request | WebSocket, table_id: str) -> Room:
        room = hub_of(request).rooms.get(table_id)
        if room is None:
            raise Rejected("not_found", f"no table {table_id!r}", 404)
        return room

    def seat_from(request: Request, room: Room, token: str | None = None) -> int | None:
        """The caller's seat: an explicit token must be valid; a stale cookie is a spectator."""
        explicit = token or request.headers.get("x-seat-token")
        if explicit:
            seat = room.seat_of(explicit)
            if seat is None:
                raise Rejected("bad_token", "this seat token is not valid for this table", 403)
            return seat
        return room.seat_of(request.cookies.get(cookie_name(room.id)))

    @app.exception_handler(Rejected)
    async def rejected(_request: Request, err: Rejected) -> JSONResponse:
        return JSONResponse({"error": err.code, "message": err.message}, status_code=err.status)

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/api/games", summary="games, player counts, options, presets and bot levels")
    async def games() -> list[dict[str, Any]]:
        return lobby_catalogue()

    @app.get("/api/tables", summary="public tables on this server (newest first)")
    async def tables(request: Request) -> list[dict[str, Any]]:
        rooms = sorted((r for r in hub_of(request).rooms.values() if r.settings.get("public")),
                       key=lambda r: r.created, reverse=True)
        return [{**public(r), "version": r.version} for r in rooms[:50]]

    def public(room: Room) -> dict[str, Any]:
        info = room.table_info()
        info["round"] = room.game.round
        info["players"] = room.game.players
        return info

    @app.post("/api/tables", status_code=201, summary="create a table; returns its invite links")
    async def create(request: Request, response: Response, spec: CreateTable) -> dict[str, Any]:
        data = spec.model_dump()
        if spec.take_seat is not None:
            if not 0 <= spec.take_seat < len(spec.seats) or \
                    spec.seats[spec.take_seat].kind != "human":
                raise Rejected("bad_option", "take_seat must be one of the human seats", 422)
            if not (spec.name or "").strip():
                raise Rejected("bad_option", "name: your display name, to take a seat", 422)
            data["seats"][spec.take_seat]["name"] = spec.name
        room = await hub_of(request).create_table(data)
        base = str(request.base_url).rstrip("/")
        response.set_cookie(admin_cookie(room.id), room.settings["admin"], max_age=COOKIE_AGE,
                            httponly=True, samesite="lax")
        if spec.take_seat is not None:
            response.set_cookie(cookie_name(room.id), room.seats[spec.take_seat]["token"],
                                max_age=COOKIE_AGE, httponly=True, samesite="lax")
        return {"id": room.id, "url": f"{base}/t/{room.id}", "spectator_url": f"{base}/t/{room.id}",
                "seat": spec.take_seat, "admin": room.settings["admin"],
                "seats": invites(room, base)}

    def invites(room: Room, base: str) -> list[dict[str, Any]]:
        return [{"seat": i, "kind": s["kind"], "name": s.get("name"),
                 **({"token": s["token"], "invite_url": f"{base}/t/{room.id}?invite={s['token']}"}
                    if s["kind"] == "human" else {})}
                for i, s in enumerate(room.seats)]

    @app.get("/api/tables/{table_id}", summary="a table's seats and status (and, for its "
                                                "creator, the invite links)")
    async def table(request: Request, table_id: str) -> dict[str, Any]:
        room = room_of(request, table_id)
        out = public(room)
        out["you"] = {"seat": seat_from(request, room)}
        admin = request.cookies.get(admin_cookie(table_id)) or request.headers.get("x-admin-token")
        if admin and admin == room.settings["admin"]:
            out["invites"] = invites(room, str(request.base_url).rstrip("/"))
        return out

    @app.post("/api/tables/{table_id}/join", summary="take the seat an invite token opens")
    async def join(request: Request, response: Response, table_id: str,
                   body: JoinSeat) -> dict[str, Any]:
        room = room_of(request, table_id)
        seat = await room.join(body.token, body.name)
        response.set_cookie(cookie_name(table_id), body.token, max_age=COOKIE_AGE,
                            httponly=True, samesite="lax")
        return {"seat": seat}

    @app.get("/api/tables/{table_id}/view", summary="Game.view for your seat (or a spectator)")
    async def view(request: Request, table_id: str, token: str | None = None) -> dict[str, Any]:
        room = room_of(request, table_id)
        return room.game.view(seat_from(request, room, token))

    @app.post("/api/tables/{table_id}/actions", summary="play an action for your seat")
    async def act(request: Request, table_id: str,
                  body: ActionIn = Body(...)) -> dict[str, Any]:  # noqa: B008
        room = room_of(request, table_id)
        seat = seat_from(request, room, body.token)
        if body.seat is not None and body.seat != seat:
            raise Rejected("wrong_seat", f"your token is for seat {seat}, not seat {body.seat}",
                           403)
        version = await room.submit(seat, body.action, body.version)
        return {"version": version}

    @app.websocket("/ws/{table_id}")
    async def websocket(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        await ws.accept()
        room = hub_of(ws).rooms.get(table_id)
        if room is None:
            await ws.send_text(protocol.error("not_found", f"no table {table_id!r}"))
            await ws.close(4404)
            return
        if token is not None:
            seat = room.seat_of(token)
            if seat is None:
                await ws.send_text(protocol.error(
                    "bad_token", "this seat token is not valid for this table"))
                await ws.close(4403)
                return
        else:
            seat = room.seat_of(ws.cookies.get(cookie_name(table_id)))
        conn = Connection(seat)
        room.connect(conn)
        writer = asyncio.create_task(_write(ws, conn))
        try:
            while not conn.closed:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text")
                if raw is None:
                    raw = msg.get("bytes") or b""
                await _handle(room, conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            room.disconnect(conn)
            conn.send(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)

    return app


async def _handle(room: Room, conn: Connection, raw: str | bytes) -> None:
    try:
        msg = protocol.parse_client_message(raw)
        if msg["type"] == "action":
            if conn.seat is None:
                raise Rejected("spectator", "spectators cannot play")
            if msg.get("seat") is not None and msg["seat"] != conn.seat:
                raise Rejected("wrong_seat",
                               f"this connection plays seat {conn.seat}, not seat {msg['seat']}")
            await room.submit(conn.seat, msg["action"], msg["version"])
        elif msg["type"] == "ready":
            room.mark_ready(conn.seat)
        else:
            conn.send(protocol.dumps({"type": "pong"}))
    except Rejected as err:
        conn.send(protocol.error(err.code, err.message, room.version))


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
