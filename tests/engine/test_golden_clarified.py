"""Golden tests for the sentences RULES.md gained with issue 11 (A2, A4, A5, A10, A11,
B3-B7), written by hand from RULES.md; each test names its section.

The first block reproduces the three engine defects an independent referee found: a
``draw=one`` hand blocked while tiles could still be drawn (B6), a Mexican Train round
blocked by a lap of passes although a marker had opened a play (A10), and voluntary
passes with ``must_play=false`` (B5).  Then a referee written here from RULES A10/B6
(not from the engine) judges every blocked round of many random matches.
"""

from __future__ import annotations

import random

import pytest
from line_helpers import events as line_events
from line_helpers import legal as line_legal
from line_helpers import new as line_new
from line_helpers import step
from mt_helpers import last_event, legal, play, train_tiles, trains

import dominohall
from dominohall.engine.tiles import parse_tile

# --------------------------------------------------------------------------- A10 fix
# The reproduction: 2 players, double-6 set aside, 13 tiles each, one tile (3-3)
# in the boneyard.  Seat 0 lays 6-4 4-0 (its train open at 0) and keeps only tiles of
# 1..5; seat 1 lays 6-2 2-0 0-0 0-1 1-5 5-0 0-3 3-2 (open at 2) and keeps 6-0 and tiles
# without a 0 or a 2.
A10_SEAT0 = ["6-4", "4-0", "5-4", "5-3", "5-2", "4-4", "4-3", "4-2", "4-1", "3-1", "2-2",
             "2-1", "1-1"]
A10_SEAT1 = ["6-2", "2-0", "0-0", "1-0", "5-1", "5-0", "3-0", "3-2", "6-0", "6-5", "6-3",
             "6-1", "5-5"]
A10_CHAIN1 = ["6-2", "2-0", "0-0", "1-0", "5-1", "5-0", "3-0", "3-2"]


def a10_reproduction(version: int | None = None):
    kwargs = {} if version is None else {"_version": version}
    g = dominohall.new_game(
        "mexican_train", players=2, seed=0, hands=[A10_SEAT0, A10_SEAT1], boneyard=["3-3"],
        options={"set_max": 6, "engine": "set_aside", "hand_size": 13, "rounds": 1},
        **kwargs)
    play(g, "6-4>t0", "4-0>t0", "end")                  # both first-turn chains
    play(g, *[f"{t}>t1" for t in A10_CHAIN1], "end")
    play(g, "draw", "pass", "6-0>mx", "pass")           # as in the issue
    assert g.view(None)["boneyard"] == 0
    assert legal(g) == {"pass"}        # seat 1: t1 open at 2, mx at 0, t0 (marked) at 0
    play(g, "pass")
    return g


def test_a10_a_lap_of_passes_does_not_block_when_a_marker_opened_a_play():
    """A10: seat 1's pass put a marker on t1 (open at 2) and seat 0 holds 2-1: the round
    is not blocked, although both players passed in turn with the boneyard empty."""
    g = a10_reproduction()
    assert not g.is_over
    assert [e for e in g.view(None)["log"] if e["type"] == "round_end"] == []
    assert trains(g)["t1"]["marker"] is True
    assert g.current_seat == 0 and legal(g) == {"2-1>t1", "2-2>t1", "4-2>t1", "5-2>t1"}
    play(g, "2-1>t1")
    assert train_tiles(g, "t1")[-1] == "2-1"
    assert trains(g)["t1"]["marker"] is True     # A4: others playing on it leave it


def test_a10_old_records_keep_the_lap_of_passes_rule():
    """Records (docs/engine-api.md): a version-2 game of the same deal still ends the
    round as blocked after the lap of passes, as it was played then."""
    g = a10_reproduction(version=2)
    end = last_event(g, "round_end")
    assert end["reason"] == "blocked" and g.is_over
    assert g.to_record()["version"] == 2
    assert dominohall.replay(g.to_record()).view(None) == g.view(None)


def test_a10_blocked_round_ends_at_once_on_the_pass_that_leaves_nobody_a_play():
    """A10: the engine, as referee, ends the round as soon as nobody can play any more:
    no lap of pointless passes.  (The 3-player deal of the Mexican Train golden tests:
    an owed 0-0 nobody can cover.)"""
    from test_golden_mexican_train import BLOCK_LEFT, _blocked_game

    g = _blocked_game()
    assert g.current_seat == 0 and legal(g) == {"pass"}
    play(g, "pass")
    end = last_event(g, "round_end")
    assert end["reason"] == "blocked" and end["pips"] == [9, 4, 4]
    assert [list(h) for h in end["hands"]] == [[t] for t in BLOCK_LEFT]
    assert g.is_over
    assert len([e for e in g.view(None)["log"] if e["type"] == "pass"]) == 1


