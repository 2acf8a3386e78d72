"""Table chat over HTTP: phrases reach each reader in their language, free text only at
private tables unless the host says otherwise, players and spectators apart, mute,
limits, and hostile input (markup, odd Unicode, floods, other tables) refused."""

from __future__ import annotations

import json

import pytest

from dominohall.server.deps import cookie_name

from .conftest import another_browser, in_process_app
from .helpers import create


@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path) as c:
        yield c


def seated(client, t, seat):
    b = another_browser(client)
    b.cookies.set(cookie_name(t["id"]), t["seats"][seat]["token"], domain="testserver.local")
    return b


def host_of(client, t):
    b = another_browser(client)
    b.cookies.set(f"dh_admin_{t['id']}", t["admin"], domain="testserver.local")
    return b


def read(b, t, **params):
    r = b.get(f"/api/tables/{t['id']}/chat", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_phrase_reaches_the_other_player_in_their_language(client):
    t = create(client)
    ann, ben = seated(client, t, 0), seated(client, t, 1)
    r = ann.post(f"/api/tables/{t['id']}/chat", json={"phrase": "good_game"})
    assert r.status_code == 201, r.text
    [m] = read(ben, t, lang="ru")["messages"]
    assert m["text"] == "Хорошая игра" and m["name"] == "Ann" and m["seat"] == 0
    assert read(ben, t, lang="es")["messages"][0]["text"] == "Buena partida"
    assert read(ben, t)["messages"][0]["text"] == "Good game"
    phrases = read(ben, t, lang="kk")["phrases"]
    assert set(phrases) >= {"good_game", "well_played", "thanks", "hurry", "oops",
                            "have_to_go"}
    assert all(p and p.isascii() is False for p in phrases.values())   # translated


def test_free_text_private_by_default_and_the_host_decides(client):
    t = create(client)                              # private (not public)
    ann, ben = seated(client, t, 0), seated(client, t, 1)
    assert read(ann, t)["free_text"] is True
    r = ann.post(f"/api/tables/{t['id']}/chat",
                 json={"text": "  <script>alert(1)</script>\u202e\u200b hi  "})
    assert r.status_code == 201
    assert read(ben, t)["messages"][0]["text"] == "<script>alert(1)</script> hi"
    r = ben.post(f"/api/tables/{t['id']}/chat/settings", json={"free_text": False})
    assert r.status_code == 403 and r.json()["code"] == "chat_host_only"
    host = host_of(client, t)
    assert host.post(f"/api/tables/{t['id']}/chat/settings",
                     json={"free_text": False}).status_code == 200
    r = ann.post(f"/api/tables/{t['id']}/chat", json={"text": "hello"})
    assert r.status_code == 403 and r.json()["code"] == "chat_free_text_off"
    assert ann.post(f"/api/tables/{t['id']}/chat", json={"phrase": "thanks"}).status_code == 201

    public = create(client, public=True)
    p0 = seated(client, public, 0)
    assert read(p0, public)["free_text"] is False
    r = p0.post(f"/api/tables/{public['id']}/chat", json={"text": "hello"})
    assert r.status_code == 403


def test_players_and_spectators_do_not_read_each_other(client):
    t = create(client)
    ann = seated(client, t, 0)
    watcher = another_browser(client)
    ann.post(f"/api/tables/{t['id']}/chat", json={"text": "my hand is bad"})
    watcher.post(f"/api/tables/{t['id']}/chat", json={"text": "play the 6-6!"})
    assert [m["text"] for m in read(ann, t)["messages"]] == ["my hand is bad"]
    spectators = read(watcher, t)
    assert spectators["channel"] == "spectators"
    assert [m["text"] for m in spectators["messages"]] == ["play the 6-6!"]


def test_mute_and_after(client):
    t = create(client)
    ann, ben = seated(client, t, 0), seated(client, t, 1)
    ann.post(f"/api/tables/{t['id']}/chat", json={"phrase": "oops"})
    ben.post(f"/api/tables/{t['id']}/chat", json={"phrase": "hurry"})
    assert [m["seat"] for m in read(ben, t, mute="0")["messages"]] == [1]
    msgs = read(ben, t)["messages"]
    assert [m["seat"] for m in read(ben, t, after=msgs[0]["id"])["messages"]] == [1]


@pytest.mark.parametrize("body,status,code", [
    ({"phrase": "insult"}, 422, "chat_phrase"), ({}, 422, "chat_one"),
    ({"phrase": "oops", "text": "x"}, 422, "chat_one"), ({"text": "x" * 201}, 422,
                                                          "chat_too_long"),
    ({"text": "\u200b\u200b \x00"}, 422, "chat_one"), ({"text": 5}, 422, None),
    ({"text": "x" * 5000}, 422, None), ({"phrase": ["oops"]}, 422, None),
    ({"text": "hi", "seat": 1}, 422, None),
])
def test_odd_messages(client, body, status, code):
    t = create(client)
    ann = seated(client, t, 0)
    r = ann.post(f"/api/tables/{t['id']}/chat", json=body)
    assert r.status_code == status, r.text
    if code:
        assert r.json()["code"] == code
    assert read(ann, t)["messages"] == []


@pytest.mark.parametrize("query", ["?mute=a", "?mute=0;1", "?after=-1", "?lang=" + "x" * 50])
def test_odd_reads(client, query):
    t = create(client)
    r = client.get(f"/api/tables/{t['id']}/chat{query}")
    assert r.status_code == 422, r.text


def test_a_flood_is_429_and_another_sites_post_403(client):
    t = create(client)
    ann = seated(client, t, 0)
    r = ann.post(f"/api/tables/{t['id']}/chat", json={"phrase": "oops"},
                 headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    codes = [ann.post(f"/api/tables/{t['id']}/chat", json={"phrase": "oops"}).status_code
             for _ in range(20)]
    assert 429 in codes and set(codes) <= {201, 429}
    assert client.get("/api/tables/nope/chat").status_code == 404


def test_the_websocket_carries_a_message_to_its_channel_only_with_nothing_hidden(client):
    """Pushed chat: each reader gets the phrase in the language of its socket, the fields
    of a message and nothing more (no channel, address, token or other seat's data), and
    a spectator's socket gets none of the players' messages (nor a player the
    spectators')."""
    from .helpers import recv

    t = create(client)
    ann = seated(client, t, 0)
    tid = t["id"]
    with client.websocket_connect(f"/ws/{tid}?token={t['seats'][1]['token']}&lang=kk") as ben, \
            client.websocket_connect(f"/ws/{tid}?lang=bg") as watcher:
        recv(ben)
        recv(watcher)
        assert ann.post(f"/api/tables/{tid}/chat", json={"phrase": "hurry"}).status_code == 201
        m = recv(ben, "chat")
        assert set(m) == {"type", "message"}
        assert set(m["message"]) == {"id", "seat", "name", "phrase", "text", "time"}
        kk = read(ann, t, lang="kk")["phrases"]["hurry"]
        assert m["message"]["text"] == kk != "Hurry, please"
        assert t["seats"][0]["token"] not in json.dumps(m)
        outsider = another_browser(client)
        r = outsider.post(f"/api/tables/{tid}/chat", json={"phrase": "thanks"})
        assert r.status_code == 201
        s = recv(watcher, "chat")              # the first chat the spectator gets is its own
        assert s["message"]["seat"] is None and s["message"]["text"] == \
            read(outsider, t, lang="bg")["phrases"]["thanks"]
        ann.post(f"/api/tables/{tid}/chat", json={"text": "<b>hi</b>"})
        assert recv(ben, "chat")["message"]["text"] == "<b>hi</b>"     # the page shows text
