"""Observation tensors built from one seat's view, shared by every adapter.

:class:`Observer` turns ``Game.view(seat)`` — and nothing else — into one flat
``float32`` tensor made of named slices, plus an ``action_mask`` over the
:class:`~dominohall.rl.actions.ActionSpec`.  It never sees a hidden hand, so
two games that differ only in tiles the seat cannot see give identical tensors
(tests/rl/test_observer.py checks it).  Numbers are raw (counts, pips, points),
not scaled; one-hot slices are 0/1.  Seats are absolute (seat 0 is seat 0).

With ``n`` players, ``T`` tiles in the set, ``P = set_max + 1`` pip values and
``K`` targets of the action space, the slices are, in this order::

    seat            (n,)        one-hot: the viewing seat
    current         (n,)        one-hot: whose turn it is (all 0 once the match is over)
    hand            (T,)        the seat's own tiles (0 with private=False)
    played          (T,)        tiles on the table this round
    hand_sizes      (n,)        tiles in each hand
    boneyard        (1,)        tiles in the boneyard
    scores          (n,)        running match totals (partners show the team score)
    round           (1,)        round / hand number (1-based)

  Mexican Train adds::

    engine          (P,)        one-hot: the round's engine number
    train_open_end  (n+1, P)    one-hot open end of t0..t<n-1>, mx
    train_marker    (n+1,)      the train carries a marker (mx: always 1)
    train_started   (n+1,)      the train has a tile
    train_length    (n+1,)      tiles on the train
    owed            (n+1,)      the train ends in an owed double
    cover_next      (n+1,)      one-hot: the owed double to cover first
    first_turn_done (n,)        seats that have had their first turn this round
    turn            (5,)        drew, must_follow, chain, draws this turn, passes in a row
    drawn           (T,)        one-hot: the tile this seat just drew (own turn only)

  Line games (All Fives, Draw, Block) add::

    lead            (T,)        one-hot: the lead tile
    spinner         (T,)        one-hot: the spinner (if any)
    end_open        (K-1, P)    one-hot value of each open end L, R, U, D, ... (0 if not open)
    end_length      (K-1,)      tiles laid on that end
    count           (1,)        the count (sum of the open ends; All Fives)
    turn            (2,)        drew this turn, passes in a row

  Then the public history of the current round, most recent event first::

    history         (H, 4 + n + T + K)   per event: one-hot type (play, draw, pass, end),
                                         one-hot seat, one-hot tile and one-hot target
                                         (plays only); rows past the round's start are 0

With ``compact=True`` (the OpenSpiel information state, which keeps every event of
the round) each history row is 4 numbers instead: type (1 play, 2 draw, 3 pass,
4 end; 0 for an empty row), seat, tile id (plays) and target index (plays).

Drawn tiles never appear in ``history`` (even the seat's own: they are in ``hand``).

>>> import dominohall
>>> g = dominohall.new_game("block", players=2, seed=1)
>>> obs = Observer(g)
>>> t = obs.observe(g.view(0))
>>> t.shape == (obs.size,), int(obs.named(t)["hand"].sum())
(True, 7)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .actions import TILE_TEXT, ActionSpec, action_spec

View = Mapping[str, Any]

TILE_ID: dict[str, int] = {}
for _i, _text in enumerate(TILE_TEXT):
    _a, _b = _text.split("-")
    TILE_ID[_text] = _i
    TILE_ID[f"{_b}-{_a}"] = _i

EVENT_TYPES = ("play", "draw", "pass", "end")

#: Upper bound of every observation entry, for Box spaces (scores stay far below it).
OBS_HIGH = 1e6


class Observer:
    """Named-slice tensors and action masks for one game name, player count and options.

    `game` is anything :func:`~dominohall.rl.actions.action_spec` accepts (a Game, a
    view, an ActionSpec).  `history` is the number of recent public events kept.
    With ``private=False`` the seat's own hand and drawn tile are left out (a public
    observation).
    """

    def __init__(self, game: Any, history: int = 16, private: bool = True,
                 compact: bool = False) -> None:
        self.spec: ActionSpec = action_spec(game)
        self.history = history
        self.private = private
        self.compact = compact
        spec = self.spec
        n, t, p, k = spec.players, spec.n_tiles, spec.set_max + 1, len(spec.targets)
        self.mexican_train = spec.game == "mexican_train"
        pieces: list[tuple[str, tuple[int, ...]]] = [
            ("seat", (n,)), ("current", (n,)), ("hand", (t,)), ("played", (t,)),
            ("hand_sizes", (n,)), ("boneyard", (1,)), ("scores", (n,)), ("round", (1,)),
        ]
        if self.mexican_train:
            pieces += [
                ("engine", (p,)), ("train_open_end", (n + 1, p)), ("train_marker", (n + 1,)),
                ("train_started", (n + 1,)), ("train_length", (n + 1,)), ("owed", (n + 1,)),
                ("cover_next", (n + 1,)), ("first_turn_done", (n,)), ("turn", (5,)),
                ("drawn", (t,)),
            ]
        else:
            pieces += [
                ("lead", (t,)), ("spinner", (t,)), ("end_open", (k - 1, p)),
                ("end_length", (k - 1,)), ("count", (1,)), ("turn", (2,)),
            ]
        self.event_size = 4 if compact else len(EVENT_TYPES) + n + t + k
        pieces.append(("history", (history, self.event_size)))
        self.shapes: dict[str, tuple[int, ...]] = dict(pieces)
        self.offsets: dict[str, int] = {}
        at = 0
        for name, shape in pieces:
            self.offsets[name] = at
            at += int(np.prod(shape))
        self.size = at
        self._end_slot = {name: i for i, name in enumerate(spec.targets[1:])}
        self._target = {name: i for i, name in enumerate(spec.targets)}
        self._train_index = {name: i for i, name in enumerate(spec.targets)}

    # ---------------------------------------------------------------- layout
    def named(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Views of `tensor` (a flat observation) by slice name, in their shapes."""
        out = {}
        for name, shape in self.shapes.items():
            at = self.offsets[name]
            out[name] = tensor[at:at + int(np.prod(shape))].reshape(shape)
        return out

    def action_mask(self, view: View, out: np.ndarray | None = None) -> np.ndarray:
        """int8 mask over the action space: 1 for the view's legal actions."""
        if out is None:
            out = np.zeros(self.spec.size, np.int8)
        else:
            out.fill(0)
        codes = self.spec.codes
        for a in view["legal_actions"]:
            out[codes[a]] = 1
        return out

    # ---------------------------------------------------------------- filling
    def observe(self, view: View, out: np.ndarray | None = None) -> np.ndarray:
        """The flat float32 observation of `view` (written into `out` if given)."""
        if view["seat"] is None:
            raise ValueError("the Observer needs a seat's view, not a spectator's")
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        o = self.offsets
        n = self.spec.players
        out[o["seat"] + view["seat"]] = 1.0
        cur = view["current_seat"]
        if cur is not None:
            out[o["current"] + cur] = 1.0
        if self.private:
            base = o["hand"]
            for text in view["hand"]:
                out[base + TILE_ID[text]] = 1.0
        out[o["hand_sizes"]:o["hand_sizes"] + n] = view["hand_sizes"]
        out[o["boneyard"]] = view["boneyard"]
        out[o["scores"]:o["scores"] + n] = view["scores"]
        out[o["round"]] = view["round"]
        if self.mexican_train:
            self._mexican_train(view, out)
        else:
            self._line(view, out)
        self._history(view["log"], out)
        return out

    def _mexican_train(self, view: View, out: np.ndarray) -> None:
        o = self.offsets
        p = self.spec.set_max + 1
        played = o["played"]
        out[o["engine"] + int(view["engine"].split("-")[0])] = 1.0
        for i, train in enumerate(view["trains"]):
            out[o["train_open_end"] + i * p + train["open_end"]] = 1.0
            out[o["train_marker"] + i] = float(train["marker"])
            out[o["train_started"] + i] = float(train["started"])
            out[o["train_length"] + i] = len(train["tiles"])
            for text in train["tiles"]:
                out[played + TILE_ID[text]] = 1.0
        index = self._train_index
        for j, train_id in enumerate(view["owed"]):
            out[o["owed"] + index[train_id]] = 1.0
            if j == 0:
                out[o["cover_next"] + index[train_id]] = 1.0
        for s in view["first_turn_done"]:
            out[o["first_turn_done"] + s] = 1.0
        turn = view["turn"]
        at = o["turn"]
        out[at:at + 5] = (turn["drew"], turn["must_follow"], turn["chain"], turn["draws"],
                          turn["passes"])
        if self.private and turn["drawn"] is not None:
            out[o["drawn"] + TILE_ID[turn["drawn"]]] = 1.0

    def _line(self, view: View, out: np.ndarray) -> None:
        o = self.offsets
        p = self.spec.set_max + 1
        played = o["played"]
        layout = view["layout"]
        if layout["lead"] is not None:
            t = TILE_ID[layout["lead"]]
            out[o["lead"] + t] = 1.0
            out[played + t] = 1.0
        if layout["spinner"] is not None:
            out[o["spinner"] + TILE_ID[layout["spinner"]]] = 1.0
        slot = self._end_slot
        for end in layout["ends"]:
            i = slot[end["id"]]
            out[o["end_open"] + i * p + end["value"]] = 1.0
            out[o["end_length"] + i] = len(end["tiles"])
            for text in end["tiles"]:
                out[played + TILE_ID[text]] = 1.0
        out[o["count"]] = layout["count"]
        turn = view["turn"]
        out[o["turn"]] = turn["drew"]
        out[o["turn"] + 1] = turn["passes"]

    def _history(self, log: list[Mapping[str, Any]], out: np.ndarray) -> None:
        if not self.history:
            return
        spec = self.spec
        n, t = spec.players, spec.n_tiles
        width = self.event_size
        seat_at, tile_at, target_at = 4, 4 + n, 4 + n + t
        target = self._target
        row = self.offsets["history"]
        left = self.history
        compact = self.compact
        for e in reversed(log):
            kind = e["type"]
            if kind == "deal":
                break
            if kind not in _KIND:
                continue
            if compact:
                out[row] = _KIND[kind] + 1
                out[row + 1] = e["seat"]
                if kind == "play":
                    out[row + 2] = TILE_ID[e["tile"]]
                    out[row + 3] = target[e["target"]]
                row += 4
                left -= 1
                if not left:
                    break
                continue
            out[row + _KIND[kind]] = 1.0
            out[row + seat_at + e["seat"]] = 1.0
            if kind == "play":
                out[row + tile_at + TILE_ID[e["tile"]]] = 1.0
                out[row + target_at + target[e["target"]]] = 1.0
            row += width
            left -= 1
            if not left:
                break


