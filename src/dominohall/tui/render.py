"""Turn a view (``Game.view(seat)``) into Rich text for the terminal game.

Everything here reads only the view dict: the tiles, trains, layout, scores and
log that the engine chose to show to one seat.  No rule is decided here; the
few helpers that look like rules (which targets a tile has) only read
``view["legal_actions"]``.

>>> glyph("12-5")
'[12|5]'
>>> oriented(["12-7", "7-3"], 3)
[(12, 7), (7, 3)]
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..bots.mexican import plan_train
from ..engine.tiles import TEXT, parse_tile
from ..i18n import N_, _, get_language, ngettext
from ..i18n.labels import bot_name
from ..i18n.log import event_text, target_noun

View = dict[str, Any]

GAME_TITLES = {"mexican_train": N_("Mexican Train"), "all_fives": N_("All Fives"),
               "draw": N_("Draw Dominoes"), "block": N_("Block Dominoes")}
SORTS = ("pips", "suit", "train")     # "train": Mexican Train only
SORT_NAMES = {"pips": N_("pips"), "suit": N_("suit"), "train": N_("your planned train")}


def game_title(game: str) -> str:
    """The game's name for players: 'Mexican Train'."""
    return _(GAME_TITLES[game]) if game in GAME_TITLES else game


def sort_name(mode: str) -> str:
    return _(SORT_NAMES[mode]) if mode in SORT_NAMES else mode


# ----------------------------------------------------------------- tiles
def halves(tile: str) -> tuple[int, int]:
    """'12-5' -> (12, 5)."""
    a, _sep, b = tile.partition("-")
    return int(a), int(b)


def glyph(tile: str, flip: bool = False) -> str:
    """A domino as text: '[12|5]' (flip: '[5|12]')."""
    a, b = halves(tile)
    if flip:
        a, b = b, a
    return f"[{a}|{b}]"


def oriented(tiles: list[str], open_end: int) -> list[tuple[int, int]]:
    """The tiles of a line from its root outward, each as (inner, outer) halves.

    Works backward from the open end, so it needs no rule: the outer half of
    the last tile is the open end, and each tile's inner half is the outer
    half of the tile before it.
    """
    out: list[tuple[int, int]] = []
    outer = open_end
    for tile in reversed(tiles):
        a, b = halves(tile)
        inner = b if a == outer else a
        out.append((inner, outer))
        outer = inner
    out.reverse()
    return out


def tile_style(a: int, b: int) -> str:
    return "bold" if a == b else ""


def chain_text(pairs: list[tuple[int, int]], width: int, reverse: bool = False) -> Text:
    """A line of tiles, cut from the root side with '…+k' when it is wider than `width`."""
    parts = [(f"[{o}|{i}]" if reverse else f"[{i}|{o}]", tile_style(i, o)) for i, o in pairs]
    if reverse:
        parts.reverse()
    total = sum(len(p) for p, _ in parts)
    hidden = 0
    while parts and total + (len(f"…+{hidden + 1} ") if total > width or hidden else 0) > width:
        idx = -1 if reverse else 0
        total -= len(parts[idx][0])
        parts.pop(idx)
        hidden += 1
    text = Text()
    if hidden and not reverse:
        text.append(f"…+{hidden} ", style="dim")
    for p, style in parts:
        text.append(p, style=style)
    if hidden and reverse:
        text.append(f" +{hidden}…", style="dim")
    return text


def wrap_chain(pairs: list[tuple[int, int]], room: int, lines: int) -> list[Text]:
    """A train's tiles over at most `lines` lines of `room` cells, cut from the root side."""
    glyphs = [(f"[{i}|{o}]", tile_style(i, o)) for i, o in pairs]

    def pack(parts: list[tuple[str, str]], prefix: str) -> list[list[tuple[str, str]]]:
        rows: list[list[tuple[str, str]]] = [[(prefix, "dim")]] if prefix else [[]]
        used = len(prefix)
        for part in parts:
            if used + len(part[0]) > room and rows[-1]:
                rows.append([])
                used = 0
            rows[-1].append(part)
            used += len(part[0])
        return rows

    hidden = 0
    rows = pack(glyphs, "")
    while len(rows) > lines and hidden < len(glyphs):
        hidden += 1
        rows = pack(glyphs[hidden:], f"…+{hidden} ")
    out = []
    for row in rows:
        text = Text()
        for part, style in row:
            text.append(part, style=style)
        out.append(text)
    return out


