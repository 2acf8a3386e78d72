"""All Fives search helpers: the scorer rollout reading each play's count off the layout
(`bots.fives_count`, the engine's `count_after`) picks what pimc's picks, beliefs from play
(`bots.line_beliefs`) only re-rank the sampler's deals, and the search skips forced
moves and races candidates (`bots.search`)."""

from __future__ import annotations

import random

import pytest

import dominohall
from dominohall.bots.allfives import AllFivesBot
from dominohall.bots.fives_count import scorer_action
from dominohall.bots.line_beliefs import FivesHistory, resample_hands
from dominohall.bots.pimc import PimcBot, scorer_rollout_action
from dominohall.bots.search import _race
from dominohall.engine.sampling import sample_hands
from dominohall.engine.tiles import BIT, TEXT, parse_tile


def _mask(texts: list[str]) -> int:
    m = 0
    for t in texts:
        m |= BIT[parse_tile(t)]
    return m


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scorer_action_picks_what_pimcs_rollout_picks(seed: int) -> None:
    g = dominohall.new_game("all_fives", players=4, seed=seed, options={"teams": True})
    k = 0
    while not g.is_over:
        a = scorer_action(g.state, random.Random(k))
        assert a == scorer_rollout_action(g, random.Random(k))
        g.apply_unchecked(a)
        k += 1
    assert k > 20


def _lead_then_forced() -> dominohall.Game:
    """Seat 0 leads 4-1 (count 5); seat 1 can only play 1-0 (count 4)."""
    hands = [["4-1", "2-2", "3-3", "5-5", "6-6", "2-3", "0-0"],
             ["1-0", "2-5", "3-5", "2-6", "3-6", "0-2", "0-3"]]
    dealt = {parse_tile(t) for h in hands for t in h}
    rest = [TEXT[t] for t in range(28) if t not in dealt]
    g = dominohall.new_game("all_fives", players=2, seed=1, hands=hands, boneyard=rest,
                            leader=0, options={"hands": 1})
    g.apply("4-1", seat=0)
    g.apply("1-0>R", seat=1)
    return g


def test_a_world_that_hid_a_scoring_tile_weighs_less() -> None:
    g = _lead_then_forced()
    view = g.view(0)
    h = FivesHistory(0.15).update(view)
    assert [(s, t) for s, t, _ in h.plays] == [(0, parse_tile("4-1")), (1, parse_tile("1-0"))]
    true_hands = list(g.state.hands)
    assert h.log_weight(true_hands, skip=0) == pytest.approx(0.0)   # 1-0 was forced
    # a world where seat 1 also held 1-6 (count 10 on the 1 end) did not explain 1-0
    swapped = true_hands[:]
    swapped[1] = swapped[1] ^ BIT[parse_tile("2-5")] | BIT[parse_tile("1-6")]
    assert h.log_weight(swapped, skip=0) < -1.0
    # the model: 1-0 scores 0 with 1 pip, 1-6 scores 10 with 7
    assert h.plays[1][2][parse_tile("1-6")] == pytest.approx(0.15 * (10 + 0.2 * 7))
    # beta 0 is today's sampler: no weight
    assert FivesHistory(0.0).update(view).log_weight(swapped, skip=0) == 0.0


def test_the_history_is_extended_move_by_move_and_restarts_each_hand() -> None:
    g = dominohall.new_game("all_fives", players=4, seed=9, options={"teams": True})
    rng = random.Random(0)
    h = FivesHistory()
    rounds = set()
    while not g.is_over and len(rounds) < 3:
        s = g.current_seat
        view = g.view(s)
        h.update(view)
        fresh = FivesHistory().update(view)
        assert [(a, b) for a, b, _ in h.plays] == [(a, b) for a, b, _ in fresh.plays]
        assert h.log_weight(g.state.hands, s) == pytest.approx(
            fresh.log_weight(g.state.hands, s))
        rounds.add(g.round)
        g.apply(rng.choice(view["legal_actions"]), seat=s)


@pytest.mark.parametrize("seed", [0, 5])
def test_resampled_deals_are_the_samplers_own(seed: int) -> None:
    """Weights only choose among the sampler's deals: sizes, seen tiles and voids hold."""
    g = dominohall.new_game("all_fives", players=3, seed=seed, options={"hands": 1})
    bots_ = [dominohall.bots.make("scorer", seed=s, game="all_fives") for s in range(3)]
    h = FivesHistory(0.5)
    for _ in range(12):
        if g.is_over:
            break
        s = g.current_seat
        view = g.view(s)
        h.update(view)
        for k in range(4):
            hands, boneyard = resample_hands(view, random.Random(k), h, 3)
            r = random.Random(k)
            own = [sample_hands(view, r) for _ in range(3)]
            assert (hands, boneyard) in own
            assert [m.bit_count() for m in hands] == view["hand_sizes"]
            assert len(boneyard) == view["boneyard"]
            assert hands[s] == _mask(view["hand"])
        g.apply(bots_[s].act(view), seat=s)


def test_a_forced_move_returns_without_search(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _lead_then_forced()
    view = None
    rng = random.Random(2)
    while not g.is_over:
        s = g.current_seat
        v = g.view(s)
        if len(v["legal_actions"]) == 1:
            view = v
            break
        g.apply(rng.choice(v["legal_actions"]), seat=s)
    assert view is not None
    bot = AllFivesBot(seed=1, worlds=50, beliefs=3)

    def no_search(*args: object) -> list[float]:
        raise AssertionError("searched a forced move")

    monkeypatch.setattr(bot, "evaluate", no_search)
    assert bot.act(view) == view["legal_actions"][0]
    assert bot.searched == 0


def test_race_drops_a_clearly_worse_candidate_and_keeps_a_close_one() -> None:
    values = [[10.0 + (k % 3) for k in range(12)],       # the leader
              [0.0 + (k % 3) for k in range(12)],        # 10 behind on every world
              [10.0 + ((k + 1) % 3) for k in range(12)]]  # level on average
    assert _race([0, 1, 2], values, 2.0) == [0, 2]


def test_race_stops_early_and_plays_legally() -> None:
    g = dominohall.new_game("all_fives", players=4, seed=3, options={"teams": True})
    seats = [AllFivesBot(seed=s, worlds=40, race=2.0, beliefs=2) for s in range(4)]
    stopped = 0
    for _ in range(40):
        if g.is_over:
            break
        s = g.current_seat
        view = g.view(s)
        a = seats[s].act(view)
        assert a in view["legal_actions"]
        assert seats[s].searched <= 40 and seats[s].survivors >= 1
        stopped += seats[s].searched < 40 and seats[s].survivors == 1
        g.apply(a, seat=s)
    assert stopped > 0


def test_budgets_refuse_bad_values() -> None:
    with pytest.raises(TypeError):
        PimcBot(clock="sundial")
    with pytest.raises(TypeError):
        AllFivesBot(race=-1)
    with pytest.raises(TypeError):
        AllFivesBot(beliefs=-2)
    assert PimcBot(clock="cpu").clock is not None
