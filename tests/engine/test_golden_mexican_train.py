"""Hand-made golden tests for Mexican Train, written from docs/rules.md Part A
and docs/engine-api.md (public API only).

Unless a test says otherwise the deck is a double-6 set (set_max=6) with the
engine set aside, so round 1's engine is 6-6 and seat 0 plays first; hands and
the top of the boneyard are stacked so that every tile can be reasoned about.
The 27 tiles of a double-6 set without 6-6:

    6-5 6-4 6-3 6-2 6-1 6-0
    5-5 5-4 5-3 5-2 5-1 5-0
    4-4 4-3 4-2 4-1 4-0
    3-3 3-2 3-1 3-0
    2-2 2-1 2-0
    1-1 1-0
    0-0
"""

from __future__ import annotations

import json

import pytest
from mt_helpers import (
    BLOCK_LEFT,
    blocked_game,
    events,
    full_set,
    hand,
    last_event,
    legal,
    pips,
    play,
    snapshot,
    stacked,
    tile,
    train_tiles,
    trains,
)

import dominohall


def new(players=2, seed=0, **options):
    return dominohall.new_game("mexican_train", players=players, seed=seed, options=options)


# --------------------------------------------------------------------------- A1
@pytest.mark.parametrize(
    "set_max, players, hand_size",
    [(12, 4, "table"), (6, 2, 7), (9, 3, "table"), (15, 4, "table"), (18, 4, "table")],
)
def test_a1_set_max_engine_and_rounds(set_max, players, hand_size):
    """A1/A3/A11: set_max picks the set; round 1's engine is set_max-set_max and a
    match has set_max+1 rounds."""
    g = new(players, set_max=set_max, engine="set_aside", hand_size=hand_size)
    v = g.view(None)
    assert v["engine"] == f"{set_max}-{set_max}"
    assert v["rounds"] == set_max + 1
    total = (set_max + 1) * (set_max + 2) // 2
    assert sum(v["hand_sizes"]) + v["boneyard"] == total - 1  # engine set aside
    assert g.round == 1


def test_a1_default_set_is_double_12():
    """A1: the default set is double-12 (91 tiles) and round 1 uses 12-12."""
    g = new(4, engine="set_aside")
    v = g.view(None)
    assert v["engine"] == "12-12"
    assert v["rounds"] == 13
    assert v["hand_sizes"] == [15, 15, 15, 15]
    assert v["boneyard"] == 90 - 60


def test_a1_hidden_information():
    """A1: each hand is visible only to its owner; counts are public."""
    g = stacked([["6-5", "4-3", "2-2"], ["6-1", "1-0", "5-5"]], first_turn="free")
    v0, v1, spec = g.view(0), g.view(1), g.view(None)
    assert hand(g, 0) == sorted(["6-5", "4-3", "2-2"])
    assert hand(g, 1) == sorted(["6-1", "1-0", "5-5"])
    assert spec["hand"] is None
    for v in (v0, v1, spec):
        assert v["hand_sizes"] == [3, 3]
        assert v["boneyard"] == 27 - 6
    text0 = json.dumps(v0)
    for t in ("6-1", "1-0", "5-5"):
        assert f'"{t}"' not in text0 and f'"{t[::-1]}"' not in text0
    text_spec = json.dumps(spec)
    for t in ("6-5", "4-3", "2-2", "6-1", "1-0", "5-5"):
        assert f'"{t}"' not in text_spec


# --------------------------------------------------------------------------- A2
@pytest.mark.parametrize(
    "players, size",
    [(2, 16), (3, 16), (4, 15), (5, 14), (6, 12), (7, 10), (8, 10), (9, 8), (10, 8)],
)
def test_a2_hand_size_table(players, size):
    """A2: hand_size=table deals 16/16/15/14/12/10/10/8/8 tiles for 2..10 players."""
    g = new(players, engine="set_aside")
    v = g.view(None)
    assert v["hand_sizes"] == [size] * players
    assert v["boneyard"] == 90 - size * players
    for s in range(players):
        assert len(g.view(s)["hand"]) == size


def test_a2_hand_size_explicit():
    """A2: hand_size=N deals N tiles to every player."""
    g = new(3, engine="set_aside", hand_size=5)
    assert g.view(None)["hand_sizes"] == [5, 5, 5]
    assert g.view(None)["boneyard"] == 90 - 15


@pytest.mark.parametrize(
    "players, options",
    [
        (2, {"set_max": 6}),  # table: 2 x 16 = 32 > 28
        (4, {"set_max": 9}),  # table: 4 x 15 = 60 > 55
        (3, {"set_max": 6, "hand_size": 10}),  # 30 > 28
        (5, {"hand_size": 20}),  # 100 > 91
    ],
)
def test_a2_too_many_tiles_rejected(players, options):
    """A2: if the table needs more tiles than the set holds, BadOption."""
    with pytest.raises(dominohall.BadOption):
        new(players, **options)


@pytest.mark.parametrize("players", [1, 11])
def test_a1_player_count_rejected(players):
    """A1: 2 to 10 players."""
    with pytest.raises(dominohall.BadOption):
        new(players)


# --------------------------------------------------------------------------- A3
def test_a3_set_aside_engine_and_first_seat():
    """A3 set_aside: the engine double is never dealt, round 1 starts at seat 0."""
    g = new(3, set_max=6, engine="set_aside", hand_size=5)
    assert g.current_seat == 0
    assert g.view(None)["engine"] == "6-6"
    for s in range(3):
        assert "6-6" not in hand(g, s)
    assert g.view(None)["boneyard"] == 27 - 15


