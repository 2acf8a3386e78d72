"""Mexican Train bots above greedy: `doubles` and `planner` (views only)."""

from __future__ import annotations

import random

from ..engine import Action, Game
from ..engine.actions import END, END_ACTION, PLAY, parse_action
from ..engine.mexican_train import MexicanTrainState
from ..engine.tiles import BIT, HIGH, IS_DOUBLE, PIPS, WITH_HALF, ids
from ..solver import longest_train_ids
from .base import SeededBot, View, hand_mask, target_of, tile_of

#: hands bigger than this are planned on their heaviest tiles only (the exact solver's
#: time grows exponentially; 20 tiles take well under 5 ms)
PLAN_LIMIT = 20


def _own(view: View) -> str:
    return f"t{view['seat']}"


def _train(view: View, train_id: str) -> dict[str, object]:
    return next(t for t in view["trains"] if t["id"] == train_id)


class DoublesBot(SeededBot):
    """Greedy plus: plays a double it can follow, covers owed doubles cheaply, and dumps
    tiles that do not fit its own train on the Mexican train and open trains."""

    name = "doubles"

    def choose(self, view: View) -> str:
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


#: solved plans by (hand, open end), shared by every world, candidate and move of the
#: process (the searches' rollouts meet the same hands again and again): the work of one
#: move is reused by the next; at most `PLAN_CACHE` entries, the oldest dropped first
_PLANS: dict[tuple[int, int], tuple[int, ...]] = {}
PLAN_CACHE = 1 << 16


def plan_train(hand: int, open_end: int) -> list[int]:
    """The planned personal train: the exact longest chain (most tiles, then pips); a new
    list each call (callers spend it)."""
    key = (hand, open_end)
    plan = _PLANS.get(key)
    if plan is None:
        tiles = ids(hand)
        solve = hand
        if len(tiles) > PLAN_LIMIT:
            tiles = sorted(tiles, key=lambda t: -PIPS[t])[:PLAN_LIMIT]
            solve = sum(BIT[t] for t in tiles)
        plan = tuple(longest_train_ids(solve, open_end, "tiles"))
        if len(_PLANS) >= PLAN_CACHE:
            del _PLANS[next(iter(_PLANS))]
        _PLANS[key] = plan
    return list(plan)


def plan_still_good(chain: list[int], hand: int, open_end: int) -> bool:
    """A kept plan is still playable: its tiles are in hand and it starts at the open end."""
    if not chain:
        return False
    if not WITH_HALF[open_end] >> chain[0] & 1:
        return False
    return all(hand >> t & 1 for t in chain)


def planner_choice(legal: list[Action], hand: int, own: str, chain: list[int], *,
                   marker: bool, in_chain: bool, started: bool, rng: random.Random) -> Action:
    """The planner's rule, shared by the bot (on views) and its rollouts (on worlds)."""
    if len(legal) == 1:
        return legal[0]
    plan = set(chain)
    first = chain[0] if chain else -1
    next_on_plan = [a for a in legal if a.tile == first and a.target == own]
    # a marker on our train, or a first-turn chain: build our own train first
    if next_on_plan and (marker or in_chain or not started):
        return next_on_plan[0]
    if not next_on_plan and any(a.kind == END for a in legal):
        return END_ACTION
    plays = [a for a in legal if a.kind == PLAY]
    off = [a for a in plays if a.tile not in plan]
    if off:   # shed off-plan tiles, heaviest first (a double we can follow first)
        def key(a: Action) -> tuple[int, int, float]:
            t = a.tile
            follow = 1 if IS_DOUBLE[t] and hand & ~BIT[t] & WITH_HALF[HIGH[t]] else 0
            return (follow, PIPS[t], rng.random())
        return max(off, key=key)
    if next_on_plan:
        return next_on_plan[0]
    if plays:   # forced to break the plan (an owed double, a double to follow): use its end
        position = {t: i for i, t in enumerate(chain)}
        return max(plays, key=lambda a: (position.get(a.tile, -1), PIPS[a.tile]))
    return legal[0]


class PlannerBot(SeededBot):
    """Plans its personal train with the exact solver (most tiles, then most pips, from
    the train's open end), keeps the plan intact, sheds off-plan tiles heaviest first on
    the other trains, and replans every move (after every draw or disruption)."""

    name = "planner"

    def choose(self, view: View) -> str:
        legal = [parse_action(a) for a in view["legal_actions"]]
        own = _own(view)
        train = _train(view, own)
        hand = hand_mask(view)
        chain = plan_train(hand, int(train["open_end"]))  # type: ignore[call-overload]
        return str(planner_choice(legal, hand, own, chain, marker=bool(train["marker"]),
                                  in_chain=bool(view["turn"]["chain"]),
                                  started=bool(train["started"]), rng=self.rng))


class PlannerRollout:
    """The planner as a fast policy on a (sampled) world's state, keeping each seat's plan
    until it breaks instead of solving every move."""

    def __init__(self) -> None:
        self.plans: dict[int, list[int]] = {}

    def __call__(self, game: Game, rng: random.Random) -> Action:
        st = game.state
        assert isinstance(st, MexicanTrainState)
        legal = st.legal()
        if len(legal) == 1:
            return legal[0]
        p = st.current
        hand, end = st.hands[p], st.ends[p]
        chain = self.plans.get(p, [])
        if not plan_still_good(chain, hand, end):
            chain = self.plans[p] = plan_train(hand, end)
        a = planner_choice(legal, hand, f"t{p}", chain, marker=bool(st.markers >> p & 1),
                           in_chain=st.chain, started=bool(st.trains[p]), rng=rng)
        if chain and a.tile == chain[0] and a.target == f"t{p}":
            chain.pop(0)
        return a


__all__ = ["DoublesBot", "PlannerBot", "PlannerRollout", "plan_train", "planner_choice"]
