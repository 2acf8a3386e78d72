"""PostgreSQL restarts mid-game: the server reconnects (psycopg_pool) and the game goes on.

The test starts its own PostgreSQL cluster (initdb / pg_ctl in a temporary folder, on
a free port; as the postgres user when run as root, like .ci/run) so it can restart it.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from .conftest import Watcher, free_port, missing_peer
from .helpers import play_humans


def pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                   else 0)
    if found:
        return found[-1].parent
    which = shutil.which("pg_ctl")
    return Path(which).parent if which else None


class Cluster:
    def __init__(self) -> None:
        bin_ = pg_bin()
        if bin_ is None or not (bin_ / "initdb").exists():
            missing_peer("PostgreSQL's initdb/pg_ctl (/usr/lib/postgresql/*/bin)")
        assert bin_ is not None
        self.bin = bin_
        self.dir = Path(tempfile.mkdtemp(prefix="dominohall-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.as_pg: list[str] = []
        if os.getuid() == 0:
            shutil.chown(self.dir, "postgres")
            self.as_pg = ["runuser", "-u", "postgres", "--"]
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")

    def run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_pg, str(self.bin / tool), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def start(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-o",
                 f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1", "start")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def remove(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture()
def cluster():
    c = Cluster()
    c.start()
    yield c
    c.remove()


def test_a_postgres_restart_mid_game_and_the_game_goes_on(server_factory, cluster):
    rng = random.Random(5)
    server = server_factory(cluster.dsn).start()
    _, t = server.request("POST", "/api/tables", {
        "game": "mexican_train", "options": {"set_max": 6, "hand_size": 5, "rounds": 6},
        "ready_seconds": 0, "away_seconds": 3600, "take_seat": 0, "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                  {"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    tid = t["id"]
    tokens = {0: t["seat_token"], 2: server.claim(tid, t["seats"][2]["token"], "Ben")}
    with Watcher(server, tid):
        assert play_humans(server, tid, tokens, 3, rng)
        _, before = server.request("GET", f"/api/tables/{tid}/view")
        cluster.stop()
        time.sleep(0.5)                         # an action now waits for the database
        cluster.start()
        assert play_humans(server, tid, tokens, 4, rng)     # the game goes on
        _, after = server.request("GET", f"/api/tables/{tid}/view")
    assert after["version"] >= before["version"] + 4
    import psycopg

    with psycopg.connect(cluster.dsn) as db:
        stored = [r[0] for r in db.execute(
            "SELECT action FROM dh_actions WHERE table_id = %s ORDER BY seq", (tid,))]
    _, now = server.request("GET", f"/api/tables/{tid}/view")
    assert len(stored) == now["version"]                 # every accepted action is stored
