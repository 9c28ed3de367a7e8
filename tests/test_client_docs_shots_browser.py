"""The screenshots docs/client.md shows of the lobby, a turn and the settlement, at 1280×800
and 390×844 (phone), in Chinese and in English (docs/screenshots/client-*.png), are what the
page draws today: each PNG has a JSON fingerprint beside it (texts, tiles, layout) that must
match exactly, and the pixels must match within 1% with the same chromium and fonts — as
tests/test_server_browser.py checks its own screenshots (its helpers are used).

``ZHUOJI_UPDATE_SCREENSHOTS=1 pytest tests/test_client_docs_shots_browser.py`` writes new
ones (then look at them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("playwright.sync_api")

from test_server_browser import (  # noqa: F401
    OP,
    SEED,
    SHOTS,
    UPDATE,
    Player,
    _browser_version,
    _capture,
    _has_cjk_font,
    _pixels_close,
    browser,
    make_table,
    open_page,
    pytestmark,
)

from zhuoji.server.process import ServerProcess

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LOBBY_PRINT = """() => ({
  width: innerWidth, lang: document.documentElement.lang,
  scroll_width: document.documentElement.scrollWidth,
  variants: [...document.querySelectorAll('#variants .choice-title')].map((n) => n.innerText),
  chosen: [...document.querySelectorAll('.choice.on .choice-title')].map((n) => n.innerText),
  start_in_view: document.getElementById('start').getBoundingClientRect().bottom <= innerHeight,
})"""


def set_lang(page: Any, lang: str) -> None:
    if page.evaluate("() => document.documentElement.lang") != lang:
        page.keyboard.press("l")
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def capture_all(
    page: Any, screen: str, out: Path, prints: dict[str, Any], lobby: bool = False
) -> None:
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for lang in ("zh", "en"):
            set_lang(page, lang)
            name = f"client-{screen}-{lang}-{size}"
            if lobby:
                page.wait_for_timeout(150)
                page.screenshot(path=str(out / f"{name}.png"), animations="disabled", caret="hide")
                prints[name] = page.evaluate(LOBBY_PRINT)
            else:
                prints[name] = _capture(page, name, out)
    page.set_viewport_size(SIZES["desktop"])
    set_lang(page, "zh")


def test_the_client_screenshots_in_the_docs_are_current(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    out = SHOTS if UPDATE else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    prints: dict[str, Any] = {}
    with ServerProcess(f"sqlite:///{tmp_path / 'c.db'}", OP, cwd=tmp_path) as srv:
        lobby = browser.new_page(viewport=SIZES["desktop"])
        lobby.goto(srv.url + "/")
        lobby.wait_for_selector("body[data-ready='1']")
        capture_all(lobby, "lobby", out, prints, lobby=True)
        tid, token = make_table(srv.url, SEED)
        page = open_page(browser, srv.url, tid, token, SIZES["desktop"])
        page.click("#ready")
        me = Player(page)
        view = me.wait_turn()
        while view["phase"] != "end":
            if "client-turn-zh-desktop" not in prints and view["phase"] == "turn":
                capture_all(page, "turn", out, prints)
            me.act(view)
            view = me.wait_turn()
        capture_all(page, "settlement", out, prints)
        assert page.errors == []
    assert len(prints) == 12
    for name, fp in prints.items():
        assert fp["scroll_width"] <= fp["width"], name  # nothing sticks out sideways
    if UPDATE:
        for name, fp in prints.items():
            record = {"browser": _browser_version(browser), **fp}
            (SHOTS / f"{name}.json").write_text(
                json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
            )
        return
    regenerate = (
        "regenerate with ZHUOJI_UPDATE_SCREENSHOTS=1 pytest tests/test_client_docs_shots_browser.py"
    )
    same_browser = True
    for name, fp in prints.items():
        recorded = json.loads((SHOTS / f"{name}.json").read_text(encoding="utf-8"))
        then = recorded.pop("browser", "")
        same_browser = (
            same_browser and then.split(".")[0] == _browser_version(browser).split(".")[0]
        )
        assert fp == recorded, f"docs/screenshots/{name}: the page changed; {regenerate}"
    if not _has_cjk_font() or not same_browser:
        pytest.skip("structure checked; pixels not compared (other chromium or no CJK font)")
    for name in prints:
        ok, why = _pixels_close(out / f"{name}.png", SHOTS / f"{name}.png")
        assert ok, f"docs/screenshots/{name}.png is not current ({why}); {regenerate}"
