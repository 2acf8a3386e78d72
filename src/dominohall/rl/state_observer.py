"""Observations written straight from the engine's state, for the batched environments.

:class:`StateObserver` writes exactly the tensor :class:`~dominohall.rl.observer.Observer`
makes from ``Game.view(seat)`` (the same slices, the same numbers), but reads the game's
state instead of building the view's dicts, and writes into a row of a batch in place.
It is what makes :func:`~dominohall.rl.vector_env` fast; tests/rl check, for every game,
that its rows equal the Observer's of the view and that changing what the seat cannot see
(another hand, the boneyard's order, the tile another seat drew) changes nothing.

**This module is the only place in ``dominohall.rl`` that reads engine internals**, and it
reads only what ``engine/views.py`` shows the viewing seat (``views.view`` is the
reference; anything it would not show is never read here):

* every game: ``state.hands[seat]`` (the viewing seat's own hand only; the others only
  through ``int.bit_count``, the hand sizes), ``len(state.boneyard)``, ``state.log`` (the
  raw log: of a draw only its type and seat are read, never its tile);
* line games: ``state.lead``, ``state.count``, ``state.drew``, ``state.passes``, and the
  layout in either of two forms (:func:`line_layout`): parallel lists
  ``state.end_names``, ``state.end_values``, ``state.end_tiles`` with ``state.spinners``
  as lists ``[tile, value, bare, has arms, ...]``, or ``state.ends`` as objects with
  ``name``, ``value``, ``tiles`` with ``state.spinners`` as objects with ``tile`` and
  ``arms`` (the engine's End and Spinner classes);
* Mexican Train: ``state.engine``, ``state.ends``, ``state.trains``, ``state.markers``,
  ``state.owed``, ``state.opts.double_order``, ``state.first_done``, ``state.drew``,
  ``state.must_follow``, ``state.chain``, ``state.turn_draws``, ``state.passes``,
  ``state.drawn`` (only for the seat whose turn it is, as its view shows it).

For line games with End/Spinner objects, the numbers of a row (everything but the log's
slices) come from the engine itself, :class:`dominohall.engine.views.TableNumbers`, one call
for all rows (compiled with the engine, it reads the states natively).

If the engine's state does not have these (:func:`supports` says so), the batched
environments fall back to ``Game.view`` and the Observer: slower, never wrong.

The log-derived slices (``played`` and ``history``) are kept per game in a track
(:class:`~dominohall.rl.observer._Track`): the history is public and the same for every
seat, so one track serves every seat of a game, and each call takes in only the events
added since the last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dominohall.engine.views import TableNumbers

from .observer import _KIND, _TYPES, TILE_ID, Observer, _Track

_LINE_FIELDS = ("hands", "boneyard", "log", "lead", "spinners", "count", "drew", "passes")
_MEXICAN_TRAIN_FIELDS = ("hands", "boneyard", "log", "engine", "ends", "trains", "markers",
                         "owed", "first_done", "drew", "must_follow", "chain", "turn_draws",
                         "passes", "drawn")


def line_layout(state: Any) -> str | None:
    """How a line-game state keeps its layout: ``"lists"`` (parallel lists ``end_names``,
    ``end_values``, ``end_tiles``; spinners as lists ``[tile, value, bare, arms, ...]``),
    ``"objects"`` (``ends``: objects with ``name``, ``value``, ``tiles``; spinners objects
    with ``tile`` and ``arms``), or None (neither: not supported)."""
    if all(hasattr(state, f) for f in ("end_names", "end_values", "end_tiles")):
        return "lists"
    if isinstance(getattr(state, "ends", None), list):
        return "objects"
    return None


def supports(game: Any) -> bool:
    """Whether this engine's state has what :class:`StateObserver` reads (see above)."""
    st = game.state
    if game.name == "mexican_train":
        return all(hasattr(st, f) for f in _MEXICAN_TRAIN_FIELDS)
    return line_layout(st) is not None and all(hasattr(st, f) for f in _LINE_FIELDS)


