"""The help screen's body: the keys of the screen it was opened from, the board's symbols,
the names to type for this table's trains or ends, then the rules guide.

One Static of Rich text (the guide rendered by Rich's Markdown), not Textual's
MarkdownViewer: the viewer builds a widget per block of the 20 KB guide and took seconds
to open on a loaded machine; a single renderable opens at once and scrolls with the
arrows and PgUp/PgDn as soon as it is shown.  The guide's lines are rendered once per
language and width, and the table screen renders them in a thread when it opens, so that
pressing h only copies them.
"""

from __future__ import annotations

import io
import threading
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markdown import Markdown
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from ..i18n import N_, _

View = dict[str, Any]

#: (symbol, what it means) on the board
LEGEND: list[tuple[str, str]] = [
    ("▶", N_("whose turn it is")),
    ("[12|5]", N_("a tile; a double is in bold")),
    ("▸12", N_("an open end: the number the next tile must match")),
    ("◂3 … ▸4", N_("the line's left and right open ends")),
    ("●", N_("a marker: that player's train is open to everyone")),
    ("…+4", N_("tiles of a long line not shown, at its start")),
    ("[6|6]", N_("on red: a double that must be covered first")),
]


def keys_table(app: Any, bindings: list[Any], own: set[str] | None = None) -> Table:
    """A row per thing a key does (the screen's own bindings, translated): its keys and
    what it does; keys that do the same ("← →": Tile) share a row."""
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    rows: dict[str, list[str]] = {}
    for b in bindings:
        if own is not None and b.action not in own:
            continue
        if b.action.startswith("pick("):
            rows.setdefault(_("pick a tile by its number"), ["1…9, 0"])
            continue
        if not b.description or b.description.startswith(("+", "-")):
            continue
        keys = rows.setdefault(b.description, [])
        shown = app.get_key_display(b)
        if shown not in keys:
            keys.append(shown)
    for word, keys in rows.items():
        table.add_row(" ".join(keys), word)
    return table


def legend_table() -> Table:
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(no_wrap=True)
    table.add_column()
    for symbol, meaning in LEGEND:
        style = "bold white on red" if meaning.startswith("on red") else "bold cyan"
        table.add_row(Text(symbol, style=style), _(meaning))
    return table


def typing_ids(view: View) -> list[str]:
    """The names a typed move uses for this table's trains, or for its open ends."""
    if view["game"] == "mexican_train":
        return [t["id"] for t in view["trains"]]
    return [e["id"] for e in view["layout"]["ends"]] or ["L", "R"]


def typing_table(view: View, names: list[str] | None) -> Table:
    """What to type after the tile (``12-5>...``) for each train or open end of this table."""
    from . import render

    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for target in typing_ids(view):
        table.add_row(target, render.target_name(target, view, names))
    return table


def help_body(app: Any, bindings: list[Any], view: View | None = None,
              names: list[str] | None = None, own: set[str] | None = None) -> RenderableType:
    """Keys, symbols, what to type for `view`'s targets (the guide follows: `guide_lines`);
    `own`: the actions the screen itself binds (not Textual's own, like Tab's focus)."""
    parts: list[RenderableType] = [Text(_("Keys"), style="bold underline"),
                                   keys_table(app, bindings, own), Text(""),
                                   Text(_("Symbols on the board"), style="bold underline"),
                                   legend_table(), Text("")]
    if view is not None:
        parts += [Text(_("Typing a move (:): the tile, '>' and where it goes, e.g. "
                         "12-5>{target}").format(target=typing_ids(view)[-1]),
                       style="bold underline"), typing_table(view, names), Text("")]
    return Group(*parts)


_cache: dict[tuple[str, int], list[list[Segment]]] = {}
_lock = threading.Lock()


def guide_lines(guide: str, width: int) -> list[list[Segment]]:
    """The guide rendered by Rich at `width` columns, kept for the next time."""
    key = (guide[:200] + str(len(guide)), width)
    with _lock:
        found = _cache.get(key)
    if found is None:
        console = Console(file=io.StringIO(), width=width, force_terminal=True,
                          color_system="truecolor")
        found = console.render_lines(Markdown(guide), console.options.update_width(width),
                                     pad=False)
        with _lock:
            _cache[key] = found
    return found


class Lines:
    """Lines already rendered, as a renderable (drawn again without any work)."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines:
            yield from line
            yield Segment.line()
