"""zhuoji.server.ws_protocol: uvicorn's WebSocket protocol with a direct text-frame writer.

Driven here as uvicorn drives it (a transport, the client's bytes in), with websockets'
own client protocol reading what it writes: the writer is offered to the application in
the scope, writes text frames a client reads as the same text (and over permessage-deflate
when negotiated), and refuses — so the application uses the ASGI send — when the transport
is paused or after a close."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("uvicorn")

import uvicorn
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.speedups import apply_mask
from websockets.uri import parse_uri

from zhuoji.server import wire
from zhuoji.server.ws_protocol import (
    READ_QUEUE_LIMIT,
    RECEIVE_TEXT,
    SEND_TEXT_UTF8,
    client_text_frames,
    protocol_class,
    text_frame_header,
    whole_frames,
)


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.out = bytearray()
        self.closing = False

    def write(self, data: Any) -> None:
        self.out += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def _connected(deflate: bool) -> tuple[Any, _Transport, ClientProtocol, dict[str, Any]]:
    """A server protocol after the handshake and the app's accept; the client's parser; the
    scope the app got.  The app is left waiting for the disconnect (:func:`_end`)."""
    scopes: list[dict[str, Any]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        scopes.append(scope)
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await receive()  # websocket.disconnect, at the end of the test

    async def go() -> tuple[Any, _Transport, ClientProtocol, dict[str, Any]]:
        cls = protocol_class()
        assert not isinstance(cls, str), "the installed uvicorn lost the direct writer"
        config = uvicorn.Config(app, ws=cls, ws_per_message_deflate=deflate, lifespan="off")
        config.load()
        server_state = uvicorn.server.ServerState()
        proto = cls(config=config, server_state=server_state, app_state={})  # type: ignore[call-arg]
        transport = _Transport()
        proto.connection_made(transport)
        extensions = [ClientPerMessageDeflateFactory()] if deflate else []
        client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws"), extensions=extensions)
        client.send_request(client.connect())
        proto.data_received(b"".join(client.data_to_send()))
        for _ in range(5):
            await asyncio.sleep(0)
        client.receive_data(bytes(transport.out))
        transport.out.clear()
        assert client.state.name == "OPEN"
        client.events_received()  # the handshake response
        return proto, transport, client, scopes[0]

    loop = asyncio.new_event_loop()
    found = loop.run_until_complete(go())
    _LOOPS[found[0]] = loop
    return found


_LOOPS: dict[Any, asyncio.AbstractEventLoop] = {}


def _end(proto: Any) -> None:
    """Disconnect, let the app return, close its loop."""
    loop = _LOOPS.pop(proto)
    proto.connection_lost(None)
    loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(loop)))
    loop.close()


@pytest.mark.parametrize("deflate", [False, True])
def test_the_writer_sends_text_frames_the_client_reads(deflate: bool) -> None:
    proto, transport, client, scope = _connected(deflate)
    send = scope["extensions"][SEND_TEXT_UTF8]
    for size in (3, 200, 70_000):  # the three header lengths: 7-bit, 16-bit, 64-bit
        message = {"type": "state", "view": {"hand_names": "一万 九筒", "pad": "x" * size}}
        assert send(wire.encode(message)) is True
        client.receive_data(bytes(transport.out))
        transport.out.clear()
        (frame,) = client.events_received()
        assert frame.opcode is Opcode.TEXT
        assert bytes(frame.data).decode("utf-8") == wire.encode_text(message)
    _end(proto)


def test_the_writer_refuses_when_paused_or_closed() -> None:
    proto, _transport, _client, scope = _connected(False)
    send = scope["extensions"][SEND_TEXT_UTF8]
    proto.pause_writing()
    assert send(b'{"type":"pong"}') is False
    proto.resume_writing()
    assert send(b'{"type":"pong"}') is True
    _end(proto)
    assert send(b'{"type":"pong"}') is False  # gone


@pytest.mark.parametrize("size", [0, 125, 126, 65_535, 65_536])
def test_the_frame_header_is_the_one_websockets_writes(size: int) -> None:
    """The writer frames text itself (no compression negotiated): byte for byte what
    websockets' own server framing makes, at each boundary of the length's three forms."""
    payload = b"x" * size
    ours = text_frame_header(size) + payload
    assert ours == Frame(Opcode.TEXT, payload).serialize(mask=False)


def _reading(fast: bool = False) -> tuple[Any, _Transport, ClientProtocol, list[Any]]:
    """A server protocol after the handshake and the app's accept, whose app records
    every event it receives (until the disconnect); the client's protocol.  With ``fast``
    the app reads as the table server's socket route does: each text through the scope's
    ``RECEIVE_TEXT`` (recorded with ``"fast": True``) until it answers None, then one event
    through ASGI."""
    got: list[Any] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        read_text = scope["extensions"][RECEIVE_TEXT] if fast else None
        while True:
            text = None if read_text is None else await read_text()
            if text is not None:
                got.append({"type": "websocket.receive", "text": text, "fast": True})
                continue
            event = await receive()
            got.append(event)
            if event["type"] == "websocket.disconnect":
                return

    async def go() -> tuple[Any, _Transport, ClientProtocol]:
        cls = protocol_class()
        assert not isinstance(cls, str)
        config = uvicorn.Config(app, ws=cls, ws_per_message_deflate=False, lifespan="off")
        config.load()
        proto = cls(config=config, server_state=uvicorn.server.ServerState(), app_state={})  # type: ignore[call-arg]
        transport = _Transport()
        proto.connection_made(transport)
        client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws"))
        client.send_request(client.connect())
        proto.data_received(b"".join(client.data_to_send()))
        for _ in range(5):
            await asyncio.sleep(0)
        client.receive_data(bytes(transport.out))
        transport.out.clear()
        client.events_received()
        return proto, transport, client

    loop = asyncio.new_event_loop()
    proto, transport, client = loop.run_until_complete(go())
    _LOOPS[proto] = loop
    return proto, transport, client, got


def _deliver(proto: Any, chunks: list[bytes]) -> None:
    loop = _LOOPS[proto]
    for chunk in chunks:
        proto.data_received(chunk)
        for _ in range(5):
            loop.run_until_complete(asyncio.sleep(0))


def _settle(proto: Any) -> None:
    """Let the app run until it waits again."""
    loop = _LOOPS[proto]
    for _ in range(5):
        loop.run_until_complete(asyncio.sleep(0))


def _texts(got: list[Any]) -> list[str]:
    return [e["text"] for e in got if e["type"] == "websocket.receive"]


@pytest.mark.parametrize("fast", [False, True])
def test_whole_text_frames_are_read_without_websockets_parser(fast: bool) -> None:
    """A chunk of whole text frames (a client's messages) reaches the app as uvicorn would
    hand it, in order, and websockets' parser never sees it; read through ``RECEIVE_TEXT``
    by an app that asks that way, without the ASGI queue."""
    proto, _transport, client, got = _reading(fast)
    messages = ['{"type":"action","action":"discard 5m","seq":12,"id":1}', "一万", "x" * 300]
    for m in messages:
        client.send_text(m.encode())
    chunk = b"".join(client.data_to_send())
    proto.conn.receive_data = None  # would fail if websockets were asked to parse it
    _deliver(proto, [chunk])
    assert _texts(got) == messages
    assert [e.get("fast", False) for e in got] == [fast] * 3
    _end(proto)
    assert got[-1]["type"] == "websocket.disconnect"  # the waiting reader was woken


@pytest.mark.parametrize("fast", [False, True])
def test_a_message_split_by_the_network_goes_through_websockets(fast: bool) -> None:
    """A frame cut after its header, a ping between messages, then whole frames again:
    every message arrives once, in order, and the ping is answered."""
    proto, transport, client, got = _reading(fast)
    client.send_text(b'{"type":"ping","id":1}')
    first = b"".join(client.data_to_send())
    client.send_ping(b"hi")
    client.send_text(b'{"type":"sync"}')
    rest = b"".join(client.data_to_send())
    client.send_text(b'{"type":"ping","id":2}')
    last = b"".join(client.data_to_send())
    _deliver(proto, [first[:6], first[6:] + rest, last])
    assert _texts(got) == ['{"type":"ping","id":1}', '{"type":"sync"}', '{"type":"ping","id":2}']
    client.receive_data(bytes(transport.out))
    assert [f.opcode for f in client.events_received()] == [Opcode.PONG]
    _end(proto)


def test_invalid_utf8_still_fails_the_connection() -> None:
    proto, transport, client, _got = _reading()
    client.send_frame(Frame(Opcode.TEXT, b"\xff\xfe"))
    _deliver(proto, [b"".join(client.data_to_send())])
    client.receive_data(bytes(transport.out))
    (close,) = [f for f in client.events_received() if f.opcode is Opcode.CLOSE]
    assert close.data[:2] == (1007).to_bytes(2, "big")
    assert not _texts(_got)
    proto.connection_lost(None)
    _LOOPS.pop(proto).close()  # the app has returned (it was told of the disconnect)


@pytest.mark.parametrize(
    ("data", "texts", "whole"),
    [
        (b"", [], True),
        (Frame(Opcode.TEXT, b"ab").serialize(mask=True), ["ab"], True),
        (Frame(Opcode.TEXT, b"a" * 200).serialize(mask=True), ["a" * 200], True),
        (Frame(Opcode.TEXT, b"ab").serialize(mask=True)[:-1], None, False),
        (Frame(Opcode.TEXT, b"ab").serialize(mask=False), None, True),  # a client masks
        (Frame(Opcode.BINARY, b"ab").serialize(mask=True), None, True),
        (Frame(Opcode.TEXT, b"ab", fin=False).serialize(mask=True), None, True),
        (Frame(Opcode.PING, b"").serialize(mask=True), None, True),
        (Frame(Opcode.TEXT, b"a" * 70_000).serialize(mask=True), None, True),
    ],
)
def test_client_frames_are_read_only_when_whole_text(
    data: bytes, texts: list[str] | None, whole: bool
) -> None:
    assert client_text_frames(data, apply_mask) == texts
    assert whole_frames(data) is whole


def test_fast_texts_wait_behind_what_the_asgi_queue_holds() -> None:
    """A text websockets parsed (beside a ping) waits in the ASGI queue; whole text frames
    that come before the app has read it go behind it, not into ``RECEIVE_TEXT``'s deque;
    once the queue is empty the deque is used again.  Every text once, in order."""
    proto, _transport, client, got = _reading(fast=True)
    client.send_text(b"a")
    client.send_ping(b"hi")
    first = b"".join(client.data_to_send())  # not only text: websockets parses it
    client.send_text(b"b")
    client.send_text(b"c")
    second = b"".join(client.data_to_send())  # whole text frames
    proto.data_received(first)
    proto.data_received(second)  # the app has not run: "a" still waits in the queue
    _settle(proto)
    assert _texts(got) == ["a", "b", "c"]
    assert not any(e.get("fast") for e in got)
    client.send_text(b"d")
    _deliver(proto, [b"".join(client.data_to_send())])
    assert _texts(got) == ["a", "b", "c", "d"]
    assert got[-1].get("fast") is True
    _end(proto)


class _PausingTransport(_Transport):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def pause_reading(self) -> None:
        self.calls.append("pause")

    def resume_reading(self) -> None:
        self.calls.append("resume")


def test_the_fast_reader_pauses_reading_and_resumes_it_when_drained() -> None:
    """:data:`READ_QUEUE_LIMIT` texts waiting in the deque stop reading (a client that
    floods is not read faster than the app answers); the app's reading them all resumes it."""
    proto, _transport, client, got = _reading(fast=True)
    paused = _PausingTransport()
    proto.transport = paused
    messages = [str(i) for i in range(READ_QUEUE_LIMIT + 4)]
    for m in messages:
        client.send_text(m.encode())
    proto.data_received(b"".join(client.data_to_send()))
    assert paused.calls == ["pause"] and proto.read_paused
    _settle(proto)
    assert _texts(got) == messages
    assert paused.calls == ["pause", "resume"] and not proto.read_paused
    _end(proto)
