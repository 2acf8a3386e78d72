"""What every response carries and what never reaches a log: the security headers (a
Content-Security-Policy without inline script, ``frame-ancestors 'none'``, ``nosniff``,
``Referrer-Policy: no-referrer``), the request body limit, the websocket Origin check,
and the filter that keeps seat tokens and invites out of uvicorn's logs."""

from __future__ import annotations

import base64
import hashlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote_plus

from starlette.requests import HTTPConnection

from .errors import JSON
from .protocol import MAX_MESSAGE, Rejected
from .settings import ServerSettings

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
SECRET_KEYS = frozenset({"token", "invite", "admin"})
#: one query parameter: its key (maybe percent-encoded) and its value
QUERY_PARAM = re.compile(r"((?:^|[?&;])([^=&;?\s\"]*)=)([^&;\s\"]*)")


def _hide(m: re.Match[str]) -> str:
    key = m.group(2)
    for _ in range(3):                  # %2569nvite: decoded twice by a lenient parser
        key = unquote_plus(key)
    return m.group(1) + "[hidden]" if key.strip().lower() in SECRET_KEYS else m.group(0)


def hide_secrets(text: str) -> str:
    """A URL as it may be logged: token/invite/admin query values replaced, however the
    key is spelled (``?%69nvite=``, ``?INVITE=``)."""
    return QUERY_PARAM.sub(_hide, text)


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
        refusal = forged(scope, headers)
        if refusal is not None:
            await JSON(refusal.body(), status_code=refusal.status)(scope, receive, send)
            return
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


UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def forged(scope: dict[str, Any], headers: dict[bytes, bytes]) -> Rejected | None:
    """Why a state-changing API request may have been sent by another site's page with
    our cookies (CSRF), or None.

    Every POST/PUT/PATCH/DELETE under ``/api/``: a browser's ``Origin`` must be one of
    ours (else its ``Sec-Fetch-Site`` must say same-origin); and a request that carries
    cookies must be JSON (``Content-Type: application/json``), which a form cannot send
    and another origin's script cannot send without a CORS preflight we never answer.
    Body-less actions (re-invite, Play again) send ``{}``.  A client without cookies, or
    one that sends ``X-Seat-Token`` / ``X-Admin-Token`` (a header no form can add and no
    other origin can add without a preflight), has nothing forged."""
    if scope.get("method") not in UNSAFE_METHODS or not scope.get("path", "").startswith(
            "/api/"):
        return None
    app = scope.get("app")
    settings = getattr(getattr(app, "state", None), "settings", None)
    if b"origin" in headers:
        ok = settings is not None and origin_ok(HTTPConnection(scope), settings)
    else:
        site = headers.get(b"sec-fetch-site", b"same-origin").decode("latin-1").lower()
        ok = site in ("same-origin", "none")
    if not ok:
        return Rejected("cross_site", "This request did not come from a page of this site.",
                        403, reason="cross_site")
    kind = headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower()
    token_header = b"x-seat-token" in headers or b"x-admin-token" in headers
    if b"cookie" in headers and kind != b"application/json" and not token_header:
        return Rejected("json_needed", "Send this request as JSON "
                                       "(Content-Type: application/json).", 415,
                        reason="json_body_needed")
    return None


def docs_csp(html: str) -> str:
    """The CSP of the Swagger page: its files from this origin only (no CDN) and its one
    inline script, by hash."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in re.findall(r"<script>(.*?)</script>", html, re.S))
    return (f"default-src 'self'; script-src 'self' {hashes}; "
            "style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


def origin_ok(conn: HTTPConnection, settings: ServerSettings) -> bool:
    """A websocket handshake from a page of ours (cross-site websocket hijacking)."""
    origin = conn.headers.get("origin")
    if origin is None:              # not a browser: browsers always send an Origin
        return True
    origin = origin.lower().rstrip("/")
    if origin in settings.own_origins or origin in settings.extra_origins:
        return True
    host = (conn.headers.get("host") or "").lower()
    return not settings.public and origin in (f"http://{host}", f"https://{host}")
