"""Hand-made golden tests for the line games (All Fives, Draw, Block).

Every test stacks the first deal (``hands=``, ``boneyard=`` top first,
``leader=``) so that every tile is known, and checks one rule point of
docs/rules.md Part B (named in each docstring) through the public API of
docs/engine-api.md only.
"""

from __future__ import annotations

import os
import sys

import pytest

import dominohall

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import line_helpers as H  # noqa: E402
from line_helpers import (  # noqa: E402
    BLOCK_SCRIPT,
    TIE_REST,
    block_deal,
    play_block_script,
    play_until_hand_ends,
    step,
)

# ---------------------------------------------------------------------------
# Shared stacked deals
# ---------------------------------------------------------------------------

# A 2-player deal for the domino tests (B6).  Seat 0 plays its 7 tiles
# 6-6, 6-5>L, 6-1>R, 5-5>L, 5-1>L, 1-1>R, 1-0>L; the counts are
# 12, 17, 6, 11, 2, 3, 2 (never a multiple of 5).  Seat 1 only holds tiles
# from {0,2,3,4} and never matches an open end (1, 5, 6), so it always passes
# (draw="none").
DOMINO_SEAT0 = ["6-6", "6-5", "6-1", "5-5", "5-1", "1-1", "1-0"]
DOMINO_SCRIPT = ["6-6", "6-5>L", "6-1>R", "5-5>L", "5-1>L", "1-1>R", "1-0>L"]
LOW = ["0-0", "2-0", "2-2", "3-0", "3-2", "3-3", "4-0", "4-2", "4-3", "4-4"]  # 45 pips


def domino_deal(removed):
    seat1 = [t for t in LOW if t not in removed]
    assert len(seat1) == 7
    return [DOMINO_SEAT0, seat1], list(removed), H.pips(seat1)


def play_domino_script(g):
    for i, a in enumerate(DOMINO_SCRIPT):
        step(g, 0, a)
        if i < len(DOMINO_SCRIPT) - 1:
            assert g.current_seat == 1
            assert H.legal(g) == ["pass"]
            step(g, 1, "pass")


# ---------------------------------------------------------------------------
# B1 Equipment, options
# ---------------------------------------------------------------------------

def test_b1_all_fives_defaults():
    """RULES B1-B7: the defaults are set_max 6, teams false, hand_size 7, next_leader
    rotate, spinner first_double, sides after ends, fives only, must_play, reserve 0,
    draw until_playable, block_tie nobody, target 250, end_at immediately, hands 0."""
    g = dominohall.new_game("all_fives", players=2, seed=3)
    d = g.options.as_dict()
    expected = {
        "set_max": 6, "teams": False, "hand_size": 7, "next_leader": "rotate",
        "spinner": "first_double", "spinner_sides_after_ends": True,
        "fives_and_threes": False, "must_play": True, "boneyard_reserve": 0,
        "draw": "until_playable", "block_tie": "nobody", "target": 250,
        "end_at": "immediately", "hands": 0,
    }
    for k, v in expected.items():
        assert d[k] == v, (k, d[k], v)


def test_b1_set_max_9_deal_and_count():
    """RULES B1 (set_max = 9): a double-9 set has 55 tiles; 2x7 leaves 41 in the
    boneyard; a 9-9 lead counts 18 and 9-7 after it counts 18 + 7 = 25 (scores 25)."""
    g = H.new(deal=[["9-9"], ["9-7"]], set_max=9)
    v = g.view(None)
    assert v["hand_sizes"] == [7, 7]
    assert v["boneyard"] == 41
    step(g, 0, "9-9")
    assert H.count(g) == 18
    assert g.scores == [0, 0]
    step(g, 1, "9-7>L")
    assert H.count(g) == 25
    assert g.scores == [0, 25]


def test_b1_set_max_9_random_deal_uses_high_tiles():
    """RULES B1 (set_max = 9): an unstacked double-9 deal hands out 7 tiles each."""
    g = dominohall.new_game("all_fives", players=3, seed=11, options={"set_max": 9})
    assert g.options.as_dict()["set_max"] == 9
    v = g.view(None)
    assert v["hand_sizes"] == [7, 7, 7]
    assert v["boneyard"] == 55 - 21


@pytest.mark.parametrize("set_max", [12, 7, 15])
def test_b1_set_max_other_values_rejected(set_max):
    """RULES B1: set_max = 6 | 9 for the line games; anything else is a BadOption."""
    with pytest.raises(dominohall.BadOption) as ei:
        dominohall.new_game("all_fives", players=2, seed=1, options={"set_max": set_max})
    assert "set_max" in str(ei.value)


@pytest.mark.parametrize("players", [1, 5])
def test_b1_players_2_to_4(players):
    """RULES B1: 2 to 4 players."""
    with pytest.raises(dominohall.BadOption):
        dominohall.new_game("all_fives", players=players, seed=1)


def test_b1_teams_option_view():
    """RULES B1 (teams = true): with 4 players the view says teams and both
    partners show one score."""
    g = dominohall.new_game("all_fives", players=4, seed=2, options={"teams": True})
    v = g.view(None)
    assert v["teams"] is True
    assert g.scores[0] == g.scores[2] and g.scores[1] == g.scores[3]
    g2 = dominohall.new_game("all_fives", players=4, seed=2)
    assert g2.view(None)["teams"] is False


# ---------------------------------------------------------------------------
# B2 Deal and lead
# ---------------------------------------------------------------------------

def test_b2_two_players_seven_each():
    """RULES B2: hand_size 7 by default; 2 players leave 14 tiles in the boneyard."""
    g = dominohall.new_game("all_fives", players=2, seed=5)
    v = g.view(None)
    assert v["hand_sizes"] == [7, 7]
    assert v["boneyard"] == 14
    assert v["hand"] is None
    assert len(g.view(g.current_seat)["hand"]) == 7


def test_b2_four_players_use_all_28():
    """RULES B2: 4x7 uses all 28 tiles and leaves no boneyard."""
    g = dominohall.new_game("all_fives", players=4, seed=5)
    v = g.view(None)
    assert v["hand_sizes"] == [7, 7, 7, 7]
    assert v["boneyard"] == 0


