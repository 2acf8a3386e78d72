"""The `deep` bot's search: the exact solver against plain minimax on small worlds, both
scorings (ours, RULES.md B6, and every hand's pips, the `dominoes` package's), the
package's own results, the budget counted in worlds and positions, and views only."""

from __future__ import annotations

import pathlib
import random
import sys
from collections.abc import Iterator

import pytest

import dominohall
from dominohall import bots
from dominohall.bots.block import DeepBot
from dominohall.bots.endgame import INF, LineHand, NodeLimit, Solver, rollout
from dominohall.engine.options import resolve_options
from dominohall.engine.tiles import BIT, HIGH, LOW, TEXT, parse_tile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "rl"))         # peers
from peers import need  # noqa: E402

OPTIONS = {2: {"hands": 1}, 3: {"hands": 1}, 4: {"teams": True, "hands": 1}}


def _mask(texts: list[str]) -> int:
    m = 0
    for t in texts:
        m |= BIT[parse_tile(t)]
    return m


def _minimax(h: LineHand, me: int, bonus: float) -> float:
    """Plain minimax on the model, no pruning and no table: the seat to play (`cur`)
    lays a tile or passes; nobody able to play is a block."""
    n = h.n
    for i in range(n):
        if h.can_play((h.cur + i) % n):
            break
    else:
        return h.value(h.points(None), me, bonus)
    p = (h.cur + i) % n
    values = []
    for t, end in h.moves(p):
        c = h.copy()
        c.cur = p
        c.play(t, end)
        if not c.hands[p]:
            values.append(c.value(c.points(p), me, bonus))
            continue
        c.cur = (p + 1) % n
        values.append(_minimax(c, me, bonus))
    mine = h.side(p) == h.side(me)
    return max(values) if mine else min(values)


def _small_world(rng: random.Random, players: int, per_hand: int, scoring: str,
                 lead: bool) -> LineHand:
    opts = resolve_options("block", players, OPTIONS[players])
    tiles = list(range(28))
    rng.shuffle(tiles)
    hands = [sum(BIT[t] for t in tiles[per_hand * s:per_hand * (s + 1)])
             for s in range(players)]
    a, b = (-1, -1) if lead else (rng.randrange(7), rng.randrange(7))
    scores = [rng.choice((0, 40, 90)) for _ in range(players)]
    return LineHand(opts, hands, a, b, rng.randrange(players), [], [0] * players, scores,
                    rng.random() < 0.5, scoring)


