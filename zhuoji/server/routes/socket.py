"""A seat's live connection, ``/ws/tables/{id}``: it authenticates with a seat token, then
receives ``hello`` and ``state`` messages (its view, after every committed change) and
sends ``action`` / ``ready`` / ``sync`` / ``ping`` messages (docs/server.md, *WebSocket*)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from zhuoji import tiles as T
from zhuoji.server import wire
from zhuoji.server.auth import Authority, Role, Throttled
from zhuoji.server.deps import authority_of, manager_of, origin_allowed
from zhuoji.server.manager import TableManager
from zhuoji.server.tables import TableError
from zhuoji.server.ws_listener import WsListener
from zhuoji.server.ws_protocol import RECEIVE_TEXT, SEND_TEXT_UTF8

MAX_WS_MESSAGE = 4096  # characters of one client message
AUTH_TIMEOUT = 10.0  # seconds a WebSocket has to authenticate
MAX_SEAT_SOCKETS = 4  # WebSockets one seat may hold open at once (a few devices or tabs)

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """Authenticate with ``{"type": "auth", "token": …}`` as the first message (or the
    ``token`` query parameter); then receive ``hello`` and ``state`` messages and send
    ``action`` (``{"type": "action", "action": "discard 5m", "seq": 12, "id": 1}``),
    ``ready``, ``sync`` or ``ping``."""
    if not origin_allowed(ws):  # refused before the handshake: an HTTP 403
        await ws.close(code=4403, reason="this page's origin may not open the table's socket")
        return
    await ws.accept()
    manager = manager_of(ws)
    seat = await _authenticate(ws, table_id, manager, authority_of(ws))
    if seat is None:
        return
    st = manager.tables[table_id].seats[seat]
    if st.sockets >= MAX_SEAT_SOCKETS:  # checked and counted with no await between
        await _refuse(ws, 4429, f"this seat has {MAX_SEAT_SOCKETS} connections open already")
        return
    st.sockets += 1
    try:
        await _serve(ws, manager, table_id, seat)
    finally:
        st.sockets -= 1


async def _serve(ws: WebSocket, manager: TableManager, table_id: str, seat: int) -> None:
    """An authenticated seat's connection, until it closes."""
    extensions = ws.scope.get("extensions") or {}
    conn = WsListener(ws, seat, extensions.get(SEND_TEXT_UTF8))
    # the server's own way to a client's next text (ws_protocol.RECEIVE_TEXT): None from it
    # means the next message waits in the ASGI queue (a disconnect, a binary frame, …)
    fast: Callable[[], Awaitable[str | None]] | None = extensions.get(RECEIVE_TEXT)
    sender = asyncio.create_task(conn.run())
    t = manager.tables[table_id]
    conn.push(
        {
            "type": "hello",
            "table": table_id,
            "seat": seat,
            "players": t.players,
            "tiles": {T.TILE_TEXT[k]: T.name(k) for k in range(T.NUM_KINDS)},
            "now_ms": int(time.time() * 1000),  # for a client's turn-timer countdown
        }
    )
    try:
        await manager.attach(table_id, conn)
        while not sender.done():
            try:
                text = None if fast is None else await fast()
                if text is None:
                    text = await _receive_text(ws)
                elif len(text) > MAX_WS_MESSAGE:
                    raise ValueError(_TOO_LONG)
                msg = wire.decode(text)
            except (ValueError, RecursionError) as exc:
                conn.push({"type": "error", "status": 400, "error": _ws_problem(exc)})
                continue
            if not isinstance(msg, dict):
                conn.push(
                    {"type": "error", "status": 400, "error": "messages must be JSON objects"}
                )
                continue
            await _handle(manager, conn, table_id, seat, msg)
    except WebSocketDisconnect:
        pass
    except RuntimeError:
        pass  # the socket closed under us (slow client)
    finally:
        manager.detach(table_id, conn)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _authenticate(
    ws: WebSocket, table_id: str, manager: TableManager, authority: Authority
) -> int | None:
    """The seat the connection holds, from its token (the ``token`` query parameter or
    the first message); else the client is told why and the socket closed (None)."""
    token: Any = ws.query_params.get("token")  # works, but logged URLs hold it: redacted
    try:
        if token is None:
            first = wire.decode(await asyncio.wait_for(_receive_text(ws), AUTH_TIMEOUT))
            token = (
                first.get("token")
                if isinstance(first, dict) and first.get("type") == "auth"
                else None
            )
    except (TimeoutError, ValueError, WebSocketDisconnect, RecursionError):
        token = None
    refusal: tuple[int, str] | None = None
    client = ws.client
    try:
        ok = isinstance(token, str) and len(token) <= 200
        p = authority.authenticate(token, client.host if client else None) if ok else None
    except Throttled as exc:
        p, refusal = None, (4429, str(exc))
    if refusal is not None:
        pass
    elif p is None:
        refusal = (4401, "a valid seat token is required (a string)")
    elif p.role is not Role.PLAYER:
        refusal = (4403, "the WebSocket is for seats; use a seat token")
    elif p.table_id != table_id:
        refusal = (4403, "this seat token is for another table")
    elif table_id not in manager.tables:
        refusal = (4404, f"no table {table_id[:60]!r}")
    if refusal is not None or p is None or p.seat is None:
        await _refuse(ws, *(refusal or (4401, "a valid seat token is required")))
        return None
    return p.seat


