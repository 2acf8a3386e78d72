"""Shared helpers for the web server tests: peers (Chromium, PostgreSQL) and a real server."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

REQUIRE = bool(os.environ.get("DOMINOHALL_REQUIRE_PEERS"))
PG_ENV = "DOMINOHALL_TEST_PG_DSN"
CHROMIUM = "/usr/bin/chromium"

collect_ignore_glob: list[str] = []
for _mod in ("fastapi", "uvicorn", "httpx", "websockets"):
    try:
        __import__(_mod)
    except ImportError:
        if REQUIRE:
            raise
        collect_ignore_glob = ["test_*.py"]     # the web extra is not installed: nothing to test


def missing_peer(what: str) -> None:
    """A missing peer fails under DOMINOHALL_REQUIRE_PEERS (CI), else skips."""
    if REQUIRE:
        pytest.fail(f"{what} is required in CI (DOMINOHALL_REQUIRE_PEERS=1)")
    pytest.skip(f"{what} is not available")


@pytest.fixture(scope="session")
def pg_dsn() -> str:
    dsn = os.environ.get(PG_ENV)
    if not dsn:
        missing_peer(f"PostgreSQL (set {PG_ENV}; .ci/run starts one)")
    try:
        import psycopg
    except ImportError:
        missing_peer("psycopg")
    try:
        with psycopg.connect(dsn, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except Exception as err:  # noqa: BLE001
        missing_peer(f"a PostgreSQL server at {dsn} ({err})")
    return dsn


@pytest.fixture()
def pg_url(pg_dsn: str) -> str:
    """A fresh, empty schema-less database state: drop the server's tables first."""
    import psycopg

    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename LIKE 'dh\\_%'")]
        if names:
            conn.execute("DROP TABLE IF EXISTS " + ", ".join(names) + " CASCADE")
    return pg_dsn


@pytest.fixture()
def cluster_db(pg_dsn: str) -> Iterator[str]:
    """A database of its own on the test PostgreSQL server, dropped afterwards."""
    import secrets
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    name = f"dh_cluster_{secrets.token_hex(4)}"
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(pg_dsn)
    yield urlunsplit(parts._replace(path="/" + name))
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        missing_peer("Chromium (/usr/bin/chromium; apt-get install chromium)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing_peer("the playwright Python package")
    return CHROMIUM


ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser(chromium_path):
    """Debian's Chromium through Playwright, one for a test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=ARGS, timeout=60_000)
        yield b
        b.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`dominohall serve` as a subprocess on 127.0.0.1."""

    def __init__(self, db: str, tmp: pathlib.Path, bot_delay: float = 0.02,
                 threads: bool = True) -> None:
        self.db, self.tmp, self.bot_delay, self.threads = db, tmp, bot_delay, threads
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start_args: list[str] = []
        self.log_path = tmp / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        cmd = [sys.executable, "-m", "dominohall.cli", "serve", "--port", str(self.port),
               "--db", self.db, "--bot-delay", str(self.bot_delay), "--log-level", "warning",
               "--bot-workers", "1"]
        if self.threads:
            cmd.append("--bot-threads")
        cmd += self.start_args
        log = open(self.log_path, "ab")  # noqa: SIM115
        env = {**os.environ, "DOMINOHALL_DATA_DIR": str(self.tmp / "data")}
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.returncode}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return self
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill()          # SIGKILL: no shutdown code runs
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def request(self, method: str, path: str, body: dict | None = None,
                headers: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", **(headers or {})}
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=20) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())


    def claim(self, tid: str, invite: str, name: str) -> str:
        """Claim a seat by its invite; returns the seat secret."""
        status, r = self.request("POST", f"/api/tables/{tid}/join",
                                 {"token": invite, "name": name})
        assert status == 200, r
        return str(r["token"])


class Watcher:
    """A spectator websocket that reads everything in a thread (a table with nobody
    connected pauses, so REST-only tests keep one of these open)."""

    def __init__(self, server: Server, tid: str, headers: dict | None = None) -> None:
        from websockets.sync.client import connect

        self._cm = connect(f"ws://127.0.0.1:{server.port}/ws/{tid}",
                           additional_headers=headers or {}, open_timeout=10)
        self.ws = self._cm.__enter__()
        self.messages: list[dict] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                self.messages.append(json.loads(self.ws.recv()))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._cm.__exit__(None, None, None)
        self.thread.join(5)

    def __enter__(self) -> Watcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def children_of(pid: int) -> list[int]:
    """Processes whose parent is `pid` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
    return out


def alive(pid: int) -> bool:
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.fixture()
def server_factory(tmp_path):
    started: list[Server] = []

    def make(db: str | None = None, **kw) -> Server:
        s = Server(db or str(tmp_path / "tables.sqlite3"), tmp_path, **kw)
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


@contextlib.contextmanager
def running_server(tmp_path_factory, name: str, **kw) -> Iterator[Server]:
    """A real server in its own temporary folder, for a module's tests (bots a little
    slow, so a page sees their moves), stopped after them."""
    tmp = tmp_path_factory.mktemp(name)
    s = Server(str(tmp / "tables.sqlite3"), tmp, **{"bot_delay": 0.02, **kw}).start()
    try:
        yield s
    finally:
        s.stop()


def another_browser(client):
    """Another browser at the same in-process app: its own cookie jar, its requests run on
    the app's event loop (the one `client`, entered with ``with``, started it on)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    other = TestClient(client.app)
    other.portal = client.portal
    return other


@contextlib.contextmanager
def in_process_app(db_dir: pathlib.Path, **kw) -> Iterator:
    """The app served in-process by Starlette's TestClient (no sockets), bots instant and
    in-process, on a fresh SQLite file in `db_dir`; closed (store included) afterwards."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from dominohall.server.app import create_app

    app = create_app(str(db_dir / "t.sqlite3"), bot_delay=0, bot_processes=False, **kw)
    with TestClient(app) as client:
        yield client
