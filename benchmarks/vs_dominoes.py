"""Our bots against the `dominoes` package's players, in its own 4-player partnership game.

    .venv/bin/python benchmarks/vs_dominoes.py --ours pimc:budget_ms=100 --peer pab --deals 100
    .venv/bin/python benchmarks/vs_dominoes.py --ours deep --peer pab:start=4:samples=30
    .venv/bin/python benchmarks/vs_dominoes.py --ours deep:scoring=all:rollout=double:max_worlds=64
    .venv/bin/python benchmarks/vs_dominoes.py --summary --out results/vs_dominoes.jsonl
    F=deep:clock=cpu:budget_ms=150:early_ms=35:solve_tiles=18:max_worlds=96
    .venv/bin/python benchmarks/vs_dominoes.py --ours $F:scoring=all:rollout=double

(The last is the third round's setting, results/block_dominoes.txt; long runs go faster
from a wheel built with the compiled engine, ``DOMINOHALL_COMPILE=1 pip wheel .``.)

The bridge: every deal shuffles the 28 tiles with `random.Random`, gives seats 0-3 seven
each and picks the leader (deal k: seat k mod 4).  The same hands go into a
`dominoes.Game` (its constructor, as `Game.new` builds it) and into our
``new_game("block", players=4, options={"teams": True, "hands": 1}, hands=..., leader=...)``.
Each move is chosen in one game and replayed into the other; before every move the bridge
asserts both games have the same player to move and the same legal placements (tile and
open-end value; the package lists one move where both ends show the same value, we list
``>L`` and ``>R``), after the hand that both ended at the same moment with the same
winning team (a pass is automatic in the package, a forced ``pass`` action in ours).

The outcome is the package's own: its `Result.points` (team 0 positive) for our team.
It scores more than we do: a domino wins the pips of all three other hands, a block the
pips of all four; ours (RULES.md B6) counts only the opponents' pips.  The table reports
theirs; ``deep:scoring=all`` searches theirs too (a domino or a block wins every hand's
pips left), other bots search ours.

Peers (``--peer``), each a chain of the package's players applied in order (the last one
decides, earlier ones order the moves, as its docs compose them):

* ``pab[:start=8][:samples=10]``: ``bota_gorda``, ``double``, then
  ``probabilistic_alphabeta(start_move=start, sample_size=samples)`` (the heaviest
  double/tile before `start`, exact alpha-beta on sampled fair deals from then on);
* ``composite``: ``bota_gorda`` then ``double`` (heaviest double, else heaviest tile);
* ``bota_gorda``, ``random``.

The package's players use the global `random`; it is seeded per game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import dominoes
from vs_common import Game, match_parser, outcome, run

from dominohall import new_game
from dominohall.arena.match import make_bot, parse_bot
from dominohall.arena.seeds import derive
from dominohall.engine.actions import PLAY
from dominohall.engine.tiles import HIGH, LOW, TEXT

TILES = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]   # (high, low), as we print


def peer_player(entry: str) -> Any:
    """The package's player chain an entry names."""
    name, params = parse_bot(entry)
    P = dominoes.players
    if name == "pab":
        search = P.probabilistic_alphabeta(start_move=int(params.get("start", 8)),
                                           sample_size=int(params.get("samples", 10)))
        chain = [P.bota_gorda, P.double, search]
    elif name == "composite":
        chain = [P.bota_gorda, P.double]
    elif name in ("bota_gorda", "random"):
        chain = [getattr(P, name)]
    else:
        raise SystemExit(f"unknown peer {entry!r} (pab, composite, bota_gorda, random)")

    def choose(game: Any) -> Any:
        for player in chain:
            player(game)
        return game.valid_moves[0]
    return choose


def _domino(tile: int) -> Any:
    return dominoes.Domino(HIGH[tile], LOW[tile])


def _placements(g: Any) -> set[tuple[int, int, int | None]]:
    """Our legal plays as (high, low, open-end value or None)."""
    st = g.state
    out = set()
    for a in g.legal_actions():
        if a.kind != PLAY:
            continue
        value = None if a.target is None else st.end_values[st.end_names.index(a.target)]
        out.add((HIGH[a.tile], LOW[a.tile], value))
    return out


def _peer_placements(pg: Any) -> set[tuple[int, int, int | None]]:
    out = set()
    for d, left in pg.valid_moves:
        hi, lo = max(d.first, d.second), min(d.first, d.second)
        if not pg.board:
            out.add((hi, lo, None))
        else:
            out.add((hi, lo, pg.board.left_end() if left else pg.board.right_end()))
    return out


