"""Bots: each takes only `Game.view(seat)` and returns one of its legal action texts.

A ladder per game (`names(game)`, weakest first):

* Mexican Train: random, greedy, doubles, planner, pimc, deep
* All Fives / Draw / Block: random, scorer, fives, blocker, pimc, deep

`blocker` and `deep` are the Block and Draw bots of their own (`bots.block`); in All
Fives `blocker` sheds its heaviest tile.  `deep` is the top of every ladder, one bot per
game (`bots.search.DeepBot` picks it from the view): `bots.block.DeepBot` in Block and
Draw, `bots.allfives.AllFivesBot` in All Fives, `bots.train.TrainBot` in Mexican Train.
`pimc` stays as it was, the baseline they are measured against.

Mexican Train also has sparring partners outside the ladder (`bots.sparring`: ``longest``,
``dumper``, ``private``, ``mexfirst``): `make` and the arena know them by name, `names`
does not list them.

No bot ever sees the real game: the sampling bots search worlds that
`dominohall.sample_world` builds from the view alone.

Your own bot (a trained policy, say) joins with `register(name, factory)`: then
`make(name)` and `dominohall.arena.run(..., bots=[name, "random"])` use it like
any other.  A bot is any object with ``act(view) -> action text``.

>>> import dominohall
>>> g = dominohall.new_game("all_fives", players=2, seed=1)
>>> bot = make("greedy")
>>> bot.act(g.view(g.current_seat)) in g.view(g.current_seat)["legal_actions"]
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from .base import Bot, View
from .block import BlockerBot
from .line import FivesBot, ScorerBot
from .mexican import DoublesBot, PlannerBot
from .pimc import PimcBot
from .search import DeepBot
from .simple import GreedyBot, RandomBot
from .sparring import SPARRING

_LADDERS = {
    "mexican_train": {"random": RandomBot, "greedy": GreedyBot, "doubles": DoublesBot,
                      "planner": PlannerBot, "pimc": PimcBot, "deep": DeepBot},
    "line": {"random": RandomBot, "greedy": GreedyBot, "scorer": ScorerBot, "fives": FivesBot,
             "blocker": BlockerBot, "pimc": PimcBot, "deep": DeepBot},
}


#: bots added by `register`: name -> (factory, games it plays, None for every game)
_REGISTERED: dict[str, tuple[Callable[..., Any], frozenset[str] | None]] = {}
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def _ladder(game: str | None, sparring: bool = True) -> dict[str, Any]:
    if game is None:
        built_in = {**_LADDERS["mexican_train"], **_LADDERS["line"]}
    else:
        built_in = _LADDERS["mexican_train" if game == "mexican_train" else "line"]
    if sparring and game in (None, "mexican_train"):
        built_in = {**built_in, **SPARRING}
    return {**built_in, **{name: factory for name, (factory, games) in _REGISTERED.items()
                           if games is None or game is None or game in games}}


def names(game: str | None = None) -> list[str]:
    """Bot names for a game, weakest first, then registered ones (all names when game is
    None)."""
    names_ = list(_ladder(game, sparring=False))
    if game is not None and game != "mexican_train":
        names_.remove("greedy")      # kept usable by name, but not a rung of this ladder
    return names_


def register(name: str, factory: Callable[..., Any], games: Sequence[str] | None = None,
             ) -> None:
    """Add a bot: `make(name, seed=s, **params)` calls ``factory(seed=s, **params)``, which
    returns an object with ``act(view) -> action text``.  `games` limits it to those games.
    Registering a name again replaces it; built-in names are refused (ValueError).

    The arena finds it in this process (``jobs=1``); worker processes (``jobs > 1``, Ray)
    only know bots registered when a module they import is imported.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"bot name {name!r}: use lower-case letters, digits and _ "
                         f"(it is written in arena line-ups like 'name:key=value')")
    if name in _LADDERS["mexican_train"] or name in _LADDERS["line"] or name in SPARRING:
        raise ValueError(f"{name!r} is a built-in bot; choose another name")
    if not callable(factory):
        raise ValueError(f"the factory for bot {name!r} is not callable")
    _REGISTERED[name] = (factory, None if games is None else frozenset(games))


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
    except ValueError as err:         # a number's text that is not a number, say
        texts = ", ".join(f"{k}={v!r}" for k, v in params.items() if isinstance(v, str))
        raise ValueError(f"bad parameter for bot {name!r}: {err}"
                         + (f" (in {texts})" if texts else "")) from None


__all__ = ["Bot", "View", "make", "names", "register"]
