"""The top All Fives bot (``deep`` in All Fives): determinized search for the team's
score, with a rollout policy that defends and an exact search at the end of a hand.

In each world sampled from the view (`search.WorldSearch`), every candidate play is
valued by the hand's points for our side (partners are one side) minus the best rival
side's, plus or minus `MATCH_BONUS` when the hand ends the match -- the same outcome
today's `pimc` maximises, so the two differ only in how they play a world out:

* **Rollouts**: ``policy=scorer`` (the default) is `pimc`'s policy (biggest score now).
  ``policy=reply`` plays the rest of the hand with the `fives` idea on the world's open
  hands: each seat takes the play that scores most now minus ``reply_weight`` times the
  most the next seat (a rival) can score in answer with the tiles it really holds in
  that world, keeps its heavy tiles and doubles from being caught (a small bonus for
  shedding them), and goes out when it can.  At the same number of worlds ``reply``
  beats `pimc` (400 duplicate deals: 0.566 [0.534, 0.601]), but it costs about three
  times the CPU a world, and at the same CPU `pimc` with three times the worlds beats it
  (``reply`` with 8 worlds against `pimc` with 24, 300 deals: 0.345 [0.307, 0.382]);
  so under a time budget the cheap rollout, with more worlds, is the default
  (``benchmarks/vs_pimc.py``, README).  It picks exactly what `pimc`'s picks, but reads
  each play's points off the layout (`bots.fives_count`) instead of playing it on a
  clone, and a world's clones carry no match log: a world costs about half of
  `pimc`'s.  With the same CPU budget a move `deep` beats `pimc` (400 duplicate deals:
  0.595 [0.5625, 0.6275]).
* **Racing** (``race=2``, `search.WorldSearch`): a candidate clearly behind the leader
  after `race_after` worlds gets no more rollouts.
* **Beliefs** (``beliefs=m``, off by default): each world is one of m of the sampler's
  deals, kept in proportion to how well it explains the hand's plays
  (`bots.line_beliefs`).
* **Exact search** once at most ``solve_tiles`` tiles are left in the hands and nobody
  can draw (four players hold the whole set; otherwise an empty boneyard): the hand is
  searched to its end by alpha-beta in the world (our side maximises, the rivals
  minimise, moves ordered by what they score), at most ``max_nodes`` positions a world
  and never past the move's deadline; a world that does not fit falls back to the
  rollout.

The engine plays every move (state clones and `legal`/`apply`): no rule is written here.
"""

from __future__ import annotations

import random

from ..engine import Action, Game, sample_world
from ..engine.actions import PLAY
from ..engine.tiles import IS_DOUBLE, PIPS
from .base import View
from .fives_count import scorer_action
from .line_beliefs import BETA as BELIEF_BETA
from .line_beliefs import FivesHistory, resampled_world
from .pimc import MATCH_BONUS
from .search import CAP_MS, WorldSearch

INF = float("inf")
#: worlds a move by default (a work budget: the same move under any load; racing still
#: drops candidates clearly behind), calibrated once to the cost of the best measured time
#: setting, ``budget_ms=15:clock=cpu`` (compiled: about 12 ms of CPU a move in 2-player
#: matches against `fives`; `benchmarks/work_cost.py`)
DEFAULT_WORLDS = 24


class NodeLimit(Exception):
    """The exact search would visit more positions than allowed."""


class _Hand:
    """What one world's search needs to know: whose side is whose, where the hand started."""

    def __init__(self, world: Game, seat: int, bonus: float) -> None:
        st = world.state
        self.seat = seat
        self.teams = bool(world.options.teams)  # type: ignore[union-attr]
        self.round = st.round
        self.before = st.scores[:]
        self.bonus = bonus
        self.mine = self.side(seat)

    def side(self, s: int) -> int:
        return s % 2 if self.teams else s

    def ended(self, st: object) -> bool:
        return bool(st.over or st.round != self.round)  # type: ignore[attr-defined]

    def value(self, st: object) -> float:
        scores = st.scores  # type: ignore[attr-defined]
        gained = [a - b for a, b in zip(scores, self.before)]
        rivals = max(gained[s] for s in range(len(gained)) if self.side(s) != self.mine)
        v = float(gained[self.seat] - rivals)
        if st.over:  # type: ignore[attr-defined]
            v += self.bonus if self.seat in st.winners else -self.bonus  # type: ignore[attr-defined]
        return v


def reply_action(st: object, rng: random.Random, reply_weight: float = 0.8,
                 teams: bool = False) -> Action:
    """The rollout policy on a world's state: score now, minus what the next seat (a
    rival) can score in answer with its real tiles, plus a little for shedding heavy
    tiles and doubles; going out first."""
    legal: list[Action] = st.legal()  # type: ignore[attr-defined]
    if len(legal) == 1:
        return legal[0]
    p = st.current  # type: ignore[attr-defined]
    start = st.round  # type: ignore[attr-defined]
    before = st.scores[p]  # type: ignore[attr-defined]
    best, best_key = legal[0], -INF
    for a in legal:
        if a.kind != PLAY:
            key = -1000.0
        else:
            c = st.clone()  # type: ignore[attr-defined]
            c.apply(a)
            key = float(c.scores[p] - before) + 0.1 * PIPS[a.tile] \
                + (1.0 if IS_DOUBLE[a.tile] else 0.0) + 0.01 * rng.random()
            if c.over or c.round != start:
                key += 1000.0                      # went out (or won the match)
            elif reply_weight:
                q = c.current
                if not teams or q % 2 != p % 2:
                    answer = 0
                    q_before = c.scores[q]
                    for r in c.legal():
                        if r.kind == PLAY:
                            d = c.clone()
                            d.apply(r)
                            answer = max(answer, d.scores[q] - q_before)
                    key -= reply_weight * answer
        if key > best_key:
            best, best_key = a, key
    return best