def sort_modes(view: View) -> tuple[str, ...]:
    """The sort orders that make sense for this game."""
    return SORTS if view["game"] == "mexican_train" else SORTS[:2]


def sort_hand(hand: list[str], mode: str, view: View | None = None) -> list[str]:
    """The hand in display order: 'pips' (most pips first), 'suit' (grouped by number)
    or 'train' (Mexican Train: the planner's best chain for your own train, in play
    order, then the rest by pips)."""
    if mode == "train" and view is not None and view["game"] == "mexican_train":
        own = next(t for t in view["trains"] if t["owner"] == view["seat"])
        mask = sum(1 << parse_tile(t) for t in hand)
        chain = [TEXT[t] for t in plan_train(mask, own["open_end"])]
        return chain + sort_hand([t for t in hand if t not in chain], "pips")
    if mode == "suit":
        count = Counter(h for t in hand for h in set(halves(t)))

        def key(t: str) -> tuple[int, int, int]:
            a, b = halves(t)
            suit = max((a, b), key=lambda h: (count[h], h))
            other = b if suit == a else a
            return (-count[suit], -suit, -other)
        return sorted(hand, key=key)
    return sorted(hand, key=lambda t: (-sum(halves(t)), -max(halves(t))))


# ----------------------------------------------------------------- actions
def split_action(action: str) -> tuple[str | None, str | None]:
    """'12-5>t0' -> ('12-5', 't0'); '6-6' -> ('6-6', None); 'draw' -> (None, None)."""
    tile, _sep, target = action.partition(">")
    if "-" not in tile:
        return None, None
    return tile, (target or None)


def targets_for(tile: str, view: View) -> list[str | None]:
    """Legal targets of `tile` now, read from view['legal_actions'] (None: a lead)."""
    out: list[str | None] = []
    for a in view["legal_actions"]:
        t, target = split_action(a)
        if t == tile:
            out.append(target)
    return out


def action_for(tile: str, target: str | None) -> str:
    return tile if target is None else f"{tile}>{target}"


def seat_name(seat: int | None, view: View, names: list[str]) -> str:
    """A player as the panels name them: "you", "Bot 3 · Greedy (easy)", "Player 3" (people
    are numbered from 1, like the web pages; seats are 0-based only in records)."""
    if seat is None:
        return "-"
    if seat == view.get("seat"):
        return _("you")
    if _is_bot(seat, names):
        return _("Bot {n} · {level}").format(n=seat + 1,
                                              level=bot_name(names[seat], get_language()))
    return _("Player {n}").format(n=seat + 1)


def short_name(seat: int, view: View, names: list[str] | None) -> str:
    """'you', 'Bot 3' or 'Player 3'."""
    if seat == view.get("seat"):
        return _("you")
    return bot_or_player(seat, names)


def _is_bot(seat: int, names: list[str] | None) -> bool:
    return bool(names) and 0 <= seat < len(names or []) and (names or [])[seat] not in (
        "", "human", "you")


def tiles_word(n: int) -> str:
    return ngettext("{n} tile", "{n} tiles", n).format(n=n)


def points_word(n: int) -> str:
    return ngettext("{n} pt", "{n} pts", n).format(n=n)


def target_name(target: str | None, view: View, names: list[str] | None = None) -> str:
    """What a player calls a target, as the web does (js/words.js targetName): "your
    train", "Bot 2's train", "the Mexican train", "the left end", "the spinner's upper
    arm", "the lead"."""
    return target_noun(target, view.get("seat"), lambda s: bot_or_player(s, names),
                       get_language())


