"""Accounts over HTTP, as a player and as an attacker: sign up, log in and out, change
the password, log out everywhere, delete; enumeration, credential stuffing, session
fixation, CSRF, other people's cookies, odd input.  Every refusal is a 4xx with a code
and changes nothing; never a 500."""

from __future__ import annotations

import json

import pytest

from dominohall.community.accounts import AccountLimits
from dominohall.community.routes import SESSION_COOKIE

from .conftest import another_browser, in_process_app

PW = "correct horse battery"


@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path) as c:
        yield c


def signup(c, name="Ann", password=PW, **kw):
    return c.post("/api/account/signup", json={"name": name, "password": password}, **kw)


def login(c, name="Ann", password=PW, **kw):
    return c.post("/api/account/login", json={"name": name, "password": password}, **kw)


def who(c):
    r = c.get("/api/account")
    assert r.status_code == 200, r.text
    return r.json()["name"]


def refused(r, status, code):
    assert r.status_code == status, (r.status_code, r.text)
    assert r.json()["code"] == code, r.text


def rows(c, sql):
    store = c.app.state.hub.store
    return store._rows(sql)


def test_sign_up_log_out_log_in(client):
    r = signup(client, "  Ann\u200b  Lee ")
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "Ann Lee"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower() and "Path=/" in cookie
    assert who(client) == "Ann Lee"
    assert client.post("/api/account/logout", json={}).status_code == 204
    assert who(client) is None
    r = login(client, "ANN LEE")                  # names are found case-folded
    assert r.status_code == 200 and r.json()["name"] == "Ann Lee"
    assert who(client) == "Ann Lee"


def test_the_database_keeps_no_password_and_no_session_secret(client):
    signup(client)
    secret = client.cookies[SESSION_COOKIE]
    [(hash_,)] = rows(client, "SELECT hash FROM {t}accounts")
    assert hash_.startswith("$argon2id$") and PW not in hash_
    [(stored,)] = rows(client, "SELECT hash FROM {t}sessions")
    assert stored != secret and secret not in json.dumps(rows(client, "SELECT * FROM {t}sessions"))


@pytest.mark.parametrize("other", ["ann", "ANN", "Ann\u200d", "\u0410nn", "\uff21nn", "A\u0301nn",
                                   " Ann "])
def test_a_name_taken_after_folding_or_by_a_look_alike(client, other):
    assert signup(client, "Ann").status_code == 201
    guest = another_browser(client)
    refused(signup(guest, other), 409, "name_taken")
    assert rows(client, "SELECT count(*) FROM {t}accounts") == [(1,)]
    assert signup(guest, "Anna").status_code == 201       # a different name is fine


@pytest.mark.parametrize("name,code", [
    ("ab", "account_name_short"), ("!!!", "account_name_short"),
    ("\u200b\u200b\u200bab", "account_name_short"), ("x" * 25, "account_name_long"),
    ("", "account_name_short")])
def test_bad_names(client, name, code):
    refused(signup(client, name), 422, code)
    assert rows(client, "SELECT count(*) FROM {t}accounts") == [(0,)]


@pytest.mark.parametrize("password,code", [
    ("short", "password_short"), ("x" * 129, "password_long"), ("a fine password", None),
    ("ANNALYSE", "password_is_name")])
def test_bad_passwords(client, password, code):
    r = signup(client, "Annalyse", password)
    if code is None:
        assert r.status_code == 201
    else:
        refused(r, 422, code)


@pytest.mark.parametrize("body", [
    {"name": 5, "password": PW}, {"name": ["Ann"], "password": PW}, {"name": "Ann"},
    {"name": "Ann", "password": None}, {"name": "Ann", "password": PW, "admin": True},
    {"name": "x" * 100_000, "password": PW}, {"name": "Ann", "password": "p" * 5000},
    [], "Ann", None, {"name": {"$ne": ""}, "password": {"$ne": ""}},
])
@pytest.mark.parametrize("path", ["/api/account/signup", "/api/account/login"])
def test_wrong_types_and_sizes_are_4xx(client, path, body):
    r = client.post(path, json=body)
    assert 400 <= r.status_code < 500, r.text
    assert "code" in r.json()
    assert rows(client, "SELECT count(*) FROM {t}accounts") == [(0,)]
    assert who(client) is None


