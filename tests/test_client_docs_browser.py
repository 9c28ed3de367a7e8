"""``/docs`` works offline: Swagger UI comes from this server (the ``swagger-ui-bundle-v2``
package), checked in chromium with every request to another host refused; without the
package ``/docs`` is a plain page of the routes (zhuoji/server/routes/pages.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from fastapi.testclient import TestClient  # noqa: E402
from test_server_browser import ARGS, CHROMIUM, OP, pytestmark  # noqa: E402,F401

from zhuoji.server.app import create_app  # noqa: E402
from zhuoji.server.process import ServerProcess  # noqa: E402
from zhuoji.server.routes import pages  # noqa: E402


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    assert CHROMIUM is not None
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def test_docs_render_with_no_other_host_reachable(chromium: Any, tmp_path: Path) -> None:
    assert pages.swagger_dir() is not None, "swagger-ui-bundle-v2 (the server extra) is missing"
    with ServerProcess(f"sqlite:///{tmp_path / 'd.db'}", OP, cwd=tmp_path) as srv:
        page = chromium.new_page()
        outside: list[str] = []

        def only_here(route: Any) -> None:
            if urlparse(route.request.url).hostname in ("127.0.0.1", "localhost"):
                route.continue_()
            else:
                outside.append(route.request.url)
                route.abort()

        page.route("**/*", only_here)
        page.goto(srv.url + "/docs")
        page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
        text = page.inner_text(".swagger-ui")
        assert "/api/open/tables" in text and "/api/tables" in text
        assert outside == []
        page.goto(srv.url + "/redoc")
        assert page.url.endswith("/docs")


def test_without_swagger_ui_docs_is_a_plain_page_of_the_routes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "swagger_dir", lambda: None)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'p.db'}", OP)) as client:
        r = client.get("/docs")
        assert r.status_code == 200 and "/openapi.json" in r.text and "cdn" not in r.text.lower()
        assert client.get("/docs/assets/swagger-ui.css").status_code == 404


def test_docs_assets_are_only_swagger_uis_two_files(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", OP)) as client:
        assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
        css = client.get("/docs/assets/swagger-ui.css")
        assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
        for name in ("index.html", "..%2F..%2Fpyproject.toml", "swagger-ui.js"):
            assert client.get(f"/docs/assets/{name}").status_code == 404
