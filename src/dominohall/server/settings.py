"""The server's settings: everything ``dominohall serve``'s flags and
:func:`~dominohall.server.app.create_app`'s arguments carry, in one object."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .tables.limits import Limits


@dataclass
class ServerSettings:
    """One server process (node).

    `db`: an SQLite file, a ``postgresql://`` URL, or None (the default file).
    `public_url`: the address players use (invite links are built from it, not from the
    request's Host header; its origin may open websockets).  `allow_origins`: more
    origins whose pages may open websockets.  `behind_https`: cookies get ``Secure``
    (also when a trusted proxy says ``X-Forwarded-Proto: https``) and responses HSTS.
    """

    db: str | None = None
    bot_delay: float = 0.6              # seconds before each bot move, so people can follow
    bot_workers: int = 2
    bot_processes: bool = True          # False: bots think in threads (tests)
    limits: Limits = field(default_factory=Limits)
    public_url: str | None = None
    allow_origins: tuple[str, ...] = ()
    behind_https: bool = False
    db_threads: int = 4                 # threads that talk to the database
    node_name: str | None = None        # this node's name in a cluster (default: host-pid)

    @property
    def public(self) -> str | None:
        """`public_url` without a trailing slash (None: not set)."""
        return (self.public_url or "").rstrip("/") or None

    @property
    def own_origins(self) -> set[str]:
        return {origin(self.public)} if self.public else set()

    @property
    def extra_origins(self) -> set[str]:
        return {origin(o) for o in self.allow_origins}


def origin(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}".lower()
