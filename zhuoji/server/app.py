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
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

import zhuoji
from zhuoji import tiles as T
from zhuoji.server import store as S
from zhuoji.server import turn_timer
from zhuoji.server.auth import Authority, Principal, Role
from zhuoji.server.tables import (
    NextRound,
    SeatKind,
    SeatSpec,
    Table,
    TableError,
    TableManager,
    TableSpec,
)
from zhuoji.variant_io import builtin_names

log = logging.getLogger("zhuoji.server")

STATIC_DIR = Path(__file__).with_name("static")
AUTH_TIMEOUT = 10.0  # seconds a WebSocket has to authenticate
QUEUE_LIMIT = 1000  # messages waiting for a slow client before it is disconnected


# ---------------------------------------------------------------------------------------
# request and response models
# ---------------------------------------------------------------------------------------


class ErrorOut(BaseModel):
    detail: str = Field(description="what was refused and why")


class SeatIn(BaseModel):
    """One seat of a new table."""

    kind: SeatKind = Field(
        SeatKind.HUMAN, description="human: joined with a seat token; bot: played by the server"
    )
    bot: str = Field("greedy", description="for bot seats: the bot (greedy, random)")
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
    variant: str = Field("guiyang", description="a shipped variant (GET /api/variants)")
    overrides: dict[str, Any] = Field(
        default_factory=dict,
        description="payout/rule overrides, nested or dotted keys "
        '(`{"settle.chickens.chongfeng.multiplier": 3}`); validated like `--set`',
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


class RulesIn(BaseModel):
    """New rules, from the next round on."""

    variant: str | None = Field(None, description="default: the table's current variant")
    overrides: dict[str, Any] = Field(
        default_factory=dict,
        description="the complete set of overrides (replaces the previous set)",
    )


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
    rounds_total: int
    rounds_played: int
    current_round: int | None
    phase: str | None = Field(description="turn, claim, rob, end; null before the first round")
    next_round: NextRound
    bot_delay_ms: int
    turn_seconds: int | None = Field(description="the turn timer; null: none")
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
        "variant": rule.variant,
        "title": manager.titles.get(rule.variant, rule.variant),
        "overrides": rule.overrides,
        "rounds_total": t.rounds_total,
        "rounds_played": sum(1 for r in t.rounds if r.status == "ended"),
        "current_round": t.round_number,
        "phase": t.current.phase.value if t.current is not None else None,
        "next_round": t.next_round,
        "bot_delay_ms": t.bot_delay_ms,
        "turn_seconds": t.clock.seconds,
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
                "variant": r.variant,
                "title": manager.titles.get(r.variant, r.variant),
                "overrides": r.overrides,
                "changed_at": r.changed_at,
            }
            for r in t.rules
        ],
    }


def round_out(r: S.RoundRow) -> dict[str, Any]:
    d = dict(r.__dict__)
    d.pop("seed", None)  # the seed would give away the wall
    return d


class WsListener:
    """One WebSocket of one seat: messages queue up and a task sends them in order."""

    def __init__(self, ws: WebSocket, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        # a message to send, or (code, reason) to close the connection with
        self.queue: asyncio.Queue[dict[str, Any] | tuple[int, str]] = asyncio.Queue(QUEUE_LIMIT)
        self.closing = False

    def push(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            # a client this far behind resynchronizes on reconnect (every state is complete)
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.close(1013, "client too slow; reconnect")

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait((code, reason))

    async def run(self) -> None:
        while True:
            message = await self.queue.get()
            if isinstance(message, tuple):
                await self.ws.close(code=message[0], reason=message[1])
                return
            await self.ws.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))


# ---------------------------------------------------------------------------------------
# credentials
# ---------------------------------------------------------------------------------------

bearer = HTTPBearer(auto_error=False, description="operator token or seat token")


