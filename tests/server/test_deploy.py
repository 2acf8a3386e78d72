"""docs/deploy.md's recipe: its HAProxy configuration (only the ports changed) in front
of two nodes on one PostgreSQL database, and a match played through it."""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import shutil
import subprocess
import time
import urllib.request

import pytest

from .cluster_players import WsPlayer, check_acknowledged, leaks
from .conftest import Server, free_port, missing_peer

DEPLOY = pathlib.Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
HAPROXY = "/usr/sbin/haproxy"


def documented_config() -> str:
    blocks = re.findall(r"```haproxy\n(.*?)```", DEPLOY.read_text(), re.S)
    assert len(blocks) == 1, "docs/deploy.md shows one HAProxy configuration"
    return blocks[0]


class Proxy(Server):
    """HAProxy with the documented configuration, in front of `nodes`."""

    def __init__(self, tmp: pathlib.Path, nodes: list[Server]) -> None:
        self.port, self.tmp = free_port(), tmp
        config = documented_config()
        config, n = re.subn(r"bind 127\.0\.0\.1:\d+", f"bind 127.0.0.1:{self.port}", config)
        assert n == 1
        servers = iter(nodes)
        config, n = re.subn(r"(server node\d+ 127\.0\.0\.1:)\d+",
                            lambda m: f"{m.group(1)}{next(servers).port}", config)
        assert n == len(nodes) == 2
        self.path = tmp / "haproxy.cfg"
        self.path.write_text(config)
        self.proc = None

    def start(self) -> Proxy:
        check = subprocess.run([self.haproxy(), "-c", "-f", str(self.path)],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
        log = open(self.tmp / "haproxy.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen([self.haproxy(), "-db", "-f", str(self.path)],
                                     stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("haproxy exited: " + (self.tmp / "haproxy.log").read_text())
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return self
            time.sleep(0.1)
        raise RuntimeError("haproxy did not start")

    @staticmethod
    def haproxy() -> str:
        return HAPROXY if os.path.exists(HAPROXY) else (shutil.which("haproxy") or HAPROXY)


@pytest.fixture()
def proxy(cluster_db, server_factory, tmp_path):
    if not (os.path.exists(HAPROXY) or shutil.which("haproxy")):
        missing_peer("HAProxy (/usr/sbin/haproxy; apt-get install haproxy)")
    nodes = [server_factory(cluster_db) for _ in range(2)]
    for n in nodes:
        n.start_args = ["--forwarded-allow-ips", "127.0.0.1"]
        n.start()
    p = Proxy(tmp_path, nodes).start()
    try:
        yield p, nodes
    finally:
        p.stop()


def test_a_match_is_played_through_the_documented_haproxy_in_front_of_two_nodes(proxy):
    front, nodes = proxy
    status, t = front.request("POST", "/api/tables", {
        "game": "mexican_train", "options": {"set_max": 6, "hand_size": 7, "rounds": 1},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        "ready_seconds": 0})
    assert status == 201, t
    tid = t["id"]
    invites = {s["seat"]: s["token"] for s in t["seats"] if "token" in s}
    ann, ben = front.claim(tid, invites[0], "Ann"), front.claim(tid, invites[1], "Ben")
    # round robin, no stickiness: these connections land on both nodes
    players = [WsPlayer(front, tid, ann, seed=5), WsPlayer(front, tid, ben, seed=6)]
    watcher = WsPlayer(front, tid, play=False)
    try:
        deadline = time.monotonic() + 120
        while not all(p.done.is_set() for p in [*players, watcher]):
            assert time.monotonic() < deadline, [len(p.messages) for p in [*players, watcher]]
            time.sleep(0.2)
    finally:
        for p in [*players, watcher]:
            p.close()
    status, record = front.request("GET", f"/api/tables/{tid}/record")
    assert status == 200, record
    assert check_acknowledged(record, players) > 5
    for seat, p in ((0, players[0]), (1, players[1]), (None, watcher)):
        assert not leaks(record, seat, p.messages)
    for node in nodes:                  # both nodes served the table and agree
        _, r = node.request("GET", f"/api/tables/{tid}/record")
        assert r["actions"] == record["actions"]
    owners = {n.port: n.request("GET", f"/api/tables/{tid}")[1]["status"] for n in nodes}
    assert set(owners.values()) == {"over"}
