"""Bots: legal moves only, decisions from the view alone, the ladders by name."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominohall
from dominohall import bots

FAST = {"pimc": {"samples": 3, "min_samples": 1, "budget_ms": 10_000},
        "deep": {"worlds": 2}}
GAMES = ["mexican_train", "all_fives", "draw", "block"]


def make(name, seed, game):
    return bots.make(name, seed=seed, game=game, **FAST.get(name, {}))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 2 ** 31), st.data())
def test_every_bot_returns_only_legal_actions(game, seed, data):
    players = data.draw(st.integers(2, 5 if game == "mexican_train" else 4))
    options = {"rounds": 1} if game == "mexican_train" else {"hands": 1}
    if game == "mexican_train":
        options["preset"] = data.draw(st.sampled_from(["seed", "puremco", "casual"]))
    elif players == 4:
        options["teams"] = data.draw(st.booleans())
    g = dominohall.new_game(game, players=players, seed=seed, options=options)
    lineup = [data.draw(st.sampled_from(bots.names(game))) for _ in range(players)]
    seats = [make(name, seed + s, game) for s, name in enumerate(lineup)]
    moves = 0
    while not g.is_over and moves < 400:
        s = g.current_seat
        view = g.view(s)
        a = seats[s].act(view)
        assert a in view["legal_actions"], (lineup[s], a, view["legal_actions"])
        g.apply(a, seat=s)
        moves += 1


ALL_SIX = [f"{a}-{b}" for a in range(6, -1, -1) for b in range(a, -1, -1)]


def twin_line_games(game):
    """Two games where seat 0 sees exactly the same thing but the hidden tiles differ."""
    hand0 = ["6-6", "6-5", "5-5", "4-2", "3-3", "2-0", "1-1"]
    others = [t for t in ALL_SIX if t not in hand0]
    a = dominohall.new_game(game, players=2, hands=[hand0, others[:7]], boneyard=others[7:],
                            leader=0)
    b = dominohall.new_game(game, players=2, hands=[hand0, others[-7:]], boneyard=others[:-7],
                            leader=0)
    return a, b


def twin_mexican_games():
    tiles = [f"{a}-{b}" for a in range(9, -1, -1) for b in range(a, -1, -1) if (a, b) != (9, 9)]
    hand0 = ["9-5", "5-5", "5-2", "8-8", "7-1", "4-0", "3-3"]
    others = [t for t in tiles if t not in hand0]
    opts = {"set_max": 9, "hand_size": 7, "engine": "set_aside", "rounds": 1}
    a = dominohall.new_game("mexican_train", players=3, options=opts,
                            hands=[hand0, others[:7], others[7:14]], boneyard=others[14:])
    b = dominohall.new_game("mexican_train", players=3, options=opts,
                            hands=[hand0, others[-7:], others[-14:-7]], boneyard=others[:-14])
    return a, b


@pytest.mark.parametrize("game", GAMES)
def test_hidden_tiles_do_not_change_any_decision(game):
    """Fairness: for the same seed, every bot decides the same in two games that differ
    only in tiles it cannot see."""
    a, b = twin_mexican_games() if game == "mexican_train" else twin_line_games(game)
    assert a.view(0) == b.view(0)
    assert a.view(1)["hand"] != b.view(1)["hand"]
    for name in bots.names(game):
        for seed in range(3):
            assert make(name, seed, game).act(a.view(0)) == make(name, seed, game).act(b.view(0))


def test_names_and_errors():
    assert bots.names("mexican_train") == ["random", "greedy", "doubles", "planner", "pimc",
                                           "deep"]
    assert bots.names("all_fives") == ["random", "scorer", "fives", "blocker", "pimc", "deep"]
    with pytest.raises(ValueError, match="unknown bot"):
        bots.make("nobody")
    with pytest.raises(ValueError, match="bad parameter"):
        bots.make("random", depth=3)


@pytest.mark.parametrize("game,params,named", [
    ("mexican_train", {"belief_beta": "x"}, "belief_beta='x'"),
    ("all_fives", {"beliefs": "many"}, "beliefs='many'"),
    ("block", {"budget_ms": "fast"}, "budget_ms='fast'"),
])
def test_a_number_that_is_not_one_is_refused_by_name(game, params, named):
    """A text where a number belongs (an arena entry like deep:budget_ms=fast) is a
    ValueError that names the setting, whichever of deep's bots reads it first."""
    with pytest.raises(ValueError, match=f"bad parameter for bot 'deep': .*{named}"):
        bots.make("deep", game=game, **params)


