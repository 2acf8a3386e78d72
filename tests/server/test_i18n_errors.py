"""Every error the server sends a player carries a machine-readable code and its params
(REST: ``code`` + ``params`` beside the English ``message``; websocket: ``reason`` +
``params``), and every code has its template in every catalog, so the pages say it in
the player's language. The engine's BadOption and BadRecord carry codes too."""

from __future__ import annotations

import ast
import json
import pathlib
import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")

import dominohall
from dominohall import new_game, replay
from dominohall.engine.errors import BadOption, BadRecord
from dominohall.i18n import LANGUAGES
from dominohall.i18n.errors import ENGINE_SETUP, ERRORS, SERVER, error_text
from dominohall.server.protocol import MAX_MESSAGE
from dominohall.server.tables import Limits

from .conftest import in_process_app

PACKAGE = pathlib.Path(dominohall.__file__).parent
LANGS = [code for code in LANGUAGES if code != "en"]
SHORT_MT = {"set_max": 6, "hand_size": 7, "rounds": 1}


# ---- static: every raise names a code that has a template -------------------------------

def _calls(path: pathlib.Path, name: str):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name:
            yield node


def test_every_server_refusal_has_a_template_that_is_its_english_message():
    found = 0
    for path in sorted((PACKAGE / "server").rglob("*.py")):
        for call in _calls(path, "Rejected"):
            found += 1
            where = f"{path.name}:{call.lineno}"
            kw = {k.arg: k.value for k in call.keywords}
            if "filled" in kw and all(isinstance(a, ast.Name) for a in call.args[:2]):
                continue                # a refusal made elsewhere (a worker's), raised again
            reason = kw["reason"].value if "reason" in kw else call.args[0].value
            assert reason in ERRORS, f"{where}: {reason!r} has no template"
            if "filled" not in kw:      # the English message is the template itself
                message = call.args[1]
                assert isinstance(message, ast.Constant), f"{where}: not a template"
                assert ERRORS[reason] == message.value, where
    assert found >= 60


@pytest.mark.parametrize("name", ["BadOption", "BadRecord"])
def test_every_engine_setup_error_has_a_code(name):
    found = 0
    position = 2 if name == "BadOption" else 1
    for path in sorted((PACKAGE / "engine").glob("*.py")):
        for call in _calls(path, name):
            found += 1
            where = f"{path.name}:{call.lineno}"
            assert len(call.args) > position, f"{where}: no code"
            code = call.args[position]
            if isinstance(code, ast.Attribute):     # an IllegalAction's code, passed on
                assert code.attr == "code", where
            elif isinstance(code, ast.IfExp):       # one of two codes
                assert code.body.value in ENGINE_SETUP, where
                assert code.orelse.value in ENGINE_SETUP, where
            else:
                assert isinstance(code, ast.Constant) and code.value in ENGINE_SETUP, where
    assert found >= (20 if name == "BadOption" else 8)


# ---- the engine: code, params, English unchanged ------------------------------------------

def _option_errors():
    cases = [
        ("mexican_train", 4, {"double_blank": 7}),
        ("mexican_train", 4, {"hand_size": 30}),
        ("all_fives", 4, {"hand_size": 9, "set_max": 6}),
        ("mexican_train", 4, {"preset": "nope"}),
        ("mexican_train", 4, {"nope": 1}),
        ("mexican_train", 4, {"rounds": 40}),
        ("all_fives", 3, {"teams": True}),
        ("all_fives", 1, {}),
        ("nope", 2, {}),
    ]
    out = []
    for game, players, options in cases:
        with pytest.raises(BadOption) as err:
            new_game(game, players=players, options=options)
        out.append(err.value)
    for kw in ({"seed": 1.5}, {"leader": 9}, {"hands": [["6-6"]]},
               {"hands": [["6-6", "6-6"], ["5-5"]]}):
        with pytest.raises(BadOption) as err:
            new_game("block", players=2, options={"set_max": 6}, **kw)
        out.append(err.value)
    return out


def _record_errors():
    good = new_game("block", players=2, seed=3, options={"set_max": 6}).to_record()
    records = [{"format": "nope"}, {**good, "version": 99}, {**good, "deck": 5},
               {**good, "actions": 5}, {k: v for k, v in good.items() if k != "game"},
               {**good, "options": {"double_blank": 9}}, {**good, "actions": ["9-9"]}]
    out = []
    for record in records:
        with pytest.raises(BadRecord) as err:
            replay(record)
        out.append(err.value)
    return out


