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
from line_helpers import TIE_REST, block_deal, play_block_script, step
from line_helpers import events as line_events
from line_helpers import legal as line_legal
from line_helpers import new as line_new
from mt_helpers import (
    BLOCK_LEFT,
    blocked_game,
    last_event,
    legal,
    play,
    stacked,
    train_tiles,
    trains,
)

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


@pytest.mark.parametrize("version, blocked", [(2, True), (3, False)])
def test_a10_a_clone_plays_by_the_rules_of_its_version(version, blocked):
    """Records: a clone (what search bots and the server copy) keeps its game's rules."""
    g = a10_reproduction(version=version)
    record = g.to_record()
    before = dominohall.replay({**record, "actions": record["actions"][:-1]})
    twin = before.clone()
    twin.apply("pass")
    assert twin.is_over is blocked and twin.view(None) == g.view(None)


def test_a10_blocked_round_ends_at_once_on_the_pass_that_leaves_nobody_a_play():
    """A10: the engine, as referee, ends the round as soon as nobody can play any more:
    no lap of pointless passes.  (The 3-player deal of the Mexican Train golden tests:
    an owed 0-0 nobody can cover.)"""

    g = blocked_game()
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


# =========================================================================== the new
# sentences of RULES.md, section by section (hand-made from RULES.md)

# --------------------------------------------------------------------------- A2
@pytest.mark.parametrize("players, size", [(2, 15), (4, 15), (5, 12), (6, 12), (7, 10),
                                           (8, 10), (9, 8), (10, 8)])
def test_a2_puremco_hand_sizes_and_the_same_value_as_an_option(players, size):
    """A2: preset puremco deals 15 for 2-4, 12 for 5-6, 10 for 7-8, 8 for 9-10; A12: a
    preset only bundles values a user can set, so hand_size=puremco is an option too."""
    by_preset = dominohall.new_game("mexican_train", players=players, seed=1,
                                    options={"preset": "puremco"})
    by_option = dominohall.new_game("mexican_train", players=players, seed=1,
                                    options={"hand_size": "puremco"})
    assert by_preset.view(None)["hand_sizes"] == [size] * players
    assert by_option.options.hand_size == size


def test_a2_a_table_needing_more_tiles_than_the_set_is_rejected_clearly():
    """A2: the configuration is rejected with a clear error naming the field."""
    with pytest.raises(dominohall.BadOption) as err:
        dominohall.new_game("mexican_train", players=10, options={"hand_size": 10})
    assert "hand_size" in str(err.value) and "100" in str(err.value)
    assert "91" in str(err.value) or "90" in str(err.value)


# --------------------------------------------------------------------------- A4
def test_a4_marker_stays_when_others_play_on_it_and_goes_when_the_owner_plays():
    """A4: a marked train is open to every player; the marker is removed when its owner
    next plays a tile on their own train, not when others play on it."""
    g = stacked([["6-3", "5-5", "4-4", "2-0"], ["6-1", "1-1", "3-0", "2-2"]],
                top=["5-1"], first_turn="free")
    play(g, "6-3>t0", "6-1>t1", "draw", "pass")       # seat 0: nothing fits, marker on t0
    assert trains(g)["t0"]["marker"] is True
    assert "3-0>t0" in legal(g)                       # open to seat 1 now
    play(g, "3-0>t0")
    assert trains(g)["t0"]["marker"] is True          # others' play leaves the marker
    assert train_tiles(g, "t0") == ["6-3", "3-0"]
    play(g, "2-0>t0")                                 # the owner plays on it
    assert trains(g)["t0"]["marker"] is False


