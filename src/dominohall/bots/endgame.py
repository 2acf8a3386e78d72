"""Block and Draw hands as bitmasks, for search: exact alpha-beta once few tiles remain,
fast rollouts before that.

A :class:`LineHand` is one Block/Draw hand (RULES.md B8: a line with two open ends, no
count scoring) in one *sampled* world: every hand as a tile mask, the two open-end values,
the seat to play, the boneyard.  It is a search model of the engine's `LineGameState`,
kept small so that millions of positions fit in a move's budget; the tests play random
hands through both and check they agree move for move and point for point (the engine
stays the one source of the rules).

* `solve(hand, seat, ...)`: the exact value of each candidate play for `seat`'s side,
  by alpha-beta (fail-soft, with a transposition table on the hand masks, the ends and
  the seat to play; moves ordered by the table's best move, then heaviest first).
  Values are the hand's points for our side minus the best rival side's (RULES.md B6),
  plus or minus ``match_bonus`` when the hand ends the match.  With more than two sides
  the rivals are searched as one minimising side (a paranoid search).  Only hands that
  can no longer draw (Block, or a dry boneyard) are solved; `NodeLimit` stops a search
  that would not fit its budget.
* `rollout(hand, policy, rng)`: plays the hand out with a policy of play (`mid_policy`,
  the `blocker` bot's rule on masks) and returns the points per side.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..engine.line_game import round_points
from ..engine.tiles import (
    BIT,
    HIGH,
    IS_DOUBLE,
    LOW,
    MAX_PIPS,
    N_IDS,
    PIPS,
    WITH_HALF,
    ids,
    mask_pips,
)

INF = 10 ** 9       # beyond any hand's points (with the match bonus)
EXACT, LOWER, UPPER = 0, 1, 2


#: what a side scores: "rules" (RULES.md B6: the opponents' pips) or "all" (every hand's
#: pips left, the winner's own and its partner's too: the `dominoes` package's scoring)
SCORINGS = ("rules", "all")


class NodeLimit(Exception):
    """The search visited more positions than it was allowed."""


def applicable(opts: Any) -> bool:
    """The model plays this game: a plain line (no spinner) without count scoring."""
    return not opts.count_scoring and opts.spinner == "none"


class LineHand:
    """One Block/Draw hand in a world: masks, ends, seat to play, boneyard."""

    __slots__ = ("opts", "n", "teams", "hands", "a", "b", "cur", "boneyard", "lacks",
                 "scores", "last", "scoring")

    def __init__(self, opts: Any, hands: list[int], a: int, b: int, cur: int,
                 boneyard: list[int], lacks: list[int], scores: list[int], last: bool,
                 scoring: str = "rules") -> None:
        self.opts = opts
        self.n = opts.players
        self.teams = opts.teams
        self.hands = hands
        self.a = a                     # open-end values; -1 before the lead
        self.b = b
        self.cur = cur
        self.boneyard = boneyard       # top is the end of the list, as in the engine
        self.lacks = lacks             # per seat: mask of numbers it showed it lacks
        self.scores = scores           # match totals per seat before this hand ends
        self.last = last               # this hand ends the match, whatever the scores
        if scoring not in SCORINGS:
            raise TypeError(f"scoring={scoring!r}: choose from {', '.join(SCORINGS)}")
        self.scoring = scoring         # "rules" (RULES.md B6) or "all" (every hand's pips)

    def copy(self) -> LineHand:
        return LineHand(self.opts, self.hands[:], self.a, self.b, self.cur, self.boneyard[:],
                        self.lacks[:], self.scores, self.last, self.scoring)

    def side(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    def drawable(self) -> bool:
        o = self.opts
        return bool(o.draw != "none" and len(self.boneyard) > o.boneyard_reserve)

    def moves(self, seat: int) -> list[tuple[int, int]]:
        """(tile, end) plays of `seat`: end -1 leads, 0 is the `a` end, 1 the `b` end.
        With both ends equal, one play per tile (both give the same layout)."""
        h = self.hands[seat]
        a, b = self.a, self.b
        if a < 0:
            return [(t, -1) for t in ids(h)]
        out = [(t, 0) for t in ids(h & WITH_HALF[a])]
        if b != a:
            out += [(t, 1) for t in ids(h & WITH_HALF[b])]
        return out

    def can_play(self, seat: int) -> bool:
        if self.a < 0:
            return bool(self.hands[seat])
        return bool(self.hands[seat] & (WITH_HALF[self.a] | WITH_HALF[self.b]))

    def play(self, t: int, end: int) -> None:
        p = self.cur
        self.hands[p] ^= BIT[t]
        if end < 0:
            self.a, self.b = HIGH[t], LOW[t]
        elif end == 0:
            self.a = PIPS[t] - self.a
        else:
            self.b = PIPS[t] - self.b

    def points(self, winner: int | None) -> list[int]:
        """RULES.md B6: points per side for a domino by `winner`, or a block (None).
        With ``scoring="all"`` the winning side also counts its own pips left (every
        hand's pips, as the `dominoes` package and many tables score)."""
        o = self.opts
        pips = [mask_pips(h) for h in self.hands]
        side_pips = [pips[0] + pips[2], pips[1] + pips[3]] if self.teams else pips
        points = [0] * len(side_pips)
        total = sum(side_pips)
        own = self.scoring == "rules"
        if winner is not None:
            w = self.side(winner)
            points[w] = round_points(total - side_pips[w] if own else total, o.round_to)
            return points
        low = min(side_pips)
        tied = side_pips.count(low)
        others = total - low * tied if own else total
        if tied == 1:
            points[side_pips.index(low)] = round_points(others, o.round_to)
        elif o.block_tie == "all_tied_share":
            share = round_points(others // tied, o.round_to)
            points = [share if v == low else 0 for v in side_pips]
        return points

    def value(self, points: list[int], me: int, match_bonus: float) -> float:
        """Our side's points minus the best rival side's, plus the match bonus."""
        mine = self.side(me)
        gained = points[mine] - max(p for s, p in enumerate(points) if s != mine)
        if not match_bonus:
            return float(gained)
        totals = [self.scores[s] + points[s] for s in range(len(points))]  # side s: seat s
        ends = self.last or max(totals) >= self.opts.target
        if not ends:
            return float(gained)
        best = max(totals)
        if totals[mine] == best:
            won = totals.count(best) == 1
            return gained + (match_bonus if won else 0.0)
        return gained - match_bonus


# ------------------------------------------------------------------ alpha-beta


class Solver:
    """Exact values of plays in one world where nobody can draw any more.

    Fail-soft alpha-beta over the hand masks, with the two sides as max and min (our
    partnership against the other; with more than two sides the rivals are one
    minimising side).  Moves are ordered by the transposition table's best move, then
    doubles and heavy tiles first.  The table's key is one integer: the tiles still in
    the hands (nobody draws, so a tile's holder never changes in a world and the tiles
    left tell every hand), the two open ends as an unordered pair and the seat to play:
    the layout's order does not matter, only what can still be played.
    `nodes` counts the positions searched; `NodeLimit` stops a search past
    `node_limit` positions or past `deadline` (read every 256 positions)."""

    def __init__(self, hand: LineHand, me: int, match_bonus: float = 0.0,
                 node_limit: int = 10 ** 9, deadline: float | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.h = hand
        self.deadline = deadline
        self.clock = clock
        self.me = me
        self.my_side = hand.side(me)
        self.bonus = match_bonus
        self.limit = node_limit
        self.nodes = 0
        self.table: dict[int, tuple[float, int, int, int]] = {}
        self.ends: dict[int, float] = {}
        self.ours = [hand.side(s) == self.my_side for s in range(hand.n)]
        n = hand.n
        self.after = [[(s + i) % n for i in range(1, n + 1)] for s in range(n)]
        key = 0
        for m in hand.hands:
            key |= m
        self.key = key                  # the tiles left in the hands

    def root(self, candidates: list[tuple[int, int]]) -> list[float]:
        """The exact value of each candidate play by the seat to play."""
        h = self.h
        saved = h.hands[:]
        try:
            return [self._after(h.cur, t, end, h.a, h.b, self.key, -INF, INF)
                    for t, end in candidates]
        finally:
            h.hands[:] = saved          # a NodeLimit leaves no tile out of place

    def value(self) -> float:
        """The exact value of the position, with `cur` to play (or pass) next."""
        h = self.h
        saved = h.hands[:]
        try:
            return self._next(h.cur - 1, h.a, h.b, self.key, -INF, INF) if h.a >= 0 else \
                self._node(h.cur, h.a, h.b, self.key, -INF, INF)
        finally:
            h.hands[:] = saved

    def _end_value(self, winner: int | None, key: int) -> float:
        """The value of the hand's end (`key`: the hands now), kept per hands and winner."""
        k = key * 8 + (7 if winner is None else winner)
        v = self.ends.get(k)
        if v is None:
            h = self.h
            v = self.ends[k] = h.value(h.points(winner), self.me, self.bonus)
        return v

    def _after(self, p: int, t: int, end: int, a: int, b: int, key: int,
               alpha: float, beta: float) -> float:
        """Value after seat `p` lays (t, end) on ends a|b; hands restored on return."""
        hands = self.h.hands
        hands[p] ^= BIT[t]
        try:
            if not hands[p]:
                return self._end_value(p, key ^ BIT[t])
            if end < 0:
                a, b = HIGH[t], LOW[t]
            elif end == 0:
                a = PIPS[t] - a
            else:
                b = PIPS[t] - b
            return self._next(p, a, b, key ^ BIT[t], alpha, beta)
        finally:
            hands[p] |= BIT[t]

    def _next(self, p: int, a: int, b: int, key: int, alpha: float, beta: float) -> float:
        """The next seat after `p` that can play moves; nobody able to play is a block."""
        hands = self.h.hands
        n = len(hands)
        fit = WITH_HALF[a] | WITH_HALF[b]
        for i in range(1, n + 1):
            q = (p + i) % n
            if hands[q] & fit:
                return self._node(q, a, b, key, alpha, beta)
        return self._end_value(None, key)

    def _node(self, p: int, a: int, b: int, key: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self.limit:
            raise NodeLimit
        if self.deadline is not None and not self.nodes & 255 and \
                self.clock() > self.deadline:
            raise NodeLimit
        hand = self.h.hands[p]
        fits = hand if a < 0 else hand & (WITH_HALF[a] | WITH_HALF[b])
        mkey = (fits << 6) | ((a + 1) << 3) | (b + 1)     # the ends in order: 0 is a
        moves = _MOVES.get(mkey)
        if moves is None:
            moves = _ordered_moves(fits, a, b)
            if len(_MOVES) >= _MOVES_CAP:
                _MOVES.clear()
            _MOVES[mkey] = moves
        # ends as an unordered pair (a lead: both -1), 6 bits; the seat, 3 bits
        tkey = (key << 9) | ((a * 8 + b + 9 if a <= b else b * 8 + a + 9) << 3) | p
        entry = self.table.get(tkey)
        if entry is not None:
            v, flag, best_t, best_value = entry
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
            for i, (t, end) in enumerate(moves):     # the stored best move first
                if t == best_t and (end < 0 or (a if end == 0 else b) == best_value):
                    if i:
                        moves = [moves[i]] + moves[:i] + moves[i + 1:]
                    break
        maximising = self.ours[p]
        a0, b0 = alpha, beta
        best: float = float(-INF) if maximising else float(INF)
        best_move = moves[0]
        hands = self.h.hands
        after = self.after[p]
        for move in moves:              # _after, inlined: one call a position
            t, end = move
            bit = BIT[t]
            hands[p] ^= bit
            if not hands[p]:
                v = self._end_value(p, key ^ bit)
            else:
                if end < 0:
                    na, nb = HIGH[t], LOW[t]
                elif end == 0:
                    na, nb = PIPS[t] - a, b
                else:
                    na, nb = a, PIPS[t] - b
                fit = WITH_HALF[na] | WITH_HALF[nb]
                for q in after:
                    if hands[q] & fit:
                        v = self._node(q, na, nb, key ^ bit, alpha, beta)
                        break
                else:
                    v = self._end_value(None, key ^ bit)
            hands[p] |= bit
            if maximising:
                if v > best:
                    best, best_move = v, move
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, move
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        flag = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        t, end = best_move
        self.table[tkey] = (best, flag, t, -1 if end < 0 else a if end == 0 else b)
        return best


def _ordered_moves(hand: int, a: int, b: int) -> list[tuple[int, int]]:
    """The plays of `hand` on ends a|b (a < 0: a lead) in the search's order: doubles,
    then the heaviest first; with both ends equal, one play per tile."""
    if a < 0:
        return [(t, -1) for t in ORDERED if hand & BIT[t]]
    moves = [(t, 0) for t in ORDERED_WITH[a] if hand & BIT[t]]
    if b != a:
        more = [(t, 1) for t in ORDERED_WITH[b] if hand & BIT[t]]
        if more:
            moves += more
            if len(moves) > 2:
                moves.sort(key=_order)
            elif len(moves) == 2 and RANK[moves[1][0]] < RANK[moves[0][0]]:
                moves.reverse()
    return moves


#: move lists by the hand's tiles that fit and the ends a, b (packed into one integer),
#: shared by every search (read-only lists); cleared when it grows past the cap
_MOVES: dict[int, list[tuple[int, int]]] = {}
_MOVES_CAP = 200_000


def _order(m: tuple[int, int]) -> int:
    """Move ordering: doubles, then the heaviest tiles first."""
    return RANK[m[0]]


#: per tile, its place in the move order (doubles, then heaviest first; lower is earlier)
RANK = [-PIPS[t] - (40 if IS_DOUBLE[t] else 0) for t in range(N_IDS)]
#: every tile, and per number the tiles showing it, in that order
ORDERED = sorted(range(N_IDS), key=lambda t: (RANK[t], t))
ORDERED_WITH = [[t for t in ORDERED if BIT[t] & WITH_HALF[v]] for v in range(MAX_PIPS + 1)]


def solve(hand: LineHand, candidates: list[tuple[int, int]], me: int,
          match_bonus: float = 0.0, node_limit: int = 200_000) -> list[float]:
    """Exact values of `candidates` (plays of the seat to play, `me`), or NodeLimit."""
    return Solver(hand, me, match_bonus, node_limit).root(candidates)


# ------------------------------------------------------------------ rollouts

Policy = Callable[[LineHand, list[tuple[int, int]], random.Random], tuple[int, int]]


def unseen_by(h: LineHand, seat: int) -> int:
    """The tiles `seat` cannot see: the other hands and the boneyard."""
    out = 0
    for s in range(h.n):
        if s != seat:
            out |= h.hands[s]
    for t in h.boneyard:
        out |= BIT[t]
    return out


def mid_score(h: LineHand, seat: int, t: int, end: int, unseen: int) -> float:
    """The `blocker` rule for one play by `seat`, from what that seat may know: its
    hand, the ends, the tiles it cannot see, the numbers others showed they lack."""
    hand_after = h.hands[seat] & ~BIT[t]
    if not hand_after:
        return 1000.0                                   # going out ends it
    if end < 0:
        na, nb = HIGH[t], LOW[t]
    elif end == 0:
        na, nb = PIPS[t] - h.a, h.b
    else:
        na, nb = h.a, PIPS[t] - h.b
    fit_mask = WITH_HALF[na] | WITH_HALF[nb]
    score = float(PIPS[t])                              # heavy tiles cost most at the end
    if IS_DOUBLE[t]:
        score += 4.0                                    # doubles are the hardest to place
    score += 1.5 * (hand_after & fit_mask).bit_count()  # keep tiles that fit what we leave
    n = h.n
    nxt = (seat + 1) % n
    ends_bits = (1 << na) | (1 << nb)
    opponent_next = h.side(nxt) != h.side(seat)
    if opponent_next and h.lacks[nxt] & ends_bits == ends_bits:
        score += 6.0                                    # the next rival has shown it cannot follow
    if h.teams:
        partner = (seat + 2) % n
        if h.lacks[partner] & ends_bits == ends_bits:
            score -= 4.0                                # do not shut our partner out
    # holding a suit: a number we hold many of, which few unseen tiles can follow
    for v in {na, nb}:
        mine = (hand_after & WITH_HALF[v]).bit_count()
        theirs = (unseen & WITH_HALF[v]).bit_count()
        score += 0.7 * (mine - theirs)
    return score


def mid_policy(h: LineHand, moves: list[tuple[int, int]], rng: random.Random) -> tuple[int, int]:
    seat = h.cur
    unseen = unseen_by(h, seat)
    best, best_v = moves[0], -float(INF)
    for m in moves:
        v = mid_score(h, seat, m[0], m[1], unseen) + 0.01 * rng.random()
        if v > best_v:
            best, best_v = m, v
    return best


def heavy_policy(h: LineHand, moves: list[tuple[int, int]], rng: random.Random,
                 ) -> tuple[int, int]:
    """The heaviest tile (fast; ties at random)."""
    return max(moves, key=lambda m: PIPS[m[0]] + rng.random())


def double_policy(h: LineHand, moves: list[tuple[int, int]], rng: random.Random,
                  ) -> tuple[int, int]:
    """The heaviest double, else the heaviest tile (the table habit of getting doubles
    down early; ties at random)."""
    return min(moves, key=lambda m: RANK[m[0]] - rng.random())


class _RankSpace:
    """A set's tiles renumbered in the fixed move order (`ORDERED`: doubles, then the
    heaviest first), so that a hand's best tile in that order is its lowest set bit."""

    __slots__ = ("tiles", "pos", "with_half", "rank")

    def __init__(self, set_max: int) -> None:
        self.tiles = [t for t in ORDERED if HIGH[t] <= set_max]
        self.pos = [0] * N_IDS
        for i, t in enumerate(self.tiles):
            self.pos[t] = 1 << i
        self.with_half = [sum(self.pos[t] for t in ids(WITH_HALF[v]) if HIGH[t] <= set_max)
                          for v in range(MAX_PIPS + 1)]
        self.rank = [RANK[t] for t in self.tiles]

    def to_rank(self, mask: int) -> int:
        pos = self.pos
        out = 0
        while mask:
            low = mask & -mask
            out |= pos[low.bit_length() - 1]
            mask ^= low
        return out

    def to_ids(self, mask: int) -> int:
        tiles = self.tiles
        out = 0
        while mask:
            low = mask & -mask
            out |= BIT[tiles[low.bit_length() - 1]]
            mask ^= low
        return out


_RANK_SPACES: dict[int, _RankSpace] = {}


def _rank_space(set_max: int) -> _RankSpace:
    space = _RANK_SPACES.get(set_max)
    if space is None:
        space = _RANK_SPACES[set_max] = _RankSpace(set_max)
    return space


def double_rollout(h: LineHand, rng: random.Random, stop_tiles: int = 0) -> list[int] | None:
    """`rollout` with `double_policy`, made fast for hands nobody can draw in (the
    hands renumbered in the policy's order, so each play is one lowest-bit lookup);
    otherwise `rollout`.  With `stop_tiles` > 0 the fast path stops, returning None,
    once at most that many tiles are left in the hands (before the next seat plays),
    leaving the position in `h` for an exact search."""
    if h.drawable():
        return rollout(h, double_policy, rng)
    space = _rank_space(h.opts.set_max)
    wr, tiles, rank = space.with_half, space.tiles, space.rank
    hands = [space.to_rank(m) for m in h.hands]
    n = h.n
    a, b, p = h.a, h.b, h.cur
    left = sum(m.bit_count() for m in hands)
    stuck = 0
    try:
        while True:
            if left <= stop_tiles:
                for s in range(n):
                    h.hands[s] = space.to_ids(hands[s])
                return None
            hand = hands[p]
            if a < 0:
                m = hand & -hand
                end = -1
            else:
                m = hand & wr[a]
                m &= -m
                end = 0
                if b != a:
                    mb = hand & wr[b]
                    mb &= -mb
                    if mb:
                        if not m:
                            m, end = mb, 1
                        else:
                            ra, rb = rank[m.bit_length() - 1], rank[mb.bit_length() - 1]
                            if rb < ra or (rb == ra and rng.random() < 0.5):
                                m, end = mb, 1
            if not m:
                stuck += 1
                if stuck >= n:
                    for s in range(n):
                        h.hands[s] = space.to_ids(hands[s])
                    return h.points(None)
                p = (p + 1) % n
                continue
            stuck = 0
            hands[p] = hand ^ m
            left -= 1
            t = tiles[m.bit_length() - 1]
            if end < 0:
                a, b = HIGH[t], LOW[t]
            elif end == 0:
                a = PIPS[t] - a
            else:
                b = PIPS[t] - b
            if not hands[p]:
                for s in range(n):
                    h.hands[s] = space.to_ids(hands[s])
                return h.points(p)
            p = (p + 1) % n
    finally:
        h.a, h.b, h.cur = a, b, p


def rollout(h: LineHand, policy: Policy, rng: random.Random) -> list[int]:
    """Play the hand out in place; the points per side it ends with."""
    n = h.n
    stuck = 0
    while True:
        p = h.cur
        moves = h.moves(p)
        if not moves and h.drawable():
            draw_one = h.opts.draw == "one"
            while not moves and h.drawable():
                h.hands[p] |= BIT[h.boneyard.pop()]
                moves = h.moves(p)
                if draw_one:
                    break
        if not moves:
            if h.a >= 0:
                h.lacks[p] |= (1 << h.a) | (1 << h.b)
            stuck += 1
            if stuck >= n:
                return h.points(None)
            h.cur = (p + 1) % n
            continue
        stuck = 0
        t, end = moves[0] if len(moves) == 1 else policy(h, moves, rng)
        h.play(t, end)
        if not h.hands[p]:
            return h.points(p)
        h.cur = (p + 1) % n
