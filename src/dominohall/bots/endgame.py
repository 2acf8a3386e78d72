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
from ..engine.tiles import BIT, HIGH, IS_DOUBLE, LOW, PIPS, WITH_HALF, ids, mask_pips

INF = 10 ** 9       # beyond any hand's points (with the match bonus)
EXACT, LOWER, UPPER = 0, 1, 2


class NodeLimit(Exception):
    """The search visited more positions than it was allowed."""


def applicable(opts: Any) -> bool:
    """The model plays this game: a plain line (no spinner) without count scoring."""
    return not opts.count_scoring and opts.spinner == "none"


class LineHand:
    """One Block/Draw hand in a world: masks, ends, seat to play, boneyard."""

    __slots__ = ("opts", "n", "teams", "hands", "a", "b", "cur", "boneyard", "lacks",
                 "scores", "last")

    def __init__(self, opts: Any, hands: list[int], a: int, b: int, cur: int,
                 boneyard: list[int], lacks: list[int], scores: list[int], last: bool) -> None:
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

    def copy(self) -> LineHand:
        return LineHand(self.opts, self.hands[:], self.a, self.b, self.cur, self.boneyard[:],
                        self.lacks[:], self.scores, self.last)

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
        """RULES.md B6: points per side for a domino by `winner`, or a block (None)."""
        o = self.opts
        pips = [mask_pips(h) for h in self.hands]
        side_pips = [pips[0] + pips[2], pips[1] + pips[3]] if self.teams else pips
        points = [0] * len(side_pips)
        total = sum(side_pips)
        if winner is not None:
            w = self.side(winner)
            points[w] = round_points(total - side_pips[w], o.round_to)
            return points
        low = min(side_pips)
        tied = side_pips.count(low)
        others = total - low * tied
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
    """Exact values of plays in one world where nobody can draw any more."""

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
        self.table: dict[tuple[int, int, int, int], tuple[float, int, int]] = {}
        self.sides = [hand.side(s) for s in range(hand.n)]

    def root(self, candidates: list[tuple[int, int]]) -> list[float]:
        """The exact value of each candidate play by the seat to play."""
        return [self._after(t, end, -INF, INF) for t, end in candidates]

    def _after(self, t: int, end: int, alpha: float, beta: float) -> float:
        """Value after the seat to play lays (t, end); state restored on return."""
        h = self.h
        p = h.cur
        a, b = h.a, h.b
        h.play(t, end)
        try:
            if not h.hands[p]:
                return h.value(h.points(p), self.me, self.bonus)
            h.cur = (p + 1) % h.n
            return self._search(alpha, beta)
        finally:
            h.hands[p] |= BIT[t]
            h.a, h.b, h.cur = a, b, p

    def _search(self, alpha: float, beta: float) -> float:
        """Value with `cur` to play next: seats that cannot play pass; nobody able to play
        is a block."""
        h = self.h
        n = h.n
        p = h.cur
        for _ in range(n):
            if h.can_play(h.cur):
                break
            h.cur = (h.cur + 1) % n
        else:
            h.cur = p
            return h.value(h.points(None), self.me, self.bonus)
        try:
            return self._node(alpha, beta)
        finally:
            h.cur = p

    def _node(self, alpha: float, beta: float) -> float:
        h = self.h
        self.nodes += 1
        if self.nodes > self.limit:
            raise NodeLimit
        if self.deadline is not None and not self.nodes & 1023 and \
                self.clock() > self.deadline:
            raise NodeLimit
        hands = h.hands
        key_hands = 0
        for s in range(h.n - 1, -1, -1):
            key_hands = (key_hands << 64) | hands[s]
        key = (key_hands, h.a, h.b, h.cur)
        entry = self.table.get(key)
        moves = h.moves(h.cur)
        moves.sort(key=_order)
        order = list(range(len(moves)))
        if entry is not None:
            v, flag, best_first = entry
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
            order.remove(best_first)
            order.insert(0, best_first)
        maximising = self.sides[h.cur] == self.my_side
        a0, b0 = alpha, beta
        best: float = -INF if maximising else INF
        best_i = order[0]
        for i in order:
            t, end = moves[i]
            v = self._after(t, end, alpha, beta)
            if maximising:
                if v > best:
                    best, best_i = v, i
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_i = v, i
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        flag = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        self.table[key] = (best, flag, best_i)
        return best


def _order(m: tuple[int, int]) -> int:
    """Move ordering: doubles, then the heaviest tiles first."""
    return -PIPS[m[0]] - (20 if IS_DOUBLE[m[0]] else 0)


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
