"""Batched environments: N games stepped in one call, observations as numpy batches.

Two interfaces over the same batch of engine games (one ``Game`` per slot, one shared
:class:`~dominohall.rl.observer.Observer`, every array allocated once):

* :func:`vector_env` — a ``gymnasium.vector.VectorEnv`` for single-agent play against
  dominohall bots: the learner's seat in N matches, the same observations, rewards and
  illegal-action rule as the single env (``dominohall/Block-v0`` etc., see
  :mod:`dominohall.rl.gym_env`), with Gymnasium's default autoreset (``NEXT_STEP``: the
  step after an episode ends resets that slot, ignores its action and returns reward 0).

  >>> import numpy as np
  >>> env = vector_env("block", num_envs=8, seed=1, opponents="random")
  >>> obs, info = env.reset()
  >>> obs["observation"].shape[0], obs["action_mask"].shape[0]
  (8, 8)
  >>> first_legal = obs["action_mask"].argmax(axis=1)
  >>> obs, reward, terminated, truncated, info = env.step(first_legal)
  >>> reward.shape, terminated.dtype
  ((8,), dtype('bool'))

* :func:`batched_games` — multi-agent: every seat is played by the caller.  ``reset()``
  and ``step(actions)`` return the current seat of each game, the observation of that
  seat's view and its action mask, batched; ``step`` also returns every seat's reward
  (the change of its advantage, as in the single env) and which games ended.  A game
  that ends is dealt again at once (its row then shows the new deal), and its final
  scores are in ``info["final_scores"]``.

Observations come only from ``Game.view(seat)``, legality only from the engine; bots see
only their own views.  Seeding: ``seed`` seeds a numpy generator that draws every deal's
seed (resets included), so the same seed gives the same games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import dominohall

from .gym_env import DEFAULT_PLAYERS, _make_bot
from .observer import OBS_HIGH, Observer, advantages


class _Batch:
    """N games of one kind and their batched arrays (what both interfaces share)."""

    def __init__(self, game: str, num_envs: int, players: int | None,
                 options: Mapping[str, Any] | None, seed: int | None, history: int) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a positive whole number, not {num_envs!r}")
        self.game_name = game
        self.n = DEFAULT_PLAYERS[game] if players is None else players
        self.game_options = dict(options or {})
        probe = dominohall.new_game(game, players=self.n, seed=0, options=self.game_options)
        self.num_envs = num_envs
        self.observer = Observer(probe, history=history, tracks=2 * num_envs * self.n + 16)
        self.spec = self.observer.spec
        self.table = self.spec.engine_actions          # action id -> the engine's Action
        self.codes = self.spec.codes                   # Action -> action id
        self.advantages = advantages(probe)
        self.obs = np.zeros((num_envs, self.observer.size), np.float32)
        self.mask = np.zeros((num_envs, self.spec.size), np.int8)
        self.games: list[dominohall.Game] = []
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def new_game(self) -> tuple[dominohall.Game, int]:
        game_seed = int(self.rng.integers(2 ** 62))
        return dominohall.new_game(self.game_name, players=self.n, seed=game_seed,
                                   options=self.game_options), game_seed

    def fill(self, i: int, view: Mapping[str, Any]) -> None:
        """Row i of the observation and mask batches from `view`."""
        self.observer.observe(view, out=self.obs[i])
        row = self.mask[i]
        row.fill(0)
        codes = self.codes
        row[[codes[a] for a in view["legal_actions"]]] = 1


class DominohallVectorEnv(gym.vector.VectorEnv):  # type: ignore[misc]
    """The learner's seat in N matches against bots (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game: str = "block", num_envs: int = 1, players: int | None = None,
                 options: Mapping[str, Any] | None = None, seed: int | None = None,
                 opponents: str | Sequence[str] = "random", seat: int = 0,
                 history: int = 16, illegal_reward: float = -100.0) -> None:
        if game == "block" and options is None:
            options = {"hands": 1}                      # as dominohall/Block-v0
        b = self._batch = _Batch(game, num_envs, players, options, seed, history)
        n = b.n
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"give one opponent name or {n - 1} names, not {len(names)}")
        for name in names:
            _make_bot(name, 0, game)        # an unknown name raises ValueError naming the choices
        self.seat = seat
        self.opponent_names = names
        self.illegal_reward = float(illegal_reward)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, OBS_HIGH, (b.observer.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (b.spec.size,), np.int8),
        })
        self.single_action_space = spaces.Discrete(b.spec.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._bots: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        self._last = np.zeros(num_envs, np.float64)       # the learner's advantage so far
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, bool)
        self._truncated = np.zeros(num_envs, bool)
        self._autoreset = np.zeros(num_envs, bool)
        self._started = False

    @property
    def games(self) -> list[dominohall.Game]:
        """The engine games, one per slot (read them, do not apply to them)."""
        return self._batch.games

    def _deal(self, i: int) -> None:
        b = self._batch
        g, game_seed = b.new_game()
        if i < len(b.games):
            b.games[i] = g
        else:
            b.games.append(g)
        others = [s for s in range(b.n) if s != self.seat]
        self._bots[i] = {s: _make_bot(name, game_seed + s, b.game_name)
                         for s, name in zip(others, self.opponent_names)}
        self._last[i] = b.advantages(g.scores)[self.seat]
        self._play_bots(i)
        b.fill(i, g.view(self.seat))

    def _play_bots(self, i: int) -> None:
        g = self._batch.games[i]
        bots = self._bots[i]
        seat = self.seat
        while not g.is_over and g.current_seat != seat:
            s = g.current_seat
            view = g.view(s)
            choice = bots[s].act(view)
            legal = view["legal_actions"]        # the engine's Actions, equal to their text
            if choice in legal:                  # the engine's own object: its fast path
                g.apply(legal[legal.index(choice)])
            else:
                g.apply(choice, seat=s)          # raises the engine's error, naming why

    def _observation(self) -> dict[str, np.ndarray]:
        b = self._batch
        return {"observation": b.obs.copy(), "action_mask": b.mask.copy()}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        if seed is not None:
            self._batch.seed(seed)
        self._batch.games.clear()
        for i in range(self.num_envs):
            self._deal(i)
        self._autoreset.fill(False)
        self._started = True
        return self._observation(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict]:
        if not self._started:
            raise RuntimeError("call reset() first")
        b = self._batch
        codes = np.asarray(actions).reshape(-1)
        if codes.shape[0] != self.num_envs:
            raise ValueError(f"give {self.num_envs} actions, not {codes.shape[0]}")
        table, mask, seat = b.table, b.mask, self.seat
        rewards, terminated = self._rewards, self._terminated
        rewards.fill(0.0)
        terminated.fill(False)
        illegal: dict[int, Any] = {}
        for i in range(self.num_envs):
            if self._autoreset[i]:                  # NEXT_STEP: this step deals again
                self._deal(i)
                self._autoreset[i] = False
                continue
            g = b.games[i]
            code = codes[i]
            if not (0 <= code < len(table)) or not mask[i, code]:
                illegal[i] = code.item() if hasattr(code, "item") else code
                rewards[i] = self.illegal_reward
                terminated[i] = True
                mask[i].fill(0)
                self._autoreset[i] = True
                continue
            g.apply(table[code])                    # legal (the mask): the engine's fast path
            self._play_bots(i)
            now = b.advantages(g.scores)[seat]
            rewards[i] = now - self._last[i]
            self._last[i] = now
            b.fill(i, g.view(seat))
            if g.is_over:
                terminated[i] = True
                self._autoreset[i] = True
        info: dict[str, Any] = {}
        if illegal:
            info["illegal"] = illegal
        return (self._observation(), rewards.copy(), terminated.copy(),
                self._truncated.copy(), info)


