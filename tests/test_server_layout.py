"""The table server's routes live in one router per resource (issue 24 §5): ``create_app``
only assembles them, and every path the app serves is handled in the module of
``zhuoji/server/routes/`` named after its resource."""

from __future__ import annotations

import inspect
from pathlib import Path

from fastapi import FastAPI

from zhuoji.server import app as app_module

ROUTES = "zhuoji.server.routes."
#: FastAPI's own pages, which the app does not write
FRAMEWORK = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}


def _app(tmp_path: Path) -> FastAPI:
    return app_module.create_app(f"sqlite:///{tmp_path / 'layout.db'}", "t" * 32)


def _handlers(app: FastAPI) -> dict[str, set[str]]:
    """Resource module → the paths its handlers serve."""
    out: dict[str, set[str]] = {}
    for route in app.router.routes:
        endpoint = getattr(route, "endpoint", None)
        path = getattr(route, "path", "")
        if endpoint is None or path in FRAMEWORK:
            continue
        out.setdefault(endpoint.__module__, set()).add(path)
    return out


def test_every_route_is_handled_by_its_resource_router(tmp_path: Path) -> None:
    handlers = _handlers(_app(tmp_path))
    outside = {m: p for m, p in handlers.items() if not m.startswith(ROUTES)}
    assert not outside, f"routes handled outside zhuoji/server/routes/: {outside}"
    resources = {m.removeprefix(ROUTES) for m in handlers}
    assert resources == {"operator", "variants", "tables", "seats", "socket", "pages"}
    assert sum(len(p) for p in handlers.values()) >= 20


def test_a_resource_router_serves_its_own_paths(tmp_path: Path) -> None:
    handlers = _handlers(_app(tmp_path))
    assert all(p.startswith("/api/tables/") for p in handlers[ROUTES + "seats"])
    assert all(p.startswith("/api/tables") for p in handlers[ROUTES + "tables"])
    assert all(p.startswith("/ws/") for p in handlers[ROUTES + "socket"])
    assert not any(p.startswith("/api/") for p in handlers[ROUTES + "pages"])


def test_create_app_only_assembles() -> None:
    source = inspect.getsource(app_module.create_app)
    assert "@" not in source  # no handler defined inside it
    assert len(source.splitlines()) < 60