def target_label(target: str | None, view: View, names: list[str] | None = None) -> str:
    """A target chip: 'your train ▸7', 'the Mexican train ▸12', 'the left end ▸3'."""
    if target is None:
        return _("lead")
    name = target_name(target, view, names)
    if view["game"] == "mexican_train":
        train = next(t for t in view["trains"] if t["id"] == target)
        if target in view["owed"]:
            return _("{target}: cover the double ▸{end}").format(target=name,
                                                                 end=train["open_end"])
        return f"{name} ▸{train['open_end']}"
    end = next((e for e in view["layout"]["ends"] if e["id"] == target), None)
    return name if end is None else f"{name} ▸{end['value']}"


# ----------------------------------------------------------------- panels
def header(view: View, names: list[str], waiting: str = "") -> Text:
    """'Mexican Train · Round 3 of 13 — engine 10-10 · your turn'."""
    text = Text()
    text.append(game_title(view["game"]), style="bold")
    text.append(" · ")
    if view["game"] == "mexican_train":
        text.append(_("Round {round} of {rounds} — engine {engine}").format(
            round=view["round"], rounds=view["rounds"], engine=view["engine"]))
    else:
        hands = view["options"].get("hands") or 0
        if hands:
            text.append(_("Hand {round} of {hands}").format(round=view["round"], hands=hands))
        else:
            text.append(_("Hand {round}").format(round=view["round"]))
            text.append(" · ")
            text.append(_("to {target}").format(target=view["options"].get("target")))
    text.append(" · ")
    if view["is_over"]:
        text.append(_("match over"), style="bold magenta")
    elif view["current_seat"] == view.get("seat"):
        text.append(_("your turn"), style="bold reverse green")
    else:
        text.append(_("{player} to play").format(
            player=seat_name(view["current_seat"], view, names)), style="yellow")
    if waiting:
        text.append(f" · {waiting}", style="dim")
    return text


def boneyard_text(view: View) -> str:
    n = view["boneyard"]
    return ngettext("boneyard: {n} tile", "boneyard: {n} tiles", n).format(n=n)


def teams_text() -> str:
    return _("teams: players 1+3 v 2+4")


def players(view: View, names: list[str]) -> Text:
    """Whose turn, tiles in each hand and in the boneyard, scores, markers."""
    text = Text()
    markers = {}
    if view["game"] == "mexican_train":
        markers = {t["owner"]: t["marker"] for t in view["trains"] if t["owner"] is not None}
    labels = [short_name(s, view, names) for s in range(view["players"])]
    wide = max(8, *(len(label) for label in labels))
    counts = [tiles_word(n) for n in view["hand_sizes"]]
    count_w = max(len(c) for c in counts)
    pts = [points_word(p) for p in view["scores"]]
    pts_w = max(len(p) for p in pts)
    for s in range(view["players"]):
        turn = s == view["current_seat"]
        text.append("▶ " if turn else "  ", style="bold green")
        text.append(f"{labels[s]:<{wide}}", style="bold" if turn else "")
        n = view["hand_sizes"][s]
        text.append(counts[s].rjust(count_w), style="bold red" if n == 1 else "")
        text.append("  " + pts[s].rjust(pts_w))
        if markers.get(s):
            text.append("  ")
            text.append(_("● open"), style="yellow")
        text.append("\n")
    text.append("  " + boneyard_text(view) + "\n")
    if view["game"] != "mexican_train" and view.get("teams"):
        text.append("  " + teams_text() + "\n", style="dim")
    return text


