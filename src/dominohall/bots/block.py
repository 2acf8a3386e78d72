"""Block and Draw bots of their own: `blocker` (the mid rung) and `deep` (the top).

* `blocker`: one rule (`endgame.mid_score`) from the view alone: shed heavy tiles and
  doubles, keep tiles that fit the ends it leaves, leave ends the next rival showed it
  lacks (a pass proves it), never shut out its partner, hold a suit (leave a number it
  has many of and few unseen tiles can follow).
* `deep`: determinized search.  Worlds are sampled from the view (`sample_hands`:
  sizes, seen tiles, shown voids) and weighted by how likely each other player's plays
  were in that world (`inference.PlayHistory`: sharpness `beta`, default 0.25, a
  double's bonus `double`, default 4 pips, the chance `lapse`, default 0, that a play
  follows no rule, `partner_beta` for our partner's plays, default `beta`; ``weights=false``
  weighs every world the same).  In each world every candidate play is
  valued exactly by alpha-beta (`endgame.Solver`, our side's points minus the rivals',
  partnerships as one side) once at most `solve_tiles` (default 18) tiles are left in
  the hands and nobody can draw, and by a rollout before that (``rollout=heavy``: every
  seat sheds its heaviest playable tile; ``rollout=double``, the default: the heaviest
  double first, then the heaviest tile; ``rollout=mid``: the `blocker` rule, slower).
  The play with the best weighted mean wins.

  Work, by default: a move searches exactly `worlds` worlds once it solves (default
  `DEFAULT_WORLDS`) and `early_worlds` before that (default `DEFAULT_EARLY_WORLDS`;
  ``worlds=N`` alone sets both), calibrated once to the target cost (<= 50 ms a move),
  so the same seed and view give the same move under any load.  A time limit is only a
  safety cap there: past ``cap_ms`` of this thread's CPU time (default `search.CAP_MS`)
  an exact search stops and
  the move is chosen on the worlds done (at least `min_worlds`).

  Time, as an option: ``budget_ms=T`` bounds a move's search once it solves; `early_ms`
  (default: the same) bounds the rollout moves before that, so the time goes where
  it pays; `max_worlds` (0: no cap) stops an exact-search move once that many worlds
  are solved (cheap endgames need no more).  The clock starts when `choose` is called;
  each exact search stops at the deadline (read every 256 positions) and its world is
  dropped, so only `min_worlds` (default 4) may run past it, and those are rollouts.  ``clock=cpu``
  counts the budget in this process's CPU time instead of wall time (fair matches on a
  shared machine).  `last_search` tells how many worlds the last choice searched and
  solved.

  ``leaf_tiles=N`` (0: off) cuts a ``double`` rollout at N tiles left in the hands and
  solves the rest exactly.  ``stop_z=Z`` (0: off) ends a clocked search early, checked
  every 8 worlds from 16 on, once the leader is ahead of every other play by more than
  Z standard errors of the paired difference over the same weighted worlds, or (with
  ``close=C``) every play is within C points of it at that confidence: the time goes
  to the moves still in doubt.  `match_bonus` (default 100) is what ending a match as
  its winner is worth on top of the points (it is every hand with ``hands=1``): high,
  the search plays to win the hand; 0, for the most points a hand.

  `scoring`: ``rules`` (RULES.md B6: a side scores its opponents' pips) or ``all``
  (the winning side scores every hand's pips left, its own and its partner's too: the
  scoring of the `dominoes` package's partnership game, for matches in that game).

  Games the model does not cover (All Fives, a spinner) and Mexican Train go to `pimc`
  with the same budget.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..engine.actions import parse_action
from ..engine.options import resolve_options
from ..engine.sampling import sample_hands
from ..engine.tiles import BIT, parse_tile
from . import inference
from .base import SeededBot, View, hand_mask, pips_of
from .endgame import (
    SCORINGS,
    LineHand,
    NodeLimit,
    Solver,
    applicable,
    double_policy,
    double_rollout,
    heavy_policy,
    mid_policy,
    mid_score,
    rollout,
)
from .inference import BETA, DOUBLE_BONUS, PlayHistory, lacks
from .pimc import MATCH_BONUS, PimcBot
from .search import CAP_CLOCK, CAP_MS

#: worlds a move by default once the hand is solved exactly, and before that (rollouts),
#: calibrated once to <= 50 ms a move (`benchmarks/bots.py`, the README's Bots section)
#: (compiled: 27 ms of CPU a move on average in 4-player partnership Block, one hand,
#: against `blocker`, with the exact search from 18 tiles and ``double`` rollouts, the
#: tuned time setting's choices; `benchmarks/work_cost.py`)
DEFAULT_WORLDS = 96
DEFAULT_EARLY_WORLDS = 150


def _hand_from_view(view: View, opts: Any, hands: list[int], boneyard: list[int],
                    scoring: str = "rules") -> LineHand:
    ends = view["layout"]["ends"]
    a, b = (int(ends[0]["value"]), int(ends[1]["value"])) if ends else (-1, -1)
    masks = [0] * opts.players
    for seat, numbers in lacks(view).items():
        for v in numbers:
            masks[seat] |= 1 << v
    last = bool(opts.hands) and view["round"] >= opts.hands
    return LineHand(opts, hands, a, b, view["current_seat"], boneyard, masks,
                    list(view["scores"]), last, scoring)


def _candidates(view: View) -> dict[tuple[int, int], str]:
    """Our distinct plays as (tile, end: -1 lead, 0 the L end, 1 the R end) -> text;
    with both ends equal, one text per tile."""
    out: dict[tuple[int, int], str] = {}
    ends = view["layout"]["ends"]
    same = len(ends) == 2 and ends[0]["value"] == ends[1]["value"]
    for text in view["legal_actions"]:
        a = parse_action(str(text))
        if a.tile < 0:
            continue
        end = -1 if a.target is None else (0 if a.target == "L" or same else 1)
        out.setdefault((a.tile, end), str(text))
    return out


class BlockerBot(SeededBot):
    """The mid rung of Block and Draw (All Fives: the `fives` rule is better there)."""

    name = "blocker"

    def choose(self, view: View) -> str:
        opts = resolve_options(view["game"], view["players"], view["options"])
        plays = _candidates(view)
        if not plays or not applicable(opts):
            return _heaviest(view, self.rng)
        seat = view["seat"]
        hands = [0] * opts.players
        hands[seat] = hand_mask(view)
        unseen = 0
        for text in inference.unseen(view):
            unseen |= BIT[parse_tile(text)]
        h = _hand_from_view(view, opts, hands, [])
        best = max(plays, key=lambda m: mid_score(h, seat, m[0], m[1], unseen)
                   + 0.01 * self.rng.random())
        return plays[best]


def _settled(values: list[list[float]], log_weights: list[float], z: float,
             close: float) -> bool:
    """Whether more worlds would hardly change the choice: the weighted mean's leader is
    ahead of every other candidate by more than `z` standard errors of the paired
    difference (the same worlds value both), or every candidate is within `close`
    points of the leader with that confidence (then the choice matters little)."""
    top = max(log_weights)
    w = [math.exp(lw - top) for lw in log_weights]
    sw = sum(w)
    n_eff = sw * sw / sum(x * x for x in w)
    if n_eff < 8:
        return False
    k = len(values[0])
    means = [sum(wi * row[i] for wi, row in zip(w, values)) / sw for i in range(k)]
    best = max(range(k), key=lambda i: means[i])
    ahead = near = True
    for j in range(k):
        if j == best:
            continue
        d = means[best] - means[j]
        var = sum(wi * (row[best] - row[j] - d) ** 2 for wi, row in zip(w, values)) / sw
        se = math.sqrt(var / n_eff)
        if d <= z * se:
            ahead = False
        if d + z * se >= close:
            near = False
        if not ahead and not near:
            return False
    return True


def _heaviest(view: View, rng: random.Random) -> str:
    legal = [str(a) for a in view["legal_actions"]]
    return max(legal, key=lambda a: (pips_of(a), rng.random()))


#: rollout policies by name: the `blocker` rule, the heaviest tile (cheaper), or the
#: heaviest double first
ROLLOUTS = {"mid": mid_policy, "heavy": heavy_policy, "double": double_policy}


class DeepBot(SeededBot):
    """The top rung of Block and Draw (see the module docstring)."""

    name = "deep"

    def __init__(self, seed: int = 0, budget_ms: float | None = None, min_worlds: int = 4,
                 solve_tiles: int = 18, beta: float = BETA, weights: bool = True,
                 match_bonus: float = MATCH_BONUS, worlds: int | None = None,
                 rollout: str = "double", clock: str = "wall", early_ms: float | None = None,
                 max_worlds: int = 0, scoring: str = "rules", leaf_tiles: int = 0,
                 stop_z: float = 0.0, close: float = 0.0, double: float = DOUBLE_BONUS,
                 lapse: float = 0.0, partner_beta: float | None = None,
                 early_worlds: int | None = None, cap_ms: float = CAP_MS) -> None:
        super().__init__(seed)
        if clock not in ("wall", "cpu"):
            raise TypeError(f"clock={clock!r}: choose wall or cpu")
        self.clock = time.process_time if clock == "cpu" else time.perf_counter
        if rollout not in ROLLOUTS:
            raise TypeError(f"rollout={rollout!r}: choose from {', '.join(ROLLOUTS)}")
        if scoring not in SCORINGS:
            raise TypeError(f"scoring={scoring!r}: choose from {', '.join(SCORINGS)}")
        self.policy = ROLLOUTS[rollout]
        timed = worlds is None and early_worlds is None and (
            budget_ms is not None or early_ms is not None)
        if not timed:
            if worlds is None and early_worlds is None:
                worlds, early_worlds = DEFAULT_WORLDS, DEFAULT_EARLY_WORLDS
            worlds = DEFAULT_WORLDS if worlds is None else int(worlds)
            early_worlds = worlds if early_worlds is None else int(early_worlds)
        self.worlds = worlds
        self.early_worlds = early_worlds
        for key, n in (("worlds", worlds), ("early_worlds", early_worlds)):
            if n is not None and n < 1:
                raise TypeError(f"{key}={n}: at least 1")
        self.budget_ms = 100.0 if budget_ms is None else float(budget_ms)
        self.early_ms = self.budget_ms if early_ms is None else min(float(early_ms),
                                                                    self.budget_ms)
        if float(cap_ms) <= 0:
            raise TypeError(f"cap_ms={cap_ms!r}: a positive number of milliseconds")
        self.cap_ms = float(cap_ms)
        self.cap_clock = CAP_CLOCK
        self.min_worlds = int(min_worlds)
        self.max_worlds = int(max_worlds)
        self.solve_tiles = int(solve_tiles)
        self.beta = float(beta)
        self.weights = bool(weights)
        self.double = float(double)
        self.lapse = float(lapse)
        self.partner_beta = None if partner_beta is None else float(partner_beta)
        if not 0.0 <= self.lapse < 1.0:
            raise TypeError(f"lapse={lapse}: from 0 up to (not including) 1")
        self.match_bonus = float(match_bonus)
        self.scoring = scoring
        self.leaf_tiles = int(leaf_tiles)
        self.stop_z = float(stop_z)
        self.close = float(close)
        for key in ("min_worlds", "max_worlds", "solve_tiles", "leaf_tiles", "stop_z",
                    "close", "beta", "double", "partner_beta"):
            if (getattr(self, key) or 0) < 0:
                raise TypeError(f"{key}={getattr(self, key)}: 0 or more")
        self.fallback = PimcBot(seed=seed, budget_ms=self.budget_ms) if timed else \
            PimcBot(seed=seed, samples=worlds, min_samples=1, cap_ms=cap_ms)
        self.fallback.rng = self.rng
        #: what the last Block/Draw choice searched: worlds, how many solved exactly
        self.last_search: dict[str, int] = {}

    def choose(self, view: View) -> str:
        fixed = self.worlds is not None
        # a work budget reads only its safety cap's clock (this thread's CPU time)
        clock = self.cap_clock if fixed else self.clock
        started = clock()               # the budget counts from here, reading included
        opts = resolve_options(view["game"], view["players"], view["options"])
        plays = _candidates(view) if view["game"] != "mexican_train" else {}
        if not plays or not applicable(opts):
            return self.fallback.choose(view)
        if len(plays) == 1:
            return next(iter(plays.values()))
        tiles_left = sum(view["hand_sizes"])
        solving = tiles_left <= self.solve_tiles
        budget = self.budget_ms if solving else self.early_ms
        # a work budget's only deadline is its safety cap
        deadline = started + (self.cap_ms if fixed else budget) / 1000.0
        n_fixed = (self.worlds if solving else self.early_worlds) or 0
        cap = self.max_worlds if self.max_worlds > 0 and solving else None
        seat = view["seat"]
        history = PlayHistory(view, self.beta, self.double, self.lapse, self.partner_beta) \
            if self.weights else None
        candidates = list(plays)
        totals = [0.0] * len(candidates)
        weight_sum = 0.0
        worlds = solved = 0
        log_weights: list[float] = []
        values: list[list[float]] = []
        while (worlds < n_fixed and (worlds < self.min_worlds or clock() < deadline)) \
                if fixed else (worlds < self.min_worlds or (
                    clock() < deadline and (cap is None or worlds < cap))):
            hands, boneyard = sample_hands(view, self.rng)
            h = _hand_from_view(view, opts, hands, boneyard, self.scoring)
            row: list[float] | None = None
            if solving and not h.drawable():
                try:
                    row = Solver(h, seat, self.match_bonus, deadline=deadline,
                                 clock=clock).root(candidates)
                    solved += 1
                except NodeLimit:
                    row = None
                    if worlds >= self.min_worlds:
                        break           # out of time: what was searched decides
            if row is None:
                world_seed = self.rng.randrange(2 ** 32)
                row = []
                for t, end in candidates:
                    row.append(self._rollout_value(h, seat, t, end, world_seed, deadline))
            values.append(row)
            log_weights.append(history.log_weight(hands, seat) if history else 0.0)
            worlds += 1
            if self.stop_z and not fixed and worlds >= 16 and not worlds % 8 and \
                    _settled(values, log_weights, self.stop_z, self.close):
                break
        top = max(log_weights)
        for lw, row in zip(log_weights, values):
            w = math.exp(lw - top)
            weight_sum += w
            for i, v in enumerate(row):
                totals[i] += w * v
        self.last_search = {"worlds": worlds, "solved": solved}
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return plays[candidates[best]]

    def _rollout_value(self, h: LineHand, seat: int, t: int, end: int, world_seed: int,
                       deadline: float | None) -> float:
        """One candidate's value in one world by a rollout (the same random numbers for
        every candidate); with `leaf_tiles`, the ``double`` rollout stops at that many
        tiles and the rest is solved exactly."""
        c = h.copy()
        c.play(t, end)
        if not c.hands[seat]:
            return c.value(c.points(seat), seat, self.match_bonus)
        c.cur = (seat + 1) % c.n
        rng = random.Random(world_seed)
        if self.policy is not double_policy:
            return c.value(rollout(c, self.policy, rng), seat, self.match_bonus)
        points = double_rollout(c, rng, self.leaf_tiles)
        if points is None:
            try:
                return Solver(c, seat, self.match_bonus, deadline=deadline,
                              clock=self.cap_clock if self.worlds is not None
                              else self.clock).value()
            except NodeLimit:
                points = double_rollout(c, rng)
        assert points is not None
        return c.value(points, seat, self.match_bonus)


__all__ = ["BlockerBot", "DeepBot"]
