"""补花 on the table page (issue 25): at a 黔西 table (``qianxi``, four 红花 flowers), every
flower a seat set aside lies face up beside its melds, as many as the view's ``flowers``
says, each drawn with the 红花 face (``#t-1f``) and named for screen readers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from test_server_browser import (  # noqa: E402,F401
    OP,
    Player,
    browser,
    make_table,
    open_page,
    pytestmark,
)

from zhuoji.server.process import ServerProcess  # noqa: E402

POSITIONS = ("bottom", "right", "top", "left")


def shown_flowers(page: Any, view: dict[str, Any]) -> list[int]:
    """The flower tiles the page shows beside each seat's melds, by seat."""
    out = []
    for seat in range(len(view["names"])):
        rel = (seat - view["seat"]) % len(view["names"])
        box = "#my-melds" if rel == 0 else f"#seat-{POSITIONS[rel]} .melds"
        out.append(page.locator(f'{box} .meld.flowers .tile[data-tile="1f"]').count())
    return out


def test_flowers_set_aside_lie_face_up_beside_the_melds(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with ServerProcess(f"sqlite:///{tmp_path / 'f.db'}", OP, cwd=tmp_path) as srv:
        tid, token = make_table(srv.url, 7, turn_seconds=600, variant="qianxi")
        page = open_page(browser, srv.url, tid, token)
        page.click("#ready")
        me = Player(page, "qianxi")
        view = me.wait_turn()
        while view["phase"] != "end" and not any(view["flowers"]):
            me.act(view)
            view = me.wait_turn()
        assert any(view["flowers"]), "no flower was drawn in the round"
        assert shown_flowers(page, view) == view["flowers"]
        seat = next(s for s, n in enumerate(view["flowers"]) if n)
        rel = (seat - view["seat"]) % len(view["names"])
        box = "#my-melds" if rel == 0 else f"#seat-{POSITIONS[rel]} .melds"
        group = page.locator(f"{box} .meld.flowers")
        assert f"补花 {view['flowers'][seat]} 张" == group.get_attribute("aria-label")
        face = group.locator(".tile").first
        assert face.get_attribute("aria-label") == "红花"
        assert face.locator("use").get_attribute("href") == "#t-1f"
        assert page.locator("#t-1f").count() == 1  # the sprite has the 红花 face
        assert not page.errors
