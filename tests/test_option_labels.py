"""Options as data, for people: every option has a short label beside its help, every
preset a label and a description, and the lobby, the CLI and the engine agree on them
and on the number of players (RULES A1, A12, B1)."""

from __future__ import annotations

import pytest

import dominohall
from dominohall.cli import main
from dominohall.engine.options import (
    LINE_GAME_SPECS,
    MEXICAN_TRAIN_SPECS,
    PLAYERS,
    PRESET_LABELS,
    PRESETS,
)

SPECS = MEXICAN_TRAIN_SPECS + LINE_GAME_SPECS


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_option_has_a_short_label_and_a_one_line_help(spec):
    assert spec.label and spec.label[0].isupper() and len(spec.label) <= 32
    assert "\n" not in spec.label and "_" not in spec.label
    assert spec.help and "\n" not in spec.help and spec.help != spec.label


def test_labels_are_distinct_within_a_game():
    for specs in (MEXICAN_TRAIN_SPECS, LINE_GAME_SPECS):
        labels = [s.label for s in specs]
        assert len(labels) == len(set(labels))


@pytest.mark.parametrize("game", dominohall.GAMES)
def test_every_preset_has_a_label_and_a_description(game):
    assert set(PRESET_LABELS[game]) == set(PRESETS[game])
    for about in PRESET_LABELS[game].values():
        assert set(about) == {"label", "description"}
        assert about["label"] and len(about["label"]) <= 24
        assert about["description"].endswith(".") and "\n" not in about["description"]
    assert PRESET_LABELS[game]["seed"]["label"] == "Standard rules"        # RULES A12


@pytest.mark.parametrize("game", dominohall.GAMES)
def test_a12_presets_bundle_only_values_a_user_can_set(game):
    """A12: a preset is only a named bundle of options: each of its values is accepted
    when a user sets it alone (-o name=value) and gives the same resolved rule."""
    players = 4
    for name, bundle in PRESETS[game].items():
        by_preset = dominohall.new_game(game, players=players, seed=1,
                                        options={"preset": name}).options
        by_hand = dominohall.new_game(game, players=players, seed=1,
                                      options={k: str(v) for k, v in bundle.items()}).options
        assert by_preset == by_hand, name


@pytest.mark.parametrize("game", dominohall.GAMES)
def test_players_limits_come_from_the_engine_everywhere(game):
    """A1/B1: one limit (2-10 for Mexican Train, 2-4 for the line games) in the engine,
    the lobby catalogue and the server's table check."""
    from dominohall.server.tables import lobby_catalogue

    lo, hi = PLAYERS[game]
    assert (lo, hi) == ((2, 10) if game == "mexican_train" else (2, 4))
    opts = {"set_max": 12} if game == "mexican_train" else {}
    dominohall.new_game(game, players=hi, seed=1, options=opts)
    for bad in (lo - 1, hi + 1):
        with pytest.raises(dominohall.BadOption, match="players"):
            dominohall.new_game(game, players=bad, seed=1)
    entry = next(g for g in lobby_catalogue() if g["name"] == game)
    assert (entry["players"]["min"], entry["players"]["max"]) == (lo, hi)


def test_the_lobby_catalogue_carries_labels_and_preset_labels():
    from dominohall.server.tables import lobby_catalogue

    for entry in lobby_catalogue():
        by_name = {s.name: s for s in dominohall.specs_for(entry["name"])}
        for o in entry["options"]:
            assert o["label"] == by_name[o["name"]].label and o["help"]
        assert entry["preset_labels"] == PRESET_LABELS[entry["name"]]
        assert set(entry["preset_labels"]) == set(entry["presets"])


def test_dominohall_options_prints_labels_and_preset_descriptions(capsys):
    assert main(["options", "mexican_train"]) == 0
    out = capsys.readouterr().out
    for spec in MEXICAN_TRAIN_SPECS:
        line = next(ln for ln in out.splitlines() if ln.startswith(f"{spec.name} = "))
        assert line.endswith(spec.label)
    assert "hand_size = table   [table | puremco | 1..]" in out
    for about in PRESET_LABELS["mexican_train"].values():
        assert about["label"] in out and about["description"] in out


def test_every_word_valued_option_value_has_words():
    """Every value a player picks in the lobby (not a number, yes/no or 'automatic') has
    words of its own, and the lobby catalogue sends them (no 'holder', 'set aside')."""
    from dominohall.i18n.labels import OPTION_VALUES
    from dominohall.server.tables import lobby_catalogue

    for spec in SPECS:
        for c in spec.choices:
            if isinstance(c, str):
                assert OPTION_VALUES[spec.name][c] and "_" not in OPTION_VALUES[spec.name][c]
    for entry in lobby_catalogue():
        for o in entry["options"]:
            words = {str(c) for c in o["choices"] if isinstance(c, str)}
            assert set(o["choice_labels"]) == words, o["name"]


@pytest.mark.parametrize("lang", ["en", "ru", "kk", "pt"])
def test_dominohall_options_prints_presets_in_words(capsys, lang):
    """`dominohall options` says what a preset sets in words, in the player's language,
    not as a Python dict of codes."""
    from dominohall.i18n import translator
    from dominohall.i18n.labels import value_name

    assert main(["--lang", lang, "options", "mexican_train"]) == 0
    out = capsys.readouterr().out
    presets = out[out.index("\n  seed:"):]
    assert "{'" not in presets and "': '" not in presets
    for code in ("set_aside", "on_double", "max_doubles_per_turn", "double_blank"):
        assert code not in presets
    g = translator(lang).gettext
    assert value_name("engine", "set_aside", lang) in presets
    assert g("{option}: {value}").format(option=g("First turn"),
                                          value=value_name("first_turn", "free", lang)) in presets
