"""Routing in a scale-out: a request for a table another process owns is sent there
(issue 26, item 7; docs/server.md, *Several processes, one population of tables*).

:class:`Router` sits in front of everything else (before the credential checks: the seat
tokens of a table are known only to its owner).  A request whose path names a table —
``/api/tables/{id}…`` over HTTP, ``/ws/tables/{id}`` over WebSocket — that this process
does not serve is

* served here after all when nobody holds the table (its owner died and the lease
  expired): this process takes it over on the spot (:meth:`TableManager.adopt`);
* **redirected** to the owner's advertised address: HTTP ``307`` with ``Location`` (the
  method and body are kept) and the owner in ``X-Zhuoji-Owner``; a WebSocket is accepted and
  closed at once with :data:`MOVED_WS` and the owner's address as the close reason, which
  the browser client and the load generator's seats follow;
* told to ask again in a moment (HTTP ``503`` with ``Retry-After: 1``, WebSocket close
  ``1013``) when the owner has not renewed its lease for over half its length: it is
  probably dead, and the table will be taken over once the lease runs out.

A table id nobody knows goes on to the routes, which answer 404 as ever.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from zhuoji.server.manager import TableManager

#: the WebSocket close code of "this table is served at the address in the reason"
MOVED_WS = 4307
#: WebSocket close code "try again later" (RFC 6455 registry)
TRY_AGAIN_WS = 1013

_TABLE_PATH = re.compile(r"^/(?:api|ws)/tables/([A-Za-z0-9_-]{1,40})(?:/|$)")


class Router:
    """ASGI middleware: requests for tables owned elsewhere are redirected there."""

    def __init__(self, app: ASGIApp, manager: TableManager) -> None:
        self.app = app
        self.manager = manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        own = self.manager.ownership
        if own is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        m = _TABLE_PATH.match(scope["path"])
        if m is None or m.group(1) in self.manager.tables:
            await self.app(scope, receive, send)
            return
        table_id = m.group(1)
        owner = await asyncio.to_thread(own.locate, table_id)
        if owner is None or not owner.live:
            # nobody holds it (its owner died, or the store predates the scale-out): take
            # it over on the spot; an unknown id goes on to the routes' 404
            if await self.manager.adopt(table_id) or owner is None:
                await self.app(scope, receive, send)
                return
            owner = await asyncio.to_thread(own.locate, table_id)  # taken by another just now
            if owner is None:
                await self.app(scope, receive, send)
                return
        if not owner.live or owner.silent_s > own.lease_s / 2:
            await _try_again(scope, receive, send, table_id)
            return
        await _moved(scope, receive, send, owner.address, table_id)


async def _moved(scope: Scope, receive: Receive, send: Send, address: str, table_id: str) -> None:
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": MOVED_WS, "reason": address})
        return
    query = scope.get("query_string", b"").decode("latin-1")
    location = address + scope["path"] + (f"?{query}" if query else "")
    body = json.dumps(
        {"detail": f"table {table_id} is served by {address}", "owner": address}
    ).encode()
    await _respond(send, 307, body, [(b"location", location.encode("latin-1")),
                                     (b"x-zhuoji-owner", address.encode("latin-1"))])  # fmt: skip


async def _try_again(scope: Scope, receive: Receive, send: Send, table_id: str) -> None:
    text = f"table {table_id} is being taken over from a server that stopped; ask again"
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": TRY_AGAIN_WS, "reason": text[:120]})
        return
    body = json.dumps({"detail": text}).encode()
    await _respond(send, 503, body, [(b"retry-after", b"1")])


async def _respond(send: Send, status: int, body: bytes, headers: list[Any]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
