""""Analyse this match": the post-game analysis of a finished table (issue 22).

Anyone who may see the table (its seats and its spectators) may ask for it, but only
once the match is over: before then it would tell what the hidden hands hold (a move's
values say which tiles the others may have).  It is worked out once per table: the
record's decisions (`dominohall.analysis.review.decisions_of`) go one by one to the bot
pool at the lowest priority (`ANALYSIS_PRIORITY`, after every table's bot moves, so a
player's move never waits for more than one decision's search), each valued from its
mover's view alone; the result is stored with the table in the server's database (the
``analyses`` table: every node of a cluster and a restarted server serve it again without
any search).  At most `MAX_RUNNING` analyses run at once on a node.  Two nodes asked at
the same moment may both work it out; the first stored wins (the analysis is seeded and
has no clock, so both are the same).
"""

from __future__ import annotations

import asyncio
import logging
import time
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


# ---- the database ------------------------------------------------------------------------

def _retrying(store: Any, fn: Any) -> Any:
    retrying = getattr(store, "_retrying", None)    # PostgreSQL: a lost connection
    return retrying(fn) if retrying else fn()


def load(store: Any, table_id: str) -> dict[str, Any] | None:
    """The stored analysis of `table_id`, or None."""
    rows = _retrying(store, lambda: store._rows(
        "SELECT result FROM {t}analyses WHERE table_id = {p}", (table_id,)))
    return store._json_out(rows[0][0]) if rows else None


def save(store: Any, table_id: str, result: dict[str, Any]) -> None:
    """Store `result` unless another node stored it first."""
    def once() -> None:
        try:
            with store._tx() as db:
                db.execute(store._sql("INSERT INTO {t}analyses (table_id, result, created) "
                                      "VALUES ({p}, {p}, {p})"),
                           (table_id, store._json_in(result), time.time()))
        except store.integrity_error:
            pass
    _retrying(store, once)


async def _stored(hub: Any, table: Any) -> Job | None:
    """This node's job for `table`, or one made from the stored analysis."""
    job = JOBS.get(table.id)
    if job is not None:
        return job
    result = await hub.run_db(load, hub.store, table.id)
    if result is None:
        return None
    job = JOBS.setdefault(table.id, Job())
    job.result = result
    job.total = job.done = len(result["decisions"])
    return job


async def status(hub: Any, table: Any) -> dict[str, Any]:
    """What there is of `table`'s analysis: none yet, running (done of total), done."""
    _check_over(table)
    job = await _stored(hub, table)
    if job is None:
        return {"status": "none", "done": 0, "total": 0}
    return job.status()


async def start(hub: Any, table: Any) -> dict[str, Any]:
    """Start `table`'s analysis unless it is running or done (then: its status)."""
    _check_over(table)
    job = await _stored(hub, table)
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
        result = review.assemble(record, settings, decisions, values).as_dict()
        await hub.run_db(save, hub.store, table_id, result)
        job.result = result
    except Exception as err:  # noqa: BLE001 - a failed analysis can be asked for again
        log.warning("table %s: analysis failed: %r", table_id, err)
        job.failed = True


__all__ = ["ANALYSIS_PRIORITY", "JOBS", "load", "save", "start", "status"]
