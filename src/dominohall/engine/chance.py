"""Explicit chance: one seeded RNG per game, shared copy-on-write by clones.

Copying a ``random.Random`` state costs ~15 us, more than the rest of a clone;
most clones (search, sampling) never deal again, so a clone shares its parent's
RNG and whichever of them draws first takes its own copy.
"""

from __future__ import annotations

import random

from .tiles import BIT, StackedDeck


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

    def deal(self, deck: list[int], players: int, hand_size: int,
             stacked: StackedDeck | None = None) -> tuple[list[int], list[int]]:
        """Hands (bitmasks) and the boneyard (top last) from a shuffle of `deck`, or from a
        stacked deck (hands, boneyard top first) when one is given."""
        if stacked is not None:
            hand_lists, top_first = stacked
            return [sum(map(BIT.__getitem__, h)) for h in hand_lists], top_first[::-1]
        deck = self.shuffled(deck)
        h = hand_size
        hands = [sum(map(BIT.__getitem__, deck[s * h:(s + 1) * h])) for s in range(players)]
        return hands, deck[players * h:]

    def rng(self) -> random.Random:
        """The RNG, private to this game, to draw from."""
        if self._shared:
            own = random.Random.__new__(random.Random)
            own.setstate(self._rng.getstate())
            self._rng = own
            self._shared = False
        return self._rng
