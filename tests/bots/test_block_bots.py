"""The Block/Draw search model, its exact solver, the play-history beliefs, and the
`blocker` / `deep` bots (views only)."""

from __future__ import annotations

import math
import random

import pytest

import dominohall
from dominohall import bots
from dominohall.bots.block import _hand_from_view
from dominohall.bots.endgame import LineHand, Solver, rollout, solve
from dominohall.bots.inference import PlayHistory
from dominohall.engine.options import resolve_options
from dominohall.engine.sampling import sample_hands
from dominohall.engine.tiles import BIT, HIGH, LOW, parse_tile

SETUPS = [
    ("block", 2, {"hands": 1}),
    ("block", 3, {"hands": 1}),
    ("block", 4, {"teams": True, "hands": 1}),
    ("draw", 2, {"hands": 1, "draw": "none"}),
    ("draw", 4, {"teams": True, "hands": 1, "round_to": 5, "block_tie": "all_tied_share"}),
]


def _mask(texts: list[str]) -> int:
    m = 0
    for t in texts:
        m |= BIT[parse_tile(t)]
    return m


def _model_of(g: dominohall.Game) -> LineHand:
    """The search model of a real game's current position (the referee's eye)."""
    st = g.state
    a, b = (st.end_values[0], st.end_values[1]) if st.lead >= 0 else (-1, -1)
    return LineHand(st.opts, st.hands[:], a, b, st.current, st.boneyard[:], [0] * st.n,
                    st.scores[:], True)


def _engine_plays(g: dominohall.Game) -> set[tuple[int, int]]:
    out = set()
    st = g.state
    for a in g.legal_actions():
        if a.tile >= 0:
            end = -1 if a.target is None else st.end_names.index(a.target)
            if end == 1 and st.end_values[0] == st.end_values[1]:
                end = 0
            out.add((a.tile, end))
    return out


@pytest.mark.parametrize("game,players,options", SETUPS)
def test_model_agrees_with_the_engine(game: str, players: int, options: dict) -> None:
    """Random hands through the engine and the model: same plays, same points."""
    for seed in range(40):
        rng = random.Random(seed)
        g = dominohall.new_game(game, players=players, seed=seed, options=options)
        while not g.is_over:
            m = _model_of(g)
            plays = _engine_plays(g)
            assert set(m.moves(g.current_seat)) == plays
            assert m.can_play(g.current_seat) == bool(plays)
            action = rng.choice(g.legal_actions())
            g.apply(action)
        end = next(e for e in g.state.log if isinstance(e, dict) and e["type"] == "round_end")
        final = LineHand(g.state.opts, end["hands"], 0, 0, 0, [], [0] * players,
                         [0] * players, True)
        winner = end["seat"] if end["reason"] == "domino" else None
        sides = 2 if options.get("teams") else players
        assert final.points(winner) == end["points"][:sides]


def _brute(g: dominohall.Game, me: int) -> int:
    """Minimax through the engine itself: our side's points minus the other side's."""
    if g.is_over:
        st = g.state
        return st.scores[st.side(me)] - st.scores[1 - st.side(me)]
    values = []
    for a in g.legal_actions():
        c = g.clone()
        c.apply_unchecked(a)
        values.append(_brute(c, me))
    mine = g.state.side(g.current_seat) == g.state.side(me)
    return max(values) if mine else min(values)


@pytest.mark.parametrize("players,options", [(2, {"hands": 1}),
                                             (4, {"teams": True, "hands": 1})])
