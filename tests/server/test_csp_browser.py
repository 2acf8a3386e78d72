"""The real Content-Security-Policy in Chromium (no bypass): the lobby and the game page
work under it, with no violation, and the page shows the deal's commitment.

(The other browser tests open their contexts with ``bypass_csp=True`` because
Playwright's string predicates, such as ``wait_for_function("...")``, need eval.)
"""

from __future__ import annotations


def test_lobby_and_table_work_under_the_real_csp(browser, server_factory):
    server = server_factory(bot_delay=0.02).start()
    ctx = browser.new_context(viewport={"width": 1200, "height": 850})
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    response = page.goto(server.url + "/")
    assert response is not None and "frame-ancestors 'none'" in \
        response.headers["content-security-policy"]
    page.locator("#game option").first.wait_for(state="attached")     # built by lobby.js
    assert page.locator("#game option").count() >= 4
    # a table with the page's own cookies: the creator's seat and two bots
    r = page.request.post(server.url + "/api/tables", data={
        "game": "all_fives", "take_seat": 0, "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                  {"kind": "bot", "bot": "random"}]})
    assert r.status == 201
    t = r.json()
    page.goto(f"{server.url}/t/{t['id']}")
    page.locator("#hand svg.domino").first.wait_for(timeout=20_000)  # the websocket works
    fair = page.locator("#fair")
    fair.wait_for()
    assert t["fairness"]["commitment"][:16] in fair.inner_text()
    assert fair.get_attribute("title") == t["fairness"]["commitment"]
    assert page.locator("body").get_attribute("data-seat") == "0"
    csp = [p for p in problems if "Content Security Policy" in p or "Refused" in p]
    assert not csp, csp
    assert not problems, problems
    ctx.close()


def test_a_used_invite_link_resumes_the_seat_on_its_device(browser, server_factory):  # noqa: F811
    server = server_factory(bot_delay=0.02).start()
    _, t = server.request("POST", "/api/tables", {
        "game": "draw", "take_seat": 0, "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    invite_url = t["seats"][1]["invite_url"]
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(invite_url)
    page.fill("#join-name", "Ben")
    page.click("#join-btn")
    page.locator("body[data-seat='1']").wait_for(timeout=20_000)
    assert "invite=" not in page.url
    page.goto(invite_url)                        # the old link, on the device holding the seat
    page.locator("body[data-seat='1']").wait_for(timeout=20_000)
    assert page.locator("#join-name").count() == 0
    other = browser.new_context().new_page()     # anyone else: the link is used up
    other.goto(invite_url)
    other.locator("#modal-title").wait_for(timeout=20_000)   # said at once, no name form
    assert other.locator("#modal-title").inner_text() == "This invite link has been used"
    assert other.locator("#join-name").count() == 0
    ctx.close()