def _ours_to_peer(g: Any, pg: Any, text: str) -> tuple[Any, bool]:
    tile, _, target = text.partition(">")
    hi, lo = (int(x) for x in tile.split("-"))
    d = dominoes.Domino(hi, lo)
    if not pg.board:
        return d, True
    st = g.state
    value = st.end_values[st.end_names.index(target)] if target else None
    if value is None:          # a tile that fits one end only: our text names no end
        value = next(v for v in st.end_values if v in (hi, lo))
    return d, pg.board.left_end() == value


def _peer_to_ours(g: Any, pg: Any, move: tuple[Any, bool]) -> str:
    d, left = move
    hi, lo = max(d.first, d.second), min(d.first, d.second)
    tile = f"{hi}-{lo}"
    if not pg.board:
        return tile
    value = pg.board.left_end() if left else pg.board.right_end()
    legal = [str(a) for a in g.legal_actions()]
    st = g.state
    for a in legal:
        name, _, target = a.partition(">")
        if name == tile and (not target or st.end_values[st.end_names.index(target)] == value):
            return a
    raise AssertionError(f"peer move {move} has no match among ours {legal}")


def play_game(seed: int, deal: int, seating: int, ours: str, peer: str,
              check: bool = True, observe: Callable[[Any, int], None] | None = None) -> Game:
    """One hand: our bot in seats {0, 2} (seating 0) or {1, 3} (seating 1); `observe(game,
    seat)` is called before each of our choices (a benchmark's look at the true game)."""
    rng = random.Random(derive(seed, "vs_dominoes", deal))
    tiles = list(range(28))
    rng.shuffle(tiles)
    hands = [tiles[7 * s:7 * s + 7] for s in range(4)]
    leader = deal % 4
    g = new_game("block", players=4, options={"teams": True, "hands": 1},
                 hands=[[TEXT[t] for t in h] for h in hands], boneyard=[], leader=leader)
    pg = dominoes.Game(dominoes.Board(), [dominoes.Hand([_domino(t) for t in h]) for h in hands],
                       [], leader, None, leader, None)
    pg.valid_moves = tuple((d, True) for d in pg.hands[leader])
    random.seed(derive(seed, "vs_dominoes-peer", deal, seating))
    our_team = seating
    bots = {s: make_bot(ours, derive(seed, "bot", deal, seating, s), "block")
            for s in range(4) if s % 2 == our_team}
    choose_peer = peer_player(peer)
    ms_ours: list[float] = []
    ms_peer: list[float] = []
    clock = time.process_time       # CPU time: the machine is shared, wall time is not ours
    while not g.is_over:
        seat = g.current_seat
        assert seat is not None
        legal = [str(a) for a in g.legal_actions()]
        if legal == ["pass"]:          # the package skips this seat by itself
            assert pg.result is not None or pg.turn != seat, "a forced pass the package lacks"
            g.apply("pass", seat=seat)
            continue
        assert pg.result is None and pg.turn == seat, (deal, seat, pg.turn, pg.result)
        if check:
            assert _placements(g) == _peer_placements(pg), (deal, legal, pg.valid_moves)
        if seat in bots:
            if observe is not None:
                observe(g, seat)
            view = g.view(seat)
            start = clock()
            text = bots[seat].act(view)
            ms_ours.append((clock() - start) * 1000)
            move = _ours_to_peer(g, pg, text)
        else:
            start = clock()
            move = choose_peer(pg)
            ms_peer.append((clock() - start) * 1000)
            text = _peer_to_ours(g, pg, move)
        g.apply(text, seat=seat)
        pg.make_move(*move)
    assert pg.result is not None, "our hand ended, the package's did not"
    team0 = pg.result.points                    # the package's points, team 0 positive
    ours_pts = team0 if our_team == 0 else -team0
    winners = {s % 2 for s in g.winners}
    if team0 == 0:
        assert winners == {0, 1}, (deal, g.winners, pg.result)
    else:
        assert winners == {0 if team0 > 0 else 1}, (deal, g.winners, pg.result)
    return {"deal": deal, "seating": seating, "points": ours_pts,
            "win": outcome(ours_pts, -ours_pts),
            "our_scoring": g.scores[our_team] - g.scores[1 - our_team],
            "ms_ours": [round(x, 3) for x in ms_ours], "ms_peer": [round(x, 3) for x in ms_peer]}


def main() -> None:
    p = match_parser(__doc__ or "", "results/vs_dominoes.jsonl")
    p.add_argument("--peer", default="pab", help="the package's player (see the docstring)")
    args = p.parse_args()
    run(args, f"{args.ours} vs {args.peer} (seed {args.seed})",
        lambda seed, deal, s: play_game(seed, deal, s, args.ours, args.peer))


if __name__ == "__main__":
    main()