def test_b2_hand_size_5():
    """RULES B2 (hand_size = 5): 5 tiles each; 3 players leave 13 in the boneyard."""
    g = dominohall.new_game("all_fives", players=3, seed=5, options={"hand_size": 5})
    v = g.view(None)
    assert v["hand_sizes"] == [5, 5, 5]
    assert v["boneyard"] == 13


def test_b2_stacked_hands_must_match_hand_size():
    """RULES B2 / API: stacked hands of 7 with hand_size 5 are rejected, naming hands."""
    hands, boneyard = H.build_deck([[], []], hand_size=7)
    with pytest.raises(dominohall.BadOption) as ei:
        dominohall.new_game("all_fives", players=2, seed=1, options={"hand_size": 5},
                            hands=hands, boneyard=boneyard, leader=0)
    assert "hands" in str(ei.value)


def test_b2_stacked_deck_must_hold_every_tile_once():
    """RULES B1/B2 / API: a stacked deck repeating a tile is a BadOption."""
    hands, boneyard = H.build_deck([[], []], hand_size=7)
    boneyard[0] = hands[0][0]
    with pytest.raises(dominohall.BadOption) as ei:
        dominohall.new_game("all_fives", players=2, seed=1, hands=hands, boneyard=boneyard,
                            leader=0)
    msg = str(ei.value)
    assert "hands" in msg or "boneyard" in msg


def test_b2_leader_may_play_any_tile():
    """RULES B2: the leader may play any tile; the lead is a play with no target."""
    g = H.new(deal=[["6-6", "5-3", "4-1", "0-0"], ["6-5"]], leader=1)
    assert g.current_seat == 1
    hand1 = g.view(1)["hand"]
    assert sorted(H.legal(g)) == sorted(H.norm(t) for t in hand1)
    assert g.view(0)["legal_actions"] == []


def test_b2_first_leader_random_from_seed():
    """RULES B2: without leader= the first leader is chosen at random (from the seed)."""
    leaders = set()
    for seed in range(24):
        a = dominohall.new_game("all_fives", players=3, seed=seed)
        b = dominohall.new_game("all_fives", players=3, seed=seed)
        assert a.current_seat == b.current_seat
        leaders.add(a.current_seat)
    assert leaders == {0, 1, 2}


@pytest.mark.parametrize("rule,expected", [("rotate", 1), ("winner", 0)])
def test_b2_next_leader(rule, expected):
    """RULES B2 (next_leader = rotate | winner): seat 0 leads hand 1 and wins it by
    domino; hand 2 is led by seat 1 (rotate) or seat 0 (winner)."""
    hands, boneyard_top, _ = domino_deal(["4-4", "4-3", "3-0"])
    g = H.new(deal=hands, boneyard_top=boneyard_top, draw="none", next_leader=rule)
    play_domino_script(g)
    assert g.round == 2
    assert not g.is_over
    assert g.current_seat == expected
    v = g.view(None)
    assert v["hand_sizes"] == [7, 7]
    assert v["layout"]["lead"] is None
    # the new leader may play any tile
    assert sorted(H.legal(g)) == sorted(H.norm(t) for t in g.view(expected)["hand"])


# ---------------------------------------------------------------------------
# B3 Layout and spinner
# ---------------------------------------------------------------------------

def test_b3_non_double_lead_orientation():
    """RULES B3 / API: a non-double lead 6-4 puts 6 on the L end and 4 on the R end;
    without a double there is no spinner."""
    g = H.new(deal=[["6-4"], ["6-1", "4-2"]])
    step(g, 0, "6-4")
    ends = {e["id"]: e["value"] for e in H.layout(g)["ends"]}
    assert ends == {"L": 6, "R": 4}
    assert H.layout(g)["spinner"] is None
    assert H.layout(g)["lead"] == "6-4"


def test_b3_tile_must_match_open_end():
    """RULES B3: a tile is played so that one of its halves matches the open end it
    is laid against -- after lead 6-4 exactly the 6s go L and the 4s go R."""
    seat1 = ["6-1", "4-2", "5-3", "4-4", "0-0", "1-0", "3-1"]
    g = H.new(deal=[["6-4"], seat1])
    step(g, 0, "6-4")
    assert sorted(H.legal(g)) == sorted(["6-1>L", "4-2>R", "4-4>R"])
    step(g, 1, "4-2>R")
    ends = {e["id"]: e["value"] for e in H.layout(g)["ends"]}
    assert ends == {"L": 6, "R": 2}


def test_b3_spinner_arms_only_after_both_ends():
    """RULES B3 (spinner = first_double, spinner_sides_after_ends = true): the lead 6-6
    is the spinner; U/D open only once both of its ends have a tile."""
    g = H.new(deal=[["6-6", "6-2", "6-1"], ["6-3", "6-5", "6-4"]])
    step(g, 0, "6-6")
    assert H.layout(g)["spinner"] == "6-6"
    assert H.end_ids(g) == {"L", "R"}
    assert H.targets(g) <= {"L", "R"}
    step(g, 1, "6-3>L")
    assert H.end_ids(g) == {"L", "R"}
    assert H.targets(g) <= {"L", "R"}
    assert "6-2>U" not in H.legal(g) and "6-2>D" not in H.legal(g)
    step(g, 0, "6-2>R")
    assert H.end_ids(g) == {"L", "R", "U", "D"}
    assert {"6-5>U", "6-5>D", "6-4>U", "6-4>D"} <= set(H.legal(g))
    step(g, 1, "6-5>U")


def test_b3_spinner_sides_at_once_when_option_false():
    """RULES B3 (spinner_sides_after_ends = false): U/D are legal right after the
    6-6 lead; 6-3 on U counts 12 (spinner, ends bare) + 3 = 15 and scores 15."""
    g = H.new(deal=[["6-6"], ["6-3"]], spinner_sides_after_ends=False)
    step(g, 0, "6-6")
    assert {"6-3>U", "6-3>L"} <= set(H.legal(g))
    step(g, 1, "6-3>U")
    assert H.count(g) == 15
    assert g.scores == [0, 15]


