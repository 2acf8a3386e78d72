"""The FastAPI app: lobby REST (see /docs for the OpenAPI page), one websocket per seat,
and the static browser client.

Seats: the creator of a table receives an invite link ``/t/{id}?invite=TOKEN`` per
open seat.  Claiming a seat (``POST /api/tables/{id}/join``) retires that invite and
gives the device a fresh seat secret, kept in the HttpOnly, SameSite=Strict cookie
``dh_seat_{id}`` so a reload resumes the seat.  Anyone else who opens ``/t/{id}`` is a
spectator.  Non-browser clients send the secret as the ``X-Seat-Token`` header
(``?token=`` is accepted too, and filtered out of the access log).  The creator's
``dh_admin_{id}`` cookie shows the invites nobody has claimed yet and can re-invite a
seat (a lost device), visibly to everyone at the table.

Every response carries a Content-Security-Policy without inline script,
``frame-ancestors 'none'``, ``nosniff`` and ``Referrer-Policy: no-referrer``; request
bodies are limited to 64 KiB; creations, joins and websocket connects are rate
limited per address (429 with Retry-After, see :class:`rooms.Limits`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import pathlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import Body, FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..i18n import normalize
from . import hints, pages, protocol
from .i18n_routes import router as i18n_router
from .protocol import MAX_MESSAGE, Rejected
from .rooms import Connection, Hub, Limits, Room, lobby_catalogue
from .store import StoreError, open_store

STATIC = pathlib.Path(__file__).parent / "static"
COOKIE_AGE = 60 * 60 * 24 * 60
log = logging.getLogger("dominohall.server")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
#: query parameters that carry secrets, hidden in every logged URL
SECRET_QUERY = re.compile(r"((?:^|[?&])(?:token|invite|admin)=)[^&\s\"]*", re.I)


class JSON(JSONResponse):
    """JSON responses as ASCII: any text a client sent (a lone surrogate) can be echoed."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode()


def _no_surrogates(value: Any) -> Any:
    """Lone surrogates (invalid UTF-16 halves in JSON) are dropped from a display name."""
    if isinstance(value, str):
        return "".join(ch for ch in value if not 0xD800 <= ord(ch) <= 0xDFFF)
    return value


#: a display name as sent: cleaned by protocol.clean_name before anyone sees it
Name = Annotated[str, BeforeValidator(_no_surrogates)]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True)     # "5" is not 5, true is not 1


class SeatSpec(Strict):
    kind: Literal["human", "bot"] = Field(description="'human': open for a friend; 'bot'")
    bot: str | None = Field(None, max_length=40,
                            description="bot level for a bot seat, e.g. 'greedy'")
    name: Name | None = Field(None, max_length=200,
                              description="display name (for the creator's own seat)")


class CreateTable(Strict):
    game: str = Field(max_length=40, description="mexican_train | all_fives | draw | block")
    preset: str | None = Field(None, max_length=40, description="an option preset, e.g. 'puremco'")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="RULES.md option name -> value")
    seats: list[SeatSpec] = Field(max_length=16)
    take_seat: int | None = Field(None, ge=0, lt=16,
                                  description="the creator sits here (a human seat)")
    name: Name | None = Field(None, max_length=200, description="the creator's display name")
    away_seconds: int = Field(30, description="an absent player's seat is played by a bot "
                                              "after this many seconds (0: never)")
    ready_seconds: int = Field(20, description="pause after a round for the summary (0: none)")
    turn_seconds: int = Field(0, description="turn timer: when a player's turn lasts this long "
                                             "the stand-in bot plays it for them (0: no timer)")
    away_bot: str = Field("greedy", max_length=40,
                          description="the bot that stands in for absent players "
                                      "and for turns that run out of time")
    seed: int | None = Field(None, ge=0, lt=2**256,
                             description="deal seed, only for a table without another human "
                                         "seat (random, 128 bits, when omitted)")
    public: bool = Field(False, description="list the table in the lobby (otherwise "
                                            "only its link leads to it)")
    hints: bool | None = Field(None, strict=True, description="allow the Hint button "
                               "(default: only when at most one human sits)")


class JoinSeat(Strict):
    token: str = Field(max_length=200, description="the invite token (or your seat secret, "
                                                   "to rename)")
    name: Name = Field(max_length=200)


