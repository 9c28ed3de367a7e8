"""The HTTP + WebSocket application (FastAPI).  ``create_app(db_url, operator_token)``.

Routes (the OpenAPI document at ``/openapi.json``, browsable at ``/docs``):

* ``/api/tables…`` — tables, rules, rounds, seat tokens (operator), views and actions (seat);
* ``/ws/tables/{id}`` — a seat's live connection: it receives ``state`` messages (its view)
  after every committed change and sends ``action`` / ``ready`` / ``sync`` messages;
* ``/`` and ``/table/{id}`` — the browser client (static files, no build step).

Errors are JSON ``{"detail": "…"}`` with the status that fits: 401 no or unknown token,
403 a token that may not do this, 404 no such table or seat, 409 not now (illegal or
out-of-turn action, round in progress, stale action), 422 invalid input (a bad variant
override carries the variant loader's own message), 503 the store failed.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import (
    Depends,
    FastAPI,
    HTTPException,
    Query,
    Request,
    Response,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import zhuoji
from zhuoji import tiles as T
from zhuoji.errors import VariantError
from zhuoji.schema import variant_schema
from zhuoji.server import store as S
from zhuoji.server import turn_timer, wire
from zhuoji.server.auth import Authority, Principal, Role
from zhuoji.server.manager import SeatSpec, TableManager, TableSpec
from zhuoji.server.rulebook import VariantRefused
from zhuoji.server.tables import NextRound, SeatKind, Table, TableError
from zhuoji.server.variants import MAX_SOURCE, StoredVariant, in_words
from zhuoji.server.ws_protocol import SEND_TEXT_UTF8
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variants_cmd import effective

log = logging.getLogger("zhuoji.server")

STATIC_DIR = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024  # bytes of a request body (a variant upload: MAX_VARIANT_BODY)
MAX_VARIANT_BODY = 4 * MAX_SOURCE + 1024  # UTF-8 Chinese YAML in a JSON string
MAX_OVERRIDE_BYTES = 4096
MAX_OVERRIDE_KEYS = 64
MAX_OVERRIDE_DEPTH = 6
MAX_WS_MESSAGE = 4096  # characters of one client message
AUTH_TIMEOUT = 10.0  # seconds a WebSocket has to authenticate
QUEUE_LIMIT = 1000  # messages waiting for a slow client before it is disconnected


# ---------------------------------------------------------------------------------------
# request and response models
# ---------------------------------------------------------------------------------------


def _shape(value: Any, depth: int = 1) -> tuple[int, int]:
    """(keys, depth) of a JSON value."""
    if isinstance(value, dict):
        keys, deepest = len(value), depth
        for v in value.values():
            k, d = _shape(v, depth + 1)
            keys, deepest = keys + k, max(deepest, d)
        return keys, deepest
    if isinstance(value, list):
        keys, deepest = 0, depth
        for v in value:
            k, d = _shape(v, depth + 1)
            keys, deepest = keys + k, max(deepest, d)
        return keys, deepest
    return 0, depth - 1


def _bounded_overrides(value: dict[str, Any]) -> dict[str, Any]:
    size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    if size > MAX_OVERRIDE_BYTES:
        raise ValueError(f"overrides take {size} bytes; at most {MAX_OVERRIDE_BYTES}")
    keys, depth = _shape(value)
    if keys > MAX_OVERRIDE_KEYS:
        raise ValueError(f"overrides hold {keys} keys; at most {MAX_OVERRIDE_KEYS}")
    if depth > MAX_OVERRIDE_DEPTH:
        raise ValueError(f"overrides nest {depth} levels deep; at most {MAX_OVERRIDE_DEPTH}")
    return value


Overrides = Annotated[dict[str, Any], AfterValidator(_bounded_overrides)]


class ErrorOut(BaseModel):
    detail: str = Field(description="what was refused and why")


class SeatIn(BaseModel):
    """One seat of a new table."""

    kind: SeatKind = Field(
        SeatKind.HUMAN, description="human: joined with a seat token; bot: played by the server"
    )
    bot: str = Field("greedy", max_length=40, description="for bot seats: the bot (greedy, random)")
    name: str | None = Field(None, max_length=100, description="display name")


class TableIn(BaseModel):
    """A new table."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "name": "evening table",
                    "variant": "guiyang",
                    "overrides": {"settle.chickens.chongfeng.multiplier": 3},
                    "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
                    "rounds": 8,
                    "next_round": "ready",
                }
            ]
        }
    )

    name: str | None = Field(None, max_length=200)
    variant: str = Field(
        "guiyang",
        max_length=80,
        description="a shipped variant, or a stored one as NAME (its latest version, pinned "
        "now) or NAME@VERSION (GET /api/variants)",
    )
    overrides: Overrides = Field(
        default_factory=dict,
        description="house rules: overrides, nested or dotted keys "
        '(`{"settle.chickens.chongfeng.multiplier": 3}`); validated like `--set`; at most '
        f"{MAX_OVERRIDE_BYTES} bytes, {MAX_OVERRIDE_KEYS} keys, {MAX_OVERRIDE_DEPTH} levels",
    )
    seats: list[SeatIn] | None = Field(
        None, description="one per player; default: every seat human"
    )
    seed: int | None = Field(
        None, ge=0, lt=2**62, description="match seed (default: random); kept secret"
    )
    rounds: int | None = Field(
        None, ge=1, le=1000, description="rounds in the match (default: the variant's)"
    )
    next_round: NextRound = Field(
        NextRound.OPERATOR,
        description="operator: the operator starts each round; ready: a round starts when "
        "every human seat is ready (bot-only tables play on by themselves)",
    )
    bot_delay_ms: int = Field(
        0, ge=0, le=60_000, description="pause before each bot move (0: bots answer at once)"
    )
    turn_seconds: int | None = Field(
        None,
        ge=turn_timer.MIN_SECONDS,
        le=turn_timer.MAX_SECONDS,
        description="turn timer: seconds a human seat has for each decision, after which the "
        "server passes a claim or discards the drawn tile for it; null: no timer",
    )
    claim_window_ms: int = Field(
        0,
        ge=0,
        le=60_000,
        description="fixed-length claim window: after every discard and kong, answers are "
        "taken for exactly this long and nothing is shown before it ends, so thinking time "
        "tells nothing of who may claim (0: a window lasts until every seat with an option "
        "has answered)",
    )


