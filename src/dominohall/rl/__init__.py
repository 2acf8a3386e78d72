"""Research adapters: PettingZoo, Gymnasium and OpenSpiel over the dominohall engine.

Thin layers with no rule of their own: legality always comes from the engine's
``legal_actions()``, observations only from ``Game.view(seat)``.

* :mod:`dominohall.rl.actions`: the fixed integer action space
  (``encode_action`` / ``decode_action`` / ``action_spec``);
* :mod:`dominohall.rl.observer`: :class:`Observer`, named-slice tensors and masks;
* :mod:`dominohall.rl.pettingzoo_aec`: ``pettingzoo_env(game, players=..., ...)``;
* :mod:`dominohall.rl.gym_env`: ``dominohall/MexicanTrain-v0``, ``AllFives-v0``,
  ``Block-v0``, ``Draw-v0`` (registered on import when gymnasium is installed);
* :mod:`dominohall.rl.batched`: ``vector_env(game, num_envs=N, ...)``, a Gymnasium
  vector env of N games against bots (slot i is the single env seeded ``seed + i``),
  and ``batched_games(game, num_envs=N, ...)``, N games where the caller plays every
  seat (batched numpy observations and masks);
* :mod:`dominohall.rl.state_observer`: the Observer's tensors written from the engine
  state for the batches (the one module here that reads engine internals, only what a
  seat's view shows);
* :mod:`dominohall.rl.openspiel_game`: ``python_dominohall_mexican_train``,
  ``python_dominohall_all_fives``, ``python_dominohall_block`` (registered on import
  when open-spiel is installed).

Install with ``pip install 'dominohall[rl]'``.
"""

from __future__ import annotations

from typing import Any

from .actions import ActionSpec, action_spec, decode_action, encode_action
from .observer import Observer, advantage

__all__ = ["ActionSpec", "Observer", "action_spec", "advantage", "batched_games",
           "decode_action", "encode_action", "pettingzoo_env", "vector_env"]


def pettingzoo_env(game: str, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment (see :mod:`dominohall.rl.pettingzoo_aec`).

    The module is not named after this function: importing a submodule sets the package
    attribute of its name, which would replace this function after its first call."""
    from .pettingzoo_aec import pettingzoo_env as make

    return make(game, **kwargs)


def vector_env(game: str = "block", num_envs: int = 1, **kwargs: Any) -> Any:
    """A Gymnasium vector env of N games against bots (see :mod:`dominohall.rl.batched`;
    not named after this function, so that importing it cannot replace the function)."""
    from .batched import vector_env as make

    return make(game, num_envs, **kwargs)


def batched_games(game: str = "block", num_envs: int = 1, **kwargs: Any) -> Any:
    """N games, every seat played by the caller (see :mod:`dominohall.rl.batched`)."""
    from .batched import batched_games as make

    return make(game, num_envs, **kwargs)


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
