"""The top Mexican Train bot (``deep`` in Mexican Train): determinized search whose
rollouts know the game's tactics.

In each world sampled from the view (`search.WorldSearch`) every candidate action is
played and the round played out; the value is the round's penalty difference (the others'
mean pips minus ours; with ``scoring=positive`` ours minus theirs), the outcome today's
`pimc` uses, so the two differ in how the worlds are played out (`train_choice`, for
every seat of the world):

* **Own train**: each seat keeps an exact longest-chain plan of its own train
  (`mexican.plan_train`, as the `planner`) and never spends a plan tile elsewhere; an
  off-plan tile goes on another train, never on its own train (that would break the
  plan's start).
* **Markers**: a seat whose train carries a marker plays its plan first (its own play
  takes the marker off and closes the train to the others); an off-plan tile is shed on
  the Mexican train first, then on a rival's open (marked) train (the order measured
  better in policy-against-policy play than the reverse or no preference).
* **Owed doubles**: when a double must be covered, the cover is the cheapest tile for
  the plan (an off-plan tile, heaviest first); a seat plays a double of its own only when
  it holds a tile to follow it, or when the double is its last off-plan tile.
* **Dumping pips**: once a rival is down to ``dump_at`` tiles (default 2) the round may
  end any moment, and every seat sheds its heaviest playable tile, plan or not.

The search itself never ends a first-turn chain that can go on, and gives the rollout
rule's own choice a head start of ``prior`` pips a world (a round's outcome varies by
tens of pips, so a few worlds alone are noisy; the rule is a sound default).

**Beliefs** (``beliefs=m``, off by default; ``belief_beta``, default 0.1): the worlds come
from the sampler told the voids the others' choices show (a first-turn chain ended, a
play elsewhere while the own train had a marker or was not started), and each is one of
m such deals, kept in proportion to how likely the others' plays this round were under a
model of play (heavy tiles first among those that fitted; `bots.train_beliefs`).
``beliefs=1`` uses the voids alone.  With beliefs off the bot plays exactly as before.

The engine plays every move; the rollout reads the world's hands, open ends, markers and
chain from the state in one place (`train_rollout._facts`; compiled with the engine).
"""

from __future__ import annotations

import random

from ..engine import Action, Game, sample_world
from ..engine.actions import END, PLAY
from .base import View
from .line_beliefs import resampled_world
from .search import CAP_MS, WorldSearch
from .train_beliefs import BETA as BELIEF_BETA
from .train_beliefs import TrainHistory
from .train_rollout import TrainRollout, train_choice

#: worlds a move by default (`search.WorldSearch`: a work budget, the same move under any
#: load).  First calibrated to <= 10 ms of CPU a move (3 worlds), which lost to the
#: longest-chain planner; 8 worlds beat 3 by +15 pips a round [+1, +30] on the same
#: 11 deals, at about 21 ms a move with the compiled rollouts on the loaded machine
#: (README, "Mexican Train against the sparring partners")
DEFAULT_WORLDS = 8


class TrainBot(WorldSearch):
    """The top Mexican Train bot (see the module docstring)."""

    name = "deep"
    DEFAULT_WORLDS = DEFAULT_WORLDS

    def __init__(self, seed: int = 0, budget_ms: float | None = None,
                 worlds: int | None = None, min_worlds: int = 2, clock: str = "wall",
                 dump_at: int = 2, prior: float = 8.0, max_steps: int = 2000,
                 beliefs: int = 0, belief_beta: float = BELIEF_BETA,
                 cap_ms: float = CAP_MS) -> None:
        super().__init__(seed, budget_ms, worlds, min_worlds, clock, cap_ms=cap_ms)
        self.dump_at = int(dump_at)
        self.prior = float(prior)
        self.max_steps = int(max_steps)
        if isinstance(beliefs, bool) or not isinstance(beliefs, int) or beliefs < 0:
            raise TypeError(f"beliefs={beliefs!r}: 0 (off) or the deals drawn a world")
        self.beliefs = beliefs
        if isinstance(belief_beta, bool) or not isinstance(belief_beta, (int, float)) \
                or not 0 <= belief_beta < float("inf"):
            raise TypeError(f"belief_beta={belief_beta!r}: a sharpness of 0 or more")
        self.history = TrainHistory(float(belief_beta))
        self._template: Game | None = None
        self._sampling_view: View | None = None

    def prepare(self, view: View) -> None:
        if self.beliefs:
            self.history.update(view)
            self._sampling_view = self.history.sampling_view(view)
            self._template = sample_world(view, self.rng)
            self._template.state.log = []

    def sample(self, view: View) -> Game:
        """With ``beliefs=m`` (m >= 1): one of m deals drawn by the sampler told the voids
        the others' choices show, chosen in proportion to how well it explains their
        plays (`bots.train_beliefs`); off (0), the sampler's world as it is."""
        if not self.beliefs or self._template is None or self._sampling_view is None:
            return super().sample(view)
        return resampled_world(self._sampling_view, self.rng, self.history,
                               self._template, self.beliefs)

    def candidates(self, view: View) -> list[Action]:
        """Every legal action, but never `end` a first-turn chain that can go on: the
        tiles of a first turn are free tempo (the others wait for their own)."""
        legal = super().candidates(view)
        if view["turn"]["chain"] and any(a.kind == PLAY for a in legal):
            legal = [a for a in legal if a.kind != END]
        return legal

    def evaluate(self, world: Game, candidates: list[Action], seat: int,
                 rng: random.Random, deadline: float | None) -> list[float]:
        base = world.state
        start = base.round
        before = base.scores[:]
        penalty = world.options.scoring == "penalty"  # type: ignore[union-attr]
        seed = rng.randrange(2 ** 32)
        # the rollout rule's own choice here gets `prior` pips a world: few worlds are
        # noisy (a round's outcome varies by tens of pips), the rule is a sound default
        own = TrainRollout(self.dump_at)(base.clone(), random.Random(seed))
        out = []
        for a in candidates:
            st = base.clone()
            st.apply(a)
            policy = TrainRollout(self.dump_at)
            r = random.Random(seed)
            steps = 0
            while not st.over and st.round == start and steps < self.max_steps:
                st.apply(policy(st, r))
                steps += 1
            gained = [x - b for x, b in zip(st.scores, before)]
            others = sum(gained[s] for s in range(len(gained)) if s != seat) / (len(gained) - 1)
            diff = gained[seat] - others
            out.append((-diff if penalty else diff) + (self.prior if a == own else 0.0))
        return out


__all__ = ["TrainBot", "TrainRollout", "train_choice"]
