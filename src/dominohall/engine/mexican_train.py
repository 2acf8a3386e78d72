"""Mexican Train (RULES.md Part A): deal, engine, trains, markers, doubles, rounds.

The state plays a whole match: when a round ends (A10) it is scored (A11), the
``round_end`` event reveals every hand, and the next round is dealt by the
game's own seeded chance (chance.py).

Trains are numbered 0..n-1 (each seat's personal train, text ``t<k>``) and n
(the Mexican train, text ``mx``).  Hands are bitmasks of tile ids.

Interpretations where RULES.md leaves room (players' usual reading):

* A5: during a first turn with ``first_turn`` chain/single only the player's own
  train may be played on.  A tile played from the starting hand opens a chain
  (chain: more tiles or ``end``; single: the turn ends).  A tile that fits only
  after a draw ends the first turn, except a double, after which A8 applies
  (play again, on the own train).  Every double left uncovered at the end of a
  first turn is owed per ``first_turn_double_owed``.
* A double owed from an earlier turn binds every later player, also one who has
  not had a first turn yet (with ``first_turn_double_owed=at_once``): covering it
  (or drawing and passing) is that player's first turn.
* A8: doubles played in the current turn are never owed to the player who
  played them; they become owed when the turn ends.  With
  ``max_doubles_per_turn=1`` no second double may be played while the turn's
  first double is uncovered.
* A6/A7: after a draw only the drawn tile may be played; with ``must_play=false``
  the player may draw while able to play and may pass after drawing.  With an
  empty boneyard a player who can play must play.
* A marker is removed when its owner plays a tile on their own train.
* A10: after every pass with the boneyard empty the engine, as referee, asks
  whether anybody can play any more (``_nobody_can_play``): each seat in turn is
  judged as if it were their turn, with the owed doubles as they stand; a seat
  that cannot play passes as it would at the table (a marker on its train, its
  first turn over, and once every first turn is over the doubles deferred to
  then are owed), until a seat can play (the round goes on) or a whole lap puts
  down no new marker (the round is blocked and ends at once).  This is RULES
  A10's marker test, played out in turn order so that a pass also ends a first
  turn, as it does at the table.
* Records of versions 1 and 2 were played when a lap of passes with the
  boneyard empty blocked the round; they replay with
  :class:`LapOfPassesMexicanTrainState`, which keeps that rule.
"""

from __future__ import annotations

from typing import Any, Final

from .actions import DRAW_ACTION as _DRAW_ACTION
from .actions import END_ACTION as _END_ACTION
from .actions import PASS_ACTION as _PASS_ACTION
from .actions import PLAYS, Action
from .chance import Chance
from .options import MexicanTrainOptions
from .tiles import (
    BIT,
    IS_DOUBLE,
    PIPS,
    TEXT,
    WITH_HALF,
    StackedDeck,
    double,
    ids,
    other_half,
    set_size,
)

Event = dict[str, Any]

# The actions compared on every move, as Final names: compiled, a Final is a C static,
# an imported name a lookup in the module dict on every use.
DRAW_ACTION: Final = _DRAW_ACTION
END_ACTION: Final = _END_ACTION
PASS_ACTION: Final = _PASS_ACTION


_FIELDS = (
    "opts", "n", "chance", "round", "engine", "hands", "boneyard", "ends", "trains", "markers",
    "owed", "deferred", "pending", "first_done", "current", "drawn", "drew", "must_follow",
    "chain", "turn_draws", "passes", "scores", "over", "winners", "log", "_legal",
)
#: The options the rules read on every move, as plain flags (set from `opts` by __init__).
_RULES = (
    "restricted_first_turn", "chain_first_turn", "defer_first_turn_doubles", "cover_oldest",
    "follow_on_double", "one_double_per_turn", "must_play", "draw_until_playable", "_rows",
)


