import pathlib
import sys

# test modules import helpers from their own folder (e.g. tests/engine/test_properties.py)
for sub in ("engine",):
    sys.path.insert(0, str(pathlib.Path(__file__).parent / sub))

import os  # noqa: E402

import dominohall.engine  # noqa: E402

# .ci/run's second pass runs the engine, bots, arena and RL tests on the compiled engine
# (a wheel in a second environment) and sets this, so that a silent fall back to the pure
# engine cannot pass for the compiled build.
_EXPECT = os.environ.get("DOMINOHALL_EXPECT_COMPILED")
if _EXPECT is not None:
    assert dominohall.engine.COMPILED == (_EXPECT == "1"), (
        f"DOMINOHALL_EXPECT_COMPILED={_EXPECT}, but dominohall.engine.COMPILED is "
        f"{dominohall.engine.COMPILED} ({dominohall.engine.__file__})")


# ---- the web pages' JavaScript under Node (js/i18n.js, js/words.js, js/table_state.js) ----

import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402

import pytest  # noqa: E402

JS_DIR = pathlib.Path(dominohall.engine.__file__).parents[1] / "server" / "static" / "js"


@pytest.fixture(scope="session")
def node(tmp_path_factory):
    """run(script, data): run `script` (a function body; `data` is the JSON given, `I` the
    i18n module, `W` words.js, `TS` table_state.js) under Node and return what it returns."""
    exe = shutil.which("node") or shutil.which("nodejs")
    if exe is None:
        if os.environ.get("DOMINOHALL_REQUIRE_PEERS"):
            raise AssertionError("node is needed to test the pages' JavaScript (apt nodejs)")
        pytest.skip("node is not installed")
    d = tmp_path_factory.mktemp("js")
    shutil.copytree(JS_DIR, d / "js")
    (d / "package.json").write_text('{"type": "module"}', encoding="utf-8")

    def run(script: str, data: object) -> object:
        (d / "data.json").write_text(json.dumps(data), encoding="utf-8")
        (d / "main.js").write_text(
            "import * as I from './js/i18n.js';\nimport * as W from './js/words.js';\n"
            "import * as TS from './js/table_state.js';\nimport fs from 'fs';\n"
            "const data = JSON.parse(fs.readFileSync(new URL('./data.json', import.meta.url)));\n"
            f"const out = (() => {{ {script} }})();\n"
            "process.stdout.write(JSON.stringify(out));\n", encoding="utf-8")
        r = subprocess.run([exe, str(d / "main.js")], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)
    return run


@pytest.fixture(autouse=True)
def _process_language_restored():
    """A test that runs the CLI with --lang sets the process's language (cli.main does, as a
    real run should): restore it, so later tests do not read Portuguese because of the last
    parametrised language of another module."""
    from dominohall import i18n

    before = i18n._current
    yield
    i18n._current = before