class BatchedGames:
    """N games where the caller plays every seat (see the module docstring)."""

    def __init__(self, game: str = "block", num_envs: int = 1, players: int | None = None,
                 options: Mapping[str, Any] | None = None, seed: int | None = None,
                 history: int = 16) -> None:
        if game == "block" and options is None:
            options = {"hands": 1}
        b = self._batch = _Batch(game, num_envs, players, options, seed, history)
        self.num_envs = num_envs
        self.players = b.n
        self.observer = b.observer
        self.action_size = b.spec.size
        self.seat = np.zeros(num_envs, np.int64)
        self._last = np.zeros((num_envs, b.n), np.float64)
        self._rewards = np.zeros((num_envs, b.n), np.float64)

    @property
    def games(self) -> list[dominohall.Game]:
        """The engine games, one per slot (read them, do not apply to them)."""
        return self._batch.games

    def _deal(self, i: int) -> None:
        b = self._batch
        g, _ = b.new_game()
        if i < len(b.games):
            b.games[i] = g
        else:
            b.games.append(g)
        self._last[i] = b.advantages(g.scores)
        self._show(i)

    def _show(self, i: int) -> None:
        g = self._batch.games[i]
        s = g.current_seat
        self.seat[i] = s
        self._batch.fill(i, g.view(s))

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every game: (observations, action masks, current seats), batched copies."""
        if seed is not None:
            self._batch.seed(seed)
        self._batch.games.clear()
        for i in range(self.num_envs):
            self._deal(i)
        b = self._batch
        return b.obs.copy(), b.mask.copy(), self.seat.copy()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray, dict]:
        """Apply one action id per game for its current seat.

        Returns (observations, masks, current seats, rewards per game and seat, which
        games ended, info).  Every action is checked against its game's mask first: an
        illegal one raises IllegalAction naming the game, and then no game has moved."""
        b = self._batch
        if not b.games:
            raise RuntimeError("call reset() first")
        codes = np.asarray(actions).reshape(-1)
        if codes.shape[0] != self.num_envs:
            raise ValueError(f"give {self.num_envs} actions, not {codes.shape[0]}")
        table, mask = b.table, b.mask
        for i in range(self.num_envs):
            code = codes[i]
            if not (0 <= code < len(table)) or not mask[i, code]:
                raise dominohall.IllegalAction(
                    f"game {i}: action {code!r} is not legal for seat {self.seat[i]} "
                    f"(see the mask); no game has moved")
        rewards = self._rewards
        ended = np.zeros(self.num_envs, bool)
        final: dict[int, list[int]] = {}
        for i in range(self.num_envs):
            g = b.games[i]
            g.apply(table[codes[i]])
            now = b.advantages(g.scores)
            rewards[i] = now
            rewards[i] -= self._last[i]
            self._last[i] = now
            if g.is_over:
                ended[i] = True
                final[i] = g.scores
                self._deal(i)
            else:
                self._show(i)
        info: dict[str, Any] = {"final_scores": final} if final else {}
        return b.obs.copy(), b.mask.copy(), self.seat.copy(), rewards.copy(), ended, info


def vector_env(game: str = "block", num_envs: int = 1, **kwargs: Any) -> DominohallVectorEnv:
    """A Gymnasium vector env of `num_envs` matches of `game` against bots.

    Keywords: ``players``, ``options``, ``seed``, ``opponents`` (a bot name, or one per
    other seat), ``seat``, ``history``, ``illegal_reward``, as in the single env."""
    return DominohallVectorEnv(game, num_envs, **kwargs)


def batched_games(game: str = "block", num_envs: int = 1, **kwargs: Any) -> BatchedGames:
    """N games stepped together, every seat played by the caller (multi-agent)."""
    return BatchedGames(game, num_envs, **kwargs)
