"""The replay viewer's Analysis tab (issue 22), in Chromium against a real server: the
graph, the marks, a click shows the position with the better move drawn and the top
three actions; in English and Russian; not there before the match ends."""

from __future__ import annotations

import json

import pytest

from .helpers import english_left


@pytest.fixture()
def server(server_factory):
    return server_factory(bot_delay=0.0).start()


def _finished_table(server, browser) -> str:
    """A bots' Block hand played to its end while a spectator watches."""
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    status, made = server.request("POST", "/api/tables", {
        "game": "block", "seats": seats, "ready_seconds": 0, "options": {"hands": 1}})
    assert status == 201, made
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(f"{server.url}/t/{made['id']}")
    page.locator("#modal .summary").wait_for(state="visible", timeout=60_000)
    ctx.close()
    return made["id"]


def _open(browser, server, table: str, lang: str):
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    ctx.set_default_timeout(30_000)
    ctx.add_init_script(f"localStorage.setItem('dominohall.lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/replay?table={table}")
    page.wait_for_selector("body[data-step='0']")
    return ctx, page, errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_analysis_tab_shows_the_graph_the_marks_and_the_better_move(browser, server, lang):
    table = _finished_table(server, browser)
    ctx, page, errors = _open(browser, server, table, lang)
    start = page.locator("#an-start")
    from dominohall.i18n import translator

    said = translator(lang).gettext("Analyse this match")
    assert start.inner_text() == said and (lang == "en" or said != "Analyse this match")
    start.click()
    page.wait_for_selector("#an-list", timeout=120_000)
    status, got = server.request("GET", f"/api/tables/{table}/analysis")
    assert status == 200 and got["status"] == "done"
    decisions = got["analysis"]["decisions"]
    assert page.locator("svg.eval-graph").get_attribute("data-points") == str(len(decisions))
    dots = page.locator("svg.eval-graph circle.eval-dot")
    assert dots.count() == len(decisions)
    # two players: the graph is seat 0's expected score difference (seat 1's values negated)
    assert page.locator("svg.eval-graph").get_attribute("data-sides") == "2"
    for i, d in enumerate(decisions):
        value = d["values"][d["action"]]
        assert float(dots.nth(i).get_attribute("data-value")) == pytest.approx(
            value if d["seat"] == 0 else -value)
    items = page.locator("#an-list button.an-item")
    assert [items.nth(i).get_attribute("data-mark") for i in range(items.count())] == \
        [d["mark"] for d in decisions]
    mark_word = {"en": {"best": "best", "good": "good", "inaccuracy": "inaccuracy",
                        "mistake": "mistake", "blunder": "blunder"},
                 "ru": {"best": "лучший", "good": "хороший", "inaccuracy": "неточность",
                        "mistake": "ошибка", "blunder": "грубая ошибка"}}[lang]
    for i, d in enumerate(decisions):
        assert items.nth(i).inner_text().endswith(f"{d['action']} — {mark_word[d['mark']]}")
    flawed = next((d for d in decisions if d["mark"] != "best"), None)
    assert flawed is not None, decisions
    page.locator(f"#an-list button[data-index='{flawed['index']}']").click()
    page.wait_for_selector(f"body[data-step='{flawed['step']}']")
    best_tile = flawed["best"].split(">")[0]
    ghost = page.locator(f"#rp-board svg.domino.ghost[data-ghost='{best_tile}']")
    ghost.wait_for()
    assert ghost.count() == 1
    top = page.locator("#an-top li")
    ranked = sorted(flawed["values"].items(), key=lambda kv: -kv[1])[:3]
    assert top.count() == len(ranked)
    assert [top.nth(i).get_attribute("data-action") for i in range(top.count())] == \
        [a for a, _ in ranked]
    assert top.nth(0).get_attribute("data-action") == flawed["best"]
    texts = page.evaluate("""() => [...document.querySelectorAll('#rp-analysis *')]
        .filter((e) => e.children.length === 0).map((e) => e.textContent)""")
    assert not english_left(lang, texts) if lang != "en" else True
    if lang == "ru":
        assert "Анализ" in page.locator("#rp-analysis h3").inner_text()
        assert "лучше:" in page.locator("#an-move").inner_text()
    else:
        assert "better:" in page.locator("#an-move").inner_text()
    assert not errors
    ctx.close()


def test_no_analysis_before_the_match_ends(browser, server):
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    status, made = server.request("POST", "/api/tables", {
        "game": "block", "seats": seats, "ready_seconds": 0, "options": {"hands": 1}})
    assert status == 201
    table = made["id"]
    for method in ("GET", "POST"):
        status, body = server.request(method, f"/api/tables/{table}/analysis")
        assert status == 409 and body["code"] == "analysis_not_ready"
        assert "values" not in json.dumps(body)
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(f"{server.url}/replay?table={table}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("document.getElementById('load-error').textContent.length > 0")
    assert "not over" in page.locator("#load-error").inner_text()
    assert page.locator("#rp-analysis").count() == 0
    ctx.close()
