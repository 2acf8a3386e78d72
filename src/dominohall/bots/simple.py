"""The first rungs: `random` and `greedy`, for every game."""

from __future__ import annotations

import random

from .base import View, pips_of


class RandomBot:
    """A uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> str:
        return str(self.rng.choice(view["legal_actions"]))


class GreedyBot:
    """Plays the highest-pip legal tile; draws, passes or ends only when nothing else is legal."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> str:
        legal = view["legal_actions"]
        best = max(pips_of(a) for a in legal)
        return str(self.rng.choice([a for a in legal if pips_of(a) == best]))
