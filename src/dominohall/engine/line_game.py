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

from typing import Any, Final

from .actions import DRAW_ACTION as _DRAW_ACTION
from .actions import PASS_ACTION as _PASS_ACTION
from .actions import PLAY, PLAYS, PLAYS_ON, Action, plays_on
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

# kinds of open end, and what each counts (B4): its value times the kind
BARE: Final = 0     # a bare side of a spinner: counts nothing itself
TILE: Final = 1     # a plain tile: counts its outer half
CROSS: Final = 2    # a crosswise double: counts both halves

_ON_L: Final = PLAYS_ON["L"]
_ON_R: Final = PLAYS_ON["R"]
_LEADS: Final = PLAYS[None]
# The actions compared on every move, as Final names: compiled, a Final is a C static,
# an imported name a lookup in the module dict on every use.
DRAW_ACTION: Final = _DRAW_ACTION
PASS_ACTION: Final = _PASS_ACTION


def _compiled() -> bool:
    """Whether this module runs compiled (mypyc makes its functions builtin functions)."""
    return type(_compiled).__name__ != "function"


#: How `legal` finds the plays on an end.  Compiled, int arithmetic on a hand is native and
#: a dict lookup by a mask is not (the mask becomes a Python int first), so the plays are
#: read off the mask's bits; interpreted, one lookup in the PLAYS_ON tables is faster.
#: Both give the same list (the tables are made by walking the bits, see plays_on).
WALK_BITS: Final = _compiled()


class End:
    """An open end of the layout: where the next tile may go.

    ``name`` is ``L`` or ``R`` (the line) or a spinner arm (``U``, ``D``, ``U2``...);
    ``value`` the number a tile must match; ``kind`` BARE, TILE or CROSS; ``spinner`` the
    index of the spinner whose bare line end this is (else -1); ``tiles`` the tiles laid
    on it, from the centre out; ``plays`` the table of the plays on an end of this name
    (``PLAYS_ON[name]``: a mask of tiles that match it -> their actions) and ``row`` the
    plays on it by tile id (``PLAYS[name]``).
    """

    __slots__ = ("name", "value", "kind", "spinner", "tiles", "plays", "row")

    def __init__(self, name: str, value: int, kind: int, spinner: int = -1,
                 tiles: list[int] | None = None) -> None:
        self.name = name
        self.value = value
        self.kind = kind
        self.spinner = spinner
        self.tiles: list[int] = [] if tiles is None else tiles
        plays = PLAYS_ON.get(name)
        if plays is None:
            plays_on(name, 0)
            plays = PLAYS_ON[name]
        self.plays: dict[int, list[Action]] = plays
        self.row: list[Action] = PLAYS[name]

    def copy(self) -> End:
        return End(self.name, self.value, self.kind, self.spinner, self.tiles[:])

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (End, (self.name, self.value, self.kind, self.spinner, self.tiles))

    def __repr__(self) -> str:
        return f"<End {self.name}={self.value} kind={self.kind} tiles={len(self.tiles)}>"


class Spinner:
    """A double laid lengthwise that may open arms (B3), or a lead double that counts both
    halves until both its line ends are covered (``arms`` False: ``spinner=none``).

    ``bare``: how many of its line ends are still bare (2 for a lead, 1 on a line end);
    ``opened``: its arms are open ends; ``number``: 1 for the first spinner with arms, 2 for
    the second (arms ``U2``/``D2``), ...; 0 without arms.
    """

    __slots__ = ("tile", "value", "bare", "arms", "opened", "number")

    def __init__(self, tile: int, bare: int, arms: bool, number: int,
                 opened: bool = False) -> None:
        self.tile = tile
        self.value = HIGH[tile]
        self.bare = bare
        self.arms = arms
        self.opened = opened
        self.number = number

    def copy(self) -> Spinner:
        return Spinner(self.tile, self.bare, self.arms, self.number, self.opened)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Spinner, (self.tile, self.bare, self.arms, self.number, self.opened))


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
    "ends", "spinners",
    "count", "passes", "drew", "scores", "over", "winners", "log", "_legal",
    "count_scoring", "must_play",
)
#: The options the rules read on every move, as plain fields (set from `opts` by __init__).
_RULES = ("fives_and_threes", "teams", "may_draw", "draw_one", "reserve")