@pytest.mark.parametrize("raw", [b'{"name": "\\ud800Ann", "password": "\\udfff12345678"}',
                                 b'{"name": "Ann\\u0000", "password": "12345678\\u0000"}',
                                 b'\xff\xfe{', b'{"name": "Ann", "password": "' + b"[" * 10 + b'"}',
                                 b"[" * 5000])
def test_odd_bytes_never_500(client, raw):
    for path in ("/api/account/signup", "/api/account/login"):
        r = client.post(path, content=raw, headers={"content-type": "application/json"})
        assert r.status_code < 500, r.text


def test_a_lone_surrogate_is_refused_and_any_real_text_is_a_password(client):
    body = '{"name": "Ann", "password": "\\ud800 long enough"}'
    r = client.post("/api/account/signup", content=body,
                    headers={"content-type": "application/json"})
    refused(r, 422, "field_invalid")
    assert rows(client, "SELECT count(*) FROM {t}accounts") == [(0,)]
    odd = "\U0001f40d\u0301 \u202e\u0000 \u0436\u0436 \ufeff"
    assert signup(client, "Ann", odd).status_code == 201
    client.post("/api/account/logout", json={})
    refused(login(client, "Ann", odd.replace("\u0000", "")), 401, "wrong_login")
    assert login(client, "Ann", odd).status_code == 200


def test_a_wrong_name_and_a_wrong_password_answer_the_same(client):
    signup(client)
    client.post("/api/account/logout", json={})
    wrong_pw, no_name = login(client, "Ann", "not the password"), login(client, "Nobody", PW)
    assert wrong_pw.status_code == no_name.status_code == 401
    assert wrong_pw.json() == no_name.json()
    assert wrong_pw.json()["code"] == "wrong_login"
    assert SESSION_COOKIE not in client.cookies


def test_credential_stuffing_locks_the_name_whether_it_exists_or_not(client):
    client.app.state.account_limits = AccountLimits(failures_per_name=3, login_per_minute=100)
    signup(client)
    client.post("/api/account/logout", json={})
    for name in ("Ann", "Ghost"):
        for _ in range(3):
            refused(login(client, name, "guess guess"), 401, "wrong_login")
    locked_real = login(client, "Ann", PW)             # even the right password now
    locked_ghost = login(client, "Ghost", PW)
    refused(locked_real, 429, "login_locked")
    assert locked_real.json() == locked_ghost.json()   # says nothing about which exists
    assert int(locked_real.headers["retry-after"]) > 0
    assert who(client) is None
    assert login(client, "Anna", "whatever1").status_code == 401   # other names unaffected


def test_a_login_flood_from_one_address_is_429(client):
    client.app.state.account_limits = AccountLimits(login_per_minute=5, failures_per_name=1000)
    codes = [login(client, f"user{i}", "guess guess").status_code for i in range(8)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}


def test_a_signup_flood_from_one_address_is_429(client):
    client.app.state.account_limits = AccountLimits(signup_per_minute=3)
    codes = [signup(client, f"Player{i}").status_code for i in range(6)]
    assert codes[:3] == [201] * 3 and set(codes[3:]) == {429}
    assert rows(client, "SELECT count(*) FROM {t}accounts") == [(3,)]


def test_session_fixation_a_planted_cookie_is_never_promoted(client):
    signup(client)
    client.post("/api/account/logout", json={})
    victim = another_browser(client)
    victim.cookies.set(SESSION_COOKIE, "planted-by-the-attacker", domain="testserver.local")
    assert who(victim) is None
    assert login(victim).status_code == 200
    assert victim.cookies[SESSION_COOKIE] != "planted-by-the-attacker"
    attacker = another_browser(client)
    attacker.cookies.set(SESSION_COOKIE, "planted-by-the-attacker", domain="testserver.local")
    assert who(attacker) is None