def test_b3_spinner_none_never_opens_arms():
    """RULES B3 (spinner = none): the 6-6 lead is an ordinary crosswise double; a line
    with two ends only.  6-3 then 6-2 count 12 + 3 = 15 and 3 + 2 = 5."""
    g = H.new(deal=[["6-6", "6-2"], ["6-3", "6-5", "6-4"]], spinner="none")
    step(g, 0, "6-6")
    assert H.layout(g)["spinner"] is None
    step(g, 1, "6-3>L")
    assert H.count(g) == 15
    step(g, 0, "6-2>R")
    assert H.count(g) == 5
    assert g.scores == [5, 15]
    assert H.end_ids(g) == {"L", "R"}
    assert H.targets(g) <= {"L", "R"}
    assert not any(a.startswith("6-5") or a.startswith("6-4") for a in H.legal(g))


def _second_spinner_game(spinner):
    g = H.new(deal=[["6-6", "6-1", "4-2"], ["6-4", "4-4", "4-3"]], spinner=spinner)
    step(g, 0, "6-6")
    step(g, 1, "6-4>L")
    step(g, 0, "6-1>R")
    step(g, 1, "4-4>L")
    return g


def test_b3_every_double_second_spinner_arms():
    """RULES B3 (spinner = every_double): 4-4 played on the line is spinner 2; its arms
    U2/D2 open once both its ends have a tile (6-4 inside, 4-2 outside) and then
    count their last tile: L 2 + R 1 + U2 3 = 6."""
    g = _second_spinner_game("every_double")
    assert not any(t in ("U2", "D2") for t in H.targets(g))
    step(g, 0, "4-2>L")
    assert {"4-3>U2", "4-3>D2"} <= set(H.legal(g))
    assert {"U2", "D2"} <= H.end_ids(g)
    step(g, 1, "4-3>U2")
    assert H.count(g) == 6


def test_b3_first_double_later_double_is_crosswise():
    """RULES B3 (spinner = first_double): only the first double spins; a later 4-4 is
    crosswise and extends the line in one direction only (no U2/D2)."""
    g = _second_spinner_game("first_double")
    # crosswise 4-4 at L counts both halves: 8 + R 1; the 6-6 spinner counts 0
    assert H.count(g) == 9
    step(g, 0, "4-2>L")
    assert not any(t.startswith("U2") or t.startswith("D2") for t in H.targets(g))
    assert not any(e.startswith("U2") or e.startswith("D2") for e in H.end_ids(g))
    assert not any(a.startswith("4-3") for a in H.legal(g))
    assert H.count(g) == 3


# ---------------------------------------------------------------------------
# B4 Scoring during play
# ---------------------------------------------------------------------------

def test_b4_double_six_lead_counts_12_scores_nothing():
    """RULES B4: a 6-6 lead (spinner, ends bare) counts 12 -- not a multiple of 5."""
    g = H.new(deal=[["6-6"], []])
    step(g, 0, "6-6")
    assert H.count(g) == 12
    ev = H.last_event(g, "play")
    assert ev["count"] == 12 and ev["points"] == 0
    assert g.scores == [0, 0]


def test_b4_five_five_lead_scores_10():
    """RULES B4: a lead 5-5 counts 10 and scores 10."""
    g = H.new(deal=[["5-5"], []])
    step(g, 0, "5-5")
    assert H.count(g) == 10
    ev = H.last_event(g, "play")
    assert ev["count"] == 10 and ev["points"] == 10 and ev["seat"] == 0
    assert g.scores == [10, 0]


def test_b4_non_double_lead_6_4_scores_10():
    """RULES B4: an open end counts the outer half of its last tile: lead 6-4 counts
    6 + 4 = 10 and scores 10."""
    g = H.new(deal=[[], ["6-4"]], leader=1)
    step(g, 1, "6-4")
    assert H.count(g) == 10
    assert g.scores == [0, 10]


def test_b4_spinner_counts_then_closes():
    """RULES B4: 6-6 then 6-3 counts 12 + 3 = 15 (scores 15); 6-2 on the other end
    counts 3 + 2 = 5 (scores 5) -- the spinner counts nothing once both ends have a tile."""
    g = H.new(deal=[["6-6", "6-2"], ["6-3"]])
    step(g, 0, "6-6")
    step(g, 1, "6-3>L")
    assert H.count(g) == 15
    ev = H.last_event(g, "play")
    assert ev["count"] == 15 and ev["points"] == 15 and ev["seat"] == 1
    assert g.scores == [0, 15]
    step(g, 0, "6-2>R")
    assert H.count(g) == 5
    ev = H.last_event(g, "play")
    assert ev["count"] == 5 and ev["points"] == 5
    assert g.scores == [5, 15]


def test_b4_arms_count_last_tile_and_crosswise_double_on_arm():
    """RULES B4: arms count their last tile once played on (3 + 2 + 5 = 10); a
    crosswise double at the end of an arm counts both halves (3 + 2 + 10 = 15)."""
    g = H.new(deal=[["6-6", "6-2", "5-5"], ["6-3", "6-5"]])
    step(g, 0, "6-6")
    step(g, 1, "6-3>L")
    step(g, 0, "6-2>R")
    step(g, 1, "6-5>U")
    assert H.count(g) == 10
    assert g.scores == [5, 25]
    step(g, 0, "5-5>U")
    assert H.count(g) == 15
    assert H.last_event(g, "play")["points"] == 15
    assert g.scores == [20, 25]


def test_b4_crosswise_double_at_line_end_counts_both_halves():
    """RULES B4: a crosswise double at an open end counts both halves: lead 6-2
    (count 8) then 2-2 on R counts 6 + 4 = 10 and scores 10 (spinner = none)."""
    g = H.new(deal=[["6-2"], ["2-2"]], spinner="none")
    step(g, 0, "6-2")
    assert H.count(g) == 8
    step(g, 1, "2-2>R")
    assert H.count(g) == 10
    assert g.scores == [0, 10]