def test_a3_set_aside_stack_must_not_contain_engine():
    """A3 set_aside (API): stacking the round-1 engine into a hand is rejected."""
    hands = [["6-6", "6-5"], ["6-4", "6-3"]]
    rest = [t for t in full_set(6) if t not in {"6-6", "6-5", "6-4", "6-3"}]
    with pytest.raises(dominohall.BadOption) as exc:
        dominohall.new_game(
            "mexican_train",
            players=2,
            seed=0,
            options={"set_max": 6, "engine": "set_aside", "hand_size": 2},
            hands=hands,
            boneyard=rest,
        )
    assert "hands" in str(exc.value) or "boneyard" in str(exc.value)


def test_a3_stack_wrong_hand_length_rejected():
    """A2 (API): stacked hands must have the resolved hand_size."""
    with pytest.raises(dominohall.BadOption) as exc:
        stacked([["6-5", "6-4"], ["6-3"]], hand_size=2)
    assert "hands" in str(exc.value)


def test_a3_holder_places_engine_left_plays_first():
    """A3 holder: the holder of 6-6 places it (not a turn); the seat to their left starts."""
    g = stacked(
        [["6-5", "5-4", "4-3", "3-2"], ["6-6", "2-1", "1-0", "0-0"], ["6-1", "5-5", "4-4", "3-3"]],
        engine="holder",
    )
    assert g.current_seat == 2
    v = g.view(None)
    assert v["engine"] == "6-6"
    assert v["hand_sizes"] == [4, 3, 4]
    assert v["version"] == 0
    eng = last_event(g, "engine")
    assert eng["seat"] == 1 and tile(eng["tile"]) == "6-6"
    assert not [e for e in events(g, None, "draw") if e.get("search")]
    assert "6-6" not in hand(g, 1)


def test_a3_holder_search_by_drawing():
    """A3 holder: nobody holds 6-6, so seats 0, 1, ... draw in turn until it turns up;
    the draws stay in hand and the seat left of the finder plays first."""
    g = stacked(
        [["6-5", "5-4", "4-3", "3-2"], ["2-1", "1-0", "0-0", "6-1"], ["5-5", "4-4", "3-3", "2-2"]],
        top=["5-1", "6-6", "4-0"],
        engine="holder",
    )
    # seat 0 draws 5-1, seat 1 draws 6-6 and places it; seat 2 starts
    assert g.current_seat == 2
    v = g.view(None)
    assert v["hand_sizes"] == [5, 4, 4]
    assert v["boneyard"] == 28 - 12 - 2
    assert v["version"] == 0
    assert "5-1" in hand(g, 0)
    assert "6-6" not in hand(g, 1)
    search = [e for e in events(g, None, "draw") if e.get("search")]
    assert [e["seat"] for e in search] == [0, 1]
    eng = last_event(g, "engine")
    assert eng["seat"] == 1 and tile(eng["tile"]) == "6-6"
    # the drawn tile is shown only to its drawer
    own = [e for e in events(g, 0, "draw") if e.get("search") and e["seat"] == 0]
    assert own and tile(own[0]["tile"]) == "5-1"
    other = [e for e in events(g, 2, "draw") if e.get("search") and e["seat"] == 0]
    assert other and other[0].get("tile") is None


def test_a3_holder_round_two_engine_and_start():
    """A3 holder, round 2: the engine is 5-5; it is placed by its holder (or found by a
    search starting at seat (r-1) mod n = 1) and the seat to the placer's left starts."""
    g = stacked(
        [["6-3", "3-2", "2-1"], ["6-6", "6-1", "5-4"]],
        top=["0-0"],
        engine="holder",
        first_turn="free",
        hand_size=3,
    )
    assert g.current_seat == 0
    play(g, "6-3>t0", "6-1>t1", "3-2>t0")
    # seat 1 holds only 5-4: no play, draws 0-0, passes
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert legal(g) == {"pass"}
    play(g, "pass", "2-1>t0")  # seat 0 goes out
    assert g.round == 2
    assert g.view(None)["engine"] == "5-5"
    log = g.view(None)["log"]
    deal_idx = max(i for i, e in enumerate(log) if e["type"] == "deal")
    after = log[deal_idx:]
    eng = [e for e in after if e["type"] == "engine"]
    assert len(eng) == 1 and tile(eng[0]["tile"]) == "5-5"
    search = [e["seat"] for e in after if e["type"] == "draw" and e.get("search")]
    if search:
        assert search == [(1 + k) % 2 for k in range(len(search))]
        assert search[-1] == eng[0]["seat"]
    assert g.current_seat == (eng[0]["seat"] + 1) % 2


# --------------------------------------------------------------------------- A4
def test_a4_initial_trains():
    """A4: one personal train per seat plus the Mexican train, all open at the engine's
    number, no markers, nothing started."""
    g = new(3, set_max=6, engine="set_aside", hand_size=5)
    v = g.view(None)
    assert [t["id"] for t in v["trains"]] == ["t0", "t1", "t2", "mx"]
    assert [t["owner"] for t in v["trains"]] == [0, 1, 2, None]
    for t in v["trains"]:
        assert t["tiles"] == []
        assert t["open_end"] == 6
        assert t["started"] is False
        if t["owner"] is not None:  # markers belong to personal trains (A4)
            assert t["marker"] is False
    assert v["owed"] == []


def test_a4_mexican_train_started_and_open_to_all():
    """A4: the Mexican train exists once a tile matching the engine starts it; from then
    on every player may play on it. A train only accepts a matching half."""
    g = stacked([["6-2", "5-5", "4-4"], ["6-1", "2-0", "3-3"]], first_turn="free")
    with pytest.raises(dominohall.IllegalAction):
        g.apply("5-5>mx")  # does not match the engine
    play(g, "6-2>mx")
    mx = trains(g)["mx"]
    assert mx["started"] is True and mx["open_end"] == 2
    assert train_tiles(g, "mx") == ["6-2"]
    assert g.current_seat == 1
    assert legal(g) == {"6-1>t1", "2-0>mx"}


