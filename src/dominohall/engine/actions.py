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
from .tiles import MAX_PIPS, N_IDS, TEXT, parse_tile

PLAY, DRAW, PASS, END = 0, 1, 2, 3


class Action(str):
    """One move: play a tile on a target, or draw / pass / end.

    An action *is* its canonical text (a ``str``), so it compares equal to that
    text, hashes like it and serializes as it; ``kind``, ``tile`` and ``target``
    say what it does.  Instances are interned: build them with `play` or
    `parse_action`.
    """

    kind: int
    tile: int
    target: str | None
    #: (tile, target, line end): the line end is 0 for L, 1 for R (always the first two
    #: ends of a line), -1 for a lead, -2 for any other target; one attribute read
    #: for the engine's hot path
    play: tuple[int, str | None, int]

    def __new__(cls, kind: int, tile: int = -1, target: str | None = None) -> Action:
        if kind == PLAY:
            text = TEXT[tile] if target is None else f"{TEXT[tile]}>{target}"
        else:
            text = ("play", "draw", "pass", "end")[kind]
        self = super().__new__(cls, text)
        self.kind = kind
        self.tile = tile
        self.target = target
        self.play = (tile, target, _LINE_END.get(target, -2))
        return self

    @property
    def text(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Action({str.__repr__(self)})"

    def __reduce__(self) -> tuple[object, tuple[int, int, str | None]]:
        return (_intern, (self.kind, self.tile, self.target))


_LINE_END: dict[str | None, int] = {"L": 0, "R": 1, None: -1}
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


class _PlayTable(dict[str | None, list[Action]]):
    """PLAYS[target][tile]: the interned action playing `tile` on `target`."""

    def __missing__(self, target: str | None) -> list[Action]:
        row = self[target] = [play(t, target) for t in range(N_IDS)]
        return row


PLAYS = _PlayTable()


#: PLAYS_ON[target][mask]: the plays of the tiles in `mask` on `target`, ascending (lists
#: to read, never to change).  Plain dicts, so a lookup is the interpreter's fastest
#: subscript; `plays_on` fills them on a miss.
PLAYS_ON: dict[str | None, dict[int, list[Action]]] = {}
_MASKS_KEPT = 1 << 16       # per target: a line end's masks have at most 10 bits (double-9)


def plays_on(target: str | None, mask: int) -> list[Action]:
    """The plays of the tiles in `mask` on `target` (kept in PLAYS_ON for next time)."""
    table = PLAYS_ON.get(target)
    if table is None:
        table = PLAYS_ON[target] = {0: []}
    acts = table.get(mask)
    if acts is None:
        row, acts, m = PLAYS[target], [], mask
        while m:
            low = m & -m
            acts.append(row[low.bit_length() - 1])
            m ^= low
        if len(table) < _MASKS_KEPT:
            table[mask] = acts
    return acts


plays_on("L", 0)
plays_on("R", 0)


def _intern(kind: int, tile: int, target: str | None) -> Action:
    if kind == PLAY:
        return play(tile, target)
    return (DRAW_ACTION, PASS_ACTION, END_ACTION)[kind - 1]


_TARGET = re.compile(r"^(t\d+|mx|[lrud]\d*)$")


def parse_action(text: object, set_max: int = MAX_PIPS) -> Action:
    """Parse action text; raises IllegalAction naming what is malformed."""
    if isinstance(text, Action):
        return text
    if not isinstance(text, str):
        raise IllegalAction(f"{text!r} is not an action", "not_an_action", {"text": repr(text)})
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
            f"{target!r} is not a target (use t0..t9 or mx for trains, L/R/U/D for line ends)",
            "not_a_target", {"target": repr(target)})
    if target[0] in "lrud":
        target = target.upper()
    return play(tile, target)