class AllFivesBot(WorldSearch):
    """The top All Fives bot (see the module docstring)."""

    name = "deep"

    DEFAULT_WORLDS = DEFAULT_WORLDS

    def __init__(self, seed: int = 0, budget_ms: float | None = None,
                 worlds: int | None = None,
                 min_worlds: int = 2, clock: str = "wall", policy: str = "scorer",
                 reply_weight: float = 0.8, solve_tiles: int = 10, max_nodes: int = 4000,
                 match_bonus: float = MATCH_BONUS, max_steps: int = 500,
                 race: float = 2.0, race_after: int = 8, beliefs: int = 0,
                 belief_beta: float = BELIEF_BETA, cap_ms: float = CAP_MS) -> None:
        super().__init__(seed, budget_ms, worlds, min_worlds, clock, race, race_after,
                         cap_ms)
        if int(beliefs) < 0:
            raise TypeError(f"beliefs={beliefs!r}: 0 (off) or deals drawn a world")
        self.beliefs = int(beliefs)
        self.history = FivesHistory(belief_beta)
        self._template: Game | None = None
        if policy not in ("reply", "scorer"):
            raise TypeError(f"policy={policy!r}: choose reply or scorer")
        self.policy = policy
        self.reply_weight = float(reply_weight)
        self.solve_tiles = int(solve_tiles)
        self.max_nodes = int(max_nodes)
        self.match_bonus = float(match_bonus)
        self.max_steps = int(max_steps)
        self.solving = False
        self._nodes = 0
        self._deadline: float | None = None
        #: worlds solved exactly by the last `choose`
        self.solved = 0

    def choose(self, view: View) -> str:
        o = view["options"]
        no_draw = o.get("draw") == "none" or view["boneyard"] <= o.get("boneyard_reserve", 0)
        self.solving = no_draw and sum(view["hand_sizes"]) <= self.solve_tiles
        self.solved = 0
        return super().choose(view)

    def prepare(self, view: View) -> None:
        if self.beliefs > 1:
            self.history.update(view)
            self._template = sample_world(view, self.rng)
            self._template.state.log = []

    def sample(self, view: View) -> Game:
        """With ``beliefs=m`` (m > 1): one of m deals drawn by the sampler, chosen in
        proportion to how well it explains the hand's plays (`bots.line_beliefs`)."""
        if self.beliefs <= 1 or self._template is None:
            return sample_world(view, self.rng)
        return resampled_world(view, self.rng, self.history, self._template, self.beliefs)

    def evaluate(self, world: Game, candidates: list[Action], seat: int,
                 rng: random.Random, deadline: float | None) -> list[float]:
        world.state.log = []      # the engine only appends to it: cheaper clones
        h = _Hand(world, seat, self.match_bonus)
        if self.solving:
            self._deadline = deadline
            try:
                row = self._solve(world.state, candidates, h)
                self.solved += 1
                return row
            except NodeLimit:
                pass
        seed = rng.randrange(2 ** 32)
        out = []
        for a in candidates:
            st = world.state.clone()
            st.apply(a)
            self._play_out(st, h, random.Random(seed))
            out.append(h.value(st))
        return out

    def _play_out(self, st: object, h: _Hand, rng: random.Random) -> None:
        steps = 0
        if self.policy == "reply":
            w, teams = self.reply_weight, h.teams
            while not h.ended(st) and steps < self.max_steps:
                st.apply(reply_action(st, rng, w, teams))  # type: ignore[attr-defined]
                steps += 1
        else:
            while not h.ended(st) and steps < self.max_steps:
                st.apply(scorer_action(st, rng))  # type: ignore[attr-defined]
                steps += 1

    # ------------------------------------------------------------ exact search
    def _solve(self, root: object, candidates: list[Action], h: _Hand) -> list[float]:
        self._nodes = 0
        out = []
        for a in candidates:
            c = root.clone()  # type: ignore[attr-defined]
            c.apply(a)
            # each candidate's exact value (a full window: the values are averaged)
            out.append(self._search(c, h, -INF, INF))
        return out

    def _search(self, st: object, h: _Hand, alpha: float, beta: float) -> float:
        if h.ended(st):
            return h.value(st)
        self._nodes += 1
        if self._nodes > self.max_nodes or (
                self._nodes & 127 == 0 and self._deadline is not None
                and self.clock() > self._deadline):
            raise NodeLimit
        p = st.current  # type: ignore[attr-defined]
        legal = st.legal()  # type: ignore[attr-defined]
        children = []
        for a in legal:
            c = st.clone()  # type: ignore[attr-defined]
            c.apply(a)
            children.append((c.scores[p] - st.scores[p], c))  # type: ignore[attr-defined]
        children.sort(key=lambda x: -x[0])
        if h.side(p) == h.mine:
            best = -INF
            for _, c in children:
                best = max(best, self._search(c, h, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        else:
            best = INF
            for _, c in children:
                best = min(best, self._search(c, h, alpha, beta))
                beta = min(beta, best)
                if alpha >= beta:
                    break
        return best


__all__ = ["AllFivesBot", "reply_action"]
