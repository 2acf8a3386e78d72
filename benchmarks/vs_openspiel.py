"""Our bots against OpenSpiel's `ISMCTSBot`, in OpenSpiel's own 2-player
``python_block_dominoes``.

    .venv/bin/python benchmarks/vs_openspiel.py --ours pimc:budget_ms=100 --sims 500 --deals 50
    .venv/bin/python benchmarks/vs_openspiel.py --ours deep --sims 2000 --minutes 10
    .venv/bin/python benchmarks/vs_openspiel.py --ours deep --game ours   # our own OpenSpiel game

The bridge: every deal shuffles the 28 tiles with `random.Random`; the first 7 go to
player 0 and the next 7 to player 1 through OpenSpiel's 14 deal chance nodes (in that
order), and into our ``new_game("block", players=2, options={"hands": 1}, hands=...,
boneyard=<the 14 undealt tiles>, leader=0)`` (RULES.md B8: the same game; the
engine's cross-check test proves it move for move).  Each move is chosen in one game and
replayed into the other, asserting the same player to move and the same legal placements;
OpenSpiel skips a player who cannot play, we ask for a forced ``pass``.  The outcome is
OpenSpiel's ``returns()`` for our player (zero-sum: the loser's pips).

The peer: ``ISMCTSBot(game, RandomRolloutEvaluator(1), uct_c=2, max_simulations=--sims,
max_world_samples=unlimited, final_policy_type=MAX_VISIT_COUNT)``.  ISMCTS needs
``resample_from_infostate``, which ``python_block_dominoes`` does not implement, so the
bridge gives it one (`resample`): the opponent's hand is dealt uniformly from the tiles
the bot cannot see, leaving out tiles touching a number the opponent showed it lacked
(OpenSpiel skipped them), the rest goes to the undealt deck.  That is exactly the
uniform distribution over the deals the bot's information state allows.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.games import block_dominoes as osb
from vs_common import Game, match_parser, outcome, run

from dominohall import new_game
from dominohall.arena.match import make_bot
from dominohall.arena.seeds import derive
from dominohall.engine.actions import PLAY
from dominohall.engine.tiles import HIGH, LOW, TEXT

GAME = pyspiel.load_game("python_block_dominoes")
_ACTION = re.compile(r"^p(\d) tile:\(([\d.]+), ([\d.]+)\) pip:(None|[\d.]+)$")


def _decode(action: int) -> tuple[int, int, int | None]:
    """OpenSpiel action id -> (high, low, open-end value or None for the lead)."""
    m = _ACTION.match(osb._ACTIONS_STR[action])
    assert m
    a, b = int(float(m.group(2))), int(float(m.group(3)))
    edge = None if m.group(4) == "None" else int(float(m.group(4)))
    return max(a, b), min(a, b), edge


DECODED = [_decode(a) for a in range(len(osb._ACTIONS_STR))]
DEAL = {(int(max(t)), int(min(t))): i for i, t in enumerate(osb._DECK)}


def resample(state: Any, player: int, rng: random.Random) -> Any:
    """A state with `player`'s information and the opponent's hand dealt anew."""
    opp = 1 - player
    lacks: set[float] = set()
    edges: list[float] = []
    prev = None
    for act in state.actions_history:
        if prev is not None and act.player == prev:      # the other player was skipped
            if act.player == player:
                lacks.update(edges)
        if not edges:
            edges = list(act.tile)
        else:
            edges.remove(act.edge)
            edges.append(act.tile[0] if act.tile[0] != act.edge else act.tile[1])
        prev = act.player
    if prev == player and state.current_player() == player:
        lacks.update(edges)                               # skipped just now
    unseen = list(state.hands[opp]) + list(state.deck)
    allowed = [t for t in unseen if t[0] not in lacks and t[1] not in lacks]
    rng.shuffle(allowed)
    need = len(state.hands[opp])
    hand = sorted(allowed[:need])
    c = state.clone()
    c.hands[opp] = hand
    c.deck = [t for t in unseen if t not in hand]
    return c


def peer_bot(sims: int, seed: int) -> Any:
    rs = np.random.RandomState(seed % 2 ** 31)
    bot = ismcts.ISMCTSBot(GAME, mcts.RandomRolloutEvaluator(1, rs), 2.0, sims,
                           random_state=rs)
    rng = random.Random(seed)
    bot.set_resampler(lambda state, player: resample(state, player, rng))
    return bot


def _our_placements(g: Any) -> dict[tuple[int, int, int | None], str]:
    st = g.state
    out = {}
    for a in g.legal_actions():
        if a.kind == PLAY:
            v = None if a.target is None else st.end_values[st.end_names.index(a.target)]
            if v is None and st.lead >= 0:      # a tile that fits one end: the text names none
                v = next(x for x in st.end_values if x in (HIGH[a.tile], LOW[a.tile]))
            out.setdefault((HIGH[a.tile], LOW[a.tile], v), str(a))
    return out


def play_game(seed: int, deal: int, seating: int, ours: str, sims: int) -> Game:
    """One hand: our bot is player `seating` (0 leads)."""
    rng = random.Random(derive(seed, "vs_openspiel", deal))
    tiles = list(range(28))
    rng.shuffle(tiles)
    hands = [tiles[:7], tiles[7:14]]
    g = new_game("block", players=2, options={"hands": 1},
                 hands=[[TEXT[t] for t in h] for h in hands],
                 boneyard=[TEXT[t] for t in tiles[14:]], leader=0)
    state = GAME.new_initial_state()
    for t in hands[0] + hands[1]:
        state.apply_action(DEAL[HIGH[t], LOW[t]])
    bot = make_bot(ours, derive(seed, "bot", deal, seating), "block")
    peer = peer_bot(sims, derive(seed, "ismcts", deal, seating))
    ms_ours: list[float] = []
    ms_peer: list[float] = []
    clock = time.process_time       # CPU time: the machine is shared, wall time is not ours
    while not g.is_over:
        seat = g.current_seat
        assert seat is not None
        if [str(a) for a in g.legal_actions()] == ["pass"]:
            assert state.is_terminal() or state.current_player() != seat
            g.apply("pass", seat=seat)
            continue
        assert not state.is_terminal() and state.current_player() == seat
        ours_now = _our_placements(g)
        theirs = {DECODED[a]: a for a in state.legal_actions()}
        assert set(ours_now) == set(theirs), (deal, ours_now, theirs)
        if seat == seating:
            view = g.view(seat)
            start = clock()
            text = bot.act(view)
            ms_ours.append((clock() - start) * 1000)
            key = next(k for k, v in ours_now.items() if v == text) if text in \
                ours_now.values() else _key_of(g, text)
            action = theirs[key]
        else:
            start = clock()
            action = peer.step(state)
            ms_peer.append((clock() - start) * 1000)
            text = ours_now[DECODED[action]]
        g.apply(text, seat=seat)
        state.apply_action(action)
    assert state.is_terminal(), "our hand ended, OpenSpiel's did not"
    returns = state.returns()
    assert returns[0] == g.scores[0] - g.scores[1], (deal, returns, g.scores)
    mine = returns[seating]
    return {"deal": deal, "seating": seating, "points": mine, "win": outcome(mine, -mine),
            "ms_ours": [round(x, 3) for x in ms_ours], "ms_peer": [round(x, 3) for x in ms_peer]}


def _key_of(g: Any, text: str) -> tuple[int, int, int | None]:
    """(high, low, end value) of one of our play texts (``>R`` when ``>L`` was listed)."""
    st = g.state
    tile, _, target = text.partition(">")
    hi, lo = (int(x) for x in tile.split("-"))
    v = st.end_values[st.end_names.index(target)] if target else None
    return hi, lo, v


def play_game_ours(seed: int, deal: int, seating: int, ours: str, sims: int) -> Game:
    """One hand of our own ``python_dominohall_block`` (`dominohall.rl`), where ISMCTS
    uses the game's own ``resample_from_infostate`` (`dominohall.sample_world`)."""
    import dominohall.rl  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_dominohall_block")
    rng = random.Random(derive(seed, "vs_openspiel", deal))
    tiles = list(range(28))
    rng.shuffle(tiles)
    state = game.new_initial_state()
    for t in tiles[:14]:
        state.apply_action(t)                 # outcome = tile id: seat 0's 7, then seat 1's
    bot = make_bot(ours, derive(seed, "bot", deal, seating), "block")
    rs = np.random.RandomState(derive(seed, "ismcts", deal, seating) % 2 ** 31)
    peer = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, sims, random_state=rs)
    ms_ours: list[float] = []
    ms_peer: list[float] = []
    clock = time.process_time
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])      # a forced pass or play: nobody's choice
            continue
        start = clock()
        if p == seating:
            text = bot.act(state.game.view(p))
            ms_ours.append((clock() - start) * 1000)
            action = next(a for a in legal if state.action_to_string(p, a) == text)
        else:
            action = peer.step(state)
            ms_peer.append((clock() - start) * 1000)
        state.apply_action(action)
    mine = state.returns()[seating]
    return {"deal": deal, "seating": seating, "points": mine, "win": outcome(mine, -mine),
            "ms_ours": [round(x, 3) for x in ms_ours], "ms_peer": [round(x, 3) for x in ms_peer]}


def main() -> None:
    p = match_parser(__doc__ or "", "results/vs_openspiel.jsonl")
    p.add_argument("--sims", type=int, default=500, help="ISMCTS simulations a move (500)")
    p.add_argument("--game", choices=("openspiel", "ours"), default="openspiel",
                   help="OpenSpiel's python_block_dominoes (default) or our registered "
                        "python_dominohall_block")
    args = p.parse_args()
    play = play_game if args.game == "openspiel" else play_game_ours
    where = "" if args.game == "openspiel" else " in python_dominohall_block"
    run(args, f"{args.ours} vs ismcts:sims={args.sims}{where} (seed {args.seed})",
        lambda seed, deal, s: play(seed, deal, s, args.ours, args.sims))


if __name__ == "__main__":
    main()