async def _refuse(ws: WebSocket, code: int, text: str) -> None:
    """Tell the client why (an error message with the HTTP status that fits) and close."""
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "status": code - 4000, "error": text}))
        await ws.close(code=code, reason=text)


async def _handle(
    manager: TableManager, conn: WsListener, table_id: str, seat: int, msg: dict[str, Any]
) -> None:
    """Answer one message of an authenticated seat (errors go back to it, with the HTTP
    status that fits)."""
    kind = msg.get("type")
    rid = msg.get("id")
    if not (rid is None or isinstance(rid, int | str)) or isinstance(rid, bool):
        rid = None
    try:
        if kind == "action":
            text = msg.get("action")
            seq = msg.get("seq")
            if not isinstance(text, str) or not (seq is None or isinstance(seq, int)):
                raise TableError(
                    422,
                    "an action message needs 'action' (text) and optionally 'seq' (integer)",
                )
            table = await manager.act_only(table_id, seat, text, seq)
            shown = table.seats[seat].shown  # the view just sent to this seat
            conn.ack(rid, shown["seq"] if shown else None)
        elif kind == "ready":
            await manager.ready(table_id, seat)
            shown = manager.tables[table_id].seats[seat].shown
            conn.ack(rid, shown["seq"] if shown else None)
        elif kind == "sync":
            conn.push({"type": "state", "view": await manager.view(table_id, seat)})
        elif kind == "ping":
            conn.push({"type": "pong", "id": rid})
        elif kind == "auth":
            conn.push({"type": "error", "id": rid, "status": 409, "error": "already authenticated"})
        else:
            raise TableError(
                400, f"unknown message type {kind!r}; known: action, ready, sync, ping"
            )
    except TableError as exc:
        conn.push({"type": "error", "id": rid, "status": exc.status, "error": str(exc)})


class _BinaryFrame(ValueError):
    pass


async def _receive_text(ws: WebSocket) -> str:
    """The next text message; a binary frame or an over-long message is a ValueError (the
    client is told, 400), a closed socket WebSocketDisconnect."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise _BinaryFrame("binary frames are not read: send JSON text")
    if len(text) > MAX_WS_MESSAGE:
        raise ValueError(_TOO_LONG)
    return str(text)


_TOO_LONG = f"a message may hold at most {MAX_WS_MESSAGE} characters"


def _ws_problem(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "the message nests too deeply"
    if isinstance(exc, _BinaryFrame) or str(exc).startswith("a message may"):
        return str(exc)
    return "messages must be JSON objects"
