"""The lobby, How to play, the match summary and the replay viewer, as a player sees them.

Playwright drives Debian's Chromium against a real `dominohall serve`, under the server's
real Content-Security-Policy (no bypass: the pages must work with it).  Each check reads the
rendered page: the texts, the sizes, the SVG drawn, what an accessibility scan (axe-core,
shipped inside the axe-playwright-python wheel) finds.  Set DOMINOHALL_SCREENSHOTS=1 to
refresh docs/web-lobby.png and docs/web-lobby-summary.png.
"""

from __future__ import annotations

import json
import os
import pathlib
import re

import pytest

from dominohall.engine import new_game, replay
from dominohall.guide import rules_markdown

from .conftest import running_server
from .helpers import DOCS, PHONE

SHOTS = bool(os.environ.get("DOMINOHALL_SCREENSHOTS"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, "lobby") as s:
        yield s


@pytest.fixture()
def page(browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(15_000)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.errors = errors          # type: ignore[attr-defined]   (a test may expect one)
    yield pg
    ctx.close()
    assert not errors, errors


def finished_record(tmp_path: pathlib.Path, game: str = "mexican_train",
                    seed: int = 11) -> tuple[dict, pathlib.Path]:
    """A whole short match, played to its end by taking the first legal action."""
    if game == "mexican_train":
        g = new_game(game, players=3, seed=seed,
                     options={"set_max": 6, "hand_size": 7, "rounds": 3})
    else:
        g = new_game(game, players=2, seed=seed, options={"hands": 2})
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    record = g.to_record()
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(record))
    return record, path


def open_lobby(page, server, width: int | None = None):
    if width:
        page.set_viewport_size({"width": width, "height": 844})
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")


def catalogue(server, game: str) -> dict:
    status, games = server.request("GET", "/api/games")
    assert status == 200
    return next(g for g in games if g["name"] == game)


def axe_serious(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            f"{[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def fits(page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


# --- the lobby ---------------------------------------------------------------------------

def test_options_show_labels_explanations_and_real_defaults(page, server):
    open_lobby(page, server)
    page.select_option("#game", "mexican_train")
    page.click("#options-box summary")
    mt = catalogue(server, "mexican_train")
    for o in mt["options"]:
        card = page.locator(f".opt[data-name='{o['name']}']")
        assert card.locator(".opt-label").inner_text() == (o.get("label") or o["name"])
        assert card.locator(".opt-help").inner_text() == o["help"]
        # the control is named by its label (a screen reader says what it sets)
        assert page.locator(f"select[data-option='{o['name']}']").evaluate(
            "s => s.labels[0].textContent") == (o.get("label") or o["name"])
    rounds_default = page.locator("select[data-option='rounds'] option[value='']")
    assert rounds_default.inner_text() == "default (13)"            # set_max 12 + 1
    page.select_option("select[data-option='set_max']", "6")
    assert rounds_default.inner_text() == "default (7)"
    assert page.locator("input[data-option-number='rounds']").get_attribute("max") == "7"
    # presets are named for players and explained; no bare "seed"
    names = page.locator("#preset option").all_inner_texts()
    assert "seed" not in names and len(names) == len(mt["presets"])
    assert page.locator("#preset option[value='seed']").inner_text() == "Standard rules" or \
        "label" in json.dumps(mt["presets"])
    page.select_option("#preset", "casual")
    note = page.locator("#preset-note").inner_text()
    assert "double" in note.lower() and "It sets" in note
    assert page.locator("select[data-option='double_blank'] option[value='']").inner_text() \
        == "default (50)"                                              # the preset's value
    # a line game: its own options, its own player range (from the engine's definitions)
    page.select_option("#game", "all_fives")
    af = catalogue(server, "all_fives")
    assert page.locator("#options .opt").count() == len(af["options"])
    assert page.locator("#players").get_attribute("max") == str(af["players"]["max"])
    if SHOTS:
        page.select_option("#game", "mexican_train")
        page.fill("#name", "Ana")
        page.select_option("#preset", "casual")
        page.locator("#options-box").evaluate("d => { d.open = true; }")
        page.evaluate("document.activeElement.blur()")
        page.screenshot(path=str(DOCS / "web-lobby.png"), full_page=True)


def test_the_lobby_and_its_pages_fit_a_phone(browser, server, tmp_path):
    _, path = finished_record(tmp_path)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "mexican_train")
    page.fill("#players", "8")
    page.dispatch_event("#players", "change")
    page.click("#options-box summary")
    page.click("#table-box summary")
    width, viewport = fits(page)
    assert viewport == 390 and width <= viewport
    assert page.locator("#create").bounding_box()["width"] <= 390
    page.goto(server.url + "/how-to-play")
    width, viewport = fits(page)
    assert viewport == 390 and width <= viewport        # a phone widens its viewport to fit
    page.goto(server.url + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector("body[data-over='1']")
    width, viewport = fits(page)
    assert viewport == 390 and width <= viewport
    ctx.close()


def create_here(page, server, game: str, public: bool, hints: str = "") -> str:
    open_lobby(page, server)
    page.select_option("#game", game)
    page.fill("#name", "Ann")
    page.select_option("select[data-seat='1']", "friend")
    page.click("#table-box summary")
    if public:
        page.check("#public")
    page.select_option("#hints", hints)
    page.click("#create")
    page.wait_for_url("**/t/*")
    return page.url.rsplit("/", 1)[1].split("?")[0]


def test_tables_are_private_unless_the_creator_makes_them_public(page, server):
    private = create_here(page, server, "all_fives", public=False)
    public = create_here(page, server, "draw", public=True)
    status, listed = server.request("GET", "/api/tables")
    ids = {t["id"] for t in listed}
    assert public in ids and private not in ids
    assert server.request("GET", f"/api/tables/{private}")[0] == 200      # its link still works
    open_lobby(page, server)
    page.wait_for_selector(f"#tables a[href='/t/{public}']")
    assert page.locator(f"#tables a[href='/t/{private}']").count() == 0
    assert page.locator(f"#tables a[href='/t/{public}']").inner_text() == "Draw dominoes"
    # public is a yes/no: anything else is refused and nothing is made
    body = {"game": "draw", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "public": "yes"}
    assert server.request("POST", "/api/tables", body)[0] == 422
    assert len(server.request("GET", "/api/tables")[1]) == len(listed)


# --- How to play -------------------------------------------------------------------------

def guide_headings() -> list[tuple[int, str]]:
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(rules_markdown())
    return [(int(tok.tag[1]), tokens[i + 1].content) for i, tok in enumerate(tokens)
            if tok.type == "heading_open" and tok.tag in ("h1", "h2", "h3")]


def test_how_to_play_renders_the_guide_and_is_linked_from_the_lobby(page, server):
    open_lobby(page, server)
    page.click("header nav a[href='/how-to-play']")
    page.wait_for_url("**/how-to-play")
    headings = guide_headings()
    assert headings, "the guide has headings"
    shown = page.locator("#guide h1, #guide h2, #guide h3").all_inner_texts()
    plain = [re.sub(r"[`*_]", "", text) for _, text in headings]
    assert [s.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
            for s in shown] == [p.replace("\u2019", "'") for p in plain]
    assert "<!--" not in page.locator("#guide").inner_text()     # the generator's markers
    for wrap in page.locator("#guide .table-wrap").all():          # tables scroll, words whole
        assert wrap.evaluate("w => w.scrollWidth >= w.querySelector('table').offsetWidth")
    assert page.title().startswith("How to play")
    assert page.locator("header nav a[aria-current='page']").inner_text() == "How to play"
    level2 = [text for level, text in headings if level == 2]
    assert page.locator("nav.toc li").count() == len(level2)
    assert axe_serious(page) == []


# --- after a match -----------------------------------------------------------------------

def test_summary_chart_draws_one_line_per_player_with_a_point_per_round(page, server, tmp_path):
    record, _ = finished_record(tmp_path)
    view = replay(record).view(None)
    open_lobby(page, server)
    page.evaluate("""async (view) => {
        const { matchSummary } = await import('/static/js/summary.js');
        document.body.replaceChildren(matchSummary(view, ['Ann', 'Ben', 'Cy'],
                                                   { replayHref: '/replay?table=abc' }));
    }""", view)
    lines = page.locator("svg.summary-chart polyline.player-line")
    assert lines.count() == view["players"] == 3
    rounds = sum(1 for e in view["log"] if e["type"] == "round_end")
    assert rounds == 3
    for seat in range(3):
        points = lines.nth(seat).get_attribute("points").split()
        assert len(points) == rounds + 1                      # the start and each round
        assert page.locator(f"svg.summary-chart g.points[data-seat='{seat}'] > *").count() \
            == rounds + 1
    # the lowest line at the end is the lowest total (penalty scoring)
    ends = [float(lines.nth(s).get_attribute("points").split()[-1].split(",")[1])
            for s in range(3)]
    best = min(range(3), key=lambda s: view["scores"][s])
    assert max(range(3), key=lambda s: ends[s]) == best       # svg y grows downwards
    table = page.locator(".summary-table tbody tr")
    assert table.count() == rounds
    assert table.last.locator("td").all_inner_texts() == [str(s) for s in view["scores"]]
    winners = " & ".join(["Ann", "Ben", "Cy"][s] for s in view["winners"])
    assert page.locator(".summary h2").inner_text() == f"{winners} won the match"
    assert page.locator(".summary a.button").get_attribute("href") == "/replay?table=abc"


def test_replay_viewer_steps_to_the_final_position(page, server, tmp_path):
    record, path = finished_record(tmp_path)
    game = replay(record)
    page.goto(server.url + "/")
    page.click("a[href='/replay']")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("body[data-step='0']")
    assert page.locator("body").get_attribute("data-steps") == str(len(record["actions"]) + 1)
    first = replay({**record, "actions": []})
    hand0 = first.view(0)["hand"]
    assert page.locator(".rp-player[data-seat='0'] .hand svg").count() == len(hand0)
    page.keyboard.press("ArrowRight")                       # one move
    page.wait_for_selector("body[data-step='1']")
    assert page.locator("#rp-moves li").first.inner_text() == record_text(record, 1)
    page.keyboard.press("PageDown")                         # the next round
    from playwright.sync_api import expect

    expect(page.locator("#rp-where")).to_have_text(re.compile(r"^Round 2 "))
    assert "Round 1 over: " in page.locator("#rp-moves").inner_text()
    page.click("#rp-end")                                   # the end
    page.wait_for_selector("body[data-over='1']")
    shown = json.loads(page.locator("#final-scores").get_attribute("data-scores"))
    assert shown == game.scores
    assert page.locator("svg.summary-chart polyline").count() == game.players
    assert "Match over: " in page.locator("#rp-moves").inner_text()
    if SHOTS:
        page.set_viewport_size({"width": 900, "height": 900})
        page.locator("#rp-summary .card").screenshot(path=str(DOCS / "web-lobby-summary.png"))
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")


def test_a_finished_table_shows_the_summary_chart_and_opens_its_replay(page, server):
    """Bots play a table to its end while a spectator watches (a table nobody watches
    pauses); the match-over box shows the chart, and its link opens the replay, fed by the
    table's record."""
    from playwright.sync_api import expect

    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    status, made = server.request("POST", "/api/tables", {
        "game": "mexican_train", "seats": seats, "ready_seconds": 0,
        "options": {"set_max": 6, "hand_size": 7, "rounds": 2}})
    assert status == 201, made
    table = made["id"]
    page.goto(f"{server.url}/t/{table}")
    modal = page.locator("#modal .summary")
    modal.wait_for(state="visible", timeout=60_000)
    status, view = server.request("GET", f"/api/tables/{table}/view")
    assert view["is_over"]
    chart = modal.locator("svg.summary-chart")
    assert chart.locator("polyline.player-line").count() == 2
    assert chart.get_attribute("data-points") == "3"            # the start and 2 rounds
    assert modal.locator(".summary-table tbody tr").last.locator("td").all_inner_texts() \
        == [str(s) for s in view["scores"]]
    assert page.locator("header a[href='/how-to-play']").count() == 1
    assert modal.locator("#play-again").count() == 0            # a spectator has no seat
    modal.locator("a.button[href^='/replay']").click()
    page.wait_for_url(f"**/replay?table={table}")
    page.wait_for_selector("body[data-step='0']")
    expect(page.locator("#rp-players .rp-player strong").first).to_have_text("Bot 1")
    page.keyboard.press("End")
    page.wait_for_selector("body[data-over='1']")
    shown = json.loads(page.locator("#final-scores").get_attribute("data-scores"))
    assert shown == view["scores"]
    status, record = server.request("GET", f"/api/tables/{table}/record")
    assert status == 200 and page.locator("body").get_attribute("data-steps") == \
        str(sum(1 for a in record["actions"] if not a.startswith("top ")) + 1)


def record_text(record: dict, step: int) -> str:
    """The engine's sentence for the record's move `step` (its first event)."""
    g = replay({**record, "actions": record["actions"][:step - 1]})
    before = len(g.view(None)["log"])
    g.apply(record["actions"][step - 1])
    from dominohall.i18n.log import event_text

    return event_text(g.view(None)["log"][before], None, "en", game=record["game"])


def test_replay_of_a_line_game_with_a_big_seed_and_a_bad_file(page, server, tmp_path):
    # a 128-bit seed, as the server deals: more than a JavaScript number holds, so the
    # viewer must send the file's text as it is, not a parsed and re-encoded copy
    record, path = finished_record(tmp_path, "all_fives", seed=2**127 + 12345)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "actions": ["9-9"]}))
    page.goto(server.url + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#record-file", str(bad))
    from playwright.sync_api import expect

    expect(page.locator("#load-error")).not_to_be_empty()
    assert "9-9" in page.locator("#load-error").inner_text()
    assert page.errors == [         # the browser's own note of the refused record, no more
        "Failed to load resource: the server responded with a status of 422 "
        "(Unprocessable Entity)"]
    page.errors.clear()
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='1']")
    assert page.locator(".rp-board").inner_text().startswith("Count")
    page.click("#rp-play")                                  # plays by itself, then pauses
    page.wait_for_selector("body[data-step='3']")
    page.click("#rp-play")
    assert page.locator("#rp-play").get_attribute("aria-pressed") == "false"
    page.keyboard.press("End")
    page.wait_for_selector("body[data-over='1']")
    assert json.loads(page.locator("#final-scores").get_attribute("data-scores")) \
        == replay(record).scores


