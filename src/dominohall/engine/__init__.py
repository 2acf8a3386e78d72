"""The rules engine: standard library only, no I/O.  See docs/engine-api.md.

A regular install compiles the engine's modules with mypyc (see setup.py); `COMPILED`
says whether this process runs them compiled (True) or as pure Python (False).
"""

from importlib.machinery import EXTENSION_SUFFIXES as _EXTENSION_SUFFIXES

from . import chance as _chance
from . import game as _game
from . import line_game as _line_game
from . import mexican_train as _mexican_train
from . import sampling as _sampling
from . import tiles as _tiles
from . import views as _views
from .actions import Action, parse_action
from .errors import BadOption, BadRecord, DominohallError, GameOver, IllegalAction, NotYourTurn
from .game import Game, new_game, replay
from .options import GAMES, LineGameOptions, MexicanTrainOptions, OptionSpec, specs_for
from .sampling import sample_world
from .tiles import parse_tile, tile_text

#: True when the engine runs compiled by mypyc (a regular install), False for pure Python
#: (an editable install, DOMINOHALL_COMPILE=0, or no C compiler at install time).
COMPILED: bool = all(
    str(m.__file__).endswith(tuple(_EXTENSION_SUFFIXES))
    for m in (_tiles, _chance, _game, _line_game, _mexican_train, _views, _sampling)
)


__all__ = [
    "Action", "BadOption", "BadRecord", "COMPILED", "DominohallError", "GAMES", "Game",
    "GameOver", "IllegalAction", "LineGameOptions", "MexicanTrainOptions", "NotYourTurn",
    "OptionSpec", "new_game", "parse_action", "parse_tile", "replay",
    "sample_world", "specs_for", "tile_text",
]
