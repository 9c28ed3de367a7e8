"""A seat's WebSocket as a listener of its table: the messages it is sent, in order, with
as few frames as the news allows (:class:`WsListener`)."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

from zhuoji.server import wire

QUEUE_LIMIT = 1000  # messages waiting for a slow client before it is disconnected


class WsListener:
    """One WebSocket of one seat: messages wait in order in a deque until they are sent.

    Fewer frames for the same news (every frame costs a system call and the client a
    wake-up; docs/server.md, *Load*): the ``ack`` of the seat's own action rides in the
    state message that shows it (:meth:`ack`), and a state still waiting when a newer one
    comes is replaced by it (every state is the whole view).

    Sending: when the server offers the direct text-frame writer
    (:mod:`zhuoji.server.ws_protocol`), what a change pushed is written once the code that
    pushed it yields to the loop (one callback for every connection with news, after the
    ``ack`` has found its state), as orjson's UTF-8 straight into a text frame.  Whatever that writer cannot
    write now (the transport is paused, or a close) goes through the ASGI ``send`` in the
    connection's sender task, which then drains the deque until it is empty: one of the two
    sends at a time, so the order holds."""

    def __init__(
        self, ws: WebSocket, seat: int, direct: Callable[[bytes], bool] | None = None
    ) -> None:
        self.ws = ws
        self.seat = seat
        # messages to send, then possibly (code, reason) to close the connection with
        self.pending: collections.deque[dict[str, Any] | tuple[int, str]] = collections.deque()
        self._wakeup: asyncio.Future[None] | None = None
        self.closing = False
        self._direct = direct  # the server's text-frame writer (SEND_TEXT_UTF8), if any
        self._flushing = False  # a direct flush is scheduled
        self._slow = self._direct is None  # the sender task drains the deque

    def push(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        pending = self.pending
        if pending and message.get("type") == "state":
            last = pending[-1]
            if isinstance(last, dict) and last.get("type") == "state" and "ack" not in last:
                pending[-1] = message  # the newer view says all the older one did
                return
        if len(pending) >= QUEUE_LIMIT:
            # a client this far behind resynchronizes on reconnect (every state is complete)
            pending.popleft()
            self.close(1013, "client too slow; reconnect")
            return
        pending.append(message)
        self._wake()

    def ack(self, rid: Any, seq: int | None) -> None:
        """Acknowledge the seat's request ``rid``: in the state message still waiting to be
        sent if there is one (it is the seat's latest view, so it shows the action), else on
        its own (``{"type": "ack", "id", "seq"}``)."""
        if self.closing:
            return
        last = self.pending[-1] if self.pending else None
        if isinstance(last, dict) and last.get("type") == "state" and "ack" not in last:
            self.pending[-1] = {**last, "ack": rid}
            return
        self.push({"type": "ack", "id": rid, "seq": seq})

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self.pending.append((code, reason))
            self._wake()

    def _wake(self) -> None:
        if not self._slow:
            if not self._flushing:
                self._flushing = True
                _flush_soon(self)
            return
        w = self._wakeup
        if w is not None and not w.done():
            w.set_result(None)

    def _flush(self) -> None:
        """Write what waits through the direct writer; hand the rest to the sender task
        (called by :func:`_flush_due`)."""
        self._flushing = False
        pending = self.pending
        direct = self._direct
        while pending and not self._slow and direct is not None:
            message = pending[0]
            if isinstance(message, tuple) or not direct(wire.encode(message)):
                self._slow = True
                self._wake()
                return
            pending.popleft()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        pending = self.pending
        while True:
            if not pending or not self._slow:
                self._wakeup = loop.create_future()
                await self._wakeup
                continue
            message = pending.popleft()
            if isinstance(message, tuple):
                await self.ws.close(code=message[0], reason=message[1])
                return
            await self.ws.send_text(wire.encode_text(message))
            if not pending and self._direct is not None:
                self._slow = False  # the transport took it: write directly again


#: per event loop, the connections with messages for their direct writer, written by one
#: loop callback for them all (a change pushes to every seat of its table at once)
_DUE: dict[asyncio.AbstractEventLoop, list[WsListener]] = {}


def _flush_soon(listener: WsListener) -> None:
    loop = asyncio.get_running_loop()
    due = _DUE.get(loop)
    if due is None:
        due = _DUE[loop] = []
        loop.call_soon(_flush_due, loop)
    due.append(listener)


def _flush_due(loop: asyncio.AbstractEventLoop) -> None:
    for listener in _DUE.pop(loop, ()):
        listener._flush()
