"""The terminal's language: --lang or the environment; --help and messages translated."""

from __future__ import annotations

import argparse

import pytest

from dominohall import i18n
from dominohall.cli import main


@pytest.fixture(autouse=True)
def clean(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    yield
    i18n.set_language("en")


def help_text(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--help"])
    assert exc.value.code == 0
    return capsys.readouterr().out


def test_help_in_belarusian_with_argparse_words(capsys):
    out = help_text(capsys, "--lang", "be")
    assert out.startswith("выкарыстанне: dominohall")
    assert "пазіцыйныя аргументы" in out and "паказаць гэту даведку і выйсці" in out
    assert "гуляць супраць ботаў у тэрмінале" in out        # the play subcommand's help
    assert "play against bots" not in out


def test_subcommand_help_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    out = help_text(capsys, "play")
    assert "Jogue uma partida no terminal" in out
    assert "pausa antes de cada jogada de bot (padrão 0.6)" in out
    assert "argumentos posicionais" in out


def test_lang_flag_beats_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "ru_RU.UTF-8")
    assert "uso: dominohall" in help_text(capsys, "--lang", "es")
    assert "использование: dominohall" in help_text(capsys)
    assert "usage: dominohall" in help_text(capsys, "--lang", "en")


def test_unknown_language_is_a_clear_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--lang", "klingon", "options", "draw"])
    assert exc.value.code == 2
    assert "unknown language 'klingon' (choose from en, be, kk, bg, pt, es, ru)" in \
        capsys.readouterr().err


def test_options_listing_translated(capsys):
    assert main(["--lang", "kk", "options", "all_fives"]) == 0
    out = capsys.readouterr().out
    assert "жиынның ең үлкен дублі (дубль-6 = 28 тас)" in out
    assert "жиындар:\n  seed: Стандартты ережелер\n" in out


def test_option_error_in_bulgarian(capsys):
    assert main(["--lang", "bg", "selfplay", "draw", "-o", "oops"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dominohall: грешка: oops: записвайте опциите като NAME=VALUE")


def test_selfplay_messages_in_russian(capsys, tmp_path):
    out_file = tmp_path / "r.json"
    assert main(["--lang", "ru", "selfplay", "block", "--seed", "3", "--save",
                 str(out_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("block, игроков: 2, seed 3, боты greedy, greedy")
    assert f"запись сохранена в {out_file}" in out


def test_english_is_untouched(capsys):
    out = help_text(capsys, "arena")
    assert "bots play duplicate deals" not in out     # the description, not the summary
    assert "Bots play DEALS duplicate deals of GAME" in out
    assert "usage: dominohall arena" in out
    assert argparse._("options") == "options"


def test_lang_after_the_command(capsys):
    assert main(["options", "draw", "--lang", "es"]) == 0
    assert "el doble más alto del juego (doble 6 = 28 fichas)" in capsys.readouterr().out


def test_bad_option_and_bad_record_in_the_cli_language(capsys, tmp_path):
    assert main(["--lang", "be", "selfplay", "mexican_train", "-o", "double_blank=7"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dominohall: памылка: double_blank: 7 нельга (можна: 0 | 25 | 50)"), err
    assert main(["--lang", "pt", "selfplay", "draw", "-o", "teams=true", "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert "teams: equipes precisam de 4 jogadores, não 3" in err, err


def test_error_text_follows_the_current_language():
    from dominohall import IllegalAction, new_game
    from dominohall.i18n.errors import error_text

    g = new_game("block", players=2, seed=1, options={"set_max": 6})
    try:
        g.apply("zz")
    except IllegalAction as err:
        english = error_text(err)
        i18n.set_language("es")
        assert error_text(err) == error_text(err, "es") != english
        with i18n.use_language("kk"):
            assert error_text(err) == error_text(err, "kk")
