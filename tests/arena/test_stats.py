"""Arena statistics on tiny inputs computed by hand."""

from __future__ import annotations

import pytest

from dominohall.arena import stats


def game(deal, rotation, lineup, scores, winners):
    n = len(scores)
    return {"deal": deal, "rotation": rotation, "lineup": lineup, "scores": scores,
            "winners": winners, "rounds": 1, "moves": [2] * n, "ms_total": [1.0] * n,
            "ms_max": [0.75] * n}


# Bots A (entry 0) and B (entry 1); rotation 1 seats B in seat 0.
#   deal 0: A 10 vs B 20 (A wins) | A 15 vs B 15 (tie, both win)
#   deal 1: A 30 vs B 5 (B wins)  | A 8 vs B 12 (A wins)
#   deal 2: A 1 vs B 2 (A wins), rotation 1 never played (an interrupted run)
TWO = [
    game(0, 0, [0, 1], [10, 20], [0]),
    game(0, 1, [1, 0], [15, 15], [0, 1]),
    game(1, 0, [0, 1], [30, 5], [1]),
    game(1, 1, [1, 0], [12, 8], [1]),
    game(2, 0, [0, 1], [1, 2], [0]),
]


def pair(st, a, b):
    return next(p for p in st["pairs"] if p["bot"] == a and p["opponent"] == b)


def test_hand_computed_penalty_game():
    st = stats.compute(["A", "B"], 2, True, TWO, seed=1)
    a, b = st["bots"]["A"], st["bots"]["B"]
    assert st["games"] == 5 and st["complete_deals"] == 2
    # win share: A 1 + 1/2 + 0 + 1 + 1 = 3.5 of 5 games; B 0 + 1/2 + 1 + 0 + 0 = 1.5
    assert a["win_share"] == pytest.approx(0.7) and b["win_share"] == pytest.approx(0.3)
    # mean score: A (10 + 15 + 30 + 8 + 1) / 5, B (20 + 15 + 5 + 12 + 2) / 5
    assert a["mean_score"] == pytest.approx(12.8) and b["mean_score"] == pytest.approx(10.8)
    assert a["moves"] == 10 and a["ms_mean"] == pytest.approx(0.5) and a["ms_max"] == 0.75
    # finish ahead, lower is better: 1 + 1/2 + 0 + 1 + 1 = 3.5 of 5
    ab, ba = pair(st, "A", "B"), pair(st, "B", "A")
    assert (ab["ahead"], ab["comparisons"], ab["ahead_rate"]) == (3.5, 5, 0.7)
    assert (ba["ahead"], ba["comparisons"]) == (1.5, 5)
    assert ab["ahead_ci"] == pytest.approx(list(stats.wilson(3.5, 5)))
    # paired per-deal difference over complete deals only:
    # deal 0: (-10 + 0) / 2 = -5; deal 1: (25 + -4) / 2 = 10.5; mean 2.75
    assert ab["deals"] == 2 and ab["diff_mean"] == pytest.approx(2.75)
    assert ba["diff_mean"] == pytest.approx(-2.75)
    # two values: every bootstrap mean is -5, 2.75 or 10.5, the tails are the extremes
    assert ab["diff_ci"] == pytest.approx([-5.0, 10.5])


def test_direction_higher_is_better():
    st = stats.compute(["A", "B"], 2, False, TWO)
    # now A is ahead only in the tie (1/2) and deal 1 rotation 0 (30 > 5)
    assert pair(st, "A", "B")["ahead"] == 1.5
    # the win share comes from the engine's winners, whatever the direction
    assert st["bots"]["A"]["win_share"] == pytest.approx(0.7)


def test_copies_pool_and_compare_pairwise():
    # A against two copies of B, one game: scores A 5, B 5, B 9, lower is better
    st = stats.compute(["A", "B", "B"], 3, True, [game(0, 0, [0, 1, 2], [5, 5, 9], [0, 1])])
    assert st["bots"]["A"]["copies"] == 1 and st["bots"]["B"]["copies"] == 2
    # winners 0 and 1 split the game: A 1/2; B's copies 1/2 + 0 over 2 copies = 1/4
    assert st["bots"]["A"]["win_share"] == 0.5 and st["bots"]["B"]["win_share"] == 0.25
    assert st["bots"]["B"]["mean_score"] == 7.0
    ab = pair(st, "A", "B")
    assert (ab["ahead"], ab["comparisons"]) == (1.5, 2)       # tie with one, ahead of other
    assert pair(st, "B", "A")["ahead"] == 0.5
    assert ab["deals"] == 0 and ab["diff_mean"] is None and ab["diff_ci"] is None


def test_wilson_known_values():
    assert stats.wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert stats.wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert stats.wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert stats.wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_bootstrap_is_seeded_and_brackets_the_mean():
    values = [float(x % 7 - 3) for x in range(40)]
    ci = stats.bootstrap_mean(values, seed=5)
    assert ci == stats.bootstrap_mean(values, seed=5)
    mean = sum(values) / len(values)
    assert ci[0] < mean < ci[1]
    assert stats.bootstrap_mean([1.0], seed=5) is None


def test_ratings_order_the_bots():
    games = [game(d, r, [r, 1 - r], [0, 9] if r == 0 else [9, 0], [0] if r == 0 else [1])
             for d in range(5) for r in range(2)]          # A always scores 0, B 9
    st = stats.compute(["A", "B"], 2, True, games)
    assert st["bots"]["A"]["rating"] > st["bots"]["B"]["rating"]
    assert st["bots"]["A"]["mu"] > 25 > st["bots"]["B"]["mu"]
    assert [e["bot"] for e in st["entries"]] == ["A", "B"]
    flipped = stats.compute(["A", "B"], 2, False, games)      # higher is better: B leads
    assert flipped["bots"]["B"]["rating"] > flipped["bots"]["A"]["rating"]


def test_finish_ahead_interval_over_deals_is_wider_than_wilson_when_deals_differ():
    """Deal-level bootstrap: comparisons within one deal are correlated, so when whole
    deals go one way or the other the honest interval is wider than Wilson's."""
    games = []
    for deal in range(40):
        a_wins = deal % 2 == 0                 # whole deals go to A or to B
        for rotation in range(2):
            lineup = [0, 1] if rotation == 0 else [1, 0]
            scores = [0, 0]
            scores[lineup.index(0)] = 10 if a_wins else 50
            scores[lineup.index(1)] = 50 if a_wins else 10
            games.append({"deal": deal, "rotation": rotation, "lineup": lineup,
                          "scores": scores, "winners": [], "moves": [1, 1],
                          "ms_total": [0.0, 0.0], "ms_max": [0.0, 0.0]})
    st = stats.compute(["a", "b"], 2, True, games, ratings=False)
    ab = next(p for p in st["pairs"] if p["bot"] == "a")
    assert ab["ahead_rate"] == 0.5
    lo_w, hi_w = ab["ahead_ci"]
    lo_d, hi_d = ab["ahead_ci_deals"]
    assert lo_d <= 0.5 <= hi_d
    assert hi_d - lo_d > hi_w - lo_w
