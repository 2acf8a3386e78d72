"""The compiled build: the build hook's choices, and what differs for compiled classes.

The hook (setup.py) is run here with `setuptools.setup` replaced, for the cases that need
no compiler run; CI builds the real wheel and runs the engine, bots, arena and RL tests on
it (.ci/run).
"""

from __future__ import annotations

import copy
import pathlib
import pickle
import subprocess
import sys

import pytest
import setuptools

import dominohall
import dominohall.engine

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run_hook(monkeypatch, argv, env=None):
    """Run setup.py as `setup.py *argv`; return the ext_modules it would build."""
    got = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: got.update(kw))
    monkeypatch.setattr(sys, "argv", ["setup.py", *argv])
    monkeypatch.delenv("DOMINOHALL_COMPILE", raising=False)
    for k, v in (env or {}).items():
        monkeypatch.setenv(k, v)
    code = compile((ROOT / "setup.py").read_text(), "setup.py", "exec")
    exec(code, {"__name__": "__main__", "__file__": str(ROOT / "setup.py")})
    return got["ext_modules"]


@pytest.mark.parametrize("argv", [["editable_wheel", "--dist-dir", "x"], ["develop"],
                                  ["egg_info"], ["dist_info"], ["sdist"]])
def test_editable_installs_and_metadata_never_compile(monkeypatch, argv):
    assert run_hook(monkeypatch, argv) == []


def test_compile_0_gives_a_pure_wheel(monkeypatch):
    assert run_hook(monkeypatch, ["bdist_wheel"], {"DOMINOHALL_COMPILE": "0"}) == []


def test_without_a_c_compiler_the_wheel_is_pure_python(monkeypatch, capsys):
    assert run_hook(monkeypatch, ["bdist_wheel"], {"CC": "/bin/false"}) == []
    assert "installing the pure-Python engine" in capsys.readouterr().err


def test_compile_1_fails_loudly_without_a_compiler_or_in_editable_mode(monkeypatch):
    with pytest.raises(SystemExit, match="cannot be compiled: no working C compiler"):
        run_hook(monkeypatch, ["bdist_wheel"], {"CC": "/bin/false", "DOMINOHALL_COMPILE": "1"})
    with pytest.raises(SystemExit, match="editable installs never compile"):
        run_hook(monkeypatch, ["editable_wheel"], {"DOMINOHALL_COMPILE": "1"})
    with pytest.raises(SystemExit, match="use 1 .compile., 0 .pure Python."):
        run_hook(monkeypatch, ["bdist_wheel"], {"DOMINOHALL_COMPILE": "maybe"})


def test_version_says_which_engine_runs():
    out = subprocess.run([sys.executable, "-m", "dominohall.cli", "--version"],
                         capture_output=True, text=True, check=True).stdout
    build = "compiled engine (mypyc)" if dominohall.engine.COMPILED else "pure-Python engine"
    assert out == f"dominohall {dominohall.__version__}, {build}\n"
    suffix = pathlib.Path(dominohall.engine.line_game.__file__).suffix
    assert (suffix == ".so") == dominohall.engine.COMPILED


def test_the_block_search_is_compiled_with_the_engine():
    """setup.py's COMPILED_BOTS: a compiled install compiles the Block/Draw search too."""
    import dominohall.bots.endgame as endgame
    import dominohall.bots.train_rollout as train_rollout

    for module in (endgame, train_rollout):
        suffix = pathlib.Path(module.__file__).suffix
        assert (suffix == ".so") == dominohall.engine.COMPILED, module.__name__


def play(g, n):
    for _ in range(n):
        if g.is_over:
            break
        g.apply(g.legal_actions()[len(g.legal_actions()) // 2])


@pytest.mark.parametrize("name, players, version", [
    ("mexican_train", 4, 2), ("all_fives", 2, 2), ("block", 4, 2), ("all_fives", 3, 1),
])
def test_games_pickle_and_deep_copy_mid_match(name, players, version):
    """OpenSpiel serialises states with pickle; compiled classes need their own reduce."""
    g = dominohall.new_game(name, players=players, seed=7, _version=version)
    play(g, 25)
    for copied in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), g.clone()):
        assert copied.state is not g.state
        assert [copied.view(s) for s in range(players)] == [g.view(s) for s in range(players)]
        play(copied, 400)
        twin = dominohall.replay(g.to_record())
        play(twin, 400)
        assert copied.to_record() == twin.to_record()      # the same future deals and draws
    assert dominohall.replay(g.to_record()).view(0) == g.view(0)   # the original untouched


def test_a_sampled_world_pickles():
    import random
    g = dominohall.new_game("all_fives", players=2, seed=3)
    play(g, 5)
    w = dominohall.sample_world(g.view(g.current_seat), random.Random(1))
    assert pickle.loads(pickle.dumps(w)).view(g.current_seat) == w.view(g.current_seat)
