"""Every public factory of dominohall.rl works twice in one process.

``dominohall.rl.pettingzoo_env`` used to share its name with the submodule that held it:
the first call imported the submodule, which replaced the package attribute, and the
second call raised ``TypeError: 'module' object is not callable``.  A fresh interpreter
calls each factory twice (a training env and an evaluation env), and a scan of the whole
package checks that no package defines a name that one of its submodules would shadow.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

from peers import need

need("numpy", "gymnasium", "pettingzoo", "pyspiel")

import dominohall  # noqa: E402

TWICE = r"""
import gymnasium, pyspiel
import dominohall.rl as rl
from dominohall.rl.gym_env import ENV_IDS
for _ in range(2):
    for game in ("mexican_train", "all_fives", "draw", "block"):
        env = rl.pettingzoo_env(game, players=2, seed=1)
        env.reset(seed=1)
        g = dominohall.new_game(game, players=2, seed=1)
        rl.Observer(g).observe(g.view(0))
        rl.action_spec(g)
    for env_id in ENV_IDS:
        gymnasium.make(env_id).reset(seed=1)
    for name in ("python_dominohall_mexican_train", "python_dominohall_all_fives",
                 "python_dominohall_block"):
        pyspiel.load_game(name).new_initial_state()
print("ok")
"""


def test_every_public_rl_factory_works_twice_in_one_process():
    r = subprocess.run([sys.executable, "-c", "import dominohall\n" + TWICE],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("ok")


def _package_names(init: pathlib.Path) -> set[str]:
    """Names a package's __init__ binds itself (defs, classes, assignments, imports of
    names from elsewhere) -- not the submodules it imports."""
    out: set[str] = set()
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            out |= {a.asname or a.name for a in node.names}
    return out


def test_no_package_attribute_is_shadowed_by_a_submodule():
    root = pathlib.Path(dominohall.__file__).parent
    clashes = []
    for init in root.rglob("__init__.py"):
        pkg = init.parent
        subs = {p.stem for p in pkg.glob("*.py") if p.stem != "__init__"}
        subs |= {p.name for p in pkg.iterdir() if (p / "__init__.py").exists()}
        for name in _package_names(init) & subs:
            clashes.append(f"{pkg.relative_to(root.parent)}: {name}")
    assert clashes == []