def test_b4_crosswise_double_next_to_spinner():
    """RULES B4: 6-6 spinner, 6-4 on L (12 + 4 = 16), crosswise 4-4 on L counts 8:
    12 + 8 = 20, scores 20."""
    g = H.new(deal=[["6-6", "4-4"], ["6-4"]])
    step(g, 0, "6-6")
    step(g, 1, "6-4>L")
    assert H.count(g) == 16
    step(g, 0, "4-4>L")
    assert H.count(g) == 20
    assert g.scores == [20, 0]


def test_b4_fives_and_threes():
    """RULES B4 (fives_and_threes = true): multiple of 5 scores count/5, multiple of 3
    scores count/3, both add: 6-6 -> 12 -> 4; 6-3 -> 15 -> 3 + 5 = 8; 6-2 -> 5 -> 1."""
    g = H.new(deal=[["6-6", "6-2"], ["6-3"]], fives_and_threes=True)
    step(g, 0, "6-6")
    assert g.scores == [4, 0]
    step(g, 1, "6-3>L")
    assert g.scores == [4, 8]
    step(g, 0, "6-2>R")
    assert g.scores == [5, 8]


def test_b4_no_count_scoring_default_fives_only():
    """RULES B4: with fives_and_threes false a count of 12 or 9 scores nothing."""
    g = H.new(deal=[["6-3"], []])
    step(g, 0, "6-3")
    assert H.count(g) == 9
    assert g.scores == [0, 0]


# ---------------------------------------------------------------------------
# B5 Drawing
# ---------------------------------------------------------------------------

DRAW_SEAT0 = ["6-6", "5-5", "5-4", "5-3", "4-4", "4-3", "3-3"]
DRAW_SEAT1 = ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"]
DRAW_BONEYARD = ["3-1", "3-2", "4-0", "6-2", "4-1", "4-2", "5-0", "5-1", "5-2", "6-0",
                 "6-1", "6-3", "6-4", "6-5"]


def draw_game(**options):
    return H.new(deal=[DRAW_SEAT0, DRAW_SEAT1], boneyard_top=DRAW_BONEYARD, **options)


def test_b5_must_play_forbids_drawing_or_passing():
    """RULES B5 (must_play = true): a player who can play must -- draw and pass are
    not legal and raise IllegalAction."""
    g = draw_game()
    step(g, 0, "3-3")
    assert "3-0>L" in H.legal(g)
    assert set(H.legal(g)) <= {"3-0>L", "3-0>R", "3-0>U", "3-0>D"}
    for bad in ("draw", "pass"):
        with pytest.raises(dominohall.IllegalAction):
            g.apply(bad, seat=1)


def test_b5_must_play_false_allows_drawing():
    """RULES B5 (must_play = false): drawing is allowed although 3-0 could be played."""
    g = draw_game(must_play=False)
    step(g, 0, "3-3")
    assert "draw" in H.legal(g)
    assert "3-0>L" in H.legal(g)
    step(g, 1, "draw")
    assert g.current_seat == 1
    assert "3-1" in [H.norm(t) for t in g.view(1)["hand"]]
    assert g.view(None)["boneyard"] == 13


def test_b5_draw_until_playable_several_tiles():
    """RULES B5 (draw = until_playable): seat 1 has no 6; it draws 3-1, 3-2, 4-0 (no
    fit, same seat stays current) and then 6-2, which it must play."""
    g = draw_game()
    step(g, 0, "6-6")
    for expected_size in (8, 9, 10):
        assert H.legal(g) == ["draw"]
        step(g, 1, "draw")
        assert g.current_seat == 1
        assert g.view(None)["hand_sizes"][1] == expected_size
    assert H.legal(g) == ["draw"]
    step(g, 1, "draw")
    assert g.view(None)["hand_sizes"][1] == 11
    assert g.view(None)["boneyard"] == 10
    acts = H.legal(g)
    assert acts and all(a.startswith("6-2>") for a in acts)
    hand1 = [H.norm(t) for t in g.view(1)["hand"]]
    assert {"3-1", "3-2", "4-0", "6-2"} <= set(hand1)
    step(g, 1, "6-2>L")
    assert g.current_seat == 0
    assert g.view(None)["hand_sizes"][1] == 10
    draws = H.events(g, "draw")
    assert [d["seat"] for d in draws] == [1, 1, 1, 1]
    assert all("tile" not in d for d in draws)  # spectator does not see drawn tiles


def test_b5_draw_one():
    """RULES B5 (draw = one): one tile only; when it does not fit the only action is pass."""
    g = draw_game(draw="one")
    step(g, 0, "6-6")
    assert H.legal(g) == ["draw"]
    step(g, 1, "draw")
    assert H.legal(g) == ["pass"]
    step(g, 1, "pass")
    assert g.current_seat == 0
    v = g.view(None)
    assert v["hand_sizes"] == [6, 8]
    assert v["boneyard"] == 13


def test_b5_draw_one_playable_tile_is_played():
    """RULES B5 (draw = one): when the single drawn tile fits it must be played at once."""
    g = H.new(deal=[DRAW_SEAT0, DRAW_SEAT1], boneyard_top=["6-2", "3-1"], draw="one")
    step(g, 0, "6-6")
    assert H.legal(g) == ["draw"]
    step(g, 1, "draw")
    acts = H.legal(g)
    assert acts and all(a.startswith("6-2>") for a in acts)
    step(g, 1, "6-2>L")
    assert g.current_seat == 0
    assert g.view(None)["hand_sizes"] == [6, 7]


def test_b5_draw_none_just_pass():
    """RULES B5 (draw = none, the Block game's rule): no drawing; pass only."""
    g = draw_game(draw="none")
    step(g, 0, "6-6")
    assert H.legal(g) == ["pass"]
    with pytest.raises(dominohall.IllegalAction):
        g.apply("draw", seat=1)
    assert g.view(None)["boneyard"] == 14
    step(g, 1, "pass")
    # B6: seat 0 holds no other 6 either and nothing may be drawn: blocked at once
    assert H.last_event(g, "round_end")["reason"] == "blocked"
    assert g.round == 2