# --------------------------------------------------------------------------- A5
def test_a5_a_chain_may_end_on_a_double_which_is_then_owed():
    """A5: a chain may end on a double (the player says end); with at_once it is owed at
    once and binds the next player, whose first turn it is: drawing and passing is that
    first turn (a marker goes on their train), and their next turn is a normal one."""
    g = stacked([["6-5", "5-5", "4-1", "2-2"], ["6-3", "3-0", "1-1", "2-0"]],
                top=["4-4", "5-3"], first_turn_double_owed="at_once")
    play(g, "6-5>t0", "5-5>t0")
    assert "end" in legal(g)                          # the chain may end on the double
    play(g, "end")
    assert g.view(None)["owed"] == ["t0"]
    assert g.current_seat == 1 and legal(g) == {"draw"}   # 6-3 may not start t1 now
    play(g, "draw")                                   # 4-4: no 5
    assert legal(g) == {"pass"}
    play(g, "pass")
    assert trains(g)["t1"]["marker"] is True and trains(g)["t1"]["started"] is False
    play(g, "draw", "5-3>t0")                         # seat 0 covers its own double
    assert g.view(None)["owed"] == []
    # seat 1's first turn is over: a normal turn may start the Mexican train (A6)
    assert legal(g) == {"6-3>t1", "6-3>mx"}


def test_a5_covering_an_owed_double_is_that_players_first_turn():
    """A5: a double owed from an earlier turn binds a player whose first turn it is:
    covering it is that first turn (no chain follows), and the next turn is normal."""
    g = stacked([["6-5", "5-5", "1-0", "2-2"], ["6-3", "5-1", "3-0", "1-1"]],
                first_turn_double_owed="at_once")
    play(g, "6-5>t0", "5-5>t0", "end")
    assert legal(g) == {"5-1>t0"}
    play(g, "5-1>t0")
    assert g.current_seat == 0                        # the cover was seat 1's whole turn
    play(g, "1-0>t0")
    assert legal(g) == {"6-3>t1", "6-3>mx"}           # a normal turn, not a first turn


def test_a5_a_double_ending_a_chain_is_owed_once_every_player_had_a_first_turn():
    """A5 after_first_turns (default): the double that ends seat 0's chain binds nobody
    during the other first turns; once they are over, it is owed (A8)."""
    g = stacked([["6-5", "5-5", "5-2", "4-1"], ["6-3", "3-0", "5-1", "2-2"],
                 ["6-2", "2-1", "5-3", "4-4"]])
    play(g, "6-5>t0", "5-5>t0", "end")
    assert g.view(None)["owed"] == []
    assert legal(g) == {"6-3>t1"}
    play(g, "6-3>t1", "end")
    assert g.view(None)["owed"] == []
    assert legal(g) == {"6-2>t2"}
    play(g, "6-2>t2", "end")
    assert g.view(None)["owed"] == ["t0"]
    assert legal(g) == {"5-2>t0"}


def test_a5_a_double_in_the_middle_of_a_chain_is_covered_by_the_next_tile():
    """A5: the next tile of the chain covers a double in its middle: nothing is owed."""
    g = stacked([["6-4", "4-4", "4-1", "1-1", "1-0"], ["6-3", "3-0", "5-1", "2-2", "5-5"]])
    play(g, "6-4>t0", "4-4>t0", "4-1>t0", "1-1>t0", "1-0>t0")
    assert g.current_seat == 1                        # out of tiles to chain: turn over
    assert g.view(None)["owed"] == []


# --------------------------------------------------------------------------- A11
# A blocked 3-player deal (double-6 set aside, 9 tiles each, no boneyard): seat 0's chain
# 6-5 5-5 ends on the 5-5; the other 5s go into the chains of seats 1 and 2, so once the
# first turns are over the owed 5-5 can never be covered.  Seat 2 keeps the 0-0.
A11_CHAINS = [["6-5", "5-5"], ["6-4", "5-4", "5-3"], ["6-2", "5-2", "5-1", "6-1", "6-0",
                                                        "5-0"]]
A11_LEFT = [["6-3", "4-4", "4-3", "4-2", "4-1", "4-0", "3-3"],       # 45 pips
            ["2-0", "2-1", "2-2", "3-0", "3-1", "3-2"],               # 21 pips
            ["0-0", "1-0", "1-1"]]                                    # 3 pips + the 0-0


