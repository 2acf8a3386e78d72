"""Tiles: ids, halves, pips, text.

A tile {a, b} with a >= b has the id ``a*(a+1)//2 + b``; the numbering does not
depend on the set, so the double-6 set is ids 0..27 and the double-12 set ids
0..90.  Hands and sets are int bitmasks over these ids.  Tiles always print high
half first: ``"12-5"``, ``"6-6"``, ``"0-0"``.

>>> tile_text(parse_tile("5-12"))
'12-5'
"""

from __future__ import annotations

from typing import Any, Final

from .errors import IllegalAction

#: A stacked first-round deck: tile ids per hand, and the boneyard top first.
StackedDeck = tuple[list[list[int]], list[int]]

MAX_PIPS: Final = 18
N_IDS: Final = (MAX_PIPS + 1) * (MAX_PIPS + 2) // 2

HIGH: Final[list[int]] = []
LOW: Final[list[int]] = []
for _a in range(MAX_PIPS + 1):
    for _b in range(_a + 1):
        HIGH.append(_a)
        LOW.append(_b)
PIPS: Final[list[int]] = [h + lo for h, lo in zip(HIGH, LOW)]
IS_DOUBLE: Final[list[bool]] = [h == lo for h, lo in zip(HIGH, LOW)]
TEXT: Final[list[str]] = [f"{h}-{lo}" for h, lo in zip(HIGH, LOW)]
BIT: Final[list[int]] = [1 << t for t in range(N_IDS)]

#: WITH_HALF[k]: bitmask of every tile (up to double-18) that has a half k.
WITH_HALF: Final[list[int]] = [0] * (MAX_PIPS + 1)
for _t in range(N_IDS):
    WITH_HALF[HIGH[_t]] |= BIT[_t]
    WITH_HALF[LOW[_t]] |= BIT[_t]

_BY_TEXT: Final[dict[str, int]] = {}
for _t in range(N_IDS):
    _BY_TEXT[TEXT[_t]] = _t
    _BY_TEXT[f"{LOW[_t]}-{HIGH[_t]}"] = _t


def tile_id(a: int, b: int) -> int:
    """The id of the tile with halves a and b (in either order)."""
    if a < b:
        a, b = b, a
    return a * (a + 1) // 2 + b


def double(k: int) -> int:
    """The id of the double k-k."""
    return k * (k + 3) // 2


def other_half(t: int, k: int) -> int:
    """The half of tile t that is not k (k itself for a double): the pips minus k.

    >>> other_half(tile_id(6, 4), 6), other_half(tile_id(6, 4), 4), other_half(tile_id(5, 5), 5)
    (4, 6, 5)
    """
    return PIPS[t] - k


def set_size(set_max: int) -> int:
    return (set_max + 1) * (set_max + 2) // 2


def parse_tile(text: Any, set_max: Any = MAX_PIPS) -> int:
    """Tile id of ``"a-b"``; raises IllegalAction for anything else.  (Arguments are
    checked here, not by annotations, so both builds raise the same errors.)"""
    if set_max.__class__ is not int:
        raise TypeError(f"set_max must be a whole number, not {set_max!r}")
    t = _BY_TEXT.get(text.strip()) if isinstance(text, str) else None
    if t is None:
        raise IllegalAction(f"{text!r} is not a tile (write it like '12-5')", "not_a_tile",
                            {"text": repr(text)})
    if HIGH[t] > set_max:
        raise IllegalAction(f"{TEXT[t]} is not in the double-{set_max} set", "not_in_set",
                            {"tile": TEXT[t], "set_max": set_max})
    return t


def tile_text(t: Any) -> str:
    """The text of tile id `t`, high half first; ValueError for anything but a tile id."""
    if t.__class__ is not int or not 0 <= t < N_IDS:
        raise ValueError(f"{t!r} is not a tile id (0..{N_IDS - 1})")
    return TEXT[t]


# Per byte of a bitmask: the ids and the pips of the tiles in it (byte k holds ids
# 8k..8k+7), so a hand is read 8 tiles at a time instead of bit by bit.
_BYTES: Final = (N_IDS + 7) // 8
_IDS_IN_BYTE: Final[list[list[tuple[int, ...]]]] = [
    [tuple(8 * k + i for i in range(8) if b >> i & 1 and 8 * k + i < N_IDS) for b in range(256)]
    for k in range(_BYTES)
]
_PIPS_IN_BYTE: Final[list[list[int]]] = [[sum(PIPS[t] for t in row[b]) for b in range(256)]
                                  for row in _IDS_IN_BYTE]


_TEXTS_IN_BYTE: Final[list[list[tuple[str, ...]]]] = [[tuple(map(TEXT.__getitem__, ids_))
                                                  for ids_ in row] for row in _IDS_IN_BYTE]


def _by_byte(mask: int, table: list[list[tuple[Any, ...]]]) -> list[Any]:
    out: list[Any] = []
    k = 0
    while mask:
        b = mask & 255
        if b:
            out += table[k][b]
        mask >>= 8
        k += 1
    return out


def ids(mask: int) -> list[int]:
    """Tile ids in a bitmask, ascending.

    >>> ids(BIT[3] | BIT[27] | BIT[9])
    [3, 9, 27]
    """
    return _by_byte(mask, _IDS_IN_BYTE)


def texts(mask: int) -> list[str]:
    """The texts of the tiles in a bitmask, ascending by id (a new list).

    >>> texts(BIT[3] | BIT[0])
    ['0-0', '2-0']
    """
    return _by_byte(mask, _TEXTS_IN_BYTE)


def mask_pips(mask: int) -> int:
    """The pips of the tiles in a bitmask.

    >>> mask_pips(BIT[tile_id(6, 6)] | BIT[tile_id(3, 1)])
    16
    """
    total = k = 0
    while mask:
        total += _PIPS_IN_BYTE[k][mask & 255]
        mask >>= 8
        k += 1
    return total