class MexicanTrainState:
    """A Mexican Train match in progress. Mutated only through `apply`."""

    __slots__ = _FIELDS + _RULES

    def __init__(self, opts: MexicanTrainOptions, chance: Chance,
                 stacked: StackedDeck | None = None, deal: bool = True) -> None:
        self.opts = opts
        self.n = n = opts.players
        self.chance = chance
        self.restricted_first_turn = opts.first_turn != "free"    # A5
        self.chain_first_turn = opts.first_turn == "chain"
        self.defer_first_turn_doubles = opts.first_turn_double_owed == "after_first_turns"
        self.cover_oldest = opts.double_order == "played"         # A8
        self.follow_on_double = opts.after_double == "on_double"
        self.one_double_per_turn = opts.max_doubles_per_turn == 1
        self.must_play = opts.must_play                            # A6/A7
        self.draw_until_playable = opts.draw_until_playable
        #: _rows[i][t]: the action playing tile t on train i
        rows = _ROWS.get(n)
        if rows is None:
            rows = _ROWS[n] = [PLAYS[_name(i, n)] for i in range(n + 1)]
        self._rows: list[list[Action]] = rows
        self.round = 1
        self.scores = [0] * self.n
        self.over = False
        self.winners: list[int] = []
        self.log: list[Event] = []
        if deal:            # deal=False: the rest is filled in by clone, pickle, sample_world
            self._start_round(stacked)

    # ------------------------------------------------------------------ copying
    def __reduce__(self) -> tuple[object, ...]:
        # pickle and deepcopy in both builds (compiled classes have no default that works)
        return (self.__class__, (self.opts, self.chance, None, False),
                {k: getattr(self, k) for k in _FIELDS})

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    def clone(self) -> MexicanTrainState:
        c = self.__class__(self.opts, self.chance.fork(), None, False)
        c.round = self.round
        c.engine = self.engine
        c.hands = self.hands[:]
        c.boneyard = self.boneyard[:]
        c.ends = self.ends[:]
        c.trains = [t[:] for t in self.trains]
        c.markers = self.markers
        c.owed = self.owed[:]
        c.deferred = self.deferred[:]
        c.pending = self.pending[:]
        c.first_done = self.first_done
        c.current = self.current
        c.drawn = self.drawn
        c.drew = self.drew
        c.must_follow = self.must_follow
        c.chain = self.chain
        c.turn_draws = self.turn_draws
        c.passes = self.passes
        c.scores = self.scores[:]
        c.over = self.over
        c.winners = self.winners[:]
        c.log = self.log[:]
        c._legal = self._legal
        return c

    # ------------------------------------------------------------------ rounds
    def _start_round(self, stacked: StackedDeck | None = None) -> None:
        """A2/A3: deal the round and place its engine."""
        o, n = self.opts, self.n
        e = o.set_max - self.round + 1                      # clear_table places it
        deck: list[int] | int = set_size(o.set_max)        # the whole set: ids 0..n-1
        if o.engine == "set_aside":
            deck = list(range(set_size(o.set_max)))
            deck.remove(double(e))
        self.hands, self.boneyard, _ = self.chance.deal(deck, n, o.hand_size, stacked)
        self.clear_table()
        self.log.append({"type": "deal", "round": self.round,
                         "hand_sizes": [h.bit_count() for h in self.hands],
                         "boneyard": len(self.boneyard)})
        engine_tile = double(e)
        if o.engine == "set_aside":
            self.current = (self.round - 1) % n
            self.log.append({"type": "engine", "seat": None, "tile": TEXT[engine_tile]})
            return
        holder = next((s for s in range(n) if self.hands[s] & BIT[engine_tile]), None)
        seat = (self.round - 1) % n
        while holder is None:
            t = self.boneyard.pop()
            self.hands[seat] |= BIT[t]
            self.log.append({"type": "draw", "seat": seat, "tile": TEXT[t], "search": True})
            if t == engine_tile:
                holder = seat
            seat = (seat + 1) % n
        self.hands[holder] &= ~BIT[engine_tile]
        self.log.append({"type": "engine", "seat": holder, "tile": TEXT[engine_tile]})
        if self.hands[holder].bit_count() == 1:
            self.log.append({"type": "last_tile", "seat": holder})
        self.current = (holder + 1) % n

    def clear_table(self) -> None:
        """The round's table as dealt (A2): the engine of this round in the middle, every
        train empty and unmarked, no double owed, nobody's first turn done, a fresh turn;
        hands, boneyard, scores and the log untouched (how a bot replays a round)."""
        n = self.n
        e = self.opts.set_max - self.round + 1
        self.engine = e
        self.ends = [e] * (n + 1)
        self.trains: list[list[int]] = [[] for _ in range(n + 1)]
        self.markers = 0
        self.owed: list[int] = []
        self.deferred: list[int] = []
        self.pending: list[int] = []
        self.first_done = 0
        self.passes = 0
        self._reset_turn()

    def _reset_turn(self) -> None:
        self.drawn = -1          # the tile drawn since the last play, if any
        self.drew = False        # drew since the last play this turn
        self.must_follow = False  # A8: just played a double, plays again
        self.chain = False       # A5: inside a first-turn chain
        self.turn_draws = 0
        self._legal: list[Action] | None = None

    def set_hands(self, hands: list[int], boneyard: list[int] | None = None) -> None:
        """Put other hidden tiles in play, the table unchanged: every hand's mask (and the
        boneyard, top last, when given), e.g. one of a sampler's deals in a world.  The
        legal moves are listed anew."""
        self.hands = hands
        if boneyard is not None:
            self.boneyard = boneyard
        self._legal = None

    # ------------------------------------------------------------------ queries
    def in_first_turn(self, seat: int) -> bool:
        """A5: the seat's first turn is restricted to its own train."""
        return self.restricted_first_turn and not self.first_done >> seat & 1

    def _cover_target(self) -> int:
        return self.owed[0] if self.cover_oldest else self.owed[-1]

    def _targets(self, p: int) -> list[int]:
        """Trains the current player may play on now (A4-A8)."""
        if self.must_follow and not self.owed and self.follow_on_double:
            return [self.pending[-1]]
        return self._open_trains(p, self.markers, self.first_done, self.owed)

    def _open_trains(self, p: int, markers: int, first_done: int, owed: list[int]) -> list[int]:
        """Trains seat p may play on at the start of a turn, given the markers, the seats
        whose first turn is over and the owed doubles (A4-A8)."""
        if owed:
            return [owed[0] if self.cover_oldest else owed[-1]]
        if self.restricted_first_turn and not first_done >> p & 1:
            return [p]
        n = self.n
        key = markers << 8 | p << 4 | n           # n <= 10 players
        trains = _OPEN_TRAINS.get(key)
        if trains is None:      # the own train, those with a marker, the Mexican train
            trains = _OPEN_TRAINS[key] = [i for i in range(n) if i == p or markers >> i & 1] + [n]
        return trains

    def _blocked(self) -> bool:
        """A10, called after a pass with the boneyard empty: nobody can play any more.

        Each seat in turn, from the one to play now, is judged as if it were their turn
        (owed doubles as they stand).  A seat that cannot play passes as it would at the
        table: a marker goes on its train and its first turn is over (and once every first
        turn is over, the doubles deferred to then are owed).  The round goes on as soon
        as a seat can play; it is blocked when a whole lap puts down no new marker.
        """
        n = self.n
        everyone = (1 << n) - 1
        markers, first_done = self.markers, self.first_done
        owed, deferred = self.owed, self.deferred
        seat, quiet = self.current, 0
        while quiet < n:
            hand = self.hands[seat]
            for i in self._open_trains(seat, markers, first_done, owed):
                if hand & WITH_HALF[self.ends[i]]:
                    return False
            bit = BIT[seat]
            changed = not (markers & bit and first_done & bit)
            markers |= bit
            first_done |= bit
            if deferred and first_done == everyone:
                owed, deferred = owed + deferred, []
                changed = True
            quiet = 0 if changed else quiet + 1
            seat = (seat + 1) % n
        return True

    def _plays(self) -> list[Action]:
        p = self.current
        cand = BIT[self.drawn] if self.drawn >= 0 else self.hands[p]
        if self.pending and self.one_double_per_turn:
            cand &= ~_DOUBLES
        out: list[Action] = []
        if not cand:
            return out
        # The candidates in two parts that each fit a machine word (a double-12 hand has
        # 91 bits): the tiles below _SPLIT and the others, shifted down by _SPLIT.
        # Compiled, every step below is then native arithmetic instead of Python ints.
        low_part, high_part = cand & _LOW_PART, cand >> _SPLIT
        ends, rows = self.ends, self._rows
        for i in self._targets(p):
            end, row = ends[i], rows[i]
            m = low_part & _WITH_HALF_LOW[end]
            while m:                          # in tile order: the low part first
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
            m = high_part & _WITH_HALF_HIGH[end]
            while m:
                low = m & -m
                out.append(row[_SPLIT + low.bit_length() - 1])
                m ^= low
        return out

    def legal(self) -> list[Action]:
        if self._legal is not None:
            return self._legal
        if self.over:
            self._legal = []
            return self._legal
        acts = self._plays()                  # a new list: the other actions go after
        can_draw = bool(self.boneyard)
        if self.chain:
            acts.append(END_ACTION)
        elif self.drew:
            if not acts:
                acts.append(DRAW_ACTION if can_draw and self.draw_until_playable
                            else PASS_ACTION)
            elif not self.must_play:
                acts.append(PASS_ACTION)
        elif not acts:
            acts.append(DRAW_ACTION if can_draw else PASS_ACTION)
        elif can_draw and not self.must_play:
            acts.append(DRAW_ACTION)
        self._legal = acts
        return acts

    def _train_index(self, target: str | None) -> int:
        """n for "mx", k for "t<k>", -1 for anything else."""
        if target == "mx":
            return self.n
        k = _TRAIN_OF.get(target, -1)
        if k < 0 and target is not None and target[0] == "t" and target[1:].isdigit():
            k = int(target[1:])               # "t05", say: not a name the engine prints
        return k if k < self.n else -1

    # ------------------------------------------------------------------ moves
    def apply(self, a: Action) -> None:
        """Apply a legal action (no checking: see `explain` and Game.apply)."""
        self._legal = None
        t, target, _ = a.play
        if t >= 0:
            self._play(t, self._train_index(target))
        elif a is DRAW_ACTION:
            p = self.current
            event = {"type": "draw", "seat": p, "tile": ""}
            self._note_void(event)
            t = self.boneyard.pop()
            event["tile"] = TEXT[t]
            self.hands[p] |= BIT[t]
            self.drawn = t
            self.drew = True
            self.turn_draws += 1
            self.log.append(event)
        elif a is PASS_ACTION:
            p = self.current
            event = {"type": "pass", "seat": p}
            self._note_void(event)
            self.markers |= BIT[p]
            self.passes += 1
            self.log.append(event)
            self._end_turn()
            if not self.boneyard and self._blocked():
                self._end_round(None)
        else:
            self.log.append({"type": "end", "seat": self.current})
            self._end_turn()

    def _note_void(self, event: Event) -> None:
        """Public proof for inference: with must_play on, a draw or pass shows the player
        holds no tile matching the open ends they could play on (``void``)."""
        if self.must_play and not (self.pending and self.one_double_per_turn):
            void: list[int] = []
            for i in self._targets(self.current):
                end = self.ends[i]
                if end not in void:
                    void.append(end)
            void.sort()
            event["void"] = void

    def _play(self, t: int, i: int) -> None:
        p = self.current
        first_turn_play = self.in_first_turn(p) and not self.owed
        self.hands[p] &= ~BIT[t]
        self.ends[i] = other_half(t, self.ends[i])
        self.trains[i].append(t)
        self.passes = 0
        self.log.append({"type": "play", "seat": p, "tile": TEXT[t],
                         "target": _TRAIN_NAMES[i] if i < self.n else "mx"})
        if i in self.owed:                  # a double on train i is covered
            self.owed.remove(i)
        if i in self.pending:
            self.pending.remove(i)
        if i in self.deferred:
            self.deferred.remove(i)
        if i == p:
            self.markers &= ~BIT[p]
        is_double = IS_DOUBLE[t]
        if is_double:
            self.pending.append(i)
        left = self.hands[p].bit_count()
        if left == 0:                       # A8/A10: going out ends the round, even on a double
            self._end_round(p)
            return
        if left == 1:
            self.log.append({"type": "last_tile", "seat": p})
        self.drawn = -1
        self.drew = False
        if first_turn_play and self.turn_draws == 0 and not self.must_follow:
            if self.chain_first_turn:
                self.chain = True           # A5: more tiles on the own train, or 'end'
            else:
                self._end_turn()            # single: exactly one tile
            return
        if is_double:                       # A8: play again
            self.must_follow = True
            return
        self._end_turn()

    def _end_turn(self) -> None:
        p = self.current
        if self.pending:
            if self.in_first_turn(p) and self.defer_first_turn_doubles:
                self.deferred.extend(self.pending)
            else:
                self.owed.extend(self.pending)
            self.pending = []
        self.first_done |= BIT[p]
        if self.deferred and self.first_done == (1 << self.n) - 1:
            self.owed.extend(self.deferred)
            self.deferred = []
        self._reset_turn()
        self.current = (p + 1) % self.n

    def hand_pips(self, seat: int) -> int:
        """A11: pips left in a hand, the 0-0 counting `double_blank`."""
        h = self.hands[seat]
        total = sum(PIPS[t] for t in ids(h))
        if h & 1:
            total += self.opts.double_blank
        return total

    def _end_round(self, winner: int | None) -> None:
        """A10/A11: score the round, reveal the hands, deal the next round."""
        n = self.n
        pips = [self.hand_pips(s) for s in range(n)]
        if self.opts.scoring == "penalty":
            points = pips[:]
        else:
            points = [0] * n
            if winner is not None:
                points[winner] = sum(pips)
            else:
                low = min(pips)
                best = [s for s in range(n) if pips[s] == low]
                share = sum(x for x in pips if x != low) // len(best)
                for s in best:
                    points[s] = share
        for s in range(n):
            self.scores[s] += points[s]
        self.log.append({
            "type": "round_end", "round": self.round,
            "reason": "blocked" if winner is None else "domino", "seat": winner,
            "hands": self.hands[:],
            "pips": pips, "points": points, "scores": self.scores[:],
        })
        if self.round >= self.opts.rounds:
            best_score = (min if self.opts.scoring == "penalty" else max)(self.scores)
            self.winners = [s for s in range(n) if self.scores[s] == best_score]
            self.over = True
            self._legal = []
            self.log.append({"type": "game_end", "scores": self.scores[:],
                             "winners": self.winners[:]})
            return
        self.round += 1
        self._start_round()

    # ------------------------------------------------------------------ errors
    def explain(self, a: Action) -> str:
        """Why `a` is not legal now (called only for an illegal action)."""
        p = self.current
        if self.over:
            return "the match is over"
        if a is DRAW_ACTION:
            if self.chain:
                return "you are laying your first-turn chain: play on your train or 'end'"
            if not self.boneyard:
                return "the boneyard is empty"
            if self.drew and not self.draw_until_playable:
                return "you already drew this turn"
            return "you have a legal play and must play (must_play is on)"
        if a is PASS_ACTION:
            if self.chain:
                return "you are laying your first-turn chain: 'end' finishes it"
            can = "play" if self._plays() else "draw"
            return f"you can still {can}, so you may not pass"
        if a is END_ACTION:
            return "'end' only finishes a first-turn chain"
        t, target = a.tile, a.target
        if target is None:
            return f"say which train: e.g. '{TEXT[t]}>t{p}' or '{TEXT[t]}>mx'"
        i = self._train_index(target)
        if i < 0:
            return f"there is no train {target} (trains: t0..t{self.n - 1}, mx)"
        if not self.hands[p] & BIT[t]:
            return f"{TEXT[t]} is not in your hand"
        if self.drawn >= 0 and t != self.drawn:
            return f"after drawing you may only play the tile you drew ({TEXT[self.drawn]})"
        if self.owed:
            c = self._cover_target()
            if i != c:
                return (f"a double is owed on {_name(c, self.n)}: "
                        f"cover {TEXT[self.trains[c][-1]]} first")
        elif self.must_follow and self.follow_on_double and i != self.pending[-1]:
            return (f"the tile after a double must go on that double "
                    f"({_name(self.pending[-1], self.n)})")
        elif self.in_first_turn(p) and i != p:
            return f"on your first turn you may only play on your own train (t{p})"
        elif i < self.n and i != p and not self.markers >> i & 1:
            return f"{target} is closed (it has no marker)"
        if IS_DOUBLE[t] and self.pending and self.one_double_per_turn:
            return "only one uncovered double per turn (max_doubles_per_turn is 1)"
        if not WITH_HALF[self.ends[i]] & BIT[t]:
            return f"{TEXT[t]} does not match the open end {self.ends[i]} of {target}"
        return "that move is not legal now"


