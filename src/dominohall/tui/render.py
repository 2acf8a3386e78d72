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

from rich.text import Text

from ..bots.mexican import plan_train
from ..engine.tiles import TEXT, parse_tile

View = dict[str, Any]

GAME_TITLES = {"mexican_train": "Mexican Train", "all_fives": "All Fives",
               "draw": "Draw Dominoes", "block": "Block Dominoes"}
SORTS = ("pips", "suit", "train")     # "train": Mexican Train only


# ----------------------------------------------------------------- tiles
def halves(tile: str) -> tuple[int, int]:
    """'12-5' -> (12, 5)."""
    a, _, b = tile.partition("-")
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
    tile, _, target = action.partition(">")
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
    if seat is None:
        return "-"
    if seat == view.get("seat"):
        return "you"
    return f"{names[seat]} (seat {seat})" if names else f"seat {seat}"


def target_label(target: str | None, view: View) -> str:
    """A short label for a target chip: 't0 your train ▸7', 'mx Mexican ▸12', 'R end ▸3'."""
    if target is None:
        return "lead"
    if view["game"] == "mexican_train":
        train = next(t for t in view["trains"] if t["id"] == target)
        if train["owner"] is None:
            who = "Mexican"
        elif train["owner"] == view.get("seat"):
            who = "your train"
        else:
            who = f"seat {train['owner']}"
        owed = " owed" if target in view["owed"] else ""
        return f"{target} {who}{owed} ▸{train['open_end']}"
    end = next((e for e in view["layout"]["ends"] if e["id"] == target), None)
    value = "" if end is None else f" ▸{end['value']}"
    return f"{target} end{value}"


# ----------------------------------------------------------------- panels
def header(view: View, names: list[str], waiting: str = "") -> Text:
    """'Mexican Train · Round 3 of 13 — engine 10-10 · your turn'."""
    text = Text()
    text.append(GAME_TITLES.get(view["game"], str(view["game"])), style="bold")
    if view["game"] == "mexican_train":
        text.append(f" · Round {view['round']} of {view['rounds']} — engine {view['engine']}")
    else:
        hands = view["options"].get("hands") or 0
        of = f" of {hands}" if hands else ""
        text.append(f" · Hand {view['round']}{of}")
        if not hands:
            text.append(f" · to {view['options'].get('target')}")
    text.append(" · ")
    if view["is_over"]:
        text.append("match over", style="bold magenta")
    elif view["current_seat"] == view.get("seat"):
        text.append("your turn", style="bold reverse green")
    else:
        text.append(f"{seat_name(view['current_seat'], view, names)} to play", style="yellow")
    if waiting:
        text.append(f" · {waiting}", style="dim")
    return text


def players(view: View, names: list[str]) -> Text:
    """Whose turn, tiles in each hand and in the boneyard, scores, markers."""
    text = Text()
    markers = {}
    if view["game"] == "mexican_train":
        markers = {t["owner"]: t["marker"] for t in view["trains"] if t["owner"] is not None}
    for s in range(view["players"]):
        turn = s == view["current_seat"]
        text.append("▶ " if turn else "  ", style="bold green")
        label = "you" if s == view.get("seat") else (names[s] if names else "seat")
        text.append(f"{s} {label:<8}", style="bold" if turn else "")
        n = view["hand_sizes"][s]
        text.append(f"{n:>2} tile{'s' if n != 1 else ' '}",
                    style="bold red" if n == 1 else "")
        text.append(f"  {view['scores'][s]:>4} pts")
        if markers.get(s):
            text.append("  ● open", style="yellow")
        text.append("\n")
    text.append(f"  boneyard: {view['boneyard']} tile{'s' if view['boneyard'] != 1 else ''}\n")
    if view["game"] != "mexican_train" and view.get("teams"):
        text.append("  teams: seats 0+2 v 1+3\n", style="dim")
    return text


def round_ends(view: View) -> list[dict[str, Any]]:
    return [e for e in view["log"] if e["type"] == "round_end"]


def score_sheet(view: View, names: list[str]) -> Text:
    """Points per round and running totals, from the round_end events of the log."""
    n = view["players"]
    word = "R" if view["game"] == "mexican_train" else "H"
    w = 5
    cols = ["you" if s == view.get("seat") else f"s{s}" for s in range(n)]
    text = Text()
    text.append("    " + "".join(f"{c:>{w}}" for c in cols) + "\n", style="bold underline")
    for e in round_ends(view):
        text.append(f"{word}{e['round']:<3}" + "".join(f"{p:>{w}}" for p in e["points"]) + "\n")
    if not view["is_over"]:
        text.append(f"{word}{view['round']:<3}" + "".join(f"{'…':>{w}}" for _ in range(n)) + "\n",
                    style="dim")
    text.append("tot " + "".join(f"{p:>{w}}" for p in view["scores"]), style="bold")
    return text


LOG_STYLES = {"last_tile": "bold red", "round_end": "bold magenta", "game_end": "bold magenta",
              "deal": "bold", "engine": "cyan", "pass": "yellow"}


def log_text(view: View, last: int = 300) -> Text:
    """This round's log (plays, draws, passes, 'one tile left'), after earlier rounds' results.

    Earlier rounds' plays are left out: their tiles are back in someone's hand now.
    """
    text = Text()
    log = view["log"]
    start = max((k for k, e in enumerate(log) if e["type"] == "deal"), default=0)
    events = [e for e in log[:start] if e["type"] == "round_end"][-5:] + log[start:][-last:]
    for k, e in enumerate(events):
        style = LOG_STYLES.get(e["type"], "")
        if e.get("seat") == view.get("seat") and e["type"] in ("play", "draw", "end"):
            style = "green"
        text.append(e["text"], style=style)
        if k < len(events) - 1:
            text.append("\n")
    return text


