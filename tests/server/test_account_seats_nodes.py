"""Seats that belong to an account, on two server processes over one PostgreSQL: a seat
claimed while logged in on node a is listed and resumed on node b, from another device
(another session of the account), while the table itself lives on a; nobody else can
resume it, and once the host re-invites the seat (a lost device) the account's claim
lapses on both nodes."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from .conftest import Server

PW = "correct horse battery"


def call(server, method, path, body=None, cookie="", headers=None):
    req = urllib.request.Request(
        server.url + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {}),
                 **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            raw = r.read()
            return r.status, r.headers.get_all("set-cookie") or [], json.loads(raw) if raw else None
    except urllib.error.HTTPError as err:
        return err.code, [], json.loads(err.read() or b"null")


def session(cookies, name="dh_session"):
    return next(c.split(";", 1)[0] for c in cookies if c.startswith(name + "="))


def test_a_seat_claimed_on_one_node_resumes_on_the_other_for_its_account_only(pg_url, tmp_path):
    for node in ("a", "b"):
        (tmp_path / node).mkdir()
    a = Server(pg_url, tmp_path / "a").start()
    b = Server(pg_url, tmp_path / "b").start()
    try:
        status, cookies, _ = call(a, "POST", "/api/account/signup", {"name": "Ann", "password": PW})
        assert status == 201
        phone = session(cookies)
        status, cookies, made = call(a, "POST", "/api/tables", {
            "game": "mexican_train", "options": {"set_max": 6, "hand_size": 5, "rounds": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}], "take_seat": 0, "name": "Ann"},
            cookie=phone)
        assert status == 201, made
        tid, admin = made["id"], made["admin"]
        # a guest's seat belongs to nobody: the table made without a session is not listed
        status, _, guest_made = call(a, "POST", "/api/tables", {
            "game": "block", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            "take_seat": 0, "name": "Gus"})
        assert status == 201, guest_made

        # another device: the same account logged in on node b
        status, cookies, _ = call(b, "POST", "/api/account/login", {"name": "ann", "password": PW})
        laptop = session(cookies)
        status, _, mine = call(b, "GET", "/api/account/tables", cookie=laptop)
        assert status == 200
        assert mine == [{"table": tid, "seat": 0, "game": "mexican_train", "url": f"/t/{tid}"}]
        assert call(b, "GET", f"/api/tables/{tid}", cookie=laptop)[2]["you"]["seat"] is None
        status, cookies, _ = call(b, "POST", f"/api/account/tables/{tid}/resume", {},
                                  cookie=laptop)
        assert status == 204
        seat_cookie = session(cookies, f"dh_seat_{tid}")
        for node in (a, b):
            you = call(node, "GET", f"/api/tables/{tid}", cookie=f"{laptop}; {seat_cookie}")[2]
            assert you["you"]["seat"] == 0

        # somebody else, on either node: nothing listed, nothing resumed
        status, cookies, _ = call(b, "POST", "/api/account/signup", {"name": "Bob", "password": PW})
        bob = session(cookies)
        for node in (a, b):
            assert call(node, "GET", "/api/account/tables", cookie=bob)[2] == []
            status, cookies, body = call(node, "POST", f"/api/account/tables/{tid}/resume", {},
                                         cookie=bob)
            assert (status, body["code"], cookies) == (404, "not_your_seat", [])
            assert call(node, "POST", f"/api/account/tables/{guest_made['id']}/resume", {},
                        cookie=bob)[0] == 404
            assert call(node, "POST", f"/api/account/tables/{tid}/resume", {})[0] == 401
            assert call(node, "POST", f"/api/account/tables/{tid}/resume", {}, cookie=laptop,
                        headers={"Origin": "https://evil.example"})[0] == 403

        # the host re-invites seat 0 (a lost device): the account's claim lapses
        status, _, body = call(a, "POST", f"/api/tables/{tid}/seats/0/invite", {},
                               headers={"X-Admin-Token": admin})
        assert status == 200, body
        for node in (a, b):
            assert call(node, "GET", "/api/account/tables", cookie=phone)[2] == []
            assert call(node, "POST", f"/api/account/tables/{tid}/resume", {},
                        cookie=phone)[0] == 404
    finally:
        a.stop()
        b.stop()