def test_engine_setup_errors_say_their_english_message_from_code_and_params():
    errors = _option_errors() + _record_errors()
    codes = {e.code for e in errors}
    assert len(codes) >= 18, codes
    for err in errors:
        assert err.code in ERRORS, err
        assert json.loads(json.dumps(err.params)) == err.params     # data, for the wire
        said = error_text(err, "en")
        assert said == str(err) or str(err).endswith(said), (err.code, said, str(err))


@pytest.mark.parametrize("lang", LANGS)
def test_engine_setup_errors_in_each_language(lang):
    for err in _option_errors() + _record_errors():
        said = error_text(err, lang)
        assert said and said != str(err), (lang, err.code, said)
        assert not re.search(r"\{\w+\}", said), (lang, err.code, said)


# ---- the server: each refusal a player can meet ----------------------------------------------

@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path,
                        limits=Limits(create_per_minute=1000, join_per_minute=1000)) as c:
        yield c


def table(client, **kw):
    body = {"game": "mexican_train", "options": SHORT_MT, "ready_seconds": 0,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], **kw}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def refused(r, http: int, code: str, **params):
    body = r.json()
    assert r.status_code == http, r.text
    assert body["code"] == code, body
    for k, v in params.items():
        assert body["params"][k] == v, body
    assert isinstance(body["message"], str) and body["message"]
    assert "error" in body                  # the kind of refusal, unchanged for the API
    for lang in LANGS:                      # what the page shows, from code and params
        said = error_text(body, lang)
        assert said and said != body["message"] and not re.search(r"\{\w+\}", said), \
            (lang, code, said)
    return body