# --------------------------------------------------------------------------- A5
def test_a5_first_turn_chain_then_end():
    """A5 chain: first turn only on one's own train, a chain of matching tiles, `end`
    legal only after the first tile; the next seat is also confined to its own train."""
    g = stacked(
        [["6-5", "5-4", "4-2", "2-0", "6-1"], ["6-3", "3-1", "5-5", "4-4", "1-1"]],
    )
    assert legal(g) == {"6-5>t0", "6-1>t0"}
    play(g, "6-5>t0")
    assert g.current_seat == 0
    assert legal(g) == {"5-4>t0", "end"}
    play(g, "5-4>t0")
    assert legal(g) == {"4-2>t0", "end"}
    play(g, "end")
    assert g.current_seat == 1
    assert train_tiles(g, "t0") == ["6-5", "5-4"]
    assert trains(g)["t0"]["open_end"] == 4
    assert g.view(None)["hand_sizes"] == [3, 5]
    assert last_event(g, "end")["seat"] == 0
    # seat 1's first turn: own train only (not the Mexican train)
    assert legal(g) == {"6-3>t1"}
    with pytest.raises(dominohall.IllegalAction):
        g.apply("6-3>mx")


def test_a5_chain_double_in_middle_is_covered():
    """A5: a double in the middle of a first-turn chain is covered by the next tile."""
    g = stacked([["6-5", "5-5", "5-3", "3-1"], ["6-2", "2-1", "4-4", "0-0"]])
    play(g, "6-5>t0", "5-5>t0")
    assert g.current_seat == 0
    assert legal(g) == {"5-3>t0", "end"}
    play(g, "5-3>t0", "end")
    assert g.view(None)["owed"] == []
    assert train_tiles(g, "t0") == ["6-5", "5-5", "5-3"]


def test_a5_first_turn_single():
    """A5 single: the first turn is exactly one tile on one's own train."""
    g = stacked([["6-5", "5-4", "4-4"], ["6-1", "1-0", "3-3"]], first_turn="single")
    assert legal(g) == {"6-5>t0"}
    play(g, "6-5>t0")
    assert g.current_seat == 1  # 5-4 would fit, but the turn is over
    assert legal(g) == {"6-1>t1"}
    play(g, "6-1>t1")
    assert g.current_seat == 0


def test_a5_first_turn_free():
    """A5 free: the first turn is a normal turn and may start the Mexican train."""
    g = stacked([["6-5", "5-4", "4-4"], ["6-1", "5-0", "3-3"]], first_turn="free")
    assert legal(g) == {"6-5>t0", "6-5>mx"}
    play(g, "6-5>mx")
    assert g.current_seat == 1
    assert trains(g)["mx"]["started"] is True
    assert legal(g) == {"6-1>t1", "5-0>mx"}


def test_a5_first_turn_cannot_start_draws_and_plays():
    """A5/A7: a player who cannot start their own train draws; if the tile fits their own
    train they play it and their first turn ends there."""
    g = stacked([["5-5", "4-4", "3-3"], ["6-1", "6-2", "1-0"]], top=["6-4"])
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert legal(g) == {"6-4>t0"}
    play(g, "6-4>t0")
    assert g.current_seat == 1  # 4-4 would fit now, but the first turn has ended
    assert train_tiles(g, "t0") == ["6-4"]
    assert trains(g)["t0"]["marker"] is False


def test_a5_first_turn_cannot_start_marker_others_start_it_later():
    """A5: if the drawn tile does not fit, a marker goes on the not-yet-started train and
    the player passes; others may start it later (not during their own first chain)."""
    g = stacked([["5-5", "4-4", "3-3"], ["6-1", "6-2", "1-0"]], top=["2-1", "0-0"])
    play(g, "draw")
    assert legal(g) == {"pass"}
    play(g, "pass")
    t0 = trains(g)["t0"]
    assert t0["marker"] is True and t0["started"] is False
    assert last_event(g, "pass")["seat"] == 0
    # seat 1's first turn (chain): own train only, even though t0 is marked
    assert g.current_seat == 1
    assert legal(g) == {"6-1>t1", "6-2>t1"}
    play(g, "6-1>t1")
    assert legal(g) == {"1-0>t1", "end"}
    play(g, "end")
    # seat 0, normal turn: nothing fits; draws 0-0, passes again
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert legal(g) == {"pass"}
    play(g, "pass")
    # seat 1, normal turn: may start seat 0's marked train
    assert legal(g) == {"6-2>t0", "6-2>mx", "1-0>t1"}
    play(g, "6-2>t0")
    assert train_tiles(g, "t0") == ["6-2"]
    assert trains(g)["t0"]["started"] is True


def _double_ending_chain(owed_when):
    # seat 0 ends its first chain on 5-5 while still holding 5-2 (a cover)
    g = stacked(
        [["6-5", "5-5", "5-2", "4-1"], ["6-3", "3-0", "5-1", "2-2"]],
        first_turn_double_owed=owed_when,
    )
    play(g, "6-5>t0", "5-5>t0")
    assert legal(g) == {"5-2>t0", "end"}
    play(g, "end")
    return g


