"""Engine errors carry a code and params; every interface can say them in any language."""

from __future__ import annotations

import ast
import pathlib
import pickle
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dominohall
from dominohall import IllegalAction, bots, new_game
from dominohall.i18n import LANGUAGES, catalog_json, translator
from dominohall.i18n.errors import ERRORS, REASONS, error_text, match_reason

ENGINE = pathlib.Path(dominohall.__file__).parent / "engine"
RAISES = {"IllegalAction", "NotYourTurn", "GameOver"}


def test_every_engine_raise_has_a_known_code():
    found = 0
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = getattr(node.exc.func, "id", None)
                if name in RAISES:
                    found += 1
                    where = f"{path.name}:{node.lineno}"
                    assert len(node.exc.args) >= 2, f"{where}: no code"
                    code = node.exc.args[1]
                    assert isinstance(code, ast.Constant) and code.value in ERRORS, where
    assert found >= 8


def _illegal_attempts(game: str, players: int, seed: int):
    """Play a bot game; before each bot move try a handful of wrong actions (a try that
    happens to be legal is simply played)."""
    options = {"set_max": 6, "hand_size": 5} if game == "mexican_train" else {}
    g = new_game(game, players=players, seed=seed, options=options)
    seats = [bots.make("greedy", seed=s, game=game) for s in range(players)]
    rng = random.Random(seed)
    targets = ["t0", "t1", "t2", "mx", "L", "R", "U", "D", None]
    errors = []
    while not g.is_over:
        seat = g.current_seat
        hand = g.view(seat)["hand"] or []
        tries = ["draw", "pass", "end", "9-9", "zz", "6-6>q"]
        for _ in range(5):
            tile = rng.choice(hand + ["6-6", "5-0", "3-1"])
            target = rng.choice(targets)
            tries.append(tile if target is None else f"{tile}>{target}")
        moved = False
        for a in tries:
            try:
                g.apply(a, seat=seat)
            except IllegalAction as err:
                errors.append(err)
            else:
                moved = True
                break
        if moved or g.is_over:
            continue
        try:
            g.apply(g.legal_actions()[0], seat=(seat + 1) % players)
        except IllegalAction as err:
            errors.append(err)
        g.apply(seats[seat].act(g.view(seat)), seat=seat)
    try:
        g.apply("draw")
    except IllegalAction as err:
        errors.append(err)
    return errors


@pytest.fixture(scope="module")
def engine_errors():
    out = []
    for game, players in (("mexican_train", 3), ("all_fives", 2), ("block", 2), ("draw", 3)):
        for seed in range(3):
            out += _illegal_attempts(game, players, seed)
    return out


def test_english_rendering_is_the_engine_message(engine_errors):
    codes = {e.code for e in engine_errors}
    assert {"not_legal_now", "not_a_tile", "not_a_target", "not_your_turn",
            "match_over"} <= codes
    for err in engine_errors:
        assert err.code in ERRORS
        assert error_text(err, "en") == str(err), err.code


def test_every_reason_the_engine_gives_is_a_catalog_template(engine_errors):
    reasons = {e.params["reason"] for e in engine_errors if e.code == "not_legal_now"}
    assert len(reasons) >= 6
    unknown = [r for r in reasons if match_reason(r) is None]
    assert not unknown


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_errors_read_in_every_language(engine_errors, lang):
    for err in engine_errors:
        text = error_text(err, lang)
        assert text and text != str(err), (lang, str(err))
        assert "{" not in text.replace("{}", ""), text     # every placeholder filled


def test_error_dicts_and_unknown_codes():
    d = {"code": "not_in_boneyard", "params": {"tile": "6-6"},
         "message": "6-6 is not in the boneyard"}
    assert error_text(d, "es") == "6-6 no está en el pozo"
    assert error_text({"code": "no_such_code", "params": {}, "message": "raw"}, "ru") == "raw"
    assert error_text({"code": "not_in_boneyard", "params": "bad", "message": "m"}, "ru") == "m"
    assert error_text({"code": "not_legal_now", "params": {"action": "x", "reason": "odd"}},
                      "be") == "x: odd"


def test_code_and_params_survive_pickling():
    try:
        dominohall.parse_action("9-99")
    except IllegalAction as err:
        again = pickle.loads(pickle.dumps(err))
        assert (again.code, again.params, str(again)) == (err.code, err.params, str(err))
    else:
        raise AssertionError("9-99 parsed")


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=30), st.integers(), st.none(), st.floats()))
def test_any_input_to_parse_action_gives_a_coded_error(junk):
    try:
        dominohall.parse_action(junk)
    except IllegalAction as err:
        assert err.code in ERRORS
        assert error_text(err, "en") == str(err)
        assert error_text(err, "kk")


def test_browser_gets_the_same_templates():
    body = catalog_json("pt")
    assert body["errors"] == ERRORS and body["reasons"] == list(REASONS)
    for template in list(ERRORS.values()) + list(REASONS):
        only_placeholders = not re.sub(r"\{\w+\}|[\W_]", "", template)   # "{field}: {message}"
        assert translator("pt").gettext(template) != template or only_placeholders, template
