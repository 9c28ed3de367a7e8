"""Every screen of the browser client, in chromium, at 1280×800, 1366×768, 390×844 (phone,
portrait) and 844×390 (phone, landscape), in Chinese and in English:

* **one language at a time** — the rendered text of every screen is scanned: in zh mode
  no Latin letter, in en mode no Chinese character; exempt are only the tile faces (and
  their chicken marks), key caps (``<kbd>``) and the language switch (it names the other
  language);
* **it fits** — element boxes are measured: nothing scrolls sideways, every button that
  acts (claims, ready, next round, start) is in view without scrolling, the table's parts
  (plates, ponds, the centre and its compass, the hand, the bar, the waits) do not overlap,
  no name or label is cut off, no tile face is under 15 px, and on a phone the hand's
  tiles are at least 28 px wide.

The screens: the lobby (play now, with friends, the invite links, the tables played with
their house rules), a table with house rules waiting for ready, the player's turn, a claim
window (碰), a refused action's message, the settlement and the table behind it.  The game
is the docs' (table seed 39: a 碰 at the 2nd decision).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from test_server_browser import ARGS, CHROMIUM, MY_TURN, OP, Player, pytestmark  # noqa: E402,F401

from zhuoji.server.process import ServerProcess  # noqa: E402

VIEWPORTS = [(1280, 800), (1366, 768), (390, 844), (844, 390)]
PHONES = {(390, 844), (844, 390)}
SEED = 39

#: rendered text that breaks the one-language rule: (text, where)
LANG_JS = """(lang) => {
  const skip = 'script, style, kbd, #lang, .tile, [hidden], [aria-hidden="true"]';
  const bad = lang === 'zh' ? /[A-Za-z]/ : /[\\u3400-\\u9fff]/;
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const host = n.parentElement;
    if (!host || host.closest(skip) || !host.checkVisibility({ visibilityProperty: true })) continue;
    const text = n.textContent.replace(/QQ/g, '').trim();
    if (text && bad.test(text)) out.push(text + '  @' + (host.id || host.className || host.tagName));
  }
  return out;
}"""

#: the screen as it stands once its motions (slides, call-outs, the reveal) are over
FINISH_MOTION = """() => new Promise((done) => {
  for (const a of document.getAnimations())
    if (a.effect && a.effect.getComputedTiming().endTime !== Infinity) a.finish();
  requestAnimationFrame(() => done());
})"""

#: what does not fit: a list of sentences
FIT_JS = """(phone) => {
  const W = innerWidth, H = innerHeight, out = [];
  const shown = (e) => e.checkVisibility({ visibilityProperty: true, opacityProperty: false })
    && e.getBoundingClientRect().width > 0;
  const name = (e) => e.id ? '#' + e.id : e.tagName.toLowerCase()
    + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
    + (e.parentElement && e.parentElement.id ? ' in #' + e.parentElement.id : '');
  const root = document.scrollingElement;
  if (root.scrollWidth > W + 1) out.push(`the page scrolls sideways (${root.scrollWidth} > ${W})`);
  for (const b of document.querySelectorAll('#actions button, #ready, .modal-buttons button, #start, #enter')) {
    if (!shown(b)) continue;
    const r = b.getBoundingClientRect();
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > H + 0.5 || r.right > W + 0.5)
      out.push(`${name(b)} is out of view (${[r.left, r.top, r.width, r.height].map(Math.round)})`);
  }
  const modal = document.getElementById('settlement');
  const covered = modal && !modal.hidden;
  if (!covered) {
    const parts = [...document.querySelectorAll(
      '.plate, .pond, .center .round-no, .center .wall, .center .timer, .compass .pt, #hand, #my-melds, '
      + '#status, #actions, .wait, .seat .melds, .seat .backs')].filter(shown);
    for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
      const a = parts[i], b = parts[j];
      if (a.contains(b) || b.contains(a)) continue;
      const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 1.5 && h > 1.5) out.push(`${name(a)} overlaps ${name(b)} by ${Math.round(w)}×${Math.round(h)}`);
    }
    for (const e of document.querySelectorAll('#table, .hand-bar')) {
      if (shown(e) && e.getBoundingClientRect().bottom > H + 1 && document.scrollingElement.scrollHeight > H + 1)
        out.push(`${name(e)} runs below the screen`);
    }
  }
  for (const e of document.querySelectorAll('.plate .name, .plate, .status, .choice-title, '
      + '.choice-line, .act, .ledger td, .show-row .who, .note, .headline')) {
    if (shown(e) && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== 'visible')
      out.push(`${name(e)} is cut off: "${e.textContent.trim().slice(0, 30)}"`);
  }
  for (const t of document.querySelectorAll('.tile:not(.back)')) {
    const w = Math.min(t.getBoundingClientRect().width, t.getBoundingClientRect().height);
    if (shown(t) && w < 14.5) { out.push(`${name(t)} is ${w.toFixed(1)} px: too small to read`); break; }
  }
  if (phone) for (const t of document.querySelectorAll('#hand .tile')) {
    const w = t.getBoundingClientRect().width;
    if (shown(t) && w < 27.5) { out.push(`hand tiles are ${w.toFixed(1)} px wide`); break; }
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


class Screens:
    """Checks a page's current screen at every viewport in both languages."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.problems: list[str] = []

    def lang(self) -> str:
        return str(self.page.evaluate("() => document.documentElement.lang"))

    def set_lang(self, lang: str) -> None:
        if self.lang() != lang:
            self.page.keyboard.press("l")
            self.page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")

    def check(self, screen: str, fit: bool = True) -> None:
        page = self.page
        start = page.viewport_size
        for w, h in VIEWPORTS if fit else [(start["width"], start["height"])]:
            page.set_viewport_size({"width": w, "height": h})
            for lang in ("zh", "en"):
                self.set_lang(lang)
                page.evaluate(FINISH_MOTION)
                for text in page.evaluate(LANG_JS, lang):
                    self.problems.append(f"{screen} {w}×{h} {lang}: wrong language: {text}")
                if fit:
                    for p in page.evaluate(FIT_JS, (w, h) in PHONES):
                        self.problems.append(f"{screen} {w}×{h} {lang}: {p}")
        page.set_viewport_size(start)
        self.set_lang("zh")


def test_every_screen_fits_and_speaks_one_language(chromium: Any, tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 's.db'}", OP, cwd=tmp_path) as srv:
        # the lobby
        ctx = chromium.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
        lobby = ctx.new_page()
        lobby.goto(srv.url + "/")
        lobby.wait_for_selector("body[data-ready='1']", timeout=15_000)
        screens = Screens(lobby)
        screens.check("lobby")
        lobby.click('#modes .choice[data-value="friends"]')
        screens.check("lobby, with friends")
        lobby.click("#start")
        lobby.wait_for_selector("#invites:not([hidden])")
        screens.check("lobby, invite links")
        # a table: the docs' game, bots answering at once
        with httpx.Client(base_url=srv.url, headers={"Authorization": f"Bearer {OP}"}) as http:
            body = {
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in ("greedy", "cautious", "expert")],
                "seed": SEED, "rounds": 4, "next_round": "ready", "turn_seconds": 600,
                "overrides": {"settle.chickens.zeren.extra": 2, "settle.chickens.payment": "pairwise"},
            }  # fmt: skip
            made = http.post("/api/tables", json=body).json()
        lobby.reload()  # the table is listed, its house rules in words
        lobby.wait_for_selector("#tables tbody .hint", timeout=15_000)
        screens.check("lobby, the tables played", fit=False)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{srv.url}/table/{made['id']}#token={made['tokens']['0']}")
        page.wait_for_selector("#ready", timeout=15_000)
        table = Screens(page)
        table.problems = screens.problems
        table.check("table, waiting")
        assert page.inner_text("#house-rules").startswith("本桌规则")  # said, and scanned
        page.click("#ready")
        me = Player(page)
        view = me.wait_turn()
        table.check("your turn")
        page.evaluate("() => window.zhuoji.act('discard 7z')")
        page.wait_for_selector("#error:not([hidden])")
        table.check("a refused action", fit=False)
        claims = 0
        while view["phase"] != "end":
            words = {a["action"].split()[1] for a in view["legal"]}
            if words & {"peng", "gang"} and not claims:
                table.check("a claim window")
                claims += 1
            me.act(view)
            view = me.wait_turn()
            assert len(me.actions) < 100
        assert claims
        table.check("the settlement")
        page.click("#toggle-settlement")
        table.check("the table after the round")
        assert errors == []
    assert not screens.problems, "\n".join(screens.problems)