def principal(
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


def operator(p: Annotated[Principal, Depends(principal)]) -> Principal:
    if p.role is not Role.OPERATOR:
        raise HTTPException(403, "this needs the operator credential; a seat token cannot do it")
    return p


def seat_holder(table_id: str, p: Annotated[Principal, Depends(principal)]) -> Principal:
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


def create_app(db_url: str = S.DEFAULT_URL, operator_token: str | None = None) -> FastAPI:
    """The application over the store at ``db_url``; ``operator_token`` (at least 16
    characters) authorizes operator calls."""
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
    app.state.manager = manager
    app.state.authority = authority
    app.state.store = store

    @app.exception_handler(TableError)
    async def _table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    errors: dict[int | str, dict[str, Any]] = {
        404: {"model": ErrorOut},
        409: {"model": ErrorOut},
        422: {"model": ErrorOut},
    }

    # -- service ---------------------------------------------------------------------------

    @app.get("/api/health", response_model=HealthOut, tags=["service"])
    async def health() -> dict[str, Any]:
        """Liveness and counters (no credential needed)."""
        return {
            "ok": True,
            "version": zhuoji.__version__,
            "backend": store.backend,
            "tables": len(manager.tables),
            "live_rounds": sum(1 for t in manager.tables.values() if t.live),
            "actions": manager.actions,
            "commits": store.commits,
            "writes": store.requests,
            "broken_tables": manager.broken,
        }

    @app.get("/api/whoami", response_model=WhoAmI, tags=["service"])
    async def whoami(p: Caller) -> dict[str, Any]:
        """What the bearer token is: the operator, or which seat of which table."""
        return {"role": p.role, "table": p.table_id, "seat": p.seat}

    @app.get("/api/variants", response_model=list[VariantOut], tags=["service"])
    async def variants() -> list[dict[str, str]]:
        """The shipped variants a table can use."""
        out = []
        for name in builtin_names():
            with contextlib.suppress(TableError):
                manager.ruleset(name, None)
            out.append({"name": name, "title": manager.titles.get(name, name)})
        return out

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
        return {**rule.__dict__, "title": manager.titles.get(rule.variant, rule.variant)}

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

    @app.get(
        "/api/tables/{table_id}/seats/{seat}/view",
        response_model=SeatView,
        tags=["tables"],
        responses=errors,
    )
    async def operator_view(table_id: str, seat: int, _op: Operator) -> dict[str, Any]:
        """Any seat's view, for the operator (support, disputes)."""
        t = manager.get(table_id)
        manager.seat_of(t, seat)
        return await manager.view(table_id, seat)

    # -- seats (seat token) -------------------------------------------------------------

    @app.get(
        "/api/tables/{table_id}/view", response_model=SeatView, tags=["play"], responses=errors
    )
    async def seat_view(table_id: str, p: SeatHolder) -> dict[str, Any]:
        """The calling seat's view (the same as the WebSocket's `state` messages)."""
        assert p.seat is not None
        return await manager.view(table_id, p.seat)

    @app.post(
        "/api/tables/{table_id}/actions", response_model=ActionOut, tags=["play"], responses=errors
    )
    async def act(table_id: str, body: ActionIn, p: SeatHolder) -> dict[str, Any]:
        """Act for the calling seat.  The engine checks it: an illegal or out-of-turn action
        is refused (409) and changes nothing; an action for another seat is refused (403)."""
        assert p.seat is not None
        view = await manager.act(table_id, p.seat, body.action, body.seq)
        return {"ok": True, "view": view}

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
        token = ws.query_params.get("token")
        try:
            if token is None:
                first = json.loads(await asyncio.wait_for(ws.receive_text(), AUTH_TIMEOUT))
                token = (
                    first.get("token")
                    if isinstance(first, dict) and first.get("type") == "auth"
                    else None
                )
        except (TimeoutError, ValueError, WebSocketDisconnect):
            token = None
        p = authority.resolve(token)
        refusal: tuple[int, str] | None = None
        if p is None:
            refusal = (4401, "a valid seat token is required")
        elif p.role is not Role.PLAYER:
            refusal = (4403, "the WebSocket is for seats; use a seat token")
        elif p.table_id != table_id:
            refusal = (4403, "this seat token is for another table")
        elif table_id not in manager.tables:
            refusal = (4404, f"no table {table_id!r}")
        if refusal is not None or p is None or p.seat is None:
            code, text = refusal or (4401, "a valid seat token is required")
            with contextlib.suppress(Exception):
                await ws.send_text(
                    json.dumps({"type": "error", "status": code - 4000, "error": text})
                )
                await ws.close(code=code, reason=text)
            return
        seat = p.seat
        conn = WsListener(ws, seat)
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
                    msg = json.loads(await ws.receive_text())
                except ValueError:
                    conn.push(
                        {"type": "error", "status": 400, "error": "messages must be JSON objects"}
                    )
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
        try:
            if kind == "action":
                text = msg.get("action")
                seq = msg.get("seq")
                if not isinstance(text, str) or not (seq is None or isinstance(seq, int)):
                    raise TableError(
                        422,
                        "an action message needs 'action' (text) and optionally 'seq' (integer)",
                    )
                view = await manager.act(table_id, seat, text, seq)
                conn.push({"type": "ack", "id": rid, "seq": view["seq"]})
            elif kind == "ready":
                await manager.ready(table_id, seat)
                conn.push({"type": "ack", "id": rid})
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

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC_DIR / "table.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
