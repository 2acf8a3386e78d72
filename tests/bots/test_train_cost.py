"""Cheaper Mexican Train `deep`: solved plans are reused between worlds and moves (the same
plans, the same moves), and the rollout rule lives in a module of its own, compiled."""

from __future__ import annotations

import random

import dominohall
from dominohall.bots import mexican
from dominohall.bots.train import TrainBot
from dominohall.engine.tiles import BIT, PIPS, ids
from dominohall.solver import longest_train_ids


def _uncached(hand: int, end: int) -> list[int]:
    tiles = ids(hand)
    if len(tiles) > mexican.PLAN_LIMIT:
        hand = sum(BIT[t] for t in sorted(tiles, key=lambda t: -PIPS[t])[:mexican.PLAN_LIMIT])
    return longest_train_ids(hand, end, "tiles")


def test_cached_plans_are_the_solver_s_and_callers_cannot_spoil_them() -> None:
    rng = random.Random(4)
    mexican._PLANS.clear()
    for _ in range(150):
        hand = sum(BIT[t] for t in rng.sample(range(91), rng.choice([3, 8, 15, 22])))
        end = rng.randrange(13)
        first = mexican.plan_train(hand, end)
        assert first == _uncached(hand, end)
        first.clear()                                  # a rollout spends its plan
        assert mexican.plan_train(hand, end) == _uncached(hand, end)


def test_the_cache_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(mexican, "PLAN_CACHE", 5)
    mexican._PLANS.clear()
    for end in range(12):
        mexican.plan_train(BIT[1] | BIT[2] | BIT[40], end)
    assert len(mexican._PLANS) == 5


def test_deep_plays_the_same_with_a_cold_or_warm_cache() -> None:
    g = dominohall.new_game("mexican_train", players=2, seed=9, options={"rounds": 1})
    views = []
    rng = random.Random(1)
    while not g.is_over and len(views) < 6:
        v = g.view(g.current_seat)
        if len(v["legal_actions"]) > 1:
            views.append(v)
        g.apply(rng.choice(v["legal_actions"]), seat=g.current_seat)
    cold = []
    for v in views:
        mexican._PLANS.clear()
        cold.append(TrainBot(seed=3).act(v))
    warm = [TrainBot(seed=3).act(v) for v in views]
    assert cold == warm and len(views) == 6