def a11_blocked(**options):
    g = stacked([c + left for c, left in zip(A11_CHAINS, A11_LEFT)], rounds=1, **options)
    for seat, chain in enumerate(A11_CHAINS):
        play(g, *[f"{t}>t{seat}" for t in chain], "end")
    assert g.view(None)["owed"] == ["t0"] and legal(g) == {"pass"}
    play(g, "pass")
    assert last_event(g, "round_end")["reason"] == "blocked"
    return g


@pytest.mark.parametrize("blank, pips", [(0, [45, 21, 3]), (25, [45, 21, 28]),
                                         (50, [45, 21, 53])])
def test_a11_double_blank_is_the_pips_of_the_0_0_in_penalty_totals(blank, pips):
    """A11: a 0-0 left in hand counts double_blank pips in the penalty totals."""
    g = a11_blocked(double_blank=blank)
    end = last_event(g, "round_end")
    assert end["pips"] == pips and end["points"] == pips and g.scores == pips


@pytest.mark.parametrize("blank, points", [(0, [0, 0, 45 + 21]), (25, [0, 45 + 28, 0])])
def test_a11_double_blank_decides_the_fewest_pips_after_a_block(blank, points):
    """A11 positive: after a block the fewest pips share the others' pips; the 0-0 counts
    double_blank in that comparison too (seat 2's 3 pips + 25 is no longer the fewest)."""
    g = a11_blocked(double_blank=blank, scoring="positive")
    assert last_event(g, "round_end")["points"] == points
    assert g.winners == [points.index(max(points))]


def test_a11_double_blank_counts_in_positive_scoring_after_a_domino():
    """A11 positive: the player who goes out scores everyone else's pips, a 0-0 counting
    double_blank (5-4 = 9, 0-0 = 50)."""
    g = stacked([["6-3", "3-1"], ["6-2", "5-4"], ["6-1", "0-0"]], first_turn="free",
                rounds=1, scoring="positive", double_blank=50)
    play(g, "6-3>t0", "6-2>t1", "6-1>t2", "3-1>t0")
    assert last_event(g, "round_end")["points"] == [59, 0, 0]


# --------------------------------------------------------------------------- B3/B4
def test_b3_after_a_non_double_lead_the_first_double_played_is_the_spinner():
    """B3: a non-double lead is no spinner; the first double played later is (its sides
    open once both its ends have a tile); B4: while one end is bare it counts both halves."""
    g = line_new("all_fives", [["6-4", "4-2"], ["4-4"]])
    step(g, 0, "6-4")
    assert layout_of(g)["spinner"] is None
    step(g, 1, "4-4>R")
    assert layout_of(g)["spinner"] == "4-4"
    assert layout_of(g)["count"] == 6 + 8
    step(g, 0, "4-2>R")
    assert layout_of(g)["count"] == 6 + 2
    assert {"U", "D"} <= {e["id"] for e in layout_of(g)["ends"]}


def test_b4_spinner_none_a_lone_double_lead_counts_both_halves_until_both_ends_covered():
    """B4 spinner=none: a 5-5 lead counts 10 (scores 10); 5-3 on one end: 3 + 10 = 13;
    5-2 on the other: 3 + 2 = 5 (scores 5)."""
    g = line_new("all_fives", [["5-5", "5-2"], ["5-3"]], spinner="none")
    step(g, 0, "5-5")
    assert layout_of(g)["count"] == 10 and g.scores == [10, 0]
    step(g, 1, "5-3>L")
    assert layout_of(g)["count"] == 13 and g.scores == [10, 0]
    step(g, 0, "5-2>R")
    assert layout_of(g)["count"] == 5 and g.scores == [15, 0]
    assert not {"U", "D"} & {e["id"] for e in layout_of(g)["ends"]}


def layout_of(g):
    return g.view(None)["layout"]


# --------------------------------------------------------------------------- B6
def _block_hand(rest, **options):

    g = line_new("all_fives", block_deal(rest), **options)
    play_block_script(g)
    assert g.round == 2
    return g, [e for e in g.view(None)["log"] if e["type"] == "round_end"][0]