@pytest.mark.parametrize("scoring", ["rules", "all"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_solver_equals_minimax_on_small_worlds(players: int, scoring: str) -> None:
    rng = random.Random(players * 10 + len(scoring))
    checked = 0
    for k in range(40):
        per_hand = {2: 4, 3: 3, 4: 2}[players] + (k % 2)
        h = _small_world(rng, players, per_hand, scoring, lead=k % 5 == 0)
        me = h.cur
        bonus = 100.0 if k % 3 == 0 else 0.0
        moves = h.moves(me)
        if not moves:
            continue
        before = (h.hands[:], h.a, h.b, h.cur)
        solver = Solver(h, me, bonus)
        values = solver.root(moves)
        assert (h.hands, h.a, h.b, h.cur) == before            # the search restores it
        for (t, end), v in zip(moves, values):
            c = h.copy()
            c.play(t, end)
            if not c.hands[me]:
                want = c.value(c.points(me), me, bonus)
            else:
                c.cur = (me + 1) % h.n
                want = _minimax(c, me, bonus)
            assert v == want, (k, t, end)
        assert Solver(h, me, bonus).value() == max(values)     # the position itself
        checked += 1
    assert checked >= 20


def test_scoring_all_counts_every_hand_left() -> None:
    opts = resolve_options("block", 4, OPTIONS[4])
    hands = [0, _mask(["3-2"]), _mask(["2-1"]), _mask(["4-3"])]       # pips 0, 5, 3, 7
    rules = LineHand(opts, hands, 1, 1, 0, [], [0] * 4, [0] * 4, True)
    every = LineHand(opts, hands, 1, 1, 0, [], [0] * 4, [0] * 4, True, "all")
    assert rules.points(0) == [12, 0] and every.points(0) == [15, 0]
    blocked = [_mask(["1-0"]), _mask(["6-6"]), _mask(["2-1"]), _mask(["5-0"])]  # 1+3 | 12+5
    assert LineHand(opts, blocked, 4, 4, 0, [], [0] * 4, [0] * 4, True).points(None) == [17, 0]
    assert LineHand(opts, blocked, 4, 4, 0, [], [0] * 4, [0] * 4, True,
                    "all").points(None) == [21, 0]
    tied = [_mask(["2-1"]), _mask(["2-0"]), _mask(["0-0"]), _mask(["1-0"])]     # 3 | 3
    for scoring in ("rules", "all"):
        assert LineHand(opts, tied, 4, 4, 0, [], [0] * 4, [0] * 4, True,
                        scoring).points(None) == [0, 0]
    with pytest.raises(TypeError, match="scoring"):
        LineHand(opts, hands, 1, 1, 0, [], [0] * 4, [0] * 4, True, "fives")
    with pytest.raises(TypeError, match="scoring"):
        DeepBot(scoring="fives")


def test_scoring_all_is_the_dominoes_package_result() -> None:
    """Random partnership hands played to the end in the `dominoes` package: its result
    is what `scoring="all"` gives the winning team, and nothing to the other."""
    need("dominoes")
    import dominoes

    opts = resolve_options("block", 4, OPTIONS[4])
    rng = random.Random(5)
    kinds = set()
    for deal in range(60):
        tiles = list(range(28))
        rng.shuffle(tiles)
        hands = [tiles[7 * s:7 * s + 7] for s in range(4)]
        leader = deal % 4
        pg = dominoes.Game(dominoes.Board(),
                           [dominoes.Hand([dominoes.Domino(HIGH[t], LOW[t]) for t in h])
                            for h in hands], [], leader, None, leader, None)
        pg.valid_moves = tuple((d, True) for d in pg.hands[leader])
        while pg.result is None:
            pg.make_move(*rng.choice(pg.valid_moves))
        left = [sum(BIT[parse_tile(f"{max(d.first, d.second)}-{min(d.first, d.second)}")]
                    for d in hand) for hand in pg.hands]
        model = LineHand(opts, left, 0, 0, 0, [], [0] * 4, [0] * 4, True, "all")
        points = model.points(pg.result.player if pg.result.won else None)
        assert points[0] - points[1] == pg.result.points, (deal, pg.result)
        kinds.add((pg.result.won, pg.result.points > 0))
    assert len(kinds) >= 3          # dominoes and blocks, both teams winning


def test_node_limit_stops_the_search() -> None:
    rng = random.Random(2)
    h = _small_world(rng, 4, 6, "rules", lead=True)
    full = Solver(h, h.cur)
    full.root(h.moves(h.cur))
    assert full.nodes > 1000
    before = h.hands[:]
    limited = Solver(h, h.cur, node_limit=50)
    with pytest.raises(NodeLimit):
        limited.root(h.moves(h.cur))
    assert limited.nodes == 51
    assert h.hands == before            # stopped mid-search, every tile is back
    # a deadline already past stops it at the first clock reading (every 256 positions)
    late = Solver(h, h.cur, deadline=0.0, clock=lambda: 1.0)
    with pytest.raises(NodeLimit):
        late.root(h.moves(h.cur))
    assert late.nodes == 256
    assert INF > 10 ** 6


class _Clock:
    """A fake clock: every reading moves it on by `step` seconds."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _position(seed: int, tiles_left: int) -> dominohall.Game:
    """A 4-player partnership Block hand played at random down to `tiles_left` tiles in
    the hands, at a seat with a choice."""
    for k in range(200):
        g = dominohall.new_game("block", players=4, seed=seed * 1000 + k, options=OPTIONS[4])
        rng = random.Random(seed * 1000 + k)
        while not g.is_over and sum(g.view(None)["hand_sizes"]) > tiles_left:
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_over and len(g.legal_actions()) > 1:
            return g
    raise AssertionError("no position")


def test_budget_counts_worlds_not_wall_time() -> None:
    """`worlds=N` searches N worlds; `max_worlds` caps a clocked search; a budget spent at
    the first reading searches `min_worlds` and no more; `early_ms` is the budget before
    the solvable point, `budget_ms` after it (read with a fake clock)."""
    late = _position(1, 12)
    view = late.view(late.current_seat)
    bot = DeepBot(seed=1, worlds=7)
    bot.act(view)
    assert bot.last_search == {"worlds": 7, "solved": 7}       # 12 tiles: every world solved
    capped = DeepBot(seed=1, budget_ms=10 ** 6, max_worlds=9)
    capped.act(view)
    assert capped.last_search["worlds"] == 9
    spent = DeepBot(seed=1, budget_ms=50, min_worlds=3)
    spent.clock = _Clock(1.0)                                   # a second a reading
    spent.act(view)
    assert spent.last_search["worlds"] == 3
    # 10 ms a reading: the 50 ms budget allows a few worlds, the 20 ms early budget fewer
    early = _position(2, 24)
    early_view = early.view(early.current_seat)
    counts = {}
    for name, view_ in (("early", early_view), ("late", view)):
        b = DeepBot(seed=1, budget_ms=50, early_ms=20, min_worlds=1)
        b.clock = _Clock(0.002)
        b.act(view_)
        counts[name] = b.last_search
    assert counts["early"]["solved"] == 0 and counts["late"]["solved"] > 0
    assert counts["early"]["worlds"] <= 11 < counts["late"]["worlds"] <= 26, counts


def _twins(seed: int, tiles_left: int) -> tuple[dominohall.Game, dominohall.Game] | None:
    """Two hands with the same public history and the same hand for the seat to play,
    the other hidden tiles dealt differently."""
    g = _position(seed, tiles_left)
    seat = g.current_seat
    view = g.view(seat)
    st = g.state
    rng = random.Random(seed)
    hidden = [t for s in range(4) if s != seat for t in range(28) if st.hands[s] & BIT[t]]
    for _ in range(50):
        rng.shuffle(hidden)
        hands: list[list[str]] = []
        rest = hidden[:]
        for s in range(4):
            if s == seat:
                hands.append([TEXT[t] for t in range(28) if st.hands[s] & BIT[t]])
            else:
                k = st.hands[s].bit_count()
                hands.append([TEXT[t] for t in rest[:k]])
                rest = rest[k:]
        played = [e for e in view["log"] if e["type"] in ("play", "pass")]
        # rebuild by replaying the public moves onto the new hidden hands plus the played tiles
        start = [list(h) for h in hands]
        for e in played:
            if e["type"] == "play":
                start[int(e["seat"])].append(str(e["tile"]))
        try:
            b = dominohall.new_game("block", players=4, options=OPTIONS[4], hands=start,
                                    boneyard=[], leader=int(played[0]["seat"]))
            for e in played:
                text = "pass" if e["type"] == "pass" else \
                    str(e["tile"]) + (f">{e['target']}" if e.get("target") else "")
                b.apply(text, seat=int(e["seat"]))
        except dominohall.DominohallError:
            continue                      # a pass the new hands would not force
        if b.view(seat) == view and b.state.hands != st.hands:
            return g, b
    return None


@pytest.mark.parametrize("tiles_left", [14, 22])
def test_deep_sees_only_its_view(tiles_left: int) -> None:
    """Positions that differ only in hands the bot cannot see get the same choice, in
    the solved phase and before it, with either scoring."""
    compared = 0
    for seed in range(10):
        pair = _twins(seed, tiles_left)
        if pair is None:
            continue
        a, b = pair
        seat = a.current_seat
        for scoring in ("rules", "all"):
            pa = DeepBot(seed=seed, worlds=5, scoring=scoring).act(a.view(seat))
            pb = DeepBot(seed=seed, worlds=5, scoring=scoring).act(b.view(seat))
            assert pa == pb
        compared += 1
    assert compared >= 5


def test_double_rollout_lays_the_heaviest_double_first() -> None:
    from dominohall.bots.endgame import double_policy, heavy_policy

    opts = resolve_options("block", 2, OPTIONS[2])
    h = LineHand(opts, [0, 0], -1, -1, 0, [], [0, 0], [0, 0], True)   # the policies read moves
    moves = [(parse_tile(t), 0) for t in ("6-5", "3-3", "4-4", "6-4")]
    rng = random.Random(1)
    assert {double_policy(h, moves, rng) for _ in range(10)} == {(parse_tile("4-4"), 0)}
    assert {heavy_policy(h, moves, rng) for _ in range(10)} == {(parse_tile("6-5"), 0)}
    no_double = moves[:1] + moves[3:]
    assert double_policy(h, no_double, rng) == (parse_tile("6-5"), 0)


class _Even(random.Random):
    """Ties never broken at random: `random()` is always 0.75."""

    def random(self) -> float:
        return 0.75


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_double_rollout_plays_as_the_policy_does(players: int) -> None:
    """The fast path and `rollout` with `double_policy` play random hands out the same
    way (with ties kept in the same order) and end with the same points."""
    from dominohall.bots.endgame import double_policy, double_rollout

    opts = resolve_options("block", players, OPTIONS[players])
    for seed in range(60):
        rng = random.Random(seed)
        tiles = list(range(28))
        rng.shuffle(tiles)
        hands = [sum(BIT[t] for t in tiles[7 * s:7 * s + 7]) for s in range(players)]
        lead = seed % 3 == 0
        a, b = (-1, -1) if lead else (rng.randrange(7), rng.randrange(7))
        fast = LineHand(opts, hands[:], a, b, seed % players, [], [0] * players,
                        [0] * players, True)
        slow = fast.copy()
        assert double_rollout(fast, _Even()) == rollout(slow, double_policy, _Even())
        assert fast.hands == slow.hands and (fast.a, fast.b) == (slow.a, slow.b), seed


@pytest.mark.parametrize("players", [2, 4])
def test_double_rollout_stopped_at_leaf_tiles_goes_on_the_same_way(players: int) -> None:
    """A ``double`` rollout stopped at `stop_tiles` leaves exactly that many tiles in the
    hands, and playing on from there ends as the rollout that never stopped."""
    from dominohall.bots.endgame import double_rollout

    opts = resolve_options("block", players, OPTIONS[players])
    stopped = 0
    for seed in range(40):
        rng = random.Random(seed)
        tiles = list(range(28))
        rng.shuffle(tiles)
        hands = [sum(BIT[t] for t in tiles[7 * s:7 * s + 7]) for s in range(players)]
        whole = LineHand(opts, hands[:], -1, -1, seed % players, [], [0] * players,
                         [0] * players, True)
        part = whole.copy()
        stop = 3 + seed % (7 * players - 3)
        early = double_rollout(part, _Even(), stop)   # the hand may end before `stop`
        if early is None:
            assert sum(m.bit_count() for m in part.hands) == stop
            stopped += 1
        on = double_rollout(part, _Even()) if early is None else early
        assert on == double_rollout(whole, _Even())
        assert part.hands == whole.hands
    assert stopped >= 20


def test_leaf_tiles_solves_the_rest_of_the_hand_exactly() -> None:
    """With `leaf_tiles` at least the tiles left, a candidate's rollout value is the exact
    value of the position after it (no rollout move is played)."""
    rng = random.Random(7)
    for _ in range(20):
        h = _small_world(rng, 4, 3, "all", lead=False)
        seat = h.cur
        moves = h.moves(seat)
        if not moves:
            continue
        bot = DeepBot(seed=1, worlds=1, scoring="all", rollout="double", leaf_tiles=12)
        for t, end in moves:
            c = h.copy()
            c.play(t, end)
            if c.hands[seat]:
                c.cur = (seat + 1) % c.n
                want = Solver(c, seat, bot.match_bonus).value()
            else:
                want = c.value(c.points(seat), seat, bot.match_bonus)
            assert bot._rollout_value(h, seat, t, end, 5, None) == want


def test_a_forced_move_returns_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    """One distinct play (or one tile on two equal ends) is played at once: no world is
    sampled."""
    import dominohall.bots.block as block

    def no_sampling(*args: object) -> None:
        raise AssertionError("sampled a world for a forced move")

    monkeypatch.setattr(block, "sample_hands", no_sampling)
    forced = 0
    for view, _ in _random_play_views(30):
        if len(block._candidates(view)) == 1:
            bot = DeepBot(seed=1, budget_ms=1e9, clock="cpu")
            assert bot.act(view) in view["legal_actions"]
            forced += 1
    assert forced >= 20


def _random_play_views(games: int) -> Iterator[tuple[dict, random.Random]]:
    """The seat to move's view at every turn of `games` random 4-player partnership
    hands, with each hand's own random numbers."""
    for seed in range(games):
        g = dominohall.new_game("block", players=4, seed=seed, options=OPTIONS[4])
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.current_seat
            yield g.view(seat), rng
            g.apply(rng.choice(g.legal_actions()), seat=seat)


def test_sampled_worlds_respect_every_proven_void() -> None:
    """In Block nobody draws, so a pass proves the passer holds no tile with either open
    number for the rest of the hand: no sampled world (weighted or not) ever gives it one,
    and the play-history weight of every sampled world is finite."""
    import math

    from dominohall.bots.inference import PlayHistory, lacks
    from dominohall.engine.sampling import sample_hands
    from dominohall.engine.tiles import WITH_HALF

    checked = 0
    for view, rng in _random_play_views(40):
        seat = view["seat"]
        proven = lacks(view)
        if any(proven[s] for s in range(4) if s != seat):
            history = PlayHistory(view)
            for _ in range(20):
                hands, _ = sample_hands(view, rng)
                for s, numbers in proven.items():
                    for v in numbers:
                        assert not hands[s] & WITH_HALF[v], (s, v)
                assert math.isfinite(history.log_weight(hands, seat))
            checked += 1
    assert checked >= 50


def test_search_stops_early_only_when_the_choice_is_settled() -> None:
    """`stop_z`: a candidate ahead in every world settles the choice, as do candidates all
    within `close` points; two candidates that trade places do not."""
    from dominohall.bots.block import _settled

    rng = random.Random(3)
    flat = [0.0] * 16
    clear = [[10 + rng.random(), rng.random(), rng.random()] for _ in range(16)]
    assert _settled(clear, flat, 3.0, 0.0)
    mixed = [[rng.choice((-20.0, 20.0)), rng.choice((-20.0, 20.0))] for _ in range(16)]
    assert not _settled(mixed, flat, 3.0, 0.0)
    tiny = [[x, x + rng.uniform(-0.1, 0.1)] for x in (rng.uniform(-30, 30) for _ in range(16))]
    assert _settled(tiny, flat, 3.0, 1.0)
    assert not _settled(tiny, flat, 3.0, 0.0)
    # one world carrying all the weight is not enough evidence
    assert not _settled(clear, [0.0] + [-50.0] * 15, 3.0, 0.0)
    # a clocked search stops at the first settled check (16 worlds), a fixed one never
    g = _position(2, 20)
    view = g.view(g.current_seat)
    bot = DeepBot(seed=1, budget_ms=1e9, clock="cpu", stop_z=0.001, close=1e9)
    bot.act(view)
    assert bot.last_search["worlds"] == 16
    fixed = DeepBot(seed=1, worlds=24, stop_z=0.001, close=1e9)
    fixed.act(view)
    assert fixed.last_search["worlds"] == 24


@pytest.mark.parametrize("param", ["min_worlds", "max_worlds", "solve_tiles", "leaf_tiles",
                                   "stop_z", "close", "beta", "double", "partner_beta"])
def test_negative_search_settings_are_refused(param):
    """A negative count or threshold is an error naming it, never silently read as off."""
    with pytest.raises(ValueError, match=f"bad parameter for bot 'deep': {param}=-3"):
        bots.make("deep", game="block", **{param: -3})
    assert bots.make("deep", game="block", **{param: 0}) is not None


@pytest.mark.parametrize("lapse", [-0.5, 1, 2.5])
def test_a_lapse_outside_0_to_1_is_refused(lapse):
    with pytest.raises(ValueError, match=f"bad parameter for bot 'deep': lapse={lapse}"):
        bots.make("deep", game="block", lapse=lapse)
