"""The HTTP + WebSocket application (FastAPI).  ``create_app(db_url, operator_token)``.

Routes (the OpenAPI document at ``/openapi.json``, browsable at ``/docs``), one router per
resource (:mod:`zhuoji.server.routes`):

* ``/api/health``, ``/api/whoami`` — the service (:mod:`.routes.operator`);
* ``/api/variants…``, ``/api/schema/variant``, ``/api/rules/describe`` — variants, stored
  variants, house rules in words (:mod:`.routes.variants`);
* ``/api/tables…`` — tables, rules, rounds (operator; :mod:`.routes.tables`), seat tokens,
  views and actions (seat; :mod:`.routes.seats`);
* ``/ws/tables/{id}`` — a seat's live connection: it receives ``state`` messages (its view)
  after every committed change and sends ``action`` / ``ready`` / ``sync`` messages
  (:mod:`.routes.socket`);
* ``/api/open…`` — tables a player opens from the lobby without the operator, and the
  operator's open-play policy (:mod:`.routes.open_play`);
* ``/``, ``/operator`` and ``/table/{id}`` — the browser client (static files, no build
  step; :mod:`.routes.pages`).

Every router reads the server's state — the table manager, the credentials, the store —
from the app's state (:mod:`zhuoji.server.deps`); :class:`zhuoji.server.guard.Guard`
checks credentials and body sizes in front of every request that changes anything.

Errors are JSON ``{"detail": "…"}`` with the status that fits: 401 no or unknown token,
403 a token that may not do this, 404 no such table or seat, 409 not now (illegal or
out-of-turn action, round in progress, stale action), 422 invalid input (a bad variant
override carries the variant loader's own message), 503 the store failed.
"""

from __future__ import annotations

import gc
import logging
import math
import os
import signal
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

import zhuoji
from zhuoji.server import store as S
from zhuoji.server.auth import Authority, RedactTokens
from zhuoji.server.guard import Guard
from zhuoji.server.leases import DEFAULT_LEASE_S, LeaseLost, Ownership, check_advertise
from zhuoji.server.manager import TableManager
from zhuoji.server.routes import open_play, operator, pages, seats, socket, tables, variants
from zhuoji.server.routing import Peers, Router
from zhuoji.server.rulebook import VariantRefused
from zhuoji.server.tables import TableError
from zhuoji.server.wire import EncodedViews

log = logging.getLogger("zhuoji.server")

#: the routers, one per resource, in the order their routes are matched (and documented)
ROUTERS = (operator, variants, tables, seats, socket, open_play, pages)

#: the collector's first-generation threshold in a serving process (Python's default: 700)
GC_GEN0 = 20_000


def tune_gc() -> None:
    """For a process that serves: freeze what exists now (modules, the app, the tables
    just loaded: they live as long as the process) out of the collector's reach, and
    collect the young generation less often.  Every change builds four fresh views, so
    the default thresholds ran a collection every few actions, each walking every object
    the server holds (about a tenth of its CPU under load; docs/server.md, *Load*)."""
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GC_GEN0, gen1, gen2)


def create_app(
    db_url: str = S.DEFAULT_URL,
    operator_token: str | None = None,
    *,
    serving: bool = False,
    allowed_origins: Iterable[str] = (),
    advertise: str | None = None,
    lease_seconds: float = DEFAULT_LEASE_S,
) -> FastAPI:
    """The application over the store at ``db_url``; ``operator_token`` (at least 16
    characters) authorizes operator calls.  ``serving``: this process exists to serve the
    app (``zhuoji serve``), so the garbage collector is tuned for it once the tables are
    loaded (:func:`tune_gc`).  ``allowed_origins``: the browser origins besides the
    server's own whose pages may open a WebSocket (``https://play.example.com``; ``*``
    any: :func:`zhuoji.server.deps.origin_allowed`).  ``advertise``: this process is one
    of a scale-out on a PostgreSQL store, reachable by clients at that address
    (``http://host:port``): it serves the tables it leases and sends the clients of the
    others to their owners (:mod:`zhuoji.server.leases`, :mod:`zhuoji.server.routing`);
    ``lease_seconds``: how long a dead process's tables wait before others take them."""
    if not operator_token:
        raise ValueError("an operator token is required")
    store, ownership = _open(db_url, advertise, lease_seconds)
    authority = Authority(operator_token)
    # the routers' routes go into the app as they are, not through include_router, which
    # (in current FastAPI) puts a layer of its own in front of an included router's routes
    # that every request goes through: about 13 µs of CPU per request, measured in-process
    routes = [route for module in ROUTERS for route in module.router.routes]
    app = FastAPI(
        title="zhuoji table server",
        version=zhuoji.__version__,
        description=(
            "Tables of Guizhou 捉鸡 mahjong (and the other shipped variants) for humans and bots. "
            "Operator calls need the operator token, seat calls a seat token, both as "
            "`Authorization: Bearer …`. Live play runs over the WebSocket `/ws/tables/{id}` "
            "(see docs/server.md)."
        ),
        routes=routes,
        lifespan=_lifespan,
    )
    app.state.store = store
    app.state.authority = authority
    app.state.manager = manager = TableManager(store, authority, ownership)
    app.state.encoded_views = EncodedViews()
    app.state.serving = serving
    app.state.allowed_origins = frozenset(o.rstrip("/").lower() for o in allowed_origins)

    app.add_middleware(Guard, authority=authority)
    app.state.peers = peers = Peers(operator_token)
    if ownership is not None:  # a scale-out: outermost, before the credentials
        app.add_middleware(Router, manager=manager, peers=peers)
    app.exception_handler(TableError)(_table_error)
    app.exception_handler(S.StoreUnavailable)(_store_unavailable)
    app.exception_handler(LeaseLost)(_store_unavailable)
    for error in (sa.exc.OperationalError, sa.exc.InterfaceError):  # a read in an outage
        app.exception_handler(error)(_store_unavailable)
    app.exception_handler(RequestValidationError)(_invalid)
    app.exception_handler(RecursionError)(_too_deep)
    app.mount("/static", pages.static_files(), name="static")
    return app