class ActionIn(Strict):
    action: str = Field(max_length=200, description="action text, e.g. '12-5>t0', 'draw'")
    version: int = Field(ge=0, lt=2**31,
                         description="the version of the view the action was chosen from")
    seat: int | None = Field(None, ge=0, lt=16)
    token: str | None = Field(None, max_length=200,
                              description="seat secret (or header X-Seat-Token / cookie)")


def cookie_name(table_id: str) -> str:
    return f"dh_seat_{table_id}"


def admin_cookie(table_id: str) -> str:
    return f"dh_admin_{table_id}"


def hide_secrets(text: str) -> str:
    """A URL as it may be logged: token/invite/admin query values replaced."""
    return SECRET_QUERY.sub(r"\1[hidden]", text)


class HideSecrets(logging.Filter):
    """Keeps seat tokens and invites out of uvicorn's access and error logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(hide_secrets(a) if isinstance(a, str) else a
                                for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = hide_secrets(record.msg)
        return True


def install_log_filter() -> None:
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideSecrets) for f in logger.filters):
            logger.addFilter(HideSecrets())


class HubLoop:
    """ASGI middleware: every request runs on the event loop the hub started on.

    The hub's rooms hold that loop's locks, queues, timers and bot tasks.  A server
    (uvicorn) has one loop, but an app can be driven from several: Starlette's
    TestClient, used without ``with``, runs each request on a new loop that is gone
    when the request ends, and a second client runs its own.  A timer or bot task a
    room scheduled there would never fire (the table stalls), and a lock or queue
    would be touched from two threads.  So a request that arrives on another loop is
    run on the hub's, its receive and send handed back to the loop it came from."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        hub = getattr(scope["app"].state, "hub", None) if "app" in scope else None
        home = getattr(hub, "loop", None)
        here = asyncio.get_running_loop()
        if scope["type"] == "lifespan" or home is None or home is here or \
                not home.is_running():
            await self.app(scope, receive, send)
            return

        async def receive_here() -> Any:
            return await _on_loop(here, receive)

        async def send_here(msg: Any) -> None:
            await _on_loop(here, send, msg)

        done = asyncio.run_coroutine_threadsafe(self.app(scope, receive_here, send_here), home)
        try:
            await asyncio.wrap_future(done)
        except asyncio.CancelledError:
            done.cancel()
            raise


async def _on_loop(loop: asyncio.AbstractEventLoop, fn: Callable[..., Awaitable[Any]],
                   *args: Any) -> Any:
    """Await `fn(*args)` run on another thread's `loop` (the coroutine is made there,
    so a loop that stops first leaves no coroutine never awaited)."""
    mine = asyncio.get_running_loop()
    result: asyncio.Future[Any] = mine.create_future()

    def copy(task: asyncio.Task[Any]) -> None:
        if result.done():
            return
        if task.cancelled():
            result.cancel()
        elif task.exception() is not None:
            result.set_exception(task.exception())  # type: ignore[arg-type]
        else:
            result.set_result(task.result())

    def start() -> None:
        task = loop.create_task(fn(*args))
        task.add_done_callback(lambda t: mine.call_soon_threadsafe(copy, t))

    loop.call_soon_threadsafe(start)
    return await result


class Guard:
    """ASGI middleware: a body limit (413) and the security headers on every response."""

    def __init__(self, app: Any, hsts: bool = False) -> None:
        self.app = app
        self.hsts = hsts

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_big = length is not None and (not length.isdigit() or int(length) > MAX_MESSAGE)
        body = b""
        if not too_big:
            more = True
            while more:
                msg = await receive()
                if msg["type"] != "http.request":
                    return              # the client went away
                body += msg.get("body", b"")
                more = msg.get("more_body", False)
                if len(body) > MAX_MESSAGE:
                    too_big = True
                    break

        async def secure_send(msg: Any) -> None:
            if msg["type"] == "http.response.start":
                have = {k.lower() for k, _ in msg.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in have]
                if b"content-security-policy" not in have:
                    extra.append((b"content-security-policy", CSP.encode()))
                if self.hsts:
                    extra.append((b"strict-transport-security", b"max-age=31536000"))
                msg = {**msg, "headers": [*msg.get("headers", []), *extra]}
            await send(msg)

        if too_big:
            await JSON(Rejected("too_large", "A request is at most {n} bytes.",
                                params={"n": MAX_MESSAGE}).body(),
                       status_code=413)(scope, receive, secure_send)
            return
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, secure_send)


