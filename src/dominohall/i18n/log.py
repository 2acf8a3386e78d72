"""The game log in the player's language, built from each event's fields.

The engine's events carry their structure (``type``, ``seat``, ``tile``, ``target``,
``points``...) next to an English ``text``; :func:`event_text` says the event again
from the fields, so no English is parsed. ``js/i18n.js`` has the same messages for the
browser (``tEvent``). Who did it is "you" for the viewer's own seat (its own messages,
since verbs agree with the subject in most of our languages), else the seat's name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import N_, translator

SEAT = N_("seat {seat}")

# (message for another player, message for the viewer) per event kind
_BY_KIND: dict[str, tuple[str, str]] = {
    "engine": (N_("{name} placed the engine {tile}"), N_("you placed the engine {tile}")),
    "draw": (N_("{name} drew a tile"), N_("you drew {tile}")),
    "draw_search": (N_("{name} drew a tile looking for the engine"),
                    N_("you drew {tile} looking for the engine")),
    "play": (N_("{name} played {tile}"), N_("you played {tile}")),
    "play_on": (N_("{name} played {tile} on {target}"), N_("you played {tile} on {target}")),
    "pass": (N_("{name} passed"), N_("you passed")),
    "end": (N_("{name} ended the first-turn chain"), N_("you ended the first-turn chain")),
    "last_tile": (N_("{name} has one tile left"), N_("you have one tile left")),
    "went_out": (N_("{name} went out"), N_("you went out")),
}
ENGINE_SET = N_("the engine {tile} is set in the centre")
REASONS = {"blocked": N_("blocked"), "target": N_("target reached")}
ROUND_END = N_("round {round} over ({how}): points {points}, totals {scores}")
GAME_END = N_("match over: winners {winners}, scores {scores}")
MEXICAN_TRAIN = N_("the Mexican train")


def seat_name(seat: int, lang: str | None = None) -> str:
    return translator(lang).gettext(SEAT).format(seat=seat)


def event_text(e: dict[str, Any], seat: int | None = None, lang: str | None = None,
               names: Sequence[str] | Callable[[int], str] | None = None) -> str:
    """One line of the log for a (redacted) event, as `seat` sees it, in `lang`.

    `names` gives players' names (a list by seat or a function); default "seat N"."""
    tr = translator(lang)
    g = tr.gettext

    def name(s: int) -> str:
        if callable(names):
            return names(s)
        if names is not None and 0 <= s < len(names) and names[s]:
            return names[s]
        return g(SEAT).format(seat=s)

    def said(kind: str, **values: Any) -> str:
        s = e.get("seat")
        other, mine = _BY_KIND[kind]
        if s is not None and s == seat:
            return g(mine).format(**values)
        return g(other).format(name=name(s) if s is not None else "", **values)

    kind = e.get("type")
    if kind == "deal":
        n = (e.get("hand_sizes") or [0])[0]
        return tr.ngettext("round {round}: {n} tile each, {boneyard} in the boneyard",
                           "round {round}: {n} tiles each, {boneyard} in the boneyard",
                           n).format(round=e.get("round"), n=n, boneyard=e.get("boneyard"))
    if kind == "engine":
        if e.get("seat") is None:
            return g(ENGINE_SET).format(tile=e.get("tile"))
        return said("engine", tile=e.get("tile"))
    if kind == "draw":
        search = "draw_search" if e.get("search") else "draw"
        return said(search, tile=e.get("tile", ""))
    if kind == "play":
        target = e.get("target")
        if target is None:
            text = said("play", tile=e.get("tile"))
        else:
            shown = g(MEXICAN_TRAIN) if target == "mx" else target
            text = said("play_on", tile=e.get("tile"), target=shown)
        if e.get("points"):
            n = int(e["points"])
            text += " " + tr.ngettext("(count {count}: {n} point)",
                                      "(count {count}: {n} points)", n).format(
                count=e.get("count"), n=n)
        return text
    if kind in ("pass", "end", "last_tile"):
        return said(kind)
    if kind == "round_end":
        reason = e.get("reason")
        if reason == "domino":
            how = "" if e.get("seat") is None else said("went_out")
        else:
            how = g(REASONS.get(str(reason), str(reason)))
        return g(ROUND_END).format(round=e.get("round"), how=how, points=e.get("points"),
                                   scores=e.get("scores"))
    if kind == "game_end":
        return g(GAME_END).format(winners=e.get("winners"), scores=e.get("scores"))
    return str(e.get("text", kind))
