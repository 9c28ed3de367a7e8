"""Tables, their rules and their rounds: what the operator creates and changes, and what
anyone may read of them (no secrets: no seed, no token, no concealed tile)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from zhuoji.server import store as S
from zhuoji.server.deps import Operator, manager_of
from zhuoji.server.manager import SeatSpec, TableSpec
from zhuoji.server.models import (
    AUTH_ERRORS,
    ERRORS,
    LogOut,
    RoundOut,
    RuleChangeOut,
    RulesIn,
    TableCreated,
    TableIn,
    TableOut,
)
from zhuoji.server.rulebook import RuleBook
from zhuoji.server.tables import (
    DEFAULT_CLAIM_WINDOW_MS,
    Table,
    TableError,
    default_claim_window,
)

router = APIRouter(responses=AUTH_ERRORS)


def table_out(t: Table, rules: RuleBook) -> dict[str, Any]:
    """A table as the API shows it (:class:`TableOut`)."""
    rule = t.rule
    return {
        "id": t.id,
        "name": t.name,
        "created_at": t.created_at,
        "players": t.players,
        **rules.describe(rule.variant, rule.overrides),
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
                "connected": s.presence(),
                "ready": s.ready,
            }
            for s in t.seats
        ],
        "scores": t.scores(),
        "rules_history": [
            {
                "seq": r.seq,
                "from_round": r.from_round,
                **rules.describe(r.variant, r.overrides),
                "changed_at": r.changed_at,
            }
            for r in t.rules
        ],
    }


def round_out(r: S.RoundRow) -> dict[str, Any]:
    """A round as the API shows it (:class:`RoundOut`): its row without the seed."""
    d = dict(r.__dict__)
    d.pop("seed", None)  # the seed would give away the wall
    return d


# -- tables --------------------------------------------------------------------------------


@router.post(
    "/api/tables", response_model=TableCreated, status_code=201, tags=["tables"], responses=ERRORS
)
async def create_table(body: TableIn, _op: Operator, request: Request) -> dict[str, Any]:
    """Create a table: a variant with payout overrides (validated by the variant loader;
    a bad override is refused with its message, 422), its seats (human or bot), the
    match length and who starts rounds.  The response holds each human seat's token:
    hand it to that player (it is not shown again; `POST …/seats/{seat}/token` issues a
    new one)."""
    manager = manager_of(request)
    window = body.claim_window_ms
    if window is None:
        # seats left out are all human (two or more people): the fixed window
        kinds = [s.kind for s in body.seats] if body.seats is not None else None
        window = DEFAULT_CLAIM_WINDOW_MS if kinds is None else default_claim_window(kinds)
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
        claim_window_ms=window,
    )
    table, tokens = await manager.create_table(spec)
    async with table.lock:
        return {**table_out(table, manager.rules), "tokens": tokens}


@router.get("/api/tables", response_model=list[TableOut], tags=["tables"])
async def list_tables(
    request: Request,
    local: Annotated[
        bool,
        Query(description="a scale-out: only the tables this process serves (else all of them)"),
    ] = False,
) -> list[dict[str, Any]]:
    """Every table: seats, current round, match scores, rule history (no secrets).  In a
    scale-out, those of every process (each asked for its own)."""
    manager = manager_of(request)
    here = [table_out(t, manager.rules) for t in manager.tables.values()]
    own = manager.ownership
    if own is None or local:
        return here
    others = await asyncio.to_thread(own.peers)
    found = {t["id"]: t for t in await request.app.state.peers.tables(others)}
    found.update((t["id"], t) for t in here)
    return sorted(found.values(), key=lambda t: (t["created_at"], t["id"]))


@router.get("/api/tables/{table_id}", response_model=TableOut, tags=["tables"], responses=ERRORS)
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    """One table: seats, current round, match scores, rule history (no secrets)."""
    manager = manager_of(request)
    t = manager.get(table_id)
    async with t.lock:
        return table_out(t, manager.rules)


@router.put(
    "/api/tables/{table_id}/rules", response_model=RuleChangeOut, tags=["tables"], responses=ERRORS
)
async def change_rules(
    table_id: str, body: RulesIn, _op: Operator, request: Request
) -> dict[str, Any]:
    """Change the table's variant and overrides from the next round on.  Refused (409)
    while a round is in play; the change is recorded with the round it applies from."""
    manager = manager_of(request)
    rule = await manager.change_rules(table_id, body.variant, body.overrides)
    return {**rule.__dict__, **manager.rules.describe(rule.variant, rule.overrides)}


# -- rounds --------------------------------------------------------------------------------


@router.post(
    "/api/tables/{table_id}/rounds",
    response_model=RoundOut,
    status_code=201,
    tags=["rounds"],
    responses=ERRORS,
)
async def start_round(table_id: str, _op: Operator, request: Request) -> dict[str, Any]:
    """Start the next round (409 while one is in play or when the match is over)."""
    row = await manager_of(request).start_round(table_id)
    return round_out(row)


@router.get(
    "/api/tables/{table_id}/rounds",
    response_model=list[RoundOut],
    tags=["rounds"],
    responses=ERRORS,
)
async def list_rounds(table_id: str, request: Request) -> list[dict[str, Any]]:
    """Every round of the table, with its itemized settlement once it is over."""
    t = manager_of(request).get(table_id)
    async with t.lock:
        return [round_out(r) for r in t.rounds]


@router.get(
    "/api/tables/{table_id}/rounds/{number}",
    response_model=RoundOut,
    tags=["rounds"],
    responses=ERRORS,
)
async def get_round(table_id: str, number: int, request: Request) -> dict[str, Any]:
    """One round; `settlement` is the itemized ledger once it is over."""
    t = manager_of(request).get(table_id)
    async with t.lock:
        if not 1 <= number <= len(t.rounds):
            raise TableError(404, f"table {table_id} has no round {number}")
        return round_out(t.rounds[number - 1])


@router.get(
    "/api/tables/{table_id}/rounds/{number}/log",
    response_model=LogOut,
    tags=["rounds"],
    responses=ERRORS,
)
async def round_log(table_id: str, number: int, _op: Operator, request: Request) -> dict[str, Any]:
    """The round's full event log as stored (operator only: it holds the wall and
    every hand).  `zhuoji replay` re-checks a finished round's log."""
    manager = manager_of(request)
    t = manager.get(table_id)
    if not 1 <= number <= len(t.rounds):
        raise TableError(404, f"table {table_id} has no round {number}")
    events = await asyncio.to_thread(manager.store.read_events, table_id, number)
    return {"table": table_id, "round": number, "events": events}