CREATE = {"game": "mexican_train", "options": SHORT_MT,
          "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}


def test_bad_options_and_names_have_codes(client):
    post = lambda **kw: client.post("/api/tables", json={**CREATE, **kw})  # noqa: E731
    body = refused(post(options={"double_blank": 7}), 422, "not_allowed",
                   field="double_blank", value="7")
    assert body["error"] == "bad_option"
    assert body["message"] == "double_blank: 7 is not allowed (allowed: 0 | 25 | 50)"
    refused(post(options={"set_max": 6, "hand_size": 20}), 422, "hand_size_too_big",
            hand_size=20)
    refused(post(options={"nope": 1}), 422, "unknown_option", field="nope")
    refused(post(preset="nope"), 422, "unknown_preset")
    refused(post(take_seat=0, name="\u200b\u200b"), 422, "name_to_take_seat")
    refused(post(seats=[{"kind": "human", "name": "\u202e"}, {"kind": "bot", "bot": "greedy"}]),
            422, "name_invisible", seat=0)
    refused(post(seats=[{"kind": "human"}, {"kind": "bot", "bot": "nobody"}]), 422,
            "unknown_bot", seat=1)
    refused(post(seats=[{"kind": "human"}]), 422, "seat_count", n=1)
    refused(post(turn_seconds=10**6), 422, "setting_range", option="turn_seconds")
    refused(post(seed=5, seats=[{"kind": "human"}, {"kind": "human"}]), 422,
            "seed_not_allowed")
    refused(post(hints="yes"), 422, "field_bool", field="hints")


def test_request_validation_has_codes(client):
    post = lambda body: client.post("/api/tables", json=body)  # noqa: E731
    body = refused(post({**CREATE, "turn_seconds": "5"}), 422, "field_integer",
                   field="turn_seconds")
    assert body["detail"][0]["code"] == "field_integer"         # each problem has its own
    refused(post({"game": "all_fives"}), 422, "field_missing", field="seats")
    refused(post({**CREATE, "name": "x" * 300}), 422, "field_too_long", field="name",
            max_length="200")
    refused(post({**CREATE, "seats": [{"kind": "robot"}]}), 422, "field_one_of",
            field="seats.0.kind")
    refused(post({**CREATE, "take_seat": -1}), 422, "field_at_least", ge="0")
    r = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    refused(r, 422, "body_not_json")


def test_seats_tokens_and_tables_have_codes(client):
    t = table(client)
    invite = t["seats"][0]["token"]
    refused(client.get("/api/tables/nope"), 404, "not_found", table="'nope'")
    refused(client.get(f"/api/tables/{t['id']}/view", headers={"x-seat-token": "bad"}), 403,
            "token_not_valid")
    refused(client.get(f"/api/tables/{t['id']}/record"), 409, "record_not_ready")
    refused(client.post(f"/api/tables/{t['id']}/join", json={"token": invite, "name": "\u200b"}),
            422, "name_needed")
    assert client.post(f"/api/tables/{t['id']}/join",
                       json={"token": invite, "name": "Ann"}).status_code == 200
    client.cookies.clear()
    refused(client.post(f"/api/tables/{t['id']}/join", json={"token": invite, "name": "Bo"}),
            403, "invite_not_valid")
    refused(client.post(f"/api/tables/{t['id']}/seats/1/invite"), 403, "not_host")
    refused(client.post(f"/api/tables/{t['id']}/again"), 409, "again_not_over")
    refused(client.post(f"/api/tables/{t['id']}/actions",
                        json={"action": "draw", "version": 0, "token": "bad"}), 403,
            "token_not_valid")


def test_limits_have_codes(tmp_path):
    with in_process_app(tmp_path, limits=Limits(max_tables=1, create_per_minute=3)) as c:
        table(c)
        refused(c.post("/api/tables", json=CREATE), 503, "server_full")
        c.post("/api/tables", json=CREATE)
        body = refused(c.post("/api/tables", json=CREATE), 429, "rate_limited")
        assert body["params"]["seconds"] == body["retry_after"] >= 1
        big = c.post("/api/tables", content=b"x" * (MAX_MESSAGE + 1),
                     headers={"content-type": "application/json"})
        refused(big, 413, "too_large", n=MAX_MESSAGE)


def test_unknown_paths_and_languages_have_codes(client):
    body = refused(client.get("/api/nothing-here"), 404, "http_error", status=404)
    assert body["detail"] == "Not Found"
    refused(client.put("/api/tables"), 405, "http_error", status=405)
    refused(client.get("/api/i18n/xx.json"), 404, "unknown_language", lang="'xx'")


def test_replay_errors_have_codes(client):
    good = new_game("block", players=2, seed=3, options={"set_max": 6}).to_record()
    post = lambda body: client.post("/api/replay", json=body)  # noqa: E731
    refused(post({"record": {**good, "version": 99}}), 422, "record_version", latest=good["version"]
            if good["version"] > 1 else 1)
    refused(post({"record": {"format": "nope"}}), 422, "not_a_record")
    body = refused(post({"record": {**good, "actions": ["9-9"]}}), 422, "replay_action", k=1)
    assert body["params"]["error"]["code"]          # the engine's error, nested as data
    refused(post({"record": good, "round": 7}), 422, "replay_no_round", round=7)
    refused(post({"nope": 1}), 422, "replay_body")
    refused(client.post("/api/replay", content=b"{", headers={"content-type": "application/json"}),
            400, "body_not_json")


def test_websocket_errors_have_reasons(client):
    t = table(client)
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        while json.loads(ws.receive_text())["type"] != "state":
            pass
        cases = [("nope", "bad_json", "bad_json"), ('{"type": 5}', "bad_message",
                                                     "unknown_message"),
                 ('{"type": "action", "action": "draw", "version": 0}', "spectator",
                  "spectators_cannot_play"),
                 ('{"type": "hint"}', "spectator", "hints_spectator")]
        for raw, code, reason in cases:
            ws.send_text(raw)
            m = json.loads(ws.receive_text())
            assert m["type"] == "error" and m["code"] == code and m["reason"] == reason, m
            assert isinstance(m["params"], dict)
            for lang in LANGS:
                said = error_text(m, lang)
                assert said and said != m["message"], (lang, m)


def test_every_code_is_translated_in_every_catalog():
    from dominohall.i18n import translator

    for lang in LANGS:
        tr = translator(lang)
        for code, template in {**ENGINE_SETUP, **SERVER}.items():
            words = re.sub(r"\{\w+\}|[\W_]", "", template)
            if words:
                assert tr.gettext(template) != template, (lang, code)