def test_alpha_beta_equals_minimax_through_the_engine(players: int, options: dict) -> None:
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        g = dominohall.new_game("block", players=players, seed=seed, options=options)
        left = 7 if players == 2 else 9       # tiles in hands when we stop and solve
        while not g.is_over and sum(map(int.bit_count, g.state.hands)) > left:
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over or len(g.legal_actions()) < 2:
            continue
        me = g.current_seat
        model = _model_of(g)
        st = g.state
        cands = sorted(_engine_plays(g))
        values = solve(model, cands, me)
        for (t, end), v in zip(cands, values):
            c = g.clone()
            target = None if end < 0 else st.end_names[end]
            text = dominohall.engine.tiles.TEXT[t] + ("" if target is None else f">{target}")
            c.apply(text)
            assert v == _brute(c, me), (seed, text)
        checked += 1
    assert checked >= 15


def test_alpha_beta_finds_the_hand_made_endgame() -> None:
    """Ends 5|5; we hold 5-3, 5-1, 1-0; the rival 3-2 and 6-6.  The heavy 5-3 lets the
    rival follow (+12 for us at best); 5-1 shuts it out: 1-0, pass, 5-3, out: +17."""
    opts = resolve_options("block", 2, {"hands": 1})
    hands = [_mask(["5-3", "5-1", "1-0"]), _mask(["3-2", "6-6"])]
    h = LineHand(opts, hands, 5, 5, 0, [], [0, 0], [0, 0], True)
    t53, t51, t10 = (parse_tile(x) for x in ("5-3", "5-1", "1-0"))
    assert sorted(h.moves(0)) == sorted([(t53, 0), (t51, 0)])
    values = solve(h, [(t53, 0), (t51, 0)], 0)
    assert values == [12.0, 17.0]
    assert h.hands == hands and (h.a, h.b, h.cur) == (5, 5, 0)      # restored
    # and it is the choice the solver's root makes for a 4-tile line too
    assert Solver(h, 0).root([(t51, 0)]) == [17.0]
    assert (HIGH[t10], LOW[t10]) == (1, 0)


def test_rollout_ends_the_hand_and_scores_it() -> None:
    opts = resolve_options("block", 4, {"teams": True, "hands": 1})
    rng = random.Random(3)
    tiles = list(range(28))
    rng.shuffle(tiles)
    hands = [sum(BIT[t] for t in tiles[7 * s:7 * s + 7]) for s in range(4)]
    from dominohall.bots.endgame import mid_policy
    h = LineHand(opts, hands, -1, -1, 0, [], [0] * 4, [0] * 4, True)
    points = rollout(h, mid_policy, rng)
    assert len(points) == 2 and min(points) == 0
    assert any(not x for x in h.hands) or not any(h.can_play(s) for s in range(4))


def _twin_games(seed: int, moves: int) -> tuple[dominohall.Game, dominohall.Game]:
    """Two 4-player Block hands with the same public history and seat-0 hand, but the
    hidden tiles dealt differently among seats 1-3."""
    options = {"teams": True, "hands": 1}
    rng = random.Random(seed)
    tiles = [dominohall.engine.tiles.TEXT[t] for t in range(28)]
    rng.shuffle(tiles)
    hands = [tiles[7 * s:7 * s + 7] for s in range(4)]
    a = dominohall.new_game("block", players=4, options=options, hands=hands, boneyard=[],
                            leader=0)
    line = []
    for _ in range(moves):
        action = rng.choice(a.legal_actions())
        if str(action) == "pass":
            break
        line.append(str(action))
        a.apply(action)
    played = {str(e["tile"]) for e in a.view(None)["log"] if e["type"] == "play"}
    hidden = [t for s in (1, 2, 3) for t in hands[s] if t not in played]
    rng.shuffle(hidden)
    new_hands = [hands[0]]
    for s in (1, 2, 3):
        keep = [t for t in hands[s] if t in played]
        take = 7 - len(keep)
        new_hands.append(keep + hidden[:take])
        hidden = hidden[take:]
    b = dominohall.new_game("block", players=4, options=options, hands=new_hands,
                            boneyard=[], leader=0)
    for text in line:
        b.apply(text)
    return a, b


