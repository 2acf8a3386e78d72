"""OpenSpiel python games over the dominohall engine, with explicit chance.

Importing :mod:`dominohall.rl` registers::

    python_dominohall_mexican_train   players=4 (2..10)
    python_dominohall_all_fives       players=2 (2..4), leader=0
    python_dominohall_block           players=2 (2..4), leader=0

Parameters: ``players``; ``options``, RULES.md options as ``"name:value;name:value"``
(e.g. ``"preset:puremco;double_blank:50"``, ``"teams:true"``; ``:`` because OpenSpiel's
game strings reserve ``=`` and ``,``); ``leader`` (line
games: the seat that leads, or -1 for a chance node choosing it uniformly).
``pyspiel.load_game("python_dominohall_block")`` is 2-player double-6 Block, one
hand, player 0 leading: OpenSpiel's ``python_block_dominoes`` with an explicit
``pass`` action.

An episode is **one round** (Mexican Train, ``rounds=1``) or **one hand** (line
games, ``hands=1``): the engine deals later rounds from its own RNG, which would be
hidden chance.  Chance is explicit:

* *Deal*: one chance node per dealt tile (outcome = tile id, uniform over the tiles
  not dealt yet), seat 0's hand first; Mexican Train with ``engine=holder`` then has
  one chance node per engine-search draw when nobody was dealt the engine; line
  games with ``leader=-1`` one node for the leader (outcome = seat).  The game is
  then created with ``new_game(hands=..., boneyard=...)``.
* *Draw*: the player's ``draw`` action is followed by a chance node (outcome = the
  tile, uniform over the boneyard); the adapter puts that tile on top of the
  boneyard (``Game.put_on_top``) and applies the draw.

Actions are those of :mod:`dominohall.rl.actions`.  Returns (terminal only) are
the zero-sum advantages of :func:`dominohall.rl.observer.advantage`: the points
difference (own minus the mean of the others, team minus team), negated for
Mexican Train penalty scoring.

The state holds the whole game, as OpenSpiel states do, but every observation
and information-state string or tensor is built from ``Game.view(player)`` by
:class:`~dominohall.rl.observer.Observer` (with one extra slice,
``pending_draw``).  The information state keeps the round's whole public
history (compact rows); the observation the last 16 events.
``resample_from_infostate`` builds the rest of the game with
``dominohall.sample_world`` from the player's view, so ``ISMCTSBot`` works; the
resampled state keeps the original's ``history()`` (the player's own actions are
the same; its chance outcomes are the true ones, not the sampled world's).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

import dominohall
from dominohall.engine.options import resolve_options

from .actions import TILE_TEXT, ActionSpec, action_spec
from .observer import TILE_ID, Observer, advantages

GAMES = {
    "python_dominohall_mexican_train": ("mexican_train", 4, 2, 10),
    "python_dominohall_all_fives": ("all_fives", 2, 2, 4),
    "python_dominohall_block": ("block", 2, 2, 4),
}
OBSERVATION_HISTORY = 16


def parse_options(text: str) -> dict[str, Any]:
    """``"a:1;b:x"`` (or ``"a=1;b=x"``) -> ``{"a": "1", "b": "x"}`` (the engine coerces
    the values)."""
    out: dict[str, Any] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition(":")
        if not sep:
            name, sep, value = part.partition("=")
        if not sep:
            raise ValueError(f"option {part!r}: write name:value")
        out[name.strip()] = value.strip()
    return out


class _Config:
    """What every state of one game shares (never copied by clone)."""

    def __init__(self, name: str, players: int, options: dict[str, Any], leader: int) -> None:
        self.name = name
        self.players = players
        self.options = options
        self.leader = leader
        opts = resolve_options(name, players, options)
        self.opts = opts
        self.spec: ActionSpec = action_spec(name, players, options)
        self.set_size = self.spec.n_tiles
        self.hand_size = opts.hand_size
        self.engine = -1
        if name == "mexican_train":
            self.engine = TILE_ID[f"{opts.set_max}-{opts.set_max}"]
        self.set_aside = name == "mexican_train" and opts.engine == "set_aside"
        self.holder = name == "mexican_train" and opts.engine == "holder"
        self.tiles = [t for t in range(self.set_size) if not (self.set_aside and t == self.engine)]
        probe = dominohall.new_game(name, players=players, seed=0, options=options)
        self.advantages = advantages(probe)
        n, size = players, self.set_size
        passes = size + n * (size + 1)
        self.max_events = size + size + passes + n        # plays, draws, passes, ends
        self.max_length = self.max_events + size + size + 1

    def __deepcopy__(self, memo: Any) -> _Config:
        return self

    def __reduce__(self) -> tuple[Any, ...]:           # pickled by OpenSpiel's serialize
        return (_Config, (self.name, self.players, self.options, self.leader))


class _Box:
    """Holds the dominohall Game; OpenSpiel's clone deep-copies it with Game.clone()."""

    __slots__ = ("game",)

    def __init__(self, game: dominohall.Game | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: Any) -> _Box:
        return _Box(None if self.game is None else self.game.clone())

    def __getstate__(self) -> Any:
        return (self.game,)                 # never falsy: pickle calls __setstate__

    def __setstate__(self, state: Any) -> None:
        self.game = state[0]


