"""dominohall.solver.longest_train against an independent brute force, goldens, errors."""

from __future__ import annotations

import random

import pytest

from dominohall.engine.tiles import HIGH, LOW, PIPS, TEXT, parse_tile, set_size
from dominohall.solver import longest_train, longest_train_ids


def brute_best(hand: list[str], open_end: int, objective: str) -> tuple[int, int]:
    """(tiles, pips) of the best chain by plain DFS over every trail; doubles are loops."""
    halves = [tuple(int(x) for x in t.split("-")) for t in hand]
    best = (0, 0)
    used = [False] * len(halves)

    def key(n: int, p: int) -> tuple[int, int]:
        return (n, p) if objective == "tiles" else (p, n)

    def dfs(end: int, n: int, p: int) -> None:
        nonlocal best
        if key(n, p) > key(*best):
            best = (n, p)
        for i, (a, b) in enumerate(halves):
            if used[i] or end not in (a, b):
                continue
            used[i] = True
            dfs(b if a == end else a, n + 1, p + a + b)
            used[i] = False

    dfs(open_end, 0, 0)
    return best


def check_chain(chain: list[str], hand: list[str], open_end: int) -> tuple[int, int]:
    """Assert that chain is a trail of hand tiles from open_end; return (tiles, pips)."""
    ids = [parse_tile(t) for t in chain]
    assert len(set(ids)) == len(ids), chain
    assert set(ids) <= {parse_tile(t) for t in hand}, chain
    assert all(TEXT[t] == s for t, s in zip(ids, chain)), "high half first"
    end = open_end
    for t in ids:
        assert end in (HIGH[t], LOW[t]), (chain, open_end)
        end = LOW[t] if HIGH[t] == end else HIGH[t]
    return len(ids), sum(PIPS[t] for t in ids)


CASES = [(6, 4000), (9, 4000), (12, 4000)]


@pytest.mark.parametrize("set_max,count", CASES)
def test_matches_brute_force(set_max: int, count: int) -> None:
    rng = random.Random(1000 + set_max)
    tiles = [TEXT[t] for t in range(set_size(set_max))]
    for _ in range(count):
        n = rng.randint(0, 10)
        hand = rng.sample(tiles, n)
        open_end = rng.randint(0, set_max)
        for objective in ("tiles", "pips"):
            chain = longest_train(hand, open_end, objective)
            got = check_chain(chain, hand, open_end)
            assert got == brute_best(hand, open_end, objective), (hand, open_end, objective)


def test_dense_hands_match_brute_force() -> None:
    """Hands from a few numbers only: many cycles, many doubles."""
    rng = random.Random(7)
    for _ in range(600):
        top = rng.randint(2, 5)
        tiles = [TEXT[t] for t in range(set_size(top))]
        hand = rng.sample(tiles, min(len(tiles), rng.randint(1, 10)))
        open_end = rng.randint(0, top)
        for objective in ("tiles", "pips"):
            chain = longest_train(hand, open_end, objective)
            got = check_chain(chain, hand, open_end)
            assert got == brute_best(hand, open_end, objective), (hand, open_end, objective)


def test_deterministic_and_order_free() -> None:
    rng = random.Random(3)
    tiles = [TEXT[t] for t in range(set_size(12))]
    for _ in range(200):
        hand = rng.sample(tiles, 15)
        open_end = rng.randint(0, 12)
        first = longest_train(hand, open_end)
        shuffled = [f"{t.split('-')[1]}-{t.split('-')[0]}" for t in hand]
        rng.shuffle(shuffled)
        assert longest_train(shuffled, open_end) == first
        assert longest_train(hand, open_end) == first


def test_ids_api_matches_text_api() -> None:
    rng = random.Random(4)
    for _ in range(200):
        ids = rng.sample(range(set_size(9)), 12)
        mask = sum(1 << t for t in ids)
        open_end = rng.randint(0, 9)
        for objective in ("tiles", "pips"):
            got = longest_train_ids(mask, open_end, objective)
            assert [TEXT[t] for t in got] == longest_train([TEXT[t] for t in ids], open_end,
                                                           objective)
            assert all(isinstance(t, int) for t in got)


