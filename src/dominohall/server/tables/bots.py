"""The bots' workers: a process pool by default (threads for tests), shared fairly
between tables (:class:`~.limits.FairQueue`), whose processes die with the server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any

from ... import bots
from .limits import FairQueue

#: bot construction parameters used by the server (pimc gets a short think)
log = logging.getLogger("dominohall.server")

RETRIES = 2         # a task is run again this many times if its worker process dies

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
        self.workers, self.processes = max(1, workers), processes
        self.executor = self._executor()
        self.restarts = 0                   # pools made again after a worker died

    def _executor(self) -> concurrent.futures.Executor:
        if self.processes:
            ctx = multiprocessing.get_context("spawn")
            return concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=ctx, initializer=_die_with_parent,
                initargs=(os.getpid(),))
        return concurrent.futures.ThreadPoolExecutor(self.workers, thread_name_prefix="dh-bot")

    def _renew(self, broken: concurrent.futures.Executor) -> None:
        """A worker process died (killed, out of memory): the pool is broken for good, so
        a new one takes its place (once, however many tasks saw it broken)."""
        if self.executor is broken:
            log.warning("bot workers: a worker process died; starting new workers")
            broken.shutdown(wait=False, cancel_futures=True)
            self.executor = self._executor()
            self.restarts += 1

    async def run(self, priority: int, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker, when the fair queue gives its turn (0 goes first).
        A task that a dying worker took with it runs again on new workers (a bot's move
        or a hint is a pure function of its arguments: running it twice is harmless)."""
        await self.queue.acquire(priority)
        try:
            for attempt in range(RETRIES + 1):
                executor = self.executor
                try:
                    return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
                except BrokenExecutor:
                    if attempt == RETRIES:
                        raise
                    self._renew(executor)
        finally:
            self.queue.release(priority)

    async def move(self, priority: int, name: str, game: str, seed: int,
                   view: dict[str, Any]) -> str:
        return str(await self.run(priority, bot_move, name, game, seed, view))

    async def warm(self) -> None:
        """Start the workers (a process pool's first task spawns them)."""
        executor = self.executor
        try:
            await asyncio.get_running_loop().run_in_executor(executor, _warm)
        except BrokenExecutor:
            self._renew(executor)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
