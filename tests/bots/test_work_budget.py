"""Budgets in work by default: every searching bot's default is a fixed number of worlds,
so the same seed and position give the same move whatever the clock says (a slow
machine, a busy one); a time limit is only a safety cap, and a time budget stays an
option that does depend on the clock."""

from __future__ import annotations

import random
from typing import Any

import pytest

import dominohall
from dominohall import bots
from dominohall.bots import allfives, block, train
from dominohall.bots.pimc import PimcBot


class SlowClock:
    """A fake clock: every reading moves it on by `step` seconds (a machine so loaded
    that each world seems to take that long)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("mexican_train", 2, {"rounds": 1}),
    ("all_fives", 2, {}),
    ("block", 4, {"teams": True, "hands": 1}),
]


def _position(game: str, players: int, options: dict[str, Any], seed: int,
              ) -> dict[str, Any]:
    """A view with at least two plays, reached by seeded random play (Block: late enough
    for the exact search, at most 14 tiles in the hands); the next deal if none."""
    rng = random.Random(seed)
    for deal in range(seed, seed + 50):
        g = dominohall.new_game(game, players=players, seed=deal, options=options)
        while not g.is_over:
            seat = g.current_seat
            assert seat is not None
            v = g.view(seat)
            late = game != "block" or sum(v["hand_sizes"]) <= 14
            plays = [a for a in v["legal_actions"] if a not in ("draw", "pass", "end")]
            if late and len(plays) >= 2 and rng.random() < 0.7:
                return v
            g.apply(rng.choice(v["legal_actions"]), seat=seat)
    raise AssertionError("no position with a choice")


def _set_clock(bot: Any, clock: Any) -> None:
    """The time budget's clock and the work budget's safety-cap clock, both."""
    for inner in bot.bots.values():        # `deep` holds one bot a game
        inner.clock = inner.cap_clock = clock
        fallback = getattr(inner, "fallback", None)
        if fallback is not None:
            fallback.clock = fallback.cap_clock = clock


@pytest.mark.parametrize("game,players,options", GAMES)
def test_default_gives_the_same_move_under_a_slow_clock(game: str, players: int,
                                                         options: dict[str, Any]) -> None:
    """The default `deep`, fresh with the same seed on the same view: the same move and
    the same number of worlds with the real clock and with a clock that runs 10 ms a
    reading (a 100 ms budget would be spent after ten readings; the 2 s cap is not);
    a time budget searches as many worlds as the clock lets it."""
    for seed in (3, 4):
        view = _position(game, players, options, seed)
        quick = bots.make("deep", seed=seed, game=game)
        move = quick.act(view)
        slow = bots.make("deep", seed=seed, game=game)
        clock = SlowClock(0.01)
        _set_clock(slow, clock)
        assert slow.act(view) == move
        assert clock.readings > 0                      # the clock was read, and ignored
        worlds = (quick.last_search["worlds"] if game == "block" else quick.searched)
        assert worlds == (slow.last_search["worlds"] if game == "block" else slow.searched)
        if game == "block":
            sizes = sum(view["hand_sizes"])
            assert worlds == (block.DEFAULT_WORLDS if sizes <= 18 else
                              block.DEFAULT_EARLY_WORLDS)
        elif game == "mexican_train" and quick.survivors:
            assert worlds == train.DEFAULT_WORLDS
        # a time budget is what the clock says: 20 ms are many worlds at 1 ms a reading,
        # one at 30 ms a reading
        counts = []
        for step in (0.001, 0.03):
            timed = bots.make("deep", seed=seed, game=game, budget_ms=20, min_worlds=1)
            _set_clock(timed, SlowClock(step))
            timed.act(view)
            counts.append(timed.last_search["worlds"] if game == "block" else timed.searched)
        assert counts[1] == 1 < counts[0], counts


def test_defaults_are_work_budgets() -> None:
    """What `make` gives by default: worlds, no time budget."""
    deep = bots.make("deep", seed=1)
    mt, af, bl = deep.bots["mexican_train"], deep.bots["all_fives"], deep.bots["line"]
    assert (mt.worlds, mt.budget_ms) == (train.DEFAULT_WORLDS, None)
    assert (af.worlds, af.budget_ms) == (allfives.DEFAULT_WORLDS, None)
    assert (bl.worlds, bl.early_worlds) == (block.DEFAULT_WORLDS, block.DEFAULT_EARLY_WORLDS)
    assert bots.make("pimc").budget_ms is None
    # a time budget stays an option; worlds=N alone sets every move's worlds
    timed = bots.make("deep", seed=1, budget_ms=50).bots
    assert timed["mexican_train"].worlds is None and timed["line"].worlds is None
    assert timed["line"].budget_ms == 50
    fixed = bots.make("deep", seed=1, worlds=7).bots["line"]
    assert (fixed.worlds, fixed.early_worlds) == (7, 7)


@pytest.mark.parametrize("game,players,options", GAMES)
def test_safety_cap_stops_a_work_budget(game: str, players: int,
                                        options: dict[str, Any]) -> None:
    """A clock that runs 10 s a reading passes the 2 s cap at once: the search stops
    after `min_worlds`, and says so."""
    view = _position(game, players, options, 5)
    bot = bots.make("deep", seed=5, game=game, min_worlds=2)
    _set_clock(bot, SlowClock(10.0))
    assert bot.act(view) in view["legal_actions"]
    if game == "block":
        assert bot.last_search["worlds"] == 2
    else:
        assert bot.searched <= 2
        assert bot.capped == (bot.survivors != 1 or bot.searched == 2)


def test_pimc_default_is_its_samples_under_any_clock() -> None:
    view = _position("mexican_train", 2, {"rounds": 1}, 6)
    a = PimcBot(seed=2, samples=5)
    b = PimcBot(seed=2, samples=5)
    b.clock = b.cap_clock = SlowClock(0.3)         # past a 1 s budget after 4 readings
    assert a.act(view) == b.act(view)
    timed = PimcBot(seed=2, samples=5, budget_ms=1000)
    timed.clock = SlowClock(2.0)
    timed.act(view)                                # stops after one world: no error


@pytest.mark.parametrize("params,error", [
    ({"cap_ms": 0}, "cap_ms=0"), ({"cap_ms": -5}, "cap_ms=-5"),
    ({"early_worlds": 0}, "early_worlds=0"), ({"worlds": 0}, "worlds=0")])
def test_bad_work_budgets_are_refused(params: dict[str, Any], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        bots.make("deep", **params)


def test_the_safety_cap_counts_this_thread_s_cpu_not_the_wall() -> None:
    """Other jobs on a loaded machine stretch the wall clock, not this thread's CPU time:
    the cap never makes a move depend on the load (wall time spent asleep is not CPU)."""
    import time

    from dominohall.bots.search import CAP_CLOCK
    assert CAP_CLOCK is time.thread_time
    deep = bots.make("deep", seed=1)
    assert all(b.cap_clock is time.thread_time for b in deep.bots.values())
    assert bots.make("pimc").cap_clock is time.thread_time
    start = time.thread_time()
    time.sleep(0.05)
    assert time.thread_time() - start < 0.04
