""""Analyse this match": the post-game analysis of a finished table (issue 22).

Anyone who may see the table (its seats and its spectators) may ask for it, but only
once the match is over: before then it would tell what the hidden hands hold (a move's
values say which tiles the others may have).  It is worked out once per table: the
record's decisions (`dominohall.analysis.review.decisions_of`) go one by one to the bot
pool at the lowest priority (`ANALYSIS_PRIORITY`, after every table's bot moves, so a
player's move never waits for more than one decision's search), each valued from its
mover's view alone; the result is kept with the table (``result``) and served again
without any search.  At most `MAX_RUNNING` analyses run at once on a node.

Not yet: the result is kept by the node that worked it out, in memory (a restart or
another node works it out again, the same analysis: it is seeded and has no clock).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from ..analysis import review
from .protocol import Rejected

log = logging.getLogger("dominohall.server")

#: the bot pool's queue: 0 seated tables' moves, 1 watched tables', 2 analyses
ANALYSIS_PRIORITY = 2
MAX_RUNNING = 2


@dataclass
class Job:
    total: int = 0
    done: int = 0
    result: dict[str, Any] | None = None
    failed: bool = False
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        state = "done" if self.result is not None else "failed" if self.failed else "running"
        out: dict[str, Any] = {"status": state, "done": self.done, "total": self.total}
        if self.result is not None:
            out["analysis"] = self.result
        return out


#: table id -> its analysis (this node's)
JOBS: dict[str, Job] = {}


def _check_over(table: Any) -> None:
    if not table.game.is_over:
        raise Rejected("not_over", "The analysis is available when the match is over.", 409,
                       reason="analysis_not_ready")


def status(table: Any) -> dict[str, Any]:
    """What there is of `table`'s analysis: none yet, running (done of total), done."""
    _check_over(table)
    job = JOBS.get(table.id)
    if job is None:
        return {"status": "none", "done": 0, "total": 0}
    return job.status()


def start(hub: Any, table: Any) -> dict[str, Any]:
    """Start `table`'s analysis unless it is running or done (then: its status)."""
    _check_over(table)
    job = JOBS.get(table.id)
    if job is not None and not job.failed:
        return job.status()
    running = sum(1 for j in JOBS.values() if j.result is None and not j.failed)
    if running >= MAX_RUNNING:
        raise Rejected("busy", "Other matches are being analysed; try again in a minute.",
                       429, reason="analysis_busy")
    record = table.record()
    job = JOBS[table.id] = Job()
    job.task = asyncio.get_running_loop().create_task(_run(hub, table.id, record, job))
    return job.status()


async def _run(hub: Any, table_id: str, record: dict[str, Any], job: Job) -> None:
    try:
        settings = review.settings_for(record["game"])
        decisions = review.decisions_of(record)
        job.total = len(decisions)
        values = []
        for _k, _seat, _round, view, _action in decisions:
            values.append(await hub.bots.run(ANALYSIS_PRIORITY, review.value_actions, view,
                                             settings))
            job.done += 1
        job.result = review.assemble(record, settings, decisions, values).as_dict()
    except Exception as err:  # noqa: BLE001 - a failed analysis can be asked for again
        log.warning("table %s: analysis failed: %r", table_id, err)
        job.failed = True


__all__ = ["ANALYSIS_PRIORITY", "JOBS", "start", "status"]
