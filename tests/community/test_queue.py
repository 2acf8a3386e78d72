"""Matching the queues: sizes, "any", rating bands widening with the wait, own second
accounts kept apart, bots for casual entries that accepted them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dominohall.community.queue import ANY_WAIT, BOT_WAIT, Entry, band, groups


def e(i, game="mexican_train", players=2, rated=False, mu=25.0, joined=0.0, **kw):
    return Entry(f"e{i}", game, players, rated, mu, joined, address=f"10.0.0.{i}", **kw)


def test_two_entries_for_two_players_are_matched_oldest_first():
    [g] = groups([e(1, joined=2), e(2, joined=1), e(3, joined=3)], now=4)
    assert [x.id for x in g.entries] == ["e2", "e1"] and g.bots == 0


def test_sizes_and_games_must_agree():
    assert groups([e(1, players=2), e(2, players=3)], now=1) == []
    assert groups([e(1, game="all_fives"), e(2)], now=1) == []
    [g] = groups([e(1, players=3), e(2, players=0), e(3, players=3)], now=1)
    assert len(g.entries) == 3


def test_any_waits_for_the_usual_size_then_takes_two():
    anys = [e(i, players=0) for i in range(1, 3)]
    assert groups(anys, now=ANY_WAIT - 1) == []
    [g] = groups(anys, now=ANY_WAIT + 0.1)
    assert len(g.entries) == 2
    [g] = groups([e(i, players=0) for i in range(1, 6)], now=1)   # the usual 4 at once
    assert len(g.entries) == 4


def test_rated_bands_widen_with_the_wait():
    strong, weak = e(1, rated=True, mu=40), e(2, rated=True, mu=20, joined=0)
    assert groups([strong, weak], now=1) == []
    need = (40 - 20 - 3.0) / 0.5
    assert band(need) == 20
    assert groups([strong, weak], now=need - 1) == []
    assert len(groups([strong, weak], now=need + 0.1)) == 1


def test_rated_never_pairs_one_persons_two_accounts():
    a = Entry("a", "mexican_train", 2, True, 25, 0, address="1.1.1.1", account="x")
    b = Entry("b", "mexican_train", 2, True, 25, 0, address="1.1.1.1", account="y")
    c = Entry("c", "mexican_train", 2, True, 25, 0, device="d", account="z")
    d = Entry("d", "mexican_train", 2, True, 25, 0, device="d", account="w")
    assert groups([a, b], now=100) == [] and groups([c, d], now=100) == []
    [g] = groups([a, b, c], now=100)
    assert {x.id for x in g.entries} == {"a", "c"}


def test_casual_entries_that_accept_bots_get_them_after_the_wait():
    lone = e(1, players=4, bots=True)
    assert groups([lone], now=BOT_WAIT - 1) == []
    [g] = groups([lone, e(2, players=4)], now=BOT_WAIT)
    assert len(g.entries) == 2 and g.bots == 2 and g.size == 4
    assert groups([e(1, players=4, rated=True, bots=True)], now=1000) == []   # never rated


@given(st.lists(st.tuples(st.sampled_from(["mexican_train", "all_fives"]),
                          st.sampled_from([0, 2, 3, 4]), st.booleans(),
                          st.floats(0, 50), st.floats(0, 60), st.booleans(),
                          st.integers(0, 3)), max_size=30), st.floats(0, 120))
def test_no_entry_twice_and_every_group_is_a_legal_table(rows, now):
    entries = [Entry(f"e{i}", g, n, r, mu, joined, bots=b, address=f"a{addr}")
               for i, (g, n, r, mu, joined, b, addr) in enumerate(rows)]
    made = groups(entries, now)
    ids = [x.id for g in made for x in g.entries]
    assert len(ids) == len(set(ids))
    for g in made:
        lo, hi = {"mexican_train": (2, 8), "all_fives": (2, 4)}[g.game]
        assert lo <= g.size <= hi
        assert all(x.game == g.game and x.rated == g.rated and x.players in (0, g.size)
                   for x in g.entries)
        if g.rated:
            assert g.bots == 0
            assert len({x.address for x in g.entries}) == len(g.entries)
