"""Mexican Train bots above greedy: `doubles` and `planner` (views only)."""

from __future__ import annotations

import random

from ..engine.tiles import BIT, HIGH, IS_DOUBLE, PIPS, WITH_HALF, ids
from ..solver import longest_train_ids
from .base import View, hand_mask, only_or_none, target_of, tile_of

#: hands bigger than this are planned on their heaviest tiles only (the exact solver's
#: time grows exponentially; 20 tiles take well under 5 ms)
PLAN_LIMIT = 20


def _own(view: View) -> str:
    return f"t{view['seat']}"


def _train(view: View, train_id: str) -> dict[str, object]:
    return next(t for t in view["trains"] if t["id"] == train_id)


class DoublesBot:
    """Greedy plus: plays a double it can follow, covers owed doubles cheaply, and dumps
    tiles that do not fit its own train on the Mexican train and open trains."""

    name = "doubles"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> str:
        forced = only_or_none(view)
        if forced is not None:
            return forced
        legal = view["legal_actions"]
        hand = hand_mask(view)
        own = _own(view)
        own_end = int(_train(view, own)["open_end"])  # type: ignore[call-overload]
        best, best_score = legal[0], -1e9
        for a in legal:
            score = self.score(a, hand, own, own_end, bool(view["owed"]))
            if score > best_score or (score == best_score and self.rng.random() < 0.5):
                best, best_score = a, score
        return str(best)

    @staticmethod
    def score(a: str, hand: int, own: str, own_end: int, covering: bool) -> float:
        t = tile_of(a)
        if t < 0:
            return -1000.0 if a != "end" else -500.0     # keep playing a chain while it helps
        pips = PIPS[t]
        target = target_of(a)
        rest = hand & ~BIT[t]
        if IS_DOUBLE[t]:
            followers = rest & WITH_HALF[HIGH[t]]
            return pips + (40 if followers else -30)
        if covering:
            # cheap cover: a tile we do not need for our own train, then the heaviest
            need = bool(WITH_HALF[own_end] & BIT[t]) and target != own
            return pips - (15 if need else 0)
        spare = not WITH_HALF[own_end] & BIT[t]
        if target != own and spare:
            return pips + 10
        return pips


class PlannerBot:
    """Plans its personal train with the exact solver (most tiles, then most pips, from
    the train's open end), keeps the plan intact, sheds off-plan tiles heaviest first on
    the other trains, and replans every move (after every draw or disruption)."""

    name = "planner"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @staticmethod
    def plan(hand: int, open_end: int) -> list[int]:
        tiles = ids(hand)
        if len(tiles) > PLAN_LIMIT:
            tiles = sorted(tiles, key=lambda t: -PIPS[t])[:PLAN_LIMIT]
            hand = sum(BIT[t] for t in tiles)
        return longest_train_ids(hand, open_end, "tiles")

    def act(self, view: View) -> str:
        forced = only_or_none(view)
        if forced is not None:
            return forced
        legal = [str(a) for a in view["legal_actions"]]
        own = _own(view)
        train = _train(view, own)
        hand = hand_mask(view)
        chain = self.plan(hand, int(train["open_end"]))  # type: ignore[call-overload]
        plan = set(chain)
        by_tile: dict[int, list[str]] = {}
        for a in legal:
            by_tile.setdefault(tile_of(a), []).append(a)
        next_on_plan = [a for a in by_tile.get(chain[0], []) if target_of(a) == own] \
            if chain else []
        # a marker on our train, or a first-turn chain: build our own train first
        if next_on_plan and (train["marker"] or view["turn"]["chain"] or not train["started"]):
            return next_on_plan[0]
        if "end" in legal and not next_on_plan:
            return "end"
        # shed off-plan tiles, heaviest first, anywhere but breaking the plan
        off = [a for a in legal if tile_of(a) >= 0 and tile_of(a) not in plan]
        if off:
            return self._heaviest(off, prefer_double_follow=hand)
        if next_on_plan:
            return next_on_plan[0]
        plays = [a for a in legal if tile_of(a) >= 0]
        if plays:   # forced to break the plan (an owed double, a double to follow)
            return self._cheapest_break(plays, chain)
        return legal[0]

    def _heaviest(self, acts: list[str], prefer_double_follow: int) -> str:
        def key(a: str) -> tuple[int, int, float]:
            t = tile_of(a)
            follow = 1 if IS_DOUBLE[t] and prefer_double_follow & ~BIT[t] & WITH_HALF[HIGH[t]] \
                else 0
            return (follow, PIPS[t], self.rng.random())
        return max(acts, key=key)

    def _cheapest_break(self, acts: list[str], chain: list[int]) -> str:
        """Break the plan as late as possible: use its last tiles first."""
        position = {t: i for i, t in enumerate(chain)}
        return max(acts, key=lambda a: (position.get(tile_of(a), -1), PIPS[tile_of(a)]))


__all__ = ["DoublesBot", "PlannerBot"]
