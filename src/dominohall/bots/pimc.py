"""`pimc`: Perfect Information Monte Carlo over worlds sampled from the view.

For each of up to `samples` worlds consistent with the view (`dominohall.sample_world`:
hand sizes, tiles seen, numbers players proved they lacked when they drew or passed;
default 64 worlds in Mexican Train, whose rollouts are long, and 256 in the line
games), every candidate action is played and the round (Mexican Train) or hand (line
games) is played out with a rollout policy: the planner, keeping its plans between
moves, in Mexican Train; the scorer in the line games.  The action with the best mean
outcome wins: the smallest penalty difference (our points minus the others' mean) in
Mexican Train, the largest points difference (our side's gain minus the best opponent
side's gain, plus or minus `MATCH_BONUS` when the match ends) in the line games.

By default the budget is work: exactly `samples` worlds a move (the numbers above), so
the same seed and view give the same move under any load; past ``cap_ms`` of this
thread's CPU time (a safety cap, default `search.CAP_MS`) it stops once one world is done.
With ``budget_ms=T`` the
search stops at T milliseconds once one world is done (or at `samples`), so a move takes
the budget plus at most one world's rollouts; with ``strict_budget=False`` the first
`min_samples` worlds (default 64) are always sampled, whatever the time (the behaviour
before the budget was made strict, and how the issue 14 baselines were measured).
``clock=cpu`` counts this process's CPU time against the budget instead of wall time
(the same play; a budget that does not depend on the machine's load).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..engine import Action, Game, sample_world
from ..engine.actions import PLAY, parse_action
from ..engine.tiles import PIPS
from .base import SeededBot, View
from .mexican import PlannerRollout
from .search import CAP_CLOCK, CAP_MS

Rollout = Callable[[Game, random.Random], Action]

#: line games: points a rollout adds for winning the match (and takes for losing it)
MATCH_BONUS = 100.0


def scorer_rollout_action(game: Game, rng: random.Random) -> Action:
    """Line games: the play that scores most now (heaviest on ties), else draw/pass."""
    legal = game.state.legal()
    if len(legal) == 1:
        return legal[0]
    seat = game.state.current
    before = game.state.scores[seat]
    best, best_key = legal[0], (-2, -2, 0.0)
    for a in legal:
        if a.kind != PLAY:
            key = (-1, -1, 0.0)
        else:
            c = game.clone()
            c.apply_unchecked(a)
            key = (c.state.scores[seat] - before, PIPS[a.tile], rng.random())
        if key > best_key:
            best, best_key = a, key
    return best


class PimcBot(SeededBot):
    name = "pimc"

    def __init__(self, seed: int = 0, budget_ms: float | None = None,
                 samples: int | None = None, min_samples: int = 64, max_steps: int = 2000,
                 strict_budget: bool = True, clock: str = "wall",
                 cap_ms: float = CAP_MS) -> None:
        super().__init__(seed)
        if clock not in ("wall", "cpu"):
            raise TypeError(f"clock={clock!r}: choose wall or cpu")
        self.clock = time.process_time if clock == "cpu" else time.perf_counter
        #: a time budget (None: the work budget, `samples` worlds, with the safety cap)
        self.budget_ms = None if budget_ms is None else float(budget_ms)
        if float(cap_ms) <= 0:
            raise TypeError(f"cap_ms={cap_ms!r}: a positive number of milliseconds")
        self.cap_ms = float(cap_ms)
        self.cap_clock = CAP_CLOCK
        self.samples = samples
        self.min_samples = int(min_samples)
        self.strict_budget = bool(strict_budget)
        self.max_steps = max_steps

    def choose(self, view: View) -> str:
        timed = self.budget_ms is not None
        clock = self.clock if timed else self.cap_clock
        limit_ms = self.budget_ms if self.budget_ms is not None else self.cap_ms
        deadline = clock() + limit_ms / 1000.0
        legal = [str(a) for a in view["legal_actions"]]
        seat = view["seat"]
        mexican = view["game"] == "mexican_train"
        totals = dict.fromkeys(legal, 0.0)
        done = 0
        samples = self.samples or (64 if mexican else 256)
        while done < samples:
            floor = self.min_samples if timed and not self.strict_budget else 1
            if done >= floor and clock() > deadline:
                break
            world = sample_world(view, self.rng)
            world_seed = self.rng.randrange(2 ** 32)
            for a in legal:       # common random numbers: every candidate, the same luck
                rollout: Rollout = PlannerRollout() if mexican else scorer_rollout_action
                totals[a] += self._outcome(world, parse_action(a), seat, mexican, rollout,
                                           random.Random(world_seed))
            done += 1
        return max(legal, key=lambda a: (totals[a], -legal.index(a)))

    def _outcome(self, world: Game, first: Action, seat: int, mexican: bool,
                 rollout: Rollout, rng: random.Random) -> float:
        g = world.clone()
        st = g.state
        start_round = st.round
        before = st.scores[:]
        st.apply(first)
        steps = 0
        while not st.over and st.round == start_round and steps < self.max_steps:
            st.apply(rollout(g, rng))
            steps += 1
        gained = [a - b for a, b in zip(st.scores, before)]
        if mexican:
            others = [gained[s] for s in range(len(gained)) if s != seat]
            diff = gained[seat] - sum(others) / len(others)
            penalty = st.opts.scoring == "penalty"  # type: ignore[union-attr]
            return -diff if penalty else diff
        mine = st.side(seat)  # type: ignore[union-attr]
        rivals = [gained[s] for s in range(len(gained)) if st.side(s) != mine]  # type: ignore[union-attr]
        outcome = float(gained[seat] - max(rivals))
        if st.over:            # the match ended in this rollout: winning it is what counts
            outcome += MATCH_BONUS if seat in st.winners else -MATCH_BONUS
        return outcome
