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

Each translated guide (``rules.<lang>.md``: the same blocks, prose in that language) gets
its blocks in its language: every table is built with a gettext function, the labels and
help texts from the option definitions' own catalog entries (``N_``-marked there).
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
from ..i18n import N_
from ..i18n.labels import AUTOMATIC, GAME_NAMES, NO, OPTION_VALUES, YES

#: a gettext function: ``str`` for English, ``translator(lang).gettext`` for the others
Say = Callable[[str], str]

_BLOCK = re.compile(r"(<!-- begin generated: ([a-z-]+) -->\n)(.*?)(<!-- end generated: \2 -->)",
                    re.S)
_LINE_GAME_NAMES = GAME_NAMES          # "Draw dominoes": "Draw" alone is the button
#: option name -> its label ("engine" -> "Round engine"), for the presets' settings
LABELS = {spec.name: spec.label for spec in MEXICAN_TRAIN_SPECS + LINE_GAME_SPECS}
_OPTION_HEADER = (N_("Option"), N_("Name"), N_("Default"), N_("Values"),
                  N_("What it changes"))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value}`"


def _word(option: str, value: Any, say: Say) -> str:
    """A value as the lobby says it, its code beside it for ``--option``: "placed by its
    holder — `holder`", "yes — `true`"; a number as it is."""
    if isinstance(value, bool):
        label = YES if value else NO
    elif value is None:
        label = AUTOMATIC
    else:
        label = OPTION_VALUES.get(option, {}).get(str(value), "")
    return f"{say(label)} — {_show(value)}" if label else str(value)


def _values(spec: OptionSpec, say: Say) -> str:
    shown = [_word(spec.name, c, say) for c in spec.choices if c is not None]
    if spec.int_range is not None:
        lo, hi = spec.int_range
        shown.append(say(N_("a number {lo} to {hi}")).format(lo=lo, hi=hi) if hi is not None
                     else say(N_("a number from {lo}")).format(lo=lo))
    return ", ".join(shown)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def mexican_train_options(say: Say = str) -> str:
    rows = []
    for s in MEXICAN_TRAIN_SPECS:
        default = say(N_("one per engine: the top double + 1")) if s.default is None \
            else _word(s.name, s.default, say)
        rows.append([say(s.label), f"`{s.name}`", default, _values(s, say), say(s.help)])
    return _table([say(h) for h in _OPTION_HEADER], rows)


def line_game_options(say: Say = str) -> str:
    rows = []
    for s in LINE_GAME_SPECS:
        if s.name == "game":
            continue
        default = _word(s.name, s.default, say)
        others = [(g, d[s.name]) for g, d in LINE_GAME_DEFAULTS.items() if s.name in d]
        if others:
            by_value: dict[str, list[str]] = {}
            for g, v in others:
                by_value.setdefault(_word(s.name, v, say), []).append(say(_LINE_GAME_NAMES[g]))
            default += "".join(
                "; " + say(N_("{games}: {value}")).format(
                    games=say(N_("{first} and {second}")).format(first=gs[0], second=gs[1])
                    if len(gs) == 2 else ", ".join(gs), value=v)
                for v, gs in by_value.items())
        rows.append([say(s.label), f"`{s.name}`", default, _values(s, say), say(s.help)])
    return _table([say(h) for h in _OPTION_HEADER], rows)


def _presets(game: str, say: Say) -> str:
    rows = []
    for name, bundle in PRESETS[game].items():
        about = PRESET_LABELS[game][name]
        sets = "; ".join(f"{say(LABELS[k])}: {_word(k, v, say)}" for k, v in bundle.items())
        rows.append([say(about["label"]), f"`{name}`", say(about["description"]),
                     sets or say(N_("nothing: every option at its default"))])
    return _table([say(N_("Preset")), say(N_("Name")), say(N_("What it is")),
                   say(N_("It sets"))], rows)


def mexican_train_presets(say: Say = str) -> str:
    return _presets("mexican_train", say)


def mexican_train_deal(say: Say = str) -> str:
    players = sorted(HAND_SIZE_TABLE)
    return _table([say(N_("Players"))] + [str(n) for n in players],
                  [[say(N_("Tiles each (`table`, the standard deal)"))]
                   + [str(HAND_SIZE_TABLE[n]) for n in players],
                   [say(N_("Tiles each (`puremco`)"))]
                   + [str(PUREMCO_HAND_SIZE[n]) for n in players]])


BLOCKS: dict[str, Callable[[Say], str]] = {
    "mexican-train-deal": mexican_train_deal,
    "mexican-train-options": mexican_train_options,
    "mexican-train-presets": mexican_train_presets,
    "line-game-options": line_game_options,
}


def regenerate(text: str, say: Say = str) -> str:
    """`text` with every generated block rebuilt, said with `say` (English by default); an
    unknown block name is an error."""
    def fill(m: re.Match[str]) -> str:
        name = m.group(2)
        if name not in BLOCKS:
            raise KeyError(f"unknown generated block {name!r} (known: {', '.join(BLOCKS)})")
        return m.group(1) + "\n" + BLOCKS[name](say) + "\n" + m.group(4)

    out = _BLOCK.sub(fill, text)
    missing = set(BLOCKS) - set(_block_names(out))
    if missing:
        raise KeyError(f"the guide lacks the generated blocks {', '.join(sorted(missing))}")
    return out


def _block_names(text: str) -> list[str]:
    return [m.group(2) for m in _BLOCK.finditer(text)]
