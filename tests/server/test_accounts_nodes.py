"""Accounts on two server processes (nodes) over one PostgreSQL: a session made on one
node works on the other, logging out everywhere reaches both, one name can be taken
only once even when two nodes are asked at the same moment, and the per-name login lock
counts the failures of both nodes."""

from __future__ import annotations

import concurrent.futures
import json
import time
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


def test_a_match_is_rated_once_when_two_nodes_see_it_end(pg_url):
    from dominohall.community.ratings import Player
    from dominohall.community.store import CommunityStore
    from dominohall.server.store import open_store

    one, two = open_store(pg_url), open_store(pg_url)
    try:
        a, b = CommunityStore(one), CommunityStore(two)
        ids = [a.create_account(n, n.lower(), n.lower(), "x").id
               for n in ("Ann", "Ben", "Cat", "Dan")]
        players = [Player(ids[0], 10), Player(ids[1], 40)]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = list(pool.map(
                lambda i: (a, b)[i % 2].record_match("t1", "mexican_train", players, True),
                range(8)))
        assert sum(r is not None for r in results) == 1
        [(matches,)] = one._rows("SELECT matches FROM {t}ratings WHERE account_id = %s",
                                 (ids[0],))
        assert matches == 1
        # two different matches of one player at once on two nodes: both count
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda i: (a, b)[i].record_match(f"u{i}", "mexican_train",
                                                         players, True), range(2)))
        assert one._rows("SELECT matches FROM {t}ratings WHERE account_id = %s",
                         (ids[0],)) == [(3,)]
        # two new players' first matches at once (nobody's rating row exists yet)
        firsts = [[Player(ids[2], 5), Player(ids[3], 9)], [Player(ids[3], 1), Player(ids[2], 2)]]
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            done = list(pool.map(lambda i: (a, b)[i].record_match(
                f"v{i}", "mexican_train", firsts[i], True), range(2)))
        assert all(done)
        assert one._rows("SELECT matches FROM {t}ratings WHERE account_id = %s",
                         (ids[2],)) == [(2,)]
    finally:
        one.close()
        two.close()


def test_queues_are_one_queue_across_two_nodes(pg_url, tmp_path):
    """Guests queue on either node; both nodes run a matcher; every entry gets exactly
    one seat and every table is made once."""
    for node in ("a", "b"):
        (tmp_path / node).mkdir()
    a = Server(pg_url, tmp_path / "a").start()
    b = Server(pg_url, tmp_path / "b").start()
    try:
        cookies = []
        for i in range(4):
            status, set_cookie, _ = post((a, b)[i % 2], "/api/queue",
                                         {"game": "draw", "players": 2, "name": f"G{i}"})
            assert status == 201
            cookies.append(session(set_cookie))
        deadline = time.monotonic() + 20
        states: list[dict] = []
        while time.monotonic() < deadline:
            states = [(a, b)[(i + 1) % 2].request("GET", "/api/queue",
                                                  headers={"Cookie": c})[1]
                      for i, c in enumerate(cookies)]      # asked on the other node
            if all(s["state"] == "matched" for s in states):
                break
            time.sleep(0.2)
        assert all(s["state"] == "matched" for s in states), states
        tables = [s["table"] for s in states]
        assert len(set(tables)) == 2 and all(tables.count(t) == 2 for t in tables)
        assert all(sorted(s["seat"] for s in states if s["table"] == t) == [0, 1]
                   for t in tables)
        for t in set(tables):
            status, info = a.request("GET", f"/api/tables/{t}")
            assert status == 200 and [s["kind"] for s in info["seats"]] == ["human", "human"]
    finally:
        a.stop()
        b.stop()
