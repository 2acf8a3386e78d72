"""A finished table's analysis: ask for it (once), then read it (:mod:`..analysis`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from .. import analysis
from ..deps import HubDep, TableDep, rate

router = APIRouter(tags=["analysis"])

NOT_OVER: dict[int | str, dict[str, Any]] = {409: {"description": "the match is not over yet"}}


@router.get("/api/tables/{table_id}/analysis", responses=NOT_OVER,
            summary="the match's analysis: none yet, running (done of total) or done")
async def get_analysis(table: TableDep, hub: HubDep) -> dict[str, Any]:
    return await analysis.status(hub, table)


@router.post("/api/tables/{table_id}/analysis", status_code=202,
             responses={**NOT_OVER, 429: {"description": "too many analyses at once"}},
             summary="analyse this match (after it is over; worked out once)")
async def start_analysis(request: Request, table: TableDep, hub: HubDep) -> dict[str, Any]:
    rate(request, "analysis", 30)
    return await analysis.start(hub, table)
