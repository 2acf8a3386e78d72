"""Wrong types and values at every public entry point: the same error in both builds.

A compiled function (mypyc) checks its annotated argument types itself and raises a bare
``TypeError`` where the pure engine would raise its own typed error, so the public entry
points take what callers send and check it themselves (see engine/game.py).  This table is
the contract: CI runs this file on the pure engine (the main suite) and again on the
compiled one (``.ci/run`` installs the wheel in a second environment), so both builds
must raise exactly these errors with exactly these messages.
"""

from __future__ import annotations

import random

import pytest

import dominohall
from dominohall import BadOption, BadRecord, DominohallError, GameOver, IllegalAction, NotYourTurn
from dominohall.engine import parse_tile, tile_text
from dominohall.engine.sampling import sample_hands


def block():
    return dominohall.new_game("block", players=2, seed=1, options={"hands": 1})


def mexican():
    return dominohall.new_game("mexican_train", players=2, seed=1)


def record(**changes):
    r = block().to_record()
    r.update(changes)
    return r


def finished():
    g = block()
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return g


def view_of_block():
    return block().view(0)


NEW = dominohall.new_game
GAMES_MSG = "(choose from mexican_train, all_fives, draw, block)"
CASES = [
    # new_game: the game's name
    ("name int", lambda: NEW(5, players=2), BadOption, f"game: unknown game 5 {GAMES_MSG}"),
    ("name None", lambda: NEW(None, players=2), BadOption,
     f"game: unknown game None {GAMES_MSG}"),
    ("name bytes", lambda: NEW(b"block", players=2), BadOption,
     f"game: unknown game b'block' {GAMES_MSG}"),
    ("name unknown", lambda: NEW("chess", players=2), BadOption,
     f"game: unknown game 'chess' {GAMES_MSG}"),
    # players
    ("players float", lambda: NEW("block", players=2.0), BadOption,
     "players: 2.0 is not allowed (block takes 2 to 4)"),
    ("players text", lambda: NEW("block", players="2"), BadOption,
     "players: '2' is not allowed (block takes 2 to 4)"),
    ("players bool", lambda: NEW("block", players=True), BadOption,
     "players: True is not allowed (block takes 2 to 4)"),
    ("players None", lambda: NEW("mexican_train", players=None), BadOption,
     "players: None is not allowed (mexican_train takes 2 to 10)"),
    ("players huge", lambda: NEW("mexican_train", players=10**30), BadOption,
     f"players: {10**30} is not allowed (mexican_train takes 2 to 10)"),
    ("players list", lambda: NEW("block", players=[2]), BadOption,
     "players: [2] is not allowed (block takes 2 to 4)"),
    # seed
    ("seed float", lambda: NEW("block", players=2, seed=1.5), BadOption,
     "seed: 1.5 is not a whole number or a string"),
    ("seed bool", lambda: NEW("block", players=2, seed=True), BadOption,
     "seed: True is not a whole number or a string"),
    ("seed list", lambda: NEW("block", players=2, seed=[1]), BadOption,
     "seed: [1] is not a whole number or a string"),
    ("seed bytes", lambda: NEW("block", players=2, seed=b"1"), BadOption,
     "seed: b'1' is not a whole number or a string"),
    # options
    ("options list", lambda: NEW("block", players=2, options=[("teams", True)]), BadOption,
     "options: [('teams', True)] is not a mapping of option names to values"),
    ("options text", lambda: NEW("block", players=2, options="teams=true"), BadOption,
     "options: 'teams=true' is not a mapping of option names to values"),
    ("option unknown", lambda: NEW("block", players=2, options={"colour": "red"}), BadOption,
     "colour: unknown option for block (options: game, set_max, teams, hand_size, "
     "next_leader, spinner, spinner_sides_after_ends, fives_and_threes, must_play, "
     "boneyard_reserve, draw, round_to, block_tie, target, end_at, hands)"),
    ("option name not text", lambda: NEW("block", players=2, options={1: 2}), BadOption,
     "1: unknown option for block (options: game, set_max, teams, hand_size, next_leader, "
     "spinner, spinner_sides_after_ends, fives_and_threes, must_play, boneyard_reserve, draw, "
     "round_to, block_tie, target, end_at, hands)"),
    ("option value list", lambda: NEW("block", players=2, options={"target": [100]}),
     BadOption, "target: [100] is not allowed (allowed: 250 | 100 | 150 | 200 | 500)"),
    ("option value float", lambda: NEW("block", players=2, options={"hands": 1.0}), BadOption,
     "hands: 1.0 is not allowed (allowed: 0 | a whole number 1..)"),
    ("option bool for int", lambda: NEW("mexican_train", players=2,
                                        options={"double_blank": True}), BadOption,
     "double_blank: true is not allowed (allowed: 0 | 25 | 50)"),
    ("preset unknown", lambda: NEW("mexican_train", players=2, options={"preset": 3}),
     BadOption, "preset: unknown preset 3 (choose from seed, puremco, casual)"),
    # stacked decks
    ("hands int", lambda: NEW("block", players=2, hands=5), BadOption,
     "hands: give one list of tiles per seat (2 lists)"),
    ("hands text", lambda: NEW("block", players=2, hands="6-6"), BadOption,
     "hands: give one list of tiles per seat (2 lists)"),
    ("hand int", lambda: NEW("block", players=2, hands=[5, 6]), BadOption,
     "hands: 5 is not a list of tile strings"),
    ("hand text", lambda: NEW("block", players=2, hands=["6-6", "5-5"]), BadOption,
     "hands: give a list of tile strings, not one string"),
    ("hand tile int", lambda: NEW("block", players=2, hands=[[66], []]), BadOption,
     "hands: '66' is not a tile (write it like '12-5')"),
    ("boneyard int", lambda: NEW("block", players=2, hands=[[], []], boneyard=5), BadOption,
     "hands: seat 0 has 0 tiles, but hand_size is 7"),
    ("boneyard dict", lambda: NEW("block", players=2, boneyard={"6-6": 1}), BadOption,
     "hands: a stacked boneyard needs the hands too"),
    # leader
    ("leader text", lambda: NEW("block", players=2, leader="0"), BadOption,
     "leader: '0' is not a seat (0..1)"),
    ("leader float", lambda: NEW("block", players=2, leader=1.0), BadOption,
     "leader: 1.0 is not a seat (0..1)"),
    ("leader bool", lambda: NEW("block", players=2, leader=True), BadOption,
     "leader: True is not a seat (0..1)"),
    ("leader out of range", lambda: NEW("block", players=2, leader=2), BadOption,
     "leader: 2 is not a seat (0..1)"),
    ("leader in mexican train", lambda: NEW("mexican_train", players=2, leader=0), BadOption,
     "leader: Mexican Train has no leader: the engine decides who starts"),
    # Game.apply: the action, the seat
    ("action int", lambda: block().apply(5), IllegalAction, "5 is not an action"),
    ("action None", lambda: block().apply(None), IllegalAction, "None is not an action"),
    ("action bytes", lambda: block().apply(b"pass"), IllegalAction, "b'pass' is not an action"),
    ("action list", lambda: block().apply(["pass"]), IllegalAction,
     "['pass'] is not an action"),
    ("action malformed", lambda: block().apply("6-6>X"), IllegalAction,
     "'x' is not a target (use t0..t9 or mx for trains, L/R/U/D for line ends)"),
    ("action not a tile", lambda: block().apply("7-7"), IllegalAction,
     "7-7 is not in the double-6 set"),
    ("action odd unicode", lambda: block().apply("６-６"), IllegalAction,
     "'６-６' is not a tile (write it like '12-5')"),
    ("action huge", lambda: block().apply("6" * 100_000), IllegalAction,
     f"{'6' * 100_000!r} is not a tile (write it like '12-5')"),
    ("seat text", lambda: block().apply("pass", seat="0"), IllegalAction,
     "'0' is not a seat (a whole number, or None)"),
    ("seat float", lambda: block().apply("pass", seat=0.0), IllegalAction,
     "0.0 is not a seat (a whole number, or None)"),
    ("seat bool", lambda: block().apply("pass", seat=False), IllegalAction,
     "False is not a seat (a whole number, or None)"),
    ("seat other", lambda: block().apply("pass", seat=1), NotYourTurn,
     "it is seat 0's turn, not seat 1's"),
    ("seat huge", lambda: block().apply("pass", seat=2**70), NotYourTurn,
     f"it is seat 0's turn, not seat {2**70}'s"),
    ("after the end", lambda: finished().apply("pass"), GameOver, "the match is over"),
    ("after the end, bad type", lambda: finished().apply(5, seat="x"), GameOver,
     "the match is over"),
    # Game.view
    ("view text", lambda: block().view("0"), ValueError,
     "seat must be 0..1 or None, not '0'"),
    ("view float", lambda: block().view(0.0), ValueError,
     "seat must be 0..1 or None, not 0.0"),
    ("view bool", lambda: block().view(True), ValueError,
     "seat must be 0..1 or None, not True"),
    ("view out of range", lambda: block().view(2), ValueError,
     "seat must be 0..1 or None, not 2"),
    ("view negative", lambda: mexican().view(-1), ValueError,
     "seat must be 0..1 or None, not -1"),
    # Game.put_on_top
    ("top int", lambda: mexican().put_on_top(5), IllegalAction,
     "5 is not a tile (write it like '12-5')"),
    ("top None", lambda: mexican().put_on_top(None), IllegalAction,
     "None is not a tile (write it like '12-5')"),
    ("top not in boneyard", lambda: mexican().put_on_top("12-12"), IllegalAction,
     "12-12 is not in the boneyard"),
    # replay: malformed records
    ("record list", lambda: dominohall.replay([1, 2]), BadRecord,
     "not a dominohall game record"),
    ("record none", lambda: dominohall.replay(None), BadRecord, "not a dominohall game record"),
    ("record version text", lambda: dominohall.replay(record(version="2")), BadRecord,
     "record version '2' is not supported (this dominohall reads versions 1 to 3)"),
    ("record version bool", lambda: dominohall.replay(record(version=True)), BadRecord,
     "record version True is not supported (this dominohall reads versions 1 to 3)"),
    ("record seed float", lambda: dominohall.replay(record(seed=1.5)), BadRecord,
     "the record's setup is invalid: seed: 1.5 is not a whole number or a string"),
    ("record players text", lambda: dominohall.replay(record(players="2")), BadRecord,
     "the record's setup is invalid: players: give the number of players as "
     "new_game(players=...)"),
    ("record game int", lambda: dominohall.replay(record(game=3)), BadRecord,
     f"the record's setup is invalid: game: unknown game 3 {GAMES_MSG}"),
    ("record options list", lambda: dominohall.replay(record(options=[])), BadRecord,
     "the record's setup is invalid: options: [] is not a mapping of option names to values"),
    ("record leader float", lambda: dominohall.replay(record(leader=0.0)), BadRecord,
     "the record's setup is invalid: leader: 0.0 is not a seat (0..1)"),
    ("record deck list", lambda: dominohall.replay(record(deck=[1])), BadRecord,
     "the record's deck [1] is not a mapping of hands and boneyard"),
    ("record deck hands int", lambda: dominohall.replay(record(deck={"hands": 3})), BadRecord,
     "the record's setup is invalid: hands: give one list of tiles per seat (2 lists)"),
    ("record actions text", lambda: dominohall.replay(record(actions="pass")), BadRecord,
     "the record's actions 'pass' are not a list"),
    ("record actions dict", lambda: dominohall.replay(record(actions={})), BadRecord,
     "the record's actions {} are not a list"),
    ("record action int", lambda: dominohall.replay(record(actions=[7])), BadRecord,
     "action #1 7 is illegal: 7 is not an action"),
    ("record action null", lambda: dominohall.replay(record(actions=[None])), BadRecord,
     "action #1 None is illegal: None is not an action"),
    ("record top of nothing", lambda: dominohall.replay(record(actions=["top 9-9"])),
     BadRecord, "action #1 'top 9-9' is illegal: 9-9 is not in the double-6 set"),
    ("record no seed", lambda: dominohall.replay({k: v for k, v in record().items()
                                                  if k != "seed"}),
     BadRecord, "the record has no 'seed'"),
    ("record no actions", lambda: dominohall.replay({k: v for k, v in record().items()
                                                     if k != "actions"}),
     BadRecord, "the record has no 'actions'"),
    # parse_action, parse_tile, tile_text, specs_for
    ("parse_action int", lambda: dominohall.parse_action(12), IllegalAction,
     "12 is not an action"),
    ("parse_action set_max text", lambda: dominohall.parse_action("6-6", "6"), TypeError,
     "set_max must be a whole number, not '6'"),
    ("parse_tile int", lambda: parse_tile(5), IllegalAction,
     "5 is not a tile (write it like '12-5')"),
    ("parse_tile set_max float", lambda: parse_tile("6-6", 6.0), TypeError,
     "set_max must be a whole number, not 6.0"),
    ("parse_tile outside the set", lambda: parse_tile("9-9", 6), IllegalAction,
     "9-9 is not in the double-6 set"),
    ("tile_text text", lambda: tile_text("6-6"), ValueError,
     "'6-6' is not a tile id (0..189)"),
    ("tile_text negative", lambda: tile_text(-1), ValueError, "-1 is not a tile id (0..189)"),
    ("tile_text too big", lambda: tile_text(190), ValueError, "190 is not a tile id (0..189)"),
    ("tile_text float", lambda: tile_text(3.0), ValueError, "3.0 is not a tile id (0..189)"),
    ("specs_for int", lambda: dominohall.specs_for(1), BadOption,
     f"game: unknown game 1 {GAMES_MSG}"),
    # sample_world
    ("sample_world not a view", lambda: dominohall.sample_world(5, random.Random(1)),
     DominohallError, "sample_world needs a seat's view (Game.view), not 5"),
    ("sample_world spectator", lambda: dominohall.sample_world(block().view(None),
                                                               random.Random(1)),
     DominohallError, "sample_world needs a seat's view, not a spectator's"),
    ("sample_world rng int", lambda: dominohall.sample_world(view_of_block(), 1), TypeError,
     "rng must be a random.Random, not 1"),
    ("sample_hands not a view", lambda: sample_hands([], random.Random(1)),
     DominohallError, "sample_world needs a seat's view (Game.view), not []"),
    ("sample_hands rng none", lambda: sample_hands(view_of_block(), None), TypeError,
     "rng must be a random.Random, not None"),
    ("sample_world over", lambda: dominohall.sample_world(finished().view(0),
                                                          random.Random(1)),
     DominohallError, "the match is over: there is nothing to sample"),
]


