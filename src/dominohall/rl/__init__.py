"""Research adapters: PettingZoo, Gymnasium and OpenSpiel over the dominohall engine.

Thin layers with no rule of their own: legality always comes from the engine's
``legal_actions()``, observations only from ``Game.view(seat)``.

* :mod:`dominohall.rl.actions`: the fixed integer action space
  (``encode_action`` / ``decode_action`` / ``action_spec``);
* :mod:`dominohall.rl.observer`: :class:`Observer`, named-slice tensors and masks;
* :mod:`dominohall.rl.pettingzoo_aec`: ``pettingzoo_env(game, players=..., ...)``;
* :mod:`dominohall.rl.gym_env`: ``dominohall/MexicanTrain-v0``, ``AllFives-v0``,
  ``Block-v0``, ``Draw-v0`` (registered on import when gymnasium is installed);
* :mod:`dominohall.rl.openspiel_game`: ``python_dominohall_mexican_train``,
  ``python_dominohall_all_fives``, ``python_dominohall_block`` (registered on import
  when open-spiel is installed).

Install with ``pip install 'dominohall[rl]'``.
"""

from __future__ import annotations

from typing import Any

from .actions import ActionSpec, action_spec, decode_action, encode_action
from .observer import Observer, advantage

__all__ = ["ActionSpec", "Observer", "action_spec", "advantage", "decode_action",
           "encode_action", "pettingzoo_env"]


def pettingzoo_env(game: str, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment (see :mod:`dominohall.rl.pettingzoo_aec`).

    The module is not named after this function: importing a submodule sets the package
    attribute of its name, which would replace this function after its first call."""
    from .pettingzoo_aec import pettingzoo_env as make

    return make(game, **kwargs)


try:
    import gymnasium  # noqa: F401
except ImportError:                     # the Gymnasium ids need gymnasium
    pass
else:
    from .gym_env import register_envs

    register_envs()

try:
    import pyspiel  # noqa: F401
except ImportError:                     # the OpenSpiel games need open-spiel
    pass
else:
    from .openspiel_game import register_games

    register_games()
