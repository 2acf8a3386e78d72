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
chain from the state in one place (`_facts`).
"""

from __future__ import annotations

import random

from ..engine import Action, Game, sample_world
from ..engine.actions import END, END_ACTION, PLAY
from ..engine.tiles import BIT, HIGH, IS_DOUBLE, PIPS, WITH_HALF
from .base import View
from .line_beliefs import resampled_world
from .mexican import plan_still_good, plan_train
from .search import CAP_MS, WorldSearch
from .train_beliefs import BETA as BELIEF_BETA
from .train_beliefs import TrainHistory

#: worlds a move by default (`search.WorldSearch`: a work budget, the same move under any
#: load), calibrated once to the target of <= 10 ms of CPU a move with the compiled engine
#: in 2-player, 4-round matches (about 3 ms a world; `benchmarks/work_cost.py`)
DEFAULT_WORLDS = 3


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
