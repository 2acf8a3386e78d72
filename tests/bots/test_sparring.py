"""The Mexican Train sparring partners (`bots.sparring`): each rule on hand-built
positions where it differs from the others, true pips (the 0-0 at 50), and whole games
through the arena."""

from __future__ import annotations

import pytest

import dominohall
from dominohall import arena, bots
from dominohall.bots.sparring import SPARRING, true_pips
from dominohall.engine.tiles import TEXT, parse_tile

SPAR = list(SPARRING)


def _mexican(hands: list[list[str]], moves: list[str]) -> dominohall.Game:
    """Double-6, the engine 6-6 set aside, a free first turn, two players."""
    opts = {"set_max": 6, "engine": "set_aside", "first_turn": "free",
            "hand_size": len(hands[0])}
    used = {TEXT[parse_tile(t)] for h in hands for t in h} | {"6-6"}
    bone = [TEXT[t] for t in range(28) if TEXT[t] not in used]
    g = dominohall.new_game("mexican_train", players=2, seed=1, options=opts, hands=hands,
                            boneyard=bone)
    for a in moves:
        g.apply(a)
    return g


def _moves(v: dict) -> dict[str, str]:
    return {n: bots.make(n, seed=0, game="mexican_train").act(v) for n in
            [*SPAR, "planner"]}


# seat 0's train ends in 3, the Mexican train in 1; its hand 0-0 1-0 3-0 4-2 4-3 5-1: the
# longest chain is 3-0 0-0 0-1 1-5, so 4-3 and 4-2 are off the chain
FIRST = ([["6-3", "3-4", "4-2", "1-0", "1-5", "3-0", "0-0"],
          ["6-1", "6-2", "2-5", "5-5", "2-2", "4-4", "5-4"]], ["6-3>t0", "6-1>mx"])


def test_each_rule_on_one_position() -> None:
    v = _mexican(*FIRST).view(0)
    assert sorted(v["legal_actions"]) == ["1-0>mx", "3-0>t0", "4-3>t0", "5-1>mx"]
    got = _moves(v)
    # the longest-chain planner never spends its train's start on an off-chain tile (the
    # ladder's planner sheds 4-3 on its own train and loses the chain's first tile)
    assert got["longest"] == "3-0>t0" and got["planner"] == "4-3>t0"
    assert got["dumper"] == "4-3>t0"             # the heaviest, 7 pips
    assert got["private"] == "3-0>t0"            # its own train, the chain's next tile
    assert got["mexfirst"] == "5-1>mx"           # the heaviest on the Mexican train


def test_private_stays_on_its_own_train_where_the_planner_sheds() -> None:
    """Chain 3-0 0-5 5-5; 4-1 and 2-1 are off it and fit the Mexican train."""
    g = _mexican([["6-3", "3-0", "0-5", "1-4", "1-2", "2-2", "5-5"],
                  ["6-1", "6-2", "2-5", "4-4", "3-3", "4-3", "5-4"]], ["6-3>t0", "6-1>mx"])
    got = _moves(g.view(0))
    assert got["private"] == "3-0>t0"
    assert got["longest"] == got["mexfirst"] == got["dumper"] == "4-1>mx"


def test_true_pips_count_the_double_blank_as_fifty() -> None:
    assert true_pips(parse_tile("0-0")) == 50 and true_pips(parse_tile("0-0"), 0) == 0
    assert true_pips(parse_tile("6-5")) == 11
    g = _mexican(*FIRST)
    for a in ["3-0>t0", "6-2>t1"]:
        g.apply(a)
    v = g.view(0)
    assert "0-0>t0" in v["legal_actions"] and "5-1>mx" in v["legal_actions"]
    assert bots.make("dumper", seed=0, game="mexican_train").act(v) == "0-0>t0"
    # counting the 0-0 as 0 pips, the heaviest is 5-1
    assert bots.make("dumper", seed=0, game="mexican_train", blank=0).act(v) == "5-1>mx"
    assert bots.make("mexfirst", seed=0, game="mexican_train").act(v) == "5-1>mx"


@pytest.mark.parametrize("players", [2, 4])
def test_sparring_partners_play_whole_matches_in_the_arena(players: int) -> None:
    lineup = (SPAR * 2)[:players] if players < 4 else SPAR
    r = arena.run("mexican_train", players=players, bots=lineup, deals=1, seed=3,
                  options={"rounds": 2})
    assert r.complete and len(r.games) == players
    assert set(r.stats["bots"]) == set(lineup)


def test_sparring_partners_are_known_by_name_not_listed_on_the_ladder() -> None:
    ladder = bots.names("mexican_train")
    assert not set(SPAR) & set(ladder)
    for name in SPAR:
        assert bots.make(name, game="mexican_train").name == name
        with pytest.raises(ValueError, match="built-in"):
            bots.register(name, lambda seed=0: None)
        with pytest.raises(ValueError, match="unknown bot"):
            bots.make(name, game="block")
    with pytest.raises(ValueError, match="blank"):
        bots.make("longest", blank=-1)
    with pytest.raises(ValueError, match="blank"):
        bots.make("dumper", blank="50")
