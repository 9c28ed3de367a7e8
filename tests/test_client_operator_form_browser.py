"""The operator's new-table form (zhuoji/server/static/operator.js, made by the server:
zhuoji/server/rule_form.py) as a person uses it: the stake and the common payouts first and
open, the rest folded behind a search box, presets, no field that is not a rule (family,
format, revision), an out-of-range number said next to its field in words (and not sent),
the live list of what differs from the variant in words, and every label in the chosen
language (the L key switches all of it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from test_server_browser import ARGS, CHROMIUM, OP, pytestmark  # noqa: E402,F401

from zhuoji.server.process import ServerProcess  # noqa: E402

CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")
LATIN = re.compile(r"[A-Za-z]")

#: the rendered text of the page (less code, key caps, the language switch and the
#: choices of closed selects), one text node a line
TEXT_JS = """() => {
  const skip = 'script, style, code, kbd, #lang, select, [hidden]';
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const host = n.parentElement;
    if (!host || host.closest(skip) || !host.checkVisibility({ visibilityProperty: true })) continue;
    const text = n.textContent.replace(/QQ/g, '').trim();  // a brand name (QQ游戏)
    if (text) out.push(text);
  }
  for (const s of document.querySelectorAll('select')) {
    if (s.checkVisibility() && s.selectedOptions.length) out.push(s.selectedOptions[0].textContent.trim());
  }
  return out;
}"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    assert CHROMIUM is not None
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def wrong_language(page: Any, lang: str) -> list[str]:
    bad = LATIN if lang == "zh" else CJK
    return [t for t in page.evaluate(TEXT_JS) if bad.search(t)]


def words(page: Any) -> list[str]:
    return [w.strip() for w in page.inner_text("#house-words").splitlines() if w.strip()]


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
        assert not {"family", "format", "revision", "name", "title"} & set(keys)  # not rules
        assert op.inner_text('[data-field="stake"] .label') == "底注"
        assert op.inner_text('[data-field="settle.chickens.zeren.extra"] .label') == "责任鸡加付"
        assert not wrong_language(op, "zh"), wrong_language(op, "zh")

        # the search box finds a folded field (by its name or its key) and opens its section
        for query in ("抢杠", "rob_kong"):
            op.fill("#house-search", query)
            shown = op.locator("#house-form .field:visible")
            assert shown.count() >= 1
            for f in shown.evaluate_all("ns => ns.map((n) => n.dataset.field)"):
                assert "rob_kong" in f
            assert op.locator("#house-form details[open]:visible").count() >= 1
        op.fill("#house-search", "")

        # a preset sets its fields; the differences are said in words, live
        op.click('#presets [data-preset="weile"]')
        assert op.input_value('[data-key="settle.chickens.chongfeng.multiplier"]') == "3"
        op.wait_for_function(
            "() => document.querySelectorAll('#house-words li:not(.none)').length === 4"
        )
        assert "冲锋鸡倍数：2 → 3" in words(op) and "见豆三：否 → 是" in words(op)
        op.click('#presets [data-preset="weile"]')  # again: off, the variant's values back
        assert op.input_value('[data-key="settle.chickens.chongfeng.multiplier"]') == "2"
        op.wait_for_selector("#house-words li.none")

        # an out-of-range number is said next to its field in words and not sent
        op.fill('[data-key="stake"]', "0")
        said = op.locator('[data-field="stake"] .field-error')
        said.wait_for(state="visible")
        assert said.inner_text() == "至少为 1"
        assert "stake" not in op.evaluate("() => JSON.stringify(overrides())")
        op.fill('[data-key="stake"]', "2")
        assert said.is_hidden()
        op.wait_for_function("() => document.querySelector('#house-words li:not(.none)') !== null")
        assert words(op) == ["底注：1 → 2"]

        # L: everything in English, nothing Chinese left; and back
        op.evaluate("() => document.activeElement.blur()")
        op.keyboard.press("l")
        op.wait_for_function("() => document.documentElement.lang === 'en'")
        assert op.inner_text('[data-field="stake"] .label') == "stake"
        op.wait_for_function(
            "() => document.querySelector('#house-words').innerText.includes('stake: 1 → 2')"
        )
        op.fill('[data-key="stake"]', "0")
        said.wait_for(state="visible")
        assert said.inner_text() == "at least 1"
        assert not wrong_language(op, "en"), wrong_language(op, "en")
        for tab in ("tables", "variants"):
            op.click(f"#nav [data-tab={tab}]")
            assert not wrong_language(op, "en"), (tab, wrong_language(op, "en"))
        op.evaluate("() => document.activeElement.blur()")
        op.keyboard.press("l")
        op.wait_for_function("() => document.documentElement.lang === 'zh'")
        for tab in ("tables", "variants", "create"):
            op.click(f"#nav [data-tab={tab}]")
            assert not wrong_language(op, "zh"), (tab, wrong_language(op, "zh"))
        assert errors == []
