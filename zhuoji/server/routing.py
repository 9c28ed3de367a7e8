"""Routing in a scale-out: a request for a table another process owns is sent there
(issue 26, item 7; docs/server.md, *Several processes, one population of tables*).

:class:`Router` sits in front of everything else (before the credential checks: the seat
tokens of a table are known only to its owner).  A request whose path names a table —
``/api/tables/{id}…`` over HTTP, ``/ws/tables/{id}`` over WebSocket — that this process
does not serve is

* served here after all when nobody holds the table (its owner died and the lease
  expired): this process takes it over on the spot (:meth:`TableManager.adopt`);
* over HTTP, **proxied** to the owner's advertised address (:class:`Peers`): the client
  sees the owner's answer as if this process had given it (browsers' pages on another
  origin, ``curl`` without ``-L`` and clients that drop credentials on a redirect all
  work), with the owner in ``X-Zhuoji-Owner``; the client's address goes along, signed with
  the operator credential the processes share, so the owner's back-off on wrong tokens
  counts the client, not the proxy;
* over WebSocket, **redirected**: accepted and closed at once with :data:`MOVED_WS` and the
  owner's address as the close reason, which the browser client and the load generator's
  seats follow (a socket then talks to its owner directly);
* told to ask again in a moment (HTTP ``503`` with ``Retry-After: 1``, WebSocket close
  ``1013``) when the owner has not renewed its lease for over half its length (it is
  probably dead: the table is taken over once the lease runs out), when the owner cannot be
  reached, or when the request was already proxied once (no loops).

A table id nobody knows goes on to the routes, which answer 404 as ever.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
from collections.abc import Iterable
from typing import Any

import httpx
from starlette.types import ASGIApp, Receive, Scope, Send

from zhuoji.server.guard import MAX_BODY
from zhuoji.server.manager import TableManager

#: the WebSocket close code of "this table is served at the address in the reason"
MOVED_WS = 4307
#: WebSocket close code "try again later" (RFC 6455 registry)
TRY_AGAIN_WS = 1013

_TABLE_PATH = re.compile(r"^/(?:api|ws)/tables/([A-Za-z0-9_-]{1,40})(?:/|$)")

#: the client's address, and its signature, on a request one process proxies to another
CLIENT_HEADER = b"x-zhuoji-client"
SIGNATURE_HEADER = b"x-zhuoji-peer"
#: headers that belong to one connection, not passed along
_HOP = frozenset(
    {b"host", b"connection", b"keep-alive", b"transfer-encoding", b"te", b"trailer",
     b"upgrade", b"proxy-authorization", b"content-length", CLIENT_HEADER, SIGNATURE_HEADER}
)  # fmt: skip
#: seconds a proxied request may take (a long poll waits up to 30)
PROXY_TIMEOUT = 45.0


class Peers:
    """This process's way to the other processes of the scale-out: the HTTP proxy to a
    table's owner and the listing of their tables."""

    def __init__(self, operator_token: str) -> None:
        self._key = hashlib.sha256(b"zhuoji-peer:" + operator_token.encode()).digest()
        self._http: httpx.AsyncClient | None = None

    def sign(self, address: str) -> str:
        return hmac.new(self._key, address.encode(), hashlib.sha256).hexdigest()

    def forwarded_client(self, scope: Scope) -> str | None:
        """The client address a peer proxied this request for (None: not proxied, or
        not signed by a process holding the operator credential)."""
        headers: dict[bytes, bytes] = dict(scope.get("headers") or ())
        address, signature = headers.get(CLIENT_HEADER), headers.get(SIGNATURE_HEADER)
        if address is None or signature is None:
            return None
        text = address.decode("latin-1")
        if hmac.compare_digest(self.sign(text), signature.decode("latin-1")):
            return text
        return None

    def http(self) -> httpx.AsyncClient:
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=PROXY_TIMEOUT, follow_redirects=False)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def proxy(self, scope: Scope, receive: Receive, send: Send, address: str) -> None:
        """Send the request to ``address`` and its answer back to the client."""
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > MAX_BODY:
                detail = f"request bodies are capped at {MAX_BODY} bytes"
                await _respond(send, 413, json.dumps({"detail": detail}).encode(), [])
                return
        client = scope.get("client")
        host = str(client[0]) if client else ""
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _HOP]
        headers += [(CLIENT_HEADER, host.encode()), (SIGNATURE_HEADER, self.sign(host).encode())]
        query = scope.get("query_string", b"").decode("latin-1")
        url = address + scope["path"] + (f"?{query}" if query else "")
        try:
            r = await self.http().request(scope["method"], url, headers=headers, content=body)
        except httpx.HTTPError:
            await _try_again(scope, receive, send, _table_of(scope), "its server does not answer")
            return
        out = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in r.headers.multi_items()
            if k.lower().encode() not in _HOP and k.lower() != "content-encoding"
        ]
        out.append((b"x-zhuoji-owner", address.encode("latin-1")))
        await _respond(send, r.status_code, r.content, out, typed=False)

    async def tables(self, addresses: Iterable[str]) -> list[dict[str, Any]]:
        """The tables the processes at ``addresses`` serve (one that does not answer is
        left out)."""

        async def one(address: str) -> list[dict[str, Any]]:
            try:
                r = await self.http().get(f"{address}/api/tables", params={"local": "true"})
            except httpx.HTTPError:
                return []
            return list(r.json()) if r.status_code == 200 else []

        found = await asyncio.gather(*(one(a) for a in addresses))
        return [t for part in found for t in part]


def _table_of(scope: Scope) -> str:
    m = _TABLE_PATH.match(scope["path"])
    return m.group(1) if m else "?"


class Router:
    """ASGI middleware: requests for tables owned elsewhere go there."""

    def __init__(self, app: ASGIApp, manager: TableManager, peers: Peers) -> None:
        self.app = app
        self.manager = manager
        self.peers = peers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        own = self.manager.ownership
        if own is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        forwarded = self.peers.forwarded_client(scope)
        if forwarded is not None:  # proxied by a peer: the client is the peer's client
            scope = {**scope, "client": (forwarded, 0)}
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
            await _try_again(scope, receive, send, table_id, "its server stopped")
        elif scope["type"] == "websocket":
            await _moved(receive, send, owner.address)
        elif forwarded is not None:  # proxied here, but moved on meanwhile: no second hop
            await _try_again(scope, receive, send, table_id, "it is moving")
        else:
            await self.peers.proxy(scope, receive, send, owner.address)


async def _moved(receive: Receive, send: Send, address: str) -> None:
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": MOVED_WS, "reason": address})


async def _try_again(scope: Scope, receive: Receive, send: Send, table_id: str, why: str) -> None:
    text = f"table {table_id} is being taken over ({why}); ask again"
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": TRY_AGAIN_WS, "reason": text[:120]})
        return
    body = json.dumps({"detail": text}).encode()
    await _respond(send, 503, body, [(b"retry-after", b"1")])


async def _respond(
    send: Send, status: int, body: bytes, headers: list[Any], typed: bool = True
) -> None:
    head = [(b"content-length", str(len(body)).encode()), *headers]
    if typed:
        head.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})
