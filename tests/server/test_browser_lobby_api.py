"""The HTTP side of the lobby's pages (server/pages.py), in-process: the replay positions,
How to play, and public versus private tables.  No browser: these are the answers the
pages are built from, checked against the engine, and what an attacker gets back.
"""

from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")

from dominohall.engine import new_game, replay
from dominohall.server.pages import MAX_RECORD_BYTES
from dominohall.server.tables import Limits

from .conftest import in_process_app


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    # the replay rate off: these tests post hundreds of records from one address (the rate
    # itself: test_hostile_round2)
    with in_process_app(tmp_path_factory.mktemp("pages"),
                        limits=Limits(replays_per_minute=0)) as c:
        yield c


def played(game: str, **kw) -> dict:
    g = new_game(game, seed=7, **kw)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    return g.to_record()


MT = played("mexican_train", players=3, options={"set_max": 6, "hand_size": 7, "rounds": 2})
AF = played("all_fives", players=2, options={"hands": 2})


def post(client, body):
    return client.post("/api/replay", content=body if isinstance(body, (bytes, str))
                       else json.dumps(body), headers={"Content-Type": "application/json"})


@pytest.mark.parametrize("record", [MT, AF], ids=["mexican_train", "all_fives"])
def test_positions_match_the_engine_move_by_move(client, record):
    r = post(client, {"record": record})
    assert r.status_code == 200, r.text
    meta = r.json()
    assert meta["steps"] == len(record["actions"]) + 1
    spans = meta["rounds"]
    assert spans[0]["first"] == 0 and spans[-1]["last"] == meta["steps"] - 1
    assert all(a["last"] + 1 == b["first"] for a, b in zip(spans, spans[1:]))
    game = replay({**record, "actions": []})
    for span in spans:
        page = post(client, {"record": record, "round": span["round"]}).json()
        assert [p["step"] for p in page["positions"]] == \
            list(range(span["first"], span["last"] + 1))
        for pos in page["positions"]:
            if pos["step"]:
                before = len(game.view(None)["log"])
                game.apply(record["actions"][pos["step"] - 1])
                assert pos["events"] == game.view(None)["log"][before:]
            view = game.view(None)
            assert pos["round"] == view["round"] == span["round"] or view["is_over"]
            assert pos["scores"] == view["scores"]
            assert pos["hands"] == [game.view(s)["hand"] for s in range(game.players)]
            board = "trains" if record["game"] == "mexican_train" else "layout"
            assert pos[board] == view[board]
    assert page["positions"][-1]["is_over"] and page["final"]["scores"] == game.scores
    ends = [e for e in game.view(None)["log"] if e["type"] == "round_end"]
    assert meta["final"]["round_ends"] == ends


def test_a_chance_entry_is_not_a_move(client):
    g = new_game("all_fives", players=2, seed=3, options={"hands": 1})
    held = {t for s in range(2) for t in g.view(s)["hand"]}
    g.put_on_top(next(f"{a}-{b}" for a in range(7) for b in range(a + 1)
                      if f"{a}-{b}" not in held))        # the next draw takes this tile
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    record = g.to_record()
    assert record["actions"][0].startswith("top ")
    meta = post(client, {"record": record}).json()
    assert meta["steps"] == len(record["actions"])       # minus the chance entry, plus the deal
    assert meta["final"]["scores"] == g.scores


@pytest.mark.parametrize("body, status, words", [
    (b"{not json", 400, "JSON"),
    ({"record": "a string"}, 422, "record"),
    ({"record": {"format": "nope"}}, 422, "record"),
    ({"record": {**MT, "actions": ["13-13"]}}, 422, "13-13"),
    ({"record": {**MT, "actions": "draw"}}, 422, "actions"),
    ({"record": {**MT, "actions": [1, 2]}}, 422, "actions"),
    ({"record": {**MT, "players": 10**9}}, 422, ""),
    ({"record": {**MT, "players": "three"}}, 422, ""),
    ({"record": {**MT, "version": 99}}, 422, "version"),
    ({"record": {**MT, "options": {"set_max": 7}}}, 422, "set_max"),
    ({"record": MT, "round": 99}, 422, "round"),
    ({"record": MT, "round": "1"}, 422, "round"),
])
def test_bad_records_are_refused_with_a_reason(client, body, status, words):
    r = post(client, body)
    assert r.status_code == status, r.text
    assert words.lower() in r.json()["message"].lower()


def test_too_many_actions_are_refused_before_any_replay():
    from dominohall.server.pages import MAX_ACTIONS, positions
    from dominohall.server.protocol import Rejected

    with pytest.raises(Rejected, match="actions"):
        positions({**MT, "actions": ["draw"] * (MAX_ACTIONS + 1)})


def test_a_huge_body_is_refused_before_it_is_read(client):
    r = post(client, b" " * (MAX_RECORD_BYTES + 1))
    assert r.status_code == 413


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda c: st.lists(c, max_size=4)
                    | st.dictionaries(st.text(max_size=8), c, max_size=4),
                    max_leaves=12)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=JSON,
       key=st.sampled_from(["game", "players", "seed", "options", "deck", "leader", "actions",
                            "version"]))
def test_any_broken_record_is_a_4xx_never_a_500(client, junk, key):
    r = post(client, {"record": {**MT, key: junk}})
    assert r.status_code in (200, 422), r.text


def test_how_to_play_is_served_as_html_with_the_guide(client):
    from dominohall.guide import rules_markdown

    r = client.get("/how-to-play")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    first = next(line for line in rules_markdown().splitlines() if line.startswith("# "))
    assert f">{first[2:].strip()}</h1>" in r.text
    assert client.get("/replay").status_code == 200


def test_public_is_a_create_field_and_only_public_tables_are_listed(client):
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    made = {}
    for public in (False, True, None):
        body = {"game": "block", "seats": seats, "take_seat": 0, "name": "Ann"}
        if public is not None:
            body["public"] = public
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        made[public] = r.json()["id"]
    listed = {t["id"] for t in client.get("/api/tables").json()}
    assert made[True] in listed and made[False] not in listed and made[None] not in listed
    for wrong in ("true", 1, [True], {"x": 1}):
        r = client.post("/api/tables", json={"game": "block", "seats": seats, "public": wrong})
        assert r.status_code == 422, (wrong, r.text)


def test_a_tables_replay_waits_for_the_end_of_its_match(client):
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    r = client.post("/api/tables", json={"game": "block", "seats": seats, "take_seat": 0,
                                         "name": "Ann"})
    assert r.status_code == 201, r.text
    r = client.get(f"/api/tables/{r.json()['id']}/replay")
    assert r.status_code == 409 and r.json()["error"] == "not_over"
    assert client.get("/api/tables/nosuchtable/replay").status_code == 404
    assert client.get("/api/tables/x/replay?round=one").status_code == 422
