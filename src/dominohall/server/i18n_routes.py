"""The browser's catalogs: ``/api/i18n/{lang}.json`` from the same ``.po`` files the
terminal reads, and ``/api/i18n`` (the languages, and the one the browser's
``Accept-Language`` asks for)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..i18n import LANGUAGES, catalog_json, negotiate

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
        return JSONResponse(status_code=404, content={
            "error": "unknown_language",
            "message": f"no catalog for {lang[:40]!r}; languages: {', '.join(LANGUAGES)}"})
    return JSONResponse(body, headers={"Cache-Control": "public, max-age=300"})