class LapOfPassesMexicanTrainState(MexicanTrainState):
    """The rules of record versions 1 and 2: with the boneyard empty, a lap of passes
    (every player in turn passed since the last tile was played) blocked the round, even
    when a marker put down in that lap had opened a play.  Kept so that old records
    replay exactly as they were played."""

    __slots__ = ()

    def _blocked(self) -> bool:
        return self.passes >= self.n


_DOUBLES: Final = sum(BIT[double(k)] for k in range(19))
#: A hand in two parts for `_plays`: tiles 0.._SPLIT-1 and the rest (each below 2**62, a
#: machine word for mypyc's ints), and every WITH_HALF mask split the same way.
_SPLIT: Final = 62
_LOW_PART: Final = (1 << _SPLIT) - 1
_WITH_HALF_LOW: Final[list[int]] = [m & _LOW_PART for m in WITH_HALF]
_WITH_HALF_HIGH: Final[list[int]] = [m >> _SPLIT for m in WITH_HALF]
_TRAIN_NAMES: Final = [f"t{k}" for k in range(10)]
_TRAIN_OF: Final[dict[str | None, int]] = {name: k for k, name in enumerate(_TRAIN_NAMES)}
_ROWS: Final[dict[int, list[list[Action]]]] = {}    # _rows per number of players
#: the trains open to a seat, by (markers, seat, players): lists to read, never to change
_OPEN_TRAINS: Final[dict[int, list[int]]] = {}


def _name(i: int, n: int) -> str:
    return "mx" if i == n else f"t{i}"

