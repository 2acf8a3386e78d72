"""Accounts on two server processes (nodes) over one PostgreSQL: a session made on one
node works on the other, logging out everywhere reaches both, one name can be taken
only once even when two nodes are asked at the same moment, and the per-name login lock
counts the failures of both nodes."""

from __future__ import annotations

import concurrent.futures
import json
import urllib.error
import urllib.request

from .conftest import Server

PW = "correct horse battery"


def post(server, path, body, cookie=None):
    headers = {"Cookie": cookie} if cookie else {}
    req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                 method="POST", headers={"Content-Type": "application/json",
                                                         **headers})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, r.headers.get("set-cookie", ""), r.read()
    except urllib.error.HTTPError as err:
        return err.code, "", err.read()


def name_of(server, cookie):
    status, body = server.request("GET", "/api/account", headers={"Cookie": cookie})
    assert status == 200
    return body["name"]


def session(set_cookie):
    return set_cookie.split(";", 1)[0]


def test_two_nodes_share_accounts_sessions_and_locks(pg_url, tmp_path):
    for node in ("a", "b"):
        (tmp_path / node).mkdir()
    a = Server(pg_url, tmp_path / "a").start()
    b = Server(pg_url, tmp_path / "b").start()
    try:
        status, cookie_a, _ = post(a, "/api/account/signup", {"name": "Ann", "password": PW})
        assert status == 201
        cookie_a = session(cookie_a)
        assert name_of(b, cookie_a) == "Ann"                 # made on a, known on b
        status, cookie_b, _ = post(b, "/api/account/login", {"name": "ann", "password": PW})
        assert status == 200
        cookie_b = session(cookie_b)
        assert post(b, "/api/account/logout-everywhere", {}, cookie_b)[0] == 204
        assert name_of(a, cookie_a) is None and name_of(b, cookie_b) is None

        # the same new name on both nodes at once: exactly one account
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(
                lambda i: post((a, b)[i % 2], "/api/account/signup",
                               {"name": ["Zoe", "ZOE", "Z\u043ee", "zoe"][i % 4],
                                "password": PW})[0], range(8)))
        assert sorted(codes) == [201] + [409] * 7, codes

        # failed logins on both nodes count together (the lock is 10 by default)
        fails = [post((a, b)[i % 2], "/api/account/login",
                      {"name": "Ann", "password": f"wrong {i}!"})[0] for i in range(10)]
        assert fails == [401] * 10
        assert post(a, "/api/account/login", {"name": "Ann", "password": PW})[0] == 429
        assert post(b, "/api/account/login", {"name": "Ann", "password": PW})[0] == 429
    finally:
        a.stop()
        b.stop()
