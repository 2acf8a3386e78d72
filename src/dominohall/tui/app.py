"""The Textual apps: `PlayApp` (you against bots) and `ReplayApp` (step through a record).

The play screen renders only ``session.view()`` (``Game.view(human)``); every
move goes through ``Game.apply`` and an illegal one shows the engine's
IllegalAction message.
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, RichLog, Static

from ..engine import DominohallError, Game
from ..i18n import N_, NP_, _, error_text, ngettext
from . import render
from .hint import advise, said
from .keys import FittedFooter
from .session import Session, rebuild
from .widgets import Board, Chip, ChipBar, HandView

View = dict[str, Any]


class NoticeScreen(FittedFooter, ModalScreen[str]):
    """Round end (all hands revealed, points, totals) or the final table.

    The bots wait while it is open; the last line says which keys continue.
    """

    DEFAULT_CSS = """
    NoticeScreen { align: center middle; }
    NoticeScreen > Vertical { width: auto; max-width: 100%; height: auto; max-height: 100%;
                              border: thick $accent; background: $surface; padding: 0 1; }
    NoticeScreen #notice-scroll { height: auto; }
    NoticeScreen #notice-body { height: auto; }
    NoticeScreen #notice-help { width: auto; height: auto; text-style: bold;
                                color: $text; margin-top: 1; }
    """
    BINDINGS = [
        Binding("enter,space,escape", "close", N_("Continue")),
        Binding("q", "quit_app", N_("Quit")),
    ]

    def __init__(self, body: RenderableType, kind: str, game: str = "mexican_train",
                 last: bool = False) -> None:
        """`last`: the match's last round or hand (Enter shows the final table next)."""
        super().__init__()
        self.body = body
        self.kind = kind
        self.game = game            # the line games play hands, Mexican Train rounds
        self.last = last

    @property
    def help_text(self) -> str:
        if self.kind == "final":
            return _("Enter or Space: back to the table · q: quit")
        if self.last:
            return _("Enter or Space: the final scores · q: quit")
        if self.game != "mexican_train":
            return _("Enter or Space: next hand · q: quit")
        return _("Enter or Space: next round · q: quit")

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="notice-scroll"):
                yield Static(self.body, id="notice-body")
            yield Static(self.help_text, id="notice-help")
        yield Footer()          # this screen's keys, not the table's

    def on_mount(self) -> None:
        self._fit()

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        """As wide as the summary needs (measured, so any language fits) up to the screen;
        the help line stays on screen and a long summary scrolls (arrows, PgUp/PgDn)."""
        room = max(10, self.size.width - 6)
        console = self.app.console
        wanted = console.measure(self.body, options=console.options.update_width(room)).maximum
        help_width = len(self.help_text)
        width = min(room, max(wanted, help_width)) + 1
        scroll = self.query_one("#notice-scroll")
        scroll.styles.width = width
        self.query_one("#notice-body").styles.width = width - 1
        scroll.styles.max_height = max(3, self.size.height - 7)
        scroll.focus()

    def action_close(self) -> None:
        self.dismiss("close")

    def action_quit_app(self) -> None:
        self.dismiss("quit")

    def on_click(self, event: events.Click) -> None:
        self.dismiss("close")


class HelpScreen(FittedFooter, ModalScreen[None]):
    """The keys, the board's symbols and the rules guide (`dominohall.guide.rules_markdown()`),
    over the table; scrolls with the arrows, PgUp/PgDn, Home/End at once."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 100%; height: 100%; border: thick $accent;
                            background: $surface; }
    HelpScreen #help-scroll { height: 1fr; padding: 0 1; background: $surface; }
    HelpScreen #help-keys { height: auto; padding: 0 1; text-style: bold; }
    """
    BINDINGS = [
        Binding("escape,q,h,f1", "close", N_("Back to the game")),
    ]

    def __init__(self, keys: list[Binding] | None = None, view: View | None = None,
                 names: list[str] | None = None) -> None:
        """`keys`: the bindings of the screen it opens over (listed first); `view` and
        `names`: that table, to say what to type for each of its trains or ends."""
        super().__init__()
        self.keys = keys or []
        self.table_view = view
        self.names = names
        self.body: RenderableType = Text("")
        self.shown_width = 0

    def compose(self) -> ComposeResult:
        from .help import help_body

        self.body = help_body(self.app, self.keys, self.table_view, self.names)
        with Vertical() as box:
            box.border_title = _("Rules guide")
            # a RichLog renders the body once into lines and draws only those on screen
            yield RichLog(id="help-scroll", wrap=True, markup=False, auto_scroll=False)
            yield Static(_("Esc, q or h: back to the game · arrows, PgUp/PgDn: scroll"),
                         id="help-keys")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fill)

    def _fill(self) -> None:
        """Render the body at the box's width (again only when the width changed)."""
        log = self.query_one("#help-scroll", RichLog)
        width = log.scrollable_content_region.width
        if width <= 0 or width == self.shown_width:
            return
        from ..guide import rules_markdown
        from .help import Lines, guide_lines

        self.shown_width = width
        log.clear()
        log.write(self.body, width=width, scroll_end=False)
        log.write(Lines(guide_lines(rules_markdown(), width)), width=width, scroll_end=False)
        log.scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


