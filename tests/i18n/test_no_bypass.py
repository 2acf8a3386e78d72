"""No player-facing text in the web client or the terminal game bypasses the catalogs.

``test_no_player_facing_text_bypasses_the_catalogs`` scans server/static (JS and HTML)
and tui/ and lists every literal a player would read that is not wrapped in t()/tn(),
_()/ngettext()/N_() or marked data-i18n, as ``file:line: 'text'``. It FAILS until the tui,
table and lobby branches (issue 15) have wrapped their strings; it is not skipped or
xfailed so that CI shows it. To see what is left:

    python -m dominohall.i18n.scan

The other tests here check the scanner itself on planted files.
"""

from __future__ import annotations

from dominohall.i18n import scan


def test_no_player_facing_text_bypasses_the_catalogs():
    found = scan.scan()
    assert not found, (f"{len(found)} player-facing literals bypass the catalogs "
                       "(python -m dominohall.i18n.scan):\n" + "\n".join(map(str, found)))


def test_js_scanner(tmp_path):
    js = tmp_path / "page.js"
    js.write_text("\n".join([
        'import { t, tn } from "./i18n.js";',                        # 1
        'el("button", { class: "primary big", text: "Take my seat" });',  # 2 flagged
        'say(t("Your turn"));',                                      # 3
        'el("span", { text: tn("{n} tile", "{n} tiles", n) });',     # 4
        'if (ev.key === "Enter") go();',                             # 5
        'toast(`${name} has one tile left!`);',                      # 6 flagged
        'node.textContent = "Waiting for players";',                 # 7 flagged
        'const re = /it\'s "quoted"/g; // a regex, not text',        # 8
        'el("div", { class: "seat-row", "data-seat": i });',         # 9
        'label.title = "debug only"; // i18n: not text',             # 10
        'const msg = "Drop it on a lit target.";',                   # 11 flagged (prose)
        'document.querySelectorAll(".drop-hover, .drag-source");',   # 12
        'el("td", { text: "Total" });',                              # 13 flagged
    ]), encoding="utf-8")
    found = [(f.line, f.text) for f in scan.scan_js(js, css={"primary", "big", "seat-row"})]
    assert found == [(2, "Take my seat"), (6, "${name} has one tile left!"),
                     (7, "Waiting for players"), (11, "Drop it on a lit target."),
                     (13, "Total")]
    assert str(scan.scan_js(js, css=set())[0]).endswith("page.js:2: 'Take my seat'")


def test_html_scanner(tmp_path):
    page = tmp_path / "p.html"
    page.write_text("""<!doctype html>
<html lang="en"><head><title data-i18n>dominohall — lobby</title>
<script>const x = "not text";</script></head>
<body>
  <h2 data-i18n>New table</h2>
  <h2>Tables on this server</h2>
  <input placeholder="e.g. Ana" data-i18n-attr="placeholder">
  <button aria-label="close the dialog">×</button>
  <h1><a href="/">dominohall</a></h1>
</body></html>""", encoding="utf-8")
    found = [(f.line, f.text) for f in scan.scan_html(page)]
    assert found == [(6, "Tables on this server"), (8, "close the dialog")]


def test_python_scanner(tmp_path):
    py = tmp_path / "w.py"
    py.write_text('''
from textual.widgets import Static
from dominohall.i18n import _


class W(Static):
    """Docstrings are not for players."""

    BINDINGS = [("q", "quit", "Quit"), ("d", "act('draw')", _("Draw"))]
    DEFAULT_CSS = "W { height: auto; }"

    def compose(self):
        yield Static("Score sheet", id="scores")
        yield Static(_("Log"), id="log")

    def on_mount(self):
        self.border_title = "Your hand"
        text.append(f"{n} tiles", style="bold green")
        if e["type"] == "round_end":
            self.say("The match is over. q: quit", "bold")
        self.say(_("hint: it is not your turn"), "yellow")
        raise ValueError("need a name per seat")
''', encoding="utf-8")
    found = [(f.line, f.text) for f in scan.scan_python(py)]
    assert found == [(9, "Quit"), (13, "Score sheet"), (17, "Your hand"), (18, "{} tiles"),
                     (20, "The match is over. q: quit")]
    py.write_text('from textual.binding import Binding\nB = [Binding("q", "quit", "Quit")]\n')
    assert [(f.line, f.text) for f in scan.scan_python(py)] == [(2, "Quit")]


def test_scan_reports_todays_literals_with_file_and_line():
    """Until issue 15 lands, the scan finds today's strings, each with file:line."""
    lines = [str(f) for f in scan.scan()]
    if lines:
        assert all(":" in x and x.split(":")[1].isdigit() for x in lines)
