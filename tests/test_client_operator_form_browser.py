"""The operator's new-table form (zhuoji/server/static/operator.js) as a person uses it:
the stake and the common payouts first and open, the rest folded behind a search box, no
field that is not a rule (family, format, revision), an out-of-range number said next to
its field (and not sent), and the live list of what differs from the variant in words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from test_server_browser import ARGS, CHROMIUM, OP, pytestmark  # noqa: E402,F401

from zhuoji.server.process import ServerProcess  # noqa: E402


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    assert CHROMIUM is not None
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def test_the_new_table_form_puts_the_common_payouts_first(chromium: Any, tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'o.db'}", OP, cwd=tmp_path) as srv:
        op = chromium.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        op.on("pageerror", lambda e: errors.append(f"{e} {e.stack}"))
        op.goto(srv.url + "/operator")
        op.fill("#signin-token", OP)
        op.click("#signin-form button")
        op.click("#nav [data-tab=create]")
        op.wait_for_selector('#house-form [data-key="stake"]')
        op.select_option("#t-variant", "guiyang")
        op.wait_for_selector('#house-form [data-key="settle.chickens.zeren.extra"]')
        sections = op.locator("#house-form details")
        first = sections.first
        assert (
            first.get_attribute("data-section") == "common"
            and first.get_attribute("open") is not None
        )
        common = first.locator("[data-key]").evaluate_all("ns => ns.map((n) => n.dataset.key)")
        assert common[0] == "stake"  # 底注 first
        for key in ("settle.chickens.chongfeng.multiplier", "settle.chickens.zeren.extra"):
            assert key in common
        assert any(k.startswith("settle.dou.values") for k in common)
        assert all(s.get_attribute("open") is None for s in sections.all()[1:])  # the rest folded
        keys = op.locator("#house-form [data-key]").evaluate_all(
            "ns => ns.map((n) => n.dataset.key)"
        )
        assert not {"family", "format", "revision"} & set(keys)  # not rules
        # the search box finds a folded field and opens its section
        op.fill("#house-search", "rob_kong")
        shown = op.locator("#house-form .field:visible")
        assert shown.count() >= 1
        for text in shown.all_inner_texts():
            assert "rob_kong" in text.lower()
        op.fill("#house-search", "")
        # an out-of-range number is said next to its field and not sent
        op.fill('[data-key="stake"]', "0")
        said = op.locator('[data-field="stake"] .field-error')
        said.wait_for(state="visible")
        assert "1" in said.inner_text()
        assert "stake" not in op.evaluate("() => JSON.stringify(overrides())")
        op.fill('[data-key="stake"]', "2")
        assert said.is_hidden()
        op.wait_for_function("() => document.querySelector('#house-words li:not(.none)') !== null")
        assert "2" in op.inner_text("#house-words")
        assert errors == []