RESERVE_SEAT0 = ["6-6", "6-5", "6-4", "6-3", "6-2", "5-5", "5-4"]
RESERVE_SEAT1 = ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"]
RESERVE_BONEYARD = ["3-1", "3-2", "3-3", "4-0", "4-1", "4-2", "4-3", "4-4", "5-0", "5-1",
                    "5-2", "5-3", "6-1", "6-0"]


@pytest.mark.parametrize("reserve", [0, 2])
def test_b5_boneyard_reserve(reserve):
    """RULES B5 (boneyard_reserve = 0 | 2): seat 1 (no 6) draws the twelve top tiles,
    none fits; with reserve 2 the last two (6-1, 6-0) may never be drawn and seat 1
    must pass; with reserve 0 it draws 6-1 and plays it."""
    g = H.new(deal=[RESERVE_SEAT0, RESERVE_SEAT1], boneyard_top=RESERVE_BONEYARD,
              boneyard_reserve=reserve)
    step(g, 0, "6-6")
    for _ in range(12):
        assert H.legal(g) == ["draw"]
        step(g, 1, "draw")
    assert g.view(None)["boneyard"] == 2
    if reserve == 2:
        assert H.legal(g) == ["pass"]
        with pytest.raises(dominohall.IllegalAction):
            g.apply("draw", seat=1)
        step(g, 1, "pass")
        assert g.current_seat == 0
        assert g.view(None)["boneyard"] == 2
    else:
        assert H.legal(g) == ["draw"]
        step(g, 1, "draw")
        acts = H.legal(g)
        assert acts and all(a.startswith("6-1>") for a in acts)
        step(g, 1, "6-1>L")
        assert g.view(None)["boneyard"] == 1


def test_b5_empty_boneyard_pass():
    """RULES B5: with the boneyard empty (4x7 deal) a player who cannot play passes."""
    rest = {0: ["3-3", "4-4", "5-5", "6-6"], 1: ["1-1", "2-2", "3-1", "4-1"],
            2: ["5-2", "6-2", "5-3", "6-3", "5-4"], 3: ["3-2", "5-1", "4-2", "6-1", "6-4"]}
    g = H.new(deal=block_deal(rest))
    assert g.view(None)["boneyard"] == 0
    for seat, a in BLOCK_SCRIPT:
        step(g, seat, a)
    assert g.current_seat == 2
    assert H.legal(g) == ["pass"]
    with pytest.raises(dominohall.IllegalAction):
        g.apply("draw", seat=2)
    step(g, 2, "pass")
    assert H.events(g, "pass")[-1]["seat"] == 2
    # B6: nobody holds a tile for the open ends and nothing may be drawn: blocked at once,
    # on this first pass (no lap of passes)
    assert H.last_event(g, "round_end")["reason"] == "blocked"
    assert len(H.events(g, "pass")) == 1


def test_b5_draw_whole_boneyard_then_pass():
    """RULES B5 (draw = until_playable): seat 1 draws all 14 tiles, none fits (seat 0
    holds every 6), and with the boneyard empty it passes."""
    g = H.new(deal=[["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"], []])
    step(g, 0, "6-6")
    for _ in range(14):
        assert H.legal(g) == ["draw"]
        step(g, 1, "draw")
    assert g.view(None)["boneyard"] == 0
    assert g.view(None)["hand_sizes"] == [6, 21]
    assert H.legal(g) == ["pass"]
    step(g, 1, "pass")
    assert g.current_seat == 0


# ---------------------------------------------------------------------------
# B6 End of a hand
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "removed,expected",
    [
        (["4-4", "4-3", "3-0"], 25),  # 27 -> 25
        (["4-4", "4-2", "3-0"], 30),  # 28 -> 30
        (["4-4", "4-3", "4-0"], 25),  # 26 -> 25
        (["4-4", "4-2", "2-0"], 30),  # 29 -> 30
    ],
)
def test_b6_domino_rounded_to_nearest_five(removed, expected):
    """RULES B6 (Domino): the player who plays their last tile scores the opponent's
    pips rounded to the nearest 5, remainder 1-2 down, 3-4 up (27->25, 28->30)."""
    hands, boneyard_top, seat1_pips = domino_deal(removed)
    assert H.round5(seat1_pips) == expected
    g = H.new(deal=hands, boneyard_top=boneyard_top, draw="none")
    play_domino_script(g)
    assert g.scores == [expected, 0]
    assert g.round == 2
    end = H.last_event(g, "round_end")
    assert end["reason"] == "domino"
    assert end["seat"] == 0
    assert end["round"] == 1
    assert end["pips"] == [0, seat1_pips]
    assert end["points"] == [expected, 0]
    assert end["scores"] == [expected, 0]
    assert sorted(H.norm(t) for t in end["hands"][1]) == sorted(hands[1])
    assert end["hands"][0] == []


def test_b6_domino_teams_partner_pips_not_counted():
    """RULES B6 + B1 (teams = true, hand_size 5): seat 0 dominoes; the opponents hold
    6-6 and 5-5 (22 -> 20), the partner's 6-5 is not counted.  Counts during the hand
    gave team 0-2 three times 10; team 0-2 ends with 30 + 20 = 50 on both seats."""
    hands = [
        ["6-0", "4-3", "4-2", "5-3", "3-0"],
        ["1-0", "5-4", "6-4", "5-1", "6-6"],
        ["2-1", "5-0", "6-1", "4-1", "6-5"],
        ["3-2", "2-0", "3-1", "4-0", "5-5"],
    ]
    boneyard = ["5-2", "6-2", "6-3", "0-0", "1-1", "2-2", "3-3", "4-4"]
    g = H.new(deal=hands, boneyard_top=boneyard, teams=True, hand_size=5)
    script = ["6-0", "1-0>R", "2-1>R", "3-2>R", "4-3>R", "5-4>R", "5-0>R", "2-0>R",
              "4-2>R", "6-4>R", "6-1>R", "3-1>R", "5-3>R", "5-1>R", "4-1>R", "4-0>R",
              "3-0>R"]
    counts = [6, 7, 8, 9, 10, 11, 6, 8, 10, 12, 7, 9, 11, 7, 10, 6, 9]
    for i, (a, c) in enumerate(zip(script, counts)):
        step(g, i % 4, a)
        if i < len(script) - 1:
            assert H.count(g) == c, (a, H.count(g), c)
            assert H.last_event(g, "play")["points"] == (c if c % 5 == 0 else 0)
    assert g.scores == [50, 0, 50, 0]
    end = H.last_event(g, "round_end")
    assert end["reason"] == "domino" and end["seat"] == 0
    assert end["pips"] == [0, 12, 11, 10]


