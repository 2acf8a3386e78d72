"""The cluster on this machine: load over 1, 2 and 3 nodes, and failover times.

    python benchmarks/cluster_load.py load --db postgresql://... --nodes 1 2 3
    python benchmarks/cluster_load.py failover --db postgresql://... --runs 20

Each run starts real ``dominohall serve`` processes on a fresh database of its own made
on the server of ``--db`` (dropped afterwards).

``load``: ``--tables`` two-player Mexican Train tables (double-6, one round; a new table
when one ends) played as fast as the players can; each table's two seats sit on
different nodes when there are several (seat 0 on node i, seat 1 on node i+1), so with
2-3 nodes every action of one of the two players is relayed to its owner.  Measured:
actions/s, the action-to-broadcast latency (a player sends an action; the time until
the *other* player's websocket has the state of that version: relay included), the
database transactions per action (every query is one; a figure the machine's load does
not change), and per node its CPU (user+system seconds per second) and RSS at the end.
The load generator runs on the same two cores.

``failover``: three nodes, a table with two players (on the two nodes that do not own
it), a spectator on the owner, and a bot; mid-round the owner is killed with -9.
Measured: takeover time (kill to the first new version a surviving player sees),
acknowledged actions missing from the final record (lost), and actions stored twice.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit, urlunsplit

SHORT_MT = {"set_max": 6, "hand_size": 7, "rounds": 1}
CLK = os.sysconf("SC_CLK_TCK")


# --- processes -------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Node:
    def __init__(self, db: str, tmp: str, bot_delay: float) -> None:
        for _attempt in range(3):           # a port taken meanwhile: another one
            try:
                self._start(db, tmp, bot_delay)
                return
            except RuntimeError as err:
                error = err
        raise SystemExit(f"a node did not start: {error}")

    def _start(self, db: str, tmp: str, bot_delay: float) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        log_path = os.path.join(tmp, f"node-{self.port}.log")
        log = open(log_path, "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dominohall.cli", "serve", "--port", str(self.port),
             "--db", db, "--bot-delay", str(bot_delay), "--log-level", "warning",
             "--bot-workers", "1", "--bot-threads",
             "--limit", "create_per_minute=0", "--limit", "join_per_minute=0",
             "--limit", "connect_per_minute=0", "--limit", "tables_per_address=1000"],
            stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "DOMINOHALL_DATA_DIR": tmp})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                with open(log_path) as f:
                    raise RuntimeError(f"exited {self.proc.returncode}: {f.read()[-300:]}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return
            time.sleep(0.1)
        raise RuntimeError("no answer in 60 s")

    def cpu(self) -> float:
        """User + system seconds so far."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def request(self, method: str, path: str, body: dict | None = None,
                headers: dict | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@contextlib.contextmanager
def fresh_db(base: str):
    import psycopg

    name = f"dh_bench_{secrets.token_hex(4)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield urlunsplit(urlsplit(base)._replace(path="/" + name))
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def commits(base: str, db: str) -> int:
    """Transactions committed in database `db` since it was made (every query of the
    nodes is one: they run in autocommit), once the stopped nodes' counts are in."""
    import psycopg

    name = urlsplit(db).path.lstrip("/")
    time.sleep(1.0)                     # a backend's statistics reach the view within 1 s
    with psycopg.connect(base, autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = %s",
                           (name,)).fetchone()
    return int(row[0]) if row else 0


def make_table(node: Node, seats: list[dict]) -> tuple[str, dict[int, str]]:
    status, t = node.request("POST", "/api/tables", {
        "game": "mexican_train", "options": SHORT_MT, "seats": seats, "ready_seconds": 0})
    assert status == 201, t
    secrets_ = {}
    for s in t["seats"]:
        if "token" in s:
            status, j = node.request("POST", f"/api/tables/{t['id']}/join",
                                     {"token": s["token"], "name": f"P{s['seat']}"})
            assert status == 200, j
            secrets_[s["seat"]] = j["token"]
    return t["id"], secrets_


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


# --- load ------------------------------------------------------------------------------

class Match:
    """One table being played: who played which version, and when."""

    def __init__(self, tid: str, tokens: dict[int, str]) -> None:
        self.tid, self.tokens = tid, tokens
        self.sent: dict[int, float] = {}         # version played at -> when
        self.by: dict[int, int] = {}             # version played at -> seat
        self.done = asyncio.Event()


