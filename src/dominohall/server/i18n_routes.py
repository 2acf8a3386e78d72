"""The browser's catalogs: ``/api/i18n/{lang}.json`` from the same ``.po`` files the
terminal reads, and ``/api/i18n`` (the languages, and the one the browser's
``Accept-Language`` asks for)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..i18n import LANGUAGES, catalog_json, negotiate
from .protocol import Rejected

router = APIRouter(tags=["i18n"])


@router.get("/api/i18n", summary="the languages, and the best one for Accept-Language")
def languages(request: Request) -> dict[str, Any]:
    return {"languages": LANGUAGES,
            "preferred": negotiate(request.headers.get("accept-language"))}


@router.get("/api/i18n/{lang}.json", summary="one language's messages and plural rule")
def catalog(lang: str) -> Any:
    try:
        body = catalog_json(lang)
    except KeyError:
        return JSONResponse(status_code=404, content=Rejected(
            "unknown_language", "no catalog for {lang}; languages: {languages}", 404,
            params={"lang": repr(lang[:40]), "languages": ", ".join(LANGUAGES)}).body())
    return JSONResponse(body, headers={"Cache-Control": "public, max-age=300"})
