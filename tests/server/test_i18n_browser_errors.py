"""Real server errors in Chromium, in each language: the page shows the translation of the
error's code and params (tError), never the English message the API carries.

The lobby: a display name with no visible character (the server refuses it, 422
``name_to_take_seat``). The replay page: a record file of an unknown version (422
``record_version``). The table page: a table that does not exist (404 ``not_found``)."""

from __future__ import annotations

import json

import pytest

from dominohall.i18n import translator
from dominohall.i18n.errors import error_text

from .conftest import running_server
from .helpers import PAGE_LANGS, PHONE, open_in

LANGS = PAGE_LANGS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, "i18n-errors") as s:
        yield s


def shown(page, selector: str) -> str:
    page.wait_for_function(
        "s => { const e = document.querySelector(s); return e && e.textContent.trim(); }",
        arg=selector)
    return page.locator(selector).text_content().strip()


@pytest.mark.parametrize("lang", LANGS)
def test_lobby_shows_a_server_error_in_the_players_language(browser, server, lang):
    ctx, page, errors = open_in(browser, server, lang)
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.fill("#name", "\u200b\u200b")          # not empty, but nothing anyone could read
    page.click("#create")
    text = shown(page, "#create-error")
    english = "name: your display name, to take a seat"
    assert text == translator(lang).gettext(english) != english, text
    fits = page.evaluate("""() => { const e = document.getElementById('create-error');
        return [e.scrollWidth <= e.clientWidth, document.documentElement.scrollWidth]; }""")
    assert fits[0] and fits[1] <= PHONE["width"], fits     # nothing overflows at 390 px
    assert not errors
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_replay_page_shows_a_bad_record_in_the_players_language(browser, server, lang,
                                                                tmp_path):
    record = {"format": "dominohall", "version": 99, "game": "block", "players": 2,
              "seed": 1, "options": {}, "actions": []}
    status, body = server.request("POST", "/api/replay", {"record": record, "round": 1})
    assert status == 422 and body["code"] in ("record_version", "not_a_record"), body
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record))
    ctx, page, errors = open_in(browser, server, lang)
    page.goto(server.url + "/replay")
    page.wait_for_selector("#record-file", state="attached")
    page.set_input_files("#record-file", str(path))
    text = shown(page, "#load-error")
    tr = translator(lang)
    want = tr.gettext("Cannot replay {file}: {reason}").format(
        file="old.json", reason=error_text(body, lang))
    assert text == want, (text, want)
    assert body["message"] not in text          # the English message is for the API only
    assert not errors
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_table_page_shows_a_missing_table_in_the_players_language(browser, server, lang):
    ctx, page, errors = open_in(browser, server, lang)
    page.goto(server.url + "/t/nosuchtable")
    text = shown(page, "#board .error")
    said = translator(lang).gettext("no table {table}").format(table="'nosuchtable'")
    assert said != "no table 'nosuchtable'" and text.startswith(said), (text, said)
    assert "no table" not in text
    ctx.close()


@pytest.mark.parametrize("lang", ["be", "pt"])
def test_bot_seats_are_named_in_the_players_language(browser, server, lang):
    """A bot seat's default name (stored by the server in English) is said in the page's
    language at the table, not in English, numbered like every player: the second seat's
    bot is "Bot 2" (seats are 0-based only in the API)."""
    ctx, page, errors = open_in(browser, server, lang)
    r = ctx.request.post(server.url + "/api/tables", data={
        "game": "mexican_train", "options": {"set_max": 6, "hand_size": 5, "rounds": 1},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        "take_seat": 0, "name": "Ana"})
    assert r.status == 201, r.text()
    page.goto(server.url + f"/t/{r.json()['id']}")
    page.wait_for_selector("body[data-version]")
    players = page.locator("#players").text_content()
    assert translator(lang).gettext("Bot {n}").format(n=2) in players, players
    assert translator(lang).gettext("Bot {n}").format(n=1) not in players, players
    assert "Bot 1" not in players or lang == "pt"           # pt says "Bot" too
    assert not errors
    ctx.close()
