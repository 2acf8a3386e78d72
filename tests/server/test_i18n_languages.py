"""The text the server itself says follows each player's language, not the server's LANG:
``?lang=``, else the language menu's choice (the ``dh_lang`` cookie js/i18n.js sets), else
``Accept-Language``, else English. Two players at one table in two languages each get
their own pages and their own hints."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")

from dominohall import replay
from dominohall.i18n import _ as say
from dominohall.i18n import request_language, translator, use_language
from dominohall.server import hints

from .conftest import in_process_app
from .helpers import recv

SHORT_MT = {"set_max": 6, "hand_size": 5, "rounds": 1}


@pytest.fixture()
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")       # the server's own language: never used
    with in_process_app(tmp_path) as c:
        yield c


def test_the_request_language_order():
    assert request_language("kk", "be", "pt-BR") == "kk"
    assert request_language(None, "be", "pt-BR,pt;q=0.9") == "be"
    assert request_language("xx", "zz", "pt-BR,pt;q=0.9") == "pt"
    assert request_language(None, None, "fr-FR, de;q=0.5") == "en"
    assert request_language(None, None, None) == "en"


def test_use_language_is_local_to_its_context():
    with use_language("be"):
        assert say("Your turn") == translator("be").gettext("Your turn") != "Your turn"
        with use_language("pt"):
            assert say("Your turn") == translator("pt").gettext("Your turn")
        assert say("Your turn") == translator("be").gettext("Your turn")
    assert say("Your turn") == "Your turn"


def title_and_lang(html: str) -> tuple[str, str]:
    lang = re.search(r'<html lang="([^"]+)"', html)[1]
    title = re.search(r"<title[^>]*>([^<]*)</title>", html)[1]
    return lang, title


def test_pages_follow_each_players_language(client):
    be, pt = translator("be"), translator("pt")
    for path, title in [("/", "dominohall"), ("/t/abc", "dominohall — table"),
                        ("/replay", "dominohall — replay"),
                        ("/how-to-play", "How to play — dominohall")]:
        a = client.get(path, headers={"cookie": "dh_lang=be", "accept-language": "pt-BR"})
        b = client.get(path, headers={"accept-language": "pt-BR,pt;q=0.9,en;q=0.5"})
        c = client.get(path + "?lang=kk", headers={"cookie": "dh_lang=be"})
        d = client.get(path, headers={"accept-language": "fr"})
        assert title_and_lang(a.text) == ("be", be.gettext(title)), path
        assert title_and_lang(b.text) == ("pt", pt.gettext(title)), path
        assert title_and_lang(c.text)[0] == "kk", path
        assert title_and_lang(d.text) == ("en", title), path       # not the server's ru
        assert a.headers["content-language"] == "be" and "Cookie" in a.headers["vary"]
    # the How to play page's chrome, with the English source kept for switching in place
    page = client.get("/how-to-play", headers={"cookie": "dh_lang=be"}).text
    assert f'data-i18n="Replays">{be.gettext("Replays")}</a>' in page
    assert f'aria-label="{be.gettext("Site")}"' in page
    assert '<article id="guide" class="card guide" lang="be">' in page     # translated
    assert client.get("/how-to-play?lang=fr").text.count('class="card guide" lang="en"') == 1
    # the static pages' marked text, the English source kept on the element
    table = client.get("/t/abc", headers={"cookie": "dh_lang=pt"}).text
    assert f'data-i18n="Settings">{pt.gettext("Settings")}</button>' in table
    assert f'aria-label="{pt.gettext("board")}" data-i18n-attr="aria-label" ' \
           f'data-i18n-src-aria-label="board"' in table


def claim(client, tid: str, invite: str, name: str) -> str:
    r = client.post(f"/api/tables/{tid}/join", json={"token": invite, "name": name})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return r.json()["token"]


def play_until(client, tid: str, tokens: list[str], seat: int) -> None:
    """Play the first legal action (or 'end') of whoever moves until it is `seat`'s
    turn."""
    for _ in range(60):
        view = client.get(f"/api/tables/{tid}/view",
                          headers={"x-seat-token": tokens[0]}).json()
        if view["current_seat"] == seat:
            return
        mover = view["current_seat"]
        mine = client.get(f"/api/tables/{tid}/view",
                          headers={"x-seat-token": tokens[mover]}).json()
        # 'end' stops a first-turn chain: a chain could otherwise empty the hand and end
        # the round before `seat` moves (current_seat None: the test then failed at random)
        legal = mine["legal_actions"]
        action = "end" if "end" in legal else legal[0]
        r = client.post(f"/api/tables/{tid}/actions", json={
            "action": action, "version": mine["version"]},
            headers={"x-seat-token": tokens[mover]})
        assert r.status_code == 200, r.text
    raise AssertionError(f"seat {seat} never got the turn")


def test_two_players_at_one_table_get_hints_in_their_own_languages(client):
    r = client.post("/api/tables", json={
        "game": "mexican_train", "options": SHORT_MT, "ready_seconds": 0, "hints": True,
        "seats": [{"kind": "human"}, {"kind": "human"}], "seed": None})
    assert r.status_code == 201, r.text
    t = r.json()
    client.cookies.clear()
    tokens = [claim(client, t["id"], s["token"], f"P{s['seat']}") for s in t["seats"]]
    # seat 0 chose Belarusian in the menu (the cookie); seat 1's browser asks for Portuguese
    how = [{"cookie": f"dh_seat_{t['id']}={tokens[0]}; dh_lang=be", "accept-language": "en"},
           {"cookie": f"dh_seat_{t['id']}={tokens[1]}", "accept-language": "pt-PT,pt;q=0.9"}]
    langs = ["be", "pt"]
    first = client.get(f"/api/tables/{t['id']}/view",
                       headers={"x-seat-token": tokens[0]}).json()["current_seat"]
    for seat in (first, 1 - first):
        play_until(client, t["id"], tokens, seat)
        with client.websocket_connect(f"/ws/{t['id']}", headers=how[seat]) as ws:
            recv(ws, "state")
            ws.send_text('{"type": "hint"}')
            hint = recv(ws, "hint", timeout=120)
        record = client.app.state.hub.tables[t["id"]].game.to_record()
        want = hints.compute(record, seat, langs[seat])
        english = hints.compute(record, seat, "en")
        assert (hint["action"], hint["why"]) == want
        assert hint["why"] != english[1], (langs[seat], hint["why"])
        assert replay(record).view(seat)["legal_actions"]
    # the other player's language does not leak into the first one's cached hint
    with client.websocket_connect(f"/ws/{t['id']}?lang=kk", headers=how[1 - first]) as ws:
        recv(ws, "state")
        ws.send_text('{"type": "hint"}')
        hint = recv(ws, "hint", timeout=120)
    record = client.app.state.hub.tables[t["id"]].game.to_record()
    assert hint["why"] == hints.compute(record, 1 - first, "kk")[1]
    # the menu switched the page in place: the hint message names the new language
    with client.websocket_connect(f"/ws/{t['id']}", headers=how[1 - first]) as ws:
        recv(ws, "state")
        ws.send_text('{"type": "hint", "lang": "es"}')
        hint = recv(ws, "hint", timeout=120)
        ws.send_text('{"type": "hint", "lang": 5}')           # not a language: unchanged
        again = recv(ws, "hint", timeout=120)
    assert hint["why"] == hints.compute(record, 1 - first, "es")[1]
    assert again["why"] == hint["why"]
