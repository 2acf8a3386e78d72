"""`dominohall analyze`: what the terminal prints, the JSON, and one-line errors."""

from __future__ import annotations

import json

import pytest

from dominohall import bots, new_game
from dominohall.analysis import review
from dominohall.cli import main


@pytest.fixture
def record_file(tmp_path):
    g = new_game("block", players=2, seed=5, options={"hands": 1})
    seats = [bots.make("greedy", seed=s, game="block") for s in range(2)]
    while not g.is_over:
        g.apply(seats[g.current_seat].act(g.view(g.current_seat)))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.to_record()))
    return path, g.to_record()


def test_the_report_has_a_line_per_decision_and_a_summary_per_player(record_file, capsys):
    path, record = record_file
    assert main(["--lang", "en", "analyze", str(path), "--quick", "-q", "--hindsight"]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = review.analyse(record, settings=review.settings_for("block", quick=True),
                              hindsight=True)
    assert out[0] == (f"Block dominoes, 2 players: {len(expected.decisions)} decisions "
                      f"weighed (16 worlds each, seed 0)")
    lines = [x for x in out if x.startswith("#")]
    assert len(lines) == len(expected.decisions) >= 2
    for line, d in zip(lines, expected.decisions):
        assert line.startswith(f"#{d.index + 1} round 1, Player {d.seat + 1}: {d.action}: "
                               f"{d.fair.mark}")
        assert "| hindsight" in line
        if d.fair.mark != "best":
            assert f"{d.fair.loss:.1f} points lost; best {d.fair.best}" in line
    for p in expected.summary():
        assert (f"Player {p.seat + 1}: {p.decisions} decisions, {p.total_loss:.1f} points "
                f"lost ({p.mean_loss:.2f} a decision), accuracy {p.accuracy:.0f}%") in out
    assert "With hindsight:" in out


def test_json_is_the_analysis_and_seat_limits_it(record_file, capsys):
    path, record = record_file
    assert main(["analyze", str(path), "--json", "--quick", "-q", "--seat", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = review.analyse(record, seat=1, settings=review.settings_for("block", quick=True))
    assert data == json.loads(json.dumps(expected.as_dict()))
    assert {d["seat"] for d in data["decisions"]} == {1}
    assert "hindsight" not in data["decisions"][0]


def test_the_report_reads_in_the_chosen_language(record_file, capsys):
    path, _record = record_file
    assert main(["--lang", "ru", "analyze", str(path), "--quick", "-q"]) == 0
    out = capsys.readouterr().out
    assert "Игрок 1" in out and "decisions" not in out and "points lost" not in out


@pytest.mark.parametrize(("content", "args", "message"), [
    (None, [], "no such file"),
    ("{not json", [], "is not JSON"),
    ('["a list"]', [], "is not a dominohall game record"),
    ('{"format": "chess-pgn", "moves": ["e4"]}', [], "not a dominohall game record"),
    ("RECORD", ["--seat", "9"], "--seat must be 0..1"),
    ("RECORD", ["--bot", "random"], "write --bot deep"),
    ("RECORD", ["--bot", "deep:worlds=-3"], "worlds=-3"),
])
def test_bad_input_gets_one_line(record_file, tmp_path, capsys, content, args, message):
    path, record = record_file
    target = tmp_path / "other.json"
    if content == "RECORD":
        target = path
    elif content is not None:
        target.write_text(content)
    try:
        code = main(["--lang", "en", "analyze", str(target), "-q", *args])
    except SystemExit as exit_:
        code = exit_.code
        print(exit_.code, file=__import__("sys").stderr)
    err = capsys.readouterr().err.strip()
    assert code not in (0, None)
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err


def test_an_illegal_action_is_named(record_file, tmp_path, capsys):
    _path, record = record_file
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "actions": [*record["actions"][:2], "9-9>L"]}))
    assert main(["--lang", "en", "analyze", str(bad), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "#3" in err and "9-9>L" in err
