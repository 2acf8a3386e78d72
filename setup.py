"""Build hook: a regular install compiles the rules engine with mypyc, from the same source.
It compiles the Block/Draw search core of the bots too (`bots/endgame.py`: the exact
alpha-beta solver and the rollouts, where the top bot spends its time).

``pip install .`` and wheels (``pip wheel .``, ``python -m build``) compile the modules of
``COMPILED`` below into C extensions when mypyc and a C compiler are available, and
silently fall back to the pure-Python engine when they are not.  Editable installs
(``pip install -e .``) never compile: compiled files beside the sources would shadow
later edits.  The environment variable ``DOMINOHALL_COMPILE`` decides instead of
"when available":

* ``DOMINOHALL_COMPILE=1``: compile, and fail the build if that is not possible;
* ``DOMINOHALL_COMPILE=0``: never compile (a pure-Python install).

Either way the ``.py`` files are installed too; ``dominohall.engine.COMPILED`` and
``dominohall --version`` say which engine runs.  Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_ext import build_ext

ENV = "DOMINOHALL_COMPILE"

# The engine modules mypyc compiles.  Kept interpreted: actions.py (Action is a str
# subclass, which mypyc cannot compile as a native class; mypy_extensions.mypyc_attr(
# native_class=False) would allow it, but the engine imports only the standard library.
# Its hot tables are plain dicts and lists that the compiled modules read directly: the
# line game's End keeps its PLAYS_ON table, Mexican Train its rows of PLAYS, so a miss is
# the only call into it), options.py (frozen dataclasses, which pickle only interpreted;
# the rules read on every move are copied into plain fields of the states, and option
# resolution is cached), errors.py (exception classes, raised only on bad input) and
# __init__.py.
COMPILED = ["tiles", "chance", "game", "line_game", "mexican_train", "views", "sampling"]
# The bots' modules mypyc compiles: the Block/Draw search (hands as masks, alpha-beta,
# rollouts).  The same moves as interpreted (tests/bots run on both builds), about 1.6x
# the positions a CPU second at 18 tiles left (benchmarks/results/block_dominoes2.txt).
# And the Mexican Train `deep` bot's rollout rule (bots/train_rollout.py, the same moves).
COMPILED_BOTS = ["endgame", "train_rollout"]

# Commands that build the installed package (a wheel, or a plain build/install); metadata,
# sdists and editable installs (editable_wheel, develop) never compile.
_BUILDS = {"bdist_wheel", "build", "build_ext", "install"}


def _mode() -> str:
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("", "auto"):
        return "auto"
    if value in ("1", "true", "yes", "on"):
        return "on"
    if value in ("0", "false", "no", "off"):
        return "off"
    sys.exit(f"{ENV}={value!r}: use 1 (compile), 0 (pure Python) or leave it unset (auto)")


def _say(message: str) -> None:
    print(f"dominohall build: {message}", file=sys.stderr, flush=True)


def _have_c_compiler() -> bool:
    """Can this machine compile a C extension for this Python (compiler and Python.h)?"""
    from distutils.ccompiler import new_compiler
    from distutils.sysconfig import customize_compiler, get_python_inc

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.c")
        with open(probe, "w") as f:
            f.write("#include <Python.h>\nint dominohall_probe(void) { return 0; }\n")
        try:
            compiler.compile([probe], output_dir=tmp, include_dirs=[get_python_inc()])
        except Exception:
            return False
    return True


def _extensions(mode: str) -> list:
    commands = set(sys.argv[1:])
    if mode == "off":
        return []
    if commands & {"editable_wheel", "develop"}:
        if mode == "on":
            sys.exit(f"{ENV}=1, but editable installs never compile (compiled files would "
                     "shadow your edits): install with `pip install .` instead")
        return []
    if not commands & _BUILDS:
        return []
    why = ""
    try:
        from mypyc.build import mypycify
    except ImportError:
        why = "mypyc is not installed"
    else:
        if not _have_c_compiler():
            why = "no working C compiler (or no Python.h)"
    if why:
        if mode == "on":
            sys.exit(f"{ENV}=1, but the engine cannot be compiled: {why}")
        _say(f"{why}: installing the pure-Python engine")
        return []
    paths = [os.path.join("src", "dominohall", "engine", f"{m}.py") for m in COMPILED]
    paths += [os.path.join("src", "dominohall", "bots", f"{m}.py") for m in COMPILED_BOTS]
    try:
        return mypycify(paths, opt_level="3")
    except BaseException as err:      # mypyc reports its errors with SystemExit
        if mode == "on":
            raise
        _say(f"mypyc failed ({err!r}): installing the pure-Python engine")
        return []


class BuildExt(build_ext):
    """build_ext that falls back to pure Python when the C build fails (unless forced)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:
            if _mode() == "on" or not self.extensions:
                raise
            _say(f"compiling the engine failed ({err}): installing the pure-Python engine")
            self.extensions = []
            self.distribution.ext_modules = []


setup(ext_modules=_extensions(_mode()), cmdclass={"build_ext": BuildExt})
