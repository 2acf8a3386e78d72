"""The top bots of All Fives (`bots.allfives`) and Mexican Train (`bots.train`), played
as ``deep``: legal moves only, decisions from the view alone, budgets in worlds, exact
search at the end of an All Fives hand, and Mexican Train positions with a right move."""

from __future__ import annotations

import random

import pytest

import dominohall
from dominohall import bots
from dominohall.bots.allfives import AllFivesBot, _Hand
from dominohall.bots.search import DeepBot
from dominohall.bots.train import TrainBot, train_choice
from dominohall.engine import parse_action
from dominohall.engine.tiles import TEXT, parse_tile

SETUPS = [
    ("all_fives", 4, {"teams": True, "hands": 1}),
    ("all_fives", 2, {"hands": 1}),
    ("all_fives", 3, {"hands": 1, "spinner": "every_double"}),
    ("mexican_train", 4, {"rounds": 1}),
    ("mexican_train", 3, {"rounds": 1, "preset": "puremco"}),
]


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
def test_deep_plays_whole_hands_legally(game: str, players: int, options: dict) -> None:
    g = dominohall.new_game(game, players=players, seed=4, options=options)
    seats = [bots.make("deep", seed=s, game=game, worlds=2) for s in range(players)]
    moves = 0
    while not g.is_over:
        s = g.current_seat
        view = g.view(s)
        a = seats[s].act(view)
        assert a in view["legal_actions"]
        g.apply(a, seat=s)
        moves += 1
    assert moves > players


def test_deep_picks_the_top_bot_of_each_game() -> None:
    deep = bots.make("deep", seed=1, worlds=3, solve_tiles=8)
    assert isinstance(deep, DeepBot)
    af = deep.bot_for("all_fives")
    assert isinstance(af, AllFivesBot) and af.worlds == 3 and af.solve_tiles == 8
    mt = deep.bot_for("mexican_train")
    assert isinstance(mt, TrainBot) and mt.worlds == 3
    from dominohall.bots.block import DeepBot as BlockDeepBot
    assert isinstance(deep.bot_for("block"), BlockDeepBot)
    with pytest.raises(ValueError, match="bad parameter"):
        bots.make("deep", no_such_knob=1)
    with pytest.raises(ValueError, match="bad parameter"):
        bots.make("deep", game="all_fives", policy="nonsense")


def _all_fives_twins(seed: int) -> tuple[dominohall.Game, dominohall.Game] | None:
    """A 4-player hand played some moves into seat 0's turn, and its twin: the same plays,
    but seats 1 and 3 hold each other's unplayed tiles (same counts)."""
    rng = random.Random(seed)
    tiles = [TEXT[t] for t in range(28)]
    rng.shuffle(tiles)
    hands = [tiles[7 * s:7 * s + 7] for s in range(4)]
    opts = {"teams": True, "hands": 1}
    a = dominohall.new_game("all_fives", players=4, options=opts, hands=hands, leader=0)
    moves: list[str] = []
    for _ in range(4 * (1 + seed % 3)):
        moves.append(str(rng.choice(a.legal_actions())))
        a.apply(moves[-1])
    while a.current_seat != 0 and not a.is_over:
        moves.append(str(rng.choice(a.legal_actions())))
        a.apply(moves[-1])
    if a.is_over:
        return None
    played: dict[int, list[str]] = {1: [], 3: []}
    for e in a.view(None)["log"]:
        if e["type"] == "play" and e["seat"] in played:
            played[e["seat"]].append(e["tile"])
    left = {s: [t for t in hands[s] if TEXT[parse_tile(t)] not in played[s]] for s in (1, 3)}
    if len(left[1]) != len(left[3]):
        return None
    twin = [hands[0], played[1] + left[3], hands[2], played[3] + left[1]]
    b = dominohall.new_game("all_fives", players=4, options=opts, hands=twin, leader=0)
    try:
        for text in moves:
            b.apply(text)
    except dominohall.IllegalAction:        # a pass that the swapped hand could not make
        return None
    return a, b


def test_all_fives_deep_sees_only_its_view() -> None:
    """The same view with other hidden hands: the same seeded choice."""
    compared = 0
    for seed in range(16):
        twins = _all_fives_twins(seed)
        if twins is None:
            continue
        a, b = twins
        va, vb = a.view(0), b.view(0)
        assert a.state.hands != b.state.hands and va == vb
        pa = bots.make("deep", seed=seed, game="all_fives", worlds=4).act(va)
        pb = bots.make("deep", seed=seed, game="all_fives", worlds=4).act(vb)
        assert pa == pb
        compared += 1
    assert compared >= 5