def _open(
    db_url: str, advertise: str | None, lease_seconds: float
) -> tuple[S.Store, Ownership | None]:
    """The store, and in a scale-out (``advertise``) this process's table leases."""
    address = check_advertise(advertise) if advertise is not None else None
    store = S.Store(db_url, scale_out=address is not None)
    if address is None:
        return store, None
    ownership = Ownership(store.engine, store.schema, address, lease_seconds)
    try:
        ownership.prepare()
    except sa.exc.SQLAlchemyError as exc:
        store.close()
        raise S.StoreError(f"cannot prepare the table leases: {exc}") from exc
    return store, ownership


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store, load and resume every table; at the end stop their tasks and close
    the store."""
    store: S.Store = app.state.store
    manager: TableManager = app.state.manager
    if app.state.serving:
        store.on_lost(_stop_when_lost(app))
    for name in ("uvicorn.access", "uvicorn.error"):  # they log URLs: no token in them
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    await store.start()
    counts = manager.load()
    log.info(
        "store %s: %d tables, %d live rounds resumed, %d tables broken",
        S.display_url(store.url),
        counts["tables"],
        counts["live_rounds"],
        counts["broken"],
    )
    await manager.resume_all()
    if app.state.serving:
        tune_gc()
    try:
        yield
    finally:
        await manager.close()
        await app.state.peers.close()
        await store.stop()
        if manager.ownership is not None:  # the others take this process's tables now
            try:
                manager.ownership.release_all()
            except sa.exc.SQLAlchemyError as exc:
                log.warning("the table leases were not released (they expire): %s", exc)


async def _table_error(_request: Request, exc: TableError) -> JSONResponse:
    body: dict[str, Any] = {"detail": str(exc)}
    if exc.zh is not None:
        body["words"] = {"zh": exc.zh, "en": str(exc)}
    if isinstance(exc, VariantRefused):
        body["problems"] = exc.problems
    return JSONResponse(body, status_code=exc.status)


async def _store_unavailable(_request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, LeaseLost):
        return JSONResponse({"detail": f"{exc}; ask again"}, status_code=503)
    if not isinstance(exc, S.StoreUnavailable):
        exc = S.StoreUnavailable(f"the database is unreachable ({exc.__class__.__name__})")
    return JSONResponse({"detail": f"{exc}; nothing was changed"}, status_code=503)


def _stop_when_lost(app: FastAPI) -> Callable[[str], None]:
    def lost(why: str) -> None:
        """Another server has the store (this one's lock was lost and taken): this process
        may never write again, so it stops serving (``zhuoji serve`` exits with status 3)."""
        log.critical("the store was lost to another server, stopping: %s", why)
        stop = getattr(app.state, "stop_serving", None)
        if stop is not None:
            stop()
        else:
            os.kill(os.getpid(), signal.SIGTERM)

    return lost


def _printable(x: Any) -> Any:
    """``x`` with every string made encodable (a lone surrogate as its escape) and every
    float finite or a string: a refusal must never fail to encode what it quotes."""
    if isinstance(x, str):
        return x.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    if isinstance(x, int | bool) or x is None:
        return x
    if isinstance(x, list | tuple):
        return [_printable(v) for v in x]
    if isinstance(x, dict):
        return {str(_printable(k)): _printable(v) for k, v in x.items()}
    return _printable(str(x))


async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 with where and why each field is invalid.  FastAPI's own handler echoed the
    input, and a NaN, 1e400 or a lone surrogate in it made the refusal itself fail (a 500);
    the input is left out (a client has it) and every string quoted is made encodable."""
    problems = [
        {"loc": _printable(e.get("loc", ())), "msg": _printable(e.get("msg", "")),
         "type": _printable(e.get("type", ""))}
        for e in exc.errors()
    ]  # fmt: skip
    return JSONResponse({"detail": problems}, status_code=422)


async def _too_deep(_request: Request, _exc: RecursionError) -> JSONResponse:
    return JSONResponse({"detail": "the request nests too deeply"}, status_code=400)
