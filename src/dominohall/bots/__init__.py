"""Bots: each takes only `Game.view(seat)` and returns one of its legal action texts.

A ladder per game (`names(game)`, weakest first):

* Mexican Train: random, greedy, doubles, planner, pimc
* All Fives / Draw / Block: random, scorer, fives, pimc

No bot ever sees the real game: the sampling bots search worlds that
`dominohall.sample_world` builds from the view alone.

>>> import dominohall
>>> g = dominohall.new_game("all_fives", players=2, seed=1)
>>> bot = make("greedy")
>>> bot.act(g.view(g.current_seat)) in g.view(g.current_seat)["legal_actions"]
True
"""

from __future__ import annotations

from typing import Any

from .base import Bot, View
from .line import FivesBot, ScorerBot
from .mexican import DoublesBot, PlannerBot
from .pimc import PimcBot
from .simple import GreedyBot, RandomBot

_LADDERS = {
    "mexican_train": {"random": RandomBot, "greedy": GreedyBot, "doubles": DoublesBot,
                      "planner": PlannerBot, "pimc": PimcBot},
    "line": {"random": RandomBot, "greedy": GreedyBot, "scorer": ScorerBot, "fives": FivesBot,
             "pimc": PimcBot},
}


def _ladder(game: str | None) -> dict[str, Any]:
    if game is None:
        return {**_LADDERS["mexican_train"], **_LADDERS["line"]}
    return _LADDERS["mexican_train" if game == "mexican_train" else "line"]


def names(game: str | None = None) -> list[str]:
    """Bot names for a game, weakest first (all names when game is None)."""
    names_ = list(_ladder(game))
    if game is not None and game != "mexican_train":
        names_.remove("greedy")      # kept usable by name, but not a rung of this ladder
    return names_


def make(name: str, seed: int = 0, game: str | None = None, **params: Any) -> Bot:
    """A bot by name, e.g. make("pimc", seed=1, budget_ms=200).  Unknown names or
    parameters raise ValueError with the choices."""
    ladder = _ladder(game)
    if name not in ladder:
        raise ValueError(f"unknown bot {name!r} (choose from {', '.join(names(game))})")
    try:
        return ladder[name](seed=seed, **params)  # type: ignore[no-any-return]
    except TypeError as err:
        raise ValueError(f"bad parameter for bot {name!r}: {err}") from None


__all__ = ["Bot", "View", "make", "names"]
