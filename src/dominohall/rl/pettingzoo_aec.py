"""PettingZoo AEC environments for every dominohall game.

``pettingzoo_env(game, players=..., options=..., seed=...)`` wraps one match of
``game`` ("mexican_train", "all_fives", "draw", "block").  Agents are
``player_0 .. player_<n-1>`` (seat k is ``player_k``); ``agent_selection`` is the
engine's current seat (after a Mexican Train double the same agent acts again).

* Observation of each agent: ``{"observation": float32 tensor, "action_mask": int8}``
  from :class:`~dominohall.rl.observer.Observer` on that seat's view.
* Actions: the integers of :mod:`dominohall.rl.actions`; the mask is the engine's
  ``legal_actions()``.  An illegal action ends the episode: the agent that made it
  gets ``illegal_reward`` (default -100), the others 0, ``infos[agent]["illegal"]``
  names the action.  Nothing is ever repaired.
* Rewards: after every step each agent receives the change of its *advantage*
  (:func:`~dominohall.rl.observer.advantage`: own score minus the mean of the others,
  team minus team, sign flipped for Mexican Train penalty scoring), so an episode's
  rewards sum to the final advantage and are zero-sum over agents.  In Mexican Train
  rewards arrive at round ends (the negative penalty difference); in All Fives with
  every scoring play.
* One episode is one match as the options say (``{"hands": 1}`` / ``{"rounds": 1}``
  for a single deal).  Same seed, same game: ``reset(seed=s)`` deals
  ``new_game(..., seed=s)``; ``reset()`` without a seed takes the next seed from the
  environment's own RNG (seeded by the last seed given).

>>> env = pettingzoo_env("block", players=2, options={"hands": 1}, seed=1)
>>> env.reset()
>>> env.agent_selection in env.agents
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import dominohall

from .observer import OBS_HIGH, Observer, advantages


class DominohallAEC(AECEnv):  # type: ignore[misc]
    """One dominohall match as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "dominohall_v0",
                "is_parallelizable": False}

    def __init__(self, game: str = "block", players: int = 2,
                 options: Mapping[str, Any] | None = None, seed: int | None = None,
                 history: int = 16, illegal_reward: float = -100.0,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.game_name = game
        self.n = players
        self.game_options = dict(options or {})
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        probe = dominohall.new_game(game, players=players, seed=0, options=self.game_options)
        self.observer = Observer(probe, history=history)
        self.actions = self.observer.spec
        self._engine_actions = self.actions.engine_actions
        self._advantages = advantages(probe)
        self.metadata = dict(self.metadata, name=f"dominohall_{game}_v0")
        self.possible_agents = [f"player_{k}" for k in range(players)]
        self.agent_seat = {a: k for k, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, OBS_HIGH, (self.observer.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.possible_agents}
        self._rng_seed = seed                  # the seed RNG is built when first used
        self._seed_rng: random.Random | None = None
        self._next_seed = seed
        self.game: dominohall.Game | None = None
        # the per-step path, bound once
        self._observe_view = self.observer.observe
        self._codes = self.actions.codes
        self._n_actions = self.actions.size

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            # Seeding a Mersenne Twister costs as much as a third of a deal, so the RNG
            # for the seeds of later reset() calls is built only when one needs it.
            self._rng_seed, self._seed_rng = seed, None
            game_seed = seed
        elif self._next_seed is not None:
            game_seed = self._next_seed
        else:
            if self._seed_rng is None:
                self._seed_rng = random.Random(self._rng_seed)
            game_seed = self._seed_rng.randrange(2 ** 62)
        self._next_seed = None
        self.game = g = dominohall.new_game(self.game_name, players=self.n, seed=game_seed,
                                            options=self.game_options)
        self.agents = agents = self.possible_agents[:]
        self._zero_rewards = dict.fromkeys(agents, 0.0)     # copied, never handed out
        self.rewards = self._zero_rewards.copy()
        self._cumulative_rewards = self._zero_rewards.copy()
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        self._last_scores = g.scores
        self._last_adv = self._advantages(self._last_scores)
        self.agent_selection = self.possible_agents[g.current_seat]
        self._illegal = False

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        g = self.game
        assert g is not None
        view = g.view(self.agent_seat[agent])
        mask = np.zeros(self._n_actions, np.int8)       # a new array every call
        if not self._illegal:
            codes = self._codes
            w = memoryview(mask)
            for a in view["legal_actions"]:
                w[codes[a]] = 1
        return {"observation": self._observe_view(view), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool,
                                                  bool, dict[str, Any]]:
        """AECEnv.last, with `observe` inlined (one call less per step)."""
        agent = self.agent_selection
        assert agent is not None
        if observe:
            g = self.game
            assert g is not None
            view = g.view(self.agent_seat[agent])
            mask = np.zeros(self._n_actions, np.int8)
            if not self._illegal:
                codes = self._codes
                w = memoryview(mask)
                for a in view["legal_actions"]:
                    w[codes[a]] = 1
            observation = {"observation": self._observe_view(view), "action_mask": mask}
        else:
            observation = None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        assert g is not None
        self._cumulative_rewards[agent] = 0.0
        table = self._engine_actions
        if action.__class__ is int and 0 <= action < len(table):     # the usual case
            try:
                g.apply(table[action])       # the engine's Action: no text to parse
            except (dominohall.IllegalAction, TypeError, ValueError) as err:
                self._illegal_step(agent, action, action, err)
                return
        else:
            code = None
            try:
                code = int(action)
                if not 0 <= code < len(table):
                    raise dominohall.IllegalAction(
                        f"{action!r} is not an action id (0..{len(table) - 1})")
                g.apply(table[code])
            except (dominohall.IllegalAction, TypeError, ValueError) as err:
                self._illegal_step(agent, action, code, err)
                return
        scores = g.scores
        if scores == self._last_scores:           # nothing scored: every reward is 0
            self.rewards = self._zero_rewards.copy()
        else:
            adv = self._advantages(scores)
            last = self._last_adv
            self.rewards = {a: adv[k] - last[k] for k, a in enumerate(self.agents)}
            self._last_adv, self._last_scores = adv, scores
            self._accumulate_rewards()
        if g.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"scores": g.scores, "winners": g.winners}
        else:
            self.agent_selection = self.possible_agents[g.current_seat]
        if self.render_mode == "human":
            self.render()

    def _illegal_step(self, agent: str, action: Any, code: int | None, err: Exception) -> None:
        """An illegal `action` (`code` its integer, if it has one) ends the episode."""
        table = self._engine_actions
        text = table[code] if code is not None and 0 <= code < len(table) else None
        self._illegal = True
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.infos[agent] = {"illegal": str(text) if text is not None else action,
                             "error": str(err)}
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.game is None:
            return None
        view = self.game.view(None)
        last = view["log"][-1]["text"] if view["log"] else ""
        text = f"round {view['round']} scores {view['scores']}: {last}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def pettingzoo_env(game: str, *, players: int = 2, options: Mapping[str, Any] | None = None,
                   seed: int | None = None, **kwargs: Any) -> DominohallAEC:
    """A PettingZoo AEC environment for `game` (see :class:`DominohallAEC`)."""
    return DominohallAEC(game, players=players, options=options, seed=seed, **kwargs)
