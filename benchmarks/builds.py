"""Both engine builds in one benchmark run: a worker process per build, driven in turn.

The pure-Python engine and the mypyc-compiled one cannot share a process (they are the
same modules), so a benchmark starts one worker per build and sends them the rows to
measure, interleaved round by round; each worker counts its own CPU time and keeps its
warm caches between rounds.

* pure: this interpreter with the repository's ``src`` first on ``sys.path`` (sources
  only: the tree never holds compiled files, see .gitignore);
* compiled: ``--compiled-python PYTHON`` (an environment with the wheel installed, e.g.
  ``.venv-compiled/bin/python`` after ``.ci/run``), or by default an in-place mypyc build
  of ``src`` in ``build/bench-compiled/`` (about 20 s, redone only when the sources
  change; needs mypy, from the test extra, and a C compiler);
* base: ``--baseline-src DIR``, the pure engine of another source tree, e.g. ``main``'s
  (``git archive main src | tar -x -C /tmp/main``, then ``--baseline-src /tmp/main/src``),
  so that a change's effect on the pure engine is measured side by side, not across runs.

A worker is the benchmark script itself run with ``--worker``: it reads one JSON request
per line and answers one JSON line.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
from collections.abc import Callable
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
CACHE = ROOT / "build" / "bench-compiled"
# the modules setup.py compiles (read from it, so the two cannot drift apart)
_SETUP = (ROOT / "setup.py").read_text()
COMPILED_MODULES: list[str] = ast.literal_eval(
    _SETUP.split("\nCOMPILED = ", 1)[1].split("\n", 1)[0])
COMPILED_BOTS: list[str] = ast.literal_eval(
    _SETUP.split("\nCOMPILED_BOTS = ", 1)[1].split("\n", 1)[0])

BUILDS = ("pure", "compiled", "base")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--builds", default="pure,compiled",
                   help="engine builds to measure, comma-separated (default pure,compiled)")
    p.add_argument("--compiled-python", metavar="PYTHON",
                   help="an interpreter with the compiled wheel installed (default: build "
                        "the engine in place under build/bench-compiled/)")
    p.add_argument("--baseline-src", metavar="DIR",
                   help="also measure the pure engine of this source tree (build 'base'), "
                        "e.g. main's src/ from git archive")
    p.add_argument("--worker", choices=BUILDS, help=argparse.SUPPRESS)


def builds(args: argparse.Namespace) -> list[str]:
    chosen = [b.strip() for b in args.builds.split(",") if b.strip()]
    bad = [b for b in chosen if b not in BUILDS]
    if bad or not chosen or "base" in chosen:
        raise SystemExit(f"--builds: choose from pure, compiled, not {args.builds!r} "
                         "(--baseline-src adds base)")
    if args.baseline_src:
        chosen.append("base")
    return chosen


def compiled_tree() -> pathlib.Path:
    """A copy of src/ with the engine (and the Block search, setup.py's COMPILED_BOTS)
    compiled in place by mypyc (cached by content)."""
    digest = hashlib.sha256()
    for path in sorted(SRC.rglob("*.py")):     # the whole copy must be current, not only
        digest.update(str(path).encode() + path.read_bytes())   # the engine

    digest.update(_SETUP.encode())
    tree = CACHE / digest.hexdigest()[:16]
    if (tree / "ok").exists():
        return tree
    print("  building the compiled engine in place with mypyc (once per engine change) ...",
          file=sys.stderr, flush=True)
    shutil.rmtree(CACHE, ignore_errors=True)
    shutil.copytree(SRC, tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    files = [f"dominohall/engine/{m}.py" for m in COMPILED_MODULES]
    files += [f"dominohall/bots/{m}.py" for m in COMPILED_BOTS]
    r = subprocess.run([sys.executable, "-m", "mypyc", "--config-file", "../pyproject.toml",
                        *files], cwd=tree / "src", capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"mypyc failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    (tree / "ok").write_text("")
    return tree


class Worker:
    """One engine build in its own process."""

    def __init__(self, script: str, build: str, compiled_python: str | None = None,
                 baseline_src: str | None = None) -> None:
        env = dict(os.environ)
        python = sys.executable
        if build == "pure":
            path = str(SRC)
        elif build == "base":
            path = str(pathlib.Path(baseline_src or "").resolve())
        elif compiled_python:
            python, path = compiled_python, ""
        else:
            path = str(compiled_tree() / "src")
        if path:
            env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
        self.build = build
        self.proc = subprocess.Popen([python, script, "--worker", build], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = self.call(op="hello")
        if hello["compiled"] != (build == "compiled") or (
                build == "base" and not hello["file"].startswith(path)):
            raise SystemExit(f"the {build} worker runs the "
                             f"{'compiled' if hello['compiled'] else 'pure'} engine "
                             f"({hello['file']})")

    def call(self, **request: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.build} worker died (see its traceback above)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def start(script: str, args: argparse.Namespace) -> dict[str, Worker]:
    return {b: Worker(script, b, args.compiled_python, args.baseline_src)
            for b in builds(args)}


def serve(handler: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    """The worker's loop: JSON requests on stdin, JSON answers on stdout."""
    import dominohall.engine

    out = sys.stdout
    sys.stdout = sys.stderr               # anything else printed goes to the terminal
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "hello":
            answer = {"compiled": dominohall.engine.COMPILED,
                      "file": dominohall.engine.line_game.__file__}
        else:
            answer = handler(request)
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0
