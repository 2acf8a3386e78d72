"""OpenSpiel python games: random_sim_test, explicit chance, resampling and IS-MCTS."""

from __future__ import annotations

import pytest
from peers import need

np, pyspiel = need("numpy", "pyspiel")

import dominohall.rl  # noqa: E402,F401

GAMES = [
    ("python_dominohall_block", {}),
    ("python_dominohall_all_fives", {}),
    ("python_dominohall_all_fives", {"players": 4, "options": "teams:true", "leader": -1}),
    ("python_dominohall_mexican_train", {"players": 3}),
    ("python_dominohall_mexican_train", {"players": 2, "options": "engine:set_aside"}),
]


@pytest.mark.parametrize("name,params", GAMES)
def test_random_sim_test(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_default_block_matches_openspiel_block_shape():
    game = pyspiel.load_game("python_dominohall_block")
    assert game.num_players() == 2 and game.max_chance_outcomes() == 28
    assert game.num_distinct_actions() == 86
    state = game.new_initial_state()
    for _ in range(14):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 28 - _
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0 and len(state.legal_actions()) == 7


def play_to(state, rng, stop):
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_draws_are_chance_nodes_and_use_put_on_top():
    game = pyspiel.load_game("python_dominohall_all_fives")
    rng = np.random.default_rng(3)
    state = play_to(game.new_initial_state(), rng,
                    lambda s: not s.is_chance_node() and 0 in s.legal_actions())
    assert state.legal_actions() == [0]                 # must draw
    player = state.current_player()
    state.apply_action(0)
    assert state.is_chance_node()
    tiles = [t for t, _ in state.chance_outcomes()]
    assert len(tiles) == state.game.view(None)["boneyard"]
    state.apply_action(tiles[-1])
    drawn = [e for e in state.game.view(player)["log"] if e["type"] == "draw"][-1]["tile"]
    assert drawn == dominohall.rl.actions.TILE_TEXT[tiles[-1]]
    assert state.game.to_record()["actions"][-2].startswith("top ")


@pytest.mark.parametrize("name,params", GAMES[1:2] + GAMES[3:4])
def test_resampled_states_share_the_information_state(name, params):
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    checked = differed = 0
    while not state.is_terminal() and checked < 12:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        p = state.current_player()
        other = state.resample_from_infostate(p, sampler)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        q = (p + 1) % game.num_players()
        differed += other.information_state_string(q) != state.information_state_string(q)
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked and differed


@pytest.mark.parametrize("name,params", [GAMES[0], GAMES[1],
                                         ("python_dominohall_mexican_train",
                                          {"players": 3, "options": "set_max:9;hand_size:8"})])
def test_ismcts_bot_plays(name, params):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                           max_simulations=25, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 6:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 6 or state.is_terminal()


def test_single_round_only_and_returns_zero_sum():
    with pytest.raises(Exception, match="one round"):
        pyspiel.load_game("python_dominohall_mexican_train", {"options": "rounds:3"})
    game = pyspiel.load_game("python_dominohall_block")
    state = play_to(game.new_initial_state(), np.random.default_rng(1), lambda s: False)
    returns = state.returns()
    scores = state.game.scores
    assert returns == [scores[0] - scores[1], scores[1] - scores[0]]
