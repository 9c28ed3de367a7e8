"""What a route depends on: the caller (from the bearer token) and the server's state.

Credentials: :data:`Caller` (any valid token, else 401), :data:`Operator` (the operator
token, else 403), :data:`SeatHolder` (a seat token of the path's table, else 403).  State, what
:func:`zhuoji.server.app.create_app` put in the app's state, read alike by every router
for HTTP requests and WebSockets: :func:`manager_of` (the table manager),
:func:`rules_of` (its variants and rulesets), :func:`authority_of` (the credentials the
server knows), :func:`views_of` (the views last sent over HTTP, encoded).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from zhuoji.server.auth import Authority, Principal, Role, Throttled
from zhuoji.server.manager import TableManager
from zhuoji.server.rulebook import RuleBook
from zhuoji.server.wire import EncodedViews

bearer = HTTPBearer(auto_error=False, description="operator token or seat token")

# The credential checks are coroutines: a plain function would be run in the thread pool for
# every request (two thread hand-offs per seat request, the largest cost of the HTTP play);
# they only hash the token and look it up.


async def principal(
    request: Request, cred: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> Principal:
    """The caller, from the bearer token (401 without a valid one; 429 while the client's
    address has guessed too often)."""
    client = request.client
    try:
        p = authority_of(request).authenticate(
            cred.credentials if cred else None, client.host if client else None
        )
    except Throttled as exc:
        raise HTTPException(429, str(exc), headers={"Retry-After": exc.retry_after}) from None
    if p is None:
        raise HTTPException(
            401,
            "a valid bearer token is required" if cred else "no bearer token",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return p


async def operator(p: Annotated[Principal, Depends(principal)]) -> Principal:
    if p.role is not Role.OPERATOR:
        raise HTTPException(403, "this needs the operator credential; a seat token cannot do it")
    return p


async def seat_holder(table_id: str, p: Annotated[Principal, Depends(principal)]) -> Principal:
    if p.role is not Role.PLAYER:
        raise HTTPException(
            403, "this needs a seat token (the operator reads seats at /seats/{seat}/view)"
        )
    if p.table_id != table_id:
        raise HTTPException(403, "this seat token is for another table")
    return p


Caller = Annotated[Principal, Depends(principal)]
Operator = Annotated[Principal, Depends(operator)]
SeatHolder = Annotated[Principal, Depends(seat_holder)]


# The state the app was created with (zhuoji.server.app.create_app), for any connection (an
# HTTP request or a WebSocket).  Read straight from the app's state, not as FastAPI
# dependencies: a dependency costs about 10 µs of CPU per request (FastAPI resolves it
# anew each time), and a seat playing over HTTP makes several requests per engine action.


def manager_of(conn: HTTPConnection) -> TableManager:
    """The table manager of the app serving ``conn``."""
    manager: TableManager = conn.app.state.manager
    return manager


def rules_of(conn: HTTPConnection) -> RuleBook:
    """The variants and rulesets of the app serving ``conn``."""
    return manager_of(conn).rules


def authority_of(conn: HTTPConnection) -> Authority:
    """The credentials the app serving ``conn`` knows."""
    authority: Authority = conn.app.state.authority
    return authority


def views_of(conn: HTTPConnection) -> EncodedViews:
    """The bodies and ETags of the views the app serving ``conn`` sent last over HTTP."""
    views: EncodedViews = conn.app.state.encoded_views
    return views


def origin_allowed(conn: HTTPConnection) -> bool:
    """May a browser page of this connection's ``Origin`` open it?  A WebSocket is not
    bound by the same-origin policy, so any page a player visits could open one to the
    server with the player's token in hand (the page's own) or play for them; only the
    server's own pages (same host and port as the request's ``Host``) and the origins the
    operator allowed (``--allow-origin``; ``*`` for any) may.  A client that sends no
    ``Origin`` (not a browser) is not a page and may."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    allowed: frozenset[str] = conn.app.state.allowed_origins
    if "*" in allowed or origin.rstrip("/").lower() in allowed:
        return True
    host = conn.headers.get("host", "").lower()
    _scheme, sep, rest = origin.lower().partition("://")
    return bool(sep) and bool(host) and rest.rstrip("/") == host
