"""`run`: schedule duplicate deals, play them inline / in processes / on Ray, save, resume."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .. import bots as bot_registry
from ..engine import new_game
from ..files import write_text_atomic
from . import stats as arena_stats
from .match import ArenaError, Spec, Task, ignore_sigint, make_bot, parse_bot, play_task

FORMAT = "dominohall-arena"
VERSION = 1
SAVE_EVERY_S = 1.0          # at most one JSON write per second while games finish
ProgressFn = Callable[[int, int], None]   # (games done, games in total)


@dataclass
class Results:
    """Settings, per-game raw results (ordered by deal, rotation) and their statistics."""

    settings: dict[str, Any]
    games: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False

    @property
    def total(self) -> int:
        return int(self.settings["deals"]) * int(self.settings["players"])

    @property
    def complete(self) -> bool:
        return len(self.games) == self.total

    @property
    def lower_is_better(self) -> bool:
        return bool(self.settings["lower_is_better"])

    @cached_property
    def stats(self) -> dict[str, Any]:
        s = self.settings
        return arena_stats.compute(s["bots"], s["players"], s["lower_is_better"],
                                   self.games, seed=s["seed"])

    def to_dict(self, with_stats: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "settings": self.settings,
            "finished_games": len(self.games),
            "total_games": self.total,
            "complete": self.complete,
            "interrupted": self.interrupted,
        }
        if with_stats:
            out["stats"] = self.stats
        out["games"] = self.games
        return out

    def save(self, path: str | os.PathLike[str], with_stats: bool = True) -> None:
        """Write the JSON atomically: a temp file in the same folder, then os.replace."""
        data = self.to_dict(with_stats)
        games = data.pop("games")
        head = json.dumps(data, indent=1)
        rows = ",\n".join("  " + json.dumps(g, separators=(",", ":")) for g in games)
        write_text_atomic(path, f'{head[:-2]},\n "games": [\n{rows}\n ]\n}}\n')  # a game a line


def load(path: str | os.PathLike[str]) -> Results:
    """Read a results JSON written by `run` (statistics are recomputed from its games)."""
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise ArenaError(f"{path}: no such results file") from None
    except (OSError, ValueError) as err:
        raise ArenaError(f"{path}: not a readable arena results file ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArenaError(f"{path}: not an arena results file (format is not {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ArenaError(f"{path}: results version {data.get('version')!r}, "
                         f"this dominohall reads version {VERSION}")
    games = sorted(data["games"], key=lambda g: (g["deal"], g["rotation"]))
    return Results(settings=data["settings"], games=games,
                   interrupted=bool(data.get("interrupted")))


def make_settings(game: str, players: int, bots: Sequence[str] | str, deals: int, seed: int,
                  options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate everything before any game starts; errors are ArenaError / BadOption."""
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    bots = [b.strip() for b in bots]
    if isinstance(players, bool) or not isinstance(players, int):
        raise ArenaError(f"players: {players!r} is not a whole number")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ArenaError(f"deals: {deals!r} must be a whole number of at least 1")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArenaError(f"seed: {seed!r} is not a whole number")
    options = dict(options or {})
    resolved = new_game(game, players=players, seed=0, options=options).options.as_dict()
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise ArenaError(f"--bots names {len(bots)} bots for {players} players: "
                         f"give one name per seat, or one name for every seat")
    for entry in dict.fromkeys(bots):
        name, _ = parse_bot(entry)
        try:
            make_bot(entry, 0, game)
        except ValueError as err:
            known = ", ".join(bot_registry.names(game))
            if "unknown bot" in str(err):
                raise ArenaError(f"unknown bot {name!r} for {game} (choose from {known})") \
                    from None
            raise ArenaError(f"bot {entry!r}: {err}") from None
    lower = game == "mexican_train" and resolved.get("scoring") == "penalty"
    return {
        "game": game,
        "players": players,
        "bots": list(bots),
        "deals": deals,
        "seed": seed,
        "options": options,
        "resolved_options": resolved,
        "lower_is_better": lower,
        "score": "penalty" if lower else "points",
    }


def check_resumable(old: Mapping[str, Any], new: Mapping[str, Any], source: str) -> None:
    """The resumed run must be the same experiment; --deals may only grow."""
    for key in ("game", "players", "bots", "seed", "resolved_options"):
        if old[key] != new[key]:
            what = key.replace("resolved_", "")
            if key == "resolved_options":
                diff = sorted(k for k in set(old[key]) | set(new[key])
                              if old[key].get(k) != new[key].get(k))
                detail = ", ".join(f"{k}={old[key].get(k)!r} there, {new[key].get(k)!r} here"
                                   for k in diff)
            else:
                detail = f"{old[key]!r} there, {new[key]!r} here"
            raise ArenaError(f"cannot resume {source}: different {what} ({detail}); "
                             f"run with the same settings or start a new --out file")
    if new["deals"] < old["deals"]:
        raise ArenaError(f"cannot resume {source}: it was started with --deals {old['deals']}, "
                         f"not {new['deals']} (deals may only grow)")


