"""`?` in the terminal game: what the strongest bot would play, and a one-line why.

The advice is :func:`dominohall.analysis.advise`, worked out from the human's view alone
(never from another seat's hand); here it is only said, in the terminal's language
(:func:`dominohall.i18n.advice.advice_text`).  In All Fives the why says the count the
play scores and the reply it denies: the best score the next opponent could answer with,
over every tile that seat may hold as far as your view tells.
"""

from __future__ import annotations

from typing import Any

from ..analysis.advice import HINT_BOT, Advice, advise, reasons
from ..engine import Game
from ..i18n.advice import Names, advice_text

View = dict[str, Any]


def strongest_bot(game: str) -> str:
    """The bot that gives hints (the top of every game's ladder)."""
    return HINT_BOT


def said(advice: Advice, names: Names = None, viewer: int | None = None) -> str:
    """The advice's why in the terminal's language; `names` names the seats ("Bot 2"),
    `viewer` is the asking seat (its train is "your train")."""
    return advice_text(advice.reasons, names=names, viewer=viewer)


def hint(game: Game, seat: int) -> tuple[str, str]:
    """(action, why) for `seat` (action "" and the reason alone when it is not that
    seat's turn); only `game.view(seat)` is read.  The why names no bot: a player reads
    the reason, not which of our searches found it."""
    advice = advise(game.view(seat))
    return advice.action, said(advice)


def suggest(view: View) -> str:
    """The strongest bot's action for this view (may take a while: run it off the UI thread)."""
    return advise(view).action


def why(action: str, view: View, names: Names = None) -> str:
    """One line explaining `action` from what `view` shows."""
    return advice_text(reasons(action, view), names=names, viewer=view.get("seat"))
