"""Seats that belong to an account, in one process: which routes record a seat (the
creator's own, a join by invite, only while logged in), odd requests refused with a 4xx,
and the records gone with the account."""

from __future__ import annotations

import pytest

from dominohall.community.routes import accounts_of

from .conftest import another_browser, in_process_app

PW = "correct horse battery"
TABLE = {"game": "mexican_train", "options": {"set_max": 6, "hand_size": 5, "rounds": 1},
         "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path) as c:
        yield c


def signed_up(client, name):
    other = another_browser(client)
    assert other.post("/api/account/signup", json={"name": name, "password": PW}).status_code == 201
    return other


def test_the_creators_seat_and_a_joined_seat_belong_to_their_accounts(client):
    ann, ben = signed_up(client, "Ann"), signed_up(client, "Ben")
    made = ann.post("/api/tables", json={**TABLE, "take_seat": 0, "name": "Ann"}).json()
    tid = made["id"]
    invite = next(s for s in made["seats"] if s["seat"] == 1)["token"]
    joined = ben.post(f"/api/tables/{tid}/join", json={"token": invite, "name": "Ben"})
    assert joined.status_code == 200
    assert [x["seat"] for x in ann.get("/api/account/tables").json()] == [0]
    assert [x["seat"] for x in ben.get("/api/account/tables").json()] == [1]
    # a guest's join records nothing (and a guest has no list)
    guest_table = client.post("/api/tables", json={**TABLE, "take_seat": 0, "name": "Gus"}).json()
    assert client.get("/api/account/tables").status_code == 401
    assert ann.post(f"/api/account/tables/{guest_table['id']}/resume", json={}).status_code == 404
    # at a table both sit at, a resume gives each their own seat, never the other's
    fresh = another_browser(client)
    fresh.post("/api/account/login", json={"name": "ben", "password": PW})
    assert fresh.get(f"/api/tables/{tid}").json()["you"]["seat"] is None
    assert fresh.post(f"/api/account/tables/{tid}/resume", json={}).status_code == 204
    assert fresh.get(f"/api/tables/{tid}").json()["you"]["seat"] == 1


@pytest.mark.parametrize("path", ["/api/account/tables/" + "x" * 5000 + "/resume",
                                  "/api/account/tables/%00/resume",
                                  "/api/account/tables/..%2F..%2Fetc/resume"])
def test_odd_tables_are_a_404_never_a_500(client, path):
    ann = signed_up(client, "Ann")
    r = ann.post(path, json={})
    assert r.status_code == 404, r.text


def test_a_non_json_resume_is_refused(client):
    ann = signed_up(client, "Ann")
    tid = ann.post("/api/tables", json={**TABLE, "take_seat": 0, "name": "Ann"}).json()["id"]
    r = ann.post(f"/api/account/tables/{tid}/resume", content=b"x",
                 headers={"Content-Type": "text/plain"})
    assert 400 <= r.status_code < 500


def test_deleting_the_account_deletes_its_seats(client):
    ann = signed_up(client, "Ann")
    ann.post("/api/tables", json={**TABLE, "take_seat": 0, "name": "Ann"})
    store = accounts_of(client).store
    assert store._rows("SELECT count(*) FROM {t}account_seats")[0][0] == 1
    assert ann.post("/api/account/delete", json={"password": PW}).status_code == 204
    assert store._rows("SELECT count(*) FROM {t}account_seats")[0][0] == 0