def test_a5_first_turn_double_owed_after_first_turns():
    """A5 first_turn_double_owed=after_first_turns: a double ending a first chain is owed
    only once every player has had a first turn."""
    g = _double_ending_chain("after_first_turns")
    assert g.view(None)["owed"] == []
    assert g.current_seat == 1
    assert legal(g) == {"6-3>t1"}  # seat 1 is not forced onto 5-5
    play(g, "6-3>t1")
    assert legal(g) == {"3-0>t1", "end"}
    play(g, "end")
    assert g.view(None)["owed"] == ["t0"]
    assert g.current_seat == 0
    assert legal(g) == {"5-2>t0"}


def test_a5_first_turn_double_owed_at_once():
    """A5 first_turn_double_owed=at_once: the chain-ending double is owed at once (A8),
    so the next player's only legal plays cover it."""
    g = _double_ending_chain("at_once")
    assert g.view(None)["owed"] == ["t0"]
    assert g.current_seat == 1
    assert legal(g) == {"5-1>t0"}


# --------------------------------------------------------------------------- A6
def _marker_game():
    g = stacked(
        [["6-3", "5-2", "2-2", "5-5"], ["6-1", "1-0", "3-0", "6-4"]],
        top=["1-1", "4-3"],
        first_turn="free",
    )
    play(g, "6-3>t0", "6-1>t1")
    return g


def test_a7_marker_after_failed_draw_removed_by_owner():
    """A7/A4: no play -> draw; a tile that does not fit -> pass puts a marker on one's own
    train; the owner playing on their own train removes it."""
    g = _marker_game()
    assert g.current_seat == 0
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert "1-1" in hand(g, 0)
    assert legal(g) == {"pass"}
    play(g, "pass")
    assert trains(g)["t0"]["marker"] is True
    assert g.current_seat == 1
    play(g, "1-0>t1")
    # seat 0: nothing fits; draws 4-3, which fits t0 and must be played
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert legal(g) == {"4-3>t0"}
    play(g, "4-3>t0")
    assert trains(g)["t0"]["marker"] is False
    assert train_tiles(g, "t0") == ["6-3", "4-3"]
    assert trains(g)["t0"]["open_end"] == 4
    assert g.current_seat == 1


def test_a6_normal_turn_targets():
    """A6: a play goes on one's own train, the Mexican train, or a marked train of another
    player -- never on an unmarked train of another player; one non-double ends the turn."""
    g = _marker_game()
    play(g, "draw", "pass")  # marker on t0
    assert legal(g) == {"1-0>t1", "3-0>t0", "6-4>mx"}
    with pytest.raises(dominohall.IllegalAction):
        g.apply("6-4>t0")  # t0 is open at 3
    play(g, "3-0>t0")
    assert g.current_seat == 0
    assert train_tiles(g, "t0") == ["6-3", "3-0"]


def test_a6_unmarked_train_of_other_player_is_closed():
    """A6/A4: without a marker a personal train is open only to its owner."""
    g = stacked([["6-3", "5-2", "2-2"], ["6-1", "3-0", "4-4"]], first_turn="free")
    play(g, "6-3>t0")
    assert "3-0>t0" not in legal(g)
    with pytest.raises(dominohall.IllegalAction):
        g.apply("3-0>t0")


def test_a6_must_play_true_forbids_drawing():
    """A6 must_play=true: drawing while able to play is illegal."""
    g = stacked([["6-3", "5-5", "4-4"], ["6-1", "1-0", "3-3"]], top=["6-2"], first_turn="free")
    assert "draw" not in legal(g)
    with pytest.raises(dominohall.IllegalAction):
        g.apply("draw")


def test_a6_must_play_false_allows_draw_then_pass():
    """A6/A7 must_play=false: a player may draw although they can play, and after a
    playable draw may still pass (marker on their own train)."""
    g = stacked(
        [["6-3", "5-5", "4-4"], ["6-1", "1-0", "3-3"]],
        top=["6-2"],
        first_turn="free",
        must_play=False,
    )
    assert "draw" in legal(g)
    play(g, "draw")
    assert "6-2" in hand(g, 0)
    assert legal(g) == {"6-2>t0", "6-2>mx", "pass"}
    play(g, "pass")
    assert trains(g)["t0"]["marker"] is True
    assert g.current_seat == 1


# --------------------------------------------------------------------------- A7
def _draw_game(**options):
    g = stacked(
        [["6-5", "4-4", "3-3", "2-2"], ["6-1", "1-1", "0-0", "4-0"]],
        top=["2-1", "1-0", "5-3"],
        first_turn="free",
        **options,
    )
    play(g, "6-5>t0", "6-1>t1")
    return g


def test_a7_draw_one_then_pass():
    """A7 draw_until_playable=false: one draw; if it does not fit, pass (marker)."""
    g = _draw_game()
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert legal(g) == {"pass"}
    assert g.view(None)["hand_sizes"] == [4, 3]
    play(g, "pass")
    assert trains(g)["t0"]["marker"] is True
    assert g.current_seat == 1


def test_a7_draw_until_playable():
    """A7 draw_until_playable=true: keep drawing until a tile fits, then play it."""
    g = _draw_game(draw_until_playable=True)
    for _ in range(5):
        if legal(g) != {"draw"}:
            break
        play(g, "draw")
    assert {"2-1", "1-0", "5-3"} <= set(hand(g, 0))
    assert g.view(None)["hand_sizes"] == [6, 3]
    assert legal(g) == {"5-3>t0"}
    play(g, "5-3>t0")
    assert trains(g)["t0"]["marker"] is False
    assert g.current_seat == 1


# --------------------------------------------------------------------------- A8
def _after_double_game(**options):
    g = stacked(
        [["6-3", "3-3", "3-2", "6-4", "5-1"], ["6-1", "1-0", "4-4", "0-0", "5-5"]],
        first_turn="free",
        **options,
    )
    play(g, "6-3>t0", "6-1>t1", "3-3>t0")
    return g


