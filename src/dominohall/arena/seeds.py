"""Seeds derived from the arena seed: stable across processes, machines and Python runs.

`hash()` is salted per process, so seeds come from SHA-256 of the parts instead.

>>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
True
"""

from __future__ import annotations

import hashlib


def derive(*parts: object) -> int:
    """A 62-bit seed from any printable parts, e.g. ``derive(seed, "deal", k)``."""
    text = "\x1f".join(repr(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 2


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal `deal`: the engine's own RNG then fixes every round's tiles."""
    return derive(seed, "deal", deal)


def bot_seed(seed: int, deal: int, seat: int) -> int:
    """The seed of the bot sitting in `seat` for deal `deal` (whichever bot it is)."""
    return derive(seed, "bot", deal, seat)