async def play_seat(match: Match, s: int, node: Node, rng: random.Random, stop: float,
                    out: dict[str, Any]) -> None:
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{node.port}/ws/{match.tid}?token={match.tokens[s]}"
    async with connect(url, max_size=2**22) as ws:
        while time.monotonic() < stop and not match.done.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            m = json.loads(text)
            if m["type"] != "state":
                continue
            v = m["view"]
            by = match.by.get(v["version"] - 1)
            if by is not None and by != s:          # the other player's action
                at = match.sent.pop(v["version"] - 1, None)
                if at is not None:
                    out["latency"].append(time.perf_counter() - at)
            if v["is_over"]:
                match.done.set()
                return
            if v["legal_actions"] and v["current_seat"] == s:
                legal = v["legal_actions"]
                action = "end" if "end" in legal else rng.choice(legal)
                match.sent[v["version"]] = time.perf_counter()
                match.by[v["version"]] = s
                out["actions"] += 1
                await ws.send(json.dumps({"type": "action", "version": v["version"],
                                          "action": action}))


async def play_table(nodes: list[Node], i: int, stop: float, out: dict[str, Any]) -> None:
    """Tables one after another, two players on (if there are) two nodes."""
    rng = random.Random(i)
    a, b = nodes[i % len(nodes)], nodes[(i + 1) % len(nodes)]
    while time.monotonic() < stop:
        match = Match(*await asyncio.to_thread(make_table, nodes[i % len(nodes)],
                                               [{"kind": "human"}, {"kind": "human"}]))
        await asyncio.gather(play_seat(match, 0, a, rng, stop, out),
                             play_seat(match, 1, b, rng, stop, out))


async def play_all(nodes: list[Node], tables: int, stop: float, out: dict[str, Any]) -> None:
    await asyncio.gather(*(play_table(nodes, i, stop, out) for i in range(tables)))


def load(args: argparse.Namespace) -> list[str]:
    lines = [f"# cluster_load.py load: {args.tables} tables, {args.seconds:g} s a run, "
             f"{os.cpu_count()} cores shared with the load generator and PostgreSQL",
             "nodes  actions/s  p50 ms  p99 ms  db xact/action  per node: CPU s/s, RSS MB"]
    for n in args.nodes:
        with fresh_db(args.db) as db, tempfile.TemporaryDirectory() as tmp:
            nodes = [Node(db, tmp, 0) for _ in range(n)]
            try:
                for x in nodes:             # the first join of a process is slow (imports)
                    make_table(x, [{"kind": "human"}, {"kind": "human"}])
                cpu0 = [x.cpu() for x in nodes]
                out: dict[str, Any] = {"actions": 0, "latency": []}
                t0 = time.monotonic()
                asyncio.run(play_all(nodes, args.tables, t0 + args.seconds, out))
                elapsed = time.monotonic() - t0
                cpu = [(x.cpu() - c) / elapsed for x, c in zip(nodes, cpu0, strict=True)]
                rss = [x.rss_mb() for x in nodes]
            finally:
                for x in nodes:
                    x.stop()
            per_action = commits(args.db, db) / max(1, out["actions"])
        lat = [v * 1000 for v in out["latency"]]
        line = (f"{n:5d}  {out['actions'] / elapsed:9.0f}  {pct(lat, 0.5):6.1f}  "
                f"{pct(lat, 0.99):6.1f}  {per_action:14.1f}  " +
                ", ".join(f"{c:.2f}/{r:.0f}" for c, r in zip(cpu, rss, strict=True)))
        print(line, flush=True)
        lines.append(line)
    return lines


# --- failover --------------------------------------------------------------------------

