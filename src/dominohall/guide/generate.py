"""The generated parts of the rules guide: tables built from the engine's own data.

The guide (``rules.md`` beside this file, and ``docs/rules.md`` in the repository) is
hand-written prose with a few marked blocks::

    <!-- begin generated: mexican-train-options -->
    ...
    <!-- end generated: mexican-train-options -->

whose contents this module rebuilds from the option definitions
(:data:`~dominohall.engine.options.MEXICAN_TRAIN_SPECS`,
:data:`~dominohall.engine.options.LINE_GAME_SPECS`), the presets and the A2 deal table,
so the guide, ``dominohall options`` and the lobby's form cannot disagree.
``python -m dominohall.guide --write`` regenerates both files; ``--check`` fails when
either is stale (a test runs it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.options import (
    HAND_SIZE_TABLE,
    LINE_GAME_DEFAULTS,
    LINE_GAME_SPECS,
    MEXICAN_TRAIN_SPECS,
    PRESET_LABELS,
    PRESETS,
    PUREMCO_HAND_SIZE,
    OptionSpec,
)

_BLOCK = re.compile(r"(<!-- begin generated: ([a-z-]+) -->\n)(.*?)(<!-- end generated: \2 -->)",
                    re.S)
_LINE_GAME_NAMES = {"all_fives": "All Fives", "draw": "Draw", "block": "Block"}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value}`"


def _values(spec: OptionSpec) -> str:
    shown = [_show(c) for c in spec.choices if c is not None]
    if spec.int_range is not None:
        lo, hi = spec.int_range
        shown.append(f"a number {lo} to {hi}" if hi is not None else f"a number from {lo}")
    return ", ".join(shown)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def mexican_train_options() -> str:
    rows = []
    for s in MEXICAN_TRAIN_SPECS:
        default = "one per engine: set_max + 1" if s.default is None else _show(s.default)
        rows.append([s.label, f"`{s.name}`", default, _values(s), s.help])
    return _table(["Option", "Name", "Default", "Values", "What it changes"], rows)


def line_game_options() -> str:
    rows = []
    for s in LINE_GAME_SPECS:
        if s.name == "game":
            continue
        default = _show(s.default)
        others = [(g, d[s.name]) for g, d in LINE_GAME_DEFAULTS.items() if s.name in d]
        if others:
            by_value: dict[str, list[str]] = {}
            for g, v in others:
                by_value.setdefault(_show(v), []).append(_LINE_GAME_NAMES[g])
            default += "".join(f"; {' and '.join(gs)}: {v}" for v, gs in by_value.items())
        rows.append([s.label, f"`{s.name}`", default, _values(s), s.help])
    return _table(["Option", "Name", "Default", "Values", "What it changes"], rows)


def _presets(game: str) -> str:
    rows = []
    for name, bundle in PRESETS[game].items():
        about = PRESET_LABELS[game][name]
        sets = ", ".join(f"`{k}={_show(v).strip('`')}`" for k, v in bundle.items())
        rows.append([about["label"], f"`{name}`", about["description"],
                     sets or "nothing: every option at its default"])
    return _table(["Preset", "Name", "What it is", "It sets"], rows)


def mexican_train_presets() -> str:
    return _presets("mexican_train")


def mexican_train_deal() -> str:
    players = sorted(HAND_SIZE_TABLE)
    return _table(["Players"] + [str(n) for n in players],
                  [["Tiles each (`table`, the standard deal)"]
                   + [str(HAND_SIZE_TABLE[n]) for n in players],
                   ["Tiles each (`puremco`)"] + [str(PUREMCO_HAND_SIZE[n]) for n in players]])


BLOCKS: dict[str, Callable[[], str]] = {
    "mexican-train-deal": mexican_train_deal,
    "mexican-train-options": mexican_train_options,
    "mexican-train-presets": mexican_train_presets,
    "line-game-options": line_game_options,
}


def regenerate(text: str) -> str:
    """`text` with every generated block rebuilt; an unknown block name is an error."""
    def fill(m: re.Match[str]) -> str:
        name = m.group(2)
        if name not in BLOCKS:
            raise KeyError(f"unknown generated block {name!r} (known: {', '.join(BLOCKS)})")
        return m.group(1) + "\n" + BLOCKS[name]() + "\n" + m.group(4)

    out = _BLOCK.sub(fill, text)
    missing = set(BLOCKS) - set(_block_names(out))
    if missing:
        raise KeyError(f"the guide lacks the generated blocks {', '.join(sorted(missing))}")
    return out


def _block_names(text: str) -> list[str]:
    return [m.group(2) for m in _BLOCK.finditer(text)]