# --------------------------------------------------------------------------- B5/B6 fixes
def test_b6_draw_one_a_lap_of_passes_with_tiles_to_draw_is_not_a_block():
    """B5/B6 draw=one: a player who cannot play draws one tile, passes if it does not
    fit, and draws again on their next turn; a lap of such passes while tiles can still
    be drawn is not a block."""
    g = line_new("draw", [["6-6"], []], boneyard_top=["5-5", "4-4", "3-3"], draw="one")
    step(g, 0, "6-6")
    for seat in (1, 0):
        assert line_legal(g) == ["draw"]
        step(g, seat, "draw")
        assert line_legal(g) == ["pass"]
        step(g, seat, "pass")
    assert not g.is_over and line_events(g, "round_end") == []
    assert g.view(None)["boneyard"] == 12
    assert g.current_seat == 1 and line_legal(g) == ["draw"]        # draws again
    # every tile left without a 6 is drawn and passed on, then a 6 turns up and is played
    while line_legal(g) == ["draw"]:
        seat = g.current_seat
        step(g, seat, "draw")
        if line_legal(g) == ["pass"]:
            step(g, seat, "pass")
    assert not g.is_over and line_events(g, "round_end") == []
    assert g.view(None)["boneyard"] == 5 and line_legal(g) == ["6-0>L", "6-0>R"]


def test_b6_old_records_keep_the_lap_of_passes_rule():
    """Records: the same draw=one deal as a version-2 game still ends blocked after the
    lap, with 12 tiles left in the boneyard, as it was played then."""
    hands, bone = _stack_draw_one()
    g = dominohall.new_game("draw", players=2, seed=1, hands=hands, boneyard=bone, leader=0,
                            options={"draw": "one"}, _version=2)
    for a in ("6-6", "draw", "pass", "draw", "pass"):
        g.apply(a)
    ends = [e for e in g.view(None)["log"] if e["type"] == "round_end"]
    assert [e["reason"] for e in ends] == ["blocked"]


def _stack_draw_one():
    from line_helpers import build_deck

    return build_deck([["6-6"], []], ["5-5", "4-4", "3-3"])


def test_b5_must_play_false_no_pass_for_a_player_who_can_play():
    """B5 must_play=false: a player may draw while able to play; a pass is legal only
    for a player who can neither play nor draw."""
    g = line_new("block", [["6-6", "5-5"], ["6-4", "3-3"]], must_play=False)
    step(g, 0, "6-6")
    assert line_legal(g) == ["6-4>L", "6-4>R"]          # can play, cannot draw: no pass
    with pytest.raises(dominohall.IllegalAction):
        g.apply("pass")
    g = line_new("draw", [["6-6", "5-5"], ["6-4", "3-3"]], must_play=False)
    step(g, 0, "6-6")
    assert set(line_legal(g)) == {"6-4>L", "6-4>R", "draw"}      # may draw instead
    g = line_new("draw", [["6-6", "5-5"], ["6-4", "3-3"]], must_play=False, draw="one")
    step(g, 0, "6-6")
    step(g, 1, "draw")                                           # drew its one tile
    assert line_legal(g) == ["6-4>L", "6-4>R"]                   # now it must play


def test_b5_must_play_false_voluntary_passes_cannot_end_a_hand():
    """B5/B6 must_play=false: in a version-2 game two voluntary passes blocked a hand in
    which both players could play; now a pass is not even offered."""
    old = line_new("block", [["6-6", "5-5"], ["6-4", "3-3"]], must_play=False, hands=1)
    old = dominohall.replay({**old.to_record(), "version": 2})
    for a in ("6-6", "pass", "pass"):
        old.apply(a)
    assert old.is_over
    assert [e["reason"] for e in old.view(None)["log"] if e["type"] == "round_end"] == \
        ["blocked"]
    new = line_new("block", [["6-6", "5-5"], ["6-4", "3-3"]], must_play=False, hands=1)
    new.apply("6-6")
    with pytest.raises(dominohall.IllegalAction):
        new.apply("pass")