def test_logging_in_over_someone_elses_session_ends_it(client):
    signup(client, "Mallory")
    planted = client.cookies[SESSION_COOKIE]
    victim = another_browser(client)
    signup(victim, "Victim")
    victim.post("/api/account/logout", json={})
    # the attacker's own live session, planted in the victim's browser
    victim.cookies.set(SESSION_COOKIE, planted, domain="testserver.local")
    assert login(victim, "Victim").status_code == 200
    attacker = another_browser(client)
    attacker.cookies.set(SESSION_COOKIE, planted, domain="testserver.local")
    assert who(attacker) is None                        # the planted session ended


def test_a_logged_out_or_made_up_cookie_opens_nothing(client):
    signup(client)
    secret = client.cookies[SESSION_COOKIE]
    client.post("/api/account/logout", json={})
    thief = another_browser(client)
    for value in (secret, secret[:-1] + "A", "x" * 5000, "%C3%A9\x7f", ""):
        thief.cookies.set(SESSION_COOKIE, value, domain="testserver.local")
        assert who(thief) is None
        refused(thief.post("/api/account/logout-everywhere", json={}), 401, "not_logged_in")


@pytest.mark.parametrize("headers", [{"origin": "https://evil.example"},
                                     {"origin": "null"},
                                     {"sec-fetch-site": "cross-site"}])
def test_csrf_every_post_from_another_site_is_refused(client, headers):
    refused(signup(client, headers=headers), 403, "cross_site")
    assert rows(client, "SELECT count(*) FROM {t}accounts") == [(0,)]
    signup(client)
    secret = client.cookies[SESSION_COOKIE]
    for path, body in [("/api/account/logout", None), ("/api/account/logout-everywhere", None),
                       ("/api/account/password", {"old": PW, "new": "a new password"}),
                       ("/api/account/delete", {"password": PW}),
                       ("/api/account/login", {"name": "Ann", "password": PW})]:
        refused(client.post(path, json=body, headers=headers), 403, "cross_site")
    assert client.cookies[SESSION_COOKIE] == secret and who(client) == "Ann"
    assert signup(another_browser(client), "Ben",
                  headers={"origin": "http://testserver"}).status_code == 201


def test_change_password_ends_the_other_sessions(client):
    signup(client)
    phone = another_browser(client)
    login(phone)
    refused(client.post("/api/account/password", json={"old": "not mine!", "new": "new pass 1"}),
            403, "wrong_password")
    refused(client.post("/api/account/password", json={"old": PW, "new": "short"}),
            422, "password_short")
    assert who(phone) == "Ann"                         # nothing changed yet
    r = client.post("/api/account/password", json={"old": PW, "new": "new pass 1"})
    assert r.status_code == 200, r.text
    assert who(client) == "Ann" and who(phone) is None
    fresh = another_browser(client)
    refused(login(fresh), 401, "wrong_login")
    assert login(fresh, "Ann", "new pass 1").status_code == 200


def test_log_out_everywhere(client):
    signup(client)
    phone = another_browser(client)
    login(phone)
    assert client.post("/api/account/logout-everywhere", json={}).status_code == 204
    assert who(client) is None and who(phone) is None


def test_delete_the_account(client):
    signup(client)
    phone = another_browser(client)
    login(phone)
    refused(client.post("/api/account/delete", json={"password": "not mine!"}), 403,
            "wrong_password")
    assert who(client) == "Ann"
    assert client.post("/api/account/delete", json={"password": PW}).status_code == 204
    assert who(client) is None and who(phone) is None
    [(name, key, hash_, deleted)] = rows(client, "SELECT name, name_key, hash, deleted "
                                                 "FROM {t}accounts")
    assert (name, key, hash_) == (None, None, "") and deleted      # the id stays, anonymised
    assert rows(client, "SELECT count(*) FROM {t}sessions") == [(0,)]
    refused(login(phone), 401, "wrong_login")
    assert signup(phone, "ann").status_code == 201                 # the name is free again


def test_markup_in_a_name_comes_back_as_data(client):
    r = signup(client, "<img src=x onerror=1>")
    assert r.status_code == 201
    assert r.headers["content-type"].startswith("application/json")
    assert who(client) == "<img src=x onerror=1>"
