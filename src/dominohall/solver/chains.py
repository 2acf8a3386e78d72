"""The best chain a hand can lay on one train: an exact longest-trail search.

A chain is played on a train whose open end shows ``open_end``: its first tile has a
half ``open_end``, and every next tile matches the outer half of the one before (RULES
A4, A5 "chain"). In graph terms the numbers are vertices, the tiles are edges (a double
is a loop) and a chain is a *trail* (no tile twice) that starts at ``open_end``.

Objectives:

* ``"tiles"``: most tiles; among those, most pips.
* ``"pips"``: most pips; among those, most tiles.

Both are folded into one positive weight per tile (``_SCALE`` exceeds any possible pip
total and any possible tile count), so the search maximises a single integer sum.

Method (exact):

1. **Doubles are taken greedily.** Every weight is positive, so if an optimal chain
   visits the number ``k`` and the hand holds ``k-k``, the double is in the chain:
   otherwise inserting it at a visit of ``k`` would give a valid, strictly better
   chain. A double whose number is never visited can not be played. So the search
   runs over the non-double tiles only, and a chain's value is the weight of its
   non-doubles plus the weight of the doubles of every number it visits (the open end
   included). The output puts each double at the first visit of its number. (The
   brute force in ``tests/solver`` checks this against plain search over all trails.)
2. **Only tiles reachable from the open end** (through non-doubles) are kept.
3. **Memoised depth-first search** over ``(end value, used-tiles bitmask)``: the best
   value still to gain depends only on the end and on which tiles are used (the used
   tiles also fix which numbers were visited). Dead ends (an end with no unused tile)
   are scored inline without a call or a table entry.
4. The chain is rebuilt by walking the table: at each step the first tile, in a fixed
   order (heaviest first, then higher tile id), that achieves the stored optimum.
   The result depends only on the set of tiles, never on the order they were given.

The search is exponential in the worst case (longest trail is NP-hard); for hands of
up to about 20 tiles it takes well under a millisecond typically (see
``benchmarks/solver.py``).

>>> hand = ["12-5", "5-3", "5-5", "3-1", "1-0", "5-9", "9-9"]
>>> longest_train(hand, 12)
['12-5', '5-5', '5-3', '3-1', '1-0']
>>> longest_train(hand, 12, objective="pips")
['12-5', '5-5', '9-5', '9-9']
>>> longest_train(["1-2"], 6)
[]
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from dominohall.engine.errors import IllegalAction
from dominohall.engine.tiles import HIGH, LOW, MAX_PIPS, N_IDS, PIPS, TEXT, parse_tile

__all__ = ["OBJECTIVES", "longest_train", "longest_train_ids"]

#: The accepted values of ``objective``.
OBJECTIVES = ("tiles", "pips")

# Larger than the pip total (3420) and the tile count (190) of a whole double-18 set.
_SCALE = 4096

# A double-18 hand has at most 171 non-doubles, so the recursion is at most that deep.
if sys.getrecursionlimit() < 1000:  # pragma: no cover - CPython's default is 1000
    sys.setrecursionlimit(1000)

_FULL = (1 << N_IDS) - 1


def _weight(t: int, objective: str) -> int:
    if objective == "tiles":
        return _SCALE + PIPS[t]
    return PIPS[t] * _SCALE + 1


def _check_objective(objective: object) -> str:
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be 'tiles' or 'pips', not {objective!r}")
    return str(objective)


def _check_open_end(open_end: object) -> int:
    if isinstance(open_end, bool) or not isinstance(open_end, int):
        raise ValueError(f"open_end must be an int 0..{MAX_PIPS}, not {open_end!r}")
    if not 0 <= open_end <= MAX_PIPS:
        raise ValueError(f"open_end must be 0..{MAX_PIPS}, not {open_end}")
    return open_end


def longest_train_ids(hand_mask: int, open_end: int, objective: str = "tiles") -> list[int]:
    """The optimal chain for a hand given as a bitmask of tile ids; a list of ids.

    Same contract as :func:`longest_train` (which wraps this function).

    >>> from dominohall.engine.tiles import parse_tile, tile_text
    >>> mask = sum(1 << parse_tile(t) for t in ["6-6", "6-2", "2-0", "4-4"])
    >>> [tile_text(t) for t in longest_train_ids(mask, 0)]
    ['2-0', '6-2', '6-6']
    """
    if isinstance(hand_mask, bool) or not isinstance(hand_mask, int):
        raise ValueError(f"hand_mask must be an int bitmask of tile ids, not {hand_mask!r}")
    if hand_mask < 0 or hand_mask & ~_FULL:
        raise ValueError(f"hand_mask holds bits that are not tile ids (0..{N_IDS - 1})")
    start = _check_open_end(open_end)
    objective = _check_objective(objective)

    # Doubles (by number) and the adjacency of non-doubles, over the tiles reachable
    # from the open end.
    dbl_id = [-1] * (MAX_PIPS + 1)
    nbrs: list[list[tuple[int, int]]] = [[] for _ in range(MAX_PIPS + 1)]  # (other, id)
    m = hand_mask
    while m:
        low = m & -m
        m ^= low
        t = low.bit_length() - 1
        a, b = HIGH[t], LOW[t]
        if a == b:
            dbl_id[a] = t
        else:
            nbrs[a].append((b, t))
            nbrs[b].append((a, t))
    reach = 1 << start
    stack = [start]
    edges: list[int] = []
    while stack:
        x = stack.pop()
        for y, _t in nbrs[x]:
            if not (reach >> y) & 1:
                reach |= 1 << y
                stack.append(y)
    for x in range(MAX_PIPS + 1):
        if (reach >> x) & 1:
            edges.extend(t for y, t in nbrs[x] if x > y)
    # Local edge bits: heaviest first, then higher id (fixes the tie order).
    edges.sort(key=lambda t: (-_weight(t, objective), -t))

    dbl = [0] * (MAX_PIPS + 1)
    for k in range(MAX_PIPS + 1):
        if dbl_id[k] >= 0:
            dbl[k] = _weight(dbl_id[k], objective)
    inc = [0] * (MAX_PIPS + 1)
    adj_lists: list[list[tuple[int, int, int, int]]] = [[] for _ in range(MAX_PIPS + 1)]
    for i, t in enumerate(edges):
        a, b = HIGH[t], LOW[t]
        w = _weight(t, objective)
        inc[a] |= 1 << i
        inc[b] |= 1 << i
        adj_lists[a].append((1 << i, b, w, 1 << b))
        adj_lists[b].append((1 << i, a, w, 1 << a))
    adj = [tuple(lst) for lst in adj_lists]

    memo: dict[int, int] = {}

    def best_from(v: int, used: int, vis: int) -> int:
        """Most weight still to gain from end v with `used` tiles used and `vis` seen."""
        key = (used << 5) | v
        got = memo.get(key)
        if got is not None:
            return got
        best = 0
        for bit, o, w, obit in adj[v]:
            if used & bit:
                continue
            u2 = used | bit
            val = w if vis & obit else w + dbl[o]
            if inc[o] & ~u2:
                val += best_from(o, u2, vis | obit)
            if val > best:
                best = val
        memo[key] = best
        return best

    # Rebuild: the first tile (in adjacency order) that achieves the optimum.
    chain: list[int] = []
    if dbl_id[start] >= 0:
        chain.append(dbl_id[start])
    v, used, vis = start, 0, 1 << start
    target = best_from(v, used, vis) if inc[v] else 0
    while target:
        for bit, o, w, obit in adj[v]:
            if used & bit:
                continue
            u2 = used | bit
            gain = w if vis & obit else w + dbl[o]
            rest = best_from(o, u2, vis | obit) if inc[o] & ~u2 else 0
            if gain + rest == target:
                break
        else:  # pragma: no cover - the table always holds a witness
            raise AssertionError("longest_train: inconsistent table")
        chain.append(edges[bit.bit_length() - 1])
        if not vis & obit and dbl_id[o] >= 0:
            chain.append(dbl_id[o])
        v, used, vis, target = o, u2, vis | obit, rest
    return chain


def longest_train(
    hand: Iterable[str], open_end: int, objective: str = "tiles"
) -> list[str]:
    """An optimal chain from ``hand`` on a train whose open end shows ``open_end``.

    ``hand``: tile texts such as ``"12-5"`` (either half first). ``objective``:
    ``"tiles"`` (most tiles, ties by most pips) or ``"pips"`` (most pips, ties by most
    tiles). Returns the tiles in play order, each written high half first (``"12-5"``), each
    matching the outer half of the one before, the first matching ``open_end``;
    ``[]`` when no tile matches. Raises ``ValueError`` for a tile that is not a tile,
    a tile given twice, an open end outside 0..18 or an unknown objective.

    >>> longest_train(["3-6", "6-6", "1-6", "3-3", "2-4"], 3)
    ['3-3', '6-3', '6-6', '6-1']
    """
    if isinstance(hand, str):
        raise ValueError(f"hand must be a list of tiles such as ['12-5'], not {hand!r}")
    mask = 0
    for text in hand:
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a tile (write it like '12-5')")
        try:
            t = parse_tile(text)
        except IllegalAction as exc:
            raise ValueError(str(exc)) from None
        if (mask >> t) & 1:
            raise ValueError(f"tile {TEXT[t]} is in the hand twice")
        mask |= 1 << t
    return [TEXT[t] for t in longest_train_ids(mask, open_end, objective)]
