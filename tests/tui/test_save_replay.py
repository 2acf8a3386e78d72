"""--save / --resume / autosave, `dominohall replay`, the CLI's errors, and the screenshot."""

from __future__ import annotations

import json
import os
import pathlib

import pytest

from dominohall import new_game, replay
from dominohall.bots import make
from dominohall.cli import main
from dominohall.tui.app import NoticeScreen, PlayApp, ReplayApp, ReplayScreen
from dominohall.tui.session import Session, autosave_path, unfinished_games, write_atomic

from .helpers import SIZE, assert_no_hidden_tiles, notice_text, play_screen, run, screen_text

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_save_resume_and_autosave(tmp_path, _data_dir):
    save = tmp_path / "game.json"
    session = Session.new("mexican_train", 4, 21, {"preset": "puremco"}, ["greedy"],
                          save=str(save))

    async def first() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for _ in range(3):
                legal = session.view()["legal_actions"]
                await pilot.press("colon", *legal[0], "enter", "escape")
                await pilot.pause()
            await pilot.press("q")

    run(first())
    autosave = session.autosave
    assert autosave == autosave_path(session.game_id)
    assert save.exists() and autosave is not None and autosave.exists()
    assert autosave.parent == _data_dir / "games"
    assert not [p for p in save.parent.iterdir() if p.name.endswith(".tmp")]
    record = json.loads(save.read_text())
    assert json.loads(autosave.read_text()) == record
    assert record["play"]["bots"] == ["human", "greedy", "greedy", "greedy"]
    assert replay(record).view(0) == session.view()

    resumed = Session.resume(save)
    assert resumed.view() == session.view()
    assert resumed.seats == session.seats

    async def second() -> None:
        app = PlayApp(resumed, speed=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Round 1 of 13 — engine 12-12" in screen_text(app)
            assert_no_hidden_tiles(app, resumed)
            legal = resumed.view()["legal_actions"]
            await pilot.press("colon", *legal[-1], "enter")
            await pilot.pause()

    run(second())
    # the resumed game keeps writing its own autosave (the id is in the record)
    assert resumed.autosave == autosave
    assert len(json.loads(autosave.read_text())["actions"]) > len(record["actions"])
    assert [p.name for p in autosave.parent.iterdir()] == [autosave.name]


def play_moves(session: Session, n: int) -> None:
    for _ in range(n):
        while not session.human_to_play:
            session.bot_step()
        session.play(str(session.view()["legal_actions"][0]))


def test_one_autosave_per_game(_data_dir):
    """Starting an All Fives game does not touch an unfinished Mexican Train match."""
    mt = Session.new("mexican_train", 4, 21, {}, ["greedy"])
    play_moves(mt, 5)
    assert mt.autosave is not None
    mt_saved = mt.autosave.read_text()
    fives = Session.new("all_fives", 2, 3, {}, ["greedy"])
    play_moves(fives, 2)
    assert fives.autosave is not None and fives.autosave != mt.autosave
    assert mt.autosave.read_text() == mt_saved
    listed = unfinished_games()
    assert [g.path for g in listed] == [fives.autosave, mt.autosave]       # newest first
    assert [(g.game, g.players) for g in listed] == [("all_fives", 2), ("mexican_train", 4)]
    assert listed[1].actions == len(mt.game.actions) and listed[1].round == 1
    # a finished match is not offered, and a broken file is skipped, not an error
    done = Session.new("block", 2, 1, {"hands": 1}, ["random"])
    done.bots[0] = make("random", 0)
    while not done.game.is_over:
        seat = done.game.current_seat
        done._apply(done.bots[seat].act(done.game.view(seat)), seat)
    (_data_dir / "games" / "broken.json").write_text("{not json")
    assert [g.path for g in unfinished_games()] == [fives.autosave, mt.autosave]


def test_resume_without_a_file_lists_the_unfinished_games(_data_dir, capsys):
    mt = Session.new("mexican_train", 4, 21, {}, ["greedy"])
    play_moves(mt, 3)
    os.utime(mt.autosave, (1, 1))               # the older one
    fives = Session.new("all_fives", 2, 3, {}, ["greedy"])
    play_moves(fives, 1)
    # not a terminal: the list, numbered, with the files
    assert main(["play", "--resume"]) == 0
    out = capsys.readouterr().out
    assert "Unfinished games" in out
    lines = [line for line in out.splitlines() if line[:4].strip().endswith(".")]
    assert lines[0].startswith("  1. All Fives · 2 players · hand 1")
    assert lines[1].startswith("  2. Mexican Train · 4 players · round 1 of 13 · ")
    assert str(mt.autosave) in out and str(fives.autosave) in out
    # --resume N takes the Nth of the list
    import argparse

    from dominohall.cli.play import make_session
    args = argparse.Namespace(resume="2", save=None, no_autosave=False, allow_undo=False)
    session = make_session(args)
    assert session.view() == mt.view() and session.autosave == mt.autosave
    args.resume = "3"
    with pytest.raises(SystemExit, match="there are 2 unfinished games"):
        make_session(args)

    # in a terminal: a list to pick from with the arrows and Enter
    from dominohall.tui.resume import ResumeApp

    async def pick() -> str | None:
        app = ResumeApp(unfinished_games())
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Unfinished games" in text
            assert "All Fives · 2 players" in text and "Mexican Train · 4 players" in text
            await pilot.press("down", "enter")
            await pilot.pause()
        return app.return_value

    assert run(pick()) == str(mt.autosave)


def test_resume_with_nothing_to_resume(capsys):
    with pytest.raises(SystemExit, match="no unfinished game to resume"):
        main(["play", "--resume"])


def test_bots_move_with_a_delay():
    session = Session.new("all_fives", 2, 2, {"hands": 1}, ["random"], autosave=False)

    async def main() -> None:
        app = PlayApp(session, speed=0.01)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if session.human_to_play or session.game.is_over:
                    break
            assert session.human_to_play or session.game.is_over
            assert not play_screen(app).waiting

    run(main())


def test_write_atomic_replaces(tmp_path):
    path = tmp_path / "sub" / "x.json"
    write_atomic(path, {"a": 1})
    write_atomic(path, {"a": 2})
    assert json.loads(path.read_text()) == {"a": 2}
    assert os.listdir(path.parent) == ["x.json"]


@pytest.mark.parametrize("argv, words", [
    (["play", "--bots", "nosuch"], "unknown bot 'nosuch'"),
    (["play", "all_fives", "--bot", "greedy,random,greedy"], "bots for 1 bot seats"),
    (["play", "-o", "double_blank=7"], "double_blank"),
    (["play", "mexican_train", "--preset", "nope"], "nope"),
    (["play", "--resume", "/nonexistent/game.json"], "no such file"),
    (["replay", "/nonexistent/game.json"], "no such file"),
])
def test_cli_errors_are_clear(argv, words, capsys):
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
        message = str(exit_.code) + capsys.readouterr().err
    else:
        message = capsys.readouterr().err
    assert code != 0
    assert words in message
    assert "Traceback" not in message


def test_cli_rejects_a_broken_record(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["play", "--resume", str(bad)]) == 2
    assert "is not JSON" in capsys.readouterr().err
    bad.write_text(json.dumps({"format": "dominohall-record", "version": 1, "game": "block",
                               "players": 2, "options": {}, "seed": 1, "actions": ["9-9"]}))
    assert main(["replay", str(bad)]) == 2
    assert "illegal" in capsys.readouterr().err


def bot_game():
    g = new_game("mexican_train", players=3, seed=4,
                 options={"set_max": 6, "rounds": 2, "hand_size": 5})
    bots = [make("greedy", s) for s in range(3)]
    while not g.is_over:
        g.apply(bots[g.current_seat].act(g.view(g.current_seat)))
    return g


def test_replay_steps_through_a_record():
    g = bot_game()
    record = json.loads(json.dumps(g.to_record()))

    async def main() -> None:
        app = ReplayApp(record)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            assert f"step 0 of {len(g.actions)}" in screen_text(app)
            await pilot.press("right", "n", "right")
            await pilot.pause()
            assert screen.step == 3
            assert screen.game.view(None) == replay({**record,
                                                     "actions": record["actions"][:3]}).view(None)
            assert "hands are hidden" in screen_text(app)
            await pilot.press("left")
            await pilot.pause()
            assert screen.step == 2
            await pilot.press("end")
            await pilot.pause()
            text = screen_text(app)
            assert screen.game.view(None) == g.view(None)
            final = [e for e in g.view(None)["log"] if e["type"] == "round_end"][-1]
            for hand in final["hands"]:
                for tile in hand:
                    a, b = tile.split("-")
                    assert f"[{a}|{b}]" in text
            assert "Match over" in text
            await pilot.press("home")
            await pilot.pause()
            assert screen.step == 0

    run(main())


def screenshots_dir(tmp_path: pathlib.Path) -> pathlib.Path:
    """docs/ when DOMINOHALL_SCREENSHOT=1 (refreshing the README's pictures), else tmp."""
    return ROOT / "docs" if os.environ.get("DOMINOHALL_SCREENSHOT") else tmp_path


async def mid_game_screenshot(size: tuple[int, int], name: str, out: pathlib.Path) -> None:
    session = Session.new("mexican_train", 4, 12, {}, ["greedy"], autosave=False)
    app = PlayApp(session, speed=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(60):
            if session.game.round > 1 or len(session.game.actions) >= 40:
                break
            await pilot.press({"draw": "d", "pass": "p", "end": "e"}.get(
                session.view()["legal_actions"][0], "enter"))
            await pilot.pause()
        await pilot.press("question_mark")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert_no_hidden_tiles(app, session)
        text = screen_text(app)
        assert "hint: " in text and "enlarge" not in text
        for train in session.view()["trains"]:
            assert f"▸{train['open_end']}" in text
        app.save_screenshot(filename=name, path=str(out))


def test_screenshot_of_a_mid_game_board(tmp_path):
    """A mid-game Mexican Train board, wide (140×40) and in a default 80×24 terminal."""
    out = screenshots_dir(tmp_path)
    for size, name in (((140, 40), "tui-mexican-train.svg"), ((80, 24), "tui-80x24.svg")):
        run(mid_game_screenshot(size, name, out))
        assert (out / name).read_text().startswith("<svg")


def test_screenshot_of_a_round_end(tmp_path):
    """The round-end summary in an 80×24 terminal."""
    out = screenshots_dir(tmp_path)
    session = Session.new("mexican_train", 4, 5, {"set_max": 9, "hand_size": 8, "rounds": 3},
                          ["greedy"], autosave=False)

    async def main() -> None:
        app = PlayApp(session, speed=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(300):
                await pilot.pause()
                if isinstance(app.screen, NoticeScreen):
                    break
                await pilot.press({"draw": "d", "pass": "p", "end": "e"}.get(
                    str(session.view()["legal_actions"][0]), "enter"))
            text = notice_text(app)
            assert "Round 1 over" in text and "Points" in text and "Total" in text
            app.save_screenshot(filename="tui-round-end.svg", path=str(out))

    run(main())
    assert (out / "tui-round-end.svg").read_text().startswith("<svg")


def test_quitting_a_finished_match_does_not_offer_resume(tmp_path, monkeypatch, capsys):
    """The line printed after the terminal game: a finished match is watched with
    `dominohall replay`, not carried on with --resume; an unfinished one still is."""
    import random as _random

    from dominohall.cli import main
    from dominohall.tui.app import PlayApp

    def play_out(self):
        rng = _random.Random(0)
        g = self.session.game
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()), seat=g.current_seat)

    monkeypatch.setattr(PlayApp, "run", play_out)
    path = tmp_path / "m.json"
    assert main(["play", "block", "--players", "2", "--no-autosave", "--save", str(path)]) == 0
    err = capsys.readouterr().err
    assert "--resume" not in err and f"dominohall replay {path}" in err, err
    monkeypatch.setattr(PlayApp, "run", lambda self: None)
    assert main(["play", "block", "--players", "2", "--no-autosave", "--save", str(path)]) == 0
    assert "--resume" in capsys.readouterr().err