def test_b6_block_won_by_lowest_team():
    """RULES B6 (Block) + B1 teams: after the block team 1-3 holds 49 pips, team 0-2
    holds 77; the lowest team scores the opponents' 77 rounded to 75 (plus its 5 from a
    count) -> [0, 80, 0, 80]."""
    rest = {0: ["3-3", "4-4", "5-5", "6-6"], 1: ["1-1", "2-2", "3-1", "4-1"],
            2: ["5-2", "6-2", "5-3", "6-3", "5-4"], 3: ["3-2", "5-1", "4-2", "6-1", "6-4"]}
    g = H.new(deal=block_deal(rest), teams=True)
    play_block_script(g)
    assert g.round == 2
    end = H.last_event(g, "round_end")
    assert end["reason"] == "blocked"
    assert end["pips"] == [36, 15, 41, 34]
    assert g.scores == [0, 80, 0, 80]


def test_b6_block_tie_nobody_scores():
    """RULES B6 (block_tie = nobody, default): seats 1 and 3 tie for fewest (23 pips);
    nobody scores for the block; only seat 3's count of 5 remains."""
    g = H.new(deal=block_deal(TIE_REST))
    play_block_script(g)
    end = H.last_event(g, "round_end")
    assert end["reason"] == "blocked"
    assert end["pips"] == [36, 23, 44, 23]
    assert g.scores == [0, 0, 0, 5]


def test_b6_block_tie_all_tied_share():
    """RULES B6 (block_tie = all_tied_share): seats 1 and 3 tie for fewest (23 each);
    they share the others' 36 + 44 = 80 pips, 40 each (seat 3 also has 5 from a count).
    (Reading of 'share' as in A11: the non-tied pips split equally.)"""
    g = H.new(deal=block_deal(TIE_REST), block_tie="all_tied_share")
    play_block_script(g)
    end = H.last_event(g, "round_end")
    assert end["pips"] == [36, 23, 44, 23]
    assert g.scores == [0, 40, 0, 45]


def test_b6_block_single_lowest_player_scores_all_opponents():
    """RULES B6 (Block, no teams): the single lowest player scores all the others'
    pips rounded: pips [36, 15, 41, 34] -> seat 1 scores 36 + 41 + 34 = 111 -> 110."""
    rest = {0: ["3-3", "4-4", "5-5", "6-6"], 1: ["1-1", "2-2", "3-1", "4-1"],
            2: ["5-2", "6-2", "5-3", "6-3", "5-4"], 3: ["3-2", "5-1", "4-2", "6-1", "6-4"]}
    g = H.new(deal=block_deal(rest))
    play_block_script(g)
    assert g.scores == [0, 110, 0, 5]


# ---------------------------------------------------------------------------
# B7 End of the game
# ---------------------------------------------------------------------------

def _run_until_cross(g, target):
    """First-legal play until some score reaches target; returns (crossed_while_running)."""
    steps = 0
    while not g.is_over:
        g.apply(g.legal_actions()[0])
        steps += 1
        assert steps < 20000
        if max(g.scores) >= target:
            return True
    return False


def test_b7_end_immediately_mid_hand():
    """RULES B7 (end_at = immediately, target 250): the game ends at the play that
    reaches 250, in the middle of a hand: is_over at once, winners set, no current seat."""
    found = False
    for seed in range(40):
        g = dominohall.new_game("all_fives", players=2, seed=seed)
        steps = 0
        while not g.is_over:
            before = list(g.scores)
            assert max(before) < 250
            g.apply(g.legal_actions()[0])
            steps += 1
            assert steps < 20000
            if max(g.scores) >= 250:
                assert g.is_over, "score reached 250 but the game goes on"
        assert max(g.scores) >= 250
        assert g.current_seat is None
        assert g.legal_actions() == []
        assert g.winners == [s for s in range(2) if g.scores[s] >= 250]
        v = g.view(None)
        lg = v["log"]
        assert lg[-1]["type"] == "game_end"
        assert lg[-1]["winners"] == g.winners
        last_play = max(i for i, e in enumerate(lg) if e["type"] == "play")
        # mid-hand: nobody went out and the hand was not blocked (a round_end event
        # that only records the interrupted hand is fine)
        mid_hand = min(v["hand_sizes"]) > 0 and all(
            not (e["type"] == "round_end" and e.get("reason") in ("domino", "blocked"))
            for e in lg[last_play:]
        )
        if mid_hand:
            assert lg[last_play]["points"] > 0
            with pytest.raises(dominohall.IllegalAction):
                g.apply("pass")
            found = True
            break
    assert found, "no seed ended the game in the middle of a hand"


def test_b7_end_of_hand():
    """RULES B7 (end_at = end_of_hand): a score reaching 250 in the middle of a hand
    does not end the game; it ends when that hand ends, highest score wins."""
    found = False
    for seed in range(40):
        g = dominohall.new_game("all_fives", players=2, seed=seed,
                                options={"end_at": "end_of_hand"})
        _run_until_cross(g, 250)
        if g.is_over:
            continue  # reached at the end of a hand; try another seed
        r = g.round
        steps = 0
        while not g.is_over:
            g.apply(g.legal_actions()[0])
            steps += 1
            assert steps < 500
            assert g.round == r, "a new hand was dealt after the target was reached"
        lg = g.view(None)["log"]
        assert lg[-1]["type"] == "game_end"
        assert any(e["type"] == "round_end" and e["round"] == r
                   and e["reason"] in ("domino", "blocked") for e in lg)
        assert g.current_seat is None
        best = max(g.scores)
        assert g.winners == [s for s in range(2) if g.scores[s] == best]
        found = True
        break
    assert found


