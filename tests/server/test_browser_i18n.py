"""js/i18n.js in Chromium against a real server: the language from the browser or the
menu (remembered), <html lang>, marked HTML translated, plurals and numbers, and English
when the catalog cannot be had. (The lobby and table pages mount the menu in issue 15.)"""

from __future__ import annotations

import pytest

from dominohall.i18n import LANGUAGES

from .test_browser import ARGS

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title data-i18n>Table</title></head><body>
<header id="head"></header>
<h2 id="h" data-i18n>New table</h2>
<input id="name" placeholder="e.g. Ana" data-i18n-attr="placeholder">
<p id="p"></p>
<script type="module">
import { initI18n, languageMenu, tn, formatNumber, currentLanguage } from "/static/js/i18n.js";
await initI18n();
document.getElementById("head").appendChild(languageMenu());
document.getElementById("p").textContent =
  [tn("{n} tile", "{n} tiles", 5), tn("{n} tile", "{n} tiles", 21), formatNumber(1234.5)]
  .join("|");
document.body.dataset.lang = currentLanguage();
</script></body></html>"""


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=ARGS, timeout=60_000)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from .conftest import Server

    tmp = tmp_path_factory.mktemp("i18n")
    s = Server(str(tmp / "t.sqlite3"), tmp).start()
    yield s
    s.stop()


def open_page(browser, server, locale="en-US", abort_catalogs=False):
    ctx = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(server.url + "/i18n-test", lambda route: route.fulfill(
        status=200, content_type="text/html; charset=utf-8", body=PAGE))
    if abort_catalogs:
        page.route(server.url + "/api/i18n/**", lambda route: route.abort())
    page.goto(server.url + "/i18n-test")
    page.wait_for_selector("body[data-lang]")
    return ctx, page, errors


def state(page):
    return page.evaluate("""() => ({lang: document.documentElement.lang,
        title: document.title, h: document.getElementById('h').textContent,
        ph: document.getElementById('name').placeholder,
        p: document.getElementById('p').textContent,
        menu: [...document.querySelectorAll('#lang-menu option')].map((o) => o.textContent),
        value: document.getElementById('lang-menu').value,
        label: document.getElementById('lang-menu').getAttribute('aria-label')})""")


def test_browser_language_is_used(browser, server):
    ctx, page, errors = open_page(browser, server, locale="ru-RU")
    s = state(page)
    assert s["lang"] == "ru" and s["value"] == "ru"
    assert (s["title"], s["h"], s["ph"]) == ("Стол", "Новый стол", "например, Аня")
    assert s["p"] == "5 костяшек|21 костяшка|1\u00a0234,5"
    assert s["menu"] == list(LANGUAGES.values()) and s["label"] == "Язык"
    assert not errors
    ctx.close()


def test_unknown_browser_language_is_english(browser, server):
    ctx, page, errors = open_page(browser, server, locale="fr-FR")
    s = state(page)
    assert (s["lang"], s["h"], s["ph"], s["p"]) == ("en", "New table", "e.g. Ana",
                                                     "5 tiles|21 tiles|1,234.5")
    assert not errors
    ctx.close()


def test_menu_choice_is_remembered(browser, server):
    ctx, page, errors = open_page(browser, server, locale="pt-BR")
    assert state(page)["h"] == "Nova mesa"
    with page.expect_navigation():
        page.select_option("#lang-menu", "be")
    page.wait_for_selector("body[data-lang]")
    s = state(page)
    assert (s["lang"], s["value"], s["h"]) == ("be", "be", "Новы стол")
    plural5, plural21, number = s["p"].split("|")
    assert (plural5, plural21) == ("5 плітак", "21 плітка")
    assert number in ("1\u00a0234,5", "1.234,5")        # Belarusian, as the browser's ICU has it
    assert page.evaluate("localStorage.getItem('dominohall.lang')") == "be"
    page.reload()
    page.wait_for_selector("body[data-lang]")
    assert state(page)["lang"] == "be"          # remembered over the browser's Portuguese
    page.evaluate("localStorage.setItem('dominohall.lang', '<script>x')")
    page.reload()
    page.wait_for_selector("body[data-lang]")
    assert state(page)["lang"] == "pt"          # a bad stored value: the browser's language
    assert not errors
    ctx.close()


def test_no_catalog_means_english_not_keys(browser, server):
    ctx, page, errors = open_page(browser, server, locale="kk-KZ", abort_catalogs=True)
    s = state(page)
    assert (s["lang"], s["h"], s["p"]) == ("en", "New table", "5 tiles|21 tiles|1,234.5")
    assert not errors
    ctx.close()