# --- golden cases ----------------------------------------------------------------------


def test_double_in_the_middle() -> None:
    assert longest_train(["12-5", "5-5", "5-3"], 12) == ["12-5", "5-5", "5-3"]
    # The double goes in at the first visit of its number, even when given first.
    assert longest_train(["5-5", "3-5", "5-12"], 12) == ["12-5", "5-5", "5-3"]


def test_double_on_the_open_end_comes_first() -> None:
    assert longest_train(["4-4", "4-1"], 4) == ["4-4", "4-1"]
    assert longest_train(["4-4"], 4) == ["4-4"]


def test_long_branch_versus_heavy_branch() -> None:
    hand = ["12-5", "5-3", "3-1", "1-0", "5-11", "11-10"]
    # Long branch: 5-3, 3-1, 1-0 (3 tiles, 13 pips); heavy: 11-5, 11-10 (2 tiles, 37).
    assert longest_train(hand, 12) == ["12-5", "5-3", "3-1", "1-0"]
    assert longest_train(hand, 12, objective="pips") == ["12-5", "11-5", "11-10"]


def test_tiles_ties_broken_by_pips_and_pips_ties_by_tiles() -> None:
    # Two branches of two tiles from 6 (8 and 16 pips): "tiles" takes the heavier.
    assert longest_train(["6-1", "1-0", "6-4", "4-2"], 6) == ["6-4", "4-2"]
    # 9 pips either way from 0: 9-0 alone, or 3-0 then 3-3; "pips" takes more tiles.
    assert longest_train(["9-0", "3-0", "3-3"], 0, objective="pips") == ["3-0", "3-3"]
    assert longest_train(["9-0", "3-0", "3-3"], 0, objective="tiles") == ["3-0", "3-3"]
    assert longest_train(["9-0", "3-0"], 0, objective="pips") == ["9-0"]


def test_cycle_back_through_the_open_end() -> None:
    hand = ["3-1", "1-2", "2-3", "3-4"]
    chain = longest_train(hand, 3)
    assert check_chain(chain, hand, 3) == (4, 19)
    assert chain[-1] == "4-3"


def test_no_playable_tile() -> None:
    assert longest_train(["1-2", "2-2", "4-5"], 6) == []
    assert longest_train([], 0) == []
    assert longest_train_ids(0, 12, "pips") == []


def test_all_doubles() -> None:
    hand = ["0-0", "3-3", "6-6", "12-12"]
    assert longest_train(hand, 6) == ["6-6"]
    assert longest_train(hand, 6, "pips") == ["6-6"]
    assert longest_train(hand, 5) == []


@pytest.mark.parametrize(
    "hand,open_end,objective,message",
    [
        (["12-5", "13-x"], 1, "tiles", "not a tile"),
        (["12-5", "5-12"], 1, "tiles", "twice"),
        (["19-1"], 1, "tiles", "not a tile"),
        ([5], 1, "tiles", "not a tile"),
        ("12-5", 1, "tiles", "list of tiles"),
        (["12-5"], 1, "longest", "objective"),
        (["12-5"], 19, "tiles", "open_end"),
        (["12-5"], -1, "tiles", "open_end"),
        (["12-5"], "5", "tiles", "open_end"),
    ],
)
def test_bad_input(hand: object, open_end: object, objective: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        longest_train(hand, open_end, objective)  # type: ignore[arg-type]


def test_bad_mask() -> None:
    with pytest.raises(ValueError, match="tile ids"):
        longest_train_ids(-1, 0, "tiles")
    with pytest.raises(ValueError, match="tile ids"):
        longest_train_ids(1 << 500, 0, "tiles")
    with pytest.raises(ValueError, match="bitmask"):
        longest_train_ids("3", 0, "tiles")  # type: ignore[arg-type]
