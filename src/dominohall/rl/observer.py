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

``played`` and ``history`` come from the log: the Observer keeps them per seat and game (in a
buffer laid out as a whole observation, which each call copies first) and takes in only
the events added since its last call (a view's log only grows), so a step costs the same
early and late in a round; everything else is read from the view each time.

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


Layout = tuple[dict[str, tuple[int, ...]], dict[str, int], int, int]


def layout(spec: ActionSpec, history: int, compact: bool) -> Layout:
    """The named slices of an observation (the module docstring's table): their shapes,
    their offsets in the flat tensor, its size and the size of one history row."""
    n, t, p, k = spec.players, spec.n_tiles, spec.set_max + 1, len(spec.targets)
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("seat", (n,)), ("current", (n,)), ("hand", (t,)), ("played", (t,)),
        ("hand_sizes", (n,)), ("boneyard", (1,)), ("scores", (n,)), ("round", (1,)),
    ]
    if spec.game == "mexican_train":
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
    event_size = 4 if compact else len(EVENT_TYPES) + n + t + k
    pieces.append(("history", (history, event_size)))
    offsets: dict[str, int] = {}
    at = 0
    for name, shape in pieces:
        offsets[name] = at
        at += int(np.prod(shape))
    return dict(pieces), offsets, at, event_size


def named(shapes: Mapping[str, tuple[int, ...]], offsets: Mapping[str, int],
          tensor: np.ndarray) -> dict[str, np.ndarray]:
    """Views of `tensor` (a flat observation) by slice name, in their shapes."""
    out = {}
    for name, shape in shapes.items():
        at = offsets[name]
        out[name] = tensor[at:at + int(np.prod(shape))].reshape(shape)
    return out