def test_mexican_train_deep_sees_only_its_view() -> None:
    for seed in range(3):
        tiles = [TEXT[t] for t in range(91) if TEXT[t] != "12-12"]
        random.Random(seed).shuffle(tiles)
        hands = [tiles[15 * s:15 * s + 15] for s in range(4)]
        swapped = [hands[0], hands[2], hands[1], hands[3]]
        opts = {"engine": "set_aside", "rounds": 1}
        a = dominohall.new_game("mexican_train", players=4, options=opts, hands=hands,
                                boneyard=tiles[60:])
        b = dominohall.new_game("mexican_train", players=4, options=opts, hands=swapped,
                                boneyard=tiles[60:])
        va, vb = a.view(0), b.view(0)
        assert va == vb and a.state.hands != b.state.hands
        pa = bots.make("deep", seed=seed, game="mexican_train", worlds=3).act(va)
        pb = bots.make("deep", seed=seed, game="mexican_train", worlds=3).act(vb)
        assert pa == pb


@pytest.mark.parametrize("game", ["all_fives", "mexican_train"])
def test_budget_in_worlds(game: str) -> None:
    g = dominohall.new_game(game, players=4, seed=11,
                            options={"teams": True} if game == "all_fives" else {"rounds": 1})
    while len(g.legal_actions()) < 2:
        g.apply(g.legal_actions()[0])
    view = g.view(g.current_seat)
    factory = AllFivesBot if game == "all_fives" else TrainBot
    fixed = factory(seed=1, worlds=5)
    fixed.act(view)
    assert fixed.searched == 5
    # a spent time budget still searches min_worlds (never fewer)
    timed = factory(seed=1, budget_ms=0, min_worlds=3)
    timed.act(view)
    assert timed.searched == 3


def _minimax(st, h: _Hand) -> float:
    """The hand's exact value, by plain minimax (no pruning, no ordering)."""
    if h.ended(st):
        return h.value(st)
    values = []
    for a in st.legal():
        c = st.clone()
        c.apply(a)
        values.append(_minimax(c, h))
    return max(values) if h.side(st.current) == h.mine else min(values)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_exact_search_at_the_end_of_a_hand_is_exact(seed: int) -> None:
    """Four partners hold the whole set: with 8 tiles left every world is solved, and
    alpha-beta's values equal plain minimax's."""
    g = dominohall.new_game("all_fives", players=4, seed=seed, options={"teams": True})
    rng = random.Random(seed)
    while sum(g.view(0)["hand_sizes"]) > 8 or len(g.legal_actions()) < 2:
        g.apply(rng.choice(g.legal_actions()))
        # a deal change that ends the hand first must be seen, not skipped
        assert g.round == 1, "the hand ended before 8 tiles were left: pick another seed"
    seat = g.current_seat
    view = g.view(seat)
    bot = AllFivesBot(seed=seed, worlds=3)
    assert bot.act(view) in view["legal_actions"]
    assert bot.solved == 3
    world = dominohall.sample_world(view, rng)
    h = _Hand(world, seat, 100.0)
    candidates = [parse_action(a) for a in view["legal_actions"]]
    bot._nodes = 0
    exact = bot._solve(world.state, candidates, h)
    for a, v in zip(candidates, exact):
        c = world.state.clone()
        c.apply(a)
        assert v == _minimax(c, h)


def test_all_fives_goes_out_when_going_out_wins_the_hand() -> None:
    """Seat 0's last tile goes out; keeping it would only let the others score. Random
    games are played until the choice (a last tile that goes out, beside drawing or another
    move) came up three times; seeds are tried until it did, so the check always runs."""
    found = 0
    for seed in range(200):
        # must_play off: a player holding a tile that fits may still draw or pass
        g = dominohall.new_game("all_fives", players=2, seed=seed,
                                options={"hands": 1, "must_play": False})
        rng = random.Random(seed)
        while not g.is_over and found < 3:
            v = g.view(g.current_seat)
            outs = [a for a in v["legal_actions"] if len(v["hand"]) == 1 and a not in ("draw",
                                                                                      "pass")]
            if outs and len(v["legal_actions"]) > len(outs):
                assert AllFivesBot(seed=1, worlds=4).act(v) in outs
                found += 1
            g.apply(rng.choice(g.legal_actions()))
        if found >= 3:
            break
    assert found >= 3, "no deal offered a last tile beside another choice"


# ------------------------------------------------------------------ Mexican Train

