"""Fuzz the REST API from its own OpenAPI description (schemathesis): no input, however
odd, gets a 5xx.  Runs against the real server (a subprocess), with a bounded number of
examples per operation so it stays well under a minute."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import schemathesis
    from hypothesis import HealthCheck, settings

from dominohall.server.app import create_app

from .conftest import Server

schema = schemathesis.openapi.from_dict(create_app(":memory:").openapi())


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    server = Server(str(tmp / "fuzz.sqlite3"), tmp)
    # rate limits off for the fuzzer's own address, so it reaches every code path
    server.start_args = ["--limit", "create_per_minute=0", "--limit", "join_per_minute=0"]
    server.start()
    _, t = server.request("POST", "/api/tables", {
        "game": "draw", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        "take_seat": 0, "name": "Ann"})
    yield server, t["id"]
    server.stop()


@schema.parametrize()
@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_input_gets_a_5xx(case, live):
    server, tid = live
    if "table_id" in (case.path_parameters or {}) and hash(repr(case.body)) % 2:
        case.path_parameters["table_id"] = tid      # half the cases hit a real table
    response = case.call(base_url=server.url, timeout=20)
    assert response.status_code < 500, (response.status_code, response.text[:500])
    assert response.headers.get("x-content-type-options") == ["nosniff"]
