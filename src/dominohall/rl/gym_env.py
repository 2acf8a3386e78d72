"""Gymnasium single-agent environments: one seat against dominohall bots.

Registered on ``import dominohall.rl``::

    gymnasium.make("dominohall/MexicanTrain-v0", opponents="greedy", players=4)
    gymnasium.make("dominohall/AllFives-v0", opponents=["random"], options={"target": 100})
    gymnasium.make("dominohall/Block-v0")          # 2 players, one hand
    gymnasium.make("dominohall/Draw-v0")

Keyword arguments: ``players`` (default 4 for Mexican Train, else 2), ``options``
(RULES.md option names; Block-v0 defaults to ``{"hands": 1}``), ``opponents`` (a
bot name from ``dominohall.bots.names()`` for every other seat, or one name per
other seat), ``seat`` (the learner's seat, default 0), ``history`` (events kept in
the observation), ``illegal_reward``.

* Observation: ``{"observation": float32 tensor, "action_mask": int8}`` from
  :class:`~dominohall.rl.observer.Observer` on the learner's view (bots see only
  their own views).
* Action: an integer of :mod:`dominohall.rl.actions`; use the mask.  An illegal
  action ends the episode with reward ``illegal_reward`` (default -100) and
  ``info["illegal"]``; nothing is repaired.
* Reward: the change of the learner's *advantage* since its previous step
  (:func:`~dominohall.rl.observer.advantage`): own score minus the mean of the
  others' (team minus team).  Mexican Train flips the sign for penalty scoring, so
  the reward arrives at each round's end and is the **negative penalty difference**
  of that round (others' mean penalty minus the learner's).  All Fives pays the
  **points difference** as it happens (count points, then the hand's end).  The
  rewards of an episode sum to the final advantage.
* An episode is one match (``terminated`` at its end; never truncated).  The game
  is dealt from ``reset(seed=...)`` (same seed, same deal and same bot moves).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import dominohall
from dominohall import bots

from .observer import OBS_HIGH, Observer, advantages

DEFAULT_PLAYERS = {"mexican_train": 4, "all_fives": 2, "draw": 2, "block": 2}


class DominohallEnv(gym.Env):  # type: ignore[misc]
    """One seat of a dominohall match against bots (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, game: str = "block", players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 opponents: str | Sequence[str] = "random", seat: int = 0,
                 history: int = 16, illegal_reward: float = -100.0,
                 render_mode: str | None = None) -> None:
        self.game_name = game
        self.n = DEFAULT_PLAYERS[game] if players is None else players
        self.game_options = dict(options or {})
        if not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0..{self.n - 1}")
        self.seat = seat
        names = [opponents] * (self.n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != self.n - 1:
            raise ValueError(f"give one opponent name or {self.n - 1} names, not {len(names)}")
        for name in names:
            _make_bot(name, 0, game)         # an unknown name raises ValueError naming the choices
        self.opponent_names = names
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        probe = dominohall.new_game(game, players=self.n, seed=0, options=self.game_options)
        self.observer = Observer(probe, history=history)
        self.actions = self.observer.spec
        self._engine_actions = self.actions.engine_actions
        self._advantages = advantages(probe)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, OBS_HIGH, (self.observer.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })
        self.action_space = spaces.Discrete(self.actions.size)
        self.game: dominohall.Game | None = None
        self._bots: dict[int, Any] = {}
        self._last = 0.0

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2 ** 62))
        self.game = dominohall.new_game(self.game_name, players=self.n, seed=game_seed,
                                        options=self.game_options)
        others = [s for s in range(self.n) if s != self.seat]
        self._bots = {s: _make_bot(name, game_seed + s, self.game_name)
                      for s, name in zip(others, self.opponent_names)}
        self._last = self._advantages(self.game.scores)[self.seat]
        self._play_bots()
        return self._obs(), {}

    def _play_bots(self) -> None:
        g = self.game
        assert g is not None
        while not g.is_over and g.current_seat != self.seat:
            s = g.current_seat
            g.apply(self._bots[s].act(g.view(s)), seat=s)

    def _obs(self, illegal: bool = False) -> dict[str, np.ndarray]:
        assert self.game is not None
        view = self.game.view(self.seat)
        mask = self.observer.action_mask(view)
        if illegal:
            mask.fill(0)
        return {"observation": self.observer.observe(view), "action_mask": mask}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        g = self.game
        if g is None or g.is_over:
            raise RuntimeError("call reset() first: the episode is over")
        table = self._engine_actions
        text = None
        try:
            code = int(action)
            if not 0 <= code < len(table):
                raise dominohall.IllegalAction(f"{action!r} is not an action id "
                                               f"(0..{len(table) - 1})")
            text = table[code]                      # the engine's Action: no text to parse
            g.apply(text, seat=self.seat)
        except (dominohall.IllegalAction, TypeError, ValueError) as err:
            info = {"illegal": str(text) if text is not None else action, "error": str(err)}
            return self._obs(illegal=True), self.illegal_reward, True, False, info
        self._play_bots()
        now = self._advantages(g.scores)[self.seat]
        reward, self._last = now - self._last, now
        info: dict[str, Any] = {}
        if g.is_over:
            info = {"scores": g.scores, "winners": g.winners}
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), g.is_over, False, info

    def render(self) -> str | None:
        if self.game is None:
            return None
        view = self.game.view(self.seat)
        text = (f"round {view['round']} scores {view['scores']} hand {view['hand']} "
                f"legal {view['legal_actions']}")
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _make_bot(name: str, seed: int, game: str) -> Any:
    try:
        return bots.make(name, seed=seed, game=game)
    except TypeError:                    # a bots module without per-game ladders
        return bots.make(name, seed=seed)


ENV_IDS = {
    "dominohall/MexicanTrain-v0": {"game": "mexican_train"},
    "dominohall/AllFives-v0": {"game": "all_fives"},
    "dominohall/Draw-v0": {"game": "draw"},
    "dominohall/Block-v0": {"game": "block", "options": {"hands": 1}},
}


def register_envs() -> None:
    """Register the dominohall Gymnasium ids (idempotent)."""
    for env_id, kwargs in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="dominohall.rl.gym_env:DominohallEnv",
                         kwargs=kwargs)