def players_line(view: View, names: list[str], width: int) -> Text:
    """The compact layout's players: '▶ you 5 tiles 15 pts · Bot 2 7 tiles 10 pts', wrapped."""
    parts: list[Text] = []
    for s in range(view["players"]):
        part = Text()
        turn = s == view["current_seat"]
        part.append("▶ " if turn else "", style="bold green")
        part.append(short_name(s, view, names), style="bold" if turn else "")
        n = view["hand_sizes"][s]
        part.append(" ")
        part.append(tiles_word(n), style="bold red" if n == 1 else "")
        part.append(" " + points_word(view["scores"][s]))
        parts.append(part)
    if view.get("teams"):
        parts.append(Text(teams_text(), style="dim"))
    text = Text()
    used = 0
    for k, part in enumerate(parts):
        sep = " · " if k else ""
        if k and used + len(sep) + len(part) > width:
            text.append("\n")
            sep, used = "", 0
        text.append(sep, style="dim")
        text.append_text(part)
        used += len(sep) + len(part)
    return text


def round_ends(view: View) -> list[dict[str, Any]]:
    return [e for e in view["log"] if e["type"] == "round_end"]


def _round_word(view: View) -> str:
    return _("R") if view["game"] == "mexican_train" else _("H")


def score_sheet(view: View, names: list[str]) -> Text:
    """Points per round and running totals, from the round_end events of the log."""
    n = view["players"]
    word = _round_word(view)
    tot = _("tot")
    lead = max(4, len(word) + 3, len(tot) + 1)
    w = 5
    # players by their number, from 1 like their names ("Bot 3" is #3), never the seat index
    cols = [_("you") if s == view.get("seat") else f"#{s + 1}" for s in range(n)]
    w = max(w, *(len(c) + 1 for c in cols))
    text = Text()
    text.append(" " * lead + "".join(f"{c:>{w}}" for c in cols) + "\n", style="bold underline")
    for e in round_ends(view):
        text.append(f"{word}{e['round']:<{lead - len(word)}}"
                    + "".join(f"{p:>{w}}" for p in e["points"]) + "\n")
    if not view["is_over"]:
        text.append(f"{word}{view['round']:<{lead - len(word)}}"
                    + "".join(f"{'…':>{w}}" for _s in range(n)) + "\n", style="dim")
    text.append(f"{tot:<{lead}}" + "".join(f"{p:>{w}}" for p in view["scores"]), style="bold")
    return text


def score_table(view: View, names: list[str]) -> Table:
    """The score sheet as a table: a row per round, a column per player, the totals."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  title=_("Score sheet"), title_justify="left", title_style="bold")
    table.add_column("")
    for s in range(view["players"]):
        table.add_column(short_name(s, view, names), justify="right")
    word = _("Round {n}") if view["game"] == "mexican_train" else _("Hand {n}")
    for e in round_ends(view):
        table.add_row(word.format(n=e["round"]), *(str(p) for p in e["points"]))
    table.add_row(Text(_("Total"), style="bold"),
                  *(Text(str(p), style="bold") for p in view["scores"]))
    return table


LOG_STYLES = {"last_tile": "bold red", "round_end": "bold magenta", "game_end": "bold magenta",
              "deal": "bold", "engine": "cyan", "pass": "yellow"}


def log_events(view: View, last: int = 300) -> list[dict[str, Any]]:
    """This round's log after earlier rounds' results (their plays are back in hands now)."""
    log: list[dict[str, Any]] = view["log"]
    start = max((k for k, e in enumerate(log) if e["type"] == "deal"), default=0)
    return [e for e in log[:start] if e["type"] == "round_end"][-5:] + log[start:][-last:]


def bot_or_player(seat: int, names: list[str] | None) -> str:
    """How the log and the board name another seat: "Bot 3" for a bot (numbered like every
    player, from 1), else "Player 3"."""
    if _is_bot(seat, names):
        return _("Bot {n}").format(n=seat + 1)
    return _("Player {n}").format(n=seat + 1)


def log_text(view: View, last: int = 300, names: list[str] | None = None) -> Text:
    """This round's log (plays, draws, passes, 'one tile left'), after earlier rounds' results.

    Earlier rounds' plays are left out: their tiles are back in someone's hand now.
    """
    text = Text()
    events = log_events(view, last)
    for k, e in enumerate(events):
        style = LOG_STYLES.get(e["type"], "")
        if e.get("seat") == view.get("seat") and e["type"] in ("play", "draw", "end"):
            style = "green"
        text.append(event_text(e, view.get("seat"), get_language(),
                               names=lambda s: bot_or_player(s, names), game=view.get("game")),
                    style=style)
        if k < len(events) - 1:
            text.append("\n")
    return text


def own_last_move(view: View, names: list[str] | None = None) -> str:
    """The viewer's latest move as the log says it ("you played 6-5 on your train")."""
    for e in reversed(view["log"]):
        if e.get("seat") == view.get("seat") and e["type"] in ("play", "draw", "pass", "end"):
            return event_text(e, view.get("seat"), get_language(),
                              names=lambda s: bot_or_player(s, names), game=view.get("game"))
    return ""


