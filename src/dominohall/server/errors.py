"""Every error as JSON with a machine-readable ``code`` and its ``params`` beside ``error``
(the kind) and an English ``message``: refusals (:class:`~.protocol.Rejected`), database
failures (503), unknown paths (404/405) and request validation (422)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .protocol import Rejected
from .store import StoreError


class JSON(JSONResponse):
    """JSON responses as ASCII: any text a client sent (a lone surrogate) can be echoed."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode()


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


async def rejected(_request: Request, err: Rejected) -> JSONResponse:
    headers = {}
    if "retry_after" in err.extra:
        headers["Retry-After"] = str(err.extra["retry_after"])
    return JSON(err.body(), status_code=err.status, headers=headers)


async def storage(_request: Request, err: StoreError) -> JSONResponse:
    return JSON(Rejected("storage", "The table could not be saved; try again.",
                         reason="table_not_saved").body(), status_code=503)


async def http_error(_request: Request, err: StarletteHTTPException) -> JSONResponse:
    """An unknown path or method: a code too, and FastAPI's ``detail`` kept."""
    body = Rejected("http", str(err.detail), err.status_code, reason="http_error",
                    params={"status": err.status_code}, filled=True).body()
    return JSON({**body, "detail": err.detail}, status_code=err.status_code,
                headers=getattr(err, "headers", None))


async def invalid(_request: Request, err: RequestValidationError) -> JSONResponse:
    detail = [{"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", "")),
               "type": str(e.get("type", "")), **validation_reason(e)}
              for e in err.errors()]
    message = "; ".join(f"{'.'.join(d['loc'][1:]) or 'body'}: {d['msg']}" for d in detail)
    first = detail[0] if detail else {"code": "invalid_request", "params": {}}
    return JSON({"error": "bad_request", "code": first["code"], "params": first["params"],
                 "message": message or "invalid request", "detail": detail},
                status_code=422)


def install(app: FastAPI) -> None:
    """The handlers of every error kind."""
    app.add_exception_handler(Rejected, rejected)  # type: ignore[arg-type]
    app.add_exception_handler(StoreError, storage)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