class RulesIn(BaseModel):
    """New rules, from the next round on."""

    variant: str | None = Field(
        None, max_length=80, description="default: the table's current variant"
    )
    overrides: Overrides = Field(
        default_factory=dict,
        description="the complete set of overrides (replaces the previous set)",
    )


class VariantIn(BaseModel):
    """A variant to store: YAML that sets its ``name`` and ``extends`` a shipped or stored
    variant."""

    source: str = Field(max_length=MAX_SOURCE, description="the variant's YAML text")
    author: str | None = Field(
        None, max_length=100, description="who is storing it (default: operator)"
    )


class VariantVersionOut(BaseModel):
    name: str
    version: int
    ref: str = Field(description="NAME@VERSION: what a table names to use this version")
    parent: str = Field(description="the pinned variant it extends")
    title: str
    sha256: str = Field(description="SHA-256 of the YAML text")
    author: str
    created_at: str
    differences: list[str] = Field(
        description="what it changes from its parent, in words (as `zhuoji variants diff`)"
    )


class VariantCheckOut(BaseModel):
    ok: bool
    problems: list[str] = Field(description="LABEL:LINE: path: message, as `variants validate`")
    name: str | None = None
    version: int | None = None
    differences: list[str] = Field(default_factory=list)


class RulesDescribeIn(BaseModel):
    variant: str = Field(max_length=80)
    overrides: Overrides = Field(default_factory=dict)


class RulesOut(BaseModel):
    variant: str
    title: str
    overrides: dict[str, Any]
    house_rules: list[str] = Field(description="the overrides in words (`variants diff`)")


class ActionIn(BaseModel):
    action: str = Field(
        max_length=40, description="`discard 5m`, `peng 5m`, `hu 5m`, `pass`, … (seat optional)"
    )
    seq: int | None = Field(
        None,
        description="the view's `seq` the action answers; refused (409) if the round has moved on",
    )


class SeatOut(BaseModel):
    seat: int
    kind: SeatKind
    bot: str | None
    name: str
    connected: int = Field(description="open WebSocket connections of this seat")
    ready: bool


