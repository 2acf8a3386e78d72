"""The bots' workers: a process pool by default (threads for tests), shared fairly
between tables (:class:`~.limits.FairQueue`), whose processes die with the server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from ... import bots
from .limits import FairQueue

#: bot construction parameters used by the server (pimc gets a short think)
BOT_PARAMS: dict[str, dict[str, Any]] = {"pimc": {"budget_ms": 300, "samples": 24}}


def bot_move(name: str, game: str, seed: int, view: dict[str, Any]) -> str:
    """One bot decision (runs in a worker process or thread)."""
    bot = bots.make(name, seed=seed, game=game, **BOT_PARAMS.get(name, {}))
    return bot.act(view)


def _warm() -> bool:
    return True


def _die_with_parent(parent: int) -> None:
    """Bot worker initializer: exit when the server process goes, even by kill -9."""
    try:                                        # Linux: the kernel sends SIGKILL
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:                  # it died before prctl took effect
        os._exit(0)

    def watch() -> None:                        # everywhere else: notice the new parent
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="dh-parent-watch").start()


class BotPool:
    """`workers` bot workers (processes, or threads) and the fair queue in front of them."""

    def __init__(self, workers: int = 2, processes: bool = True) -> None:
        self.queue = FairQueue(workers)
        self.executor: concurrent.futures.Executor
        if processes:
            ctx = multiprocessing.get_context("spawn")
            self.executor = concurrent.futures.ProcessPoolExecutor(
                max(1, workers), mp_context=ctx, initializer=_die_with_parent,
                initargs=(os.getpid(),))
        else:
            self.executor = concurrent.futures.ThreadPoolExecutor(
                max(1, workers), thread_name_prefix="dh-bot")

    async def run(self, priority: int, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker, when the fair queue gives its turn (0 goes first)."""
        await self.queue.acquire(priority)
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
        finally:
            self.queue.release(priority)

    async def move(self, priority: int, name: str, game: str, seed: int,
                   view: dict[str, Any]) -> str:
        return str(await self.run(priority, bot_move, name, game, seed, view))

    async def warm(self) -> None:
        """Start the workers (a process pool's first task spawns them)."""
        await asyncio.get_running_loop().run_in_executor(self.executor, _warm)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