# --------------------------------------------------------------------------- a referee
def _referee_mt_blocked(view: dict, hands: list[list[str]]) -> bool:
    """RULES A10 as written: judge each seat as if it were their turn (owed doubles as
    they stand); mark the train of every seat that cannot play; repeat until no new
    marker goes down; blocked if still nobody can play.  (Needs the boneyard empty.)"""
    trains_ = view["trains"]
    n = view["players"]
    markers = {t["id"] for t in trains_ if t["owner"] is not None and t["marker"]}
    ends = {t["id"]: t["open_end"] for t in trains_}
    done = set(view["first_turn_done"])
    first_turn = view["options"]["first_turn"]

    def can_play(seat: int) -> bool:
        if view["owed"]:
            targets = [view["owed"][0]]
        elif first_turn != "free" and seat not in done:
            targets = [f"t{seat}"]
        else:
            targets = [f"t{k}" for k in range(n) if k == seat or f"t{k}" in markers] + ["mx"]
        for text in hands[seat]:
            a, b = (int(x) for x in text.split("-"))
            if any(ends[t] in (a, b) for t in targets):
                return True
        return False

    while True:
        stuck = [s for s in range(n) if not can_play(s)]
        if len(stuck) < n and all(f"t{s}" in markers for s in stuck):
            return False
        new = {f"t{s}" for s in stuck} - markers
        if not new:
            return len(stuck) == n
        markers |= new
        done |= set(stuck)


@pytest.mark.parametrize("seed", range(12))
def test_a10_every_blocked_round_is_blocked_by_the_rules(seed):
    """A10: over random matches, every pass with the boneyard empty ends the round
    exactly when a referee that applies RULES A10's marker test says nobody can play
    any more; otherwise the round goes on."""
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4])
    opts = {"set_max": 6, "engine": "set_aside", "hand_size": rng.choice([5, 6, 7]),
            "rounds": 3, "first_turn": rng.choice(["chain", "free"]),
            "must_play": rng.choice([True, False])}
    g = dominohall.new_game("mexican_train", players=players, seed=seed, options=opts)
    judged = 0
    while not g.is_over:
        a = rng.choice(g.legal_actions())
        before = g.view(None)
        rounds_before = len([e for e in before["log"] if e["type"] == "round_end"])
        g.apply(a)
        if str(a) != "pass" or before["boneyard"] != 0:
            continue
        after = g.view(None)
        ends = [e for e in after["log"] if e["type"] == "round_end"]
        ended = len(ends) > rounds_before
        if ended:
            hands = ends[rounds_before]["hands"]
            assert ends[rounds_before]["reason"] == "blocked"
            state = before                  # the table as the pass left it
            state = {**state, "trains": [dict(t) for t in state["trains"]]}
            passer = before["current_seat"]
            state["trains"][passer]["marker"] = True
            state["first_turn_done"] = sorted(set(state["first_turn_done"]) | {passer})
        else:
            if after["round"] != before["round"]:
                continue
            hands = [g.view(s)["hand"] for s in range(players)]
            state = after
        assert _referee_mt_blocked(state, hands) == ended, (seed, g.to_record())
        judged += 1
    assert judged > 0 or seed > 5      # most seeds reach an empty boneyard


@pytest.mark.parametrize("game, draw", [("draw", "one"), ("all_fives", "one"),
                                        ("draw", "until_playable"), ("block", "none")])
def test_b6_every_blocked_hand_is_blocked_by_the_rules(game, draw):
    """B6: over random matches, a hand ends as blocked exactly when no player can play a
    tile and no tile may be drawn (boneyard down to its reserve, or draw=none)."""
    rng = random.Random(7)
    blocked = 0
    for seed in range(25):
        reserve = rng.choice([0, 2])
        g = dominohall.new_game(game, players=rng.choice([2, 3]), seed=seed,
                                options={"draw": draw, "boneyard_reserve": reserve,
                                         "hands": 2, "must_play": rng.choice([True, False])})
        while not g.is_over:
            before = g.view(None)
            a = rng.choice(g.legal_actions())
            n_ends = len([e for e in before["log"] if e["type"] == "round_end"])
            g.apply(a)
            ends = [e for e in g.view(None)["log"] if e["type"] == "round_end"][n_ends:]
            if str(a) != "pass":
                assert not ends or ends[0]["reason"] != "blocked"
                continue
            values = {e["value"] for e in before["layout"]["ends"]}
            hands = ends[0]["hands"] if ends else [g.view(s)["hand"] for s in
                                                   range(g.players)]
            playable = any(parse_tile(t) is not None and
                           any(int(x) in values for x in t.split("-"))
                           for h in hands for t in h)
            drawable = draw != "none" and before["boneyard"] > reserve
            stuck = not playable and not drawable
            assert bool(ends) == stuck, (game, seed, a)
            if ends:
                assert ends[0]["reason"] == "blocked"
                blocked += 1
    assert blocked > 0
