"""Batched environments: N games stepped in one call, observations as numpy batches.

Two interfaces over the same batch of engine games (one ``Game`` per slot, every array
allocated once and written in place; no Python env object per game):

* :func:`vector_env` — a ``gymnasium.vector.VectorEnv`` for single-agent play against
  dominohall bots: the learner's seat in N matches.  Slot ``i`` is exactly the single
  env ``dominohall/<Game>-v0`` (see :mod:`dominohall.rl.gym_env`) seeded with
  ``seed + i``, as in ``gymnasium.vector.SyncVectorEnv(...).reset(seed=seed)``: the
  same deals, bot moves, observations, masks, rewards and terminations (tests/rl check
  it step by step), with Gymnasium's default autoreset (``NEXT_STEP``: the step after
  an episode ends deals that slot again, ignores its action and returns reward 0).  An
  illegal action ends that slot's episode with ``illegal_reward`` and an all-zero mask
  (``info["illegal"]`` maps the slot to the action); ``info["final_scores"]`` maps each
  slot whose match ended in this step to its scores.

  >>> import numpy as np
  >>> env = vector_env("block", num_envs=8, seed=1, opponents="random")
  >>> obs, info = env.reset()
  >>> obs["observation"].shape[0], obs["action_mask"].shape
  (8, (8, 86))
  >>> rng = np.random.default_rng(0)
  >>> actions = (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)
  >>> obs, reward, terminated, truncated, info = env.step(actions)   # a legal action each
  >>> reward.shape, terminated.dtype
  ((8,), dtype('bool'))

* :func:`batched_games` — multi-agent: every seat is played by the caller.  ``reset()``
  and ``step(actions)`` return the current seat of each game, the observation of that
  seat's view and its action mask, batched; ``step`` also returns every seat's reward
  (the change of its advantage, as in the single env) and which games ended.  A game
  that ends is dealt again at once (its row then shows the new deal), and its final
  scores are in ``info["final_scores"]``.

Observations are :class:`~dominohall.rl.observer.Observer` tensors of the acting seat's
view, written for the line games and Mexican Train straight from the engine's state by
:class:`~dominohall.rl.state_observer.StateObserver` (which reads only what the seat's
view shows; tests/rl check both the equality with the Observer and that hidden tiles
change nothing).  Masks come from the engine's ``legal_actions()``.  The bots see only
their own views: the ``random`` bot, which reads only the legal actions of its view, is
stepped in a tight loop over ``Game.legal_actions()`` with the same random draws; any
other bot gets ``Game.view(seat)``.  Seeding: slot ``i`` has its own numpy generator,
seeded with ``seed + i`` (``seed=None``: fresh entropy), that draws each of its deals'
seeds, resets included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import dominohall
from dominohall.bots.simple import RandomBot

from .gym_env import DEFAULT_PLAYERS, _make_bot
from .observer import OBS_HIGH, Observer, _Track, advantages
from .state_observer import StateObserver, supports

_AHEAD = 64     # deal seeds drawn at once per slot


def _seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    """One seed per slot, as SyncVectorEnv.reset spreads them (int: seed + i)."""
    if seed is None:
        return [None] * n
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(n)]
    seeds = list(seed)
    if len(seeds) != n:
        raise ValueError(f"give one seed per game ({n}), not {len(seeds)}")
    return seeds


class _Batch:
    """N games of one kind and their batched arrays (what both interfaces share)."""

    def __init__(self, game: str, num_envs: int, players: int | None,
                 options: Mapping[str, Any] | None, seed: Any, history: int) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a positive whole number, not {num_envs!r}")
        self.game_name = game
        self.n = DEFAULT_PLAYERS[game] if players is None else players
        self.game_options = dict(options or {})
        probe = dominohall.new_game(game, players=self.n, seed=0, options=self.game_options)
        self.num_envs = num_envs
        self.fast = supports(probe)
        # the Observer's own tracks serve only the view fallback (N x players of them)
        self.observer = Observer(probe, history=history,
                                 tracks=0 if self.fast else 2 * num_envs * self.n + 16)
        self.state_observer = StateObserver(self.observer) if self.fast else None
        self.spec = self.observer.spec
        self.table = self.spec.engine_actions          # action id -> the engine's Action
        self.codes = self.spec.codes                   # Action -> action id
        self.advantages = advantages(probe)
        self.size = self.observer.size
        self.actions = self.spec.size
        # the observations, and a scratch row after them (see StateObserver.write_rows)
        self.store = np.zeros((num_envs + 1, self.size), np.float32)
        self.obs = self.store[:num_envs]
        self.mask = np.zeros((num_envs, self.actions), np.int8)
        self.w = memoryview(self.store.reshape(-1))    # flat views: element writes in place
        self.mw = memoryview(self.mask.reshape(-1))
        self.games: list[dominohall.Game] = []
        self.tracks: list[_Track] = []
        self.heads: np.ndarray | None = None
        if self.state_observer is not None:
            self.tracks, self.heads = self.state_observer.new_tracks(num_envs)
        self.rngs: list[np.random.Generator] = []
        self.seed(seed)

    def seed(self, seed: Any) -> None:
        """Slot i's generator: Gymnasium's ``np_random`` of its seed (as the single env's
        ``reset(seed=...)``)."""
        self.rngs = [seeding.np_random(s)[0] for s in _seeds(seed, self.num_envs)]
        self.ahead = [np.zeros(0, np.int64)] * self.num_envs    # seeds drawn ahead
        self.next = [0] * self.num_envs                            # the next one's index

    def deal(self, i: int) -> int:
        """A new game in slot i, its seed drawn from the slot's generator; the seed."""
        k = self.next[i]
        ahead = self.ahead[i]
        if k == len(ahead):     # _AHEAD draws at once are the same as _AHEAD single draws
            ahead = self.ahead[i] = self.rngs[i].integers(2 ** 62, size=_AHEAD)
            k = 0
        self.next[i] = k + 1
        game_seed = int(ahead[k])
        g = dominohall.new_game(self.game_name, players=self.n, seed=game_seed,
                                options=self.game_options)
        if i < len(self.games):
            self.games[i] = g
        else:
            self.games.append(g)
        if self.tracks:
            self.tracks[i].seen = 0         # its first event, the deal, clears it
        return game_seed

    def fill(self, rows: Sequence[int], seats: Sequence[int]) -> None:
        """Rows `rows` of the observation and mask batches: ``seats[i]``'s view of game i
        (the mask: the engine's legal actions when it is that seat's turn)."""
        games, codes = self.games, self.codes
        if self.state_observer is not None:
            self.state_observer.write_rows(self.store, self.w, rows, games, seats, self.tracks,
                                           self.mask, self.heads)
            return
        legals = []
        for i in rows:
            view = games[i].view(seats[i])
            self.observer.observe(view, out=self.obs[i])
            legals.append(view["legal_actions"])
        self.mask[np.asarray(rows, np.intp)] = 0
        pos: list[int] = []
        size = self.actions
        for i, legal in zip(rows, legals):
            base = i * size
            pos += [base + codes[a] for a in legal]
        self.mask.reshape(-1)[pos] = 1

    def action_ids(self, actions: Any) -> list[int]:
        """One action id per game, as Python ints (floats are cut as int() cuts them)."""
        a = np.asarray(actions).reshape(-1)
        if a.shape[0] != self.num_envs:
            raise ValueError(f"give {self.num_envs} actions, not {a.shape[0]}")
        if a.dtype.kind in "iub":
            return list(a.astype(np.int64, copy=False).tolist())
        return [int(x) for x in a.tolist()]

    def is_legal(self, i: int, code: int) -> bool:
        """Whether action id `code` is in game i's mask."""
        return 0 <= code < self.actions and self.mw[i * self.actions + code] == 1