def test_b6_all_tied_share_each_share_is_rounded():
    """B6 all_tied_share: seats 1 and 3 tie on 24 pips; they share the others' 35 + 43 =
    78 pips: 39 each, then rounded to 40 (seat 3 also has 5 from a count)."""
    rest = {0: ["5-5", "6-6", "6-1", "3-3"], 1: ["3-2", "5-1", "4-2", "5-2"],
            2: ["6-2", "5-3", "4-4", "5-4", "6-4"], 3: ["1-1", "2-2", "3-1", "4-1", "6-3"]}
    g, end = _block_hand(rest, block_tie="all_tied_share")
    assert end["pips"] == [35, 24, 43, 24]
    assert end["points"] == [0, 40, 0, 40]
    assert g.scores == [0, 40, 0, 45]


LOWEST_SEAT3 = {0: ["5-5", "6-6", "6-1", "4-4"], 1: ["4-2", "3-3", "5-1", "5-2"],
                2: ["5-3", "5-4", "6-2", "6-3", "6-4"], 3: ["1-1", "2-2", "3-1", "3-2", "4-1"]}


@pytest.mark.parametrize("rule, leader", [("winner", 3), ("rotate", 1)])
def test_b6_next_leader_winner_after_a_block_is_the_winning_player(rule, leader):
    """B6 next_leader=winner: after a block the winning player (fewest pips: seat 3)
    leads the next hand; rotate gives the next seat clockwise."""
    g, end = _block_hand(LOWEST_SEAT3, next_leader=rule)
    assert end["pips"] == [37, 25, 44, 20]
    assert g.current_seat == leader


def test_b6_next_leader_winner_teams_tied_partners_the_earlier_seat_leads():
    """B6 next_leader=winner with teams: the winning partner with fewer pips leads, the
    earlier seat on a tie (seats 0 and 2 hold 26 each; rotate would give seat 1)."""
    rest = {0: ["1-1", "2-2", "4-4", "6-6"], 1: ["5-1", "5-2", "5-3", "5-4"],
            2: ["3-1", "3-2", "3-3", "4-1", "4-2"], 3: ["5-5", "6-1", "6-2", "6-3", "6-4"]}
    g, end = _block_hand(rest, next_leader="winner", teams=True)
    assert end["pips"] == [26, 30, 26, 44]
    assert end["points"][0] == end["points"][2] > 0
    assert g.current_seat == 0


def test_b6_next_leader_winner_partner_with_fewer_pips_leads():
    """B6 next_leader=winner with teams: team 1-3 wins the block and seat 3, the partner
    with fewer pips (20 against 25), leads."""
    g, end = _block_hand(LOWEST_SEAT3, next_leader="winner", teams=True)
    assert g.current_seat == 3


def test_b6_next_leader_winner_after_a_block_nobody_won_is_the_next_seat():
    """B6 next_leader=winner: after a block that nobody won (a tie, block_tie=nobody),
    the next seat clockwise leads."""

    g, end = _block_hand(TIE_REST, next_leader="winner")
    assert end["points"] == [0, 0, 0, 0]
    assert g.current_seat == 1


# --------------------------------------------------------------------------- B7
def test_b7_end_of_hand_the_highest_total_at_the_end_wins_not_the_first_to_reach():
    """B7 end_at=end_of_hand: the hand in which a side reaches the target is played out
    and the highest total at its end wins (here another side than the first to reach
    the target); with end_at=immediately the first to reach it wins."""
    found = 0
    for seed in range(300):
        rng = random.Random(seed)
        g = dominohall.new_game("all_fives", players=3, seed=seed,
                                options={"target": 100, "end_at": "end_of_hand"})
        first = None
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            if first is None and max(g.scores) >= 100:
                first = g.scores.index(max(g.scores))
                hand = g.round
        assert g.round == hand                  # no new hand after the target
        best = max(g.scores)
        assert g.winners == [s for s in range(3) if g.scores[s] == best]
        if first not in g.winners:
            found += 1
            break
    assert found