def run(game: str, players: int, bots: Sequence[str] | str, deals: int, seed: int, *,
        jobs: int = 1, options: Mapping[str, Any] | None = None,
        progress: bool | ProgressFn = False, ray: str | None = None,
        resume: str | os.PathLike[str] | Results | None = None,
        out: str | os.PathLike[str] | None = None) -> Results:
    """Play `deals` duplicate deals, each once per seating rotation, and return the results.

    Deal k uses the game seed ``deal_seed(seed, k)``; rotation r seats bot ``bots[(s + r) %
    players]`` in seat s. Results are the same for the same seed whatever `jobs` or `ray`
    (for bots whose moves depend only on their seed). `out` gets the JSON after every
    batch of finished games (atomically) and at the end; `resume` (a path or Results)
    continues a run with the same settings. Ctrl-C stops cleanly: the returned Results
    hold the finished games and ``interrupted=True``.

    >>> r = run("block", 2, "greedy,random", deals=2, seed=1)
    >>> len(r.games), r.complete, sorted(r.stats["bots"])
    (4, True, ['greedy', 'random'])

    With ``jobs > 1`` worker processes are spawned: call `run` from under
    ``if __name__ == "__main__":`` in a script.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ArenaError(f"jobs: {jobs!r} must be a whole number of at least 1")
    settings = make_settings(game, players, bots, deals, seed, options)
    results = Results(settings)
    if resume is not None:
        old = resume if isinstance(resume, Results) else load(resume)
        check_resumable(old.settings, settings, str(resume if not isinstance(resume, Results)
                                                     else "the given results"))
        results.games = list(old.games)

    done = {(g["deal"], g["rotation"]) for g in results.games}
    spec: Spec = {"game": game, "players": players, "bots": settings["bots"],
                  "seed": seed, "options": settings["options"]}
    tasks: list[Task] = []
    for deal in range(deals):
        missing = [r for r in range(players) if (deal, r) not in done]
        if missing:
            tasks.append((spec, deal, missing))

    bar = _Progress(progress, len(results.games), results.total)
    next_save = time.monotonic() + SAVE_EVERY_S

    def finished(batch: list[dict[str, Any]]) -> None:
        nonlocal next_save
        results.games.extend(batch)
        bar.advance(len(batch))
        if out is not None and time.monotonic() >= next_save:
            start = time.monotonic()
            results.save(out, with_stats=False)
            # big files: keep saving under ~10% of the time
            next_save = time.monotonic() + max(SAVE_EVERY_S, 10 * (time.monotonic() - start))

    try:
        with bar:
            if ray is not None:
                _run_ray(ray, jobs, tasks, finished)
            elif jobs == 1:
                for task in tasks:
                    finished(play_task(task))
            else:
                _run_pool(jobs, tasks, finished)
    except KeyboardInterrupt:
        results.interrupted = True
    finally:
        results.games.sort(key=lambda g: (g["deal"], g["rotation"]))
        if out is not None:
            results.save(out, with_stats=True)
    return results


def _run_pool(jobs: int, tasks: Iterable[Task], finished: Callable[[list[Any]], None]) -> None:
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(jobs, initializer=ignore_sigint)
    try:
        for batch in pool.imap_unordered(play_task, tasks):
            finished(batch)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _run_ray(address: str, jobs: int, tasks: Sequence[Task],
             finished: Callable[[list[Any]], None]) -> None:
    try:
        import ray
    except ImportError:
        raise ArenaError("--ray needs Ray, which is not installed: "
                         "pip install 'dominohall[ray]'") from None
    import logging

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "logging_level": logging.WARNING}
        try:
            if address == "local":
                ray.init(num_cpus=jobs if jobs > 1 else None, **kwargs)
            else:
                ray.init(address=address, **kwargs)
        except Exception as err:   # ConnectionError, ValueError, RuntimeError from ray
            raise ArenaError(f"--ray {address}: cannot start or reach Ray ({err})") from None
        started = True
    remote = ray.remote(num_cpus=1)(play_task)
    pending = [remote.remote(task) for task in tasks]
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    finished(ray.get(ref))
                except ray.exceptions.RayTaskError as err:
                    cause = getattr(err, "cause", None)
                    raise ArenaError(str(cause) if cause is not None else
                                     f"a Ray task failed: {err}") from None
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


class _Progress:
    """A rich progress bar with ETA on stderr, a callback, or nothing."""

    def __init__(self, progress: bool | ProgressFn, done: int, total: int) -> None:
        self.fn = progress if callable(progress) else None
        self.show = progress is True
        self.done = done
        self.total = total
        self.bar: Any = None

    def __enter__(self) -> _Progress:
        if self.show:
            from ..progress import progress_bar
            self.bar = progress_bar("games")
            self.bar.start()
            self.task = self.bar.add_task("games", total=self.total, completed=self.done)
        return self

    def advance(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)
        if self.fn is not None:
            self.fn(self.done, self.total)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