def docs_csp(html: str) -> str:
    """The CSP of the Swagger page: its CDN and its one inline script, by hash."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in re.findall(r"<script>(.*?)</script>", html, re.S))
    return (f"default-src 'self'; script-src 'self' https://cdn.jsdelivr.net {hashes}; "
            "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: "
            "https://fastapi.tiangolo.com; connect-src 'self'; frame-ancestors 'none'")


def create_app(db: str | None = None, *, bot_delay: float = 0.6, bot_workers: int = 2,
               bot_processes: bool = True, limits: Limits | None = None,
               public_url: str | None = None, allow_origins: tuple[str, ...] = (),
               behind_https: bool = False) -> FastAPI:
    """The web app on store `db` (a file, a postgresql:// URL, or None: the default file).

    `public_url`: the address players use (invite links are built from it, not from
    the request's Host header; its origin may open websockets).  `allow_origins`: more
    origins whose pages may open websockets.  `behind_https`: cookies get ``Secure``
    (also when a trusted proxy says ``X-Forwarded-Proto: https``).
    """
    limits = limits or Limits()
    public = (public_url or "").rstrip("/") or None
    own_origins = {_origin(public)} if public else set()
    extra_origins = {_origin(o) for o in allow_origins}
    install_log_filter()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.get_running_loop().run_in_executor(None, open_store, db)
        hub = Hub(store, bot_delay=bot_delay, bot_workers=bot_workers,
                  bot_processes=bot_processes, limits=limits)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="dominohall", summary="Mexican Train and All Fives online",
                  lifespan=lifespan, docs_url=None, redoc_url=None,
                  default_response_class=JSON)
    app.add_middleware(Guard, hsts=behind_https)
    app.add_middleware(HubLoop)         # outermost of ours: all of the app on one loop
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(pages.router)
    app.include_router(i18n_router)

    def hub_of(request: Request | WebSocket) -> Hub:
        return request.app.state.hub  # type: ignore[no-any-return]

    async def room_of(request: Request | WebSocket, table_id: str) -> Room:
        room = await hub_of(request).room(table_id)
        if room is None:
            raise Rejected("not_found", "no table {table}", 404, params={"table": repr(table_id)})
        return room

    def address(request: Request | WebSocket) -> str:
        return request.client.host if request.client else ""

    def rate(request: Request | WebSocket, what: str, per_minute: int) -> None:
        wait = hub_of(request).limiter.check(what, address(request), per_minute)
        if wait:
            after = max(1, round(wait + 0.5))
            raise Rejected("rate_limited", "Too many requests; try again in {seconds} s.", 429,
                           params={"seconds": after}, retry_after=after)

    def base_url(request: Request) -> str:
        return public or str(request.base_url).rstrip("/")

    def secure(request: Request) -> bool:
        return behind_https or request.url.scheme == "https"

    def set_cookie(request: Request, response: Response, name: str, value: str) -> None:
        response.set_cookie(name, value, max_age=COOKIE_AGE, httponly=True, samesite="strict",
                            secure=secure(request), path="/")

    def is_admin(request: Request, room: Room) -> bool:
        given = request.cookies.get(admin_cookie(room.id)) or request.headers.get("x-admin-token")
        return protocol.same_secret(room.settings.get("admin"), given)

    def seat_from(request: Request, room: Room, token: str | None = None) -> int | None:
        """The caller's seat: an explicit token must be valid; a stale cookie is a spectator."""
        explicit = token or request.headers.get("x-seat-token")
        if explicit:
            seat = room.seat_of(explicit)
            if seat is None:
                raise Rejected("bad_token", "this seat token is not valid for this table", 403,
                               reason="token_not_valid")
            return seat
        return room.seat_of(request.cookies.get(cookie_name(room.id)))

    @app.exception_handler(Rejected)
    async def rejected(_request: Request, err: Rejected) -> JSONResponse:
        headers = {}
        if "retry_after" in err.extra:
            headers["Retry-After"] = str(err.extra["retry_after"])
        return JSON(err.body(), status_code=err.status, headers=headers)

    @app.exception_handler(StoreError)
    async def storage(_request: Request, err: StoreError) -> JSONResponse:
        return JSON(Rejected("storage", "The table could not be saved; try again.",
                             reason="table_not_saved").body(), status_code=503)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, err: StarletteHTTPException) -> JSONResponse:
        """An unknown path or method: a code too, and FastAPI's ``detail`` kept."""
        body = Rejected("http", str(err.detail), err.status_code, reason="http_error",
                        params={"status": err.status_code}, filled=True).body()
        return JSON({**body, "detail": err.detail}, status_code=err.status_code,
                    headers=getattr(err, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, err: RequestValidationError) -> JSONResponse:
        detail = [{"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", "")),
                   "type": str(e.get("type", "")), **validation_reason(e)}
                  for e in err.errors()]
        message = "; ".join(f"{'.'.join(d['loc'][1:]) or 'body'}: {d['msg']}" for d in detail)
        first = detail[0] if detail else {"code": "invalid_request", "params": {}}
        return JSON({"error": "bad_request", "code": first["code"], "params": first["params"],
                     "message": message or "invalid request", "detail": detail},
                    status_code=422)

    swagger = bytes(get_swagger_ui_html(openapi_url="/openapi.json",
                                        title="dominohall API").body).decode()
    swagger_csp = docs_csp(swagger)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(swagger,
                            headers={"Content-Security-Policy": swagger_csp})

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> HTMLResponse:
        return pages.static_page_in("index.html", request)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        return pages.static_page_in("table.html", request)

    @app.get("/api/games", summary="games, player counts, options, presets and bot levels")
    async def games() -> list[dict[str, Any]]:
        return lobby_catalogue()

    @app.get("/api/tables", summary="public tables on this server (newest first)")
    async def tables(request: Request) -> list[dict[str, Any]]:
        rooms = sorted((r for r in hub_of(request).rooms.values() if r.settings.get("public")),
                       key=lambda r: r.created, reverse=True)
        return [{**public_info(r), "version": r.version} for r in rooms[:50]]

    def public_info(room: Room) -> dict[str, Any]:
        info = room.table_info()
        info["round"] = room.game.round
        info["players"] = room.game.players
        return info

    @app.post("/api/tables", status_code=201,
              summary="create a table; returns the invite links of its open seats",
              responses={422: {"description": "a bad option, seat or seed"},
                         429: {"description": "rate limited (Retry-After)"}})
    async def create(request: Request, response: Response, spec: CreateTable) -> dict[str, Any]:
        rate(request, "create", limits.create_per_minute)
        data = spec.model_dump()
        if spec.take_seat is not None:
            if not spec.take_seat < len(spec.seats) or \
                    spec.seats[spec.take_seat].kind != "human":
                raise Rejected("bad_option", "take_seat must be one of the human seats", 422,
                               reason="take_seat")
            if not protocol.clean_name(spec.name):
                raise Rejected("bad_name", "name: your display name, to take a seat", 422,
                               reason="name_to_take_seat")
            data["seats"][spec.take_seat]["name"] = spec.name
        room = await hub_of(request).create_table(data, address(request))
        base = base_url(request)
        set_cookie(request, response, admin_cookie(room.id), room.settings["admin"])
        out: dict[str, Any] = {"id": room.id, "url": f"{base}/t/{room.id}",
                               "spectator_url": f"{base}/t/{room.id}", "seat": spec.take_seat,
                               "admin": room.settings["admin"], "seats": invites(room, base),
                               "fairness": room.fairness()}
        if spec.take_seat is not None:
            secret = room.seats[spec.take_seat]["secret"]
            set_cookie(request, response, cookie_name(room.id), secret)
            out["seat_token"] = secret
        return out

    def invites(room: Room, base: str) -> list[dict[str, Any]]:
        """Every seat; a token and invite link only for seats nobody has claimed."""
        open_ = set(room.open_invites())
        return [{"seat": i, "kind": s["kind"], "name": s.get("name"),
                 "claimed": s["kind"] == "human" and i not in open_,
                 **({"token": s["token"], "invite_url": f"{base}/t/{room.id}?invite={s['token']}"}
                    if i in open_ else {})}
                for i, s in enumerate(room.seats)]

    @app.get("/api/tables/{table_id}", summary="a table's seats, status and deal commitment "
                                                "(and, for its creator, the open invites)")
    async def table(request: Request, table_id: str) -> dict[str, Any]:
        room = await room_of(request, table_id)
        out = public_info(room)
        admin = is_admin(request, room)
        out["you"] = {"seat": seat_from(request, room), "host": admin}
        if admin:
            out["invites"] = invites(room, base_url(request))
        return out

    @app.get("/api/tables/{table_id}/record",
             summary="the full game record with the revealed seed (after the match)",
             responses={409: {"description": "the match is not over yet"}})
    async def record(request: Request, table_id: str) -> JSONResponse:
        room = await room_of(request, table_id)
        return JSON(room.record(), headers={
            "Content-Disposition": f'attachment; filename="dominohall-{room.id}.json"'})

    @app.post("/api/tables/{table_id}/join",
              summary="claim the seat an invite opens (retires the invite) or rename yours")
    async def join(request: Request, response: Response, table_id: str,
                   body: JoinSeat) -> dict[str, Any]:
        rate(request, "join", limits.join_per_minute)
        room = await room_of(request, table_id)
        seat, secret = await room.join(body.token, body.name)
        set_cookie(request, response, cookie_name(table_id), secret)
        return {"seat": seat, "token": secret}

    @app.post("/api/tables/{table_id}/seats/{seat}/invite",
              summary="the host re-invites a seat (a lost device); everyone is told")
    async def reinvite(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        room = await room_of(request, table_id)
        if not is_admin(request, room):
            raise Rejected("not_host", "Only the table's creator can re-invite a seat.", 403)
        token = await room.reinvite(seat)
        return {"seat": seat, "token": token,
                "invite_url": f"{base_url(request)}/t/{room.id}?invite={token}"}

    @app.post("/api/tables/{table_id}/again", status_code=201,
              summary="play again: the next table with the same seats (after the match)")
    async def again(request: Request, response: Response, table_id: str) -> dict[str, Any]:
        rate(request, "create", limits.create_per_minute)
        room = await room_of(request, table_id)
        host = is_admin(request, room)
        nxt, seat, secret = await hub_of(request).again(room, seat_from(request, room), host,
                                                        address(request))
        base = base_url(request)
        if host:
            set_cookie(request, response, admin_cookie(nxt.id), nxt.settings["admin"])
        out: dict[str, Any] = {"id": nxt.id, "url": f"{base}/t/{nxt.id}", "seat": seat}
        if secret is not None:
            set_cookie(request, response, cookie_name(nxt.id), secret)
            out["seat_token"] = secret
        return out

    @app.get("/api/tables/{table_id}/view", summary="Game.view for your seat (or a spectator)")
    async def view(request: Request, table_id: str,
                   token: str | None = None) -> dict[str, Any]:
        room = await room_of(request, table_id)
        return await room.view(seat_from(request, room, token))

    @app.post("/api/tables/{table_id}/actions", summary="play an action for your seat")
    async def act(request: Request, table_id: str,
                  body: ActionIn = Body(...)) -> dict[str, Any]:  # noqa: B008
        room = await room_of(request, table_id)
        seat = seat_from(request, room, body.token)
        if body.seat is not None and body.seat != seat:
            raise Rejected("wrong_seat", "your token is for seat {seat}, not seat {asked}", 403,
                           reason="token_other_seat", params={"seat": seat, "asked": body.seat})
        version = await room.submit(seat, body.action, body.version)
        return {"version": version}

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:              # not a browser: browsers always send an Origin
            return True
        origin = origin.lower().rstrip("/")
        if origin in own_origins or origin in extra_origins:
            return True
        host = (ws.headers.get("host") or "").lower()
        return not public and origin in (f"http://{host}", f"https://{host}")

    @app.websocket("/ws/{table_id}")
    async def websocket(ws: WebSocket, table_id: str, token: str | None = None) -> None:
        if not origin_ok(ws):           # cross-site websocket hijacking
            await ws.close(4403)        # before accepting: the handshake gets a 403
            return
        hub = hub_of(ws)
        addr = address(ws)
        await ws.accept()
        wait = hub.limiter.check("connect", addr, limits.connect_per_minute)
        if wait:
            after = max(1, round(wait + 0.5))
            await ws.send_text(Rejected("rate_limited", "Too many connections; try again in "
                                        "{seconds} s.", reason="rate_limited_connect",
                                        params={"seconds": after}, retry_after=after).ws())
            await ws.close(4429)
            return
        room = hub.rooms.get(table_id) or await hub.room(table_id)
        if room is None:
            await ws.send_text(Rejected("not_found", "no table {table}",
                                        params={"table": repr(table_id)}).ws())
            await ws.close(4404)
            return
        explicit = token or ws.headers.get("x-seat-token")
        if explicit:
            seat = room.seat_of(explicit)
            if seat is None:
                await ws.send_text(Rejected("bad_token", "this seat token is not valid for "
                                            "this table", reason="token_not_valid").ws())
                await ws.close(4403)
                return
        else:
            seat = room.seat_of(ws.cookies.get(cookie_name(table_id)))
        if len(room.conns) >= limits.conns_per_table or \
                hub.conns_by_address[addr] >= limits.conns_per_address:
            await ws.send_text(Rejected("too_many", "Too many connections to this table or "
                                        "from your address.", reason="too_many_connections").ws())
            await ws.close(4429)
            return
        conn = Connection(seat, addr, lang=pages.lang_of(ws))
        hub.conns_by_address[addr] += 1
        writer: asyncio.Task[None] | None = None
        try:
            await room.connect(conn)
            writer = asyncio.create_task(_write(ws, conn))
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
            hub.conns_by_address[addr] -= 1
            if hub.conns_by_address[addr] <= 0:
                del hub.conns_by_address[addr]
            room.disconnect(conn)
            conn.send(None)
            if writer is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, 2)

    return app


