"""Bots: each takes only `Game.view(seat)` and returns one of its legal action texts.

>>> import dominohall
>>> g = dominohall.new_game("all_fives", players=2, seed=1)
>>> bot = make("greedy")
>>> bot.act(g.view(g.current_seat)) in g.view(g.current_seat)["legal_actions"]
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol

View = dict[str, Any]


class Bot(Protocol):
    name: str

    def act(self, view: View) -> str: ...


def _pips(action: str) -> int:
    tile = action.split(">")[0]
    if "-" not in tile:
        return -1
    a, b = tile.split("-")
    return int(a) + int(b)


class RandomBot:
    """A uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> str:
        return self.rng.choice(view["legal_actions"])


class GreedyBot:
    """Plays the highest-pip legal tile; draws, passes or ends only when nothing else is legal."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> str:
        legal = view["legal_actions"]
        best = max(_pips(a) for a in legal)
        return self.rng.choice([a for a in legal if _pips(a) == best])


_BOTS = {"random": RandomBot, "greedy": GreedyBot}


def names(game: str | None = None) -> list[str]:
    """Bot names available for a game."""
    return list(_BOTS)


def make(name: str, seed: int = 0) -> Bot:
    """A bot by name; raises ValueError listing the names for an unknown one."""
    try:
        cls = _BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (choose from {', '.join(_BOTS)})") from None
    return cls(seed)  # type: ignore[no-any-return]
