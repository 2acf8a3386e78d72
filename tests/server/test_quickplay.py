"""Quick play over HTTP: two accounts queue for rated Mexican Train and get one table;
a guest gets bots after the wait; the entry survives a reload; one entry per device,
a cap per address, guests kept out of rated queues, floods and odd input refused; a
rated quick-play match is rated when it ends, once, and never against oneself."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from dominohall.community import queue as Q
from dominohall.community.quickplay import rate_table
from dominohall.community.routes import accounts_of

from .conftest import in_process_app

PW = "correct horse battery"


@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path) as c:
        yield c


_ADDRESSES = iter(range(1, 10_000))


def person(client, name=None, address=None):
    """Another browser; by default from an address of its own (a rated table never seats
    two players of one address)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    b = TestClient(client.app, client=(address or f"10.1.0.{next(_ADDRESSES)}", 50000))
    b.portal = client.portal
    if name:
        assert b.post("/api/account/signup",
                      json={"name": name, "password": PW}).status_code == 201
    return b


def wait_matched(browser, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        r = browser.get("/api/queue").json()
        if r["state"] == "matched":
            return r
        time.sleep(0.1)
    raise AssertionError(f"not matched: {r}")


def test_two_accounts_are_matched_into_one_rated_table(client):
    ann, ben = person(client, "Ann"), person(client, "Ben")
    r = ann.post("/api/queue", json={"game": "mexican_train", "players": 2, "rated": True})
    assert r.status_code == 201, r.text
    assert r.json()["state"] == "waiting" and r.json()["waiting"] == 1
    assert ann.get("/api/queue").json()["state"] == "waiting"      # a reload finds it
    ben.post("/api/queue", json={"game": "mexican_train", "players": 2, "rated": True})
    a, b = wait_matched(ann), wait_matched(ben)
    assert a["table"] == b["table"] and {a["seat"], b["seat"]} == {0, 1}
    assert a["url"].startswith(f"/t/{a['table']}?invite=") and a["url"] != b["url"]
    info = client.get(f"/api/tables/{a['table']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "human"]
    assert {s["name"] for s in info["seats"]} == {"Ann", "Ben"}
    # the invite takes the seat like any other invite
    token = a["url"].split("invite=")[1]
    j = ann.post(f"/api/tables/{a['table']}/join", json={"token": token, "name": "Ann"})
    assert j.status_code == 200, j.text
    found = accounts_of(client).store.queue_table(a["table"])
    assert found is not None and found[0] == "mexican_train" and found[1] is True


def test_a_guest_gets_bots_after_the_wait(client, monkeypatch):
    monkeypatch.setattr(Q, "BOT_WAIT", 0.5)
    guest = person(client)
    r = guest.post("/api/queue", json={"game": "all_fives", "players": 2, "name": "Zed"})
    assert r.status_code == 201 and r.json()["bots"] is False
    time.sleep(1.0)
    assert guest.get("/api/queue").json()["state"] == "waiting"     # no bots unasked
    r = guest.post("/api/queue/bots", json={}).json()
    assert r.get("bots") is True or r["state"] == "matched"    # the matcher may be quick
    m = wait_matched(guest)
    info = client.get(f"/api/tables/{m['table']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "bot"]
    assert info["seats"][0]["name"] == "Zed"


def test_rated_needs_an_account_and_never_bots(client):
    guest = person(client)
    r = guest.post("/api/queue", json={"game": "mexican_train", "rated": True})
    assert r.status_code == 401 and r.json()["code"] == "rated_needs_account"
    ann = person(client, "Ann")
    ann.post("/api/queue", json={"game": "mexican_train", "rated": True})
    r = ann.post("/api/queue/bots", json={})
    assert r.status_code == 409 and r.json()["code"] == "bots_rated"


def test_one_entry_per_device_and_a_cap_per_address(client):
    guest = person(client)
    for game in ("draw", "block", "draw"):
        assert guest.post("/api/queue", json={"game": game, "players": 3}).status_code == 201
    assert guest.get("/api/queue").json()["game"] == "draw"          # replaced, not added
    store = accounts_of(client).store
    assert len(store.waiting(Q.STALE)) == 1
    assert guest.post("/api/queue/leave", json={}).status_code == 204
    assert guest.get("/api/queue").json() == {"state": "none"}
    # four from one address that cannot be matched with one another (or they would leave)
    choices = [("draw", 2), ("draw", 3), ("draw", 4), ("block", 3)]
    codes = [person(client, address="10.9.9.9").post(
        "/api/queue", json={"game": g, "players": n}).status_code for g, n in choices]
    assert codes == [201, 201, 201, 201]
    codes = [person(client, address="10.9.9.9").post(
        "/api/queue", json={"game": "block", "players": 4}).status_code for _ in range(2)]
    assert codes == [429, 429]                      # 4 from one address at most


@pytest.mark.parametrize("body,status", [
    ({"game": "chess"}, 422), ({"game": "draw", "players": 9}, 422),
    ({"game": "draw", "players": -1}, 422), ({"game": "draw", "players": "2"}, 422),
    ({"game": "draw", "rated": "yes"}, 422), ({"game": "draw", "extra": 1}, 422),
    ({"game": ["draw"]}, 422), ({"game": "draw", "name": "x" * 5000}, 422), ([], 422),
    ({"game": "mexican_train", "players": 1}, 422),
])
def test_odd_queue_requests(client, body, status):
    r = client.post("/api/queue", json=body)
    assert r.status_code == status, r.text
    assert accounts_of(client).store.waiting(Q.STALE) == []


def test_a_queue_flood_is_429_and_a_cross_site_post_403(client):
    r = client.post("/api/queue", json={"game": "draw"}, headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    codes = [client.post("/api/queue", json={"game": "draw"}).status_code for _ in range(40)]
    assert 429 in codes and 500 not in codes


def test_nothing_hidden_in_the_queue_state(client):
    ann, ben = person(client, "Ann"), person(client, "Ben")
    for b in (ann, ben):
        b.post("/api/queue", json={"game": "mexican_train", "players": 2, "rated": True})
    a = wait_matched(ann)
    text = str(ann.get("/api/queue").json())
    assert "hand" not in text and "seed" not in text
    other = ben.get("/api/queue").json()["url"].split("invite=")[1]
    assert other not in text                       # nobody sees another seat's invite
    assert a["url"].split("invite=")[1] not in str(ben.get("/api/queue").json())


def fake_core(table_id, scores, teams=False, away=()):
    options = SimpleNamespace(teams=teams, scoring="penalty")
    return SimpleNamespace(id=table_id, game=SimpleNamespace(scores=scores, options=options),
                           controller=lambda seat: "away" if seat in away else "human")


def test_a_rated_quick_play_match_is_rated_when_it_ends(client):
    ann, ben = person(client, "Ann"), person(client, "Ben")
    for b in (ann, ben):
        b.post("/api/queue", json={"game": "mexican_train", "players": 2, "rated": True})
    m = wait_matched(ann)
    accounts = accounts_of(client)
    store = accounts.store
    winner = 0 if m["seat"] == 0 else 1
    scores = [0, 0]
    scores[winner], scores[1 - winner] = 12, 80
    run = client.portal.call
    assert run(rate_table, store, client.app.state.hub.run_db, fake_core(m["table"], scores))
    assert not run(rate_table, store, client.app.state.hub.run_db,      # once
                   fake_core(m["table"], scores))
    board = client.get("/api/leaderboard/mexican_train").json()
    assert [row["name"] for row in board] == ["Ann", "Ben"]
    assert board[0]["rating"] > 1000 > board[1]["rating"]


def test_a_casual_or_own_second_account_table_is_not_rated(client):
    store = accounts_of(client).store
    run = client.portal.call
    hub = client.app.state.hub
    a = store.create_account("Ann", "ann", "ann", "x").id
    b = store.create_account("Alt", "alt", "alt", "x").id
    store.seat_entries("claim", "same", "mexican_train", True, [],
                       [{"account": a, "address": "1.2.3.4", "device": "d1"},
                        {"account": b, "address": "1.2.3.4", "device": "d2"}])
    store.seat_entries("claim", "casual", "mexican_train", False, [],
                       [{"account": a, "address": "1.2.3.4"}, {"account": b, "address": "5"}])
    assert not run(rate_table, store, hub.run_db, fake_core("same", [1, 50]))
    assert not run(rate_table, store, hub.run_db, fake_core("casual", [1, 50]))
    assert client.get("/api/leaderboard/mexican_train").json() == []


def test_abandoning_a_rated_match_counts_as_its_loss(client):
    ann, ben = person(client, "Ann"), person(client, "Ben")
    for b in (ann, ben):
        b.post("/api/queue", json={"game": "mexican_train", "players": 2, "rated": True})
    m = wait_matched(ann)
    ann_seat = m["seat"]
    scores = [0, 0]
    scores[ann_seat], scores[1 - ann_seat] = 5, 90     # Ann was ahead, then left
    store = accounts_of(client).store
    assert client.portal.call(rate_table, store, client.app.state.hub.run_db,
                              fake_core(m["table"], scores, away={ann_seat}))
    board = client.get("/api/leaderboard/mexican_train").json()
    assert [row["name"] for row in board] == ["Ben", "Ann"]
    assert board[0]["wins"] == 1 and board[1]["wins"] == 0
