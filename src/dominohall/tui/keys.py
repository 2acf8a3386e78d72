"""The footer's keys in the player's language, and a footer that always fits.

Screens write their bindings' descriptions as catalog markers (``N_("Draw")``,
``NP_("terminal key", "Play")``); :func:`translate_bindings` says them in the language
chosen at start (``--lang``), not the one of the moment the module was imported.

A footer wider than the terminal loses its last keys, and the last one is Quit. So
:func:`fit` leaves keys out of the footer (they still work, and the help screen lists
every key) in the order a screen names, until the rest fits: Quit and Help stay.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from textual.binding import ActiveBinding, Binding

from ..i18n import say


def translate_bindings(node: Any) -> None:
    """Say each of `node`'s own bindings' descriptions in the current language (each
    node holds its own copy of its class's bindings, so this changes no other screen)."""
    for key, bindings in node._bindings.key_to_bindings.items():
        node._bindings.key_to_bindings[key] = [
            dataclasses.replace(b, description=say(b.description)) if b.description else b
            for b in bindings]


def item_width(app: Any, binding: Binding) -> int:
    """Cells one key takes in the footer: ' key description '."""
    return len(app.get_key_display(binding)) + len(binding.description) + 3


def footer_width(app: Any, active: dict[str, ActiveBinding]) -> int:
    shown: dict[str, Binding] = {}
    for entry in active.values():
        if entry.binding.show:
            shown.setdefault(entry.binding.action, entry.binding)
    return sum(item_width(app, b) for b in shown.values())


def fit(app: Any, active: dict[str, ActiveBinding], width: int,
        drop_order: Iterable[str]) -> dict[str, ActiveBinding]:
    """`active` without the keys (by action) the footer has no room for at `width`,
    dropped in `drop_order` (actions; any not named there always stay)."""
    out = dict(active)
    for action in drop_order:
        if footer_width(app, out) <= width:
            break
        out = {k: v for k, v in out.items() if v.binding.action != action}
    return out


class FittedFooter:
    """A Screen mixin (before ``Screen`` in the bases): its bindings said in the player's
    language, and its footer cut to the terminal's width by leaving out `FOOTER_DROP`'s
    actions in that order."""

    FOOTER_DROP: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        translate_bindings(self)

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        active: dict[str, ActiveBinding] = super().active_bindings  # type: ignore[misc]
        me: Any = self
        return fit(me.app, active, (me.size.width or 80) - 1, self.FOOTER_DROP)
