"""The Ray path on a local Ray gives the same results as processes.

Ray is in the `test` extra, so CI (DOMINOHALL_REQUIRE_PEERS=1) always runs this; elsewhere
it skips when Ray is missing.
"""

from __future__ import annotations

import os

import pytest

from dominohall import arena

if os.environ.get("DOMINOHALL_REQUIRE_PEERS"):
    import ray  # noqa: F401  (a missing Ray must fail in CI, never skip)
else:
    pytest.importorskip("ray")


def test_local_ray_matches_jobs_1(tmp_path):
    kw = dict(players=4, bots=["greedy", "random", "random", "random"], deals=3, seed=9,
              options={"rounds": 1})
    on_ray = arena.run("mexican_train", ray="local", jobs=2, out=tmp_path / "ray.json", **kw)
    inline = arena.run("mexican_train", **kw)
    strip = [{k: v for k, v in g.items() if not k.startswith("ms")} for g in inline.games]
    assert [{k: v for k, v in g.items() if not k.startswith("ms")} for g in on_ray.games] == strip
    assert on_ray.complete and arena.load(tmp_path / "ray.json").complete
    import ray
    assert not ray.is_initialized()       # a Ray the arena started is shut down again
