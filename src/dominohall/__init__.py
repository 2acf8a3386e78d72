"""dominohall: Mexican Train and All Fives dominoes.

>>> import dominohall
>>> g = dominohall.new_game("mexican_train", players=4, seed=1)
>>> g.round, g.players
(1, 4)
"""

from .engine import (
    GAMES,
    Action,
    BadOption,
    BadRecord,
    DominohallError,
    Game,
    GameOver,
    IllegalAction,
    NotYourTurn,
    new_game,
    parse_action,
    replay,
    sample_world,
    specs_for,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "BadOption", "BadRecord", "DominohallError", "GAMES", "Game", "GameOver",
    "IllegalAction", "NotYourTurn", "new_game", "parse_action", "replay", "sample_world",
    "specs_for",
]
