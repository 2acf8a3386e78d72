"""Random games for tests: every legal action equally likely, seeded."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import dominohall


def random_play(g: dominohall.Game, seed: int, moves: int) -> Iterator[dominohall.Game]:
    """`g` before each of up to `moves` random legal actions (the same object, advanced
    when the next one is asked for)."""
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            return
        yield g
        g.apply(rng.choice(g.legal_actions()))


def random_states(name: str, players: int, options: dict[str, Any], seed: int,
                  moves: int) -> Iterator[dominohall.Game]:
    """A new game of `name` (seeded with `seed`) before each of up to `moves` random moves."""
    return random_play(dominohall.new_game(name, players=players, seed=seed, options=options),
                       seed, moves)


def random_game(name: str, players: int, options: dict[str, Any], seed: int,
                moves: int) -> dominohall.Game:
    """A new game of `name` after up to `moves` random legal actions."""
    g = dominohall.new_game(name, players=players, seed=seed, options=options)
    for _ in random_play(g, seed, moves):
        pass
    return g
