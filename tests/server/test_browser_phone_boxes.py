"""The round-end and match-end box on a 390x844 phone in every language: the score
table (player, tiles left, pips, points, total) and the match summary fit the box, and
the box fits the page. A tester measured the box at 402-438 px of content in 374 px in
every language but English (the last columns cut: kk lost both Ұпайлар and Барлығы)."""

from __future__ import annotations

import random

import pytest

from dominohall.engine import new_game
from dominohall.i18n import LANGUAGES

from .conftest import running_server
from .helpers import PHONE, state_message, table_info, watch_errors

NAMES = ["Ana", "Benedita", "Bot 3", "Bot 4"]

#: the box and everything in it that is wider than its own box (content cut or spilling),
#: the page's width, and every button's box against the viewport
MEASURE = """() => {
  const box = document.getElementById('modal-box');
  const over = [];
  for (const el of [box, ...box.querySelectorAll('*')]) {
    if (!el.getClientRects().length || el.closest('svg')) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
      over.push(`${el.tagName.toLowerCase()}.${el.className}: `
                + `${el.scrollWidth} > ${el.clientWidth}`);
  }
  const outside = [...box.querySelectorAll('button, a.button')].filter((b) => {
    const r = b.getBoundingClientRect();
    return r.width && (r.left < 0 || r.right > innerWidth);
  }).map((b) => b.textContent);
  const r = box.getBoundingClientRect();
  return {over, outside, page: document.documentElement.scrollWidth, left: r.left, right: r.right,
          heads: [...box.querySelectorAll('.round-end th')].map((th) => th.textContent)};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, "phone-boxes") as s:
        yield s


def play_round(game, rng) -> None:
    start = game.round
    while game.round == start and not game.is_over:
        legal = game.legal_actions()
        game.apply(rng.choice([a for a in legal if "-" in a] or legal), seat=game.current_seat)


def fits(page, lang: str, kind: str) -> None:
    page.locator(f"#modal[data-kind='{kind}']").wait_for(state="visible")
    page.wait_for_timeout(100)
    got = page.evaluate(MEASURE)
    assert len(got["heads"]) == 5, got["heads"]
    assert not got["over"], f"{lang} {kind} box overflows: {got['over']}"
    assert got["page"] <= PHONE["width"], f"{lang} {kind}: page is {got['page']} px wide"
    assert 0 <= got["left"] and got["right"] <= PHONE["width"], (lang, kind, got)
    assert not got["outside"], f"{lang} {kind}: buttons outside the screen: {got['outside']}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_round_and_match_end_boxes_fit_a_phone(browser, server, lang):
    ctx = browser.new_context(bypass_csp=True, viewport=PHONE, locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('dominohall.lang', '{lang}')")
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    game = new_game("mexican_train", players=4, seed=5, options={"rounds": 2})
    rng = random.Random(5)
    sockets = []
    page.route("**/api/tables/fake",
               lambda r: r.fulfill(json={**table_info(game, NAMES), "you": {"seat": 0}}))

    def on_ws(ws):
        sockets.append(ws)
        ws.send(state_message(game, 0, NAMES))

    page.route("**/api/tables/fake/chat**", lambda r: r.fulfill(json={   # the table's chat
        "channel": "players", "free_text": False, "phrases": {}, "messages": []}))
    page.route_web_socket("**/ws/fake", on_ws)
    page.goto(f"{server.url}/t/fake")
    page.wait_for_selector("body[data-version]")
    assert page.evaluate("document.documentElement.lang") == lang
    play_round(game, rng)
    sockets[0].send(state_message(game, 0, NAMES))
    fits(page, lang, "round")
    page.locator("#modal button#ready").click()
    while not game.is_over:
        play_round(game, rng)
    sockets[0].send(state_message(game, 0, NAMES))
    fits(page, lang, "over")
    assert not errors, errors
    ctx.close()
