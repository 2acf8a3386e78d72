"""`dominohall serve`: the web app (lobby, tables, bots) on http://127.0.0.1:8000."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help="play in the browser: lobby, tables with friends and bots",
        description="Start the web server. Tables live in an SQLite file in your data folder "
                    "(--db FILE, or a postgresql:// URL for a shared server) and survive "
                    "restarts. Example: dominohall serve --port 8000",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=os.environ.get("DOMINOHALL_DB"),
                   help="SQLite file or postgresql:// URL (default: dominohall.sqlite3 in the "
                        "user data folder, or $DOMINOHALL_DB)")
    p.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                   help="pause before each bot move, so people can follow (default 0.6)")
    p.add_argument("--bot-workers", type=int, default=max(1, (os.cpu_count() or 2)),
                   help="bot worker processes (default: one per core)")
    p.add_argument("--bot-threads", action="store_true",
                   help="run bots in threads instead of worker processes")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.store import StoreError, describe, open_store
    except ImportError as err:
        raise SystemExit(_("dominohall: error: {error}").format(error=_(
            "the web server needs the 'web' extra (pip install -e '.[web]'): {error}").format(
                error=err))) from None
    try:                    # fail here with a clear message, not inside the server's startup
        open_store(args.db).close()
    except (StoreError, OSError) as err:
        raise SystemExit(_("dominohall: error: {error}").format(error=err)) from None
    app = create_app(args.db, bot_delay=args.bot_delay, bot_workers=args.bot_workers,
                     bot_processes=not args.bot_threads)
    print(_("dominohall: tables in {where}").format(where=describe(args.db)))
    print(_("dominohall: open {url} in a browser").format(
        url=f"http://{args.host}:{args.port}/"), flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws_ping_interval=20, ws_ping_timeout=20)
    return 0
