"""`?` in the terminal game: what the strongest bot would play, and a one-line why.

The why is read from the human's view (which train, pips shed, an owed double,
the count a line-game play would make), never from another seat's hand.
"""

from __future__ import annotations

from typing import Any

from .. import bots
from ..engine import Game
from .render import halves, split_action

View = dict[str, Any]


def strongest_bot(game: str) -> str:
    """The last (strongest) of bots.names(game)."""
    return bots.names(game)[-1]


def hint(game: Game, seat: int) -> tuple[str, str]:
    """(action, why) for `seat`, whose turn it must be."""
    view = game.view(seat)
    if not view["legal_actions"]:
        return "", "it is not your turn"
    action = suggest(view)
    return action, f"{strongest_bot(game.name)}: {why(action, view, game)}"


def suggest(view: View) -> str:
    """The strongest bot's action for this view (may take a while: run it off the UI thread)."""
    name = strongest_bot(view["game"])
    return bots.make(name, seed=view["version"], game=view["game"]).act(view)


def why(action: str, view: View, game: Game | None = None) -> str:
    """One line explaining `action` from what `view` shows."""
    legal = view["legal_actions"]
    if action == "draw":
        return "nothing in your hand fits an open end: draw a tile"
    if action == "pass":
        if view["game"] == "mexican_train":
            return "the drawn tile does not fit: pass (a marker goes on your train)"
        return "nothing fits and you cannot draw: pass"
    if action == "end":
        return "stop the first-turn chain here and keep the rest for later"
    tile, target = split_action(action)
    if tile is None:
        return action
    a, b = halves(tile)
    pips = a + b
    shed = f"sheds {pips} pip{'s' if pips != 1 else ''}"
    plays = [x for x in legal if "-" in x]
    if all(sum(halves(split_action(x)[0] or "0-0")) <= pips for x in plays):
        shed += " (the most you can)"
    if view["game"] == "mexican_train":
        return f"{_train_reason(target, view)}; {shed}" + (
            "; a double: you play again" if a == b else "")
    if target is None:
        return f"leads {tile}; {shed}"
    score = _line_points(action, view, game)
    return f"on the {target} end; {shed}{score}"


def _train_reason(target: str | None, view: View) -> str:
    train = next(t for t in view["trains"] if t["id"] == target)
    if target in view["owed"]:
        return f"covers the owed double on {target}"
    if train["owner"] is None:
        return "extends the Mexican train" if train["started"] else "starts the Mexican train"
    if train["owner"] == view["seat"]:
        return "extends your train" if train["started"] else "starts your train"
    return f"plays on seat {train['owner']}'s open train (it carries a marker)"


def _line_points(action: str, view: View, game: Game | None) -> str:
    """', scores 15' when the engine says the play scores (tried on a copy of the game)."""
    if game is None or view["game"] != "all_fives":
        return ""
    trial = game.clone()
    trial.apply(action)
    event = next((e for e in reversed(trial.view(view["seat"])["log"])
                  if e["type"] == "play"), None)
    if event and event.get("points"):
        return f"; count {event['count']} scores {event['points']}"
    if event:
        return f"; count {event['count']}"
    return ""
