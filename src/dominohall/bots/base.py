"""What every bot shares: reading action texts and hands from a view, and a seeded
base class."""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..engine.actions import PLAY, parse_action
from ..engine.tiles import BIT, PIPS

View = dict[str, Any]


class Bot(Protocol):
    """A bot: `act(view)` returns one of `view["legal_actions"]`."""

    name: str

    def act(self, view: View) -> str: ...


def tile_of(text: str) -> int:
    """The tile id an action text plays, or -1 for draw/pass/end."""
    a = parse_action(text)
    return a.tile if a.kind == PLAY else -1


def pips_of(text: str) -> int:
    t = tile_of(text)
    return PIPS[t] if t >= 0 else -1


def target_of(text: str) -> str | None:
    return parse_action(text).target


def hand_mask(view: View) -> int:
    m = 0
    for text in view["hand"]:
        m |= BIT[parse_action(text).tile]
    return m


class SeededBot:
    """A bot with its own seeded RNG that answers at once when there is no choice;
    subclasses decide the rest in `choose`."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> str:
        forced = only_or_none(view)
        return forced if forced is not None else self.choose(view)

    def choose(self, view: View) -> str:
        raise NotImplementedError


def only_or_none(view: View) -> str | None:
    """The single legal action when there is no choice."""
    legal = view["legal_actions"]
    return legal[0] if len(legal) == 1 else None
