"""uvicorn's HTTP protocol with a deadline for each request's head (issue 26, *Connections*).

uvicorn closes a keep-alive connection that stays silent after a response
(``timeout_keep_alive``: the idle timeout), but it set no timer on a fresh connection, and any
byte received cancels the idle one: a client that connects and says nothing, or sends its
headers a byte every few seconds, held a connection (and a file descriptor) for as long as
it liked; 1,100 of them under ``ulimit -n 1024`` locked every new client out.

:func:`protocol_class` gives uvicorn's httptools protocol with one addition: the head of
each request (request line and headers) must have arrived ``header_timeout`` seconds after
the connection opened or the previous response ended, else the connection is closed.  A
request being answered (a long poll) and a WebSocket, once upgraded, are not timed by it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("zhuoji.server")

#: seconds a client has to send a request's head (the request line and every header)
HEADER_TIMEOUT = 10.0
#: seconds a keep-alive connection may stay silent between requests (uvicorn's setting)
IDLE_TIMEOUT = 5


def protocol_class(header_timeout: float = HEADER_TIMEOUT) -> type[asyncio.Protocol] | str:
    """The ``http`` setting for :class:`uvicorn.Config`: uvicorn's httptools protocol with
    the head deadline, or ``"auto"`` (with a warning) where httptools is missing."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError as exc:
        log.warning("no header timeout (%s): uvicorn's own HTTP protocol serves", exc)
        return "auto"

    class HeadDeadlineProtocol(HttpToolsProtocol):
        """See the module docstring."""

        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and not self.pipeline:
                self._arm()  # the next request's head

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _too_slow(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

    return HeadDeadlineProtocol
