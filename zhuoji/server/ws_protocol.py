"""uvicorn's WebSocket protocol with a direct way out for the table server's messages.

Every committed change sends each connected seat its whole view, about four frames per
engine action (docs/server.md, *Load*).  Through ASGI each frame went: orjson's UTF-8
bytes turned into a ``str`` (views hold Chinese names), a task woken to send it, Starlette's
``send_text``, its exception-handling wrapper and uvicorn's ``send`` (which encodes the text
back to UTF-8), then websockets' framing and the ``write`` system call.

:class:`DirectSendProtocol` is uvicorn's own sans-I/O protocol (``websockets-sansio``, the
one uvicorn picks by itself) that also offers the application, in the connection's ASGI
scope (``scope["extensions"]["zhuoji.send_text_utf8"]``), a plain function that writes one
text frame from UTF-8 bytes at once: a frame header it writes itself (websockets' framing,
and its compression, when the client negotiated permessage-deflate) and the same
transport, no ``str`` round trip, no task, no await.  It answers
False when it cannot write now (the handshake is not done, a close was sent, the
connection is gone, or the transport asked for a pause): the caller then uses the ASGI
``send`` as any application does, which waits for the transport.  An application served by
another server (a test client) finds no such extension and only uses ASGI.

It relies on attributes of uvicorn's class (``conn``, ``transport``, ``writable``, …);
:func:`protocol_class` checks they are there and falls back to uvicorn's ``"auto"``
otherwise, so a uvicorn that changed them still serves (without the shortcut).
"""

from __future__ import annotations

import asyncio
import logging
import struct
from typing import Any

log = logging.getLogger("zhuoji.server")

#: the ASGI scope extension a WebSocket connection offers (see the module docstring)
SEND_TEXT_UTF8 = "zhuoji.send_text_utf8"

#: what :class:`DirectSendProtocol` reads of uvicorn's instance
_NEEDED = ("conn", "transport", "writable", "disconnected", "close_sent", "handshake_complete")


def protocol_class() -> type[asyncio.Protocol] | str:
    """The ``ws`` setting for :class:`uvicorn.Config`: :class:`DirectSendProtocol` when the
    installed uvicorn and websockets have what it uses, else ``"auto"``."""
    try:
        cls = _direct_send_class()
    except (ImportError, AttributeError) as exc:  # another uvicorn: serve without it
        log.warning("WebSocket direct send unavailable (%s); using uvicorn's own", exc)
        return "auto"
    return cls


def text_frame_header(length: int) -> bytes:
    """The header of an unmasked, unfragmented text frame of ``length`` payload bytes, as a
    server sends it (RFC 6455, section 5.2: FIN and opcode 1, then the 7-bit length, or 126
    and 16 bits, or 127 and 64 bits)."""
    if length < 126:
        return bytes((0x81, length))
    if length < 65536:
        return _HEADER_16.pack(0x81, 126, length)
    return _HEADER_64.pack(0x81, 127, length)


_HEADER_16 = struct.Struct("!BBH")
_HEADER_64 = struct.Struct("!BBQ")


def _direct_send_class() -> type[asyncio.Protocol]:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import InvalidState
    from websockets.protocol import State

    for name in ("handle_connect", "send"):
        getattr(WebSocketsSansIOProtocol, name)

    class DirectSendProtocol(WebSocketsSansIOProtocol):
        """See the module docstring."""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            missing = [n for n in _NEEDED if not hasattr(self, n)]
            self._direct = not missing
            if missing:  # checked on a live instance: the attributes are set in __init__
                log.warning("WebSocket direct send off: uvicorn has no %s", ", ".join(missing))

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if self._direct and scope is not None:  # the app's task has not run yet
                scope.setdefault("extensions", {})[SEND_TEXT_UTF8] = self.send_text_utf8

        def send_text_utf8(self, payload: bytes) -> bool:
            """Write one text frame of ``payload`` (UTF-8) now; False if it cannot be."""
            if (
                self.disconnected
                or self.close_sent
                or not self.handshake_complete
                or not self.writable.is_set()
            ):
                return False
            conn = self.conn
            if conn.extensions or conn.expect_continuation_frame:  # compression: its framing
                try:
                    conn.send_text(payload)
                except InvalidState:
                    return False
                self.transport.write(b"".join(conn.data_to_send()))
                return True
            if conn.state is not State.OPEN:
                return False
            # the frame as websockets would make it, without its Frame object, its checks
            # and its list of pending writes: a tenth of the frame's CPU (docs/server.md)
            self.transport.write(text_frame_header(len(payload)) + payload)
            return True

    return DirectSendProtocol