def _bound(cfg: _Config) -> float:
    set_max = cfg.opts.set_max
    pips = sum(int(a) + int(b) for a, b in (t.split("-") for t in TILE_TEXT[:cfg.set_size]))
    if cfg.name == "mexican_train":
        return float(pips + 50)
    ends = len(cfg.spec.targets) - 1
    return float(pips + cfg.set_size * 2 * set_max * ends)


class DominohallGame(pyspiel.Game):  # type: ignore[misc]
    """One dominohall game as an OpenSpiel python game (see the module docstring)."""

    def __init__(self, short_name: str, params: Mapping[str, Any] | None = None) -> None:
        name, default_players, lo, hi = GAMES[short_name]
        params = dict(params or {})
        players = int(params.get("players", default_players))
        options = parse_options(str(params.get("options", "")))
        single = "rounds" if name == "mexican_train" else "hands"
        if str(options.get(single, "1")) != "1":
            raise ValueError(f"{short_name} plays one {'round' if single == 'rounds' else 'hand'}"
                             f" per episode ({single}=1): later deals would be hidden chance")
        options[single] = 1
        leader = int(params.get("leader", 0))
        cfg = _Config(name, players, options, leader)
        self.cfg = cfg
        bound = _bound(cfg)
        game_type = _game_type(short_name)
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.spec.size,
            max_chance_outcomes=cfg.set_size,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=cfg.max_length,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self, *args: Any) -> DominohallState:
        return DominohallState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _PyObserver:
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return _PyObserver(self.cfg, iig_obs_type)


def _game_type(short_name: str) -> pyspiel.GameType:
    name, default_players, lo, hi = GAMES[short_name]
    spec: dict[str, Any] = {"players": default_players, "options": ""}
    if name != "mexican_train":
        spec["leader"] = 0
    unit = "round" if name == "mexican_train" else "hand"
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"dominohall {name.replace('_', ' ')} (one {unit})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


