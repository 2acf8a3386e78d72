"""Mexican Train beliefs from play (`bots.train_beliefs`) and `deep`'s ``beliefs=`` option.

The hand-worked game (double-6, 2 players, 5 tiles, a free first turn): seat 0 holds the
engine 6-6 and places it, so seat 1 starts.

1. seat 1 plays 6-2 on the Mexican train (its own train, not started, was open too);
2. seat 0 plays 6-1 on its own train;
3. seat 1 cannot play, draws 5-2 and plays it on the Mexican train (forced);
4. seat 0 cannot play, draws 5-3 and plays it on the Mexican train (forced);
5. seat 1 cannot play, draws 4-4, which does not fit, and passes (it keeps the tile).
"""

from __future__ import annotations

import math
import random

import pytest

import dominohall
from dominohall import bots
from dominohall.bots.train import TrainBot
from dominohall.bots.train_beliefs import TrainHistory
from dominohall.engine.sampling import sample_hands
from dominohall.engine.tiles import BIT, TEXT, WITH_HALF, parse_tile

OPTS = {"set_max": 6, "first_turn": "free", "rounds": 1, "hand_size": 5}
HANDS = [["6-6", "6-1", "2-0", "3-0", "0-0"], ["6-2", "4-1", "5-4", "1-1", "4-0"]]
TOP = ["5-2", "5-3", "4-4"]
MOVES = ["6-2>mx", "6-1>t0", "draw", "5-2>mx", "draw", "5-3>mx", "draw", "pass"]


def mask(*tiles: str) -> int:
    return sum(BIT[parse_tile(t)] for t in tiles)


def game(moves: int, **options: object) -> dominohall.Game:
    rest = [TEXT[t] for t in range(28) if TEXT[t] not in HANDS[0] + HANDS[1] + TOP]
    g = dominohall.new_game("mexican_train", players=2, seed=0, options={**OPTS, **options},
                            hands=HANDS, boneyard=TOP + rest)
    for a in MOVES[:moves]:
        g.apply(a)
    return g


def test_a_heavier_playable_tile_kept_back_weighs_less() -> None:
    g = game(4)                                  # after seat 1's forced 5-2
    assert g.current_seat == 0
    h = TrainHistory(beta=0.5).update(g.view(0))
    mine = mask("2-0", "3-0", "0-0")
    true = [mine, mask("4-1", "5-4", "1-1", "4-0")]
    heavier = [mine, mask("6-5", "4-1", "1-1", "4-0")]   # 6-5 fitted the Mexican train
    assert h.log_weight(true, skip=0) == 0.0
    # worked by hand: exp(0.5 * 8) / (exp(0.5 * 8) + exp(0.5 * 11)) for 6-2 against 6-5
    assert h.log_weight(heavier, skip=0) == pytest.approx(-math.log(1 + math.exp(1.5)))
    # 6-4 (10 pips) kept back weighs between the two
    middle = [mine, mask("6-4", "4-1", "1-1", "4-0")]
    assert h.log_weight(heavier, 0) < h.log_weight(middle, 0) < h.log_weight(true, 0)


def test_no_plays_weigh_nothing() -> None:
    g = game(0)
    for seat in (0, 1):
        h = TrainHistory(beta=1.0).update(g.view(seat))
        assert h.events == []
        assert h.log_weight([mask("6-5", "6-4"), mask("6-3", "6-2")], skip=seat) == 0.0


def test_the_viewers_own_plays_are_skipped() -> None:
    g = game(2)                                  # seat 1 played 6-2, seat 0 played 6-1
    h = TrainHistory(beta=0.5, own=True).update(g.view(1))
    world = [mask("6-5", "6-4", "2-0", "3-0"), mask("4-1", "5-4", "1-1", "4-0")]
    assert h.log_weight(world, skip=1) < 0.0     # seat 0 kept 6-5 and 6-4 back
    # by default a play on the own train is not read as a choice (it follows a plan)
    assert TrainHistory(beta=0.5).update(g.view(1)).log_weight(world, skip=1) == 0.0
    assert h.log_weight(world, skip=0) == 0.0    # seat 1's only playable tile was 6-2
    world[1] |= mask("6-5")
    assert h.log_weight(world, skip=0) < 0.0
    assert h.log_weight(world, skip=None) == pytest.approx(
        h.log_weight(world, skip=0) + h.log_weight(world, skip=1))


def test_plays_before_a_kept_draw_are_left_out() -> None:
    heavier = [mask("2-0", "3-0", "0-0"), mask("6-5", "4-1", "1-1", "4-0", "4-4")]
    g = game(7)                                  # seat 1 drew 4-4 and has not passed yet
    h = TrainHistory(beta=0.5).update(g.view(1))
    assert h.cut[1] == 0
    g = game(8)                                  # it passed: the drawn tile was kept
    h = TrainHistory(beta=0.5).update(g.view(0))
    assert h.cut[1] > 0
    assert h.log_weight(heavier, skip=0) == 0.0
    # the same world before the kept draw: 6-2's choice still counts (the draw of 5-2
    # played at once hid nothing)
    h4 = TrainHistory(beta=0.5).update(game(4).view(0))
    assert h4.log_weight([heavier[0], heavier[1] & ~mask("4-4")], skip=0) < 0.0


