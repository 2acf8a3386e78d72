"""Widgets of the terminal game: the hand, the chip bar, and the shared board panels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..i18n import _
from . import render

View = dict[str, Any]


class HandView(Static):
    """The human's tiles as dominoes, numbered for the keys 1..9, 0; click to pick one."""

    DEFAULT_CSS = "HandView { height: auto; }"

    class Picked(Message):
        def __init__(self, tile: str) -> None:
            super().__init__()
            self.tile = tile

    def __init__(self, **kw: Any) -> None:
        super().__init__("", **kw)
        self.tiles: list[str] = []
        self.cell = 8
        self.per_row = 10

    def show(self, tiles: list[str], playable: set[str], selected: str | None,
             width: int) -> None:
        self.tiles = tiles
        self.cell = max((len(render.glyph(t)) for t in tiles), default=5) + 2
        self.per_row = max(1, width // self.cell)
        text = Text()
        if not tiles:
            text.append(_("(no tiles)"), style="dim")
        for row in range(0, len(tiles), self.per_row):
            chunk = tiles[row:row + self.per_row]
            for k in range(row, row + len(chunk)):
                key = str(k + 1) if k < 9 else ("0" if k == 9 else "")
                text.append(key.center(self.cell), style="dim")
            text.append("\n")
            for tile in chunk:
                a, b = render.halves(tile)
                style = "bold green" if tile in playable else "dim"
                if a == b:
                    style += " italic"
                if tile == selected:
                    style = "bold reverse " + ("green" if tile in playable else "white")
                text.append(" ")
                text.append(render.glyph(tile).ljust(self.cell - 2), style=style)
                text.append(" ")
            if row + self.per_row < len(tiles):
                text.append("\n")
        self.update(text)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = (offset.y // 2) * self.per_row + offset.x // self.cell
        if offset.x // self.cell < self.per_row and 0 <= index < len(self.tiles):
            self.post_message(self.Picked(self.tiles[index]))


@dataclass
class Chip:
    label: str
    action: str
    style: str = ""


class ChipBar(Static):
    """One line of clickable chips: targets of the picked tile, draw, pass, end, hint..."""

    DEFAULT_CSS = "ChipBar { height: auto; }"

    class Pressed(Message):
        def __init__(self, action: str) -> None:
            super().__init__()
            self.action = action

    def __init__(self, **kw: Any) -> None:
        super().__init__("", **kw)
        self.spans: list[tuple[int, int, int, str]] = []      # line, start, end, action
        self.text_lines: list[str] = [""]

    def show(self, lead: Text, chips: list[Chip], width: int = 200) -> None:
        text = lead.copy()
        self.spans = []
        line, x = 0, len(lead.plain)
        for chip in chips:
            label = f" {chip.label} "
            if x + len(label) + 1 > width and x > 0:
                text.append("\n")
                line, x = line + 1, 0
            text.append(label, style=chip.style or "reverse")
            self.spans.append((line, x, x + len(label), chip.action))
            text.append(" ")
            x += len(label) + 1
        self.text_lines = text.plain.split("\n")
        self.update(text)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for line, start, end, action in self.spans:
            if line == offset.y and start <= offset.x < end:
                self.post_message(self.Pressed(action))
                return


class Board(Widget):
    """Header, players, score sheet, the table (trains or layout) and the log.

    Two layouts: *wide* (players and score sheet left, the table, the log right) for
    big terminals, and *compact* for small ones (80×24): the table across the whole
    width with one line per train (its player's tiles and points, the marker, the open
    end), the log below it, collapsible with `l`.
    """

    DEFAULT_CSS = """
    Board { height: 1fr; layout: vertical; }
    Board #header { height: 1; background: $primary-background; padding: 0 1; }
    Board #main { height: 1fr; }
    Board #side { width: 42; }
    Board #players { height: auto; border: round $secondary; }
    Board #scores { height: 1fr; border: round $secondary; }
    Board #table { width: 1fr; height: 100%; border: round $accent; padding: 0 1; }
    Board #logbox { width: 42; border: round $secondary; }
    Board.compact #main { layout: vertical; }
    Board.compact #side { display: none; }
    Board.compact #table { width: 100%; height: auto; }
    Board.compact #logbox { width: 100%; height: 1fr; }
    Board.compact.nolog #logbox { display: none; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.compact = False
        self.log_open = True

    def compose(self) -> ComposeResult:
        yield Static("", id="header")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield Static("", id="players")
                yield Static("", id="scores")
            yield Static("", id="table")
            with VerticalScroll(id="logbox", can_focus=False):
                yield Static("", id="log")

    def on_mount(self) -> None:
        self.query_one("#players").border_title = _("Players")
        self.query_one("#scores").border_title = _("Score sheet")
        self.query_one("#table").border_title = _("Table")
        self.query_one("#logbox").border_title = _("Log")

    def set_layout(self, compact: bool, log_open: bool = True) -> None:
        self.compact = compact
        self.log_open = log_open
        self.set_class(compact, "compact")
        self.set_class(compact and not log_open, "nolog")
        box = self.query_one("#logbox")
        box.border_title = _("Log (l: hide)") if compact else _("Log")

    def table_lines(self, view: View, names: list[str], width: int) -> int:
        """Rows the compact table needs (borders included) at `width` columns."""
        return len(render.table_compact(view, names, width - 4).plain.splitlines()) + 2

    def show(self, view: View, names: list[str], status: str = "") -> None:
        self.query_one("#header", Static).update(render.header(view, names, status))
        table = self.query_one("#table", Static)
        if self.compact:
            width = (self.size.width or 80) - 4
            table.update(render.table_compact(view, names, width))
            table.border_subtitle = render.boneyard_text(view)
        else:
            side = self.query_one("#side")
            side.styles.width = max(42, 4 + 5 * view["players"] + 3)  # room for the score sheet
            self.query_one("#players", Static).update(render.players(view, names))
            self.query_one("#scores", Static).update(render.score_sheet(view, names))
            width = table.content_size.width or 80
            table.update(render.table_text(view, width, table.content_size.height, names))
            table.border_subtitle = ""
        self.query_one("#log", Static).update(render.log_text(view, names=names))
        box = self.query_one("#logbox", VerticalScroll)
        box.call_after_refresh(box.scroll_end, animate=False)
