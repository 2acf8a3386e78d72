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
