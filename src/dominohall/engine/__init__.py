"""The rules engine: standard library only, no I/O.  See docs/engine-api.md."""

from .actions import Action, parse_action
from .errors import BadOption, BadRecord, DominohallError, GameOver, IllegalAction, NotYourTurn
from .game import Game, new_game, replay
from .options import GAMES, LineGameOptions, MexicanTrainOptions, OptionSpec, specs_for
from .sampling import sample_world
from .tiles import parse_tile, tile_text

__all__ = [
    "Action", "BadOption", "BadRecord", "DominohallError", "GAMES", "Game", "GameOver",
    "IllegalAction", "LineGameOptions", "MexicanTrainOptions", "NotYourTurn", "OptionSpec",
    "new_game", "parse_action", "parse_tile", "replay", "sample_world", "specs_for",
    "tile_text",
]
