"""The peer bridges of benchmarks/vs_dominoes.py and benchmarks/vs_openspiel.py: the same
deal in both games, every move replayed into both, and the games agree move for move
(the bridges assert it at every step) and on the result."""

from __future__ import annotations

import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "rl"))         # peers
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "benchmarks"))

from peers import need  # noqa: E402

need("dominoes", "pyspiel")

import vs_common  # noqa: E402
import vs_dominoes  # noqa: E402
import vs_openspiel  # noqa: E402


def test_dominoes_bridge_agrees_move_for_move() -> None:
    games = [vs_dominoes.play_game(7, deal, seating, "blocker", peer)
             for deal, peer in ((0, "composite"), (1, "random"), (2, "pab:start=14:samples=2"))
             for seating in (0, 1)]
    for g in games:
        assert g["win"] in (0.0, 0.5, 1.0)
        assert (g["points"] > 0) == (g["win"] == 1.0)
        assert (g["our_scoring"] > 0) == (g["win"] == 1.0)     # same winner in both games
        assert g["ms_ours"] and g["ms_peer"]
    s = vs_common.summarise(games)
    assert s["deals"] == 3 and s["moves_ours"] == sum(len(g["ms_ours"]) for g in games)


def test_openspiel_bridge_agrees_move_for_move() -> None:
    games = [vs_openspiel.play_game(7, deal, seating, "blocker", sims=5)
             for deal in range(2) for seating in (0, 1)]
    for g in games:
        assert (g["points"] > 0) == (g["win"] == 1.0)


def test_openspiel_resampler_keeps_the_information_state() -> None:
    """ISMCTS's resampler: the same information state, the opponent's hand redealt from
    unseen tiles, never with a number it showed it lacks."""
    state = vs_openspiel.GAME.new_initial_state()
    rng = random.Random(3)
    tiles = list(range(28))
    rng.shuffle(tiles)
    for t in tiles[:14]:
        state.apply_action(vs_openspiel.DEAL[vs_openspiel.HIGH[t], vs_openspiel.LOW[t]])
    while not state.is_terminal():
        p = state.current_player()
        r = vs_openspiel.resample(state, p, rng)
        assert r.information_state_string(p) == state.information_state_string(p)
        assert sorted(r.hands[p]) == sorted(state.hands[p])
        assert len(r.hands[1 - p]) == len(state.hands[1 - p])
        assert sorted(r.hands[1 - p] + r.deck) == sorted(state.hands[1 - p] + state.deck)
        assert set(r.legal_actions()) == set(state.legal_actions())
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_resampler_respects_shown_voids() -> None:
    """After OpenSpiel skipped a player, no resampled hand of theirs can follow the ends
    they could not follow then."""
    rng = random.Random(0)
    found = 0
    for deal in range(60):
        state = vs_openspiel.GAME.new_initial_state()
        tiles = list(range(28))
        random.Random(deal).shuffle(tiles)
        for t in tiles[:14]:
            state.apply_action(vs_openspiel.DEAL[vs_openspiel.HIGH[t], vs_openspiel.LOW[t]])
        last = None
        while not state.is_terminal():
            p = state.current_player()
            if last == p:                      # the opponent was just skipped
                edges = set(state.open_edges)
                for _ in range(10):
                    r = vs_openspiel.resample(state, p, rng)
                    assert not any(a in edges or b in edges for a, b in r.hands[1 - p])
                found += 1
                break
            last = p
            state.apply_action(rng.choice(state.legal_actions()))
    assert found >= 5