def warm_help(screen: Screen[Any]) -> None:
    """Render the rules guide for the help screen in a thread now, so h opens at once."""
    from ..guide import rules_markdown
    from .help import guide_lines

    width = max(20, (screen.app.size.width or 80) - HELP_MARGIN)
    guide = rules_markdown()
    screen.run_worker(lambda: guide_lines(guide, width), thread=True, group="help",
                      exit_on_error=False)


#: columns the help's box takes from the screen: border, padding, scroll bar
HELP_MARGIN = 6


def screen_keys(screen: Screen[Any]) -> list[Binding]:
    """A screen's own bindings (translated), in order, for the help's list of keys: those
    its class declares, not the ones Textual gives every screen (Tab, copy)."""
    own = {b.action for b in type(screen).BINDINGS if isinstance(b, Binding)}
    return [b for bindings in screen._bindings.key_to_bindings.values() for b in bindings
            if b.action in own]


WIDE_MIN = (130, 34)        # the three-column layout needs this much; below: compact
MIN_WIDTH = 64              # the compact layout's narrowest usable width


class PlayScreen(FittedFooter, Screen[None]):
    """The table, your hand, the chips and the command line."""

    DEFAULT_CSS = """
    PlayScreen #hand { border: round $success; height: auto; padding: 0 1; }
    PlayScreen #chips { height: auto; padding: 0 1; }
    PlayScreen #message { height: auto; padding: 0 1; }
    PlayScreen #command { border: none; height: 1; padding: 0 1; display: none; }
    PlayScreen.typing #command { display: block; }
    PlayScreen #toosmall { display: none; width: 100%; height: 100%; padding: 1 2;
                           content-align: center middle; text-style: bold; }
    PlayScreen.toosmall #toosmall { display: block; }
    PlayScreen.toosmall #board, PlayScreen.toosmall #hand, PlayScreen.toosmall #chips,
    PlayScreen.toosmall #message, PlayScreen.toosmall #command { display: none; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", N_("Tile"), show=False),
        Binding("right", "move(1)", N_("Tile")),
        Binding("up", "target(-1)", N_("Target"), show=False),
        Binding("down", "target(1)", N_("Target")),
        Binding("enter", "play", NP_("terminal key", "Play")),
        Binding("d", "act('draw')", N_("Draw")),
        Binding("p", "act('pass')", N_("Pass")),
        Binding("e", "act('end')", N_("End chain")),
        Binding("s", "sort", N_("Sort")),
        Binding("question_mark", "hint", N_("Hint")),
        Binding("u", "undo", N_("Undo")),
        Binding("colon,slash", "command", N_("Type")),
        Binding("l", "toggle_log", N_("Log")),
        Binding("h,f1", "help", N_("Help")),
        Binding("escape", "escape", N_("Back"), show=False),
        Binding("q", "quit_game", N_("Quit")),
        *[Binding(str(k), f"pick({(k - 1) % 10})", show=False) for k in range(10)],
    ]
    KEY_WORDS = {"d": "draw", "p": "pass", "e": "end"}
    #: left out of a narrow footer first to last (they still work; h lists them): Quit,
    #: Help and the key that plays stay
    FOOTER_DROP = ("sort", "toggle_log", "command", "target(1)", "undo", "move(1)",
                   "act('end')", "hint", "act('pass')", "act('draw')")

    def __init__(self, session: Session, speed: float, inline_bots: bool) -> None:
        super().__init__()
        self.session = session
        self.speed = speed
        self.inline_bots = inline_bots
        self.sort_mode = "pips"
        self.selected: str | None = None
        self.seen_version = -1
        self.target_index = 0
        self.message = Text("")
        self.log_seen = len(session.view()["log"])
        self.notices: list[tuple[RenderableType, str]] = []
        self.waiting = False            # a bot move is scheduled
        self.modal_open = False
        self.compact = False
        self.log_open = True
        self.too_small = False
        self.shown: View | None = None  # the view last rendered (the footer's keys read it)

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Board(id="board")
        yield HandView(id="hand")
        yield ChipBar(id="chips")
        yield Static("", id="message")
        yield Input(placeholder=_("type an action and Enter: HIGH-LOW>TRAIN (t0..t9, mx; "
                                  "L/R/U/D in line games), draw, pass, end · ':' to come "
                                  "here, Esc to leave"),
                    id="command")
        yield Static("", id="toosmall")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#hand").border_title = _("Your hand")
        warm_help(self)
        self.app.call_after_refresh(self.advance)
        if self.session.game.is_over:
            self.notices.append((render.final_summary(self.view(), self.session.names),
                                 "final"))

    def on_resize(self, event: events.Resize) -> None:
        self.show()

    # ------------------------------------------------------------ reading
    def view(self) -> View:
        return self.session.view()

    def hand_order(self, view: View) -> list[str]:
        return render.sort_hand(view["hand"], self.sort_mode, view)

    def targets(self, view: View) -> list[str | None]:
        return [] if self.selected is None else render.targets_for(self.selected, view)

    def _fix_selection(self, view: View) -> None:
        hand = self.hand_order(view)
        moved = view["version"] != self.seen_version
        self.seen_version = view["version"]
        if self.selected not in hand or (moved and not self.targets(view)):
            playable = [t for t in hand if render.targets_for(t, view)]
            if self.selected not in hand or playable:
                self.selected = (playable or hand)[0] if hand else None
                self.target_index = 0
        n = len(self.targets(view))
        self.target_index = self.target_index % n if n else 0

    def show(self) -> None:
        """Render everything from the human's view."""
        view = self.view()
        self.shown = view
        self._fix_selection(view)
        width, height = self.size.width or 80, self.size.height or 24
        self.compact = width < WIDE_MIN[0] or height < WIDE_MIN[1]
        board = self.query_one(Board)
        board.set_layout(self.compact, self.log_open)
        status = _("bots thinking…") if self.waiting else ""
        board.show(view, self.session.names, status)
        hand = self.hand_order(view)
        playable = {t for t in hand if render.targets_for(t, view)}
        hv = self.query_one(HandView)
        pips = sum(a + b for a, b in map(render.halves, hand))
        hv.border_title = _("Your hand — {tiles}, {pips} — sorted by {order} (s)").format(
            tiles=render.tiles_word(len(hand)),
            pips=ngettext("{n} pip", "{n} pips", pips).format(n=pips),
            order=render.sort_name(self.sort_mode))
        hand_width = width - 4
        hv.show(hand, playable, self.selected, hand_width)
        chips = self.query_one(ChipBar)
        chips.show(*self._chips(view), width=width - 2)
        self.query_one("#message", Static).update(self.message)
        self._check_size(view, width, height, hv, chips)
        self.refresh_bindings()

    def needed_height(self, view: View, width: int, hv: HandView, chips: ChipBar) -> int:
        """Rows the compact layout needs with the log hidden: header, table, hand,
        chips, message, command line when open, footer."""
        board = self.query_one(Board)
        rows = -(-len(hv.tiles) // hv.per_row) if hv.tiles else 1
        hand = 2 + (2 * rows if hv.tiles else 1)
        chip_lines = len(chips.text_lines)
        message = max(1, -(-len(self.message.plain) // max(1, width - 2)))
        typing = 1 if self.has_class("typing") else 0
        return 1 + board.table_lines(view, self.session.names, width) + hand + chip_lines \
            + message + typing + 1

    def _check_size(self, view: View, width: int, height: int, hv: HandView,
                    chips: ChipBar) -> None:
        """Below the compact layout's minimum, say how big the window must be."""
        need = self.needed_height(view, width, hv, chips)
        small = width < MIN_WIDTH or height < need
        self.too_small = small
        self.set_class(small, "toosmall")
        if small:
            self.query_one("#toosmall", Static).update(
                _("The window is too small for this table ({width}×{height}): enlarge it "
                  "to at least {min_width}×{min_height}.").format(
                    width=width, height=height, min_width=max(MIN_WIDTH, width),
                    min_height=max(need, height)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that apply now are active and shown in the footer."""
        if action in ("move", "target", "play", "act", "hint", "undo", "pick",
                      "toggle_log", "sort") and self.too_small:
            return False
        view = self.shown if self.shown is not None else self.view()    # as last shown
        mine = self.session.human_to_play
        if action in ("move", "pick"):
            return mine and bool(view["hand"])
        if action == "target":
            return mine and len(self.targets(view)) > 1
        if action == "play":
            return mine and bool(self.targets(view))
        if action == "act":
            return parameters[0] in view["legal_actions"]
        if action == "hint":
            return mine
        if action == "undo":
            return self.session.allow_undo
        if action == "toggle_log":
            return self.compact
        return True

    def on_key(self, event: events.Key) -> None:
        """A key whose action does not apply now (so it is not in the footer) says why
        instead of doing nothing.  (Keys reach here before the bindings are tried.)"""
        if self.has_class("typing") or self.too_small:
            return
        legal = (self.shown or self.view())["legal_actions"]
        if event.key in self.KEY_WORDS and self.KEY_WORDS[event.key] not in legal:
            event.stop()
            self.do(self.KEY_WORDS[event.key])          # the engine's message
        elif event.key == "u" and not self.session.allow_undo:
            event.stop()
            self.action_undo()
        elif event.key == "question_mark" and not self.session.human_to_play:
            event.stop()
            self.say(_("hint: it is not your turn"), "yellow")

    def _chips(self, view: View) -> tuple[Text, list[Chip]]:
        legal = set(view["legal_actions"])
        lead = Text()
        chips: list[Chip] = []
        if self.selected is not None and legal:
            targets = self.targets(view)
            lead.append(f"{render.glyph(self.selected)} → ", style="bold")
            if not targets:
                lead.append(_("no legal target") + "  ", style="dim")
            for k, target in enumerate(targets):
                style = "bold reverse green" if k == self.target_index else "reverse"
                chips.append(Chip(render.target_label(target, view, self.session.names),
                                  render.action_for(self.selected, target), style))
        elif not legal and not view["is_over"]:
            lead.append(_("waiting for the others…") + "  ", style="dim")
        labels = {"draw": _("draw (d)"), "pass": _("pass (p)"), "end": _("end (e)")}
        for word in ("draw", "pass", "end"):
            if word in legal:
                chips.append(Chip(labels[word], word, "bold reverse yellow"))
        if self.session.human_to_play:
            chips.append(Chip(_("hint (?)"), "?hint", "reverse blue"))
        if self.session.allow_undo:
            chips.append(Chip(_("undo (u)"), "?undo", "reverse magenta"))
        return lead, chips

    def say(self, text: str, style: str = "") -> None:
        self.message = Text(text, style=style)
        self.query_one("#message", Static).update(self.message)

    # ------------------------------------------------------------ the game loop
    def advance(self) -> None:
        """After any change: reveal round ends, then let bots play until it is your turn."""
        self._collect_notices()
        self.show()
        if self.modal_open:
            return
        if self.notices:
            body, kind = self.notices.pop(0)
            self.modal_open = True
            last = kind == "round_end" and any(k == "final" for _b, k in self.notices)
            self.app.push_screen(NoticeScreen(body, kind, self.session.game.name, last),
                                 self._notice_closed)
            return
        session = self.session
        if session.game.is_over or session.human_to_play or self.waiting:
            return
        if self.inline_bots:
            while not session.game.is_over and not session.human_to_play:
                if not self._bot_move():
                    self.show()
                    return
                if self._collect_notices():
                    break
            self.advance()
        else:
            self.waiting = True
            self.show()
            self._think(time.monotonic())

    def _think(self, started: float) -> None:
        """Let the bot choose in a thread (strong bots take a while), then apply it on time."""
        seat = self.session.bot_to_play()
        if seat is None:
            self.waiting = False
            self.advance()
            return
        view = self.session.game.view(seat)
        bot = self.session.bots[seat]

        def work() -> None:
            try:
                action = bot.act(view)
            except Exception as err:          # a bot bug must not crash the table
                self.app.call_from_thread(self._bot_failed, err)
                return
            self.app.call_from_thread(self._bot_chose, seat, action, view["version"], started)

        self.run_worker(work, thread=True, group="bot", exit_on_error=False)

    def _bot_chose(self, seat: int, action: str, version: int, started: float) -> None:
        if not self.is_attached:
            return
        if self.session.game.view(None)["version"] != version:     # e.g. undone meanwhile
            self.waiting = False
            self.advance()
            return
        wait = self.speed - (time.monotonic() - started)
        if wait > 0:
            self.set_timer(wait, lambda: self._bot_chose(seat, action, version, started - wait))
            return
        self.waiting = False
        try:
            self.session.apply_bot(seat, action)
        except DominohallError as err:
            self._bot_failed(err)
            return
        self.advance()

    def _bot_failed(self, err: Exception) -> None:
        self.waiting = False
        self.say(_("bot error: {error}").format(error=err), "bold red")
        self.show()

    def _bot_move(self) -> bool:
        try:
            self.session.bot_step()
        except DominohallError as err:           # a bot bug must not crash the table
            self.say(_("bot error: {error}").format(error=err), "bold red")
            return False
        return True

    def _collect_notices(self) -> bool:
        """Queue a notice for each new round_end / game_end event; True if any."""
        view = self.view()
        log = view["log"]
        found = False
        for e in log[self.log_seen:]:
            if e["type"] == "round_end":
                self.notices.append((render.round_end_summary(e, view, self.session.names),
                                     "round_end"))
                self.say("")        # the last message was about the finished round
                found = True
            elif e["type"] == "game_end":
                self.notices.append((render.final_summary(view, self.session.names), "final"))
                found = True
        self.log_seen = len(log)
        return found

    def _notice_closed(self, result: str | None) -> None:
        self.modal_open = False
        if result == "quit":
            self.app.exit()
            return
        if self.session.game.is_over and not self.notices:
            self.say(_("The match is over. q: quit"), "bold")
        self.advance()

    # ------------------------------------------------------------ human actions
    def do(self, action: str) -> bool:
        """Apply the human's action through the engine; show its message if illegal."""
        if not action.strip():
            return False
        try:
            self.session.play(action)
        except DominohallError as err:          # from its code and params, in --lang
            # the action as the footer names it ("Draw: ..."), never the engine's "draw:"
            self.say(error_text(err, words=True), "bold red")
            return False
        except Exception as err:              # never a traceback on the table
            self.say(f"{type(err).__name__}: {err}", "bold red")
            return False
        self.say(render.own_last_move(self.view(), self.session.names) or action.strip(),
                 "green")
        self.advance()
        return True

    def action_move(self, step: int) -> None:
        hand = self.hand_order(self.view())
        if not hand:
            return
        k = hand.index(self.selected) if self.selected in hand else -step
        self.selected = hand[(k + step) % len(hand)]
        self.target_index = 0
        self.show()

    def action_pick(self, index: int) -> None:
        hand = self.hand_order(self.view())
        if index < len(hand):
            self.selected = hand[index]
            self.target_index = 0
            self.show()

    def action_target(self, step: int) -> None:
        n = len(self.targets(self.view()))
        if n:
            self.target_index = (self.target_index + step) % n
            self.show()

    def action_play(self) -> None:
        view = self.view()
        if self.selected is None:
            self.say(_("you have no tile to play"), "bold red")
            return
        targets = self.targets(view)
        if targets:
            self.do(render.action_for(self.selected, targets[self.target_index]))
            return
        # No legal target: let the engine say why the obvious try is illegal.
        if view["game"] == "mexican_train":
            attempt = f"{self.selected}>t{self.session.human}"
        else:
            ends = view["layout"]["ends"]
            attempt = f"{self.selected}>{ends[0]['id']}" if ends else self.selected
        self.do(attempt)

    def action_act(self, word: str) -> None:
        self.do(word)

    def action_sort(self) -> None:
        modes = render.sort_modes(self.view())
        if self.sort_mode not in modes:
            self.sort_mode = modes[0]
        self.sort_mode = modes[(modes.index(self.sort_mode) + 1) % len(modes)]
        self.show()

    def action_hint(self) -> None:
        if not self.session.human_to_play:
            self.say(_("hint: it is not your turn"), "yellow")
            return
        view = self.view()
        self.say(_("hint: thinking…"), "cyan")
        names = self.session.names

        def work() -> None:
            advice = advise(view)          # the view alone: the game's hidden hands stay out
            reason = said(advice, lambda s: render.bot_or_player(s, names), view["seat"])
            self.app.call_from_thread(self._show_hint, advice.action, reason, view)

        self.run_worker(work, thread=True, group="hint", exclusive=True, exit_on_error=False)

    def _show_hint(self, action: str, reason: str, view: View) -> None:
        if not self.is_attached or self.view()["version"] != view["version"]:
            return
        tile, target = render.split_action(action)
        if tile is not None:
            self.selected = tile
            targets = self.targets(view)
            self.target_index = targets.index(target) if target in targets else 0
        self.show()
        keys = {"draw": "d", "pass": "p", "end": "e"}
        if tile is not None:
            text = _("hint: play {tile} — {reason} ({how})").format(
                tile=tile, reason=reason, how=_("Enter plays it"))
        else:
            text = _("hint: {reason} ({how})").format(
                reason=reason, how=_("press {key}").format(key=keys.get(action, "?")))
        self.say(text, "bold cyan")

    def action_undo(self) -> None:
        problem = self.session.undo()
        if problem:
            self.say(_("undo: {problem}").format(problem=problem), "yellow")
            return
        self.log_seen = len(self.view()["log"])
        self.selected = None
        self.say(_("undone: it is your turn again"), "magenta")
        self.advance()

    def action_command(self) -> None:
        self.add_class("typing")
        self.query_one("#command", Input).focus()
        self.show()

    def _leave_command(self) -> None:
        self.remove_class("typing")
        self.set_focus(None)
        self.show()

    def action_escape(self) -> None:
        self._leave_command()

    def action_toggle_log(self) -> None:
        self.log_open = not self.log_open
        self.show()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(screen_keys(self), self.view(), self.session.names))

    def action_quit_game(self) -> None:
        self.app.exit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        if self.do(event.value):
            self._leave_command()       # back to the board: the next key is a key again

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        if message.tile == self.selected:
            self.action_play()
            return
        self.selected = message.tile
        self.target_index = 0
        self.show()

    def on_chip_bar_pressed(self, message: ChipBar.Pressed) -> None:
        if message.action == "?hint":
            self.action_hint()
        elif message.action == "?undo":
            self.action_undo()
        else:
            self.do(message.action)


class PlayApp(App[None]):
    """`dominohall play`: you at one seat, bots at the others."""

    TITLE = "dominohall"
    AUTO_FOCUS = None
    ENABLE_COMMAND_PALETTE = False      # the footer's room is for the game's keys

    def __init__(self, session: Session, speed: float = 0.6,
                 inline_bots: bool | None = None) -> None:
        """`inline_bots`: bots move without a thread or a timer (default: when speed is 0),
        so a headless test sees every bot move done by the next pause."""
        super().__init__()
        self.session = session
        self.speed = speed
        self.inline_bots = speed <= 0 if inline_bots is None else inline_bots

    def on_mount(self) -> None:
        self.push_screen(PlayScreen(self.session, self.speed, self.inline_bots))


class ReplayScreen(FittedFooter, Screen[None]):
    """Step through a record: the spectator view, every hand at each round's end."""

    DEFAULT_CSS = """
    ReplayScreen #revealbox { height: auto; max-height: 60%; border: round $success;
                              padding: 0 1; }
    ReplayScreen #revealed { height: auto; }
    ReplayScreen #status { height: 1; padding: 0 1; }
    ReplayScreen #analysis { height: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("right,n,space", "step(1)", N_("Next")),
        Binding("left,p,b", "step(-1)", N_("Previous")),
        Binding("pagedown", "step(20)", "+20", show=False),
        Binding("pageup", "step(-20)", "-20", show=False),
        Binding("home,s", "goto(0)", N_("Start")),
        Binding("end,e", "goto(-1)", N_("End")),
        Binding("l", "toggle_log", N_("Log")),
        Binding("h,f1", "help", N_("Help")),
        Binding("q,escape", "app.quit", N_("Quit")),
    ]
    FOOTER_DROP = ("toggle_log", "goto(-1)", "goto(0)", "step(-1)")

    def __init__(self, record: dict[str, Any], seat: int | None = None,
                 analysis: dict[str, Any] | None = None) -> None:
        """`analysis`: `dominohall.analysis.review.Analysis.as_dict()` of the record, to
        show each decision's mark under the board (``replay --analyze``)."""
        super().__init__()
        self.record = record
        self.actions = [str(a) for a in record.get("actions", [])]
        self.seat = seat
        self.analysis = None if analysis is None else {
            d["index"]: d for d in analysis["decisions"]}
        self.step = 0
        self.log_open = True
        self.game: Game = rebuild(record, 0)[0]
        self.names = self._names()

    def _names(self) -> list[str]:
        meta = self.record.get("play") or {}
        names = list(meta.get("bots") or [])
        if len(names) != self.game.players:
            return []
        return names

    def compose(self) -> ComposeResult:
        yield Board(id="board")
        with VerticalScroll(id="revealbox", can_focus=False):
            yield Static("", id="revealed")
        yield Static("", id="status")
        if self.analysis is not None:
            yield Static("", id="analysis")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#revealbox").border_title = _("Hands")
        warm_help(self)
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        self.show()

    def _goto(self, step: int) -> None:
        step = max(0, min(len(self.actions), step))
        if step < self.step:
            self.game = rebuild(self.record, step)[0]
        else:
            for text in self.actions[self.step:step]:
                self.game.apply(text)
        self.step = step

    def action_step(self, delta: int) -> None:
        self._goto(self.step + delta)
        self.show()

    def action_goto(self, step: int) -> None:
        self._goto(len(self.actions) if step < 0 else step)
        self.show()

    def show(self) -> None:
        view = self.game.view(self.seat)
        board = self.query_one(Board)
        board.set_layout(self.size.width < WIDE_MIN[0] or self.size.height < WIDE_MIN[1],
                         self.log_open)
        board.show(view, self.names)
        revealed = self.query_one("#revealed", Static)
        log = view["log"]
        last_end = next((e for e in reversed(log) if e["type"] == "round_end"), None)
        at_end = self.step == len(self.actions)
        latest = log[-1]["type"] if log else ""
        if last_end is not None and (latest in ("round_end", "game_end") or at_end):
            parts: list[RenderableType] = [render.round_end_summary(last_end, view, self.names)]
            if self.game.is_over:
                parts += [Text(""), render.final_summary(view, self.names)]
            revealed.update(Group(*parts))
        elif view["hand"] is not None:
            revealed.update(" ".join(render.glyph(t) for t in view["hand"]))
        else:
            revealed.update(Text(_("hands are hidden until the round ends "
                                   "(tiles in each hand are shown under Players)"),
                                 style="dim"))
        who = _("spectator") if self.seat is None else _("Player {n}").format(n=self.seat + 1)
        if self.step:
            status = _("step {step} of {steps} ({who}) — last: {action}").format(
                step=self.step, steps=len(self.actions), who=who,
                action=self.actions[self.step - 1])
        else:
            status = _("step {step} of {steps} ({who})").format(
                step=self.step, steps=len(self.actions), who=who)
        self.query_one("#status", Static).update(Text(status, style="bold"))
        if self.analysis is not None:
            self.query_one("#analysis", Static).update(self._analysis_line())

    def _analysis_line(self) -> Text:
        """The last action's mark and the better move (``replay --analyze``)."""
        from ..i18n.analysis import decision_line, player

        if not self.step:
            return Text(_("Analysis: step forward to see each move's mark"), style="dim")
        d = (self.analysis or {}).get(self.step - 1)
        if d is None:
            return Text(_("Analysis: {action} had no alternative").format(
                action=self.actions[self.step - 1]), style="dim")
        style = {"best": "green", "good": "green", "inaccuracy": "yellow",
                 "mistake": "red", "blunder": "bold red"}[d["mark"]]
        return Text(_("Analysis: {player}, {line}").format(
            player=player(d["seat"]), line=decision_line(d)), style=style)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(screen_keys(self), self.game.view(self.seat), self.names))

    def action_toggle_log(self) -> None:
        self.log_open = not self.log_open
        self.show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_log":
            return self.query_one(Board).compact
        return True


class ReplayApp(App[None]):
    """`dominohall replay FILE`."""

    TITLE = _("dominohall replay")
    AUTO_FOCUS = None
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, record: dict[str, Any], seat: int | None = None,
                 start_step: int = 0, analysis: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.start_step = start_step
        self.analysis = analysis

    def on_mount(self) -> None:
        screen = ReplayScreen(self.record, self.seat, self.analysis)
        screen._goto(self.start_step)
        self.push_screen(screen)
