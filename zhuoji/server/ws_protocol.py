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

The way in has a shortcut too (``scope["extensions"]["zhuoji.receive_text"]``, an async
function): a client's next text message read without waking the connection's task through
uvicorn's ``asyncio.Queue``, its ``receive`` and Starlette's (three layers of Python per
message).  Once the application has asked for it, the whole text frames that
:meth:`data_received` reads itself wait in a deque of the protocol's, and the task waiting
for one is woken by a plain future.  Everything else — the connect and disconnect events,
binary and fragmented messages, whatever websockets parses — still goes through the ASGI
queue, and a text is put in the deque only while that queue is empty, so every message
in the deque came before every one in the queue: the function answers None when the deque
is empty and the queue is not, and the application then reads through ASGI as before.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import struct
from typing import Any

log = logging.getLogger("zhuoji.server")

#: the ASGI scope extension a WebSocket connection offers (see the module docstring)
SEND_TEXT_UTF8 = "zhuoji.send_text_utf8"

#: the ASGI scope extension reading a client's next text message (see the module docstring)
RECEIVE_TEXT = "zhuoji.receive_text"

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


class _WakingQueue(asyncio.Queue[Any]):
    """uvicorn's ASGI receive queue that also wakes a task waiting in
    :meth:`_TextInbox.receive_text` (which then answers None: read through ASGI)."""

    def __init__(self, wake: Any) -> None:
        super().__init__()
        self._wake = wake

    def put_nowait(self, item: Any) -> None:
        super().put_nowait(item)
        self._wake()


class _TextInbox:
    """The way in of :class:`DirectSendProtocol <_direct_send_class>` (the module
    docstring): the texts its ``data_received`` reads itself, waiting for the application's
    :meth:`receive_text`.  Mixed into uvicorn's protocol, whose ``queue``, ``loop``,
    ``transport``, ``read_paused`` and ``disconnected`` it reads."""

    queue: asyncio.Queue[Any]
    loop: asyncio.AbstractEventLoop
    transport: Any
    read_paused: bool
    disconnected: bool

    def _inbox_start(self) -> None:
        # texts read by data_received for receive_text, once the app has asked for one
        self._inbox: collections.deque[str] = collections.deque()
        self._inbox_waiter: asyncio.Future[None] | None = None
        self._fast_reader = False

    def _wake_reader(self) -> None:
        waiter = self._inbox_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def receive_text(self) -> str | None:
        """The client's next text message read by ``data_received``; None when a message
        (or the disconnect) waits in the ASGI queue instead: the caller then reads it
        through ASGI (it came after everything this function gave)."""
        self._fast_reader = True
        inbox = self._inbox
        while not inbox:
            if not self.queue.empty() or self.disconnected:
                return None
            waiter = self._inbox_waiter = self.loop.create_future()
            try:
                await waiter
            finally:
                self._inbox_waiter = None
        text = inbox.popleft()
        if self.read_paused and not inbox and self.queue.empty():
            self.read_paused = False
            self.transport.resume_reading()
        return text


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

    class DirectSendProtocol(_TextInbox, WebSocketsSansIOProtocol):
        """See the module docstring."""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            missing = [n for n in _NEEDED if not hasattr(self, n)]
            self._direct = not missing
            self._between = False  # websockets' parser is between frames (data_received)
            self._inbox_start()
            if missing:  # checked on a live instance: the attributes are set in __init__
                log.warning("WebSocket direct send off: uvicorn has no %s", ", ".join(missing))
            elif self.queue.empty():  # nothing was put in it yet (it is made in __init__)
                self.queue = _WakingQueue(self._wake_reader)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if self._direct and scope is not None:  # the app's task has not run yet
                extensions = scope.setdefault("extensions", {})
                extensions[SEND_TEXT_UTF8] = self.send_text_utf8
                if isinstance(self.queue, _WakingQueue):
                    extensions[RECEIVE_TEXT] = self.receive_text

        def data_received(self, data: bytes) -> None:
            """A client's bytes.  What is only whole text frames (a client's messages) is
            read here (:func:`client_text_frames`) and queued for the app: in the deque of
            :meth:`receive_text` once the app reads that way and the ASGI queue is empty,
            else in the ASGI queue as uvicorn does; reading stops only once
            :data:`READ_QUEUE_LIMIT` messages wait, not after each.
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
                    if self._fast_reader and queue.empty():  # for receive_text
                        inbox = self._inbox
                        inbox.extend(texts)
                        self._wake_reader()
                        waiting = len(inbox)
                    else:
                        for text in texts:
                            queue.put_nowait({"type": "websocket.receive", "text": text})
                        waiting = queue.qsize()
                    if waiting >= READ_QUEUE_LIMIT and not self.read_paused:
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
