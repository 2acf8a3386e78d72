"""The rollout rule of the top Mexican Train bot (`bots.train`), on a world's state: a
module of its own so that mypyc compiles it (setup.py's ``COMPILED_BOTS``; the same moves
as interpreted, tests/bots run on both builds).  The rule is described in `bots.train`.
"""

from __future__ import annotations

import random

from ..engine import Action
from ..engine.actions import END, END_ACTION, PLAY
from ..engine.tiles import BIT, HIGH, IS_DOUBLE, PIPS, WITH_HALF
from .mexican import plan_still_good, plan_train


def _facts(st: object, p: int) -> tuple[int, int, bool, bool, bool, list[int]]:
    """Seat `p` in a world's state: hand mask, own open end, marker on its train, inside a
    first-turn chain, own train started, and every seat's hand size."""
    hands = st.hands  # type: ignore[attr-defined]
    return (hands[p], st.ends[p], bool(st.markers >> p & 1),  # type: ignore[attr-defined]
            bool(st.chain), bool(st.trains[p]),  # type: ignore[attr-defined]
            [h.bit_count() for h in hands])


def train_choice(legal: list[Action], p: int, hand: int, chain: list[int], *, marker: bool,
                 in_chain: bool, started: bool, sizes: list[int], dump_at: int,
                 rng: random.Random) -> Action:
    """The rollout rule of `TrainBot` for seat `p` (see the module docstring)."""
    if len(legal) == 1:
        return legal[0]
    own = f"t{p}"
    plays = [a for a in legal if a.kind == PLAY]
    first = chain[0] if chain else -1
    next_on_plan = [a for a in plays if a.tile == first and a.target == own]
    if next_on_plan and (marker or in_chain or not started):
        return next_on_plan[0]
    if not next_on_plan and any(a.kind == END for a in legal):
        return END_ACTION
    if not plays:
        return legal[0]
    rest = [h for s, h in enumerate(sizes) if s != p]
    if rest and min(rest) <= dump_at:
        # the round may end any moment: shed pips (a double we can follow first)
        def heavy(a: Action) -> tuple[int, int, int, float]:
            t = a.tile
            follow = 1 if IS_DOUBLE[t] and hand & ~BIT[t] & WITH_HALF[HIGH[t]] else 0
            return (follow, PIPS[t], 0 if a.target == own else 1, rng.random())
        return max(plays, key=heavy)
    plan = set(chain)
    off = [a for a in plays if a.tile not in plan and a.target != own]
    if off:
        n_off = len({a.tile for a in off})

        def key(a: Action) -> tuple[int, int, int, float]:
            t = a.tile
            follow = hand & ~BIT[t] & WITH_HALF[HIGH[t]]
            if IS_DOUBLE[t]:
                good = 2 if follow else (0 if n_off > 1 else 1)
            else:
                good = 1
            where = 2 if a.target == "mx" else 1      # the Mexican train first
            return (good, PIPS[t], where, rng.random())
        return max(off, key=key)
    if next_on_plan:
        return next_on_plan[0]
    # forced off the plan (an owed double, or only own-train plays of off-plan tiles):
    # spend the plan's last tiles first
    position = {t: i for i, t in enumerate(chain)}
    return max(plays, key=lambda a: (a.tile not in plan, position.get(a.tile, -1),
                                     PIPS[a.tile]))


class TrainRollout:
    """`train_choice` on a world's state, keeping each seat's plan until it breaks."""

    def __init__(self, dump_at: int = 2) -> None:
        self.plans: dict[int, list[int]] = {}
        self.dump_at = dump_at

    def __call__(self, st: object, rng: random.Random) -> Action:
        legal: list[Action] = st.legal()  # type: ignore[attr-defined]
        if len(legal) == 1:
            return legal[0]
        p = st.current  # type: ignore[attr-defined]
        hand, end, marker, in_chain, started, sizes = _facts(st, p)
        chain = self.plans.get(p, [])
        if not plan_still_good(chain, hand, end):
            chain = self.plans[p] = plan_train(hand, end)
        a = train_choice(legal, p, hand, chain, marker=marker, in_chain=in_chain,
                         started=started, sizes=sizes, dump_at=self.dump_at, rng=rng)
        if chain and a.tile == chain[0] and a.target == f"t{p}":
            chain.pop(0)
        return a


__all__ = ["TrainRollout", "train_choice"]
