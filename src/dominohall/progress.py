"""The progress bar of long command-line work (the arena's games, an analysis's decisions):
one look everywhere, drawn on stderr so that stdout stays the result."""

from __future__ import annotations

from typing import Any


def progress_bar(what: str, *, elapsed: str | None = "elapsed", eta: str = "ETA",
                 transient: bool = False) -> Any:
    """A rich Progress counting `what` (done of total, time spent, time left)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    spent = [TextColumn(elapsed)] if elapsed else []
    return Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(),
                    *spent, TimeElapsedColumn(), TextColumn(eta), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=transient)
