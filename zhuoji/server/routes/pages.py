"""The browser client: the lobby (``/``), the operator's page (``/operator``), a table's
page (``/table/{id}``) and their static files (``/static``; no build step)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).parent.parent / "static"

router = APIRouter(include_in_schema=False)


def static_files() -> StaticFiles:
    """The client's files, mounted at ``/static`` (a router cannot hold a mount)."""
    return StaticFiles(directory=STATIC_DIR)


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html")


@router.get("/operator")
async def operator_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "operator.html")


@router.get("/table/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "table.html")
