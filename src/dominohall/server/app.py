"""The FastAPI app: lobby REST (see /docs for the OpenAPI page), one websocket per seat,
and the static browser client.

:func:`create_app` builds it from a :class:`~.settings.ServerSettings`: the node's
:class:`~.tables.Hub` starts with the app (``app.state.hub``), the routers are one per
resource (:mod:`.routers`), every error is JSON with a code (:mod:`.errors`), and every
response carries the security headers (:mod:`.security`).  Seats and their secrets:
:mod:`.deps`.  Request bodies are limited to 64 KiB; creations, joins and websocket
connects are rate limited per address (429 with Retry-After, see
:class:`~.tables.Limits`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pathlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ..community import chat, friends, quickplay, seats, web
from ..community import routes as community
from . import errors, pages
from .deps import admin_cookie, cookie_name
from .errors import JSON
from .i18n_routes import router as i18n_router
from .routers import analysis as analysis_router
from .routers import site, tables, ws
from .security import Guard, hide_secrets, install_log_filter
from .settings import ServerSettings
from .store import is_postgres, open_store
from .tables import Hub, LocalDirectory

STATIC = pathlib.Path(__file__).parent / "static"
log = logging.getLogger("dominohall.server")

__all__ = ["STATIC", "admin_cookie", "cookie_name", "create_app", "hide_secrets"]


def create_app(db: str | None = None, *, settings: ServerSettings | None = None,
               **fields: Any) -> FastAPI:
    """The web app on store `db` (a file, a postgresql:// URL, or None: the default file).

    Either a whole `settings` or its fields by name (``bot_delay=0``, ``limits=...``,
    ``public_url=...``; see :class:`~.settings.ServerSettings`)."""
    if settings is None:
        settings = ServerSettings(db=db, **fields)
    elif db is not None or fields:
        raise TypeError("create_app: pass settings or its fields, not both")
    install_log_filter()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.get_running_loop().run_in_executor(None, open_store, settings.db)
        directory: Any
        if is_postgres(settings.db):        # a cluster node: leases and a relay
            from .cluster import PgCluster, PgDirectory

            directory = PgDirectory(store, settings.node_name)
        else:
            directory = LocalDirectory(store)
        hub = Hub(store, bot_delay=settings.bot_delay, bot_workers=settings.bot_workers,
                  bot_processes=settings.bot_processes, limits=settings.limits,
                  db_threads=settings.db_threads, directory=directory)
        if is_postgres(settings.db):
            hub.cluster = PgCluster(hub, directory)
        app.state.hub = hub
        try:
            await hub.start()
        except BaseException:
            await hub.stop()
            raise
        stop_quick_play = await quickplay.start(app, hub)
        try:
            yield
        finally:
            await stop_quick_play()
            await hub.stop()

    app = FastAPI(title="dominohall", summary="Mexican Train and All Fives online",
                  lifespan=lifespan, docs_url=None, redoc_url=None,
                  default_response_class=JSON)
    app.state.settings = settings
    app.add_middleware(Guard, hsts=settings.behind_https)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(pages.router)
    app.include_router(i18n_router)
    app.include_router(site.router)
    app.include_router(tables.router)
    app.include_router(ws.router)
    app.include_router(analysis_router.router)
    app.include_router(community.router)
    app.include_router(quickplay.router)
    app.include_router(friends.router)
    app.include_router(chat.router)
    app.include_router(seats.router)
    app.include_router(web.router)
    errors.install(app)
    return app