def failover_once(db_base: str, seed: int, term: bool = False) -> dict[str, Any]:
    """One kill -9 (or, with `term`, SIGTERM) of a table's owner mid-round."""
    from websockets.sync.client import connect

    with fresh_db(db_base) as db, tempfile.TemporaryDirectory() as tmp:
        nodes = [Node(db, tmp, 0.05) for _ in range(3)]
        owner, two, three = nodes
        try:
            tid, tokens = make_table(owner, [{"kind": "human"}, {"kind": "human"},
                                             {"kind": "bot", "bot": "greedy"}])
            rng = random.Random(seed)
            acked: list[tuple[int, str]] = []
            seen: list[tuple[float, int]] = []       # (when, version) of surviving players
            killed_at: list[float] = []
            import threading

            finished = threading.Event()

            def player(s: int, node: Node) -> None:
                pending: tuple[int, str] | None = None
                with connect(f"ws://127.0.0.1:{node.port}/ws/{tid}?token={tokens[s]}",
                             open_timeout=10) as ws:
                    while not finished.is_set():
                        try:
                            m = json.loads(ws.recv(timeout=1))
                        except TimeoutError:
                            continue
                        if m["type"] == "error":
                            pending = None
                            continue
                        if m["type"] != "state":
                            continue
                        v = m["view"]
                        seen.append((time.monotonic(), v["version"]))
                        if pending is not None and v["version"] > pending[0]:
                            acked.append(pending)
                            pending = None
                        if v["is_over"]:
                            finished.set()
                            return
                        if v["current_seat"] == s and v["legal_actions"] and pending is None:
                            legal = v["legal_actions"]
                            action = "end" if "end" in legal else rng.choice(legal)
                            pending = (v["version"], action)
                            ws.send(json.dumps({"type": "action", "version": v["version"],
                                                "action": action}))

            threads = [threading.Thread(target=player, args=(0, two), daemon=True),
                       threading.Thread(target=player, args=(1, three), daemon=True)]
            for t in threads:
                t.start()
            deadline = time.monotonic() + 60
            while not seen or max(v for _, v in seen) < 8:
                if time.monotonic() > deadline:
                    raise RuntimeError("the table did not start")
                time.sleep(0.01)
            before = max(v for _, v in seen)
            if term:
                owner.proc.terminate()
            else:
                owner.proc.kill()
            killed_at.append(time.monotonic())
            owner.proc.wait(10)
            for t in threads:
                t.join(120)
            after = [w for w, v in seen if w > killed_at[0] and v > before]
            status, record = two.request("GET", f"/api/tables/{tid}/record")
            assert status == 200, record
            lost = sum(1 for v, a in acked if v >= len(record["actions"]) or
                       record["actions"][v] != a)
            import psycopg

            with psycopg.connect(db) as conn:
                twice = conn.execute("SELECT count(*) - count(DISTINCT seq) FROM dh_actions "
                                     "WHERE table_id = %s", (tid,)).fetchone()[0]
                stored = conn.execute("SELECT count(*) FROM dh_actions WHERE table_id = %s",
                                      (tid,)).fetchone()[0]
            return {"takeover": (after[0] - killed_at[0]) if after else float("nan"),
                    "acked": len(acked), "lost": lost, "twice": int(twice),
                    "stored": int(stored), "record": len(record["actions"]),
                    "over": finished.is_set()}
        finally:
            for x in nodes:
                x.stop()


def failover(args: argparse.Namespace) -> list[str]:
    how = "stopped with SIGTERM (handing over)" if args.term else "killed -9"
    lines = [f"# cluster_load.py failover: {args.runs} runs, 3 nodes, the owner {how} "
             "mid-round (after version 8)", "run  takeover s  acked  lost  twice  completed"]
    results = []
    for i in range(args.runs):
        r = failover_once(args.db, i, args.term)
        results.append(r)
        line = (f"{i + 1:3d}  {r['takeover']:10.2f}  {r['acked']:5d}  {r['lost']:4d}  "
                f"{r['twice']:5d}  {r['over']}")
        print(line, flush=True)
        lines.append(line)
    times = [r["takeover"] for r in results]
    lines.append(f"takeover p50 {statistics.median(times):.2f} s, max {max(times):.2f} s; "
                 f"lost {sum(r['lost'] for r in results)}, twice "
                 f"{sum(r['twice'] for r in results)}, acknowledged "
                 f"{sum(r['acked'] for r in results)}, completed "
                 f"{sum(r['over'] for r in results)}/{len(results)}")
    print(lines[-1])
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    for name in ("load", "failover"):
        p = sub.add_parser(name)
        p.add_argument("--db", default=os.environ.get("DOMINOHALL_TEST_PG_DSN"),
                       help="a PostgreSQL server URL (a database is made on it per run)")
        p.add_argument("--out", help="also write the results to this file")
    sub.choices["load"].add_argument("--nodes", type=int, nargs="+", default=[1, 2, 3])
    sub.choices["load"].add_argument("--tables", type=int, default=16)
    sub.choices["load"].add_argument("--seconds", type=float, default=20)
    sub.choices["failover"].add_argument("--runs", type=int, default=20)
    sub.choices["failover"].add_argument("--term", action="store_true",
                                         help="SIGTERM instead of kill -9")
    args = ap.parse_args()
    if not args.db:
        raise SystemExit("cluster_load.py: error: --db postgresql://... (or "
                         "DOMINOHALL_TEST_PG_DSN) is needed")
    lines = load(args) if args.what == "load" else failover(args)
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
