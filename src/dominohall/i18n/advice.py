"""A hint's reasons in the player's language, from their codes and params.

:func:`dominohall.analysis.advise` answers with codes (:class:`~dominohall.analysis.Reason`);
each has its English template here (a catalog message).  The terminal's ``?`` and the web
table's Hint both say them with :func:`advice_text`, in the terminal's language or, on the
server, in the asking player's (``lang``).  A seat in the params is a number; it is said
by name here ("Bot 2", "Ana": `names`; "Player 2" when nobody named it, people are
numbered from 1), trains and ends as players name them ("your train", "the left end"),
so the words can change without the advice changing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from . import N_, _, get_language, ngettext, use_language
from .log import PLAYER, target_noun, where_phrase

#: code -> English template (placeholders are the reason's params, ``seat`` said as
#: ``player``/``n``: see `_values`).
TEMPLATES: dict[str, str] = {
    "not_your_turn": N_("it is not your turn"),
    "draw": N_("nothing in your hand fits an open end: draw a tile"),
    "pass_marker": N_("the drawn tile does not fit: pass (a marker goes on your train)"),
    "pass": N_("nothing fits and you cannot draw: pass"),
    "end_chain": N_("stop the first-turn chain here and keep the rest for later"),
    "covers_owed": N_("covers the owed double on {train}"),
    "extends_mexican": N_("extends the Mexican train"),
    "starts_mexican": N_("starts the Mexican train"),
    "extends_own": N_("extends your train"),
    "starts_own": N_("starts your train"),
    "open_train": N_("plays on {player}'s open train (it carries a marker)"),
    "double_again": N_("a double: you play again"),
    "leads": N_("leads {tile}"),
    "count_scores": N_("count {count}: scores {points}"),
    "count_no_score": N_("count {count}: no score"),
    "goes_out": N_("your last tile: the hand ends, and your side scores the pips left in "
                   "the other hands"),
    "best_reply": N_("the best reply {player} could make scores {points}"),
    "no_reply": N_("{player} cannot score after it with any tile you cannot see"),
    "would_give": N_("{play} would score {points} but could give {player} {reply}"),
}

#: codes said with a plural form of their ``n``
PLURALS: dict[str, Callable[[int], str]] = {
    "sheds": lambda n: ngettext("sheds {n} pip", "sheds {n} pips", n),
    "sheds_most": lambda n: ngettext("sheds {n} pip (the most you can)",
                                     "sheds {n} pips (the most you can)", n),
}


Names = Sequence[str] | Callable[[int], str] | None


def _namer(names: Names) -> Callable[[int], str]:
    def name(seat: int) -> str:
        if callable(names):
            return names(seat)
        if names is not None and 0 <= seat < len(names) and names[seat]:
            return names[seat]
        return _(PLAYER).format(n=seat + 1)
    return name


def _values(params: Mapping[str, Any], names: Names = None,
            viewer: int | None = None) -> dict[str, Any]:
    values = dict(params)
    name = _namer(names)
    lang = get_language()
    if "seat" in values:
        values.setdefault("n", int(values["seat"]) + 1)
        values["player"] = name(int(values["seat"]))
    if isinstance(values.get("train"), str):
        values["train"] = target_noun(values["train"], viewer, name, lang)
    if isinstance(values.get("play"), str) and ">" in values["play"]:
        tile, _sep, target = values["play"].partition(">")
        values["play"] = f"{tile} ({target_noun(target, viewer, name, lang)})"
    return values


def reason_text(code: str, params: Mapping[str, Any] | None = None, names: Names = None,
                viewer: int | None = None) -> str:
    """One reason in the current language (an unknown code is said as itself); `names`
    names the seats, `viewer` is the asking seat (its train is "your train")."""
    values = _values(params or {}, names, viewer)
    if code == "on_end":                # "on the left end", as the log says it
        return where_phrase(str((params or {}).get("end")), viewer, viewer, _namer(names),
                            get_language())
    if code in PLURALS:
        return PLURALS[code](int(values.get("n", 0))).format(**values)
    template = TEMPLATES.get(code)
    return code if template is None else _(template).format(**values)


def _pairs(reasons: Iterable[Any]) -> list[tuple[str, Mapping[str, Any]]]:
    out = []
    for r in reasons:
        if isinstance(r, Mapping):
            out.append((str(r["code"]), r.get("params") or {}))
        else:
            out.append((r.code, r.params))
    return out


def advice_text(reasons: Iterable[Any], lang: str | None = None, names: Names = None,
                viewer: int | None = None) -> str:
    """The reasons (`Reason` objects or ``{"code", "params"}`` dicts) as one line, in
    `lang` (None: the current language); `names` and `viewer` as for :func:`reason_text`."""
    pairs = _pairs(reasons)
    if lang is None:
        return "; ".join(reason_text(c, p, names, viewer) for c, p in pairs)
    with use_language(lang):
        return "; ".join(reason_text(c, p, names, viewer) for c, p in pairs)


__all__ = ["PLURALS", "TEMPLATES", "advice_text", "reason_text"]
