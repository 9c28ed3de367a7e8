"""Motion and sound at the table (zhuoji/server/static/motion.js, table.css): a discard
slides into its pond, 碰 and 胡 are called out in large letters by the seat that made them,
the winning hand is revealed tile by tile, sounds are made with WebAudio and a mute is
remembered, and prefers-reduced-motion turns the movement off.  The docs' game (seed 39:
the player claims 碰 at the 2nd decision and wins)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from test_server_browser import ARGS, CHROMIUM, OP, Player, pytestmark  # noqa: E402,F401

from zhuoji.server.process import ServerProcess  # noqa: E402

#: counts the notes played and records every call-out and every slide as they happen
WATCH = """(() => {
  window.notes = 0;
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { window.notes++; return make.call(this); };
  window.callouts = [];
  window.slides = [];
  new MutationObserver(() => {
    const c = document.getElementById('callout');
    if (c && !c.hidden && c.textContent && c.dataset.n !== window.lastCallout) {
      window.lastCallout = c.dataset.n;
      window.callouts.push([c.textContent, c.dataset.pos, c.getAnimations().length]);
    }
    for (const t of document.querySelectorAll('.pond .tile[data-fresh]:not([data-seen])')) {
      t.dataset.seen = '1';
      window.slides.push([t.closest('.pond').dataset.pos, t.getAnimations().length]);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true,
    attributeFilter: ['hidden', 'data-n'] });
})()"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    assert CHROMIUM is not None
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, "--autoplay-policy=no-user-gesture-required"]
        )
        try:
            yield b
        finally:
            b.close()


def table(url: str) -> dict[str, Any]:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {OP}"}) as http:
        seats = [{"kind": "human", "name": "小明"}] + [{"kind": "bot"}] * 3
        body = {"seats": seats, "seed": 39, "rounds": 2, "next_round": "ready", "bot_delay_ms": 250}
        return dict(http.post("/api/tables", json=body).json())


def open_table(chromium: Any, url: str, made: dict[str, Any], motion: str) -> Any:
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    page.goto(f"{url}/table/{made['id']}#token={made['tokens']['0']}")
    page.wait_for_selector("#ready", timeout=15_000)
    return page


def test_discards_slide_claims_and_wins_are_called_out_with_sound(
    chromium: Any, tmp_path: Path
) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'm.db'}", OP, cwd=tmp_path) as srv:
        made = table(srv.url)
        page = open_table(chromium, srv.url, made, "no-preference")
        assert page.locator("#mute").get_attribute("aria-pressed") == "false"
        page.click("#ready")
        me = Player(page)
        view = me.wait_turn()
        while "peng" not in {a["action"].split()[1] for a in view["legal"]}:
            me.act(view)
            view = me.wait_turn()
        assert page.evaluate("() => window.notes") > 0  # discards were heard
        slides = page.evaluate("() => window.slides")
        assert slides and all(animated for _, animated in slides), slides
        assert {pos for pos, _ in slides} >= {"bottom", "right"}  # into each seat's own pond
        me.act(view)  # 碰
        page.wait_for_function("() => window.callouts.length > 0")
        word, pos, animated = page.evaluate("() => window.callouts[0]")
        assert (word, pos) == ("碰", "bottom") and animated
        # muted (M): no more notes, and it is remembered
        page.keyboard.press("m")
        assert page.locator("#mute").get_attribute("aria-pressed") == "true"
        heard = page.evaluate("() => window.notes")
        view = me.wait_turn()
        while view["phase"] != "end":
            me.act(view)
            view = me.wait_turn()
        assert page.evaluate("() => window.notes") == heard
        words = [c[0] for c in page.evaluate("() => window.callouts")]
        assert words[-1] in ("胡", "自摸"), words  # the win, called out
        revealed = page.locator("#showdown .show-row.winner .tile.reveal")
        assert revealed.count() >= 14
        assert page.evaluate(
            "() => [...document.querySelectorAll('#showdown .tile.reveal')]"
            ".every((t, i, all) => i === 0 || parseFloat(t.style.animationDelay) >"
            " parseFloat(all[i - 1].style.animationDelay))"
        )  # one tile after another
        page.reload()
        page.wait_for_selector("#mute")
        assert page.locator("#mute").get_attribute("aria-pressed") == "true"
        page.keyboard.press("l")
        page.keyboard.press("m")
        assert page.locator("#mute").get_attribute("aria-pressed") == "false"


def test_reduced_motion_moves_nothing(chromium: Any, tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'r.db'}", OP, cwd=tmp_path) as srv:
        made = table(srv.url)
        page = open_table(chromium, srv.url, made, "reduce")
        page.click("#ready")
        me = Player(page)
        view = me.wait_turn()
        while "peng" not in {a["action"].split()[1] for a in view["legal"]}:
            me.act(view)
            view = me.wait_turn()
        me.act(view)
        page.wait_for_function("() => window.callouts.length > 0")
        word, _pos, animated = page.evaluate("() => window.callouts[0]")
        assert word == "碰" and animated == 0  # called out, without moving
        slides = page.evaluate("() => window.slides")
        assert slides and not any(animated for _, animated in slides)
