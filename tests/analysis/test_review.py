"""Post-game analysis (issue 22): every decision weighed from the mover's view alone.

* Hand-built positions whose best move is known by hand from what the mover sees: the
  analysis marks the bad move a mistake or worse and names the good one.
* Fair: twin records (the mover's views byte-for-byte the same, other seats' hidden tiles
  exchanged) get the same fair analysis; the hindsight column, which sees every hand,
  does tell them apart (so the comparison can fail).
* Reproducible: the same record, settings and seed give the same analysis.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominohall import bots, new_game, replay
from dominohall.analysis import review
from dominohall.analysis.advice import best_reply, count_of
from dominohall.bots.base import hand_mask
from dominohall.bots.inference import can_hold
from dominohall.bots.mexican import plan_train
from dominohall.engine import BadRecord
from dominohall.engine.actions import parse_action
from dominohall.engine.tiles import BIT, HIGH, LOW, TEXT, parse_tile

from .twins import twins


def _record(game: str, players: int, seed: int, options: dict, actions: list[str],
            leader: int | None = None) -> dict:
    g = new_game(game, players=players, seed=seed, options=options, leader=leader)
    for a in actions:
        g.apply(a)
    return g.to_record()


def _judged(record: dict, chosen: str) -> review.Judgement:
    """The fair judgement of `chosen` at the record's last position, as `analyse` gives it
    for the record with that move appended."""
    full = {**record, "actions": [*record["actions"], chosen]}
    seat = replay(record).current_seat
    out = review.analyse(full, seat=seat)
    last = out.decisions[-1]
    assert last.index == len(record["actions"]) and last.action == chosen
    return last.fair


# ---- hand-built positions ------------------------------------------------------------

BLOCK = _record("block", 4, 827, {}, [
    "6-6", "6-1>L", "6-4>R", "1-1>L", "4-1>L", "5-4>R", "4-4>L", "4-2>L", "6-5>R", "2-2>L",
    "5-2>L", "6-0>R", "5-5>L", "5-3>L", "4-3>L", "0-0>R", "4-0>L", "5-0>R", "1-0>L", "pass",
    "2-1>L", "5-1>R", "3-1>R"], leader=0)


def test_block_a_play_that_lets_the_next_player_domino_is_a_mistake():
    """Seat 3 holds 2-0, 3-2, 6-2; the ends are 2 and 3.  Seat 0, next, has one tile
    left, and from what seat 3 has seen it can only be 3-0, 3-3 or 6-3 (every other tile
    is on the table or in seat 3's hand, and seat 0's pass showed it lacks the rest).
    Any tile on the 2 end leaves the 3 open: seat 0 plays its last tile and wins the
    hand, scoring everyone's pips.  3-2 on the 3 end leaves 2 and 2: seat 0 cannot
    play."""
    view = replay(BLOCK).view(3)
    assert [e["value"] for e in view["layout"]["ends"]] == [2, 3]
    assert sorted(view["hand"]) == ["2-0", "3-2", "6-2"] and view["hand_sizes"][0] == 1
    assert can_hold(view, 0) == {"3-0", "3-3", "6-3"}       # each has a 3, none a 2
    assert all(3 in (HIGH[parse_tile(t)], LOW[parse_tile(t)]) for t in can_hold(view, 0))
    blocking = "3-2>R"
    for bad in ("2-0>L", "3-2>L", "6-2>L"):
        judged = _judged(BLOCK, bad)
        assert judged.mark in ("mistake", "blunder"), (bad, judged)
        assert judged.best == blocking
    assert _judged(BLOCK, blocking).mark == "best"


FIVES = _record("all_fives", 2, 0, {"hands": 1}, [
    "6-6", "6-3>L", "6-5>R", "5-4>R", "3-2>L", "4-3>R", "3-1>R", "4-2>L", "4-1>R", "draw",
    "6-0>D", "0-0>D", "draw", "4-0>D", "draw", "draw", "4-4>R", "draw", "draw", "draw",
    "draw", "draw", "6-1>U", "draw"], leader=0)


def test_all_fives_the_play_that_scores_15_beats_the_one_that_opens_a_reply():
    """Seat 0 holds 2-0, 5-5, 6-4 and can play only 6-4.  The open ends are L 4, R the
    double 4-4 (it counts 8), U 1 and D 4: a count of 17.  6-4 on the double makes
    4 + 6 + 1 + 4 = 15, fifteen points; on L or D it makes 19, nothing, and leaves the
    next player a reply worth 10 or more."""
    view = replay(FIVES).view(0)
    assert sorted(view["legal_actions"]) == ["6-4>D", "6-4>L", "6-4>R"]
    assert count_of(replay(FIVES), "6-4>R")[1] == 15
    for bad in ("6-4>L", "6-4>D"):
        assert count_of(replay(FIVES), bad)[1] == 0
        assert best_reply(view, bad)[1] >= 10
        judged = _judged(FIVES, bad)
        assert judged.mark in ("mistake", "blunder"), (bad, judged)
        assert judged.best == "6-4>R"
    assert _judged(FIVES, "6-4>R").mark == "best"


TRAIN = _record("mexican_train", 2, 59, {"rounds": 1}, [
    "draw", "12-2>t0", "12-3>t1", "3-1>t1", "8-1>t1", "11-8>t1", "11-9>t1", "9-5>t1",
    "10-5>t1", "10-7>t1", "7-4>t1", "4-0>t1", "0-0>t1", "end"])


def test_mexican_train_covering_an_owed_double_with_a_tile_off_the_chain():
    """Seat 1 ended its first-turn chain on 0-0: seat 0 must cover it.  Seat 0's own train
    ends on 2 and its longest chain from there (the planner's plan) runs 11-2, 11-11,
    11-0, 6-0, 10-6...: covering with 6-0 breaks that chain, covering with 2-0 (off the
    chain) keeps it whole."""
    view = replay(TRAIN).view(0)
    assert view["owed"] == ["t1"]
    own = next(t for t in view["trains"] if t["owner"] == 0)
    plan = plan_train(hand_mask(view), own["open_end"])
    assert parse_tile("6-0") in plan and parse_tile("2-0") not in plan
    broken = plan_train(hand_mask(view) & ~BIT[parse_tile("6-0")], own["open_end"])
    assert len(broken) <= len(plan) - 3
    assert {"2-0>t1", "6-0>t1"} <= set(view["legal_actions"])
    judged = _judged(TRAIN, "6-0>t1")
    assert judged.mark in ("mistake", "blunder"), judged
    assert judged.best == "2-0>t1"
    assert [TEXT[t] for t in plan][:4] == ["11-2", "11-11", "11-0", "6-0"]


# ---- fairness --------------------------------------------------------------------------

def _with_next_move(record: dict, seat: int) -> dict:
    """The record with the move a bot makes from `seat`'s view appended (the same move on
    both twins: their views are the same)."""
    view = replay(record).view(seat)
    action = bots.make("greedy", seed=7, game=record["game"]).act(view)
    return {**record, "actions": [*record["actions"], action]}


QUICK = {g: review.Settings(g, 3) for g in review.WORLDS}


@pytest.mark.parametrize("game", sorted(review.WORLDS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6))
def test_hidden_tiles_the_mover_never_saw_do_not_change_the_fair_analysis(game, seed):
    twin = next(twins(game, 1, seed=seed))
    a = review.analyse(_with_next_move(twin.record, twin.seat), seat=twin.seat,
                       settings=QUICK[game])
    b = review.analyse(_with_next_move(twin.other, twin.seat), seat=twin.seat,
                       settings=QUICK[game])
    assert a.decisions and [d.fair for d in a.decisions] == [d.fair for d in b.decisions]


def test_the_hindsight_column_does_see_the_hidden_tiles():
    """The same comparison on the hindsight values finds differences: the twins really
    differ, and a leak into the fair analysis would show."""
    differ = 0
    for twin in twins("block", 6, seed=5):
        a = review.analyse(_with_next_move(twin.record, twin.seat), seat=twin.seat,
                           settings=QUICK["block"], hindsight=True)
        b = review.analyse(_with_next_move(twin.other, twin.seat), seat=twin.seat,
                           settings=QUICK["block"], hindsight=True)
        assert [d.fair for d in a.decisions] == [d.fair for d in b.decisions]
        differ += [d.hindsight for d in a.decisions] != [d.hindsight for d in b.decisions]
    assert differ >= 1


# ---- reproducible, summaries, bad input ----------------------------------------------

def _bot_game(game: str, players: int, seed: int) -> dict:
    g = new_game(game, players=players, seed=seed, options={"hands": 1} if game in (
        "all_fives", "draw", "block") else {"rounds": 1})
    seats = [bots.make("greedy", seed=seed + s, game=game) for s in range(players)]
    while not g.is_over:
        s = g.current_seat
        g.apply(seats[s].act(g.view(s)))
    return g.to_record()


def test_the_same_record_settings_and_seed_give_the_same_analysis():
    record = _bot_game("draw", 3, 4)
    one = review.analyse(record, settings=QUICK["draw"], hindsight=True).as_dict()
    two = review.analyse(record, settings=QUICK["draw"], hindsight=True).as_dict()
    assert one == two
    other = review.analyse(record, settings=review.Settings("draw", 3, seed=1)).as_dict()
    assert [d["values"] for d in other["decisions"]] != [d["values"] for d in one["decisions"]]


def test_every_decision_and_only_decisions_are_judged_with_a_summary_per_player():
    record = _bot_game("block", 2, 11)
    analysis = review.analyse(record, settings=QUICK["block"])
    g = new_game("block", players=2, seed=record["seed"], options=record["options"])
    expected = []
    for k, a in enumerate(record["actions"]):
        if len(g.legal_actions()) > 1:
            expected.append((k, g.current_seat))
        g.apply(a)
    assert [(d.index, d.seat) for d in analysis.decisions] == expected
    for d in analysis.decisions:
        assert set(d.fair.values) == {str(a) for a in replay(
            {**record, "actions": record["actions"][:d.index]}).legal_actions()}
        assert d.fair.loss == round(max(d.fair.values.values()) - d.fair.values[d.action], 6)
    for p in analysis.summary():
        mine = [d.fair for d in analysis.decisions if d.seat == p.seat]
        assert p.decisions == len(mine) == sum(p.marks.values())
        assert p.accuracy == round(100 * sum(j.mark in ("best", "good") for j in mine)
                                   / len(mine), 1)
    only = review.analyse(record, seat=1, settings=QUICK["block"])
    assert only.decisions == [d for d in analysis.decisions if d.seat == 1]


@pytest.mark.parametrize(("game", "loss", "mark"), [
    ("all_fives", 2.4, "good"), ("all_fives", 2.5, "inaccuracy"), ("all_fives", 5, "mistake"),
    ("all_fives", 10, "blunder"), ("mexican_train", 7.9, "inaccuracy"),
    ("mexican_train", 15, "blunder"), ("block", 1.9, "good"), ("draw", 9.99, "mistake")])
def test_marks_follow_the_documented_thresholds(game, loss, mark):
    assert review.mark(game, loss, best=False) == mark
    assert review.mark(game, 0.0, best=True) == "best"


def test_bad_and_foreign_records_are_refused_with_a_reason():
    with pytest.raises(BadRecord, match="not a dominohall game record"):
        review.analyse({"format": "chess-pgn", "moves": ["e4"]})
    record = _bot_game("block", 2, 3)
    with pytest.raises(BadRecord, match="illegal"):
        review.analyse({**record, "actions": [*record["actions"][:3], "9-9>L"]})
    with pytest.raises(ValueError, match="seat"):
        review.analyse(record, seat=5)


def test_bot_specs_choose_the_work_and_refuse_what_the_evaluation_does_not_take():
    assert review.settings_for("block", "deep:worlds=8").worlds == 8
    assert review.settings_for("block", quick=True).worlds == review.WORLDS["block"] // 4
    with pytest.raises(ValueError, match="deep"):
        review.settings_for("block", "random")
    with pytest.raises(ValueError, match="budget_ms"):
        review.settings_for("block", "deep:budget_ms=5")
    with pytest.raises(ValueError, match="worlds"):
        review.settings_for("mexican_train", "deep:worlds=0")


def test_block_hindsight_is_exact_and_agrees_with_the_engines_own_search():
    """The hindsight column of Block endings (`endgame.Solver` on the real hands) gives the
    values a plain alpha-beta over the engine's own moves gives (`AllFivesBot`'s exact
    search, no node limit): the same minimax of the same points."""
    import random as _random

    from dominohall.bots.allfives import AllFivesBot

    checked = 0
    for seed in range(12):
        record = _bot_game("block", 2, 20 + seed)
        for k, g, _action in review._walk(record):
            view = g.view(g.current_seat)
            if sum(view["hand_sizes"]) > 9:
                continue
            values, exact = review.hindsight_values(g, QUICK["block"])
            assert exact
            legal = [parse_action(a) for a in view["legal_actions"]]
            engine = AllFivesBot(worlds=1, match_bonus=0.0, max_nodes=10 ** 7, race=0.0)
            engine.solving = True
            row = engine.evaluate(g.clone(), legal, g.current_seat, _random.Random(0), None)
            assert engine.solved == 1
            assert values == {str(a): round(v, 6) for a, v in zip(legal, row)}, (seed, k)
            checked += 1
    assert checked >= 10
