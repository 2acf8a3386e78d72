"""Import an optional dependency of the RL adapters: skip without it, fail in CI.

CI sets DOMINOHALL_REQUIRE_PEERS=1, so a missing package fails instead of skipping.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(*names: str) -> list[ModuleType]:
    out = []
    for name in names:
        try:
            out.append(importlib.import_module(name))
        except ImportError:
            if os.environ.get("DOMINOHALL_REQUIRE_PEERS"):
                raise
            pytest.skip(f"{name} is not installed (pip install -e '.[rl]')",
                        allow_module_level=True)
    return out