# --- everyone can play -------------------------------------------------------------------

def test_lobby_and_replay_pass_an_accessibility_scan_and_work_from_the_keyboard(
        page, server, tmp_path):
    _, path = finished_record(tmp_path)
    open_lobby(page, server)
    page.click("#options-box summary")
    page.click("#table-box summary")
    assert axe_serious(page) == []
    # keyboard: Tab moves through the form in reading order, with a visible focus ring
    page.locator("#game").focus()
    order = []
    for _ in range(4):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id"))
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    assert order == ["players", "preset", "name", "seat-0"]
    page.goto(server.url + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    assert axe_serious(page) == []
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("body[data-step='0']")
    page.locator("#rp-next").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-step='1']")
    page.keyboard.press("End")
    page.wait_for_selector("body[data-over='1']")
    assert axe_serious(page) == []


def test_play_again_from_the_summary_seats_the_same_players(page, server):
    """A player finishes a match (their moves sent with their own seat cookie), then
    "Play again with the same seats" opens the next table with them in the same seat."""
    open_lobby(page, server)
    page.select_option("#game", "all_fives")
    page.fill("#name", "Ann")
    page.select_option("select[data-seat='1']", "bot:random")
    page.click("#options-box summary")
    page.fill("input[data-option-number='hands']", "1")
    page.click("#table-box summary")
    page.fill("#ready_seconds", "0")
    page.click("#create")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1].split("?")[0]
    api = page.request                               # shares the page's cookies (the seat)
    for _ in range(400):
        view = api.get(f"{server.url}/api/tables/{table}/view").json()
        if view["is_over"]:
            break
        if view["seat"] == 0 and view["legal_actions"]:
            api.post(f"{server.url}/api/tables/{table}/actions",
                     data={"action": view["legal_actions"][0], "version": view["version"]})
        else:
            page.wait_for_timeout(50)
    assert view["is_over"]
    button = page.locator("#modal .summary #play-again")
    button.wait_for(state="visible")
    button.click()
    page.wait_for_url(lambda url: f"/t/{table}" not in url)
    page.wait_for_selector("body[data-seat='0']")
    nxt = page.url.rsplit("/", 1)[1].split("?")[0]
    before = api.get(f"{server.url}/api/tables/{table}").json()
    after = api.get(f"{server.url}/api/tables/{nxt}").json()
    assert [(s["kind"], s["bot"], s["name"]) for s in after["seats"]] == \
        [(s["kind"], s["bot"], s["name"]) for s in before["seats"]]
    assert before["next_table"] == nxt


def test_the_creator_chooses_the_hint_button_and_everyone_sees_it(page, server):
    # two humans: automatic means off; the creator may allow it, and the choice is in the
    # table info every seat and spectator gets, and on the table page's header
    chosen = {"": False, "yes": True, "no": False}
    for value, expected in chosen.items():
        tid = create_here(page, server, "draw", public=False, hints=value)
        assert server.request("GET", f"/api/tables/{tid}")[1]["hints"] is expected
        badge = page.locator("#hints-badge")
        badge.wait_for(state="visible")
        assert badge.inner_text() == ("hints allowed" if expected else "hints off")
