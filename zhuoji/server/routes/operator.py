"""The service as its operator watches it: liveness and counters (``/api/health``), what
is quarantined and why (``/api/quarantine``), and what a bearer token is (``/api/whoami``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials

import zhuoji
from zhuoji.server.auth import Role
from zhuoji.server.deps import Caller, Operator, authority_of, bearer, manager_of
from zhuoji.server.models import AUTH_ERRORS, HealthOut, QuarantineOut, WhoAmI

router = APIRouter(tags=["service"], responses=AUTH_ERRORS)


@router.get("/api/health", response_model=HealthOut)
async def health(
    request: Request,
    cred: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> dict[str, Any]:
    """Liveness (no credential needed).  The counters — which move with every answer
    in a claim window — are shown to the operator only (zeros otherwise)."""
    p = authority_of(request).resolve(cred.credentials if cred else None)
    op = p is not None and p.role is Role.OPERATOR
    manager = manager_of(request)
    store = manager.store
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


@router.get("/api/quarantine", response_model=QuarantineOut)
async def quarantine(request: Request, _op: Operator) -> dict[str, Any]:
    """The tables and stored variants not served because their stored records are
    damaged, each with the reason (found at start; ``zhuoji serve --check`` finds the
    same without starting).  The rest is served as ever."""
    manager = manager_of(request)
    return {
        "tables": [{"id": k, "reason": v} for k, v in sorted(manager.broken.items())],
        "variants": [
            {"name": k, "reason": v} for k, v in sorted(manager.rules.quarantined.items())
        ],
    }


@router.get("/api/whoami", response_model=WhoAmI)
async def whoami(p: Caller) -> dict[str, Any]:
    """What the bearer token is: the operator, or which seat of which table."""
    return {"role": p.role, "table": p.table_id, "seat": p.seat}