@pytest.mark.parametrize("target", [100, 150, 200])
def test_b7_target_values(target):
    """RULES B7 (target = 250 | 100 | 150 | 200 | 500): the game ends as soon as a
    score reaches the target."""
    g = dominohall.new_game("all_fives", players=3, seed=4, options={"target": target})
    assert g.options.as_dict()["target"] == target

    def check(gg):
        if not gg.is_over:
            assert max(gg.scores) < target

    H.run_first_legal(g, on_step=check)
    assert max(g.scores) >= target
    assert g.winners == [s for s in range(3) if g.scores[s] >= target]


def test_b7_target_500_accepted():
    """RULES B7: target 500 is a valid value."""
    g = dominohall.new_game("all_fives", players=2, seed=4, options={"target": 500})
    assert g.options.as_dict()["target"] == 500


def test_b7_hands_1_single_hand():
    """RULES B7 (hands = 1): the match is exactly one hand; after the domino the game
    is over, the highest score wins, no new deal."""
    hands, boneyard_top, _ = domino_deal(["4-4", "4-3", "3-0"])
    g = H.new(deal=hands, boneyard_top=boneyard_top, draw="none", hands=1)
    play_domino_script(g)
    assert g.is_over
    assert g.round == 1
    assert g.current_seat is None
    assert g.scores == [25, 0]
    assert g.winners == [0]
    assert g.legal_actions() == []
    assert H.log(g)[-1]["type"] == "game_end"
    assert len(H.events(g, "deal")) == 1


def test_b7_hands_n_exact_whatever_the_scores():
    """RULES B7 (hands = N): exactly N hands whatever the scores (target 100 is passed
    long before 12 hands end); the highest score wins, ties share."""
    g = dominohall.new_game("all_fives", players=2, seed=8, options={"hands": 12, "target": 100})
    H.run_first_legal(g)
    ends = H.events(g, "round_end")
    assert len(ends) == 12
    assert g.round == 12
    assert max(g.scores) > 100
    best = max(g.scores)
    assert g.winners == [s for s in range(2) if g.scores[s] == best]


def test_b7_hands_0_goes_on_to_target():
    """RULES B7 (hands = 0, default): after a hand the match continues (hand 2 dealt)."""
    hands, boneyard_top, _ = domino_deal(["4-4", "4-3", "3-0"])
    g = H.new(deal=hands, boneyard_top=boneyard_top, draw="none", hands=0)
    play_domino_script(g)
    assert not g.is_over
    assert g.round == 2
    assert g.winners == []
    assert len(H.events(g, "deal")) == 2


# ---------------------------------------------------------------------------
# B8 The plain games
# ---------------------------------------------------------------------------

def test_b8_draw_game_defaults():
    """RULES B8 (Draw): spinner none, drawing as B5, target 100."""
    g = dominohall.new_game("draw", players=2, seed=1)
    d = g.options.as_dict()
    assert d["spinner"] == "none"
    assert d["target"] == 100
    assert d["draw"] == "until_playable"


def test_b8_block_game_defaults():
    """RULES B8 (Block): as Draw with draw = none, target 100."""
    g = dominohall.new_game("block", players=2, seed=1)
    d = g.options.as_dict()
    assert d["spinner"] == "none"
    assert d["target"] == 100
    assert d["draw"] == "none"


def test_b8_draw_game_no_count_scoring_no_spinner():
    """RULES B8 (Draw): no count scoring (5-5 lead and 15 counts score 0), a line with
    two ends (no U/D), and the B5 drawing."""
    g = H.new(game="draw", deal=[["5-5", "5-4"], ["5-0", "6-3"]])
    step(g, 0, "5-5")  # All Fives would score 10
    step(g, 1, "5-0>L")  # 0 + crosswise 5-5 = 10
    step(g, 0, "5-4>R")
    assert g.scores == [0, 0]
    assert all(e["points"] == 0 for e in H.events(g, "play"))
    assert H.end_ids(g) == {"L", "R"}
    assert H.targets(g) <= {"L", "R"}


def test_b8_draw_game_draws():
    """RULES B8 (Draw) + B5: a player without a play draws until a tile fits."""
    g = H.new(game="draw", deal=[DRAW_SEAT0, DRAW_SEAT1], boneyard_top=DRAW_BONEYARD)
    step(g, 0, "6-6")
    for _ in range(3):
        step(g, 1, "draw")
    step(g, 1, "draw")
    step(g, 1, "6-2>L")
    assert g.scores == [0, 0]


def test_b8_block_game_domino_unrounded():
    """RULES B8 (Block: round_to = 1): the domino scores the opponent's 27 pips exactly."""
    hands, boneyard_top, pips1 = domino_deal(["4-4", "4-3", "3-0"])
    assert pips1 == 27
    g = H.new(game="block", deal=hands, boneyard_top=boneyard_top)
    play_domino_script(g)
    assert g.scores == [27, 0]
    end = H.last_event(g, "round_end")
    assert end["reason"] == "domino" and end["pips"] == [0, 27]


def test_b8_block_game_block_unrounded():
    """RULES B8 (Block) + B6: the lowest player after a block scores the others' pips
    unrounded: [36, 15, 41, 34] -> seat 1 scores 111."""
    rest = {0: ["3-3", "4-4", "5-5", "6-6"], 1: ["1-1", "2-2", "3-1", "4-1"],
            2: ["5-2", "6-2", "5-3", "6-3", "5-4"], 3: ["3-2", "5-1", "4-2", "6-1", "6-4"]}
    g = H.new(game="block", deal=block_deal(rest))
    for seat, a in BLOCK_SCRIPT:
        step(g, seat, a)
    play_until_hand_ends(g)
    assert g.scores == [0, 111, 0, 0]


