"""Beliefs from play for Mexican Train: how likely each seat's past plays were, for
weighting the worlds a search samples.

The sampler (`dominohall.sample_world`) already uses what draws and passes prove (a seat
that drew or passed held no tile for the trains open to it).  What it leaves out is what
a seat *chose*.  `TrainHistory` replays the round's public log on the engine's own state
(its `legal` tells which trains were open at each past play: the own train, the Mexican
train, trains with a marker, or only an owed double, a first-turn chain's own train, no
second double with ``max_doubles_per_turn=1``) and reads three kinds of choice:

* **A play** (not the tile just drawn, which was forced): the seat picked a tile among
  those it held that fitted the trains of the same kind, its own train or the public ones
  (the Mexican train, marked trains, an owed double elsewhere), with probability
  proportional to ``exp(beta * (pips + double_bonus * is_double))`` (players shed heavy
  tiles first; a play on the Mexican train says little about the tiles kept for one's
  own train, so the two kinds are separate choices).
* **Ending a first-turn chain** (``end``, with a number ``end_weight``): a choice too,
  of weight ``exp(end_weight)`` against the tiles that still fitted the own train.
  Players lay all they can, so a world where the seat still held such a tile is
  unlikely.
* **A draw that was kept** (drawn, not played: a pass or another draw followed): the
  hand before it is unknown from then on, so that seat's earlier choices are left out.
  A drawn tile played at once is known, so a draw followed by its own play hides
  nothing.

A sampled world fixes what each seat held at each of its choices: its hand now and the
tiles it chose to play since (forced plays of a drawn tile excluded: those were drawn
after).  `TrainHistory.log_weight(hands, skip=viewer)` is the log-likelihood of the
seen choices in that world; worlds that explain the history (a 3 was put on the
Mexican train because no heavier tile fitted there) weigh more.  Only the view's log and
options are read, never a real hand; a weight never moves a tile into a hand the sampler
would not have put it in, it only re-ranks the sampler's worlds.

Some choices show a void as surely as a pass does, for players who lay what they can:
ending a first-turn chain (no tile fitted the own train), and playing elsewhere while the
own train was open to the seat and wanted a tile (it had a marker to take off, or was not
started).  `TrainHistory.sampling_view(view)` tells these voids to the sampler as passes,
so every world respects them (the sampler's own counting of draws since, and relaxing
of voids that cannot all fit); by default (``end_weight=None``) an ended chain is then
not weighed again.

`bots.line_beliefs.resampled_world(history.sampling_view(view), rng, history, template,
m)` draws `m` deals with the sampler and keeps one in proportion to its weight
(sampling-importance-resampling, as for All Fives), put into a copy of `template`.

>>> import dominohall
>>> g = dominohall.new_game("mexican_train", players=4, seed=3)
>>> TrainHistory().update(g.view(0)).log_weight([0, 0, 0, 0], skip=0)
0.0
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..engine import sample_world
from ..engine.actions import DRAW_ACTION, END_ACTION, PASS_ACTION, PLAY, parse_action
from ..engine.tiles import BIT, IS_DOUBLE, PIPS, TEXT, double, parse_tile, set_size
from .base import View

#: the play model's defaults (fitted with benchmarks/beliefs_train.py on bot play)
BETA = 0.1
DOUBLE_BONUS = 4.0
#: None: an ended chain is a void for the sampler (`sampling_view`), not a weight
END_WEIGHT: float | None = None
OWN = False

_CHOICE, _FORCED, _END, _KEPT = 0, 1, 2, 3


class TrainHistory:
    """The round's choices of every seat, for weighing worlds (module docstring)."""

    def __init__(self, beta: float = BETA, double_bonus: float = DOUBLE_BONUS,
                 end_weight: float | None = END_WEIGHT, own: bool = OWN) -> None:
        self.beta = float(beta)
        self.own = bool(own)
        self.double_bonus = float(double_bonus)
        #: None: an ended chain is not weighed (`sampling_view` reads it as a void)
        self.end_weight = None if end_weight is None else float(end_weight)
        self._ew: list[float] = []
        self._key: tuple[int, int] | None = None
        self._seen = 0
        self._st: Any = None
        #: per choice: seat, kind, tile (-1 for end), tiles of the choice set, log weight
        self.events: list[tuple[int, int, int, int, float]] = []
        #: per seat: choices before this index came before a draw it kept
        self.cut: list[int] = []
        self._drawing: list[bool] = []       # drew, and has not yet played or passed
        #: voids shown by choices: (index in the round's log, seat, own open end), for a
        #: first-turn chain ended, or a play elsewhere while the own train wanted a tile
        self.voids: list[tuple[int, int, int]] = []
        self._start = 0

    # ----------------------------------------------------------- the history
    def update(self, view: View) -> TrainHistory:
        """Read the events of `view`'s round not read yet (a new round starts over)."""
        log = view["log"]
        start = max(i for i, e in enumerate(log) if e["type"] == "deal")
        key = (view["round"], start)
        if key != self._key or self._seen > len(log) - start:
            self._restart(view, key)
        st = self._st
        for e in log[start + self._seen:]:
            self._seen += 1
            kind = e["type"]
            seat = e.get("seat")
            if not isinstance(seat, int) or kind in ("last_tile", "round_end"):
                continue
            if kind == "engine":
                st.current = (seat + 1) % st.n
                continue
            if kind == "draw" and e.get("search"):
                continue                     # the holder search, before any play
            st.current = seat
            drawing = self._drawing[seat]
            self._drawing[seat] = False
            if kind == "play":
                self._play(st, seat, parse_tile(str(e["tile"])), str(e["target"]), drawing)
                continue
            if drawing:                      # the drawn tile was kept
                self.cut[seat] = len(self.events)
            if kind == "draw":
                self._drawing[seat] = True
                if len(st.boneyard) < 2:
                    st.boneyard.extend([0] * 64)
                st.apply(DRAW_ACTION)
            elif kind == "pass":
                st.apply(PASS_ACTION)
            elif kind == "end":
                self.voids.append((self._seen - 1, seat, st.ends[seat]))
                if self.end_weight is not None:
                    fit = self._fits(st, seat)[0]
                    self.events.append((seat, _END, -1, fit, self.end_weight))
                st.apply(END_ACTION)
        return self

    def _restart(self, view: View, key: tuple[int, int]) -> None:
        """The round's table as dealt, on the engine's state (hands and boneyard are
        stand-ins: every unplaced tile, so any past play is legal and nobody goes out)."""
        self._key = key
        self._seen = 0
        self._start = key[1]
        self.events = []
        self.voids = []
        n = view["players"]
        self.cut = [0] * n
        self._drawing = [False] * n
        st: Any = sample_world(view, random.Random(0)).state
        st.clear_table()                                # the round's table as dealt
        st.log = []
        st.current = (view["round"] - 1) % n           # set_aside; else the engine event
        self._free = (1 << set_size(view["options"]["set_max"])) - 1 & ~BIT[double(st.engine)]
        st.set_hands([self._free] * n, [0] * 64)
        self._st = st
        beta, bonus = self.beta, self.double_bonus
        self._ew = [math.exp(beta * (PIPS[t] + (bonus if IS_DOUBLE[t] else 0.0)))
                    for t in range(len(PIPS))]

    def _fits(self, st: Any, seat: int) -> tuple[int, int]:
        """The unplaced tiles seat could legally play now: on its own train, elsewhere."""
        st.set_hands([self._free] * st.n)
        st.drawn = -1
        own_name = f"t{seat}"
        own = public = 0
        for a in st.legal():
            if a.kind == PLAY:
                if a.target == own_name:
                    own |= BIT[a.tile]
                else:
                    public |= BIT[a.tile]
        return own, public

    def _play(self, st: Any, seat: int, t: int, target: str, forced: bool) -> None:
        own_train = target == f"t{seat}"
        if forced or (not self.own and own_train):
            # the tile just drawn (no choice of tile), or a play on the own train when
            # those are not read as choices: it still leaves the hand
            self.events.append((seat, _FORCED if forced else _KEPT, t, 0, 0.0))
        else:
            own, public = self._fits(st, seat)
            fit = own if own_train else public
            w = math.log(self._ew[t])
            self.events.append((seat, _CHOICE, t, fit | BIT[t], w))
            if not own_train and own and (st.markers >> seat & 1 or not st.trains[seat]):
                # played elsewhere while its own train was open to it and wanted a tile
                # (a marker to take off, or not started yet): none fitted it
                self.voids.append((self._seen - 1, seat, st.ends[seat]))
        st.set_hands([self._free] * st.n)
        st.apply(parse_action(f"{TEXT[t]}>{target}"))
        self._free &= ~BIT[t]

    def sampling_view(self, view: View) -> View:
        """`view` with the voids that other seats' choices show (`voids`) told to the
        sampler in its own terms: a pass with that ``void`` just before the choice.
        `sample_hands` on it deals only hands that respect them as it respects the voids
        of real draws and passes (counting the draws since, relaxing what cannot fit)."""
        seat = view["seat"]
        mine = [v for v in self.voids if v[1] != seat]
        if not mine:
            return view
        log = list(view["log"])
        for i, q, end in reversed(mine):
            log.insert(self._start + i, {"type": "pass", "seat": q, "void": [end]})
        return {**view, "log": log}

    # ----------------------------------------------------------- the weight
    def log_weight(self, hands: list[int], skip: int | None = None) -> float:
        """log P(the seen choices | hands), over every seat but `skip` (the viewer)."""
        if not self.events:
            return 0.0
        ew = self._ew
        end_w = 0.0 if self.end_weight is None else math.exp(self.end_weight)
        cut = [len(self.events) if d else c for c, d in zip(self.cut, self._drawing)]
        later = [0] * len(cut)
        total = 0.0
        for k in range(len(self.events) - 1, -1, -1):
            seat, kind, t, fit, w = self.events[k]
            if seat == skip or k < cut[seat] or kind == _FORCED:
                continue
            if kind != _END:
                later[seat] |= BIT[t]
                if kind == _KEPT:
                    continue
                norm = 0.0
            else:
                norm = end_w
            held = (hands[seat] | later[seat]) & fit
            while held:
                low = held & -held
                norm += ew[low.bit_length() - 1]
                held ^= low
            total += w - math.log(norm)
        return total


__all__ = ["BETA", "DOUBLE_BONUS", "END_WEIGHT", "TrainHistory"]