def _mexican(hands: list[list[str]], boneyard_top: list[str], moves: list[str],
             **options: object) -> dominohall.Game:
    opts = {"set_max": 6, "engine": "set_aside", "first_turn": "free", "hand_size": 6,
            **options}
    used = {TEXT[parse_tile(t)] for h in hands for t in h} | {"6-6"} | set(boneyard_top)
    bone = boneyard_top + [TEXT[t] for t in range(28) if TEXT[t] not in used]
    g = dominohall.new_game("mexican_train", players=2, seed=1, options=opts, hands=hands,
                            boneyard=bone)
    for a in moves:
        g.apply(a)
    return g


def _covering_position(**options: object) -> dominohall.Game:
    """Seat 1 left 5-5 owed on its train (with a marker); seat 0 holds 5-0 and 5-4 and
    its own train ends in 4.  Covering with 5-0 keeps 5-4 to go out on its own train next
    turn; covering with the heavier 5-4 leaves 5-0 with nowhere to go."""
    return _mexican([["6-4", "6-1", "1-0", "3-0", "5-0", "5-4"],
                     ["6-2", "2-3", "3-5", "5-5", "1-1", "2-2"]], ["4-4"],
                    ["6-4>t0", "6-2>t1", "6-1>mx", "3-2>t1", "1-0>mx", "5-3>t1", "3-0>mx",
                     "5-5>t1", "draw", "pass"], **options)


def test_mexican_train_covers_an_owed_double_with_the_tile_its_train_does_not_need() -> None:
    g = _covering_position()
    v = g.view(0)
    assert v["owed"] == ["t1"] and sorted(v["legal_actions"]) == ["5-0>t1", "5-4>t1"]
    assert bots.make("greedy", seed=0).act(v) == "5-4>t1"        # the trap: the heavier tile
    for seed in range(4):
        assert bots.make("deep", seed=seed, game="mexican_train", worlds=8).act(v) == "5-0>t1"


def test_mexican_train_does_not_draw_and_open_its_train_when_it_can_go_out() -> None:
    """With ``must_play=false`` drawing is allowed; a failed draw would put a marker on
    the bot's own train.  Its last tile goes out on its own train: it plays it."""
    g = _covering_position(must_play=False)
    g.apply("5-0>t1")
    while g.current_seat == 1:        # seat 1 cannot play: it draws and passes
        legal = [str(a) for a in g.legal_actions()]
        g.apply("draw" if "draw" in legal else legal[0])
    v = g.view(0)
    assert "draw" in v["legal_actions"] and "5-4>t0" in v["legal_actions"]
    for seed in range(4):
        assert bots.make("deep", seed=seed, game="mexican_train", worlds=6).act(v) == "5-4>t0"


def _acts(*texts: str) -> list:
    return [parse_action(t) for t in texts]


def _mask(*tiles: str) -> int:
    m = 0
    for t in tiles:
        m |= 1 << parse_tile(t)
    return m


def test_rollout_rule_keeps_the_plan_and_sheds_off_plan_tiles_elsewhere() -> None:
    rng = random.Random(0)
    hand = _mask("12-5", "5-3", "9-1")
    chain = [parse_tile("12-5"), parse_tile("5-3")]
    legal = _acts("12-5>t0", "9-1>mx", "12-5>mx")
    # no marker: the off-plan 9-1 goes on the Mexican train, the plan stays whole
    a = train_choice(legal, 0, hand, chain, marker=False, in_chain=False, started=True,
                     sizes=[3, 8, 8], dump_at=2, rng=rng)
    assert str(a) == "9-1>mx"
    # a marker on our train: build it (which takes the marker off)
    a = train_choice(legal, 0, hand, chain, marker=True, in_chain=False, started=True,
                     sizes=[3, 8, 8], dump_at=2, rng=rng)
    assert str(a) == "12-5>t0"
    # a rival is about to go out: shed the heaviest tile, plan or not
    a = train_choice(legal, 0, hand, chain, marker=False, in_chain=False, started=True,
                     sizes=[3, 8, 1], dump_at=2, rng=rng)
    assert a.tile == parse_tile("12-5")


def test_rollout_rule_plays_a_double_only_with_a_tile_to_follow_it() -> None:
    rng = random.Random(0)
    hand = _mask("7-7", "6-6", "6-2", "11-10")
    chain = [parse_tile("11-10")]
    legal = _acts("7-7>mx", "6-6>t1", "11-10>t0")
    a = train_choice(legal, 0, hand, chain, marker=False, in_chain=False, started=True,
                     sizes=[4, 8], dump_at=2, rng=rng)
    assert str(a) == "6-6>t1"              # 6-2 follows it; 7-7 would be left owed