#: pydantic's error types -> our reason codes (dominohall.i18n.errors.ERRORS)
VALIDATION_REASONS = {
    "missing": "field_missing", "string_too_long": "field_too_long",
    "too_long": "field_too_many", "string_type": "field_text", "int_type": "field_integer",
    "int_parsing": "field_integer", "int_from_float": "field_integer",
    "bool_type": "field_bool", "bool_parsing": "field_bool",
    "greater_than_equal": "field_at_least", "greater_than": "field_more_than",
    "less_than": "field_less_than", "less_than_equal": "field_at_most",
    "literal_error": "field_one_of", "json_invalid": "body_not_json",
}


def validation_reason(e: Any) -> dict[str, Any]:
    """The reason code and params of one request validation error (one of pydantic's)."""
    loc = [str(x) for x in e.get("loc", ())]
    field = ".".join(loc[1:]) or "body"
    ctx = e.get("ctx") or {}
    code = VALIDATION_REASONS.get(str(e.get("type", "")), "field_invalid")
    if code == "field_too_many" and isinstance(e.get("input"), str):
        code = "field_too_long"             # a text's length, not a list's
    params: dict[str, Any] = {"field": field}
    for key in ("max_length", "ge", "gt", "lt", "le", "expected"):
        if key in ctx:
            params[key] = str(ctx[key])
    return {"code": code, "params": params}


def _origin(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}".lower()


async def _handle(room: Room, conn: Connection, raw: str | bytes) -> None:
    try:
        msg = protocol.parse_client_message(raw)
        if msg["type"] == "action":
            if conn.seat is None:
                raise Rejected("spectator", "spectators cannot play",
                               reason="spectators_cannot_play")
            if msg.get("seat") is not None and msg["seat"] != conn.seat:
                raise Rejected("wrong_seat", "this connection plays seat {seat}, not seat {asked}",
                               params={"seat": conn.seat, "asked": msg["seat"]})
            await room.submit(conn.seat, msg["action"], msg["version"])
        elif msg["type"] == "ready":
            room.mark_ready(conn.seat)
        elif msg["type"] == "hint":
            conn.lang = normalize(msg.get("lang") if isinstance(msg.get("lang"), str)
                                  else None) or conn.lang     # switched in place since
            hints.request(room, conn)
        else:
            conn.send(protocol.dumps({"type": "pong"}))
    except Rejected as err:
        conn.send(err.ws(room.version))


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
