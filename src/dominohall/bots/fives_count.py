"""What a play would score in All Fives, read off the layout without playing it.

The scorer rollout (`pimc`'s policy: the play that scores most now, heaviest on ties)
asks, at every step of every rollout, what each legal play would score.  Playing each
one on a clone of the whole state (as `pimc` does) costs a clone per play; here the
count after a play comes from the open end it covers:

* the end's own share of the count goes (its value times its kind: a bare spinner side
  0, a plain tile its value, a crosswise double twice it);
* covering the last bare line end of a spinner takes its two halves out of the count;
* a double adds both halves (crosswise, or a new spinner with one bare side: either way
  twice its number; new arms are bare and count nothing), any other tile its outer half.

The engine stays the one source of the rules: `points_if_played` is checked against
playing the tile on a clone (``tests/bots/test_fives_beliefs.py``, every legal play of
random hands with every spinner option), and the state is only read.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import Action
from ..engine.actions import PLAY
from ..engine.tiles import BIT, HIGH, IS_DOUBLE, LOW, PIPS


def count_if_played(st: Any, a: Action) -> int:
    """The layout's count after play `a` (on the state to move; `a` is legal)."""
    t, target, e = a.play
    if e == -1:                                    # the lead
        return 2 * HIGH[t] if IS_DOUBLE[t] else HIGH[t] + LOW[t]
    return count_on(st, t, st.ends[e] if e >= 0 else st.ends[st.end_index(target)])


def count_on(st: Any, t: int, end: Any) -> int:
    """The count after tile `t` is laid on open end `end` (one of ``st.ends``; `t`
    matches its value)."""
    v = end.value
    count = st.count - v * end.kind
    k = end.spinner
    if k >= 0 and st.spinners[k].bare == 1:
        count -= 2 * st.spinners[k].value
    return int(count + (2 * HIGH[t] if IS_DOUBLE[t] else PIPS[t] - v))


def points_if_played(st: Any, a: Action) -> int:
    """Points play `a` scores at once (0 without count scoring)."""
    if not st.count_scoring:
        return 0
    return int(st.count_points(count_if_played(st, a)))


def scorer_action(st: Any, rng: random.Random) -> Action:
    """`pimc`'s rollout policy (`bots.pimc.scorer_rollout_action`) on a bare state,
    without a clone per play (but for the play that goes out, whose points include the
    hand's end): most points now, then the heaviest tile, then at random; a draw or pass
    only when no tile can be played.  It picks what `pimc`'s rollout picks, drawing the
    same random numbers."""
    legal: list[Action] = st.legal()
    if len(legal) == 1:
        return legal[0]
    best, best_key = legal[0], (-2, -2, 0.0)
    scoring = st.count_scoring
    p = st.current
    hand = st.hands[p]
    for a in legal:
        if a.kind != PLAY:
            key: tuple[int, int, float] = (-1, -1, 0.0)
        else:
            if hand == BIT[a.tile]:              # going out: the hand's end scores too
                c = st.clone()
                c.apply(a)
                pts = c.scores[p] - st.scores[p]
            else:
                pts = int(st.count_points(count_if_played(st, a))) if scoring else 0
            key = (pts, PIPS[a.tile], rng.random())
        if key > best_key:
            best, best_key = a, key
    return best


__all__ = ["count_if_played", "count_on", "points_if_played", "scorer_action"]