def _owed_line(owed: list[str], view: View, names: list[str] | None) -> Text:
    trains = ", ".join(target_name(t, view, names) for t in owed)
    return Text(_("owed: {trains} — cover it first").format(trains=trains),
                style="bold white on red")


def _train_chain(train: dict[str, Any], owed: list[str], room: int, lines: int) -> list[Text]:
    """A started train's tiles in at most `lines` rows of `room` cells; owed doubles lit."""
    pairs = oriented(train["tiles"], train["open_end"])
    chain = wrap_chain(pairs, room, lines)
    if train["id"] in owed and pairs:
        last = chain[-1]
        last.stylize("bold white on red",
                     len(last.plain) - len(f"[{pairs[-1][0]}|{pairs[-1][1]}]"))
    return chain


def _not_started(train: dict[str, Any]) -> str:
    return _("not started") if train["owner"] is not None else _("not started (open to all)")


def trains_text(view: View, width: int = 80, height: int = 0,
                names: list[str] | None = None) -> Text:
    """Every personal train and the Mexican train: owner, open end, marker; owed doubles lit."""
    text = Text()
    text.append(_("engine {tile}").format(tile=glyph(view["engine"])), style="bold")
    owed = view["owed"]
    if owed:
        text.append("   ")
        text.append_text(_owed_line(owed, view, names))
    text.append("\n")
    me = view.get("seat")
    lines = max(1, min(3, (height - 1) // len(view["trains"]))) if height else 1
    whos = [_("Mexican") if t["owner"] is None else
            _("you") if t["owner"] == me else bot_or_player(t["owner"], names)
            for t in view["trains"]]
    who_w = max(len(w) for w in whos) + 2
    for train, who in zip(view["trains"], whos):
        owner = train["owner"]
        mark = "●" if train["marker"] and owner is not None else " "
        line = Text()
        line.append(f"{who:<{who_w}}", style="bold" if owner == me else "")
        line.append(f"{mark} ", style="yellow")
        line.append(f"▸{train['open_end']:<3}", style="bold cyan")
        indent = len(line)
        room = max(8, width - indent - 1)
        if not train["started"]:
            line.append(_not_started(train), style="dim")
            rows = [line]
        else:
            chain = _train_chain(train, owed, room, lines)
            line.append_text(chain[0])
            rows = [line] + [Text(" " * indent) + row for row in chain[1:]]
        for row in rows:
            text.append_text(row)
            text.append("\n")
    return text


def trains_compact(view: View, names: list[str], width: int = 80) -> Text:
    """The small-terminal table: one line per train with its player's tiles and points,
    the marker and the open end, and as many of the newest tiles as fit."""
    me = view.get("seat")
    owed = view["owed"]
    text = Text()
    if owed:
        text.append_text(_owed_line(owed, view, names))
        text.append("\n")
    rows = []
    for train in view["trains"]:
        owner = train["owner"]
        who = _("Mexican") if owner is None else short_name(owner, view, names)
        tiles = "" if owner is None else tiles_word(view["hand_sizes"][owner])
        pts = "" if owner is None else points_word(view["scores"][owner])
        rows.append((train, who, tiles, pts))
    who_w = max(len(r[1]) for r in rows) + 1
    tiles_w = max(len(r[2]) for r in rows)
    pts_w = max(len(r[3]) for r in rows)
    for k, (train, who, tiles, pts) in enumerate(rows):
        owner = train["owner"]
        line = Text()
        turn = owner is not None and owner == view["current_seat"]
        line.append("▶" if turn else " ", style="bold green")
        line.append(f"{who:<{who_w}}", style="bold" if owner == me else "")
        line.append(tiles.rjust(tiles_w), style="bold red" if tiles and
                    view["hand_sizes"][owner] == 1 else "")
        line.append(" " + pts.rjust(pts_w) + " ")
        mark = "●" if train["marker"] and owner is not None else " "
        line.append(f"{mark} ", style="yellow")
        line.append(f"▸{train['open_end']:<3}", style="bold cyan")
        room = max(8, width - len(line) - 1)
        if not train["started"]:
            line.append(_not_started(train)[:room], style="dim")
        else:
            line.append_text(_train_chain(train, owed, room, 1)[0])
        text.append_text(line)
        if k < len(rows) - 1:
            text.append("\n")
    return text


def layout_text(view: View, width: int = 80) -> Text:
    """All Fives / Draw / Block: the line, the spinner and its arms, and the count."""
    lay = view["layout"]
    text = Text()
    count = lay["count"]
    scores = view["game"] == "all_fives"
    text.append(_("count") + " ", style="bold")
    hot = scores and count > 0 and count % 5 == 0
    text.append(str(count), style="bold white on green" if hot else "bold")
    if lay["spinner"]:
        text.append("   ")
        text.append(_("spinner {tile}").format(tile=glyph(lay["spinner"])), style="bold yellow")
    text.append("\n")
    if lay["lead"] is None:
        text.append(_("no tile played yet: the leader may lead any tile") + "\n", style="dim")
        return text
    ends = {e["id"]: e for e in lay["ends"]}
    lead_a, lead_b = halves(lay["lead"])
    left = ends.get("L")
    right = ends.get("R")
    half = max(10, (width - 14) // 2)
    line = Text()
    if left:
        line.append(f"◂{left['value']} ", style="bold cyan")
        line.append_text(chain_text(oriented(left["tiles"], left["value"]), half, reverse=True))
    lead_style = "bold yellow" if lay["lead"] == lay["spinner"] else "bold"
    if left and left["tiles"]:
        inner_l = oriented(left["tiles"], left["value"])[0][0]
    else:
        inner_l = left["value"] if left else lead_a
    lead = f"[{inner_l}|{lead_a + lead_b - inner_l}]"
    line.append(lead, style=lead_style + " underline")
    if right:
        line.append_text(chain_text(oriented(right["tiles"], right["value"]), half))
        line.append(f" ▸{right['value']}", style="bold cyan")
    text.append_text(line)
    text.append("\n")
    for eid, end in ends.items():
        if eid in ("L", "R"):
            continue
        arm = Text(f"  {target_name(eid, view)} ▸{end['value']}: ", style="cyan")
        if end["tiles"]:
            arm.append_text(chain_text(oriented(end["tiles"], end["value"]),
                                       max(8, width - len(arm) - 1)))
        else:
            arm.append(_("empty"), style="dim")
        text.append_text(arm)
        text.append("\n")
    return text


def table_text(view: View, width: int = 80, height: int = 0,
               names: list[str] | None = None) -> Text:
    if view["game"] == "mexican_train":
        return trains_text(view, width, height, names)
    return layout_text(view, width)


def table_compact(view: View, names: list[str], width: int = 80) -> Text:
    """The table of the compact (small terminal) layout, players included."""
    if view["game"] == "mexican_train":
        return trains_compact(view, names, width)
    text = layout_text(view, width)
    text.append_text(players_line(view, names, width))
    return text


def round_end_title(event: dict[str, Any], view: View, names: list[str]) -> str:
    """'Round 3 over — Bot 3 went out' / 'Hand 1 over — blocked'."""
    mt = view["game"] == "mexican_train"
    if event["reason"] == "domino" and event["seat"] is not None:
        who = seat_name(event["seat"], view, names)
        if mt:
            return _("Round {n} over — {player} went out").format(n=event["round"], player=who)
        return _("Hand {n} over — {player} went out").format(n=event["round"], player=who)
    if event["reason"] == "blocked":
        return (_("Round {n} over — blocked") if mt else _("Hand {n} over — blocked")).format(
            n=event["round"])
    return (_("Round {n} over — target reached") if mt
            else _("Hand {n} over — target reached")).format(n=event["round"])


def round_end_table(event: dict[str, Any], view: View, names: list[str]) -> Table:
    """Every hand left, its pips, the points it scores and the totals after the round."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column(_("Player"), no_wrap=True)
    table.add_column(_("Tiles left"), overflow="fold", ratio=1)
    table.add_column(_("Pips"), justify="right", no_wrap=True)
    table.add_column(_("Points"), justify="right", no_wrap=True)
    table.add_column(_("Total"), justify="right", no_wrap=True)
    for s, hand in enumerate(event["hands"]):
        style = "bold" if s == view.get("seat") else ""
        tiles = Text(" ".join(glyph(t) for t in hand) or _("(none)"))
        table.add_row(Text(seat_name(s, view, names), style=style), tiles,
                      str(event["pips"][s]), str(event["points"][s]),
                      Text(str(event["scores"][s]), style="bold"))
    return table


def round_end_summary(event: dict[str, Any], view: View, names: list[str]) -> Group:
    """The round-end notice: how it ended, then the table of hands, points and totals."""
    return Group(Text(round_end_title(event, view, names) + "\n", style="bold"),
                 round_end_table(event, view, names))


def round_end_text(event: dict[str, Any], view: View, names: list[str]) -> Text:
    """The same summary as plain lines (for logs and tests)."""
    text = Text(round_end_title(event, view, names) + "\n\n", style="bold")
    for s, hand in enumerate(event["hands"]):
        tiles = " ".join(glyph(t) for t in hand) or _("(none)")
        text.append(_("{player}: {tiles} — pips {pips}, points {points}, total {total}").format(
            player=seat_name(s, view, names), tiles=tiles, pips=event["pips"][s],
            points=event["points"][s], total=event["scores"][s]) + "\n")
    return text


def final_summary(view: View, names: list[str]) -> Group:
    """The final table: ranking, winners, then the score sheet."""
    positive = view["game"] != "mexican_train" or view["options"].get("scoring") == "positive"
    order = sorted(range(view["players"]), key=lambda s: view["scores"][s], reverse=positive)
    ranking = Table(box=None, show_header=False, pad_edge=False)
    ranking.add_column(justify="right")
    ranking.add_column()
    ranking.add_column(justify="right")
    ranking.add_column()
    for rank, s in enumerate(order, 1):
        won = s in view["winners"]
        style = "bold green" if won else ""
        ranking.add_row(f"{rank}.", Text(seat_name(s, view, names), style=style),
                        Text(str(view["scores"][s]), style=style),
                        Text(_("★ winner") if won else "", style=style))
    return Group(Text(_("Match over") + "\n", style="bold"), ranking, Text(""),
                 score_table(view, names))


def final_text(view: View, names: list[str]) -> Text:
    """The final ranking as plain lines (for logs and tests)."""
    text = Text(_("Match over") + "\n\n", style="bold")
    positive = view["game"] != "mexican_train" or view["options"].get("scoring") == "positive"
    order = sorted(range(view["players"]), key=lambda s: view["scores"][s], reverse=positive)
    for rank, s in enumerate(order, 1):
        star = _("★ winner") if s in view["winners"] else ""
        text.append(f"{rank}. {seat_name(s, view, names)} {view['scores'][s]}  {star}\n")
    return text


def summary_for(kind: str, event: dict[str, Any] | None, view: View,
                names: list[str]) -> RenderableType:
    """The notice body for a 'round_end' event or the 'final' table."""
    if kind == "round_end" and event is not None:
        return round_end_summary(event, view, names)
    return final_summary(view, names)