class DominohallVectorEnv(gym.vector.VectorEnv):  # type: ignore[misc]
    """The learner's seat in N matches against bots (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game: str = "block", num_envs: int = 1, players: int | None = None,
                 options: Mapping[str, Any] | None = None, seed: Any = None,
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
        # an unknown name raises ValueError naming the choices
        kinds = [_make_bot(name, 0, game).__class__ for name in names]
        self._only_random = all(k is RandomBot for k in kinds)
        self.seat = seat
        self.opponent_names = names
        self._others = [s for s in range(n) if s != seat]
        self.illegal_reward = float(illegal_reward)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, OBS_HIGH, (b.observer.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (b.spec.size,), np.int8),
        })
        self.single_action_space = spaces.Discrete(b.spec.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # per slot: the bots by seat, and the random ones' generators (the tight loop)
        self._bots: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        self._random: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        self._last: list[float] = [0.0] * num_envs      # the learner's advantage so far
        self._scores: list[list[int]] = [[] for _ in range(num_envs)]
        self._autoreset = [False] * num_envs
        self._truncated = np.zeros(num_envs, bool)
        self._seats = [seat] * num_envs
        self._started = False

    @property
    def games(self) -> list[dominohall.Game]:
        """The engine games, one per slot (read them, do not apply to them)."""
        return self._batch.games

    def _deal(self, i: int) -> None:
        b = self._batch
        game_seed = b.deal(i)
        g = b.games[i]
        fast = self._random[i]
        if fast and self._only_random:  # RandomBot(seed) is random.Random(seed): seed again
            for s, rng in fast.items():
                rng.seed(game_seed + s)
        else:
            bots = self._bots[i] = {s: _make_bot(name, game_seed + s, b.game_name)
                                    for s, name in zip(self._others, self.opponent_names)}
            self._random[i] = {s: bot.rng for s, bot in bots.items()
                               if bot.__class__ is RandomBot}
        scores = self._scores[i] = g.scores
        self._last[i] = b.advantages(scores)[self.seat]
        self._play_bots(i)

    def _play_bots(self, i: int) -> None:
        """The other seats' turns, until the learner's or the end of the match."""
        g = self._batch.games[i]
        fast = self._random[i]
        seat = self.seat
        while True:
            s = g.current_seat
            if s is None or s == seat:
                return
            rng = fast.get(s)
            if rng is not None:     # RandomBot.act: rng.choice(legal actions), inlined
                legal = g.legal_actions()
                g.apply_unchecked(legal[rng._randbelow(len(legal))])
                continue
            view = g.view(s)
            choice = self._bots[i][s].act(view)
            legal = view["legal_actions"]        # the engine's Actions, equal to their text
            if choice in legal:                  # the engine's own object: its fast path
                g.apply(legal[legal.index(choice)])
            else:
                g.apply(choice, seat=s)          # raises the engine's error, naming why

    def _observation(self) -> dict[str, np.ndarray]:
        b = self._batch
        return {"observation": b.obs.copy(), "action_mask": b.mask.copy()}

    def reset(self, *, seed: Any = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """Deal every slot (`seed`: an int, slot i then uses seed + i, or one per slot)."""
        if seed is not None:
            self._batch.seed(seed)
        self._batch.games.clear()
        for i in range(self.num_envs):
            self._deal(i)
        self._batch.fill(range(self.num_envs), self._seats)
        self._autoreset = [False] * self.num_envs
        self._started = True
        return self._observation(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict]:
        if not self._started:
            raise RuntimeError("call reset() first")
        b = self._batch
        codes = b.action_ids(actions)
        table, seat, games, mw, size = b.table, self.seat, b.games, b.mw, b.actions
        advantages, last, scores_seen = b.advantages, self._last, self._scores
        autoreset = self._autoreset
        rewards = [0.0] * self.num_envs
        terminated = [False] * self.num_envs
        illegal: dict[int, int] = {}
        final: dict[int, list[int]] = {}
        for i, code in enumerate(codes):
            if autoreset[i]:                        # NEXT_STEP: this step deals again
                self._deal(i)
                autoreset[i] = False
                continue
            if not (0 <= code < size and mw[i * size + code]):   # not in the mask
                illegal[i] = code
                rewards[i] = self.illegal_reward
                terminated[i] = autoreset[i] = True
                b.mask[i] = 0
                continue
            g = games[i]
            g.apply_unchecked(table[code])          # legal: the mask is the legal actions
            self._play_bots(i)
            scores = g.scores
            if scores != scores_seen[i]:            # else the reward is now - last = 0.0
                scores_seen[i] = scores
                now = advantages(scores)[seat]
                rewards[i] = now - last[i]
                last[i] = now
            if g.is_over:
                terminated[i] = autoreset[i] = True
                final[i] = scores
        if illegal:                                 # their rows stay: nothing has moved
            b.fill([i for i in range(self.num_envs) if i not in illegal], self._seats)
        else:
            b.fill(range(self.num_envs), self._seats)
        info: dict[str, Any] = {}
        if illegal:
            info["illegal"] = illegal
        if final:
            info["final_scores"] = final
        return (self._observation(), np.array(rewards, np.float64),
                np.array(terminated, bool), self._truncated.copy(), info)


class BatchedGames:
    """N games where the caller plays every seat (see the module docstring)."""

    def __init__(self, game: str = "block", num_envs: int = 1, players: int | None = None,
                 options: Mapping[str, Any] | None = None, seed: Any = None,
                 history: int = 16) -> None:
        if game == "block" and options is None:
            options = {"hands": 1}
        b = self._batch = _Batch(game, num_envs, players, options, seed, history)
        self.num_envs = num_envs
        self.players = b.n
        self.observer = b.observer
        self.action_size = b.spec.size
        self._seat = [0] * num_envs
        self._last: list[list[float]] = [[0.0] * b.n for _ in range(num_envs)]
        self._scores: list[list[int]] = [[] for _ in range(num_envs)]
        self._zero = [0.0] * b.n

    @property
    def games(self) -> list[dominohall.Game]:
        """The engine games, one per slot (read them, do not apply to them)."""
        return self._batch.games

    @property
    def seat(self) -> np.ndarray:
        """The current seat of each game."""
        return np.array(self._seat, np.int64)

    def _deal(self, i: int) -> None:
        b = self._batch
        b.deal(i)
        g = b.games[i]
        scores = self._scores[i] = g.scores
        self._last[i] = b.advantages(scores)
        seat = g.current_seat
        assert seat is not None             # a new deal: someone's turn
        self._seat[i] = seat

    def reset(self, seed: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every game: (observations, action masks, current seats), batched copies.
        `seed`: an int (game i then uses seed + i) or one per game."""
        b = self._batch
        if seed is not None:
            b.seed(seed)
        b.games.clear()
        for i in range(self.num_envs):
            self._deal(i)
        b.fill(range(self.num_envs), self._seat)
        return b.obs.copy(), b.mask.copy(), self.seat

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray, dict]:
        """Apply one action id per game for its current seat.

        Returns (observations, masks, current seats, rewards per game and seat, which
        games ended, info).  Every action is checked against its game's mask first: an
        illegal one raises IllegalAction naming the game, and then no game has moved."""
        b = self._batch
        if not b.games:
            raise RuntimeError("call reset() first")
        codes = b.action_ids(actions)
        for i, code in enumerate(codes):
            if not b.is_legal(i, code):
                raise dominohall.IllegalAction(
                    f"game {i}: action {code!r} is not legal for seat {self._seat[i]} "
                    f"(see the mask); no game has moved")
        table, advantages = b.table, b.advantages
        last, scores_seen, zero = self._last, self._scores, self._zero
        rewards: list[list[float]] = []
        ended = [False] * self.num_envs
        final: dict[int, list[int]] = {}
        for i, code in enumerate(codes):
            g = b.games[i]
            g.apply_unchecked(table[code])          # legal: checked against the mask above
            scores = g.scores
            if scores != scores_seen[i]:
                scores_seen[i] = scores
                now = advantages(scores)
                rewards.append([x - y for x, y in zip(now, last[i])])
                last[i] = now
            else:
                rewards.append(zero)
            if g.is_over:
                ended[i] = True
                final[i] = scores
                self._deal(i)
            else:
                self._seat[i] = g.state.current     # the match goes on: a seat
        b.fill(range(self.num_envs), self._seat)
        info: dict[str, Any] = {"final_scores": final} if final else {}
        return (b.obs.copy(), b.mask.copy(), self.seat, np.array(rewards, np.float64),
                np.array(ended, bool), info)


def vector_env(game: str = "block", num_envs: int = 1, **kwargs: Any) -> DominohallVectorEnv:
    """A Gymnasium vector env of `num_envs` matches of `game` against bots.

    Keywords: ``players``, ``options``, ``seed`` (slot i is the single env reset with
    ``seed + i``), ``opponents`` (a bot name, or one per other seat), ``seat``,
    ``history``, ``illegal_reward``, as in the single env (see the module docstring)."""
    return DominohallVectorEnv(game, num_envs, **kwargs)


def batched_games(game: str = "block", num_envs: int = 1, **kwargs: Any) -> BatchedGames:
    """N games stepped together, every seat played by the caller (multi-agent).

    Keywords: ``players``, ``options``, ``seed`` (game i's deals come from a generator
    seeded with ``seed + i``), ``history``; see the module docstring."""
    return BatchedGames(game, num_envs, **kwargs)
