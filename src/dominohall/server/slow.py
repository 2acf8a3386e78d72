"""Slow clients (slowloris): uvicorn waits forever for a request's headers, so a few
hundred connections that send a byte now and then hold every file descriptor.

:class:`TimedHttp` is uvicorn's httptools protocol with one more timer: a connection
must deliver a whole request head within ``header_timeout`` seconds of opening (or of
its first byte of a new request on a kept-alive connection), or it is closed.  Idle
kept-alive connections close after uvicorn's ``timeout_keep_alive``.  ``dominohall
serve --header-timeout S --idle-timeout S`` sets both; behind a proxy, let the proxy
time out slow clients too (README: Running a public server)."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: seconds a client has to send a request's headers (``serve --header-timeout``)
HEADER_TIMEOUT = 10.0
#: seconds an idle kept-alive connection stays open (``serve --idle-timeout``)
IDLE_TIMEOUT = 5.0


def timed_http(header_timeout: float) -> type[HttpToolsProtocol]:
    """The HTTP protocol class for uvicorn's ``http=`` with this header timeout."""
    return type("TimedHttp", (TimedHttp,), {"header_timeout": header_timeout})


class TimedHttp(HttpToolsProtocol):
    header_timeout: float = HEADER_TIMEOUT
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._head_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n"
                                 b"connection: close\r\n\r\n")
            self.transport.close()
