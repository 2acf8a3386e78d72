"""Actions and their text notation.

``"12-5>t0"`` a tile on seat 0's personal train, ``"5-3>mx"`` the Mexican train,
``"6-6"`` a line-game lead, ``"6-4>L"`` / ``">R"`` / ``">U"`` / ``">D"`` line ends
and spinner arms (``">U2"``, ``">D2"`` for a second spinner), and ``"draw"``,
``"pass"``, ``"end"``.  Halves may be written in either order; text is printed
high half first.  Action objects are interned, so ``is`` and ``==`` agree and
legal-action lists allocate nothing after warm-up.

>>> str(parse_action("5-12>T0"))
'12-5>t0'
"""

from __future__ import annotations

import re

from .errors import IllegalAction
from .tiles import MAX_PIPS, TEXT, parse_tile

PLAY, DRAW, PASS, END = 0, 1, 2, 3


class Action:
    """One move: play a tile on a target, or draw / pass / end."""

    __slots__ = ("kind", "tile", "target", "text")

    kind: int
    tile: int
    target: str | None
    text: str

    def __init__(self, kind: int, tile: int = -1, target: str | None = None) -> None:
        self.kind = kind
        self.tile = tile
        self.target = target
        if kind == PLAY:
            self.text = TEXT[tile] if target is None else f"{TEXT[tile]}>{target}"
        else:
            self.text = ("play", "draw", "pass", "end")[kind]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self.text == other.text
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[object, tuple[int, int, str | None]]:
        return (_intern, (self.kind, self.tile, self.target))


_PLAYS: dict[tuple[int, str | None], Action] = {}
DRAW_ACTION = Action(DRAW)
PASS_ACTION = Action(PASS)
END_ACTION = Action(END)
_SPECIAL = {"draw": DRAW_ACTION, "pass": PASS_ACTION, "end": END_ACTION}


def play(tile: int, target: str | None) -> Action:
    """The interned action playing `tile` on `target` (None: a lead)."""
    a = _PLAYS.get((tile, target))
    if a is None:
        a = _PLAYS[(tile, target)] = Action(PLAY, tile, target)
    return a


def _intern(kind: int, tile: int, target: str | None) -> Action:
    if kind == PLAY:
        return play(tile, target)
    return (DRAW_ACTION, PASS_ACTION, END_ACTION)[kind - 1]


_TARGET = re.compile(r"^(t\d+|mx|[lrud]\d*)$")


def parse_action(text: str, set_max: int = MAX_PIPS) -> Action:
    """Parse action text; raises IllegalAction naming what is malformed."""
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} is not an action")
    raw = text.strip().lower()
    special = _SPECIAL.get(raw)
    if special is not None:
        return special
    tile_part, sep, target = raw.partition(">")
    tile = parse_tile(tile_part, set_max)
    if not sep:
        return play(tile, None)
    target = target.strip()
    if not _TARGET.match(target):
        raise IllegalAction(
            f"{target!r} is not a target (use t0..t9 or mx for trains, L/R/U/D for line ends)"
        )
    if target[0] in "lrud":
        target = target.upper()
    return play(tile, target)