@pytest.mark.parametrize("name", ["blocker", "deep"])
def test_bots_never_read_hidden_hands(name: str) -> None:
    """Given two positions that differ only in hands the bot cannot see, a seeded bot
    makes the same choice (it sees `Game.view(seat)` alone)."""
    compared = 0
    for seed in range(12):
        a, b = _twin_games(seed, moves=4 * (1 + seed % 4))
        if a.is_over or a.current_seat != b.current_seat:
            continue
        seat = a.current_seat
        if a.state.hands == b.state.hands:
            continue
        va, vb = a.view(seat), b.view(seat)
        if va != vb:        # a pass in one line but not the other: not twins
            continue
        params = {"worlds": 6} if name == "deep" else {}
        pa = bots.make(name, seed=seed, game="block", **params).act(va)
        pb = bots.make(name, seed=seed, game="block", **params).act(vb)
        assert pa == pb
        compared += 1
    assert compared >= 6


def test_deep_plays_whole_games_legally_in_every_line_game() -> None:
    for game, players, options in SETUPS[:3] + [("all_fives", 2, {"hands": 1})]:
        g = dominohall.new_game(game, players=players, seed=2, options=options)
        seats = [bots.make("deep", seed=s, game=game, budget_ms=3, min_worlds=2)
                 for s in range(players)]
        while not g.is_over:
            s = g.current_seat
            g.apply(seats[s].act(g.view(s)), seat=s)


def _light_lead_view() -> dict:
    """Seat 0's view after seat 1 led 1-0 holding 1-0 2-0 2-1 3-0 3-1 3-2 4-0."""
    g = dominohall.new_game("block", players=2, options={"hands": 1}, leader=1,
                            hands=[["6-6", "6-5", "5-5", "6-4", "5-4", "4-4", "6-3"],
                                   ["1-0", "2-0", "2-1", "3-0", "3-1", "3-2", "4-0"]],
                            boneyard=_rest())
    g.apply("1-0")
    return g.view(0)


def test_play_history_prefers_worlds_that_explain_light_plays() -> None:
    """Seat 1 led a light tile: worlds where it held heavy tiles explain that worse."""
    view = _light_lead_view()
    hist = PlayHistory(view, beta=0.5)
    light = [0, _mask(["2-0", "2-1", "3-0", "3-1", "3-2", "4-0"])]
    heavy = [0, _mask(["6-2", "5-3", "5-2", "4-3", "6-1", "5-1"])]
    assert hist.log_weight(light, 0) > hist.log_weight(heavy, 0)
    # the viewer's own plays are never weighed, and every world's weight is finite
    rng = random.Random(1)
    for _ in range(20):
        hands, _by = sample_hands(view, rng)
        assert hist.log_weight(hands, 0) <= 0.0


def test_play_history_lead_probability_worked_by_hand() -> None:
    """Seat 1 led 1-0 holding 1-0 2-0 2-1 3-0 3-1 3-2 4-0 (pips 1 2 3 3 4 5 4, no double):
    under the model P(lead 1-0) = exp(b*1) / sum exp(b*pips); with a lapse e it is
    (1-e) times that plus e/7; a double's bonus changes nothing here (no double held)."""
    view = _light_lead_view()
    world = [0, _mask(["2-0", "2-1", "3-0", "3-1", "3-2", "4-0"])]
    pips = [1, 2, 3, 3, 4, 5, 4]
    b = 0.5
    p = math.exp(b * 1) / sum(math.exp(b * x) for x in pips)
    assert PlayHistory(view, beta=b).log_weight(world, 0) == pytest.approx(math.log(p))
    assert PlayHistory(view, beta=b, double=20).log_weight(world, 0) == \
        pytest.approx(math.log(p))
    assert PlayHistory(view, beta=b, lapse=0.3).log_weight(world, 0) == \
        pytest.approx(math.log(0.7 * p + 0.3 / 7))
    # a double in the hand: 2-0 swapped for 2-2 (4 pips + the bonus)
    with_double = [0, _mask(["2-2", "2-1", "3-0", "3-1", "3-2", "4-0"])]
    pd = math.exp(b * 1) / sum(math.exp(b * x) for x in [1, 4 + 10, 3, 3, 4, 5, 4])
    assert PlayHistory(view, beta=b, double=10).log_weight(with_double, 0) == \
        pytest.approx(math.log(pd))
    with pytest.raises(ValueError, match="lapse"):
        PlayHistory(view, lapse=1.0)


