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
_NEEDED = (
    "conn", "transport", "writable", "disconnected", "close_sent", "handshake_complete",
    "queue", "frames", "read_paused", "handshake_initiated",
)  # fmt: skip


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

#: the longest client frame read by :func:`client_text_frames` (longer ones, and every
#: other kind of frame, go through websockets' parser); a client message is at most 4,096
#: characters (``zhuoji.server.routes.socket.MAX_WS_MESSAGE``)
FAST_FRAME_MAX = 16 * 1024

#: messages waiting for the application before a connection stops reading (uvicorn stops
#: after every message and starts again when the app has read it: two system calls each)
READ_QUEUE_LIMIT = 16


def client_text_frames(data: bytes, apply_mask: Any) -> list[str] | None:
    """The texts of ``data`` if it is nothing but whole, unfragmented, masked text frames of
    at most :data:`FAST_FRAME_MAX` bytes with valid UTF-8 and no extension bits (what a
    client sends for each message: RFC 6455, section 5.2); else None, and nothing read."""
    out: list[str] = []
    i, end = 0, len(data)
    while i < end:
        if end - i < 6 or data[i] != 0x81:  # FIN, no RSV bits, opcode 1 (text)
            return None
        second = data[i + 1]
        if not second & 0x80:  # a client's frames are masked
            return None
        length = second & 0x7F
        i += 2
        if length == 126:
            if end - i < 2:
                return None
            length = (data[i] << 8) | data[i + 1]
            i += 2
        elif length == 127:
            return None
        if length > FAST_FRAME_MAX or end - i < 4 + length:
            return None
        mask = data[i : i + 4]
        payload = apply_mask(data[i + 4 : i + 4 + length], mask)
        i += 4 + length
        try:
            out.append(payload.decode("utf-8"))
        except UnicodeDecodeError:
            return None  # websockets fails the connection (1007)
    return out


def whole_frames(data: bytes) -> bool:
    """True if ``data`` ends where a frame ends, read from a frame's start (any frames,
    of any kind and length): websockets, given it, is then between frames again."""
    i, end = 0, len(data)
    while i < end:
        if end - i < 2:
            return False
        second = data[i + 1]
        length = second & 0x7F
        i += 2
        if length == 126:
            if end - i < 2:
                return False
            length = int.from_bytes(data[i : i + 2], "big")
            i += 2
        elif length == 127:
            if end - i < 8:
                return False
            length = int.from_bytes(data[i : i + 8], "big")
            i += 8
        i += (4 if second & 0x80 else 0) + length
    return i == end


def _direct_send_class() -> type[asyncio.Protocol]:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import InvalidState
    from websockets.protocol import State

    try:
        from websockets.speedups import apply_mask
    except ImportError:  # pragma: no cover - websockets built without its C speedups
        from websockets.utils import apply_mask

    for name in ("handle_connect", "send", "data_received"):
        getattr(WebSocketsSansIOProtocol, name)

    class DirectSendProtocol(WebSocketsSansIOProtocol):
        """See the module docstring."""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            missing = [n for n in _NEEDED if not hasattr(self, n)]
            self._direct = not missing
            self._between = False  # websockets' parser is between frames (data_received)
            if missing:  # checked on a live instance: the attributes are set in __init__
                log.warning("WebSocket direct send off: uvicorn has no %s", ", ".join(missing))

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if self._direct and scope is not None:  # the app's task has not run yet
                scope.setdefault("extensions", {})[SEND_TEXT_UTF8] = self.send_text_utf8

        def data_received(self, data: bytes) -> None:
            """A client's bytes.  What is only whole text frames (a client's messages) is
            read here (:func:`client_text_frames`) and queued for the app as uvicorn does;
            reading stops only once :data:`READ_QUEUE_LIMIT` messages wait, not after each.
            Anything else goes through uvicorn and websockets as before.

            This reads a chunk only when websockets' parser is known to be between frames
            (``_between``): from the end of the handshake request, as long as every chunk
            either was read here or held whole frames.  A chunk that ends inside a frame
            (a client's message split by the network) leaves the rest of the connection to
            websockets."""
            conn = self.conn
            if not self._between:
                initiated = self.handshake_initiated
                super().data_received(data)
                # the upgrade request ended this chunk: the frames start with the next one
                self._between = (
                    self._direct
                    and not initiated
                    and self.handshake_initiated
                    and data.endswith(b"\r\n\r\n")
                    and not conn.reader.buffer
                )
                return
            if (
                self.handshake_complete
                and not self.close_sent
                and not conn.extensions
                and conn.current_size is None
                and not self.frames
                and conn.state is State.OPEN
            ):
                texts = client_text_frames(data, apply_mask)
                if texts is not None:
                    queue = self.queue
                    for text in texts:
                        queue.put_nowait({"type": "websocket.receive", "text": text})
                    if queue.qsize() >= READ_QUEUE_LIMIT and not self.read_paused:
                        self.read_paused = True
                        self.transport.pause_reading()
                    return
            self._between = whole_frames(data)
            super().data_received(data)

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