_KIND = {k: i for i, k in enumerate(EVENT_TYPES)}


def round_events(view: View) -> int:
    """Public events (play, draw, pass, end) of the current round so far."""
    count = 0
    for e in reversed(view["log"]):
        if e["type"] == "deal":
            break
        if e["type"] in _KIND:
            count += 1
    return count


def advantage(view: View, seat: int, scores: list[int] | None = None) -> float:
    """How far `seat` is ahead, the quantity every adapter rewards (zero-sum over seats).

    ``own - mean(others)`` of the running scores; with teams ``own team - other team``;
    for Mexican Train with penalty scoring (lowest total wins) the sign is flipped, so
    each round's reward is the negative penalty difference.
    """
    sc = view["scores"] if scores is None else scores
    n = len(sc)
    opts = view["options"]
    if opts.get("teams"):
        value = float(sc[seat] - sc[(seat + 1) % n])
    else:
        value = float(sc[seat] - (sum(sc) - sc[seat]) / (n - 1))
    if view["game"] == "mexican_train" and opts["scoring"] == "penalty":
        value = -value
    return value


def advantages(game: Any) -> Any:
    """A function ``scores -> [advantage of each seat]`` for a Game (see `advantage`)."""
    name, opts = game.name, game.options.as_dict()
    n = game.players
    sign = -1.0 if name == "mexican_train" and opts["scoring"] == "penalty" else 1.0
    teams = bool(opts.get("teams"))

    def of(scores: list[int]) -> list[float]:
        if teams:
            return [sign * (scores[s] - scores[(s + 1) % n]) for s in range(n)]
        total = sum(scores)
        return [sign * (scores[s] - (total - scores[s]) / (n - 1)) for s in range(n)]

    return of
