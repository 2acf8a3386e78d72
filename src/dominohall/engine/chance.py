"""Explicit chance: one seeded RNG per game, shared copy-on-write by clones.

Copying a ``random.Random`` state costs ~15 us, more than the rest of a clone;
most clones (search, sampling) never deal again, so a clone shares its parent's
RNG and whichever of them draws first takes its own copy.
"""

from __future__ import annotations

import random


class Chance:
    """The game's RNG; `fork()` is O(1), `rng()` copies only if shared."""

    __slots__ = ("_rng", "_shared")

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(seed)
        self._shared = False

    def fork(self) -> Chance:
        c = Chance.__new__(Chance)
        c._rng = self._rng
        c._shared = self._shared = True
        return c

    def shuffled(self, items: list[int]) -> list[int]:
        """A uniformly random order of `items` (sorting by random keys: faster than
        `random.shuffle`, which draws bits one item at a time)."""
        rnd = self.rng().random
        return sorted(items, key=lambda _: rnd())

    def rng(self) -> random.Random:
        """The RNG, private to this game, to draw from."""
        if self._shared:
            own = random.Random.__new__(random.Random)
            own.setstate(self._rng.getstate())
            self._rng = own
            self._shared = False
        return self._rng
