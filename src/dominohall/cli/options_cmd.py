"""`dominohall options GAME`: every option of a game with its values and meaning."""

from __future__ import annotations

import argparse
from typing import Any

from ..engine import specs_for
from ..engine.options import LINE_GAME_DEFAULTS, PRESET_LABELS, PRESETS
from ..i18n import _, get_language
from ..i18n.labels import value_name


def add_parser(sub: Any) -> None:
    p = sub.add_parser("options", help="list a game's options, their values and presets",
                       description="List every RULES.md option of a game: name, default, "
                                   "allowed values and a one-line explanation.")
    p.add_argument("game", choices=["mexican_train", "all_fives", "draw", "block"])
    p.set_defaults(run=run)


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return _("(derived)") if v is None else str(v)


def run(args: argparse.Namespace) -> int:
    defaults = LINE_GAME_DEFAULTS.get(args.game, {})
    for spec in specs_for(args.game):
        default = defaults.get(spec.name, spec.default)
        values = " | ".join(_show(c) for c in spec.choices if c is not None)
        if spec.int_range:
            values += (" | " if values else "") + f"{spec.int_range[0]}.."
        print(f"{spec.name} = {_show(default)}   [{values}]   {_(spec.label)}")
        print(f"    {_(spec.help)}")
    print(_("presets:"))
    labels = {spec.name: spec.label for spec in specs_for(args.game)}
    for name, bundle in PRESETS[args.game].items():
        about = PRESET_LABELS[args.game][name]
        print(f"  {name}: {_(about['label'])}")
        print(f"    {_(about['description'])}")
        print("    " + preset_words(bundle, labels))
    return 0


def preset_words(bundle: dict[str, Any], labels: dict[str, str]) -> str:
    """What a preset sets, in words ("Engine: set aside before the deal; ..."), not a dict."""
    if not bundle:
        return _("(the defaults)")
    lang = get_language()
    parts = [_("{option}: {value}").format(option=_(labels.get(k) or k),
                                            value=value_name(k, v, lang))
             for k, v in bundle.items()]
    return _("It sets {list}.").format(list="; ".join(parts))