def test_play_history_weighs_the_partner_with_its_own_sharpness() -> None:
    """4 players in partnerships: seat 2 (the viewer 0's partner) led; with
    partner_beta=0 its lead says nothing about which of its tiles were heavy, while the
    rivals' sharpness still applies to theirs."""
    g = dominohall.new_game("block", players=4, options={"hands": 1, "teams": True},
                            leader=2, seed=5)
    lead = max(g.legal_actions(), key=lambda a: -sum(int(x) for x in str(a).split("-")))
    g.apply(lead)                     # seat 2 leads its lightest tile
    view = g.view(0)
    rng = random.Random(3)
    worlds = [sample_hands(view, rng)[0] for _ in range(30)]
    flat = PlayHistory(view, beta=1.0, partner_beta=0.0)
    sharp = PlayHistory(view, beta=1.0)
    # uniform over its 7 tiles: the same weight in every world
    assert {round(flat.log_weight(h, 0), 9) for h in worlds} == {round(math.log(1 / 7), 9)}
    assert len({round(sharp.log_weight(h, 0), 9) for h in worlds}) > 1


def _rest() -> list[str]:
    used = {"6-6", "6-5", "5-5", "6-4", "5-4", "4-4", "6-3",
            "1-0", "2-0", "2-1", "3-0", "3-1", "3-2", "4-0"}
    return [t for t in (dominohall.engine.tiles.TEXT[i] for i in range(28)) if t not in used]


def test_hand_from_view_reads_the_layout() -> None:
    g = dominohall.new_game("block", players=2, seed=4, options={"hands": 1})
    g.apply(g.legal_actions()[0])
    view = g.view(g.current_seat)
    opts = resolve_options("block", 2, view["options"])
    hands, boneyard = sample_hands(view, random.Random(0))
    h = _hand_from_view(view, opts, hands, boneyard)
    st = g.state
    assert (h.a, h.b) == (st.end_values[0], st.end_values[1])
    assert set(h.moves(h.cur)) == _engine_plays(g)


def test_sample_hands_deals_what_sample_world_deals() -> None:
    """The light sampler and the full one draw the same deal from the same seed."""
    g = dominohall.new_game("draw", players=3, seed=8, options={"hands": 1})
    rng = random.Random(2)
    for _ in range(9):
        g.apply(rng.choice(g.legal_actions()))
    view = g.view(g.current_seat)
    hands, boneyard = sample_hands(view, random.Random(5))
    world = dominohall.sample_world(view, random.Random(5))
    assert hands == world.state.hands and boneyard == world.state.boneyard
    assert world.view(g.current_seat) == view


@pytest.mark.parametrize("strict,expected", [(True, 1), (False, 5)])
def test_pimc_stops_at_its_budget(monkeypatch: pytest.MonkeyPatch, strict: bool,
                                  expected: int) -> None:
    """With the budget spent at once, strict pimc searches one world; the old way keeps
    sampling up to `min_samples`."""
    from dominohall.bots import pimc

    calls = []
    real = pimc.sample_world
    monkeypatch.setattr(pimc, "sample_world", lambda v, r: calls.append(1) or real(v, r))
    g = dominohall.new_game("block", players=2, seed=1, options={"hands": 1})
    view = g.view(g.current_seat)
    bots.make("pimc", seed=1, budget_ms=0, min_samples=5, strict_budget=strict).act(view)
    assert len(calls) == expected
