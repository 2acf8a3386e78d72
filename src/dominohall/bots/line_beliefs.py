"""Beliefs from play for All Fives (a line with spinners): how likely each seat's past
plays were, for weighting the worlds a search samples.

`PlayHistory` in `bots.inference` does this for a line of two ends without a spinner
(Block, Draw).  All Fives lays tiles on spinner arms too, and players there chase the
count, so its model of play is the scorer's: at each of its plays a seat picks among the
tiles it held that fitted an open end with probability proportional to
``exp(beta * (points + gamma * pips))``, where ``points`` is the most the tile could score
at once on any end it fitted (the engine's `count_after`, read off the layout as it
was then) and ``pips`` breaks ties towards heavy tiles, as the scorer does.

A sampled world fixes what each seat held at each of its plays: its hand now and the
tiles it played since (plays before a seat's last draw are left out: its hand then is
unknown).  `FivesHistory.log_weight(hands)` is the log-likelihood of the plays seen
under the model in that world; worlds that explain the history (a 5 was not scored
because the seat had no tile to score it) weigh more.  Only the layout and the log,
that is public information, are read; tiles a seat could not have held (not fitting,
already laid) never enter its choice set, so a weight never moves a tile into a hand
the sampler would not have put it in: weighting only re-ranks the sampler's worlds.

`resample_hands(view, rng, history, m)` draws `m` deals with the sampler
(`engine.sampling.sample_hands`) and keeps one with probability proportional to its
weight (sampling-importance-resampling), so a search can use weighted worlds unchanged.

The layout is replayed on a copy of a sampled state; the history is extended move by
move (`FivesHistory.update`) so a bot pays only for the plays since its last move.
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol

from ..engine import Game, sample_world
from ..engine.sampling import sample_hands
from ..engine.tiles import BIT, HIGH, LOW, PIPS, WITH_HALF, parse_tile, set_size
from .base import View

#: the play model's default sharpness and pip weight (fitted with
#: benchmarks/beliefs_lines.py on deep/pimc play)
BETA = 0.15
GAMMA = 0.2


def _round_start(log: list[Any]) -> int:
    return max(i for i, e in enumerate(log) if e["type"] == "deal")


class FivesHistory:
    """The plays of the current hand as choices among what fitted (module docstring)."""

    def __init__(self, beta: float = BETA, gamma: float = GAMMA) -> None:
        self.beta = float(beta)
        self.gamma = float(gamma)
        self._key: tuple[int, int] | None = None     # (round, log index of its deal)
        self._seen = 0                               # round-log events read
        self._layout: Any = None
        self._placed = 0
        #: per play: seat, tile, {tile: feature} of every tile that fitted then
        self.plays: list[tuple[int, int, dict[int, float]]] = []
        #: per seat: how many of its plays (counted in `plays`) came before its last draw
        self._drawn_at: dict[int, int] = {}

    # ----------------------------------------------------------- the history
    def update(self, view: View) -> FivesHistory:
        """Read the plays of `view`'s hand not read yet (a new hand starts over)."""
        log = view["log"]
        start = _round_start(log)
        key = (view["round"], start)
        if key != self._key or self._seen > len(log) - start:
            self._key = key
            self._seen = 0
            self.plays = []
            self._drawn_at = {}
            st: Any = sample_world(view, random.Random(0)).state
            st.log = []
            st.clear_layout()
            self._layout = st
            self._size = set_size(view["options"]["set_max"])
            self._placed = 0
        st = self._layout
        for e in log[start + self._seen:]:
            self._seen += 1
            kind = e["type"]
            if kind == "draw" and not e.get("search"):
                self._drawn_at[int(e["seat"])] = len(self.plays)
            if kind != "play":
                continue
            t = parse_tile(str(e["tile"]))
            self.plays.append((int(e["seat"]), t, self._features(st)))
            target = e["target"]
            st.lay(t, -1 if target is None else st.end_index(target))
            self._placed |= BIT[t]
        return self

    def _features(self, st: Any) -> dict[int, float]:
        """Every tile not on the table that could be laid now, with its feature."""
        beta, gamma = self.beta, self.gamma
        out: dict[int, float] = {}
        free = [x for x in range(self._size) if not self._placed >> x & 1]
        if st.lead < 0:                               # the lead: any tile
            for x in free:
                c = 2 * HIGH[x] if HIGH[x] == LOW[x] else HIGH[x] + LOW[x]
                pts = st.count_points(c) if st.count_scoring else 0
                out[x] = beta * (pts + gamma * PIPS[x])
            return out
        for i, end in enumerate(st.ends):
            fit = WITH_HALF[end.value]
            for x in free:
                if fit >> x & 1:
                    pts = st.count_points(st.count_after(x, i)) if st.count_scoring else 0
                    f = beta * (pts + gamma * PIPS[x])
                    if f > out.get(x, -math.inf):
                        out[x] = f
        return out

    def log_weight(self, hands: list[int], skip: int | None = None) -> float:
        """log P(the seen plays | hands), over every seat but `skip` (the viewer)."""
        if not self.beta:
            return 0.0
        later: dict[int, int] = {}
        total = 0.0
        n_plays = len(self.plays)
        for k in range(n_plays - 1, -1, -1):
            seat, t, feats = self.plays[k]
            before = later.get(seat, 0)
            later[seat] = before | BIT[t]
            if seat == skip or k < self._drawn_at.get(seat, 0):
                continue
            held = hands[seat] | before | BIT[t]
            norm = 0.0
            for x, f in feats.items():
                if held >> x & 1:
                    norm += math.exp(f)
            total += feats[t] - math.log(norm)
        return total


class Weigher(Protocol):
    """A play history that weighs a deal (`FivesHistory`, `bots.train_beliefs`)."""

    def log_weight(self, hands: list[int], skip: int | None = None) -> float: ...


def resample_hands(view: View, rng: random.Random, history: Weigher,
                   m: int) -> tuple[list[int], list[int]]:
    """One deal of `m` drawn by the sampler, chosen in proportion to its weight."""
    seat = view["seat"]
    deals = [sample_hands(view, rng) for _ in range(max(1, m))]
    if len(deals) == 1:
        return deals[0]
    lw = [history.log_weight(h, seat) for h, _ in deals]
    top = max(lw)
    w = [math.exp(x - top) for x in lw]
    return deals[rng.choices(range(len(deals)), weights=w)[0]]


def resampled_world(view: View, rng: random.Random, history: Weigher, template: Game,
                    m: int) -> Game:
    """A copy of `template` (a world sampled from the view) holding one of `m` deals the
    sampler draws from `view`, chosen in proportion to its weight (`resample_hands`)."""
    hands, boneyard = resample_hands(view, rng, history, m)
    world = template.clone()
    world.state.set_hands(hands, boneyard)
    return world


__all__ = ["BETA", "GAMMA", "FivesHistory", "resample_hands", "resampled_world"]
