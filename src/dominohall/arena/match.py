"""One arena task: the games of one deal, one per seating rotation.

`play_task` is a top-level function of plain data in and plain data out, so it runs
the same inline, in a spawned process (`multiprocessing`) or on a Ray worker.

A game result is a JSON-ready dict::

    {"deal": 3, "rotation": 1,
     "lineup": [1, 2, 3, 0],        # index into the bot list for each seat
     "scores": [...], "winners": [...], "rounds": 13,
     "moves": [...], "ms_total": [...], "ms_max": [...]}   # per seat, bot act() time only
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .. import bots as bot_registry
from ..engine import DominohallError, IllegalAction, new_game
from .seeds import bot_seed, deal_seed


class ArenaError(DominohallError):
    """A bad arena setting, an unreadable results file, or a bot that broke the rules."""


Spec = dict[str, Any]   # {"game", "players", "bots" (one name per entry), "seed", "options"}
Task = tuple[Spec, int, Sequence[int]]   # (spec, deal, rotations still to play)


def parse_bot(text: str) -> tuple[str, dict[str, Any]]:
    """A bot entry: a name, optionally with parameters, ``pimc:budget_ms=200:samples=32``.

    >>> parse_bot("pimc:budget_ms=200")
    ('pimc', {'budget_ms': 200})
    """
    name, *items = text.strip().split(":")
    params: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ArenaError(f"bot {text!r}: write parameters as name:KEY=VALUE, "
                             f"e.g. pimc:budget_ms=200")
        params[key.strip()] = _value(value.strip())
    return name.strip(), params


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def make_bot(text: str, seed: int, game: str) -> Any:
    """The bot an entry names (ValueError from `dominohall.bots.make` on a bad one)."""
    name, params = parse_bot(text)
    return bot_registry.make(name, seed=seed, game=game, **params)


def lineup(players: int, rotation: int) -> list[int]:
    """Bot-list index per seat: the list rotated by `rotation` (seat s gets bots[s + r])."""
    return [(s + rotation) % players for s in range(players)]


def play_game(spec: Spec, deal: int, rotation: int) -> dict[str, Any]:
    """Play one whole match of `deal` with the bot list rotated by `rotation`."""
    n = spec["players"]
    seat_bots = lineup(n, rotation)
    names = [spec["bots"][i] for i in seat_bots]
    g = new_game(spec["game"], players=n, seed=deal_seed(spec["seed"], deal),
                 options=spec["options"])
    players = [make_bot(name, bot_seed(spec["seed"], deal, s), spec["game"])
               for s, name in enumerate(names)]
    moves = [0] * n
    ms_total = [0.0] * n
    ms_max = [0.0] * n
    clock = time.perf_counter
    while not g.is_over:
        seat = g.current_seat
        assert seat is not None
        view = g.view(seat)
        start = clock()
        try:
            action = players[seat].act(view)
        except Exception as err:      # a bot bug: say where, so it can be replayed
            raise ArenaError(f"bot {names[seat]!r} in seat {seat} (deal {deal}, rotation "
                             f"{rotation}, round {g.round}) crashed: "
                             f"{type(err).__name__}: {err}") from err
        ms = (clock() - start) * 1000.0
        moves[seat] += 1
        ms_total[seat] += ms
        if ms > ms_max[seat]:
            ms_max[seat] = ms
        try:
            g.apply(action, seat=seat)
        except IllegalAction as err:
            raise ArenaError(f"bot {names[seat]!r} in seat {seat} (deal {deal}, rotation "
                             f"{rotation}) returned {action!r}: {err}") from None
    return {
        "deal": deal,
        "rotation": rotation,
        "lineup": seat_bots,
        "scores": g.scores,
        "winners": g.winners,
        "rounds": g.round,
        "moves": moves,
        "ms_total": [round(x, 4) for x in ms_total],
        "ms_max": [round(x, 4) for x in ms_max],
    }


def play_task(task: Task) -> list[dict[str, Any]]:
    """The worker: play the listed rotations of one deal (spawn- and Ray-safe)."""
    spec, deal, rotations = task
    return [play_game(spec, deal, r) for r in rotations]


def ignore_sigint() -> None:
    """Pool initializer: Ctrl-C is the parent's to handle; it terminates the workers."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