class Observer:
    """Named-slice tensors and action masks for one game name, player count and options.

    `game` is anything :func:`~dominohall.rl.actions.action_spec` accepts (a Game, a
    view, an ActionSpec).  `history` is the number of recent public events kept.
    With ``private=False`` the seat's own hand and drawn tile are left out (a public
    observation).
    """

    def __init__(self, game: Any, history: int = 16, private: bool = True,
                 compact: bool = False, tracks: int = 0) -> None:
        # tracks: how many (seat, game) log tracks to keep (default _TRACKS); a batch of
        # N games observed in turn needs N x players, or every call rebuilds its track
        self._max_tracks = tracks or _TRACKS
        self.spec: ActionSpec = action_spec(game)
        self.history = history
        self.private = private
        self.compact = compact
        spec = self.spec
        n, t, p = spec.players, spec.n_tiles, spec.set_max + 1
        self.mexican_train = spec.game == "mexican_train"
        self.shapes, self.offsets, self.size, self.event_size = layout(spec, history, compact)
        self._end_slot = {name: i for i, name in enumerate(spec.targets[1:])}
        self._train_index = {name: i for i, name in enumerate(spec.targets)}
        # flat positions, precomputed: tile text -> index of its one-hot in a slice, ...
        o = self.offsets
        self._o = _Offsets(o)
        self._hand_at = {text: o["hand"] + i for text, i in TILE_ID.items() if i < t}
        if self.mexican_train:
            self._drawn_at = {text: o["drawn"] + i for text, i in TILE_ID.items() if i < t}
        else:
            self._lead_at = {text: o["lead"] + i for text, i in TILE_ID.items() if i < t}
            self._spinner_at = {text: o["spinner"] + i for text, i in TILE_ID.items() if i < t}
            # an end's id -> (its open-value one-hot, its length)
            self._ends_at = {name: (o["end_open"] + i * p, o["end_length"] + i)
                             for name, i in self._end_slot.items()}
        # history columns: seat one-hot, tile one-hot, target -> its column (its index with
        # compact=True)
        # a play: target -> tile text -> (its position in played, its tile column and its
        # target column in a history row; with compact=True the tile id and target index)
        self._plays = {target: {text: (o["played"] + i, i if compact else 4 + n + i,
                                       j if compact else 4 + n + t + j)
                                for text, i in TILE_ID.items() if i < t}
                       for j, target in enumerate(spec.targets)}
        self._history_at = o["history"]
        self._history_size = history * self.event_size
        self._codes = spec.codes
        self._shape = (self.size,)
        self._zeros = memoryview(np.zeros(max(self.size, 2 * self._history_size), np.float32))
        self._head = (o["seat"], o["current"], o["hand_sizes"], o["boneyard"], o["scores"],
                      o["round"])
        if not self.mexican_train:
            self._line_at = (o["count"], o["turn"], o["turn"] + 1)
        self._tracks: dict[tuple[int, int], _Track] = {}   # (seat, game): log-derived slices
        self._last: dict[int, _Track] = {}                  # seat: its latest track
        self._empty = _Track(self)                          # for an empty log

    # ---------------------------------------------------------------- layout
    def named(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Views of `tensor` (a flat observation) by slice name, in their shapes."""
        return named(self.shapes, self.offsets, tensor)

    def action_mask(self, view: View, out: np.ndarray | None = None) -> np.ndarray:
        """int8 mask over the action space: 1 for the view's legal actions."""
        if out is None:
            out = np.zeros(self.spec.size, np.int8)
        else:
            out.fill(0)
        codes = self._codes
        w = memoryview(out)
        for a in view["legal_actions"]:
            w[codes[a]] = 1
        return out

    # ---------------------------------------------------------------- filling
    def observe(self, view: View, out: np.ndarray | None = None) -> np.ndarray:
        """The flat float32 observation of `view` (written into `out` if given)."""
        seat = view["seat"]
        if seat is None:
            raise ValueError("the Observer needs a seat's view, not a spectator's")
        # the log-derived slices (played, history), brought up to date: the fast path is
        # this seat's latest track, still the same log (see _follow)
        log = view["log"]
        track = self._last.get(seat)
        if track is None or not (seen := track.seen) or len(log) < seen \
                or log[seen - 1] is not track.last or log[0] is not track.first:
            track = self._follow(seat, log)
        elif len(log) > seen:
            self._add(track, log, seen)
        if out is None:
            out = np.empty(self.size, np.float32)
            w = memoryview(out)
        else:
            w = memoryview(out)
            if w.format != "f" or w.shape != self._shape or not w.c_contiguous:
                out[...] = self.observe(view).reshape(out.shape)    # not a flat float32 array
                return out
        # The track holds everything before the history (played filled in, zeros
        # elsewhere) and the history rows: copy both, then set the rest.  Element writes
        # go through a memoryview (cheaper than numpy's item assignment); every position
        # is precomputed in __init__.
        top = self._history_at
        w[:top] = track.head
        if self.history:
            at = track.newest * self.event_size
            w[top:] = track.rows[at:at + self._history_size]
        o_seat, o_current, o_sizes, o_boneyard, o_scores, o_round = self._head
        w[o_seat + seat] = 1.0
        cur = view["current_seat"]
        if cur is not None:
            w[o_current + cur] = 1.0
        if self.private:
            at = self._hand_at
            for text in view["hand"]:
                w[at[text]] = 1.0
        for v in view["hand_sizes"]:
            w[o_sizes] = v
            o_sizes += 1
        w[o_boneyard] = view["boneyard"]
        for v in view["scores"]:
            w[o_scores] = v
            o_scores += 1
        w[o_round] = view["round"]
        if self.mexican_train:
            self._mexican_train(view, w)
            return out
        layout = view["layout"]
        lead = layout["lead"]
        if lead is not None:
            w[self._lead_at[lead]] = 1.0
        spinner = layout["spinner"]
        if spinner is not None:
            w[self._spinner_at[spinner]] = 1.0
        ends_at = self._ends_at
        for end in layout["ends"]:
            open_at, length_at = ends_at[end["id"]]
            w[open_at + end["value"]] = 1.0
            w[length_at] = len(end["tiles"])
        o_count, o_drew, o_passes = self._line_at
        w[o_count] = layout["count"]
        turn = view["turn"]
        w[o_drew] = turn["drew"]
        w[o_passes] = turn["passes"]
        return out

    def _mexican_train(self, view: View, w: memoryview) -> None:
        o = self._o
        p = self.spec.set_max + 1
        w[o.engine + int(view["engine"].split("-")[0])] = 1.0
        open_end, marker, started = o.train_open_end, o.train_marker, o.train_started
        length = o.train_length
        for i, train in enumerate(view["trains"]):
            w[open_end + i * p + train["open_end"]] = 1.0
            if train["marker"]:
                w[marker + i] = 1.0
            if train["started"]:
                w[started + i] = 1.0
            w[length + i] = len(train["tiles"])
        index = self._train_index
        owed = view["owed"]
        for train_id in owed:
            w[o.owed + index[train_id]] = 1.0
        if owed:
            w[o.cover_next + index[owed[0]]] = 1.0
        for s in view["first_turn_done"]:
            w[o.first_turn_done + s] = 1.0
        turn = view["turn"]
        at = o.turn
        w[at] = turn["drew"]
        w[at + 1] = turn["must_follow"]
        w[at + 2] = turn["chain"]
        w[at + 3] = turn["draws"]
        w[at + 4] = turn["passes"]
        if self.private and turn["drawn"] is not None:
            w[self._drawn_at[turn["drawn"]]] = 1.0

    # ---------------------------------------------------------------- the log, incrementally
    def _follow(self, seat: int, log: list[Mapping[str, Any]]) -> _Track:
        """The track of this seat and game, brought up to date with the new events of `log`.

        A view's log only grows, and the engine shares its event dicts between the views of
        one seat of one game, so "the first event and the one we saw last are still in their
        places" (identity, not equality) means "same game, same seat, same log so far".
        Anything else (another game, a sampled world, a rewound state) gets a new track,
        built from the round's events.  A few tracks are kept, for observers that switch
        between games (OpenSpiel states, sampled worlds); `observe` tries the seat's latest
        track first.
        """
        if not log:
            return self._empty
        key = (seat, id(log[0]))
        tracks = self._tracks
        track = tracks.get(key)
        if track is not None:
            seen = track.seen
            if len(log) >= seen and log[seen - 1] is track.last and log[0] is track.first:
                if len(log) > seen:
                    self._add(track, log, seen)
                self._last[seat] = track
                return track
            del tracks[key]
            track.clear()
        elif len(tracks) >= self._max_tracks:      # recycle the oldest track
            track = tracks.pop(next(iter(tracks)))
            track.clear()
        else:
            track = _Track(self)
        tracks[key] = track
        start = len(log) - 1                     # the round's deal (events before it are
        while start > 0 and log[start]["type"] != "deal":      # no part of the tensor)
            start -= 1
        if log[start]["type"] == "deal":         # the track is clear: the round's start
            start += 1
        self._add(track, log, start)
        self._last[seat] = track
        return track

    def _add(self, track: _Track, log: list[Mapping[str, Any]], start: int) -> None:
        """Take the events ``log[start:]`` into `track`: mark the played tiles and write
        each public event's row above the previous one (see `_Track`)."""
        head = track.head
        plays = self._plays
        keep = self.history
        rows = track.rows
        width = self.event_size
        newest = track.newest
        compact = self.compact
        for e in log[start:]:
            kind = _KIND.get(e["type"])
            if kind is None:
                if e["type"] == "deal":             # a new round: nothing on the table, no
                    track.new_round()               # history
                    newest = track.newest
                continue
            if kind == 0:
                played, tile_at, target_at = plays[e["target"]][e["tile"]]
                head[played] = 1.0
            if not keep:
                continue
            if not newest:                      # the rows are full: keep the H - 1 newest
                newest = track.wrap()
            newest -= 1
            at = newest * width
            if compact:
                rows[at] = kind + 1
                rows[at + 1] = e["seat"]
                if kind == 0:
                    rows[at + 2] = tile_at
                    rows[at + 3] = target_at
            else:
                rows[at + kind] = 1.0
                rows[at + _TYPES + e["seat"]] = 1.0     # the seat columns follow the types
                if kind == 0:
                    rows[at + tile_at] = 1.0
                    rows[at + target_at] = 1.0
        track.newest = newest
        track.seen = len(log)
        track.first = log[0]
        track.last = log[-1]


class _Track:
    """The log-derived slices of one seat's observations in one game (played, history).

    ``head`` (a memoryview of a float32 array) is the observation up to the history
    slice: the round's played tiles, zeros everywhere else.  ``rows`` holds ``2H`` history
    rows, filled upwards: the newest event is row ``newest`` and the ``H`` rows from it are
    the history slice, newest first (rows past the round's start are 0, rows above
    ``newest`` too).  When row 0 is taken, the ``H - 1`` newest rows move back to the
    bottom (`wrap`), once every ``H`` events.  ``first``, ``last`` and ``seen`` identify
    the log taken in.
    """

    __slots__ = ("obs", "first", "last", "seen", "head", "rows", "newest")

    def __init__(self, obs: Observer, head: np.ndarray | None = None) -> None:
        # head: where to keep the head (a zeroed float32 array of its size), e.g. a row
        # of the batched environments' array of every game's head
        self.obs = obs
        self.first: Any = None
        self.last: Any = None
        self.seen = 0
        self.head = memoryview(np.zeros(obs._history_at, np.float32) if head is None else head)
        self.rows = memoryview(np.zeros(2 * obs._history_size, np.float32))
        self.newest = obs.history

    def clear(self) -> None:
        """Back to an empty round, for another game."""
        self.new_round()
        self.seen = 0
        self.first = self.last = None

    def new_round(self) -> None:
        zeros = self.obs._zeros
        self.head[:] = zeros[:len(self.head)]
        self.rows[:] = zeros[:len(self.rows)]
        self.newest = self.obs.history

    def wrap(self) -> int:
        """Move the ``H - 1`` newest rows to the bottom (rows ``H + 1 .. 2H``), zero the
        rest; the next row written is row ``H``."""
        width = self.obs.event_size
        size = self.obs._history_size
        rows = self.rows
        rows[size + width:] = rows[:size - width]
        rows[:size + width] = self.obs._zeros[:size + width]
        return self.obs.history + 1


_KIND = {k: i for i, k in enumerate(EVENT_TYPES)}
_TYPES = len(EVENT_TYPES)     # history columns before the seat one-hot
_TRACKS = 16            # tracks an Observer keeps (seats x recent games)


class _Offsets:
    """The slice offsets as attributes (``o.hand`` rather than ``offsets["hand"]``)."""

    def __init__(self, offsets: Mapping[str, int]) -> None:
        self.__dict__.update(offsets)


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