class RuleChangeOut(BaseModel):
    seq: int = Field(description="1 for the rules the table was created with")
    from_round: int = Field(description="the first round these rules apply to")
    variant: str
    title: str
    overrides: dict[str, Any]
    house_rules: list[str] = Field(description="the overrides in words (`variants diff`)")
    changed_at: str


class RoundOut(BaseModel):
    number: int
    status: str = Field(description="live or ended")
    variant: str
    overrides: dict[str, Any]
    dealer: int
    streak: int
    round_wind: int
    started_at: str
    ended_at: str | None
    totals: list[int] | None
    next_dealer: int | None
    next_streak: int | None
    settlement: dict[str, Any] | None = Field(
        description="itemized ledger (entries with Chinese/English labels), totals, every hand"
    )


class TableOut(BaseModel):
    id: str
    name: str
    created_at: str
    players: int
    variant: str = Field(description="the variant of the next (or current) round")
    title: str
    overrides: dict[str, Any]
    house_rules: list[str] = Field(description="the overrides in words (`variants diff`)")
    rounds_total: int
    rounds_played: int
    current_round: int | None
    phase: str | None = Field(description="turn, claim, rob, end; null before the first round")
    next_round: NextRound
    bot_delay_ms: int
    turn_seconds: int | None = Field(description="the turn timer; null: none")
    claim_window_ms: int
    seats: list[SeatOut]
    scores: list[int] = Field(description="match totals per seat over finished rounds")
    rules_history: list[RuleChangeOut]


class TableCreated(TableOut):
    tokens: dict[int, str] = Field(
        description="seat → seat token, for human seats; shown only here"
    )


class TokenOut(BaseModel):
    table: str
    seat: int
    token: str


class LogOut(BaseModel):
    table: str
    round: int
    events: list[dict[str, Any]] = Field(
        description="the event log (schemas/event-log.schema.json)"
    )


class SeatView(BaseModel):
    """What one seat may see: its own hand, every meld and discard, counts; never another
    seat's concealed tiles or the wall (see zhuoji.engine.Round.observation)."""

    model_config = ConfigDict(extra="allow")

    table: str
    seat: int
    round: int | None
    seq: int = Field(description="events in the round so far; grows with every change")
    phase: str = Field(description="waiting, turn, claim, rob, end")
    to_act: list[int]
    hand: str = Field(description="own concealed tiles in notation")
    hand_names: str | None = None
    legal: list[dict[str, str]] = Field(description="legal actions: {action, label}")
    names: list[str]
    scores: list[int]
    settlement: dict[str, Any] | None = None


class ActionOut(BaseModel):
    ok: bool
    view: SeatView


class HealthOut(BaseModel):
    ok: bool
    version: str
    backend: str
    tables: int
    live_rounds: int
    actions: int
    commits: int
    writes: int
    broken_tables: dict[str, str] = Field(
        description="tables that could not be resumed at start, and why"
    )


class WhoAmI(BaseModel):
    role: Role
    table: str | None
    seat: int | None


class VariantOut(BaseModel):
    name: str
    title: str
    kind: str = Field(description="shipped, or stored (by an operator)")
    latest: str = Field(description="the reference a new table takes: NAME or NAME@VERSION")
    versions: int = Field(description="stored versions (0 for a shipped variant)")


# ---------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------


def table_out(t: Table, manager: TableManager) -> dict[str, Any]:
    rule = t.rule
    return {
        "id": t.id,
        "name": t.name,
        "created_at": t.created_at,
        "players": t.players,
        **manager.rules.describe(rule.variant, rule.overrides),
        "rounds_total": t.rounds_total,
        "rounds_played": sum(1 for r in t.rounds if r.status == "ended"),
        "current_round": t.round_number,
        "phase": t.public_phase,
        "next_round": t.next_round,
        "bot_delay_ms": t.bot_delay_ms,
        "turn_seconds": t.clock.seconds,
        "claim_window_ms": t.claim_window_ms,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "connected": len(s.listeners),
                "ready": s.ready,
            }
            for s in t.seats
        ],
        "scores": t.scores(),
        "rules_history": [
            {
                "seq": r.seq,
                "from_round": r.from_round,
                **manager.rules.describe(r.variant, r.overrides),
                "changed_at": r.changed_at,
            }
            for r in t.rules
        ],
    }