@pytest.mark.parametrize("what, call, error, message", CASES, ids=[c[0] for c in CASES])
def test_a_wrong_input_raises_the_engines_own_error(what, call, error, message):
    with pytest.raises(Exception) as caught:
        call()
    assert type(caught.value) is error, f"{what}: {caught.value!r}"
    assert str(caught.value) == message


def test_a_rejected_action_changes_nothing():
    g = block()
    before = (g.view(0), g.view(1), g.to_record())
    for action, seat in ((5, None), ("pass", "0"), ("pass", 1.0), (None, 0), ("6-6>Q", 0)):
        with pytest.raises(IllegalAction):
            g.apply(action, seat=seat)
    assert (g.view(0), g.view(1), g.to_record()) == before


def test_the_table_covers_every_public_entry_point():
    """A new public function needs its rows here (the same errors in both builds)."""
    checked = {"new_game", "replay", "parse_action", "parse_tile", "tile_text", "specs_for",
               "sample_world"}
    public = {name for name in dominohall.engine.__all__
              if callable(getattr(dominohall.engine, name))
              and not isinstance(getattr(dominohall.engine, name), type)}
    assert public == checked
    game_methods = {name for name in vars(dominohall.Game)
                    if not name.startswith("_") and callable(getattr(dominohall.Game, name))}
    assert game_methods == {"legal_actions", "apply", "apply_unchecked", "put_on_top", "view",
                            "to_record", "clone"}
