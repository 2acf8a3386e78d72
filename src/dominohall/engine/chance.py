"""Explicit chance: every random draw of a game is a pure function of its seed.

The n-th draw of a game (a shuffle, a leader) hashes ``(seed, n)`` with SHAKE-256
(BLAKE2b for a single number) and reads its bytes as random numbers: a counter-based
generator.  It replaces a
seeded ``random.Random``, whose seeding alone (3.6 us) cost more than the rest of a
deal, and it makes clones free: a clone copies two fields, where copying a Mersenne
Twister's state cost ~15 us.  The same seed always gives the same deals, on every
platform and Python version (the hash is fixed by FIPS 202).

>>> Chance(7).shuffled([0, 1, 2, 3, 4]) == Chance(7).shuffled([0, 1, 2, 3, 4])
True
>>> Chance(7).shuffled(list(range(28))) != Chance(8).shuffled(list(range(28)))
True
"""

from __future__ import annotations

import random
from hashlib import blake2b, shake_256

from .tiles import BIT, StackedDeck

_LOW_6_BITS = bytes(b & 0x3F for b in range(256))


class Chance:
    """The game's source of randomness: its seed and how many draws it has made."""

    __slots__ = ("_key", "_draws")

    def __init__(self, seed: int | str, _draws: int = 0, _key: bytes = b"") -> None:
        # an int and its decimal text are different seeds; (_draws, _key): a fork
        self._key = _key or (b"s" + seed.encode() if isinstance(seed, str)
                             else b"i%d" % seed) + b"/"
        self._draws = _draws

    def fork(self) -> Chance:
        """An independent copy that will make the same draws from here on."""
        return Chance(0, self._draws, self._key)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Chance, (0, self._draws, self._key))     # compiled classes need it

    def _keys(self, n: int) -> list[int]:
        """The next draw: n random 30-bit numbers (below 2**30 an int is one machine word
        for CPython, which sorts them fastest)."""
        self._draws += 1
        buf = bytearray(shake_256(self._key + b"%d" % self._draws).digest(4 * n))
        buf[3::4] = buf[3::4].translate(_LOW_6_BITS)      # little-endian: the top byte
        return memoryview(buf).cast("I").tolist()

    def randrange(self, n: int) -> int:
        """A uniform number in 0..n-1 (the bias of reducing 64 bits is below 2**-58)."""
        self._draws += 1
        word = blake2b(self._key + b"%d" % self._draws, digest_size=8).digest()
        return int.from_bytes(word, "little") % n

    def permutation(self, n: int) -> list[int]:
        """A uniformly random order of 0..n-1, sorted by random 30-bit keys.  Two keys tie
        with chance below 4e-6 for 91 tiles (4e-7 for 28); a tie keeps the smaller number
        first."""
        return sorted(range(n), key=self._keys(n).__getitem__)

    def shuffled(self, items: list[int]) -> list[int]:
        """A uniformly random order of `items`."""
        return list(map(items.__getitem__, self.permutation(len(items))))

    def deal(self, deck: list[int] | int, players: int, hand_size: int,
             stacked: StackedDeck | None = None,
             choose: int = 0) -> tuple[list[int], list[int], int]:
        """Hands (bitmasks) and the boneyard (top last) from a shuffle of `deck` (a list of
        tile ids, or n for the ids 0..n-1), or from a stacked deck (hands, boneyard top
        first) when one is given; and, with `choose` > 0, a uniform number below it drawn
        with the shuffle (e.g. who leads; -1 without `choose`)."""
        chosen = -1
        if stacked is not None:
            hand_lists, top_first = stacked
            if choose:
                chosen = self.randrange(choose)
            return ([sum(map(BIT.__getitem__, h)) for h in hand_lists], top_first[::-1],
                    chosen)
        if isinstance(deck, int) and choose:
            keys = self._keys(deck + 1)            # the last key is not sorted: it chooses
            order = sorted(range(deck), key=keys.__getitem__)
            chosen = keys[deck] % choose           # bias below 2**-27 for choose <= 4
        elif isinstance(deck, int):
            order = self.permutation(deck)
        else:
            order = self.shuffled(deck)
            if choose:
                chosen = self.randrange(choose)
        hands = []
        for start in range(0, players * hand_size, hand_size):
            hand = 0
            for t in order[start:start + hand_size]:    # a plain loop: as fast as
                hand |= BIT[t]                          # sum(map(...)) interpreted, and
            hands.append(hand)                          # native int ops when compiled
        return hands, order[players * hand_size:], chosen


class LegacyChance(Chance):
    """The chance of version-1 records (dominohall before 2026-11-30): a seeded
    ``random.Random``, the leader drawn before the deal, shuffles by sorting on
    ``random()`` keys.  Kept so that saved games and stored tables still replay."""

    __slots__ = ("_rng", "_shared")

    def __init__(self, seed: int | str, _rng: random.Random | None = None) -> None:
        self._rng = random.Random(seed) if _rng is None else _rng
        self._shared = _rng is not None           # a fork shares its parent's generator

    def fork(self) -> LegacyChance:
        self._shared = True                       # copy-on-write: the first to draw copies
        return LegacyChance(0, self._rng)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (LegacyChance, (0, self._own()))

    def _own(self) -> random.Random:
        if self._shared:
            own = random.Random.__new__(random.Random)
            own.setstate(self._rng.getstate())
            self._rng = own
            self._shared = False
        return self._rng

    def randrange(self, n: int) -> int:
        return self._own().randrange(n)

    def permutation(self, n: int) -> list[int]:
        return self.shuffled(list(range(n)))

    def shuffled(self, items: list[int]) -> list[int]:
        rnd = self._own().random
        return sorted(items, key=lambda _: rnd())

    def deal(self, deck: list[int] | int, players: int, hand_size: int,
             stacked: StackedDeck | None = None,
             choose: int = 0) -> tuple[list[int], list[int], int]:
        # version 1 drew the leader first, then shuffled
        chosen = self.randrange(choose) if choose else -1
        hands, boneyard, _ = super().deal(deck, players, hand_size, stacked)
        return hands, boneyard, chosen
