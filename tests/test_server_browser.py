"""End to end in headless Chromium: a human seat plays a whole round against three bots in
the browser client, from the ready button to the itemized settlement.

Uses Debian's chromium (``/usr/bin/chromium``, installed by ``.ci/run``) driven by the
Playwright Python package — no browser download.  Skipped, saying so, only when chromium
cannot be found.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from zhuoji.server.process import ServerProcess  # noqa: E402

CHROMIUM = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
OP = "browser-operator-token-0123456789"
CAN_MOVE = """() => !document.getElementById('settlement').hidden
  || document.querySelectorAll('#actions button[data-action]:not([disabled])').length > 0"""


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium not found (/usr/bin/chromium): install it with `apt-get install -y chromium` "
    "(.ci/run does); the browser test needs it",
)
def test_human_plays_a_round_to_the_settlement(tmp_path: Path) -> None:
    assert CHROMIUM is not None
    errors: list[str] = []
    with (
        ServerProcess(f"sqlite:///{tmp_path / 'b.db'}", OP, cwd=tmp_path) as srv,
        httpx.Client(
            base_url=srv.url, headers={"Authorization": f"Bearer {OP}"}, timeout=30
        ) as http,
    ):
        r = http.post(
            "/api/tables",
            json={
                "name": "browser",
                "seats": [
                    {"kind": "human", "name": "小明"},
                    {"kind": "bot"},
                    {"kind": "bot"},
                    {"kind": "bot"},
                ],
                "seed": 12,
                "rounds": 2,
                "next_round": "ready",
            },
        )
        assert r.status_code == 201, r.text
        tid, token = r.json()["id"], r.json()["tokens"]["0"]
        with sync_api.sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, headless=True
            )
            try:
                page = ctx.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(f"{srv.url}/table/{tid}#token={token}")
                page.wait_for_selector("#ready", timeout=15_000)
                assert "#token" not in page.url  # the token leaves the address bar
                page.click("#ready")
                page.wait_for_function("() => document.body.dataset.round === '1'", timeout=15_000)
                hand = page.inner_text("#hand")
                assert any(ch in hand for ch in "万条筒"), hand  # Chinese names beside notation
                assert page.locator("#hand .tile b").count() >= 13
                clicks = 0
                while True:
                    page.wait_for_function(CAN_MOVE, timeout=15_000)
                    if page.locator("#settlement").is_visible():
                        break
                    buttons = page.locator("#actions button[data-action]")
                    actions = [
                        buttons.nth(i).get_attribute("data-action") or ""
                        for i in range(buttons.count())
                    ]
                    choice = next((a for a in actions if a.split()[1] == "hu"), None)
                    choice = choice or next((a for a in actions if a.split()[1] == "pass"), None)
                    choice = choice or actions[len(actions) // 2]
                    seq = page.evaluate("() => document.body.dataset.seq")
                    page.click(f'#actions button[data-action="{choice}"]')
                    page.wait_for_function(
                        f"() => document.body.dataset.seq !== '{seq}'", timeout=15_000
                    )
                    clicks += 1
                    assert clicks < 200
                assert clicks > 0
                assert page.locator("#seats .discards .tile").count() > 0
                settlement = page.inner_text("#settlement")
                assert "Settlement 结算" in settlement and "totals 合计" in settlement
                assert page.locator("#showdown .tiles").count() == 4
                row = http.get(f"/api/tables/{tid}/rounds/1").json()
                ledger = page.locator("#ledger tbody tr[data-item]")
                assert ledger.count() == len(row["settlement"]["entries"])
                totals = page.inner_text("#totals")
                for t in row["totals"]:
                    assert f"{t:+d}" in totals
                if row["settlement"]["result"]["reveal"]:
                    assert page.locator("#result .tile.special").count() == 1  # 翻鸡 revealed
                page.screenshot(path=str(tmp_path / "settlement.png"), full_page=True)
                # the next round starts from the same page
                page.click("#ready")
                page.wait_for_function("() => document.body.dataset.round === '2'", timeout=15_000)
                assert page.locator("#settlement").is_hidden()
            finally:
                ctx.close()
    assert errors == []
