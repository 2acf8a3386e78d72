"""What a play would score in All Fives, read off the layout without playing it.

The scorer rollout (`pimc`'s policy: the play that scores most now, heaviest on ties)
asks, at every step of every rollout, what each legal play would score.  Playing each
one on a clone of the whole state (as `pimc` does) costs a clone per play; here the
count after a play comes from the open end it covers.

The count itself is the engine's rule (`LineGameState.count_after`, checked against
laying the tile on a clone in ``tests/bots/test_fives_beliefs.py``, every legal play of
random hands with every spinner option); this module only reads the state.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import Action
from ..engine.actions import PLAY
from ..engine.tiles import BIT, PIPS


def count_if_played(st: Any, a: Action) -> int:
    """The layout's count after play `a` (on the state to move; `a` is legal)."""
    t, target, e = a.play
    return int(st.count_after(t, e if e >= 0 or target is None else st.end_index(target)))


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


__all__ = ["count_if_played", "scorer_action"]
