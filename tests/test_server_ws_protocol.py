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
from websockets.frames import Opcode
from websockets.uri import parse_uri

from zhuoji.server import wire
from zhuoji.server.ws_protocol import SEND_TEXT_UTF8, protocol_class, text_frame_header


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
    from websockets.frames import Frame

    payload = b"x" * size
    ours = text_frame_header(size) + payload
    assert ours == Frame(Opcode.TEXT, payload).serialize(mask=False)
