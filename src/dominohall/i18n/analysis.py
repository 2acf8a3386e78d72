"""The post-game analysis in the player's language: marks, and one line per decision.

:mod:`dominohall.analysis.review` answers with mark codes (``best`` ... ``blunder``) and
numbers; the terminal (`dominohall analyze`, `dominohall replay --analyze`) says them
here.  A seat is said "Player N", counted from 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import N_, _
from .labels import GAME_NAMES

MARK_WORDS: dict[str, str] = {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}

def mark_text(mark: str) -> str:
    return _(MARK_WORDS[mark])


def player(seat: int) -> str:
    return _("Player {n}").format(n=seat + 1)


def points(x: float) -> str:
    """A value with its sign, one decimal: +3.2, -0.5, 0.0."""
    return f"{x:+.1f}" if round(x, 1) else "0.0"


def decision_line(d: Mapping[str, Any]) -> str:
    """One decision (`Decision.as_dict()`) as a line: the move, its mark, the loss and
    the better move."""
    if d["mark"] == "best":
        text = _("{action}: {mark} ({value})").format(
            action=d["action"], mark=mark_text(d["mark"]), value=points(d["values"][d["action"]]))
    else:
        text = _("{action}: {mark}, {loss} points lost; best {best} ({value})").format(
            action=d["action"], mark=mark_text(d["mark"]), loss=f"{d['loss']:.1f}",
            best=d["best"], value=points(d["values"][d["best"]]))
    hind = d.get("hindsight")
    if hind:
        label = _("hindsight (exact)") if hind.get("exact") else _("hindsight")
        if hind["mark"] == "best":
            text += " | " + _("{label}: {mark}").format(label=label,
                                                      mark=mark_text(hind["mark"]))
        else:
            text += " | " + _("{label}: {mark}, best {best}").format(
                label=label, mark=mark_text(hind["mark"]), best=hind["best"])
    return text


__all__ = ["GAME_NAMES", "MARK_WORDS", "decision_line", "mark_text", "player", "points"]
