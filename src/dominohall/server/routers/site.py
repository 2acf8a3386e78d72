"""The pages around the API: the lobby, a table's page, the API's own page (``/docs``) and
the games' catalogue the lobby's form is built from."""

from __future__ import annotations

import pathlib
from typing import Any

import swagger_ui_bundle
from fastapi import APIRouter, HTTPException, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse

from .. import pages
from ..models import GameInfo
from ..security import docs_csp
from ..tables import lobby_catalogue

router = APIRouter()

#: Swagger UI's files, from the swagger-ui-bundle-v2 package (served at /docs/ui/: never a CDN)
SWAGGER_FILES = pathlib.Path(swagger_ui_bundle.swagger_ui_path)
SWAGGER = bytes(get_swagger_ui_html(
    openapi_url="/openapi.json", title="dominohall API",
    swagger_js_url="/docs/ui/swagger-ui-bundle.js", swagger_css_url="/docs/ui/swagger-ui.css",
    swagger_favicon_url="/docs/ui/favicon-32x32.png").body).decode()
SWAGGER_CSP = docs_csp(SWAGGER)


@router.get("/docs", include_in_schema=False)
async def docs() -> HTMLResponse:
    return HTMLResponse(SWAGGER, headers={"Content-Security-Policy": SWAGGER_CSP})


@router.get("/docs/ui/{name}", include_in_schema=False)
async def docs_file(name: str) -> FileResponse:
    """One of Swagger UI's own files (only those three: the script, its style, the icon)."""
    if name not in ("swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"):
        raise HTTPException(404, "Not Found")
    return FileResponse(SWAGGER_FILES / name,
                        headers={"Cache-Control": "public, max-age=86400"})


@router.get("/", include_in_schema=False)
async def lobby_page(request: Request) -> HTMLResponse:
    return pages.static_page_in("index.html", request)


@router.get("/play", include_in_schema=False)
async def quick_play_page(request: Request) -> HTMLResponse:
    """Quick play: wait for strangers (``static/play.html``, over ``/api/queue``)."""
    return pages.static_page_in("play.html", request)


@router.get("/t/{table_id}", include_in_schema=False)
async def table_page(request: Request, table_id: str) -> HTMLResponse:
    return pages.static_page_in("table.html", request)


@router.get("/api/games", summary="games, player counts, options, presets and bot levels",
            response_model=list[GameInfo], response_model_exclude_unset=True, tags=["games"])
async def games() -> list[dict[str, Any]]:
    return lobby_catalogue()
