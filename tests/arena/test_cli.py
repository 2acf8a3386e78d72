"""`dominohall arena`: output, files, and errors that are messages, never tracebacks."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from dominohall.cli import main

MT1 = ["mexican_train", "--players", "4", "-o", "rounds=1", "--seed", "1", "-q"]


def test_table_json_and_csv(tmp_path, capsys):
    out, csv = tmp_path / "r.json", tmp_path / "r.csv"
    rc = main(["arena", *MT1, "--bots", "greedy,random,random,random", "--deals", "3",
               "--out", str(out), "--csv", str(csv)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    for text in ("greedy", "random", "win share", "mean penalty", "finish ahead",
                 "penalty difference", "12 of 12 games"):
        assert text in captured.out
    data = json.loads(out.read_text())
    assert data["complete"] and len(data["games"]) == 12
    assert data["settings"]["bots"] == ["greedy", "random", "random", "random"]
    assert set(data["stats"]["bots"]) == {"greedy", "random"}
    assert csv.read_text().splitlines()[1].startswith("greedy,1,12,")
    # resuming a finished run plays nothing and reports the same
    assert main(["arena", *MT1, "--bots", "greedy,random,random,random", "--deals", "3",
                 "--resume", str(out)]) == 0
    assert json.loads(out.read_text())["games"] == data["games"]


@pytest.mark.parametrize("argv, message", [
    (["--bots", "nope"], "unknown bot 'nope' for mexican_train (choose from random, greedy"),
    (["--bots", "random,greedy"], "--bots names 2 bots for 4 players"),
    (["--bots", "random", "-o", "rounds=zero"], "rounds"),
    (["--bots", "random", "-o", "nosuch=1"], "nosuch: unknown option"),
    (["--bots", "random", "-o", "rounds"], "write options as NAME=VALUE"),
    (["--bots", "random", "--deals", "0"], "deals: 0"),
    (["--bots", "random", "--jobs", "0"], "--jobs 0"),
    (["--bots", "random", "--resume", "missing.json"], "missing.json: no such results file"),
    (["--bots", "pimc:budget_ms", ], "write parameters as name:KEY=VALUE"),
])
def test_errors_are_one_line_messages(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["arena", *MT1, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.startswith("dominohall: error:")


def test_resume_with_other_settings_is_an_error(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["arena", *MT1, "--bots", "random", "--deals", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["arena", *MT1, "--bots", "greedy", "--deals", "1", "--resume", str(out)]) == 2
    assert "cannot resume" in capsys.readouterr().err


def test_missing_ray_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)      # `import ray` raises ImportError
    assert main(["arena", *MT1, "--bots", "random", "--deals", "1", "--ray", "local"]) == 2
    assert "pip install 'dominohall[ray]'" in capsys.readouterr().err


def test_ctrl_c_stops_cleanly_and_saves(tmp_path):
    """A real SIGINT to the command and its worker processes, as a terminal sends it."""
    out = tmp_path / "r.json"
    cmd = [sys.executable, "-m", "dominohall.cli", "arena", *MT1, "--bots", "random",
           "--deals", "5000", "--jobs", "2", "--out", str(out)]

    def child_setup():
        signal.signal(signal.SIGINT, signal.SIG_DFL)   # shells may start children ignoring it
        os.setpgrp()

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=child_setup)
    try:
        deadline = time.monotonic() + 60
        while not out.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert out.exists(), "no periodic save"
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and f"--resume {out}" in stderr
    assert "(interrupted)" in stdout
    data = json.loads(out.read_text())
    assert data["interrupted"] and 0 < data["finished_games"] < 20000 and "stats" in data
