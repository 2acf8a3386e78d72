"""Straight dominoes (RULES.md Part B): All Fives, Draw and Block.

The layout is a line with two ends, ``L`` and ``R``, and spinners whose long
sides open as arms ``U`` and ``D`` (``U<k>``/``D<k>`` for the k-th spinner with
``spinner=every_double``).  Each open end has a value (the number a tile must
match) and a kind: a bare side of a spinner (counts nothing itself), a plain tile
(counts its outer half) or a crosswise double (counts both halves).  A spinner
counts both halves while at least one of its two line ends is bare (B4).

The state plays a whole match: hands follow each other until the target (or
exactly ``hands`` hands); every hand's end is logged with all hands revealed.

Interpretations where RULES.md leaves room:

* The lead is a play with no target; a non-double lead ``"6-4"`` puts 6 on the
  L end and 4 on the R end.  A lead double with ``spinner=none`` counts both
  halves until both its ends are covered, like a spinner without arms.
* B6: a hand is blocked when no player can play a tile and no tile may be drawn
  (the boneyard is down to its reserve, or ``draw=none``).  The engine, as
  referee, checks it after every pass and ends the hand as soon as it holds; a
  lap of passes with tiles still drawable (``draw=one``) is not a block.
* Block scoring with teams compares team totals (partners' pips added).  With
  ``block_tie=all_tied_share`` the tied players/teams share the pips of the
  others equally (integer division), each share rounded like a domino.
* ``next_leader=winner`` after a blocked hand that nobody won falls back to the
  next seat clockwise; after a team's block win the partner with fewer pips
  leads (the earlier seat on a tie).
* B5 with ``must_play=false``: a player may draw while able to play; a pass is
  legal only for a player who can neither play nor draw.
* Records of versions 1 and 2 were played when a lap of passes ended a hand as
  blocked and ``must_play=false`` allowed a pass to a player who could play but
  not draw; they replay with :class:`LapOfPassesLineGameState`, which keeps
  those rules.
"""

from __future__ import annotations

from typing import Any

from .actions import DRAW_ACTION, PASS_ACTION, PLAY, PLAYS, PLAYS_ON, Action, plays_on
from .chance import Chance
from .options import LineGameOptions
from .tiles import (
    BIT,
    HIGH,
    IS_DOUBLE,
    LOW,
    PIPS,
    TEXT,
    WITH_HALF,
    StackedDeck,
    ids,
    mask_pips,
    other_half,
    set_size,
)

#: A log event.  The frequent ones (play, draw, pass, last_tile) are kept as tuples, which
#: cost a fifth of a dict to make; `event_dict` turns them into the documented dicts, and
#: the views only ever show those.
Event = dict[str, Any] | tuple[Any, ...]

BARE, TILE, CROSS = 0, 1, 2   # kinds of open end

_ON_L, _ON_R = PLAYS_ON["L"], PLAYS_ON["R"]