def trains_text(view: View, width: int = 80, height: int = 0) -> Text:
    """Every personal train and the Mexican train: owner, open end, marker; owed doubles lit."""
    text = Text()
    text.append(f"engine {glyph(view['engine'])}", style="bold")
    owed = view["owed"]
    if owed:
        text.append("   owed: " + ", ".join(owed) + " — cover it first", style="bold white on red")
    text.append("\n")
    me = view.get("seat")
    lines = max(1, min(3, (height - 1) // len(view["trains"]))) if height else 1
    for train in view["trains"]:
        tid, owner = train["id"], train["owner"]
        if owner is None:
            label = "mx Mexican  "
        elif owner == me:
            label = f"{tid:<3}you      "
        else:
            label = f"{tid:<3}seat {owner:<4}"
        mark = "●" if train["marker"] and owner is not None else " "
        line = Text()
        line.append(label, style="bold" if owner == me else "")
        line.append(f"{mark} ", style="yellow")
        line.append(f"▸{train['open_end']:<3}", style="bold cyan")
        pairs = oriented(train["tiles"], train["open_end"])
        indent = len(line)
        room = max(8, width - indent - 1)
        if not train["started"]:
            line.append("not started" if owner is not None else "not started (open to all)",
                        style="dim")
            rows = [line]
        else:
            chain = wrap_chain(pairs, room, lines)
            if tid in owed:
                last = chain[-1]
                last.stylize("bold white on red", len(last.plain) - len(
                    f"[{pairs[-1][0]}|{pairs[-1][1]}]"))
            line.append_text(chain[0])
            rows = [line] + [Text(" " * indent) + row for row in chain[1:]]
        for row in rows:
            text.append_text(row)
            text.append("\n")
    return text


def layout_text(view: View, width: int = 80) -> Text:
    """All Fives / Draw / Block: the line, the spinner and its arms, and the count."""
    lay = view["layout"]
    text = Text()
    count = lay["count"]
    scores = view["game"] == "all_fives"
    text.append("count ", style="bold")
    hot = scores and count > 0 and count % 5 == 0
    text.append(str(count), style="bold white on green" if hot else "bold")
    if lay["spinner"]:
        text.append(f"   spinner {glyph(lay['spinner'])}", style="bold yellow")
    text.append("\n")
    if lay["lead"] is None:
        text.append("no tile played yet: the leader may lead any tile\n", style="dim")
        return text
    ends = {e["id"]: e for e in lay["ends"]}
    lead_a, lead_b = halves(lay["lead"])
    left = ends.get("L")
    right = ends.get("R")
    half = max(10, (width - 14) // 2)
    line = Text()
    if left:
        line.append(f"L{left['value']}◂ ", style="bold cyan")
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
        line.append(f" ▸R{right['value']}", style="bold cyan")
    text.append_text(line)
    text.append("\n")
    for eid, end in ends.items():
        if eid in ("L", "R"):
            continue
        arm = Text(f"  arm {eid} off the spinner ▸{end['value']}: ", style="cyan")
        if end["tiles"]:
            arm.append_text(chain_text(oriented(end["tiles"], end["value"]), width - 30))
        else:
            arm.append("empty", style="dim")
        text.append_text(arm)
        text.append("\n")
    return text


def table_text(view: View, width: int = 80, height: int = 0) -> Text:
    if view["game"] == "mexican_train":
        return trains_text(view, width, height)
    return layout_text(view, width)


def round_end_text(event: dict[str, Any], view: View, names: list[str]) -> Text:
    """Everyone's remaining tiles, the points and the totals of one round_end event."""
    word = "Round" if view["game"] == "mexican_train" else "Hand"
    how = {"domino": "went out", "blocked": "blocked", "target": "target reached"}[event["reason"]]
    text = Text()
    title = f"{word} {event['round']} over — "
    if event["reason"] == "domino" and event["seat"] is not None:
        title += f"{seat_name(event['seat'], view, names)} went out"
    else:
        title += how
    text.append(title + "\n\n", style="bold")
    for s, hand in enumerate(event["hands"]):
        who = seat_name(s, view, names)
        text.append(f"{who:<18}", style="bold" if s == view.get("seat") else "")
        tiles = " ".join(glyph(t) for t in hand) or "(none)"
        text.append(f"{tiles:<44} ")
        text.append(f"pips {event['pips'][s]:>3}  points {event['points'][s]:>4}  "
                    f"total {event['scores'][s]:>4}\n")
    return text


def final_text(view: View, names: list[str]) -> Text:
    """The final table: totals, ranking and winners."""
    text = Text()
    text.append("Match over\n\n", style="bold")
    positive = view["game"] != "mexican_train" or view["options"].get("scoring") == "positive"
    order = sorted(range(view["players"]), key=lambda s: view["scores"][s], reverse=positive)
    for rank, s in enumerate(order, 1):
        star = "★ winner" if s in view["winners"] else ""
        text.append(f"{rank}. {seat_name(s, view, names):<18} {view['scores'][s]:>5}  {star}\n",
                    style="bold green" if s in view["winners"] else "")
    text.append("\n")
    text.append_text(score_sheet(view, names))
    return text