def _check_plain_round_ends(g):
    for e in H.events(g, "round_end"):
        p = e["pips"]
        if e["reason"] == "domino":
            w = e["seat"]
            assert p[w] == 0
            assert e["points"][w] == sum(p) - p[w]
        else:
            low = min(p)
            tied = [s for s in range(len(p)) if p[s] == low]
            if len(tied) == 1:
                assert e["points"][tied[0]] == sum(p) - low
            else:
                assert all(x == 0 for x in e["points"])


@pytest.mark.parametrize("game", ["draw", "block"])
def test_b8_plain_games_unrounded_to_target_100(game):
    """RULES B8: Draw and Block score only at the end of a hand (B6 unrounded,
    round_to 1) and end at target 100; Block never offers a draw."""
    g = dominohall.new_game(game, players=2, seed=6)

    def check(gg):
        if game == "block":
            assert "draw" not in H.legal(gg)
        if not gg.is_over:
            assert max(gg.scores) < 100

    H.run_first_legal(g, on_step=check)
    assert max(g.scores) >= 100
    _check_plain_round_ends(g)


def test_b8_block_two_players_openspiel_shape():
    """RULES B8: Block with 2 players, 7 tiles each and hands = 1 is a single deal."""
    g = dominohall.new_game("block", players=2, seed=9, options={"hands": 1})
    assert g.view(None)["hand_sizes"] == [7, 7]
    H.run_first_legal(g)
    assert len(H.events(g, "round_end")) == 1
    assert g.round == 1
    _check_plain_round_ends(g)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

def test_illegal_actions_raise_and_leave_state_unchanged():
    """RULES B3/B5 + API: illegal or malformed actions raise IllegalAction and leave the
    state (views and record) unchanged."""
    g = H.new(deal=[["6-6", "6-2"], ["6-3", "5-4"]])
    step(g, 0, "6-6")
    before = (g.view(None), g.view(0), g.view(1), g.to_record(), list(g.scores), g.current_seat)
    bad = [
        "5-4>L",   # does not match the open end
        "6-3>U",   # spinner arm not open yet
        "6-2>L",   # not in seat 1's hand
        "draw",    # must play
        "pass",    # must play
        "hello",   # malformed
        "6-7>L",   # no such tile
        "6-3>X",   # no such end
        "6-3>U2",  # no second spinner
    ]
    for a in bad:
        with pytest.raises(dominohall.IllegalAction):
            g.apply(a)
        with pytest.raises(dominohall.IllegalAction):
            g.apply(a, seat=1)
        after = (g.view(None), g.view(0), g.view(1), g.to_record(), list(g.scores),
                 g.current_seat)
        assert after == before, a
    step(g, 1, "6-3>L")


def test_not_your_turn():
    """API + RULES (play passes clockwise): a wrong seat raises NotYourTurn, a subclass of
    IllegalAction, and nothing changes."""
    assert issubclass(dominohall.NotYourTurn, dominohall.IllegalAction)
    g = H.new(deal=[["6-6"], ["6-3"]], leader=0)
    rec = g.to_record()
    with pytest.raises(dominohall.NotYourTurn):
        g.apply("6-3", seat=1)
    assert g.to_record() == rec
    step(g, 0, "6-6")
    rec = g.to_record()
    with pytest.raises(dominohall.NotYourTurn):
        g.apply("6-2>L", seat=0)
    assert g.to_record() == rec
    assert g.current_seat == 1


@pytest.mark.parametrize(
    "options,field",
    [
        ({"no_such_option": 1}, "no_such_option"),
        ({"spinner": "sometimes"}, "spinner"),
        ({"draw": "two"}, "draw"),
        ({"block_tie": "leader"}, "block_tie"),
        ({"next_leader": "loser"}, "next_leader"),
        ({"end_at": "never"}, "end_at"),
        ({"target": -5}, "target"),
        ({"target": "high"}, "target"),
        ({"hand_size": 8}, "hand_size"),  # 4 x 8 = 32 > 28 tiles
        ({"hand_size": 0}, "hand_size"),
        ({"boneyard_reserve": -1}, "boneyard_reserve"),
        ({"next_leader": 1}, "next_leader"),
        ({"hands": -1}, "hands"),
        ({"must_play": "maybe"}, "must_play"),
        ({"fives_and_threes": "maybe"}, "fives_and_threes"),
        ({"spinner_sides_after_ends": "maybe"}, "spinner_sides_after_ends"),
        ({"teams": "maybe"}, "teams"),
        ({"set_max": 8}, "set_max"),
    ],
)
def test_bad_options(options, field):
    """RULES B1-B8 / API: unknown names and bad values raise BadOption naming the field."""
    with pytest.raises(dominohall.BadOption) as ei:
        dominohall.new_game("all_fives", players=4, seed=1, options=options)
    assert field in str(ei.value)


def test_replay_of_a_stacked_game():
    """API: to_record/replay reproduce a stacked line game exactly."""
    g = draw_game()
    step(g, 0, "6-6")
    step(g, 1, "draw")
    g2 = dominohall.replay(g.to_record())
    assert g2.view(None) == g.view(None)
    assert g2.view(1) == g.view(1)


@pytest.mark.parametrize(
    "options,field",
    [
        ({"target": 300}, "target"),
        ({"hand_size": 6}, "hand_size"),
        ({"boneyard_reserve": 3}, "boneyard_reserve"),
    ],
)
def test_bad_options_outside_listed_values(options, field):
    """RULES B2 (hand_size = 7 | 5), B5 (boneyard_reserve = 0 | 2), B7 (target = 250 |
    100 | 150 | 200 | 500): values outside the listed ones are bad values (BadOption)."""
    with pytest.raises(dominohall.BadOption) as ei:
        dominohall.new_game("all_fives", players=2, seed=1, options=options)
    assert field in str(ei.value)