def round_out(r: S.RoundRow) -> dict[str, Any]:
    d = dict(r.__dict__)
    d.pop("seed", None)  # the seed would give away the wall
    return d


def _encode(content: Any) -> bytes:
    return wire.encode(content)


def _json(content: Any) -> Response:
    """A view as JSON, straight: views are built by the table (their documented model is
    SeatView), so the hot play routes skip re-validating them."""
    return Response(_encode(content), media_type="application/json")


class _EncodedViews:
    """The body and ETag of the views last sent over HTTP.  A long-polling seat asks again
    at once with the ETag of the view it got; the view is then usually the same object or
    an equal one, and is not encoded and hashed again."""

    def __init__(self, size: int = 2048) -> None:
        self._size = size  # seats remembered (all are forgotten when it is reached)
        self._last: dict[tuple[Any, Any], tuple[dict[str, Any], bytes, str]] = {}

    def of(self, view: dict[str, Any]) -> tuple[bytes, str]:
        """The view's JSON and its ETag (a hash of that JSON)."""
        key = (view.get("table"), view.get("seat"))
        found = self._last.get(key)
        if found is not None and (found[0] is view or found[0] == view):
            return found[1], found[2]
        body = _encode(view)
        tag = hashlib.sha256(body).hexdigest()[:32]
        if len(self._last) >= self._size:
            self._last.clear()
        self._last[key] = (view, body, tag)
        return body, tag

    def etag(self, view: dict[str, Any]) -> str:
        return self.of(view)[1]


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
        raise ValueError(f"a message may hold at most {MAX_WS_MESSAGE} characters")
    return str(text)


