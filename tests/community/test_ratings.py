"""Ratings from final totals: who gains, partners as one side, ties, the provisional
flag, and nobody rated against their own second account."""

from __future__ import annotations

import pytest

from dominohall.community.ratings import (
    Player,
    Rating,
    lower_is_better,
    places,
    rate,
    same_player,
)


def test_mexican_train_lowest_total_wins_and_gains_most():
    players = [Player("a", 40), Player("b", 12), Player("c", 95)]
    lower = lower_is_better("mexican_train")
    assert lower and places(players, lower) == [2, 1, 3]
    new = rate({}, players, lower)
    assert new["b"].mu > new["a"].mu > new["c"].mu
    assert new["b"].mu > 25 > new["c"].mu
    assert all(r.matches == 1 and r.sigma < 25 / 3 for r in new.values())


def test_all_fives_highest_team_total_wins_partners_move_together():
    lower = lower_is_better("all_fives")
    assert not lower
    players = [Player("a", 250, 0), Player("b", 180, 1), Player("c", 250, 0), Player("d", 180, 1)]
    assert places(players, lower) == [1, 3, 1, 3]
    new = rate({"a": Rating(30, 4, 12)}, players, lower)
    assert new["a"].mu > 30 and new["c"].mu > 25 and new["b"].mu < 25 and new["d"].mu < 25
    assert new["b"].mu == pytest.approx(new["d"].mu)
    assert new["a"].matches == 13 and new["c"].matches == 1
    # the stronger partner gains less than the new one: an expected win teaches little
    assert new["a"].mu - 30 < new["c"].mu - 25


def test_a_tie_moves_equal_players_equally():
    new = rate({}, [Player("a", 10), Player("b", 10)], True)
    assert new["a"].mu == pytest.approx(25) and new["b"].mu == pytest.approx(25)
    assert places([Player("a", 10), Player("b", 10)], True) == [1, 1]


def test_a_rating_settles_after_enough_matches():
    r = {"a": Rating()}
    assert r["a"].provisional and r["a"].shown == 1000
    settled_after = None
    for i in range(40):
        opponents = [Player(f"x{i}", 50), Player(f"y{i}", 60)]
        new = rate({f"x{i}": Rating(25, 3), f"y{i}": Rating(25, 3), **r},
                   [Player("a", 30 + (i % 3) * 20), *opponents], True)
        r = {"a": new["a"]}
        if settled_after is None and not r["a"].provisional:
            settled_after = i + 1
    assert settled_after is not None and 3 <= settled_after <= 30, settled_after


def test_one_side_is_not_a_match():
    with pytest.raises(ValueError):
        rate({}, [Player("a", 1, 0), Player("b", 2, 0)], True)


@pytest.mark.parametrize("players,same", [
    ([Player("a", 0, address="1.2.3.4"), Player("b", 0, address="5.6.7.8")], False),
    ([Player("a", 0, address="1.2.3.4"), Player("b", 0, address="1.2.3.4")], True),
    ([Player("a", 0, device="d1"), Player("b", 0, device="d1")], True),
    ([Player("a", 0), Player("a", 0)], True),
    ([Player("a", 0), Player("b", 0)], False),
])
def test_same_player(players, same):
    assert same_player(players) is same
