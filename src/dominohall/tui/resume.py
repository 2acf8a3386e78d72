"""`dominohall play --resume` without a file: pick one of the unfinished autosaved games."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ..i18n import _, ngettext
from . import render
from .session import SavedGame


def describe(saved: SavedGame) -> str:
    """'Mexican Train · 4 players · round 3 of 13 · 57 moves · saved 2026-12-01 09:40 UTC'."""
    if saved.game == "mexican_train":
        where = (_("round {round} of {rounds}").format(round=saved.round, rounds=saved.rounds)
                 if saved.rounds else _("round {round}").format(round=saved.round))
    else:
        where = (_("hand {round} of {hands}").format(round=saved.round, hands=saved.rounds)
                 if saved.rounds else _("hand {round}").format(round=saved.round))
    return " · ".join([
        render.game_title(saved.game),
        ngettext("{n} player", "{n} players", saved.players).format(n=saved.players),
        where,
        ngettext("{n} move", "{n} moves", saved.actions).format(n=saved.actions),
        _("saved {when}").format(when=saved.saved.strftime("%Y-%m-%d %H:%M UTC")),
    ])


class ResumeApp(App[str]):
    """A list of the unfinished games; Enter resumes the highlighted one (returns its path)."""

    TITLE = "dominohall"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #title { padding: 1 1 0 1; text-style: bold; }
    OptionList { height: 1fr; margin: 1; }
    """
    BINDINGS = [Binding("escape,q", "quit", _("Quit"))]

    def __init__(self, games: list[SavedGame]) -> None:
        super().__init__()
        self.games = games

    def compose(self) -> ComposeResult:
        yield Static(_("Unfinished games — pick one with the arrows and Enter"), id="title")
        yield OptionList(*[Option(describe(g), id=str(k)) for k, g in enumerate(self.games)])
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.exit(str(self.games[int(event.option.id or 0)].path))