def round_points(total: int, step: int) -> int:
    """B6: round to the nearest multiple of `step`, remainder below half down (27->25, 28->30).

    >>> round_points(27, 5), round_points(28, 5), round_points(27, 1)
    (25, 30, 27)
    """
    return (total + step // 2) // step * step


def event_dict(event: Event) -> dict[str, Any]:
    """A log event as the dict the views document (always a new dict)."""
    if event.__class__ is not tuple:
        return dict(event)
    kind = event[0]
    if kind == "play":
        _, seat, t, target, count, points = event
        return {"type": "play", "seat": seat, "tile": TEXT[t], "target": target,
                "count": count, "points": points}
    if kind == "last_tile":
        return {"type": "last_tile", "seat": event[1]}
    out: dict[str, Any]
    if kind == "draw":
        out = {"type": "draw", "seat": event[1], "tile": TEXT[event[2]]}
        void = event[3]
    else:
        out = {"type": "pass", "seat": event[1]}
        void = event[2]
    if void is not None:
        out["void"] = sorted(set(void))
    return out


_FIELDS = (
    "opts", "n", "chance", "round", "hands", "boneyard", "leader", "current", "lead",
    "end_names", "end_values", "end_kinds", "end_spinner", "end_tiles", "spinners",
    "count", "passes", "drew", "scores", "over", "winners", "log", "_legal",
    "count_scoring", "must_play",
)


class LineGameState:
    """An All Fives / Draw / Block match in progress."""

    __slots__ = _FIELDS

    def __init__(self, opts: LineGameOptions, chance: Chance,
                 stacked: StackedDeck | None = None,
                 leader: int | None = None, deal: bool = True) -> None:
        self.opts = opts
        self.n = opts.players
        self.chance = chance
        self.count_scoring = opts.count_scoring
        self.must_play = opts.must_play
        self.round = 1
        self.scores = [0] * self.n           # per seat; partners hold the same number
        self.over = False
        self.winners: list[int] = []
        self.log: list[Event] = []
        self.leader = -1 if leader is None else leader     # -1: drawn with the first deal
        if deal:            # deal=False: the rest is filled in by clone, pickle, sample_world
            self._start_hand(stacked)

    def __reduce__(self) -> tuple[object, ...]:
        # pickle and deepcopy in both builds (compiled classes have no default that works)
        return (self.__class__, (self.opts, self.chance, None, None, False),
                {k: getattr(self, k) for k in _FIELDS})

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    def clone(self) -> LineGameState:
        c = self.__class__(self.opts, self.chance.fork(), None, None, False)
        c.round = self.round
        c.hands = self.hands[:]
        c.boneyard = self.boneyard[:]
        c.leader = self.leader
        c.current = self.current
        c.lead = self.lead
        c.end_names = self.end_names[:]
        c.end_values = self.end_values[:]
        c.end_kinds = self.end_kinds[:]
        c.end_spinner = self.end_spinner[:]
        c.end_tiles = [t[:] for t in self.end_tiles]
        c.spinners = [s[:] for s in self.spinners]
        c.count = self.count
        c.passes = self.passes
        c.drew = self.drew
        c.scores = self.scores[:]
        c.over = self.over
        c.winners = self.winners[:]
        c.log = self.log[:]
        c._legal = self._legal
        return c

    # ------------------------------------------------------------------ hands
    def _start_hand(self, stacked: StackedDeck | None = None) -> None:
        """B2: deal; the leader plays first."""
        o, n = self.opts, self.n
        self.hands, self.boneyard, leader = self.chance.deal(
            set_size(o.set_max), n, o.hand_size, stacked, choose=n if self.leader < 0 else 0)
        if leader >= 0:
            self.leader = leader
        self.current = self.leader
        self.lead = -1
        self.end_names: list[str] = []
        self.end_values: list[int] = []
        self.end_kinds: list[int] = []
        self.end_spinner: list[int] = []     # spinner index of a bare line end, else -1
        self.end_tiles: list[list[int]] = []
        # each spinner: [tile, value, bare line ends, has arms, arms opened, arm number]
        self.spinners: list[list[int]] = []
        self.count = 0
        self.passes = 0
        self.drew = False
        self._legal: list[Action] | None = None
        self.log.append({"type": "deal", "round": self.round, "leader": self.leader,
                         "hand_sizes": list(map(int.bit_count, self.hands)),
                         "boneyard": len(self.boneyard)})

    def side(self, seat: int) -> int:
        """The scoring side of a seat: its team (0 or 1) with teams, else the seat."""
        return seat % 2 if self.opts.teams else seat

    # ------------------------------------------------------------------ layout
    def _add_end(self, name: str, value: int, kind: int, spinner: int) -> None:
        self.end_names.append(name)
        self.end_values.append(value)
        self.end_kinds.append(kind)
        self.end_spinner.append(spinner)
        self.end_tiles.append([])

    def _new_spinner(self, t: int, bare_ends: int, arms: bool) -> int:
        k = len(self.spinners)
        number = sum(1 for s in self.spinners if s[3]) + 1 if arms else 0
        self.spinners.append([t, HIGH[t], bare_ends, int(arms), 0, number])
        if arms and not self.opts.spinner_sides_after_ends:
            self._open_arms(k)
        return k

    def _open_arms(self, k: int) -> None:
        s = self.spinners[k]
        s[4] = 1
        suffix = "" if s[5] == 1 else str(s[5])
        self._add_end("U" + suffix, s[1], BARE, -1)
        self._add_end("D" + suffix, s[1], BARE, -1)

    def _becomes_spinner(self) -> bool:
        mode = self.opts.spinner
        return mode == "every_double" or (
            mode == "first_double" and not any(s[3] for s in self.spinners))

    def _place(self, t: int, e: int) -> None:
        """Lay tile t on open end index e (-1: the lead)."""
        if e < 0:
            self.lead = t
            if IS_DOUBLE[t]:
                k = len(self.spinners)            # L and R first: they are always ends 0, 1
                self._add_end("L", HIGH[t], BARE, k)
                self._add_end("R", HIGH[t], BARE, k)
                self._new_spinner(t, 2, self._becomes_spinner())
            else:                       # the layout was empty: L and R in one go
                self.end_names = ["L", "R"]
                self.end_values = [HIGH[t], LOW[t]]
                self.end_kinds = [TILE, TILE]
                self.end_spinner = [-1, -1]
                self.end_tiles = [[], []]
            return
        self.end_tiles[e].append(t)
        k = self.end_spinner[e]
        if k >= 0:                                # a bare line end of a spinner is covered
            s = self.spinners[k]
            s[2] -= 1
            if s[2] == 0 and s[3] and not s[4]:
                self._open_arms(k)
        v = self.end_values[e]
        if IS_DOUBLE[t]:
            if self._becomes_spinner():
                self.end_kinds[e] = BARE
                self.end_spinner[e] = self._new_spinner(t, 1, True)
            else:
                self.end_kinds[e] = CROSS
                self.end_spinner[e] = -1
        else:
            self.end_values[e] = other_half(t, v)
            self.end_kinds[e] = TILE
            self.end_spinner[e] = -1

    def _count(self) -> int:
        """B4: the sum of the open ends."""
        total = 0
        for v, kind in zip(self.end_values, self.end_kinds):
            total += v * kind                     # BARE 0, TILE v, CROSS 2v
        for s in self.spinners:
            if s[2] > 0:
                total += 2 * s[1]
        return total

    def count_points(self, count: int) -> int:
        """B4: points scored for a count."""
        if count <= 0:
            return 0
        if self.opts.fives_and_threes:
            return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)
        return count if count % 5 == 0 else 0

    # ------------------------------------------------------------------ queries
    def _drawable(self) -> bool:
        o = self.opts
        if o.draw == "none" or len(self.boneyard) <= o.boneyard_reserve:
            return False
        return o.draw == "until_playable" or not self.drew

    def _plays(self) -> list[Action]:
        """The plays of the current seat's tiles on the open ends (a new list)."""
        hand = self.hands[self.current]
        values = self.end_values
        if self.lead < 0:
            row = PLAYS[None]
            return [row[t] for t in ids(hand)]
        out: list[Action] = []
        for name, v in zip(self.end_names, values):
            out += plays_on(name, hand & WITH_HALF[v])
        return out

    def legal(self) -> list[Action]:
        acts = self._legal
        if acts is not None:
            return acts
        if self.over:
            self._legal = []
            return self._legal
        hand = self.hands[self.current]
        values = self.end_values
        if len(values) == 2:                      # the line, no spinner arms open
            try:
                plays = _ON_L[hand & WITH_HALF[values[0]]] + _ON_R[hand & WITH_HALF[values[1]]]
            except KeyError:                      # a mask not seen before
                plays = self._plays()
        else:
            plays = self._plays()
        if plays and self.must_play:
            self._legal = plays
            return plays
        drawable = self._drawable()
        if plays:                                 # must_play is off (B5)
            if drawable:
                acts = plays + [DRAW_ACTION]
            elif self._may_pass_while_able():
                acts = plays + [PASS_ACTION]
            else:
                acts = plays
        else:
            acts = [DRAW_ACTION] if drawable else [PASS_ACTION]
        self._legal = acts
        return acts

    # ------------------------------------------------------------------ moves
    def apply(self, a: Action) -> None:
        self._legal = None
        p = self.current
        t, target, e = a.play
        if t < 0:                                 # draw or pass
            self._draw_or_pass(p, a)
            return
        if e == -2:
            e = self.end_names.index(target)      # type: ignore[arg-type]
        hands = self.hands
        hands[p] = hand = hands[p] ^ BIT[t]       # t is in the hand: the action was legal
        if e < 0 or IS_DOUBLE[t] or self.end_spinner[e] >= 0:
            self._place(t, e)
        else:                       # the usual play: a plain tile on a plain end
            self.end_tiles[e].append(t)
            values = self.end_values
            values[e] = PIPS[t] - values[e]       # other_half(t, ...), inlined: hot path
            self.end_kinds[e] = TILE
        self.passes = 0
        self.drew = False
        points = 0
        if self.count_scoring:
            self.count = self._count()
            points = self.count_points(self.count)
        self.log.append(("play", p, t, target, self.count, points))
        if hand and not hand & (hand - 1):       # one tile left
            self.log.append(("last_tile", p))
        if points and self._score(self.side(p), points) and self._ends_now():
            self._finish("target")
        elif not hand:
            self._end_hand(p)
        else:
            self.current = (p + 1) % self.n

    def _draw_or_pass(self, p: int, a: Action) -> None:
        if a is DRAW_ACTION:
            t = self.boneyard.pop()
            self.hands[p] |= BIT[t]
            self.drew = True
            self.log.append(("draw", p, t, self._void()))
        else:
            self.passes += 1
            self.drew = False
            self.log.append(("pass", p, self._void()))
            self.current = (p + 1) % self.n
            if self._blocked():
                self._end_hand(None)

    def _may_pass_while_able(self) -> bool:
        """B5: a pass is legal only for a player who can neither play nor draw."""
        return False

    def _blocked(self) -> bool:
        """B6, called after a pass: no player can play a tile and no tile may be drawn."""
        o = self.opts
        if o.draw != "none" and len(self.boneyard) > o.boneyard_reserve:
            return False
        if self.lead < 0:
            return False
        open_ends = 0
        for v in self.end_values:
            open_ends |= WITH_HALF[v]
        for hand in self.hands:
            if hand & open_ends:
                return False
        return True

    def _void(self) -> tuple[int, ...] | None:
        """Public proof for inference: with must_play on, a draw or pass shows the player
        holds no tile matching any open end (the event's ``void``: these values)."""
        if self.must_play and self.lead >= 0:
            return tuple(self.end_values)
        return None

    def _score(self, side: int, points: int) -> bool:
        """Add points to a side; True when that side has reached the target."""
        scores = self.scores
        scores[side] += points
        if self.opts.teams:
            scores[side + 2] += points
        return scores[side] >= self.opts.target

    def _ends_now(self) -> bool:
        return self.opts.hands == 0 and self.opts.end_at == "immediately"

    def _end_hand(self, winner: int | None) -> None:
        """B6: score a domino or a block, then the next hand or the end (B7)."""
        o, n = self.opts, self.n
        pips = list(map(mask_pips, self.hands))
        teams = o.teams
        side_pips = [pips[0] + pips[2], pips[1] + pips[3]] if teams else pips
        points = [0] * len(side_pips)             # per side
        if winner is not None:
            reason = "domino"
            w = winner % 2 if teams else winner
            points[w] = round_points(sum(side_pips) - side_pips[w], o.round_to)
        else:
            reason = "blocked"
            low = min(side_pips)
            tied = side_pips.count(low)
            others = sum(side_pips) - low * tied
            if tied == 1:
                w = side_pips.index(low)
                points[w] = round_points(others, o.round_to)
                winner = self._block_leader(w, pips)
            elif o.block_tie == "all_tied_share":
                share = round_points(others // tied, o.round_to)
                points = [share if v == low else 0 for v in side_pips]
        for k, pts in enumerate(points):
            if pts:
                self._score(k, pts)
        self.log.append({
            "type": "round_end", "round": self.round, "reason": reason,
            "seat": winner if reason == "domino" else None,
            "hands": self.hands[:], "pips": pips,
            "points": points * 2 if teams else points,
            "scores": self.scores[:],
        })
        if o.hands:
            last = self.round >= o.hands
        else:
            last = max(self.scores) >= o.target
        if last:
            self._finish(None)
            return
        if o.next_leader == "winner" and winner is not None:
            self.leader = winner
        else:
            self.leader = (self.leader + 1) % n
        self.round += 1
        self._start_hand()

    def _block_leader(self, side: int, pips: list[int]) -> int:
        """The seat that won a block for `side`: with teams, the partner with fewer pips."""
        if not self.opts.teams:
            return side
        a, b = side, side + 2
        return b if pips[b] < pips[a] else a

    def _finish(self, reason: str | None) -> None:
        """B7: the match is over; the highest score wins, ties share."""
        if reason == "target":
            self.log.append({
                "type": "round_end", "round": self.round, "reason": "target", "seat": None,
                "hands": self.hands[:], "pips": list(map(mask_pips, self.hands)),
                "points": [0] * self.n, "scores": self.scores[:],
            })
        scores = self.scores
        best = max(scores)
        self.winners = winners = []
        for s, score in enumerate(scores):
            if score == best:
                winners.append(s)
        self.over = True
        self._legal = []
        self.log.append({"type": "game_end", "scores": self.scores[:], "winners": self.winners[:]})

    # ------------------------------------------------------------------ errors
    def explain(self, a: Action) -> str:
        """Why `a` is not legal now (called only for an illegal action)."""
        if self.over:
            return "the match is over"
        p = self.current
        plays = self._plays()
        if a is DRAW_ACTION:
            if self.opts.draw == "none":
                return "there is no drawing in this game"
            if len(self.boneyard) <= self.opts.boneyard_reserve:
                return "the boneyard has no tile left to draw"
            if self.drew and self.opts.draw == "one":
                return "you already drew your one tile this turn"
            return "you have a legal play and must play"
        if a is PASS_ACTION:
            return "you can still " + ("play" if plays else "draw") + ", so you may not pass"
        if a.kind != PLAY:
            return "'end' is not an action in this game"
        t, target = a.tile, a.target
        if HIGH[t] > self.opts.set_max:
            return f"{TEXT[t]} is not in the double-{self.opts.set_max} set"
        if not self.hands[p] & BIT[t]:
            return f"{TEXT[t]} is not in your hand"
        if self.lead < 0:
            return f"lead a tile without a target, e.g. '{TEXT[t]}'"
        if target is None:
            return f"say which end: e.g. '{TEXT[t]}>L' or '{TEXT[t]}>R'"
        if target not in self.end_names:
            if target[0] in "UD":
                return f"the spinner side {target} is not open"
            return f"there is no open end {target}"
        v = self.end_values[self.end_names.index(target)]
        return f"{TEXT[t]} does not match the open end {v} at {target}"


class LapOfPassesLineGameState(LineGameState):
    """The rules of record versions 1 and 2: a lap of passes (every seat in turn passed
    since the last tile was played) blocked the hand, even with tiles still drawable
    (``draw=one``), and with ``must_play=false`` a player who could play but not draw
    could pass.  Kept so that old records replay exactly as they were played."""

    __slots__ = ()

    def _may_pass_while_able(self) -> bool:
        return True

    def _blocked(self) -> bool:
        return self.passes >= self.n
