"""The straightforward Observer (every slice rebuilt from the view, one element at a time).

The tests compare the optimised :class:`dominohall.rl.Observer` (incremental history,
played tiles from the log, precomputed positions) with it, tensor for tensor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from dominohall.rl.actions import ActionSpec, action_spec
from dominohall.rl.observer import EVENT_TYPES, TILE_ID, layout, named

View = Mapping[str, Any]


class ReferenceObserver:
    """The first Observer, kept as written (no caches, no incremental state)."""

    def __init__(self, game: Any, history: int = 16, private: bool = True,
                 compact: bool = False) -> None:
        self.spec: ActionSpec = action_spec(game)
        self.history = history
        self.private = private
        self.compact = compact
        spec = self.spec
        self.mexican_train = spec.game == "mexican_train"
        # the layout is the documented contract, shared; the filling below is this
        # module's own, element by element
        self.shapes, self.offsets, self.size, self.event_size = layout(spec, history, compact)
        self._end_slot = {name: i for i, name in enumerate(spec.targets[1:])}
        self._target = {name: i for i, name in enumerate(spec.targets)}
        self._train_index = {name: i for i, name in enumerate(spec.targets)}

    # ---------------------------------------------------------------- layout
    def named(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        return named(self.shapes, self.offsets, tensor)

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
