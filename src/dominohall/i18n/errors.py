"""Engine errors in the player's language, from their ``code`` and ``params``.

The engine raises :class:`~dominohall.engine.errors.IllegalAction` with an English
message (unchanged, for the API) plus a machine-readable ``code`` and ``params``. Here
each code has its English template (a catalog message); :func:`error_text` fills it in
the chosen language. The browser gets the same templates from the catalog JSON and
renders ``{code, params}`` with ``tError()`` in ``js/i18n.js``.

``not_legal_now`` carries the engine's English ``reason`` (from ``explain``); the
reasons below are catalog messages too, matched back to their template so that the
reason is translated as well. A reason not listed stays in English.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from . import N_, translator

#: code -> English template (placeholders are the error's params).
ERRORS: dict[str, str] = {
    "illegal_action": N_("that move is not legal now"),
    "not_an_action": N_("{text} is not an action"),
    "not_a_target": N_("{target} is not a target (use t0..t9 or mx for trains, "
                       "L/R/U/D for line ends)"),
    "not_a_tile": N_("{text} is not a tile (write it like '12-5')"),
    "not_in_set": N_("{tile} is not in the double-{set_max} set"),
    "match_over": N_("the match is over"),
    "not_a_seat": N_("{seat} is not a seat (a whole number, or None)"),
    "not_your_turn": N_("it is seat {current}'s turn, not seat {seat}'s"),
    "not_legal_now": N_("{action}: {reason}"),
    "not_in_boneyard": N_("{tile} is not in the boneyard"),
}

#: The engine's reasons (``explain``) for an illegal move, as templates.
REASONS: tuple[str, ...] = (
    N_("the match is over"),
    N_("there is no drawing in this game"),
    N_("the boneyard has no tile left to draw"),
    N_("you already drew your one tile this turn"),
    N_("you have a legal play and must play"),
    N_("you can still play, so you may not pass"),
    N_("you can still draw, so you may not pass"),
    N_("'end' is not an action in this game"),
    N_("{tile} is not in the double-{set_max} set"),
    N_("{tile} is not in your hand"),
    N_("lead a tile without a target, e.g. '{tile}'"),
    N_("say which end: e.g. '{tile}>L' or '{tile}>R'"),
    N_("the spinner side {target} is not open"),
    N_("there is no open end {target}"),
    N_("{tile} does not match the open end {value} at {target}"),
    N_("you are laying your first-turn chain: play on your train or 'end'"),
    N_("the boneyard is empty"),
    N_("you already drew this turn"),
    N_("you have a legal play and must play (must_play is on)"),
    N_("you are laying your first-turn chain: 'end' finishes it"),
    N_("'end' only finishes a first-turn chain"),
    N_("say which train: e.g. '{tile}>t{seat}' or '{tile}>mx'"),
    N_("there is no train {target} (trains: t0..t{last}, mx)"),
    N_("after drawing you may only play the tile you drew ({tile})"),
    N_("a double is owed on {train}: cover {tile} first"),
    N_("the tile after a double must go on that double ({train})"),
    N_("on your first turn you may only play on your own train (t{seat})"),
    N_("{target} is closed (it has no marker)"),
    N_("only one uncovered double per turn (max_doubles_per_turn is 1)"),
    N_("{tile} does not match the open end {value} of {target}"),
    N_("that move is not legal now"),
)



@functools.cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    out = []
    seen: set[str] = set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(re.escape(part))
        elif part in seen:
            out.append(f"(?P={part})")
        else:
            seen.add(part)
            out.append(f"(?P<{part}>.+?)")
    return re.compile("^" + "".join(out) + "$")


def match_reason(reason: str) -> tuple[str, dict[str, str]] | None:
    """The template an English reason was made from, with its values; None if unknown."""
    for template in REASONS:
        m = _pattern(template).match(reason)
        if m:
            return template, m.groupdict()
    return None


def _fill(template: str, params: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), template)


def reason_text(reason: str, lang: str | None) -> str:
    tr = translator(lang)
    found = match_reason(reason)
    if found is None:
        return reason
    template, values = found
    return _fill(tr.gettext(template), values)


def error_text(err: Any, lang: str | None = None) -> str:
    """`err` (an IllegalAction, or a dict with ``code``/``params``/``message``) in `lang`.

    An unknown code falls back to the error's English message."""
    if isinstance(err, dict):
        code, params, message = err.get("code"), err.get("params") or {}, err.get("message")
    else:
        code = getattr(err, "code", None)
        params = getattr(err, "params", None) or {}
        message = str(err)
    template = ERRORS.get(str(code))
    if template is None or not isinstance(params, dict):
        return str(message if message is not None else "")
    values = dict(params)
    if code == "not_legal_now" and isinstance(values.get("reason"), str):
        values["reason"] = reason_text(values["reason"], lang)
    return _fill(translator(lang).gettext(template), values)
