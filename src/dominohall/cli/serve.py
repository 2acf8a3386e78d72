"""`dominohall serve`: the web app (lobby, tables, bots) on http://127.0.0.1:8000."""

from __future__ import annotations

import argparse
import os
import socket
from typing import Any


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1-65535)") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (1-65535)")
    return port


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="play in the browser: lobby, tables with friends and bots",
        description="Start the web server. Tables live in an SQLite file in your data folder "
                    "(--db FILE, or a postgresql:// URL for a shared server) and survive "
                    "restarts. Example: dominohall serve --port 8000. On the internet: put "
                    "it behind an HTTPS reverse proxy and pass --public-url and "
                    "--behind-https (README: Running a public server).",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only; "
                        "0.0.0.0 exposes the server to your network, so prefer a reverse "
                        "proxy with HTTPS in front of it)")
    p.add_argument("--port", type=port_number, default=8000, help="port 1-65535 (default 8000)")
    p.add_argument("--db", default=os.environ.get("DOMINOHALL_DB"),
                   help="SQLite file or postgresql:// URL (default: dominohall.sqlite3 in the "
                        "user data folder, or $DOMINOHALL_DB)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address players use, e.g. https://dominoes.example.org: invite "
                        "links are built from it (not from the request's Host header)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="another origin whose pages may open game websockets (repeatable; "
                        "default: only the server's own)")
    p.add_argument("--behind-https", action="store_true",
                   help="the server is reached through HTTPS: cookies get Secure (and HSTS)")
    p.add_argument("--forwarded-allow-ips", metavar="IPS", default=None,
                   help="trust X-Forwarded-For/-Proto from these proxy addresses "
                        "(comma-separated; default: none)")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                   help="change a limit (repeatable): create_per_minute, join_per_minute, "
                        "connect_per_minute, max_tables, conns_per_table, conns_per_address, "
                        "tables_per_address, bot_tables_per_address, strong_bots_per_address, "
                        "idle_seconds, "
                        "finished_seconds (0 turns a rate off)")
    p.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                   help="pause before each bot move, so people can follow (default 0.6)")
    p.add_argument("--bot-workers", type=int, default=max(1, (os.cpu_count() or 2)),
                   help="bot worker processes (default: one per core)")
    p.add_argument("--bot-threads", action="store_true",
                   help="run bots in threads instead of worker processes")
    p.add_argument("--node-name", metavar="NAME", default=os.environ.get("DOMINOHALL_NODE"),
                   help="this node's name in a cluster (several servers on one postgresql:// "
                        "database; default: host name and process id)")
    p.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="close a connection that has not sent a whole request head within "
                        "this many seconds (slow clients, 'slowloris'; default 10)")
    p.add_argument("--idle-timeout", type=float, default=5.0, metavar="SECONDS",
                   help="close an idle kept-alive HTTP connection after this many seconds "
                        "(default 5; websockets are pinged every 20 s instead)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.settings import ServerSettings
        from ..server.store import StoreError, describe, is_postgres, open_store
        from ..server.tables import Limits, LocalDirectory
    except ImportError as err:
        raise SystemExit(f"dominohall: error: the web server needs the 'web' extra "
                         f"(pip install -e '.[web]'): {err}") from None
    if not (args.header_timeout > 0 and args.idle_timeout > 0):
        raise SystemExit("dominohall: error: --header-timeout and --idle-timeout are "
                         "seconds > 0")
    try:
        limits = Limits.parse(args.limit)
    except ValueError as err:
        raise SystemExit(f"dominohall: error: --limit {err}") from None
    try:                    # fail here with a clear message, not inside the server's startup
        store = open_store(args.db)
        try:
            if not is_postgres(args.db):    # one node per SQLite file
                lock = LocalDirectory(store)
                lock.start()
                lock.stop()
        finally:
            store.close()
    except (StoreError, OSError) as err:
        raise SystemExit(f"dominohall: error: {err}") from None
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as err:
        sock.close()
        raise SystemExit(f"dominohall: error: cannot listen on {args.host}:{args.port}: "
                         f"{err.strerror or err}") from None
    settings = ServerSettings(db=args.db, bot_delay=args.bot_delay, bot_workers=args.bot_workers,
                              bot_processes=not args.bot_threads, limits=limits,
                              public_url=args.public_url,
                              allow_origins=tuple(args.allow_origin),
                              behind_https=args.behind_https, node_name=args.node_name)
    app = create_app(settings=settings)
    print(f"dominohall: tables in {describe(args.db)}")
    shown = args.public_url or f"http://{args.host}:{args.port}/"
    print(f"dominohall: open {shown} in a browser", flush=True)
    from ..server.slow import timed_http
    config = uvicorn.Config(app, log_level=args.log_level, ws_ping_interval=20,
                            http=timed_http(args.header_timeout),
                            timeout_keep_alive=args.idle_timeout,
                            ws_ping_timeout=20, ws_max_size=1024 * 1024,
                            proxy_headers=args.forwarded_allow_ips is not None,
                            forwarded_allow_ips=args.forwarded_allow_ips or "")
    uvicorn.Server(config).run(sockets=[sock])
    return 0
