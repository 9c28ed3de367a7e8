"""The browser client: the lobby (``/``), the operator's page (``/operator``), a table's
page (``/table/{id}``) and their static files (``/static``; no build step); and the API
documentation (``/docs``) served whole from this machine, so it works offline.

``/docs`` is Swagger UI from the ``swagger-ui-bundle-v2`` package (the ``server`` extra:
Swagger UI's own JavaScript and CSS in a Python wheel), its two files served at
``/docs/assets/…``; FastAPI's default page would load them from a CDN and stay blank
without the internet.  Without the package ``/docs`` is a plain page of our own that
lists the routes from ``/openapi.json`` (``static/api-docs.html``).  ``/redoc`` (CDN
only) leads to ``/docs``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from zhuoji.server.names import words_script

STATIC_DIR = Path(__file__).parent.parent / "static"

#: the Swagger UI files /docs needs, by the name they are served under
SWAGGER_FILES = ("swagger-ui-bundle.js", "swagger-ui.css")

router = APIRouter(include_in_schema=False)


def swagger_dir() -> Path | None:
    """Where the installed Swagger UI's files are, or None without the package."""
    try:
        import swagger_ui_bundle  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    found = Path(swagger_ui_bundle.swagger_ui_path)
    return found if all((found / f).is_file() for f in SWAGGER_FILES) else None


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


@router.get("/words.js")
async def words_js() -> Response:
    """The names the pages show (seats, bots, tables) in each language, from
    :mod:`zhuoji.server.names`, as a script loaded before ``static/names.js``."""
    return Response(words_script(), media_type="text/javascript; charset=utf-8")


@router.get("/docs")
async def api_docs() -> Response:
    """Swagger UI from this machine (or the plain offline page)."""
    if swagger_dir() is None:
        return FileResponse(STATIC_DIR / "api-docs.html")
    return get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="zhuoji table server — API",
        swagger_js_url="/docs/assets/swagger-ui-bundle.js",
        swagger_css_url="/docs/assets/swagger-ui.css",
        swagger_favicon_url="data:,",
    )


@router.get("/docs/assets/{name}")
async def api_docs_asset(name: str) -> FileResponse:
    """One of Swagger UI's two files, from the installed package."""
    found = swagger_dir()
    if found is None or name not in SWAGGER_FILES:
        raise HTTPException(404, f"no docs asset {name[:60]!r}")
    media = "text/css" if name.endswith(".css") else "text/javascript"
    return FileResponse(found / name, media_type=media, headers={"Cache-Control": "max-age=86400"})


@router.get("/redoc")
async def redoc() -> RedirectResponse:
    return RedirectResponse("/docs")