class LineGameState:
    """An All Fives / Draw / Block match in progress."""

    __slots__ = _FIELDS + _RULES

    def __init__(self, opts: LineGameOptions, chance: Chance,
                 stacked: StackedDeck | None = None,
                 leader: int | None = None, deal: bool = True) -> None:
        self.opts = opts
        self.n = opts.players
        self.chance = chance
        self.count_scoring = opts.count_scoring
        self.must_play = opts.must_play
        self.fives_and_threes = opts.fives_and_threes
        self.teams = opts.teams
        self.may_draw = opts.draw != "none"            # B5
        self.draw_one = opts.draw == "one"
        self.reserve = opts.boneyard_reserve
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
        c.ends = [e.copy() for e in self.ends]
        c.spinners = [s.copy() for s in self.spinners]
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
        self.ends: list[End] = []            # L and R first, then spinner arms
        self.spinners: list[Spinner] = []
        self.count = 0
        self.passes = 0
        self.drew = False
        self._legal: list[Action] | None = None
        self.log.append({"type": "deal", "round": self.round, "leader": self.leader,
                         "hand_sizes": list(map(int.bit_count, self.hands)),
                         "boneyard": len(self.boneyard)})

    def side(self, seat: int) -> int:
        """The scoring side of a seat: its team (0 or 1) with teams, else the seat."""
        return seat % 2 if self.teams else seat

    # ------------------------------------------------------------------ layout
    @property
    def end_names(self) -> list[str]:
        """The open ends' names, in order (a new list; the layout is `ends`)."""
        return [e.name for e in self.ends]

    @property
    def end_values(self) -> list[int]:
        """The open ends' values, in order (a new list; the layout is `ends`)."""
        return [e.value for e in self.ends]

    def end_index(self, name: str | None) -> int:
        """The index in `ends` of the open end called `name`, or -1."""
        for k, e in enumerate(self.ends):
            if e.name == name:
                return k
        return -1

    def _new_spinner(self, t: int, bare: int, arms: bool) -> int:
        """Lay double t as spinner number len(spinners); its index."""
        spinners = self.spinners
        number = sum(1 for s in spinners if s.arms) + 1 if arms else 0
        s = Spinner(t, bare, arms, number)
        spinners.append(s)
        if arms and not self.opts.spinner_sides_after_ends:
            self._open_arms(s)
        return len(spinners) - 1

    def _open_arms(self, s: Spinner) -> None:
        s.opened = True
        suffix = "" if s.number == 1 else str(s.number)
        self.ends += [End("U" + suffix, s.value, BARE), End("D" + suffix, s.value, BARE)]

    def _becomes_spinner(self) -> bool:
        mode = self.opts.spinner
        return mode == "every_double" or (
            mode == "first_double" and not any(s.arms for s in self.spinners))

    def _place(self, t: int, e: int) -> None:
        """Lay tile t on open end index e (-1: the lead)."""
        if e < 0:
            self._lead(t)
        else:
            self._lay(t, self.ends[e])

    def set_hands(self, hands: list[int], boneyard: list[int] | None = None) -> None:
        """Put other hidden tiles in play, the table unchanged: every hand's mask (and the
        boneyard, top last, when given), e.g. one of a sampler's deals in a world, or a
        hand that may hold every tile a seat might.  The legal moves are listed anew."""
        self.hands = hands
        if boneyard is not None:
            self.boneyard = boneyard
        self._legal = None

    def clear_layout(self) -> None:
        """An empty table (no ends, spinners or lead, count 0), hands and scores untouched:
        for replaying a hand's layout alone with `lay`."""
        self.ends, self.spinners, self.lead, self.count = [], [], -1, 0

    def lay(self, t: int, e: int) -> None:
        """The layout part of a play: tile t laid on open end index e (-1: the lead) and the
        count (B4) updated; no hand, log, turn or score changes (a bot replaying the
        layout of the plays it has seen)."""
        self._place(t, e)
        if self.count_scoring:
            self.count = self._count()

    def _lead(self, t: int) -> None:
        """The first tile of a hand: the line's two ends L and R (always ends 0 and 1)."""
        self.lead = t
        if IS_DOUBLE[t]:
            k = len(self.spinners)
            self.ends = [End("L", HIGH[t], BARE, k), End("R", HIGH[t], BARE, k)]
            self._new_spinner(t, 2, self._becomes_spinner())
        else:
            self.ends = [End("L", HIGH[t], TILE), End("R", LOW[t], TILE)]

    def _lay(self, t: int, end: End) -> None:
        """Lay tile t on an open end."""
        end.tiles.append(t)
        k = end.spinner
        if k >= 0:                                # a bare line end of a spinner is covered
            s = self.spinners[k]
            s.bare -= 1
            if s.bare == 0 and s.arms and not s.opened:
                self._open_arms(s)
        if IS_DOUBLE[t]:                          # crosswise, or a new spinner
            if self._becomes_spinner():
                end.kind = BARE
                end.spinner = self._new_spinner(t, 1, True)
            else:
                end.kind = CROSS
                end.spinner = -1
        else:
            end.value = other_half(t, end.value)
            end.kind = TILE
            end.spinner = -1

    def _count(self) -> int:
        """B4: the sum of the open ends, and both halves of a spinner with a bare line end."""
        total = 0
        for e in self.ends:
            total += e.value * e.kind             # BARE 0, TILE v, CROSS 2v
        for s in self.spinners:
            if s.bare:
                total += 2 * s.value
        return total

    def count_after(self, t: int, e: int) -> int:
        """B4: the count if tile t were laid on open end index e (-1: as the lead), read
        off the layout without laying it (a bot asks this of every play it weighs).
        The covered end's share goes; covering a spinner's last bare line end takes its
        two halves out; a double adds both halves (crosswise, or a new spinner whose one
        bare side counts it), any other tile its outer half."""
        if e < 0:
            return 2 * HIGH[t] if IS_DOUBLE[t] else PIPS[t]
        end = self.ends[e]
        v = end.value
        count = (self.count if self.count_scoring else self._count()) - v * end.kind
        k = end.spinner
        if k >= 0 and self.spinners[k].bare == 1:
            count -= 2 * self.spinners[k].value
        return count + (2 * HIGH[t] if IS_DOUBLE[t] else PIPS[t] - v)

    def count_points(self, count: int) -> int:
        """B4: points scored for a count."""
        if count <= 0:
            return 0
        if self.fives_and_threes:
            return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)
        return count if count % 5 == 0 else 0

    # ------------------------------------------------------------------ queries
    def _drawable(self) -> bool:
        if not self.may_draw or len(self.boneyard) <= self.reserve:
            return False
        return not (self.draw_one and self.drew)

    def _plays(self) -> list[Action]:
        """The plays of the current seat's tiles on the open ends (a new list)."""
        hand = self.hands[self.current]
        if self.lead < 0:
            return [_LEADS[t] for t in ids(hand)]
        out: list[Action] = []
        for e in self.ends:
            m = hand & WITH_HALF[e.value]
            if not m:
                continue
            if WALK_BITS:                     # compiled: the tiles of m, in id order
                row = e.row
                while m:
                    low = m & -m
                    out.append(row[low.bit_length() - 1])
                    m ^= low
            else:                             # interpreted: the same list, kept by mask
                acts = e.plays.get(m)
                out += plays_on(e.name, m) if acts is None else acts
        return out

    def legal(self) -> list[Action]:
        acts = self._legal
        if acts is not None:
            return acts
        if self.over:
            self._legal = []
            return self._legal
        hand = self.hands[self.current]
        ends = self.ends
        if len(ends) == 2 and not WALK_BITS:      # the line, no spinner arms open
            try:
                plays = (_ON_L[hand & WITH_HALF[ends[0].value]]
                         + _ON_R[hand & WITH_HALF[ends[1].value]])
            except KeyError:                      # a mask not seen before
                plays = self._plays()
        else:
            plays = self._plays()
        if plays and self.must_play:
            self._legal = plays
            return plays
        drawable = self._drawable()
        if plays:                                 # must_play is off (B5)
            if drawable:                          # plays is a new list: append to it
                plays.append(DRAW_ACTION)
            elif self._may_pass_while_able():
                plays.append(PASS_ACTION)
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
        hands = self.hands
        hands[p] = hand = hands[p] ^ BIT[t]       # t is in the hand: the action was legal
        if e >= 0:                                # L or R
            end = self.ends[e]
            if IS_DOUBLE[t] or end.spinner >= 0:
                self._lay(t, end)
            else:                   # the usual play: a plain tile on a plain end
                end.tiles.append(t)
                end.value = PIPS[t] - end.value   # other_half(t, ...), inlined: hot path
                end.kind = TILE
        elif e == -1:
            self._lead(t)
        else:                                     # a spinner arm
            self._lay(t, self.ends[self.end_index(target)])
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
        if self.may_draw and len(self.boneyard) > self.reserve:
            return False
        if self.lead < 0:
            return False
        open_ends = 0
        for e in self.ends:
            open_ends |= WITH_HALF[e.value]
        for hand in self.hands:
            if hand & open_ends:
                return False
        return True

    def _void(self) -> tuple[int, ...] | None:
        """Public proof for inference: with must_play on, a draw or pass shows the player
        holds no tile matching any open end (the event's ``void``: these values)."""
        if self.must_play and self.lead >= 0:
            return tuple([e.value for e in self.ends])
        return None

    def _score(self, side: int, points: int) -> bool:
        """Add points to a side; True when that side has reached the target."""
        scores = self.scores
        scores[side] += points
        if self.teams:
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
        e = self.end_index(target)
        if e < 0:
            if target[0] in "UD":
                return f"the spinner side {target} is not open"
            return f"there is no open end {target}"
        return f"{TEXT[t]} does not match the open end {self.ends[e].value} at {target}"


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