def _ws_problem(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "the message nests too deeply"
    if isinstance(exc, _BinaryFrame) or str(exc).startswith("a message may"):
        return str(exc)
    return "messages must be JSON objects"


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


# ---------------------------------------------------------------------------------------
# the door: credentials and sizes before any body is read
# ---------------------------------------------------------------------------------------


class _TooLarge(Exception):
    pass


class Guard:
    """ASGI middleware in front of every HTTP request.  A request that changes anything
    (POST, PUT, PATCH, DELETE) must carry a valid bearer token — checked before a byte of
    its body is read — and its body is capped (413 past :data:`MAX_BODY`, uploads
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
        if self.authority.resolve(token) is None:
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


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# ---------------------------------------------------------------------------------------
# credentials
# ---------------------------------------------------------------------------------------

bearer = HTTPBearer(auto_error=False, description="operator token or seat token")

# The credential checks are coroutines: a plain function would be run in the thread pool for
# every request (two thread hand-offs per seat request, the largest cost of the HTTP play);
# they only hash the token and look it up.


async def principal(
    request: Request, cred: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> Principal:
    """The caller, from the bearer token (401 without a valid one)."""
    authority: Authority = request.app.state.authority
    p = authority.resolve(cred.credentials if cred else None)
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

# ---------------------------------------------------------------------------------------
# the app
# ---------------------------------------------------------------------------------------


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
    db_url: str = S.DEFAULT_URL, operator_token: str | None = None, *, serving: bool = False
) -> FastAPI:
    """The application over the store at ``db_url``; ``operator_token`` (at least 16
    characters) authorizes operator calls.  ``serving``: this process exists to serve the
    app (``zhuoji serve``), so the garbage collector is tuned for it once the tables are
    loaded (:func:`tune_gc`)."""
    if not operator_token:
        raise ValueError("an operator token is required")
    store = S.Store(db_url)
    authority = Authority(operator_token)
    manager = TableManager(store, authority)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
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
        if serving:
            tune_gc()
        try:
            yield
        finally:
            await manager.close()
            await store.stop()

    app = FastAPI(
        title="zhuoji table server",
        version=zhuoji.__version__,
        description=(
            "Tables of Guizhou 捉鸡 mahjong (and the other shipped variants) for humans and bots. "
            "Operator calls need the operator token, seat calls a seat token, both as "
            "`Authorization: Bearer …`. Live play runs over the WebSocket `/ws/tables/{id}` "
            "(see docs/server.md)."
        ),
        lifespan=lifespan,
        responses={401: {"model": ErrorOut}, 403: {"model": ErrorOut}},
    )
    encoded = _EncodedViews()
    app.state.manager = manager
    app.state.authority = authority
    app.state.store = store

    app.add_middleware(Guard, authority=authority)

    @app.exception_handler(TableError)
    async def _table_error(_request: Request, exc: TableError) -> JSONResponse:
        body: dict[str, Any] = {"detail": str(exc)}
        if isinstance(exc, VariantRefused):
            body["problems"] = exc.problems
        return JSONResponse(body, status_code=exc.status)

    @app.exception_handler(RecursionError)
    async def _too_deep(_request: Request, _exc: RecursionError) -> JSONResponse:
        return JSONResponse({"detail": "the request nests too deeply"}, status_code=400)

    errors: dict[int | str, dict[str, Any]] = {
        404: {"model": ErrorOut},
        409: {"model": ErrorOut},
        422: {"model": ErrorOut},
    }

    # -- service ---------------------------------------------------------------------------

    @app.get("/api/health", response_model=HealthOut, tags=["service"])
    async def health(
        request: Request,
        cred: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> dict[str, Any]:
        """Liveness (no credential needed).  The counters — which move with every answer
        in a claim window — are shown to the operator only (zeros otherwise)."""
        p = authority.resolve(cred.credentials if cred else None)
        op = p is not None and p.role is Role.OPERATOR
        return {
            "ok": True,
            "version": zhuoji.__version__,
            "backend": store.backend,
            "tables": len(manager.tables),
            "live_rounds": sum(1 for t in manager.tables.values() if t.live),
            "actions": manager.actions if op else 0,
            "commits": store.commits if op else 0,
            "writes": store.requests if op else 0,
            "broken_tables": manager.broken,
        }

    @app.get("/api/whoami", response_model=WhoAmI, tags=["service"])
    async def whoami(p: Caller) -> dict[str, Any]:
        """What the bearer token is: the operator, or which seat of which table."""
        return {"role": p.role, "table": p.table_id, "seat": p.seat}

    # -- variants ------------------------------------------------------------------------

    lib = manager.rules.library

    def version_out(v: StoredVariant) -> dict[str, Any]:
        return {
            "name": v.name, "version": v.version, "ref": v.ref, "parent": v.parent,
            "title": v.title, "sha256": v.sha256, "author": v.author,
            "created_at": v.created_at, "differences": in_words(v.differences),
        }  # fmt: skip

    @app.get("/api/variants", response_model=list[VariantOut], tags=["variants"])
    async def variants() -> list[dict[str, Any]]:
        """The variants a table can use: shipped ones, and the operator's stored ones."""
        out = [
            {
                "name": n,
                "title": manager.rules.title(n),
                "kind": "shipped",
                "latest": n,
                "versions": 0,
            }
            for n in sorted(lib.shipped)
        ]
        for name, versions in sorted(lib.stored.items()):
            last = versions[-1]
            out.append(
                {"name": name, "title": last.title, "kind": "stored", "latest": last.ref,
                 "versions": len(versions)}
            )  # fmt: skip
        return out

    @app.post(
        "/api/variants",
        response_model=VariantVersionOut,
        status_code=201,
        tags=["variants"],
        responses=errors,
    )
    async def upload_variant(body: VariantIn, p: Operator) -> dict[str, Any]:
        """Store a variant: YAML that sets its ``name`` and ``extends`` a shipped or stored
        variant.  It is checked like ``zhuoji variants validate`` (same messages, located
        at ``NAME@VERSION:LINE``; hook ids only as installed on this server) and stored as
        the name's next version, with its author, time, SHA-256 and its differences from
        its parent in words.  Refused: 422 with ``problems``."""
        v = await manager.rules.store_variant(body.source, body.author or p.role.value)
        return version_out(v)

    @app.post("/api/variants/check", response_model=VariantCheckOut, tags=["variants"])
    async def check_variant(body: VariantIn, _op: Operator) -> dict[str, Any]:
        """Check YAML as an upload would be checked, without storing it (for editors)."""
        try:
            name, version, parent, ruleset = await asyncio.to_thread(lib.check_upload, body.source)
            rows = await asyncio.to_thread(lib.differences, parent, ruleset)
        except VariantError as exc:
            return {"ok": False, "problems": exc.problems}
        return {
            "ok": True, "problems": [], "name": name, "version": version,
            "differences": in_words(rows),
        }  # fmt: skip

    @app.get(
        "/api/variants/{name}/versions",
        response_model=list[VariantVersionOut],
        tags=["variants"],
        responses=errors,
    )
    async def variant_versions(name: str) -> list[dict[str, Any]]:
        """Every stored version of a variant, oldest first."""
        versions = lib.stored.get(name)
        if not versions:
            raise TableError(404, f"no stored variant {name[:60]!r}")
        return [version_out(v) for v in versions]

    @app.get("/api/variants/{ref}/source", tags=["variants"], responses=errors)
    async def variant_source(ref: str) -> PlainTextResponse:
        """The YAML of a stored version (``NAME@VERSION``, or NAME for the latest) or of a
        shipped variant."""
        try:
            pinned = lib.pin(ref)
        except VariantError as exc:
            raise TableError(404, str(exc)) from exc
        stored = lib.get(pinned)
        shipped = VARIANTS_DIR / f"{pinned}.yaml"
        text = stored.source if stored is not None else shipped.read_text(encoding="utf-8")
        return PlainTextResponse(text, media_type="text/yaml; charset=utf-8")

    @app.get("/api/variants/{ref}/effective", tags=["variants"], responses=errors)
    async def variant_effective(ref: str) -> dict[str, Any]:
        """The variant's merged rules with every hook parameter filled in (what a house
        rules form starts from)."""
        try:
            pinned = lib.pin(ref)
        except VariantError as exc:
            raise TableError(404, str(exc)) from exc
        ruleset = await asyncio.to_thread(manager.rules.ruleset, pinned, None)
        return {"ref": pinned, "title": ruleset.variant.title, "rules": effective(ruleset)}

    @app.get("/api/schema/variant", tags=["variants"])
    async def schema_of_variants() -> dict[str, Any]:
        """The variant JSON Schema (titles, descriptions; hooks installed here)."""
        return variant_schema()

    @app.post("/api/rules/describe", response_model=RulesOut, tags=["variants"], responses=errors)
    async def describe_rules(body: RulesDescribeIn, _op: Operator) -> dict[str, Any]:
        """Check house rules on a variant and say them in words (422 with the loader's
        message if they do not hold)."""
        pinned = manager.rules.pin(body.variant)
        await manager.rules.checked_ruleset(pinned, body.overrides)
        return await asyncio.to_thread(manager.rules.describe, pinned, body.overrides)

    # -- tables (operator) ---------------------------------------------------------------

    @app.post(
        "/api/tables",
        response_model=TableCreated,
        status_code=201,
        tags=["tables"],
        responses=errors,
    )
    async def create_table(body: TableIn, _op: Operator) -> dict[str, Any]:
        """Create a table: a variant with payout overrides (validated by the variant loader;
        a bad override is refused with its message, 422), its seats (human or bot), the
        match length and who starts rounds.  The response holds each human seat's token:
        hand it to that player (it is not shown again; `POST …/seats/{seat}/token` issues a
        new one)."""
        spec = TableSpec(
            name=body.name,
            variant=body.variant,
            overrides=body.overrides,
            seats=[SeatSpec(s.kind, s.bot, s.name) for s in body.seats]
            if body.seats is not None
            else None,
            seed=body.seed,
            rounds=body.rounds,
            next_round=body.next_round,
            bot_delay_ms=body.bot_delay_ms,
            turn_seconds=body.turn_seconds,
            claim_window_ms=body.claim_window_ms,
        )
        table, tokens = await manager.create_table(spec)
        async with table.lock:
            return {**table_out(table, manager), "tokens": tokens}

    @app.get("/api/tables", response_model=list[TableOut], tags=["tables"])
    async def list_tables() -> list[dict[str, Any]]:
        """Every table: seats, current round, match scores, rule history (no secrets)."""
        return [table_out(t, manager) for t in manager.tables.values()]

    @app.get("/api/tables/{table_id}", response_model=TableOut, tags=["tables"], responses=errors)
    async def get_table(table_id: str) -> dict[str, Any]:
        """One table: seats, current round, match scores, rule history (no secrets)."""
        t = manager.get(table_id)
        async with t.lock:
            return table_out(t, manager)

    @app.put(
        "/api/tables/{table_id}/rules",
        response_model=RuleChangeOut,
        tags=["tables"],
        responses=errors,
    )
    async def change_rules(table_id: str, body: RulesIn, _op: Operator) -> dict[str, Any]:
        """Change the table's variant and overrides from the next round on.  Refused (409)
        while a round is in play; the change is recorded with the round it applies from."""
        rule = await manager.change_rules(table_id, body.variant, body.overrides)
        return {**rule.__dict__, **manager.rules.describe(rule.variant, rule.overrides)}

    @app.post(
        "/api/tables/{table_id}/rounds",
        response_model=RoundOut,
        status_code=201,
        tags=["rounds"],
        responses=errors,
    )
    async def start_round(table_id: str, _op: Operator) -> dict[str, Any]:
        """Start the next round (409 while one is in play or when the match is over)."""
        row = await manager.start_round(table_id)
        return round_out(row)

    @app.get(
        "/api/tables/{table_id}/rounds",
        response_model=list[RoundOut],
        tags=["rounds"],
        responses=errors,
    )
    async def list_rounds(table_id: str) -> list[dict[str, Any]]:
        """Every round of the table, with its itemized settlement once it is over."""
        t = manager.get(table_id)
        async with t.lock:
            return [round_out(r) for r in t.rounds]

    @app.get(
        "/api/tables/{table_id}/rounds/{number}",
        response_model=RoundOut,
        tags=["rounds"],
        responses=errors,
    )
    async def get_round(table_id: str, number: int) -> dict[str, Any]:
        """One round; `settlement` is the itemized ledger once it is over."""
        t = manager.get(table_id)
        async with t.lock:
            if not 1 <= number <= len(t.rounds):
                raise TableError(404, f"table {table_id} has no round {number}")
            return round_out(t.rounds[number - 1])

    @app.get(
        "/api/tables/{table_id}/rounds/{number}/log",
        response_model=LogOut,
        tags=["rounds"],
        responses=errors,
    )
    async def round_log(table_id: str, number: int, _op: Operator) -> dict[str, Any]:
        """The round's full event log as stored (operator only: it holds the wall and
        every hand).  `zhuoji replay` re-checks a finished round's log."""
        t = manager.get(table_id)
        if not 1 <= number <= len(t.rounds):
            raise TableError(404, f"table {table_id} has no round {number}")
        events = await asyncio.to_thread(store.read_events, table_id, number)
        return {"table": table_id, "round": number, "events": events}

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/token",
        response_model=TokenOut,
        tags=["tables"],
        responses=errors,
    )
    async def issue_token(table_id: str, seat: int, _op: Operator) -> dict[str, Any]:
        """Issue a new token for a human seat; the previous one stops working."""
        token = await manager.issue_token(table_id, seat)
        return {"table": table_id, "seat": seat, "token": token}

    @app.delete(
        "/api/tables/{table_id}/seats/{seat}/token",
        status_code=204,
        tags=["tables"],
        responses=errors,
    )
    async def revoke_token(table_id: str, seat: int, _op: Operator) -> Response:
        """Revoke a human seat's token (kept across restarts): its connections close and
        nobody can act for the seat until `POST …/token` issues a new one."""
        await manager.revoke_token(table_id, seat)
        return Response(status_code=204)

    @app.get(
        "/api/tables/{table_id}/seats/{seat}/view",
        response_model=SeatView,
        tags=["tables"],
        responses=errors,
    )
    async def operator_view(table_id: str, seat: int, _op: Operator) -> Response:
        """Any seat's view, for the operator (support, disputes)."""
        t = manager.get(table_id)
        t.seat_of(seat)
        return _json(await manager.view(table_id, seat))

    # -- seats (seat token) -------------------------------------------------------------

    @app.get(
        "/api/tables/{table_id}/view", response_model=SeatView, tags=["play"], responses=errors
    )
    async def seat_view(
        table_id: str,
        p: SeatHolder,
        changed_from: Annotated[
            str | None,
            Query(max_length=64, description="long poll: the ETag of the view the client has"),
        ] = None,
        wait: Annotated[float, Query(ge=0, le=30, description="seconds to wait for a change")] = 0,
    ) -> Response:
        """The calling seat's view (the same as the WebSocket's `state` messages), with its
        `ETag`.  Long poll: with `changed_from=ETAG&wait=S` the answer comes when the view
        differs from that one, or after S seconds (the same view again)."""
        assert p.seat is not None
        seat = p.seat

        view = await manager.wait_view(table_id, seat, encoded.etag, changed_from, wait)
        body, tag = encoded.of(view)
        return Response(body, media_type="application/json", headers={"ETag": tag})

    @app.post(
        "/api/tables/{table_id}/actions", response_model=ActionOut, tags=["play"], responses=errors
    )
    async def act(table_id: str, body: ActionIn, p: SeatHolder) -> Response:
        """Act for the calling seat.  The engine checks it: an illegal or out-of-turn action
        is refused (409) and changes nothing; an action for another seat is refused (403)."""
        assert p.seat is not None
        view = await manager.act(table_id, p.seat, body.action, body.seq)
        return _json({"ok": True, "view": view})

    @app.post(
        "/api/tables/{table_id}/ready", response_model=SeatView, tags=["play"], responses=errors
    )
    async def ready(table_id: str, p: SeatHolder) -> dict[str, Any]:
        """Ready for the next round (tables with `next_round: ready`)."""
        assert p.seat is not None
        await manager.ready(table_id, p.seat)
        return await manager.view(table_id, p.seat)

    # -- WebSocket --------------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        """Authenticate with ``{"type": "auth", "token": …}`` as the first message (or the
        ``token`` query parameter); then receive ``hello`` and ``state`` messages and send
        ``action`` (``{"type": "action", "action": "discard 5m", "seq": 12, "id": 1}``),
        ``ready``, ``sync`` or ``ping``."""
        await ws.accept()
        token: Any = ws.query_params.get("token")
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
        p = authority.resolve(token) if isinstance(token, str) and len(token) <= 200 else None
        refusal: tuple[int, str] | None = None
        if p is None:
            refusal = (4401, "a valid seat token is required (a string)")
        elif p.role is not Role.PLAYER:
            refusal = (4403, "the WebSocket is for seats; use a seat token")
        elif p.table_id != table_id:
            refusal = (4403, "this seat token is for another table")
        elif table_id not in manager.tables:
            refusal = (4404, f"no table {table_id[:60]!r}")
        if refusal is not None or p is None or p.seat is None:
            code, text = refusal or (4401, "a valid seat token is required")
            with contextlib.suppress(Exception):
                await ws.send_text(
                    json.dumps({"type": "error", "status": code - 4000, "error": text})
                )
                await ws.close(code=code, reason=text)
            return
        seat = p.seat
        conn = WsListener(ws, seat, (ws.scope.get("extensions") or {}).get(SEND_TEXT_UTF8))
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
                    msg = wire.decode(await _receive_text(ws))
                except (ValueError, RecursionError) as exc:
                    conn.push({"type": "error", "status": 400, "error": _ws_problem(exc)})
                    continue
                if not isinstance(msg, dict):
                    conn.push(
                        {"type": "error", "status": 400, "error": "messages must be JSON objects"}
                    )
                    continue
                await _handle(conn, table_id, seat, msg)
        except WebSocketDisconnect:
            pass
        except RuntimeError:
            pass  # the socket closed under us (slow client)
        finally:
            manager.detach(table_id, conn)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def _handle(conn: WsListener, table_id: str, seat: int, msg: dict[str, Any]) -> None:
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
                conn.push(
                    {"type": "error", "id": rid, "status": 409, "error": "already authenticated"}
                )
            else:
                raise TableError(
                    400, f"unknown message type {kind!r}; known: action, ready, sync, ping"
                )
        except TableError as exc:
            conn.push({"type": "error", "id": rid, "status": exc.status, "error": str(exc)})

    # -- browser client -------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    @app.get("/operator", include_in_schema=False)
    async def operator_page() -> FileResponse:
        return FileResponse(STATIC_DIR / "operator.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC_DIR / "table.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
