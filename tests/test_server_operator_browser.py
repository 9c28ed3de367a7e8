"""Done when: from the browser only, the operator uploads a new city's YAML (a mistake is
shown at its line first), creates a table from it with a house rule through the form made
from the schema, and four browser players open their invitation links and play the round
to its settlement — on SQLite and on PostgreSQL.

Debian's chromium (``/usr/bin/chromium``) driven by Playwright, no browser download.  With
``ZHUOJI_SCREENSHOTS=DIR`` the operator pages are photographed into DIR (that is how the
pictures in ``docs/`` are made: ``ZHUOJI_SCREENSHOTS=docs pytest -k operator_browser``).
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

sys.path.insert(0, str(Path(__file__).parent))
from server_support import backend, db_url, postgres  # noqa: E402, F401

from zhuoji.server.process import ServerProcess  # noqa: E402

CHROMIUM = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
OP = "operator-browser-token-0123456789"
SHOTS = os.environ.get("ZHUOJI_SCREENSHOTS")

CITY = """# 安顺捉鸡: a new city on the 贵阳 rules
name: anshun-club
title: 安顺捉鸡
extends: guiyang
settle:
  chickens:
    chongfeng:
      multiplier: {multiplier}
match:
  rounds: 1
"""

MOVE = """() => {
  if (!document.getElementById('settlement').hidden) return 'done';
  const buttons = [...document.querySelectorAll('#actions button[data-action]:not([disabled])')];
  // a discard is a click on a hand tile (the table page: tests/test_server_browser.py)
  const tiles = document.body.classList.contains('busy') ? [] : [...document.querySelectorAll('#hand .tile.can')];
  if (!buttons.length && tiles.length) {
    const t = tiles[tiles.length - 1];
    t.click();
    return 'discard ' + t.dataset.tile;
  }
  if (!buttons.length) return 'wait';
  const pick = (w) => buttons.find((b) => b.dataset.action.split(' ')[1] === w);
  const b = pick('hu') || pick('pass') || buttons[Math.floor(buttons.length / 2)];
  b.click();
  return b.dataset.action;
}"""


def shot(page: object, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        size = page.viewport_size  # type: ignore[attr-defined]
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)  # type: ignore[attr-defined]
        page.set_viewport_size(size)  # type: ignore[attr-defined]  # clicks land again


@pytest.mark.skipif(
    CHROMIUM is None, reason="chromium not found: apt-get install -y chromium (.ci/run does)"
)
def test_operator_uploads_a_city_and_four_players_play_it(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    errors: list[str] = []
    with ServerProcess(db_url, OP, cwd=tmp_path) as srv, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            op = browser.new_page(viewport={"width": 1280, "height": 860})
            op.on("pageerror", lambda e: errors.append(str(e)))
            op.goto(f"{srv.url}/operator")
            shot(op, "operator-signin.png")
            op.fill("#signin-token", "wrong-token-0000000000")
            op.click("#signin-form button")
            op.wait_for_selector("#signin-error:not([hidden])")
            op.fill("#signin-token", OP)
            op.click("#signin-form button")
            op.wait_for_selector("#nav:not([hidden])")

            # upload the new city: a mistake first, shown at its line
            op.click("#nav [data-tab=variants]")
            op.click("#new-variant")
            op.fill("#source", CITY.format(multiplier="three"))
            op.click("#check")
            op.wait_for_selector("#annotated li.problem")
            problem = op.locator("#annotated li.problem").first
            assert problem.get_attribute("data-line") == "8"
            assert "settle.chickens.chongfeng.multiplier" in problem.inner_text()
            assert op.locator("#gutter .bad").inner_text() == "8"
            shot(op, "operator-variant-problem.png")
            op.fill("#source", CITY.format(multiplier=3))
            op.fill("#author", "王经理")
            op.click("#save")
            op.wait_for_selector("#history:not([hidden])")
            assert "anshun-club@1" in op.inner_text("#save-status")
            assert "2 → 3" in op.inner_text("#differences")
            assert "王经理" in op.inner_text("#versions")
            shot(op, "operator-variant-saved.png")

            # a table of the new city with a house rule, from the schema form
            op.click("#nav [data-tab=create]")
            op.wait_for_selector("#house-form details")
            op.select_option("#t-variant", "anshun-club@1")
            op.wait_for_selector('[data-key="settle.chickens.zeren.extra"]')
            assert "冲锋鸡" in op.inner_text("#house-form")  # Chinese labels from the schema
            op.fill("#t-name", "安顺 evening")
            op.fill("#t-window", "0")  # answers as they come: the round plays in seconds
            op.fill('[data-key="settle.chickens.zeren.extra"]', "2")
            op.wait_for_function(
                "() => document.querySelector('#house-words li:not(.none)') !== null",
                timeout=10_000,
            )
            words = op.inner_text("#house-words")
            assert "责任鸡" in words and "1 → 2" in words
            shot(op, "operator-new-table.png")
            op.locator("#create-form button[type=submit]").press("Enter")
            op.wait_for_function(
                "() => !document.getElementById('invites').hidden"
                " || document.getElementById('create-status').textContent !== ''"
            )
            assert not op.locator("#invites").is_hidden(), op.inner_text("#create-status")
            links = [op.locator("#invite-list input").nth(i).input_value() for i in range(4)]
            assert all("#token=seat_" in link for link in links)
            shot(op, "operator-invitations.png")
            table_id = op.get_attribute("#invites", "data-table")

            # four players, each from their own link
            players = []
            for link in links:
                ctx = browser.new_context()
                page = ctx.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(link)
                page.wait_for_selector("#ready", timeout=15_000)
                players.append(page)
            assert "1 → 2" in players[0].inner_text("#house-rules")  # house rules in words
            for page in players:
                page.click("#ready")
            for page in players:
                page.wait_for_function("() => document.body.dataset.round === '1'", timeout=15_000)
            deadline = time.monotonic() + 240
            moves = 0
            while True:
                states = [page.evaluate(MOVE) for page in players]
                moves += sum(s not in ("done", "wait") for s in states)
                if all(s == "done" for s in states):
                    break
                assert time.monotonic() < deadline, states
                if all(s in ("done", "wait") for s in states):
                    time.sleep(0.03)
            assert moves > 20
            for page in players:
                assert "本局结算" in page.inner_text("#settlement")
            row = httpx.get(f"{srv.url}/api/tables/{table_id}/rounds/1").json()
            assert row["variant"] == "anshun-club@1" and row["status"] == "ended"
            assert row["overrides"] == {"settle.chickens.zeren.extra": 2}
            totals = players[0].inner_text("#totals")
            for t in row["totals"]:
                assert f"{t:+d}" in totals

            op.click("#nav [data-tab=tables]")
            op.wait_for_selector(f'tr[data-table="{table_id}"]')
            assert "1 → 2" in op.inner_text(f'tr[data-table="{table_id}"]')
            shot(op, "operator-tables.png")
            # a new invitation for seat 3 replaces the old link
            op.once("dialog", lambda d: d.accept())
            op.locator(f'tr[data-table="{table_id}"] .link-button').nth(3).click()
            fresh = op.locator('[data-invite="3"]')
            fresh.wait_for()
            assert "#token=seat_" in fresh.input_value() and fresh.input_value() != links[3]
            assert (
                httpx.get(
                    f"{srv.url}/api/whoami",
                    headers={"Authorization": "Bearer " + links[3].split("#token=")[1]},
                ).status_code
                == 401
            )
            lobby = browser.new_page()
            lobby.goto(srv.url + "/")
            lobby.wait_for_selector("#tables tbody tr td .hint")
            assert "1 → 2" in lobby.inner_text("#tables")
        finally:
            browser.close()
    assert errors == []