def test_a8_after_double_anywhere():
    """A8 after_double=anywhere: after a double the same player plays again, on the
    double or on any train open to them; covering ends the turn."""
    g = _after_double_game()
    assert g.current_seat == 0
    assert legal(g) == {"3-2>t0", "6-4>mx"}
    play(g, "3-2>t0")
    assert g.current_seat == 1
    assert g.view(None)["owed"] == []


def test_a8_after_double_on_double():
    """A8 after_double=on_double: the tile after a double must go on that double."""
    g = _after_double_game(after_double="on_double")
    assert g.current_seat == 0
    assert legal(g) == {"3-2>t0"}
    with pytest.raises(dominohall.IllegalAction):
        g.apply("6-4>mx")


def test_a8_on_double_cannot_cover_draws_then_passes():
    """A8 after_double=on_double: a player who cannot cover their own fresh double draws;
    a drawn tile that fits elsewhere but not the double does not help: pass (marker)."""
    g = stacked(
        [["6-3", "3-3", "6-4", "5-1"], ["6-1", "1-0", "4-4", "0-0"]],
        top=["6-2"],
        first_turn="free",
        after_double="on_double",
    )
    play(g, "6-3>t0", "6-1>t1", "3-3>t0")
    assert legal(g) == {"draw"}  # 6-4 could start the Mexican train, but not on_double
    play(g, "draw")
    assert legal(g) == {"pass"}  # 6-2 fits mx only
    play(g, "pass")
    assert trains(g)["t0"]["marker"] is True
    assert g.view(None)["owed"] == ["t0"]
    assert g.current_seat == 1


def test_a7_draw_until_playable_stops_at_empty_boneyard():
    """A7 draw_until_playable=true: drawing stops when the boneyard is empty; then pass."""
    non_six = [t for t in full_set(6) if "6" not in t]
    sixes = [t for t in full_set(6) if "6" in t and t != "6-6"]
    seat0 = non_six[:13]
    top = [non_six[13]]
    seat1 = sixes + non_six[14:]
    g = stacked([seat0, seat1], top=top, first_turn="free", draw_until_playable=True)
    assert g.view(None)["boneyard"] == 1
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert g.view(None)["boneyard"] == 0
    assert legal(g) == {"pass"}
    play(g, "pass")
    assert trains(g)["t0"]["marker"] is True
    assert g.current_seat == 1


def _forced_cover_game():
    g = stacked(
        [
            ["6-3", "3-3", "6-0", "5-5", "4-4"],
            ["6-2", "6-5", "5-4", "2-1", "1-1"],
            ["6-1", "3-1", "5-2", "4-2", "2-2"],
        ],
        top=["2-0"],
        first_turn="free",
    )
    play(g, "6-3>t0", "6-2>t1", "6-1>t2", "3-3>t0")
    return g


def test_a8_uncovered_double_forces_next_players():
    """A8: a double left uncovered on an unmarked personal train must be covered by the
    next player; who cannot, draws, passes (marker) and the one after must cover it."""
    g = _forced_cover_game()
    assert g.current_seat == 0
    assert legal(g) == {"6-0>mx"}  # own fresh double is not owed to its player
    play(g, "6-0>mx")
    assert g.current_seat == 1
    assert g.view(None)["owed"] == ["t0"]
    assert trains(g)["t0"]["marker"] is False
    # seat 1 could play 2-1 on its own train, but must cover 3-3: it cannot
    assert legal(g) == {"draw"}
    with pytest.raises(dominohall.IllegalAction):
        g.apply("2-1>t1")
    play(g, "draw")
    # 2-0 fits t1 and mx but does not cover the double
    assert legal(g) == {"pass"}
    play(g, "pass")
    assert trains(g)["t1"]["marker"] is True
    assert g.view(None)["owed"] == ["t0"]
    # seat 2: 5-2/4-2/2-2 would fit the marked t1, but only the cover is legal
    assert g.current_seat == 2
    assert legal(g) == {"3-1>t0"}
    play(g, "3-1>t0")
    assert g.view(None)["owed"] == []
    assert train_tiles(g, "t0") == ["6-3", "3-3", "3-1"]
    assert trains(g)["t0"]["open_end"] == 1
    assert g.current_seat == 0


def _two_doubles_game(**options):
    g = stacked(
        [["6-0", "6-3", "3-3", "0-0", "5-5", "4-4"], ["6-1", "4-1", "3-2", "5-0", "2-1", "5-2"]],
        top=["5-4", "2-0"],
        first_turn="free",
        **options,
    )
    play(g, "6-0>mx", "6-1>t1", "6-3>t0", "4-1>t1", "3-3>t0")
    return g


def _leave_two_doubles(g):
    assert g.current_seat == 0
    assert legal(g) == {"0-0>mx"}
    play(g, "0-0>mx")
    assert g.current_seat == 0  # a double again: play again
    assert legal(g) == {"draw"}
    play(g, "draw")
    assert legal(g) == {"pass"}  # 5-4 fits nowhere open to seat 0
    play(g, "pass")
    assert g.current_seat == 1


def test_a8_two_doubles_covered_in_played_order():
    """A8 double_order=played: several uncovered doubles are covered in the order they
    were played; a drawn tile that covers the owed double is played on it."""
    g = _two_doubles_game()
    _leave_two_doubles(g)
    assert g.view(None)["owed"] == ["t0", "mx"]
    assert legal(g) == {"3-2>t0"}
    with pytest.raises(dominohall.IllegalAction):
        g.apply("5-0>mx")
    play(g, "3-2>t0")
    assert g.view(None)["owed"] == ["mx"]
    assert g.current_seat == 0
    assert legal(g) == {"draw"}
    play(g, "draw")
    # 2-0 would also fit seat 0's own train (open at 2) but must cover the 0-0
    assert legal(g) == {"2-0>mx"}
    play(g, "2-0>mx")
    assert g.view(None)["owed"] == []
    assert train_tiles(g, "mx") == ["6-0", "0-0", "2-0"]