def test_planner_keeps_its_train_and_sheds_elsewhere():
    """The planner plays its planned chain on its own train only when it must; off-plan
    tiles go to the Mexican train first, heaviest first."""
    view = {
        "game": "mexican_train", "seat": 0, "hand": ["9-5", "5-2", "8-7", "8-0"],
        "legal_actions": ["9-5>t0", "8-7>mx", "8-0>mx"],
        "trains": [{"id": "t0", "open_end": 9, "marker": False, "started": True},
                   {"id": "mx", "open_end": 8, "marker": True, "started": True}],
        "owed": [], "turn": {"chain": False},
    }
    assert bots.make("planner").act(view) == "8-7>mx"
    view["trains"][0]["marker"] = True          # a marker on our train: close it first
    assert bots.make("planner").act(view) == "9-5>t0"


def test_scorer_takes_the_biggest_count():
    hand0 = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
    hand1 = ["6-3", "6-4", "5-4", "5-3", "5-2", "4-3", "4-2"]
    rest = [t for t in ALL_SIX if t not in hand0 + hand1]
    g = dominohall.new_game("all_fives", players=2, hands=[hand0, hand1], boneyard=rest,
                            leader=0)
    g.apply("6-6")                                   # count 12
    # 6-3 makes 15 (scores 15); 6-4 makes 16 (scores nothing)
    assert bots.make("scorer", game="all_fives").act(g.view(1)) == "6-3>L"


def test_inference_reads_passes_and_forgets_after_a_draw():
    from dominohall.bots import inference

    hand0 = ["6-6", "6-5", "5-5", "5-4", "4-4", "6-0", "5-0"]
    hand1 = ["3-3", "3-2", "2-2", "2-1", "1-1", "1-0", "3-1"]
    rest = [t for t in ALL_SIX if t not in hand0 + hand1]
    g = dominohall.new_game("draw", players=2, hands=[hand0, hand1], boneyard=rest, leader=0)
    g.apply("6-5")
    while g.legal_actions() == ["draw"]:
        g.apply("draw")
    v = g.view(0)
    assert inference.lacks(v)[1] == set()       # it drew: the proof is about the old hand
    assert len(inference.unseen(v)) == 28 - 6 - 1     # our 6 tiles and 6-5 on the table
    b = dominohall.new_game("block", players=2, options={"hands": 1}, hands=[hand0, hand1],
                            boneyard=rest, leader=0)
    b.apply("6-5")
    b.apply("pass")
    vb = b.view(0)
    assert inference.lacks(vb)[1] == {5, 6}
    assert not any("5" in t or "6" in t for t in inference.can_hold(vb, 1))


def test_a_registered_bot_plays_in_the_arena(monkeypatch):
    """bots.register makes a user's bot (a trained policy, say) a name for make() and the
    arena, for the games it names; built-in names and malformed names are refused."""
    from dominohall import arena

    monkeypatch.setattr(bots, "_REGISTERED", {})

    class Lowest:
        """Plays the first legal action: a fixed, seed-free policy."""

        def __init__(self, seed=0, offset=0):
            self.offset = offset

        def act(self, view):
            return view["legal_actions"][0]

    bots.register("lowest", Lowest, games=["block"])
    assert bots.names("block")[-1] == "lowest"
    assert "lowest" not in bots.names("mexican_train")
    assert isinstance(bots.make("lowest", seed=3, game="block", offset=1), Lowest)
    with pytest.raises(ValueError, match="unknown bot"):
        bots.make("lowest", game="mexican_train")
    r = arena.run("block", 2, ["lowest", "random"], deals=6, seed=4, options={"hands": 1})
    assert r.complete and r.stats["bots"]["lowest"]["games"] == 12
    for bad in ("random", "Has Space", "a:b", ""):
        with pytest.raises(ValueError):
            bots.register(bad, Lowest)
    with pytest.raises(ValueError, match="not callable"):
        bots.register("thing", 3)  # type: ignore[arg-type]
