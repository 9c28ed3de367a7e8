"""A table's seats: their tokens and views for the operator, and for a seat's own holder
its view (with a long poll), its actions and its ready, over plain HTTP (the WebSocket,
:mod:`zhuoji.server.routes.socket`, carries the same)."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, Response

from zhuoji.server import wire
from zhuoji.server.deps import Operator, SeatHolder, manager_of, views_of
from zhuoji.server.models import AUTH_ERRORS, ERRORS, ActionIn, ActionOut, SeatView, TokenOut

router = APIRouter(responses=AUTH_ERRORS)

#: long polls one seat may have waiting at once (a few devices or tabs; 429 past it)
MAX_SEAT_POLLS = 4


def _seen(request: Request, table_id: str, seat: int) -> None:
    """The seat is here over HTTP (its presence in the listing: Seat.presence)."""
    manager_of(request).get(table_id).seats[seat].http_seen = time.monotonic()


def _json(content: Any) -> Response:
    """A view as JSON, straight: views are built by the table (their documented model is
    SeatView), so the hot play routes skip re-validating them."""
    return Response(wire.encode(content), media_type="application/json")


# -- seats (operator) ----------------------------------------------------------------------


@router.post(
    "/api/tables/{table_id}/seats/{seat}/token",
    response_model=TokenOut,
    tags=["tables"],
    responses=ERRORS,
)
async def issue_token(table_id: str, seat: int, _op: Operator, request: Request) -> dict[str, Any]:
    """Issue a new token for a human seat; the previous one stops working."""
    token = await manager_of(request).issue_token(table_id, seat)
    return {"table": table_id, "seat": seat, "token": token}


@router.delete(
    "/api/tables/{table_id}/seats/{seat}/token",
    status_code=204,
    tags=["tables"],
    responses=ERRORS,
)
async def revoke_token(table_id: str, seat: int, _op: Operator, request: Request) -> Response:
    """Revoke a human seat's token (kept across restarts): its connections close and
    nobody can act for the seat until `POST …/token` issues a new one."""
    await manager_of(request).revoke_token(table_id, seat)
    return Response(status_code=204)


@router.post(
    "/api/tables/{table_id}/seats/{seat}/bot",
    status_code=204,
    tags=["tables"],
    responses=ERRORS,
)
async def seat_to_bot(
    table_id: str,
    seat: int,
    _op: Operator,
    request: Request,
    bot: Annotated[str, Query(max_length=40, description="a bot of the ladder")] = "cautious",
) -> Response:
    """Give a human seat nobody is at to a bot: its token stops working and the bot plays
    it from now on (409 while someone is at it)."""
    await manager_of(request).seat_to_bot(table_id, seat, bot)
    return Response(status_code=204)


@router.get(
    "/api/tables/{table_id}/seats/{seat}/view",
    response_model=SeatView,
    tags=["tables"],
    responses=ERRORS,
)
async def operator_view(table_id: str, seat: int, _op: Operator, request: Request) -> Response:
    """Any seat's view, for the operator (support, disputes)."""
    manager = manager_of(request)
    manager.get(table_id).seat_of(seat)
    return _json(await manager.view(table_id, seat))


# -- play (seat token) ---------------------------------------------------------------------


@router.get("/api/tables/{table_id}/view", response_model=SeatView, tags=["play"], responses=ERRORS)
async def seat_view(
    table_id: str,
    p: SeatHolder,
    request: Request,
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
    _seen(request, table_id, p.seat)
    encoded = views_of(request)
    manager = manager_of(request)
    st = manager.get(table_id).seats[p.seat]
    if wait > 0 and changed_from and st.polls >= MAX_SEAT_POLLS:
        raise HTTPException(429, f"this seat has {MAX_SEAT_POLLS} long polls waiting already")
    st.polls += 1  # checked and counted with no await between
    try:
        view = await manager.wait_view(table_id, p.seat, encoded.etag, changed_from, wait)
    finally:
        st.polls -= 1
    body, tag = encoded.of(view)
    return Response(body, media_type="application/json", headers={"ETag": tag})


@router.post(
    "/api/tables/{table_id}/actions", response_model=ActionOut, tags=["play"], responses=ERRORS
)
async def act(table_id: str, body: ActionIn, p: SeatHolder, request: Request) -> Response:
    """Act for the calling seat.  The engine checks it: an illegal or out-of-turn action
    is refused (409) and changes nothing; an action for another seat is refused (403)."""
    assert p.seat is not None
    _seen(request, table_id, p.seat)
    view = await manager_of(request).act(table_id, p.seat, body.action, body.seq)
    return _json({"ok": True, "view": view})


@router.post(
    "/api/tables/{table_id}/ready", response_model=SeatView, tags=["play"], responses=ERRORS
)
async def ready(table_id: str, p: SeatHolder, request: Request) -> dict[str, Any]:
    """Ready for the next round (tables with `next_round: ready`)."""
    assert p.seat is not None
    _seen(request, table_id, p.seat)
    manager = manager_of(request)
    await manager.ready(table_id, p.seat)
    return await manager.view(table_id, p.seat)