def test_a8_two_doubles_covered_in_reverse_order():
    """A8 double_order=reverse: the most recently played uncovered double is covered first."""
    g = _two_doubles_game(double_order="reverse")
    _leave_two_doubles(g)
    assert g.view(None)["owed"] == ["mx", "t0"]
    assert legal(g) == {"5-0>mx"}
    play(g, "5-0>mx")
    assert g.view(None)["owed"] == ["t0"]
    assert g.current_seat == 0
    play(g, "draw")
    assert legal(g) == {"pass"}  # 2-0 does not cover 3-3


def test_a8_max_doubles_per_turn_one():
    """A8 max_doubles_per_turn=1: with an uncovered double of this turn, another double
    is not legal."""
    g = _two_doubles_game(max_doubles_per_turn=1)
    assert g.current_seat == 0
    assert "0-0>mx" not in legal(g)
    assert legal(g) == {"draw"}
    with pytest.raises(dominohall.IllegalAction):
        g.apply("0-0>mx")


def test_a8_going_out_on_a_double_ends_round_at_once():
    """A8/A10/A11: a player whose last tile is a double goes out at once; nobody covers it;
    round 2 starts with engine 5-5 at seat 1 (set_aside)."""
    g = stacked([["6-3", "3-3"], ["6-1", "5-0"]], first_turn="free", rounds=2)
    play(g, "6-3>t0", "6-1>t1")
    assert "3-3>t0" in legal(g)
    play(g, "3-3>t0")
    end = last_event(g, "round_end")
    assert end["round"] == 1
    assert end["reason"] == "domino"
    assert end["seat"] == 0
    assert [sorted(tile(t) for t in h) for h in end["hands"]] == [[], ["5-0"]]
    assert end["pips"] == [0, 5]
    assert end["points"] == [0, 5]
    assert end["scores"] == [0, 5]
    assert list(g.scores) == [0, 5]
    assert g.round == 2
    assert not g.is_over
    v = g.view(None)
    assert v["engine"] == "5-5"
    assert v["owed"] == []
    assert all(t["tiles"] == [] for t in v["trains"])
    assert not any(t["marker"] for t in v["trains"] if t["owner"] is not None)
    assert g.current_seat == 1


# --------------------------------------------------------------------------- A9
def test_a9_last_tile_announced_in_every_log():
    """A9: a player down to one tile is announced by a last_tile event in every seat's log;
    it is never an action."""
    g = stacked(
        [["6-3", "3-1", "5-5"], ["6-1", "5-4", "4-4"], ["6-2", "2-2", "0-0"]],
        first_turn="free",
    )
    play(g, "6-3>t0", "6-1>t1", "6-2>t2")
    for s in range(3):
        assert events(g, s, "last_tile") == []
    assert not any("last" in a for a in legal(g))
    play(g, "3-1>t0")  # seat 0 down to 5-5
    for s in range(3):
        ann = events(g, s, "last_tile")
        assert [e["seat"] for e in ann] == [0]
    assert [e["seat"] for e in events(g, None, "last_tile")] == [0]
    assert g.view(None)["version"] == 4  # no extra action was needed


# --------------------------------------------------------------------------- A10/A11
def _three_player_domino(**options):
    g = stacked(
        [["6-3", "3-1"], ["6-2", "5-4"], ["6-1", "0-0"]],
        first_turn="free",
        rounds=1,
        **options,
    )
    play(g, "6-3>t0", "6-2>t1", "6-1>t2", "3-1>t0")
    return g


@pytest.mark.parametrize("blank, winners", [(0, [0, 2]), (25, [0]), (50, [0])])
def test_a11_penalty_and_double_blank(blank, winners):
    """A11 penalty: each player adds their pips, the one who went out 0; a 0-0 left in hand
    counts double_blank (0/25/50); lowest total wins, equal totals share the win."""
    g = _three_player_domino(double_blank=blank)
    end = last_event(g, "round_end")
    assert end["reason"] == "domino" and end["seat"] == 0
    assert end["points"] == [0, 9, blank]
    assert list(g.scores) == [0, 9, blank]
    assert g.is_over
    assert g.current_seat is None
    assert sorted(g.winners) == winners
    ge = last_event(g, "game_end")
    assert ge["scores"] == [0, 9, blank]
    assert sorted(ge["winners"]) == winners


def test_a11_positive_after_domino():
    """A11 positive: the player who goes out scores everyone else's pips; highest wins."""
    g = stacked(
        [["6-3", "3-1"], ["6-2", "5-4"], ["6-1", "4-4"]],
        first_turn="free",
        rounds=1,
        scoring="positive",
    )
    play(g, "6-3>t0", "6-2>t1", "6-1>t2", "3-1>t0")
    assert list(g.scores) == [9 + 8, 0, 0]
    assert last_event(g, "round_end")["points"] == [17, 0, 0]
    assert g.winners == [0]


