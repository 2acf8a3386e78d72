"""Load benchmark for `dominohall serve` (not a timed test).

Starts the real server on 127.0.0.1 (a temporary SQLite file), creates N tables
(one human seat played by a websocket client, the other seats bots, and one
spectator websocket per table), and for a fixed time measures:

* actions/s accepted by the server (bots and clients together);
* latency from a client sending its action to that client receiving the
  broadcast state with the new version (p50 / p99 / max);
* the server's resident memory (RSS), its bot worker processes included.

    python benchmarks/server_load.py --tables 200 --seconds 30

The rate limits stay on, but the benchmark is one client address creating 200
tables and 400 websockets, so it raises the per-address limits for itself with
``serve --limit`` (printed with the results); everything else is the default.

Bounded on purpose: loopback only, at most 1000 tables and 300 seconds.
Needs the web extra and `websockets` (installed with uvicorn[standard]).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


async def spectator(url: str, stop_at: float, stats: dict) -> None:
    import websockets

    async with websockets.connect(url, max_size=None) as ws:
        while time.monotonic() < stop_at:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at - time.monotonic()))
            except TimeoutError:
                break
            stats["spectator_messages"] += 1


async def human(url: str, token: str, think: float, stop_at: float, stats: dict,
                rng: random.Random) -> None:
    import websockets

    headers = {"X-Seat-Token": token} if token else {}
    async with websockets.connect(url, max_size=None, additional_headers=headers) as ws:
        sent_at: float | None = None
        sent_version = -1
        while time.monotonic() < stop_at:
            try:
                left = max(0.01, stop_at - time.monotonic())
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                break
            m = json.loads(raw)
            if m["type"] == "error":
                stats["errors"] += 1
                sent_at = None
                continue
            if m["type"] != "state":
                continue
            v = m["view"]
            tid = m["table"]["id"]
            stats["first"].setdefault(tid, v["version"])
            stats["last"][tid] = v["version"]
            if sent_at is not None and v["version"] > sent_version:
                stats["latency"].append(time.monotonic() - sent_at)
                sent_at = None
            if v["legal_actions"] and sent_at is None and not v["is_over"]:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_version = v["version"]
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "action", "version": v["version"],
                                          "action": rng.choice(v["legal_actions"])}))


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (the bot workers), in MB."""
    total = 0
    pids = [pid] + [int(p) for p in os.listdir("/proc") if p.isdigit() and _ppid(int(p)) == pid]
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def _ppid(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


# --- the hostile client (--hostile): issue 25's floods beside the honest tables -----------

async def hint_flood(url: str, token: str, sockets: int, stop_at: float, stats: dict) -> None:
    """One seat of a solo table with `sockets` websockets, each asking for a hint at every
    position; the seat plays the hint it gets (a new position, a new hint to work out)."""
    import websockets

    headers = {"X-Seat-Token": token}
    conns = await asyncio.gather(*(websockets.connect(url, max_size=None,
                                                      additional_headers=headers)
                                   for _ in range(sockets)))

    async def drain(c) -> None:         # the other sockets read what they are sent
        try:
            async for raw in c:
                if '"type":"error"' in raw or '"type": "error"' in raw:
                    stats["hint_refusals"] += 1
        except Exception:  # noqa: BLE001 - closed
            pass

    drains = [asyncio.create_task(drain(c)) for c in conns[1:]]
    try:
        main = conns[0]
        while time.monotonic() < stop_at:
            try:
                left = max(0.01, stop_at - time.monotonic())
                raw = await asyncio.wait_for(main.recv(), timeout=left)
            except TimeoutError:
                break
            m = json.loads(raw)
            if m["type"] == "hint" and m.get("action"):
                stats["hints"] += 1
                await main.send(json.dumps({"type": "action", "version": m["version"],
                                            "action": m["action"]}))
            elif m["type"] == "error":
                stats["hint_refusals"] += 1
            elif m["type"] == "state" and m["view"]["legal_actions"] and not m["view"]["is_over"]:
                for c in conns:
                    await c.send('{"type": "hint"}')
    finally:
        for d in drains:
            d.cancel()
        for c in conns:
            c.transport.abort() if hasattr(c, "transport") else None


async def replay_flood(base: str, body: bytes, stop_at: float, stats: dict) -> None:
    """POST /api/replay of a long record, again and again."""
    def one() -> int:
        req = urllib.request.Request(base + "/api/replay", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                r.read()
                return r.status
        except urllib.error.HTTPError as err:
            return err.code
        except OSError:
            return 0
    while time.monotonic() < stop_at:
        status = await asyncio.to_thread(one)
        stats["replays"][status] = stats["replays"].get(status, 0) + 1
        if status != 200:
            await asyncio.sleep(0.05)


async def idle_connections(port: int, n: int, stop_at: float, stats: dict) -> None:
    """`n` connections that send a request head a byte at a time (slowloris), reopened
    whenever the server closes them."""
    async def one() -> None:
        while time.monotonic() < stop_at:
            try:
                _r, w = await asyncio.open_connection(HOST, port)
            except OSError:
                stats["idle_refused"] += 1
                await asyncio.sleep(0.5)
                continue
            stats["idle_opened"] += 1
            try:
                w.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
                while time.monotonic() < stop_at and not w.is_closing():
                    await asyncio.sleep(2.0)
                    w.write(b"X: y\r\n")
                    await w.drain()
            except (OSError, ConnectionError):
                pass
            finally:
                w.close()
    await asyncio.gather(*(one() for _ in range(n)))


def long_record(seed: int) -> bytes:
    """A whole match's record (Mexican Train, 4 players, every round): a replay's most work."""
    from dominohall.engine import new_game
    g = new_game("mexican_train", players=4, seed=seed)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return json.dumps({"record": g.to_record(), "round": 1}).encode()


async def run_clients(players: list[tuple[str, str]], watchers: list[str], think: float,
                      seconds: float, seed: int, server_pid: int,
                      hostile: list | None = None) -> dict:
    stats: dict = {"latency": [], "first": {}, "last": {}, "errors": 0,
                   "spectator_messages": 0, "rss": [], "hints": 0, "hint_refusals": 0,
                   "replays": {}, "idle_opened": 0, "idle_refused": 0}
    stop_at = time.monotonic() + seconds
    rng = random.Random(seed)

    async def sample_rss() -> None:
        while time.monotonic() < stop_at:
            stats["rss"].append(rss_mb(server_pid))
            await asyncio.sleep(1.0)

    attacks = [make(stop_at, stats) for make in (hostile or [])]
    await asyncio.gather(sample_rss(), *attacks, *(spectator(u, stop_at, stats) for u in watchers),
                         *(human(u, tok, think, stop_at, stats, random.Random(rng.random()))
                           for u, tok in players))
    return stats


def attack(port: int, seconds: float, game: str, seed: int) -> int:
    """The hostile client (``--hostile`` runs it in its own process): a hint flood on 4
    solo tables with 29 sockets each, 4 replay floods of a whole match's record and 300
    slow connections, for `seconds`; prints what it got."""
    base = f"http://{HOST}:{port}"
    stats: dict = {"hints": 0, "hint_refusals": 0, "replays": {}, "idle_opened": 0,
                   "idle_refused": 0}
    record = long_record(seed)
    tables = [post(base + "/api/tables", {
        "game": game, "take_seat": 0, "name": "hinter", "hints": True, "ready_seconds": 0,
        "away_seconds": 0, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
        for _ in range(4)]

    async def run() -> None:
        stop_at = time.monotonic() + seconds
        await asyncio.gather(
            *(hint_flood(f"ws://{HOST}:{port}/ws/{t['id']}", t["seat_token"], 29, stop_at,
                         stats) for t in tables),
            *(replay_flood(base, record, stop_at, stats) for _ in range(4)),
            idle_connections(port, 300, stop_at, stats))

    asyncio.run(run())
    print(f"hostile client (own process): {stats['hints']} hints answered, "
          f"{stats['hint_refusals']} refused; replays by status {stats['replays']}; "
          f"slow connections opened {stats['idle_opened']} (refused {stats['idle_refused']})")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--game", default="mexican_train")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--bot-delay", type=float, default=0.3, help="server's pause before a bot move")
    ap.add_argument("--think", type=float, default=0.3, help="the clients' mean think time")
    ap.add_argument("--bot-threads", action="store_true", help="bots in threads, not processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--old-server", action="store_true",
                    help="the server has no --limit (a peer run of an older dominohall)")
    ap.add_argument("--spectators", type=int, choices=(0, 1), default=1,
                    help="a spectator websocket per table (default 1)")
    ap.add_argument("--hostile", action="store_true",
                    help="a hostile client beside the tables: a hint flood (4 solo tables, "
                         "29 sockets each), a replay flood (4 at once) and 300 slow "
                         "connections")
    ap.add_argument("--attack", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.attack:                     # the hostile client, in its own process
        return attack(args.attack, args.seconds, args.game, args.seed)
    if not 1 <= args.tables <= 1000 or not 1 <= args.seconds <= 300:
        ap.error("--tables 1..1000 and --seconds 1..300")
    port = free_port()
    # one address opens everything: the per-address limits are raised for this client only
    extra = 150 if args.hostile else 0      # the hint flood's 116 websockets, same address
    limits = [f"create_per_minute={args.tables * 2 + 10}", f"tables_per_address={args.tables + 10}",
              f"connect_per_minute={args.tables * 4 + extra * 2}",
              f"conns_per_address={args.tables * 2 + 10 + extra}"]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "dominohall.cli", "serve", "--host", HOST, "--port", str(port),
               "--db", os.path.join(tmp, "load.sqlite3"), "--bot-delay", str(args.bot_delay),
               "--log-level", "warning"] + (["--bot-threads"] if args.bot_threads else [])
        if not args.old_server:
            for item in limits:
                cmd += ["--limit", item]
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://{HOST}:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(base + "/api/games", timeout=1).read()
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            players, watchers = [], []
            for i in range(args.tables):
                seats = [{"kind": "human"}] + \
                    [{"kind": "bot", "bot": args.bot}] * (args.players - 1)
                t = post(base + "/api/tables", {"game": args.game, "seats": seats,
                                                "seed": args.seed + i, "away_seconds": 0,
                                                "ready_seconds": 0, "take_seat": 0,
                                                "name": "load"})
                url = f"ws://{HOST}:{port}/ws/{t['id']}"
                # (an older server without seat secrets: the invite token is the credential)
                if args.old_server:         # it reads the seat token only from ?token=
                    players.append((f"{url}?token={t['seats'][0]['token']}", ""))
                else:
                    players.append((url, t["seat_token"]))
                if args.spectators:
                    watchers.append(url)
            attacker = None
            if args.hostile:            # its own process: it must not slow the honest clients
                attacker = subprocess.Popen(
                    [sys.executable, __file__, "--attack", str(port), "--seconds",
                     str(args.seconds + 5), "--game", args.game, "--seed", str(args.seed)],
                    stdout=subprocess.PIPE, text=True)
                time.sleep(5)           # its sockets open and its floods start
            rss_idle = rss_mb(server.pid)
            started = time.monotonic()
            stats = asyncio.run(run_clients(players, watchers, args.think, args.seconds,
                                            args.seed, server.pid))
            elapsed = time.monotonic() - started
            attack_report = attacker.communicate(timeout=120)[0].strip() if attacker else ""
        finally:
            server.terminate()
            server.wait(10)
    actions = sum(stats["last"][t] - stats["first"][t] for t in stats["last"])
    lat = [x * 1000 for x in stats["latency"]]
    print(f"{args.tables} tables of {args.game} ({args.players} seats: 1 websocket client + "
          f"{args.players - 1} {args.bot} bots, + 1 spectator), {elapsed:.0f} s, bot delay "
          f"{args.bot_delay} s, client think {args.think} s, {os.cpu_count()} cores")
    print(f"limits: defaults, except for this one client: {' '.join(limits)}")
    print(f"actions/s: {actions / elapsed:.0f} ({actions} actions; {len(lat)} client actions, "
          f"{stats['errors']} errors)")
    if lat:
        print(f"latency action->broadcast ms: p50 {statistics.median(lat):.1f}  "
              f"p99 {percentile(lat, 99):.1f}  max {max(lat):.1f}")
    if args.hostile:
        print(attack_report)
    rss = stats["rss"] or [float("nan")]
    print(f"server RSS MB (with bot workers): {rss_idle:.0f} after creating the tables, "
          f"peak {max(rss):.0f} under load; spectators received "
          f"{stats['spectator_messages']} messages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
