"""A fixed integer action space per game and option set.

Every action of a game gets one integer that means the same thing in every
state of every game played with the same game name, number of players and
options (an :class:`ActionSpec`).  The layout, for ``T`` tiles in the set
(ids as in the engine: tile ``a-b`` with ``a >= b`` is ``a*(a+1)//2 + b``)::

    0 .. S-1                     the specials, in this order
                                 Mexican Train: draw, pass, end   (S = 3)
                                 line games:    draw, pass        (S = 2)
    S + k*T + tile               play `tile` on target k

Targets ``k``:

* Mexican Train: ``t0 .. t<n-1>`` (each seat's personal train) then ``mx``
  (the Mexican train): ``n + 1`` targets.
* Line games: the lead (no target, k = 0), ``L``, ``R``; with a spinner also
  ``U``, ``D``; with ``spinner=every_double`` also ``U2, D2, ... U<m>, D<m>``
  for ``m = set_max + 1`` (one pair per possible spinner).

So 2-player double-6 Block has ``2 + 3*28 = 86`` actions, 2-player All Fives
``2 + 5*28 = 142`` and 4-player double-12 Mexican Train ``3 + 5*91 = 458``.
Only the engine says which are legal (``Game.legal_actions()``); this module
just names them.

>>> import dominohall
>>> g = dominohall.new_game("block", players=2, seed=1)
>>> encode_action(g, "draw"), encode_action(g, "6-4>R"), decode_action(g, 2 + 2*28 + 25)
(0, 83, '6-4>R')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import dominohall
from dominohall.engine.options import resolve_options

LINE_GAMES = ("all_fives", "draw", "block")


@dataclass(frozen=True)
class ActionSpec:
    """The integer action space of one game name, player count and option set."""

    game: str
    players: int
    set_max: int
    targets: tuple[str | None, ...]
    specials: tuple[str, ...]

    @property
    def n_tiles(self) -> int:
        """Tiles in the set (tile ids 0 .. n_tiles-1)."""
        return (self.set_max + 1) * (self.set_max + 2) // 2

    @property
    def size(self) -> int:
        """Number of distinct actions."""
        return len(self.specials) + len(self.targets) * self.n_tiles

    @property
    def codes(self) -> dict[str, int]:
        """Canonical action text -> integer, for every action (built once)."""
        table = _CODES.get(self)
        if table is None:
            table = _CODES[self] = {self.decode(i): i for i in range(self.size)}
        return table

    @property
    def engine_actions(self) -> list[Any]:
        """Integer -> the engine's interned ``Action`` (built once).  ``Game.apply`` takes
        one as it is, without parsing text: what the environments' ``step`` uses."""
        table = _ACTIONS.get(self)
        if table is None:
            table = _ACTIONS[self] = [dominohall.parse_action(self.decode(i), self.set_max)
                                      for i in range(self.size)]
        return table

    def encode(self, action: str) -> int:
        """The integer of an action (text or engine Action)."""
        code = self.codes.get(action)
        if code is not None:
            return code
        a = dominohall.parse_action(action, self.set_max)
        text = str(a)
        if text in self.specials:
            return self.specials.index(text)
        if a.target not in self.targets or a.tile >= self.n_tiles or a.tile < 0:
            raise dominohall.IllegalAction(f"{text} is not an action of this {self.game} game")
        return len(self.specials) + self.targets.index(a.target) * self.n_tiles + a.tile

    def decode(self, index: int) -> str:
        """The action text of an integer."""
        i = int(index)
        if not 0 <= i < self.size:
            raise dominohall.IllegalAction(f"{index!r} is not an action id (0..{self.size - 1})")
        s = len(self.specials)
        if i < s:
            return self.specials[i]
        k, tile = divmod(i - s, self.n_tiles)
        target = self.targets[k]
        text = TILE_TEXT[tile]
        return text if target is None else f"{text}>{target}"


_CODES: dict[ActionSpec, dict[str, int]] = {}
_ACTIONS: dict[ActionSpec, list[Any]] = {}
TILE_TEXT = [f"{a}-{b}" for a in range(19) for b in range(a + 1)]


def action_spec(game: Any, players: int | None = None,
                options: Mapping[str, Any] | None = None) -> ActionSpec:
    """The ActionSpec of a Game, a view, an ActionSpec, or a game name with players/options.

    >>> action_spec("mexican_train", players=4).size
    458
    """
    if isinstance(game, ActionSpec):
        return game
    if isinstance(game, dominohall.Game):
        spec = _BY_OPTIONS.get((game.name, game.options))
        if spec is None:
            spec = _BY_OPTIONS[(game.name, game.options)] = _spec(
                game.name, game.players, game.options.as_dict())
        return spec
    if isinstance(game, Mapping):                                    # a view
        return _spec(game["game"], game["players"], game["options"])
    if isinstance(game, str):
        if players is None:
            raise ValueError("give players= with a game name")
        opts = resolve_options(game, players, dict(options or {})).as_dict()
        return _spec(game, players, opts)
    raise TypeError(f"need a Game, a view, an ActionSpec or a game name, not {game!r}")


_CACHE: dict[tuple[Any, ...], ActionSpec] = {}
_BY_OPTIONS: dict[tuple[str, Any], ActionSpec] = {}      # (name, frozen options object)


def _spec(game: str, players: int, opts: Mapping[str, Any]) -> ActionSpec:
    key = (game, players, opts["set_max"], opts.get("spinner"))
    spec = _CACHE.get(key)
    if spec is not None:
        return spec
    set_max = opts["set_max"]
    if game == "mexican_train":
        targets: tuple[str | None, ...] = tuple(f"t{k}" for k in range(players)) + ("mx",)
        specials: tuple[str, ...] = ("draw", "pass", "end")
    elif game in LINE_GAMES:
        names: list[str | None] = [None, "L", "R"]
        if opts["spinner"] != "none":
            names += ["U", "D"]
        if opts["spinner"] == "every_double":
            for k in range(2, set_max + 2):
                names += [f"U{k}", f"D{k}"]
        targets, specials = tuple(names), ("draw", "pass")
    else:
        raise ValueError(f"unknown game {game!r}")
    spec = _CACHE[key] = ActionSpec(game, players, set_max, targets, specials)
    return spec


def encode_action(game_or_spec: Any, action: str) -> int:
    """The integer of `action` in the action space of `game_or_spec` (see `action_spec`)."""
    return action_spec(game_or_spec).encode(action)


def decode_action(game_or_spec: Any, index: int) -> str:
    """The action text of integer `index` in the action space of `game_or_spec`."""
    return action_spec(game_or_spec).decode(index)
