"""Friends over HTTP: add by name, mutual friends, online and at which quick-play table,
an invitation to your table that reaches the friend's lobby; strangers, spectators,
other people's tables and odd input refused with a 4xx."""

from __future__ import annotations

import pytest

from .conftest import another_browser, in_process_app
from .helpers import create

PW = "correct horse battery"


@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path) as c:
        yield c


def person(client, name):
    b = another_browser(client)
    assert b.post("/api/account/signup", json={"name": name, "password": PW}).status_code == 201
    return b


def friends(b):
    r = b.get("/api/friends")
    assert r.status_code == 200, r.text
    return r.json()


def test_add_see_online_and_remove(client):
    ann, ben = person(client, "Ann"), person(client, "Ben")
    assert ann.post("/api/friends/add", json={"name": "ben"}).status_code == 204
    assert ann.post("/api/friends/add", json={"name": "BEN"}).status_code == 204   # once
    [f] = friends(ann)["friends"]
    assert f == {"name": "Ben", "mutual": False, "online": True, "table": None}
    assert friends(ben)["friends"] == []
    ben.post("/api/friends/add", json={"name": "Ann"})
    assert friends(ann)["friends"][0]["mutual"] is True
    ben.post("/api/account/logout", json={})
    assert friends(ann)["friends"][0]["online"] is False     # no session left
    assert ann.post("/api/friends/remove", json={"name": "Ben"}).status_code == 204
    assert friends(ann)["friends"] == []


def test_offline_after_a_while(client):
    ann, ben = person(client, "Ann"), person(client, "Ben")
    ann.post("/api/friends/add", json={"name": "Ben"})
    store = client.app.state.accounts.store
    store._exec("UPDATE {t}sessions SET seen = 0")
    friends(ann)                                             # Ann is seen again, Ben not
    assert friends(ann)["friends"][0]["online"] is False
    ben.get("/api/account")
    assert friends(ann)["friends"][0]["online"] is True


def test_an_invitation_reaches_the_friends_lobby(client):
    ann, ben = person(client, "Ann"), person(client, "Ben")
    ann.post("/api/friends/add", json={"name": "Ben"})
    r = ann.post("/api/tables", json={"game": "mexican_train", "ready_seconds": 0,
                                      "options": {"set_max": 6, "hand_size": 7, "rounds": 1},
                                      "seats": [{"kind": "human", "name": "Ann"},
                                                {"kind": "human", "name": None}],
                                      "take_seat": 0, "name": "Ann"})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    open_token = [s for s in r.json()["seats"] if s["seat"] == 1][0]["token"]
    # not mutual yet: refused
    r = ann.post("/api/friends/invite", json={"name": "Ben", "table": tid})
    assert r.status_code == 403 and r.json()["code"] == "not_mutual"
    ben.post("/api/friends/add", json={"name": "Ann"})
    assert friends(ben)["invitations"] == []
    assert ann.post("/api/friends/invite", json={"name": "Ben", "table": tid}).status_code == 204
    [inv] = friends(ben)["invitations"]
    assert inv["name"] == "Ann" and inv["table"] == tid
    assert inv["url"] == f"/t/{tid}?invite={open_token}"       # the host's: a seat
    assert friends(ann)["invitations"] == []                     # only Ben sees it
    j = ben.post(f"/api/tables/{tid}/join", json={"token": open_token, "name": "Ben"})
    assert j.status_code == 200, j.text


def test_only_a_player_at_the_table_invites(client):
    ann, ben, cat = person(client, "Ann"), person(client, "Ben"), person(client, "Cat")
    for a, b in (("Ann", "Ben"), ("Ben", "Ann"), ("Cat", "Ben"), ("Ben", "Cat")):
        {"Ann": ann, "Ben": ben, "Cat": cat}[a].post("/api/friends/add", json={"name": b})
    t = create(client)                           # someone else's table
    r = cat.post("/api/friends/invite", json={"name": "Ben", "table": t["id"]})
    assert r.status_code == 403 and r.json()["code"] == "not_at_table"
    r = cat.post("/api/friends/invite", json={"name": "Ben", "table": "nope"})
    assert r.status_code == 404
    assert friends(ben)["invitations"] == []


@pytest.mark.parametrize("path,body,status,code", [
    ("/api/friends/add", {"name": "Ann"}, 422, "friend_self"),
    ("/api/friends/add", {"name": "Nobody"}, 404, "no_player"),
    ("/api/friends/add", {"name": 5}, 422, None),
    ("/api/friends/add", {"name": "x" * 5000}, 422, None),
    ("/api/friends/add", {"name": "Ben", "x": 1}, 422, None),
    ("/api/friends/invite", {"name": "Ben"}, 422, None),
    ("/api/friends/invite", {"name": "Ben", "table": "t" * 500}, 422, None),
    ("/api/friends/remove", [], 422, None),
])
def test_odd_friend_requests(client, path, body, status, code):
    ann = person(client, "Ann")
    person(client, "Ben")
    r = ann.post(path, json=body)
    assert r.status_code == status, r.text
    if code:
        assert r.json()["code"] == code
    assert friends(ann)["friends"] == []


def test_guests_and_cross_site_posts_are_refused(client):
    guest = another_browser(client)
    assert guest.get("/api/friends").status_code == 401
    assert guest.post("/api/friends/add", json={"name": "Ann"}).status_code == 401
    ann = person(client, "Ann")
    person(client, "Ben")
    r = ann.post("/api/friends/add", json={"name": "Ben"}, headers={"origin": "https://x.example"})
    assert r.status_code == 403 and friends(ann)["friends"] == []


def test_deleting_an_account_removes_its_friendships(client):
    ann, ben = person(client, "Ann"), person(client, "Ben")
    ann.post("/api/friends/add", json={"name": "Ben"})
    ben.post("/api/friends/add", json={"name": "Ann"})
    assert ben.post("/api/account/delete", json={"password": PW}).status_code == 204
    assert friends(ann)["friends"] == []