class StateObserver:
    """Rows of `observer`'s tensors written from games' states (see the module docstring)."""

    def __init__(self, observer: Observer) -> None:
        if observer.compact:
            raise ValueError("the StateObserver writes full history rows, not compact ones")
        self.observer = observer
        spec = observer.spec
        o = observer.offsets
        self.size = observer.size
        self.top = observer._history_at
        self.history_size = observer._history_size
        self.event_size = observer.event_size
        self.history = observer.history
        self.private = observer.private
        self.mexican_train = observer.mexican_train
        n, t = spec.players, spec.n_tiles
        self.p = spec.set_max + 1
        self.o = observer._o
        # a play: target -> tile id -> (its position in played, its tile column and its
        # target column in a history row)
        self._plays = {target: [(o["played"] + i, 4 + n + i, 4 + n + t + j)
                                for i in range(t)]
                       for j, target in enumerate(spec.targets)}
        self._play_rows: dict[tuple[int, int, str | None], tuple[int, memoryview]] = {}
        self._end_slot = observer._end_slot
        self._spinners = "U" in spec.targets        # spinner=none: no spinner ever shows
        self._codes = spec.codes
        self.n_tiles = t
        self._hand_bytes = (t + 7) // 8
        # A row's record (write_rows): first the one-hots, each a number added to its
        # offset (current seat, seat; line games: lead, spinner, each end slot's value),
        # then the numbers of the columns _value_at (hand sizes, boneyard, scores,
        # round; line games: count, drew, passes, each end slot's length; Mexican Train:
        # the five turn numbers).
        e = len(spec.targets) - 1                  # the line games' end slots
        one_at = [o["current"], o["seat"]]
        value_at = [*range(o["hand_sizes"], o["hand_sizes"] + n), o["boneyard"],
                    *range(o["scores"], o["scores"] + n), o["round"]]
        if self.mexican_train:
            value_at += range(o["turn"], o["turn"] + 5)
        else:
            one_at += [o["lead"], o["spinner"], *(o["end_open"] + k * self.p for k in range(e))]
            value_at += [o["count"], o["turn"], o["turn"] + 1,
                         *range(o["end_length"], o["end_length"] + e)]
        self._one_at = np.array(one_at, np.intp)
        self._value_at = np.array(value_at, np.intp)
        self._width = len(one_at) + len(value_at)
        # line games with End/Spinner objects: the engine writes the record (views.py)
        self._numbers = TableNumbers(dict(observer._end_slot), e, self._spinners,
                                     dict(self._codes), spec.size, self._hand_bytes,
                                     self.private) if not self.mexican_train else None
        # an empty layout's end values and lengths; the slots after L and R
        self._none_open, self._no_length = (-1,) * e, (0,) * e
        self._pad_open, self._pad_length = (-1,) * (e - 2), (0,) * (e - 2)

    def new_track(self) -> _Track:
        """An empty track, for a new game."""
        return _Track(self.observer)

    def new_tracks(self, n: int) -> tuple[list[_Track], np.ndarray]:
        """n empty tracks whose heads are the rows of one array (also returned: pass it
        to `write_rows`, which then copies every head with one numpy call).  A track is
        ready for a new game once its ``seen`` is 0 (the game's first event, the deal,
        clears it)."""
        heads = np.zeros((n, self.top), np.float32)
        return [_Track(self.observer, heads[i]) for i in range(n)], heads

    # ---------------------------------------------------------------- the log
    def follow(self, track: _Track, log: list[Any]) -> None:
        """Take the events added to `log` (the state's raw log) since the last call."""
        seen = track.seen
        if len(log) == seen:
            return
        head, rows = track.head, track.rows
        keep = self.history
        width = self.event_size
        newest = track.newest
        events = self._play_rows
        for e in log[seen:]:
            made = None                       # a play: its position in played and its row
            if e.__class__ is tuple:          # line games: play, draw, pass, last_tile
                k = _KIND.get(e[0])
                if k is None:                 # last_tile
                    continue
                seat = e[1]
                if k == 0:
                    key = (seat, e[2], e[3])
            else:
                k = _KIND.get(e["type"])
                if k is None:
                    if e["type"] == "deal":   # a new round: nothing on the table, no history
                        track.new_round()
                        newest = track.newest
                    continue
                seat = e["seat"]
                if k == 0:
                    key = (seat, TILE_ID[e["tile"]], e["target"])
            if k == 0:
                made = events.get(key)
                if made is None:
                    made = events[key] = self._play_row(*key)
                head[made[0]] = 1.0
            if not keep:
                continue
            if not newest:                    # the rows are full: keep the H - 1 newest
                newest = track.wrap()
            newest -= 1
            at = newest * width
            if made is not None:
                rows[at:at + width] = made[1]     # the play's row, in one copy
            else:
                rows[at + k] = 1.0
                rows[at + _TYPES + seat] = 1.0
        track.newest = newest
        track.seen = len(log)

    def _play_row(self, seat: int, tile: int, target: str | None) -> tuple[int, memoryview]:
        """A play's position in ``played`` and its history row (made once, kept)."""
        played, tile_at, target_at = self._plays[target][tile]
        row = np.zeros(self.event_size, np.float32)
        row[[0, _TYPES + seat, tile_at, target_at]] = 1.0
        return played, memoryview(row)

    # ---------------------------------------------------------------- rows
    def write_rows(self, store: np.ndarray, w: memoryview, rows: Sequence[int],
                   games: Sequence[Any], seats: Sequence[int], tracks: Sequence[_Track],
                   masks: np.ndarray | None = None, heads: np.ndarray | None = None) -> None:
        """Write, for each row ``i`` of `rows`, ``seats[i]``'s observation of ``games[i]``
        into ``store[i]`` (``tracks[i]``: game i's track; `w`: a flat memoryview of
        `store`, whose last row is scratch space: it must have a row more than any row
        written), and its action mask into ``masks[i]`` if `masks` is given (the
        engine's ``legal_actions()`` when it is that seat's turn, else all 0).
        `heads`: the array of the tracks' heads, if they were made by `new_tracks`.

        Per row, the track's slices are copied in and the state's numbers gathered into
        one list, the record; then a few numpy calls write them for all rows at once:
        the hands as bits, the one-hots by position (an absent one, -1, goes to the
        scratch row) and the other numbers by column."""
        size, top, hs, width = self.size, self.top, self.history_size, self.event_size
        record: list[Any] = []       # per row, `_width` numbers: see _one_at and _value_at
        ones: list[int] = []         # Mexican Train: flat positions of more 1.0s
        pos: list[int] = []          # Mexican Train: flat positions of the values in `val`
        val: list[Any] = []
        hands: list[bytes] = []
        nbytes = self._hand_bytes
        private, line, follow = self.private, not self.mexican_train, self.follow
        slot, none_open, no_length = self._end_slot, self._none_open, self._no_length
        pad_open, pad_length = self._pad_open, self._pad_length
        bit_count = int.bit_count
        spinners = self._spinners
        legal: list[int] = []        # flat positions of 1 in `masks`
        objects = line and bool(rows) and line_layout(games[rows[0]].state) == "objects"
        codes, actions = self._codes, self.observer.spec.size
        numbers = self._numbers if objects else None
        for i in rows:
            g = games[i]
            st = g.state
            seat = seats[i]
            track = tracks[i]
            log = st.log
            if len(log) != track.seen:
                follow(track, log)
            base = i * size
            if heads is None:
                w[base:base + top] = track.head
            if hs:
                at = track.newest * width
                w[base + top:base + size] = track.rows[at:at + hs]
            if numbers is not None:     # the engine writes the rest, below, for all rows
                continue
            if masks is not None and not st.over and st.current == seat:
                at = i * actions
                legal += [at + codes[a] for a in g.legal_actions()]
            if private:
                hands.append(st.hands[seat].to_bytes(nbytes, "little"))
            if line:                    # a layout of parallel lists (objects: TableNumbers)
                spinner = -1
                if spinners:
                    for sp in st.spinners:
                        if sp[3]:
                            spinner = sp[0]
                            break
                names = st.end_names
                current = -1 if st.over else st.current
                if len(names) == 2:                 # L and R: always the first two ends
                    v, t = st.end_values, st.end_tiles
                    record += (current, seat, st.lead, spinner, v[0], v[1], *pad_open,
                               *map(bit_count, st.hands), len(st.boneyard), *st.scores,
                               st.round, st.count, st.drew, st.passes, len(t[0]), len(t[1]),
                               *pad_length)
                    continue
                if names:
                    opened, lengths = list(none_open), list(no_length)
                    for name, v0, t0 in zip(names, st.end_values, st.end_tiles):
                        k = slot[name]
                        opened[k] = v0
                        lengths[k] = len(t0)
                else:
                    opened, lengths = none_open, no_length
                record += (current, seat, st.lead, spinner, *opened)
                record += map(bit_count, st.hands)
                record += (len(st.boneyard), *st.scores, st.round, st.count, st.drew,
                           st.passes, *lengths)
            else:
                record += (-1 if st.over else st.current, seat)
                record += map(bit_count, st.hands)
                record += (len(st.boneyard), *st.scores, st.round)
                self._mexican_train(st, seat, base, ones, pos, val, record)
        if numbers is not None:         # line games: the numbers, masks and hands at once
            numbers.write(games, rows, seats, record, hands, None if masks is None else legal)
        if not record:
            return
        flat = store.reshape(-1)
        m = len(record) // self._width
        index = np.asarray(rows, np.intp)
        if masks is not None:
            masks[index] = 0
            masks.reshape(-1)[legal] = 1
        if heads is not None:
            store[index, :top] = heads[index]
        starts = (index * size)[:, None]
        r = np.array(record, np.int64).reshape(m, self._width)
        o = self.o
        if hands:
            bits = np.unpackbits(np.frombuffer(b"".join(hands), np.uint8),
                                 bitorder="little").reshape(m, -1)[:, :self.n_tiles]
            store[index, o.hand:o.hand + self.n_tiles] = bits
        j = len(self._one_at)
        onehots = r[:, :j]
        at = onehots + (starts + self._one_at)
        at[onehots < 0] = len(flat) - 1               # absent: the scratch row
        flat[at.reshape(-1)] = 1.0
        flat[(starts + self._value_at).reshape(-1)] = r[:, j:].reshape(-1)
        if ones:
            flat[ones] = 1.0
        if pos:
            flat[pos] = val

    def _mexican_train(self, st: Any, seat: int, base: int, ones: list[int], pos: list[int],
                       val: list[Any], record: list[Any]) -> None:
        o = self.o
        p = self.p
        n = st.n
        ones.append(base + o.engine + st.engine)
        open_end, marker = base + o.train_open_end, base + o.train_marker
        started, length = base + o.train_started, base + o.train_length
        markers = st.markers
        for i, train in enumerate(st.trains):
            ones.append(open_end + i * p + st.ends[i])
            if i == n or markers >> i & 1:
                ones.append(marker + i)
            if train:
                ones.append(started + i)
                pos.append(length + i)
                val.append(len(train))
        owed = st.owed
        if owed:
            for i in owed:
                ones.append(base + o.owed + i)
            first = owed[0] if st.opts.double_order == "played" else owed[-1]
            ones.append(base + o.cover_next + first)
        done = st.first_done
        if done:
            at = base + o.first_turn_done
            for s in range(n):
                if done >> s & 1:
                    ones.append(at + s)
        record += (st.drew, st.must_follow, st.chain, st.turn_draws, st.passes)
        if self.private and seat == st.current and st.drawn >= 0:
            ones.append(base + o.drawn + st.drawn)