# The blocked deal: 3 x 9 tiles, empty boneyard. Each seat lays an 8-tile first chain.
# Seat 0's chain ends on an uncovered 0-0 and every 0-tile is then on the table, so once
# the first turns are over (the double becomes owed) nobody can play: all pass.
def test_a10_blocked_round_penalty():
    """A10/A11: boneyard empty and nobody can play any more (the owed 0-0 binds everyone
    and every 0 is on the table) -> the round is blocked on the first pass; penalty
    scoring adds everyone's pips."""
    g = blocked_game()
    assert g.current_seat == 0
    assert legal(g) == {"pass"}  # empty boneyard: no draw
    assert events(g, None, "round_end") == []
    play(g, "pass")
    end = last_event(g, "round_end")
    assert end["reason"] == "blocked"
    assert end["seat"] is None
    assert [[tile(t) for t in h] for h in end["hands"]] == [[t] for t in BLOCK_LEFT]
    assert end["pips"] == [9, 4, 4]
    assert end["points"] == [9, 4, 4]
    assert list(g.scores) == [9, 4, 4]
    assert g.is_over
    assert sorted(g.winners) == [1, 2]


def test_a11_positive_after_block_shares_with_integer_division():
    """A11 positive after a block: the players with the fewest pips share the others'
    pips equally, remainder dropped (9 // 2 = 4 each)."""
    g = blocked_game(scoring="positive")
    play(g, "pass")
    end = last_event(g, "round_end")
    assert end["reason"] == "blocked"
    assert end["points"] == [0, 4, 4]
    assert list(g.scores) == [0, 4, 4]
    assert sorted(g.winners) == [1, 2]


def test_a9_last_tile_in_block_deal():
    """A9: every seat that gets down to one tile is announced, to every seat."""
    g = blocked_game()
    for s in (0, 1, 2, None):
        assert sorted(e["seat"] for e in events(g, s, "last_tile")) == [0, 1, 2]


@pytest.mark.parametrize("seed", [5, 1, 2, 3])
def test_a11_penalty_totals_over_rounds(seed):
    """A11/A3: over a whole (random, holder-engine) match, round_end pips are the hands'
    pips, penalty points equal pips, totals accumulate, lowest total wins; each round's
    engine is set_max-r+1 and the seat left of its placer starts."""
    g = new(3, seed=seed, set_max=6, hand_size=5, rounds=3)
    assert g.view(None)["rounds"] == 3
    totals = [0, 0, 0]
    seen_round = 0
    for _ in range(3000):
        if g.is_over:
            break
        if g.round != seen_round:
            seen_round = g.round
            log = g.view(None)["log"]
            deal_idx = max(i for i, e in enumerate(log) if e["type"] == "deal")
            eng = [e for e in log[deal_idx:] if e["type"] == "engine"]
            assert len(eng) == 1
            r = seen_round
            assert tile(eng[0]["tile"]) == f"{7 - r}-{7 - r}"
            search = [e["seat"] for e in log[deal_idx:] if e["type"] == "draw" and e.get("search")]
            if search:
                assert search == [(r - 1 + k) % 3 for k in range(len(search))]
                assert search[-1] == eng[0]["seat"]
            assert g.current_seat == (eng[0]["seat"] + 1) % 3
        g.apply(g.legal_actions()[0])
    assert g.is_over
    ends = events(g, None, "round_end")
    assert [e["round"] for e in ends] == [1, 2, 3]
    for e in ends:
        hp = [sum(pips(tile(t)) for t in h) for h in e["hands"]]
        assert e["pips"] == hp
        assert e["points"] == hp
        if e["reason"] == "domino":
            assert e["hands"][e["seat"]] == []
        totals = [a + b for a, b in zip(totals, e["points"])]
        assert e["scores"] == totals
    assert list(g.scores) == totals
    assert sorted(g.winners) == [s for s in range(3) if totals[s] == min(totals)]
    assert g.current_seat is None


# --------------------------------------------------------------------------- rounds / presets
def test_a11_rounds_option():
    """A11: `rounds` may be set lower; the match ends after that many rounds."""
    g = stacked([["6-3", "3-3"], ["6-1", "5-0"]], first_turn="free", rounds=1)
    assert g.view(None)["rounds"] == 1
    play(g, "6-3>t0", "6-1>t1", "3-3>t0")
    assert g.is_over
    assert g.round == 1
    assert g.winners == [0]
    assert g.legal_actions() == []


@pytest.mark.parametrize("rounds", [0, 8])
def test_a11_rounds_out_of_range_rejected(rounds):
    """A11: rounds must be 1..set_max+1 (no engine double below 0-0)."""
    with pytest.raises(dominohall.BadOption) as exc:
        new(2, set_max=6, hand_size=5, rounds=rounds)
    assert "rounds" in str(exc.value)


def test_a12_preset_seed_is_all_defaults():
    """A12 seed: the preset is exactly the defaults."""
    a = new(4, seed=3).options.as_dict()
    b = new(4, seed=3, preset="seed").options.as_dict()
    a.pop("preset", None)
    b.pop("preset", None)
    assert a == b
    assert a["set_max"] == 12
    assert a["engine"] == "holder"
    assert a["first_turn"] == "chain"
    assert a["first_turn_double_owed"] == "after_first_turns"
    assert a["must_play"] is True
    assert a["draw_until_playable"] is False
    assert a["after_double"] == "anywhere"
    assert a["double_order"] == "played"
    assert a["max_doubles_per_turn"] == "unlimited"
    assert a["double_blank"] == 0
    assert a["scoring"] == "penalty"
    assert a["rounds"] == 13


@pytest.mark.parametrize("players, size", [(2, 15), (4, 15), (5, 12), (6, 12), (7, 10), (8, 10)])
def test_a12_preset_puremco(players, size):
    """A12 puremco: set_aside, hand sizes 15/12/10, first_turn=chain, after_double=on_double."""
    g = new(players, preset="puremco")
    o = g.options.as_dict()
    assert o["engine"] == "set_aside"
    assert o["first_turn"] == "chain"
    assert o["after_double"] == "on_double"
    v = g.view(None)
    assert v["hand_sizes"] == [size] * players
    assert v["boneyard"] == 90 - size * players
    assert g.current_seat == 0


