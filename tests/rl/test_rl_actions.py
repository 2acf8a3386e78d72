"""The integer action space: fixed, documented, and a bijection with the engine's texts."""

from __future__ import annotations

import random

import pytest
from peers import need

need("numpy")

import dominohall  # noqa: E402
from dominohall.rl import action_spec, decode_action, encode_action  # noqa: E402

CASES = [
    ("mexican_train", 4, {}, 3 + 5 * 91),
    ("mexican_train", 2, {"set_max": 6, "hand_size": 7}, 3 + 3 * 28),
    ("all_fives", 2, {}, 2 + 5 * 28),
    ("all_fives", 3, {"spinner": "every_double"}, 2 + (5 + 2 * 6) * 28),
    ("draw", 4, {"teams": True}, 2 + 3 * 28),
    ("block", 2, {}, 2 + 3 * 28),
]


@pytest.mark.parametrize("name,players,options,size", CASES)
def test_size_and_bijection(name, players, options, size):
    spec = action_spec(name, players=players, options=options)
    assert spec.size == size
    texts = [spec.decode(i) for i in range(spec.size)]
    assert len(set(texts)) == size
    assert [spec.encode(t) for t in texts] == list(range(size))


def test_documented_examples():
    g = dominohall.new_game("block", players=2, seed=1)
    assert encode_action(g, "draw") == 0 and encode_action(g, "pass") == 1
    assert encode_action(g, "6-4>R") == 2 + 2 * 28 + 25
    assert encode_action(g, "4-6>r") == encode_action(g, "6-4>R")
    assert decode_action(g, 2 + 25) == "6-4"                 # the lead
    mt = dominohall.new_game("mexican_train", players=4, seed=1)
    assert [decode_action(mt, i) for i in range(3)] == ["draw", "pass", "end"]
    assert decode_action(mt, 3 + 4 * 91 + 0) == "0-0>mx"
    with pytest.raises(dominohall.IllegalAction):
        encode_action(g, "6-4>t0")
    with pytest.raises(dominohall.IllegalAction):
        decode_action(g, 86)


@pytest.mark.parametrize("name,players,options,size", CASES)
def test_every_legal_action_round_trips(name, players, options, size):
    rng = random.Random(7)
    g = dominohall.new_game(name, players=players, seed=3, options=options)
    spec = action_spec(g)
    assert action_spec(g.view(0)) == spec
    for _ in range(400):
        if g.is_over:
            break
        legal = [str(a) for a in g.legal_actions()]
        codes = [spec.encode(a) for a in legal]
        assert len(set(codes)) == len(codes)
        assert [spec.decode(c) for c in codes] == legal
        g.apply(rng.choice(legal))
