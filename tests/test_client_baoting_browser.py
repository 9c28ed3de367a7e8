"""报听 plays itself (zhuoji/server/static/table.js): once the player has declared, a drawn
tile that does not win is discarded by the page after a moment — unless the player turned
that off (remembered) — and the bar keeps showing the waits with the copies left.

A declaration needs a hand ready on its first discard, which few deals give; so the page
is shown the seat's real view of a real turn as a declared hand sees it (declared, only
the drawn tile's discard legal, the waits it leaves) and what it sends is watched: the
server applies the discard it sends (the drawn tile's, legal in the real turn too)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from test_server_browser import ARGS, CHROMIUM, OP, Player, pytestmark  # noqa: E402,F401

from zhuoji.server.process import ServerProcess  # noqa: E402

WATCH_SENDS = """() => {
  window.sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { window.sent.push(JSON.parse(data)); return send.call(this, data); };
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


def declared_turn(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` (the seat's turn with a drawn tile) as a declared, frozen hand sees it."""
    me, drawn = view["seat"], view["drawn"]
    v = dict(view)
    v["declared"] = [s == me for s in range(len(view["names"]))]
    v["legal"] = [a for a in view["legal"] if a["action"].split()[1:] == ["discard", drawn]]
    v["waits"] = []
    v["discard_waits"] = {drawn: [{"tile": "5p", "left": 2}, {"tile": "8p", "left": 0}]}
    return v


def sent_actions(page: Any) -> list[str]:
    return [m["action"] for m in page.evaluate("() => window.sent") if m.get("type") == "action"]


def test_a_declared_hand_discards_its_draws_by_itself_unless_turned_off(
    chromium: Any, tmp_path: Path
) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'b.db'}", OP, cwd=tmp_path) as srv:
        with httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {OP}"}) as http:
            seats = [{"kind": "human", "name": "小明"}] + [{"kind": "bot"}] * 3
            made = http.post(
                "/api/tables", json={"seats": seats, "seed": 39, "next_round": "ready"}
            ).json()
        page = chromium.new_page(viewport={"width": 1280, "height": 800})
        page.add_init_script(f"({WATCH_SENDS})()")  # on every load of the page
        page.goto(f"{srv.url}/table/{made['id']}#token={made['tokens']['0']}")
        page.wait_for_selector("#ready", timeout=15_000)
        page.click("#ready")
        me = Player(page)
        view = me.wait_turn()
        while not (view["phase"] == "turn" and view.get("drawn")):
            me.act(view)
            view = me.wait_turn()
        drawn = view["drawn"]
        # off: the page waits for the player, the waits stay in the bar
        page.evaluate("() => localStorage.setItem('zhuoji-auto-ting', '0')")
        page.reload()
        page.wait_for_function(
            "() => window.zhuoji.view() && document.body.dataset.conn === 'open'"
        )
        page.evaluate("() => { window.sent = []; }")
        page.evaluate("(v) => window.zhuoji.show(v)", declared_turn(view))
        chips = page.locator("#waits .wait")
        assert chips.count() == 2 and "2" in chips.nth(0).inner_text()  # waits and copies left
        assert page.locator("#auto-ting").get_attribute("aria-pressed") == "false"
        time.sleep(1.5)
        assert sent_actions(page) == []
        # on (the button, remembered): the draw goes by itself after a moment
        page.click("#auto-ting")
        assert page.evaluate("() => localStorage.getItem('zhuoji-auto-ting')") == "1"
        shown = time.monotonic()
        page.wait_for_function("() => window.sent.some((m) => m.type === 'action')", timeout=5000)
        waited = time.monotonic() - shown
        assert sent_actions(page) == [f"0 discard {drawn}"]
        assert 0.4 <= waited <= 3.0, waited
        page.wait_for_function(f"() => document.body.dataset.seq !== '{view['seq']}'")
        after = page.evaluate("() => window.zhuoji.view()")
        mine = [d["tile"] for d in after["discards"] if d["seat"] == 0]
        assert mine[-1] == drawn  # the server took it: the drawn tile is in the pond
        # a draw that wins is never played for the player: 胡 waits for a click
        page.evaluate(
            "(v) => window.zhuoji.show(v)",
            declared_turn(view)
            | {"legal": [{"action": f"0 hu {drawn}"}] + declared_turn(view)["legal"], "seq": -5},
        )
        time.sleep(1.2)
        assert len(sent_actions(page)) == 1