def test_a12_preset_casual_and_override():
    """A12 casual: set_aside, first_turn=free, max_doubles_per_turn=1, double_blank=50;
    any option can still be overridden."""
    o = new(3, preset="casual").options.as_dict()
    assert o["engine"] == "set_aside"
    assert o["first_turn"] == "free"
    assert o["max_doubles_per_turn"] in (1, "1")
    assert o["double_blank"] == 50
    o2 = new(3, preset="casual", double_blank=25, first_turn="chain").options.as_dict()
    assert o2["double_blank"] == 25
    assert o2["first_turn"] == "chain"
    assert o2["engine"] == "set_aside"


def test_a12_preset_casual_plays_as_documented():
    """A12 casual: the Mexican train may be started on a first turn (first_turn=free)."""
    g = stacked([["6-3", "5-5", "4-4"], ["6-1", "1-0", "3-3"]], preset="casual")
    assert legal(g) == {"6-3>t0", "6-3>mx"}


# --------------------------------------------------------------------------- BadOption
@pytest.mark.parametrize(
    "options, field",
    [
        ({"bogus_option": 1}, "bogus_option"),
        ({"set_max": 7}, "set_max"),
        ({"hand_size": 0}, "hand_size"),
        ({"hand_size": "lots"}, "hand_size"),
        ({"engine": "random"}, "engine"),
        ({"first_turn": "double"}, "first_turn"),
        ({"first_turn_double_owed": "never"}, "first_turn_double_owed"),
        ({"must_play": "maybe"}, "must_play"),
        ({"draw_until_playable": "sometimes"}, "draw_until_playable"),
        ({"after_double": "nowhere"}, "after_double"),
        ({"double_order": "random"}, "double_order"),
        ({"max_doubles_per_turn": 2}, "max_doubles_per_turn"),
        ({"double_blank": 10}, "double_blank"),
        ({"scoring": "negative"}, "scoring"),
        ({"preset": "nope"}, "preset"),
    ],
)
def test_a12_bad_options_rejected(options, field):
    """A1-A12 options: unknown names and bad values raise BadOption naming the field."""
    with pytest.raises(dominohall.BadOption) as exc:
        new(4, **options)
    assert field in str(exc.value)


@pytest.mark.parametrize(
    "option, value",
    [
        ("set_max", 6),
        ("set_max", 9),
        ("set_max", 15),
        ("set_max", 18),
        ("engine", "set_aside"),
        ("first_turn", "single"),
        ("first_turn", "free"),
        ("first_turn_double_owed", "at_once"),
        ("must_play", False),
        ("draw_until_playable", True),
        ("after_double", "on_double"),
        ("double_order", "reverse"),
        ("max_doubles_per_turn", 1),
        ("double_blank", 25),
        ("double_blank", 50),
        ("scoring", "positive"),
        ("rounds", 3),
    ],
)
def test_a12_every_option_value_accepted(option, value):
    """A1-A12: every option value of Part A is accepted and shows in g.options."""
    opts = {option: value}
    if option == "set_max":
        opts["hand_size"] = 5
    g = new(2, **opts)
    got = g.options.as_dict()[option]
    assert got == value or str(got) == str(value)


# --------------------------------------------------------------------------- errors
def _error_game():
    return stacked([["6-5", "4-3", "2-2"], ["6-1", "1-0", "5-5"]], first_turn="free")


@pytest.mark.parametrize(
    "action",
    [
        "5-5>t0",  # not in seat 0's hand
        "4-3>t0",  # does not match 6
        "6-5>t1",  # seat 1's unmarked train
        "6-5>t9",  # no such train
        "7-7>t0",  # not a tile of the set
        "draw",  # a play is available (must_play)
        "pass",
        "end",  # not in a first-turn chain
        "6-5",  # line-game notation
        "hello",
        "",
    ],
)
def test_errors_illegal_action_leaves_state_unchanged(action):
    """A6/A7 (API): illegal or malformed actions raise IllegalAction with a reason and
    change nothing."""
    g = _error_game()
    before = snapshot(g)
    with pytest.raises(dominohall.IllegalAction) as exc:
        g.apply(action)
    assert str(exc.value)
    assert snapshot(g) == before
    play(g, "6-5>t0")  # the game goes on normally
    assert g.current_seat == 1


def test_errors_illegal_while_double_owed_leaves_state_unchanged():
    """A8 (API): playing elsewhere while a double is owed is illegal; nothing changes."""
    g = _forced_cover_game()
    play(g, "6-0>mx")
    before = snapshot(g)
    for bad in ("2-1>t1", "pass", "6-5>mx"):
        with pytest.raises(dominohall.IllegalAction):
            g.apply(bad)
        assert snapshot(g) == before


def test_errors_not_your_turn():
    """API: acting for a seat whose turn it is not raises NotYourTurn (an IllegalAction)."""
    g = _error_game()
    before = snapshot(g)
    assert issubclass(dominohall.NotYourTurn, dominohall.IllegalAction)
    with pytest.raises(dominohall.NotYourTurn):
        g.apply("6-1>t1", seat=1)
    with pytest.raises(dominohall.NotYourTurn):
        g.apply("6-5>t0", seat=1)
    assert snapshot(g) == before
    g.apply("6-5>t0", seat=0)
    assert g.current_seat == 1
    with pytest.raises(dominohall.NotYourTurn):
        g.apply("6-1>t1", seat=0)
    g.apply("6-1>t1", seat=1)
    assert g.current_seat == 0