def test_an_update_reads_only_the_new_events_and_a_new_round_starts_over() -> None:
    h = TrainHistory(beta=0.5)
    h.update(game(2).view(0))
    assert len(h.events) == 2
    h.update(game(4).view(0))
    assert len(h.events) == 3 and h.events == TrainHistory(0.5).update(game(4).view(0)).events
    h.update(game(0).view(0))
    assert h.events == []


def test_a_play_elsewhere_while_the_own_train_wanted_a_tile_is_a_void() -> None:
    g = game(2)
    view = g.view(0)
    h = TrainHistory().update(view)
    assert [(seat, end) for _, seat, end in h.voids] == [(1, 6)]
    sv = h.sampling_view(view)
    assert sv["log"] != view["log"] and view == g.view(0)    # the view is not changed
    rng = random.Random(1)
    plain = [sample_hands(view, rng)[0][1] for _ in range(200)]
    told = [sample_hands(sv, rng)[0][1] for _ in range(200)]
    assert any(hand & WITH_HALF[6] for hand in plain)
    assert not any(hand & WITH_HALF[6] for hand in told)
    assert TrainHistory().update(g.view(1)).sampling_view(g.view(1)) == g.view(1)


def test_an_ended_first_turn_chain_is_a_void_of_the_own_end() -> None:
    g = game(0, first_turn="chain")
    g.apply("6-2>t1")
    g.apply("end")
    h = TrainHistory().update(g.view(0))
    assert [(seat, end) for _, seat, end in h.voids] == [(1, 2)]
    soft = TrainHistory(beta=0.5, end_weight=-3.0).update(g.view(0))
    none = [mask("2-0", "3-0", "0-0", "6-1"), mask("4-1", "5-4", "1-1", "4-0")]
    held = [none[0], mask("2-1", "5-4", "1-1", "4-0")]        # 2-1 fitted t1's end
    assert soft.log_weight(held, 0) < soft.log_weight(none, 0)


def test_the_replay_follows_the_table() -> None:
    """At every decision the replayed state's public fields are the game's."""
    g = dominohall.new_game("mexican_train", players=4, seed=7, options={"rounds": 2})
    players = [bots.make("planner", seed=s, game="mexican_train") for s in range(4)]
    histories = [TrainHistory() for _ in range(4)]
    checked = 0
    while not g.is_over:
        s = g.current_seat
        view = g.view(s)
        st = histories[s].update(view)._st
        for f in ("ends", "trains", "markers", "owed", "pending", "deferred", "first_done",
                  "must_follow", "chain", "current"):
            assert getattr(st, f) == getattr(g.state, f), f
        checked += 1
        g.apply(players[s].act(view), seat=s)
    assert checked > 100


@pytest.mark.parametrize("params", [{"beliefs": -1}, {"beliefs": "8"}, {"beliefs": 2.5},
                                    {"beliefs": True}, {"belief_beta": -0.1},
                                    {"belief_beta": float("nan")}, {"belief_beta": "x"}])
def test_a_bad_option_is_refused_with_its_name(params: dict[str, object]) -> None:
    name = next(iter(params))
    with pytest.raises(TypeError, match=name):
        TrainBot(**params)  # type: ignore[arg-type]



@pytest.mark.parametrize("params", [{"beliefs": -1}, {"belief_beta": -0.1},
                                    {"belief_beta": float("inf")}])
def test_deep_refuses_a_bad_option_with_its_name(params: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(params))):
        bots.make("deep", game="mexican_train", **params)


def test_deep_with_beliefs_sees_only_its_view() -> None:
    g = dominohall.new_game("mexican_train", players=4, seed=3, options={"rounds": 1})
    players = [bots.make("planner", seed=s, game="mexican_train") for s in range(4)]
    compared = 0
    rng = random.Random(2)
    while not g.is_over and compared < 3:
        s = g.current_seat
        view = g.view(s)
        if len(TrainBot().candidates(view)) > 1 and len(view["log"]) > 40:
            twin = dominohall.sample_world(view, rng)         # other hidden hands
            assert twin.view(s) == view and twin.state.hands != g.state.hands
            a = TrainBot(seed=5, worlds=3, beliefs=4)
            b = TrainBot(seed=5, worlds=3, beliefs=4)
            assert a.act(view) == b.act(twin.view(s))
            assert a.history.events                           # the beliefs were used
            compared += 1
        g.apply(players[s].act(view), seat=s)
    assert compared == 3


def test_beliefs_off_by_default() -> None:
    bot = TrainBot(seed=1, worlds=2)
    g = dominohall.new_game("mexican_train", players=4, seed=3, options={"rounds": 1})
    for _ in range(30):
        s = g.current_seat
        g.apply(bot.act(g.view(s)), seat=s)
    assert bot.beliefs == 0 and bot.history.events == []
