"""The door: credentials and sizes checked before any request body is read (ASGI
middleware in front of every HTTP request; :class:`Guard`)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from zhuoji.server.auth import Authority, Throttled
from zhuoji.server.variants import MAX_SOURCE

MAX_BODY = 16 * 1024  # bytes of a request body (a variant upload: MAX_VARIANT_BODY)
MAX_VARIANT_BODY = 4 * MAX_SOURCE + 1024  # UTF-8 Chinese YAML in a JSON string
#: paths a request may change things at without a token (capped all the same): a table
#: opened from the lobby (zhuoji.server.routes.open_play, which applies the operator's policy)
OPEN_PATHS = ("/api/open/tables",)


class _TooLarge(Exception):
    pass


class Guard:
    """ASGI middleware in front of every HTTP request.  A request that changes anything
    (POST, PUT, PATCH, DELETE) must carry a valid bearer token (except at
    :data:`OPEN_PATHS`) — checked before a byte of
    its body is read, and refused 429 while its address has guessed too often
    (:class:`zhuoji.server.auth.Attempts`) — and its body is capped (413 past :data:`MAX_BODY`, uploads
    :data:`MAX_VARIANT_BODY`), whether it says its length or streams."""

    def __init__(self, app: ASGIApp, authority: Authority) -> None:
        self.app = app
        self.authority = authority

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH", "DELETE"):
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope["headers"]}
        auth = headers.get(b"authorization", b"").decode("latin-1")
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else None
        client = scope.get("client")
        try:
            p = self.authority.authenticate(token, client[0] if client else None)
        except Throttled as exc:
            await _refuse(send, 429, str(exc), retry_after=exc.retry_after)
            return
        if p is None and scope["path"] not in OPEN_PATHS:
            await _refuse(
                send, 401, "a valid bearer token is required" if token else "no bearer token"
            )
            return
        limit = MAX_VARIANT_BODY if scope["path"].startswith("/api/variants") else MAX_BODY
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(send, 413, f"the request body may hold at most {limit} bytes")
            return
        received = 0
        started = too_large = False

        async def limited() -> Message:
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    too_large = True
                    raise _TooLarge
            return message

        async def watch(message: Message) -> None:
            nonlocal started
            if too_large:  # the app answered the cut-off body (400): say what happened
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await _refuse(send, 413, f"the request body may hold at most {limit} bytes")
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watch)
        except _TooLarge:
            if not started:
                await _refuse(send, 413, f"the request body may hold at most {limit} bytes")


async def _refuse(send: Send, status: int, detail: str, retry_after: str | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    if retry_after is not None:
        headers.append((b"retry-after", retry_after.encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