class DominohallState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal in progress, then the dominohall Game (see the module docstring)."""

    def __init__(self, game: DominohallGame) -> None:
        super().__init__(game)
        self.cfg = game.cfg
        self.dealt: list[int] = []         # dealt tiles in order: seat 0's hand first
        self.search: list[int] = []        # Mexican Train holder search draws, in order
        self.leader: int | None = None if game.cfg.leader < 0 else game.cfg.leader
        self.box = _Box(None)
        self.boneyard: list[int] = []      # the Game's boneyard tiles (sorted ids)
        self.pending_draw = False

    # ------------------------------------------------------------------ phases
    @property
    def game(self) -> dominohall.Game | None:
        return self.box.game

    def _unseen(self) -> list[int]:
        used = set(self.dealt) | set(self.search)
        return [t for t in self.cfg.tiles if t not in used]

    def _searching(self) -> bool:
        cfg = self.cfg
        if not cfg.holder or len(self.dealt) < cfg.players * cfg.hand_size:
            return False
        if self.search:
            return self.search[-1] != cfg.engine
        return cfg.engine not in self.dealt

    def current_player(self) -> int:
        g = self.box.game
        if g is None or self.pending_draw:
            return pyspiel.PlayerId.CHANCE
        if g.is_over:
            return pyspiel.PlayerId.TERMINAL
        return int(g.current_seat)

    def _legal_actions(self, player: int) -> list[int]:
        g = self.box.game
        assert g is not None
        encode = self.cfg.spec.encode
        return sorted(encode(a) for a in g.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.box.game is not None:
            tiles = self.boneyard
        elif len(self.dealt) < self.cfg.players * self.cfg.hand_size or self._searching():
            tiles = self._unseen()
        else:
            n = self.cfg.players
            return [(s, 1.0 / n) for s in range(n)]
        p = 1.0 / len(tiles)
        return [(t, p) for t in tiles]

    def _apply_action(self, action: int) -> None:
        cfg = self.cfg
        g = self.box.game
        if g is None:
            if len(self.dealt) < cfg.players * cfg.hand_size:
                self.dealt.append(action)
            elif self._searching():
                self.search.append(action)
            else:
                self.leader = action
            if (len(self.dealt) == cfg.players * cfg.hand_size and not self._searching()
                    and (self.leader is not None or cfg.name == "mexican_train")):
                self._start()
            return
        if self.pending_draw:
            g.put_on_top(TILE_TEXT[action])
            g.apply("draw")
            self.boneyard.remove(action)
            self.pending_draw = False
            return
        text = cfg.spec.decode(action)
        if text == "draw":
            if "draw" not in g.legal_actions():
                raise dominohall.IllegalAction(f"draw: {g.view(g.current_seat)['legal_actions']}")
            self.pending_draw = True
            return
        g.apply(text)

    def _start(self) -> None:
        cfg = self.cfg
        h = cfg.hand_size
        hands = [[TILE_TEXT[t] for t in self.dealt[s * h:(s + 1) * h]] for s in range(cfg.players)]
        rest = self._unseen()
        boneyard = self.search + rest
        leader = None if cfg.name == "mexican_train" else self.leader
        self.box = _Box(dominohall.new_game(
            cfg.name, players=cfg.players, seed=0, options=cfg.options, hands=hands,
            boneyard=[TILE_TEXT[t] for t in boneyard], leader=leader))
        self.boneyard = sorted(rest)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            g = self.box.game
            if g is not None:
                return f"Draw {TILE_TEXT[action]}"
            if len(self.dealt) < self.cfg.players * self.cfg.hand_size:
                return f"Deal {TILE_TEXT[action]} to seat {len(self.dealt) // self.cfg.hand_size}"
            if self._searching():
                return f"Search draw {TILE_TEXT[action]}"
            return f"Leader {action}"
        return self.cfg.spec.decode(action)

    def is_terminal(self) -> bool:
        g = self.box.game
        return g is not None and g.is_over

    def returns(self) -> list[float]:
        g = self.box.game
        if g is None or not g.is_over:
            return [0.0] * self.cfg.players
        return [float(x) for x in self.cfg.advantages(g.scores)]

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> DominohallState:
        """A state with the same information state for `player`, hidden tiles resampled."""
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        clone = self.clone()
        g = self.box.game
        if g is None:
            clone._resample_deal(player, rng)
            return clone
        if g.is_over:
            return clone
        world = dominohall.sample_world(g.view(player), rng)
        clone.box = _Box(world)
        clone.boneyard = _boneyard_of(world, self.cfg)
        return clone

    def _resample_deal(self, player: int, rng: random.Random) -> None:
        cfg = self.cfg
        h = cfg.hand_size
        mine = set(self.dealt[player * h:(player + 1) * h])
        pool = [t for t in cfg.tiles if t not in mine]
        rng.shuffle(pool)
        if self.search:              # nobody holds the engine: keep it out of the hands
            pool.remove(cfg.engine)
        dealt = []
        for i, t in enumerate(self.dealt):
            dealt.append(t if player * h <= i < (player + 1) * h else pool.pop())
        self.dealt = dealt
        if self.search:
            found = self.search[-1] == cfg.engine
            k = len(self.search) - (1 if found else 0)
            self.search = [pool.pop() for _ in range(k)] + ([cfg.engine] if found else [])

    def __str__(self) -> str:
        g = self.box.game
        if g is None:
            return f"dealing: {[TILE_TEXT[t] for t in self.dealt]} search {self.search}"
        hands = [g.view(s)["hand"] for s in range(self.cfg.players)]
        last = g.view(None)["log"][-1]["text"]
        return f"hands {hands} boneyard {len(self.boneyard)} scores {g.scores}: {last}"


def _boneyard_of(world: dominohall.Game, cfg: _Config) -> list[int]:
    """The boneyard of a (sampled) game, from every seat's view: the tiles nobody holds
    and nobody has played."""
    used = set()
    for s in range(cfg.players):
        used.update(TILE_ID[t] for t in world.view(s)["hand"])
    table = world.view(None)
    if cfg.name == "mexican_train":
        used.add(TILE_ID[table["engine"]])
        for train in table["trains"]:
            used.update(TILE_ID[t] for t in train["tiles"])
    else:
        for e in table["log"]:
            if e["type"] == "play" and e.get("tile"):
                used.add(TILE_ID[e["tile"]])
    return [t for t in range(cfg.set_size) if t not in used]


class _PyObserver:
    """OpenSpiel's PyObserver interface over :class:`Observer` (plus ``pending_draw``)."""

    def __init__(self, cfg: _Config, iig_obs_type: Any) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("dominohall observers show one seat's private tiles at most")
        self.cfg = cfg
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        history = cfg.max_events if self.perfect_recall else OBSERVATION_HISTORY
        self.observer = Observer(cfg.spec, history=history, private=private,
                                 compact=self.perfect_recall)
        size = self.observer.size
        self.tensor = np.zeros(size + 1, np.float32)
        self.dict = self.observer.named(self.tensor[:size])
        self.dict["pending_draw"] = self.tensor[size:]
        self.private = private

    def set_from(self, state: DominohallState, player: int) -> None:
        g = state.box.game
        obs = self.observer
        body = self.tensor[:obs.size]
        if g is None:                       # still dealing: only the seat's own tiles so far
            self.tensor.fill(0.0)
            body[obs.offsets["seat"] + player] = 1.0
            if self.private:
                for t in _own_dealt(state, player):
                    body[obs.offsets["hand"] + t] = 1.0
            return
        obs.observe(g.view(player), out=body)
        self.tensor[obs.size] = float(state.pending_draw)

    def string_from(self, state: DominohallState, player: int) -> str:
        g = state.box.game
        if g is None:
            own = sorted(_own_dealt(state, player)) if self.private else []
            return (f"p{player} dealing hand:{[TILE_TEXT[t] for t in own]} "
                    f"dealt:{len(state.dealt)} search:{len(state.search)}")
        view = g.view(player)
        hand = view["hand"] if self.private else []
        head = f"p{player} hand:{hand} pending_draw:{int(state.pending_draw)}"
        if self.perfect_recall:
            events = [_event_text(e) for e in view["log"]]
            return head + " | " + "; ".join(events)
        if view["game"] == "mexican_train":
            table = " ".join(f"{t['id']}:{t['open_end']}{'*' if t['marker'] else ''}"
                             f"({len(t['tiles'])})" for t in view["trains"])
            table += f" owed:{view['owed']}"
        else:
            layout = view["layout"]
            table = f"lead:{layout['lead']} " + " ".join(
                f"{e['id']}:{e['value']}({len(e['tiles'])})" for e in layout["ends"])
            table += f" count:{layout['count']}"
        last = [_event_text(e) for e in view["log"][-3:]]
        return (f"{head} table:{table} sizes:{view['hand_sizes']} boneyard:{view['boneyard']} "
                f"scores:{view['scores']} current:{view['current_seat']} last:{last}")


def _own_dealt(state: DominohallState, player: int) -> list[int]:
    h = state.cfg.hand_size
    return state.dealt[player * h:(player + 1) * h]


def _event_text(e: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in e.items() if k != "text")


def register_games() -> None:
    """Register the dominohall python games with OpenSpiel (idempotent)."""
    registered = set(pyspiel.registered_names())
    for short_name, cls in _CLASSES.items():
        if short_name not in registered:
            pyspiel.register_game(_game_type(short_name), cls)


class MexicanTrainGame(DominohallGame):
    """``python_dominohall_mexican_train``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("python_dominohall_mexican_train", params)


class AllFivesGame(DominohallGame):
    """``python_dominohall_all_fives``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("python_dominohall_all_fives", params)


class BlockGame(DominohallGame):
    """``python_dominohall_block``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        super().__init__("python_dominohall_block", params)


# Registered as classes (kept alive by this module), as OpenSpiel's own python games are:
# a creator function owned only by OpenSpiel's registry crashes the interpreter at exit.
_CLASSES = {
    "python_dominohall_mexican_train": MexicanTrainGame,
    "python_dominohall_all_fives": AllFivesGame,
    "python_dominohall_block": BlockGame,
}
