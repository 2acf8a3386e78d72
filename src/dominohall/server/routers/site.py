"""The pages around the API: the lobby, a table's page, the API's own page (``/docs``) and
the games' catalogue the lobby's form is built from."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

from .. import pages
from ..models import GameInfo
from ..security import docs_csp
from ..tables import lobby_catalogue

router = APIRouter()

SWAGGER = bytes(get_swagger_ui_html(openapi_url="/openapi.json",
                                    title="dominohall API").body).decode()
SWAGGER_CSP = docs_csp(SWAGGER)


@router.get("/docs", include_in_schema=False)
async def docs() -> HTMLResponse:
    return HTMLResponse(SWAGGER, headers={"Content-Security-Policy": SWAGGER_CSP})


@router.get("/", include_in_schema=False)
async def lobby_page(request: Request) -> HTMLResponse:
    return pages.static_page_in("index.html", request)


@router.get("/t/{table_id}", include_in_schema=False)
async def table_page(request: Request, table_id: str) -> HTMLResponse:
    return pages.static_page_in("table.html", request)


@router.get("/api/games", summary="games, player counts, options, presets and bot levels",
            response_model=list[GameInfo], response_model_exclude_unset=True, tags=["games"])
async def games() -> list[dict[str, Any]]:
    return lobby_catalogue()
