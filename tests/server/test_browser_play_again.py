"""Play again in Debian's Chromium (issues 21, 25): the guest at the finished table sees
"Ann wants to play again" with the countdown of the seat kept for them and a Join button,
in English, Russian and Kazakh (also at a phone's width), and one click seats them at
the new table (no name asked)."""

from __future__ import annotations

import random
import re
import time

import pytest

from dominohall.i18n import translator

from .conftest import running_server
from .helpers import PHONE, watch_errors


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory, "again") as s:
        yield s


def finish(server, tid: str, secrets_: dict[int, str]) -> None:
    rng = random.Random(5)
    for _ in range(200):
        _, v = server.request("GET", f"/api/tables/{tid}/view")
        if v["is_over"]:
            return
        token = secrets_[v["current_seat"]]
        _, mine = server.request("GET", f"/api/tables/{tid}/view",
                                 headers={"X-Seat-Token": token})
        status, r = server.request("POST", f"/api/tables/{tid}/actions", {
            "action": rng.choice(mine["legal_actions"]), "version": mine["version"]},
            headers={"X-Seat-Token": token})
        assert status == 200, r
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("lang", ["en", "ru", "kk"])
def test_the_notice_and_join_button_take_the_guest_to_the_new_table(browser, server, lang):
    tr = translator(lang)
    status, t = server.request("POST", "/api/tables", {
        "game": "block", "options": {"hands": 1}, "ready_seconds": 0,
        "seats": [{"kind": "human"}, {"kind": "human"}], "take_seat": 0, "name": "Ann"})
    assert status == 201, t
    tid, host = t["id"], t["seat_token"]
    invite = next(s["token"] for s in t["seats"] if s["seat"] == 1)
    ctx = browser.new_context(viewport={"width": 1100, "height": 800})
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        page.goto(f"{server.url}/?lang={lang}")
        status, joined = page.evaluate("""async ([tid, token]) => {
            const r = await fetch(`/api/tables/${tid}/join`, {method: 'POST',
                credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({token, name: 'Ben'})});
            return [r.status, await r.json()];
        }""", [tid, invite])
        assert status == 200, joined
        finish(server, tid, {0: host, 1: joined["token"]})
        page.goto(f"{server.url}/t/{tid}?lang={lang}")
        page.wait_for_selector("body[data-over='1']")
        assert page.is_hidden("#again-offer")
        # the host presses Play again in their own browser and lands at the new table
        hctx = browser.new_context(viewport={"width": 1100, "height": 800})
        hctx.set_default_timeout(15_000)
        hpage = hctx.new_page()
        watch_errors(hpage, errors)
        hpage.goto(f"{server.url}/?lang={lang}")
        status, nxt = hpage.evaluate("""async ([tid, token]) => {
            const r = await fetch(`/api/tables/${tid}/again`, {method: 'POST',
                credentials: 'same-origin', headers: {'Content-Type': 'application/json',
                'X-Seat-Token': token}, body: '{}'});
            return [r.status, await r.json()];
        }""", [tid, host])
        assert status == 201, nxt
        hpage.goto(f"{server.url}/t/{nxt['id']}?lang={lang}")
        hpage.wait_for_selector("body[data-seat='0']")
        hpage.wait_for_selector("#banner:not([hidden])")
        banner = hpage.text_content("#banner")
        k = int(re.search(r"\d+", banner).group())
        wait = tr.ngettext("Waiting for {names} to come back: {n} second left.",
                           "Waiting for {names} to come back: {n} seconds left.", k)
        assert banner == wait.replace("{names}", "Ben").replace("{n}", str(k)), banner
        page.wait_for_selector("#again-offer:not([hidden])")
        title = page.text_content("#again-title")
        assert title == tr.gettext("{name} wants to play again").replace("{name}", "Ann")
        left = page.text_content("#again-left")
        n = int(re.search(r"\d+", left).group())
        assert 40 < n <= 60, left
        want = tr.ngettext(
            "Your seat at the new table is kept for you for {n} more second; then a bot takes it.",
            "Your seat at the new table is kept for you for {n} more seconds; then a bot takes it.",
            n)
        assert left == want.replace("{n}", str(n)), (left, want)
        if lang != "en":
            assert "seat" not in left and "wants" not in title
        assert page.text_content("#again-join") == tr.gettext("Join")
        deadline = time.monotonic() + 5
        while page.text_content("#again-left") == left:     # the countdown runs
            assert time.monotonic() < deadline, "the countdown stopped"
            time.sleep(0.1)
        box = page.locator("#again-offer").bounding_box()
        assert box and box["y"] >= 0 and box["x"] >= 0 and box["x"] + box["width"] <= 1100
        page.set_viewport_size(PHONE)                       # a phone: nothing cut off
        over = page.evaluate("""() => [...document.querySelectorAll('#again-offer, #again-offer *')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0)
            .map((e) => e.id || e.className)""")
        assert not over, over
        for sel in ("#again-offer", "#again-join", "#again-dismiss"):
            b = page.locator(sel).bounding_box()
            assert b and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"], (sel, b)
        page.set_viewport_size({"width": 1100, "height": 800})
        page.click("#again-join")
        page.wait_for_url(re.compile(rf"/t/{nxt['id']}"))
        page.wait_for_selector("body[data-seat='1']")
        assert not page.is_visible("#join-name")            # no name asked
        status, info = server.request("GET", f"/api/tables/{nxt['id']}")
        assert info["again"]["reserved"] == [] and info["seats"][1]["name"] == "Ben"
        assert info["status"] == "playing", info
        hpage.wait_for_selector("#banner[hidden]", state="attached")  # the host: no more waiting
        hctx.close()
        assert not errors, errors
    finally:
        ctx.close()
