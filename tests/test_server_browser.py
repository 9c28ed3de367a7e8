"""The table page in headless Chromium, played as a person would: with the mouse, with the
keyboard only, across a server crash, and at phone width; and the screenshots in
docs/screenshots/ are checked to be what the page draws today.

Uses Debian's chromium (``/usr/bin/chromium``, installed by ``.ci/run`` with the CJK fonts
the screenshots are drawn with) driven by the Playwright Python package — no browser
download.  Skipped, saying so, only when chromium cannot be found.

The human seat plays by one deterministic rule (:func:`choose`: win, claim 碰/杠, else the
discard leaving the fewest tiles to ready), computed from the view the page itself holds,
so a table seed gives the same game every run.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
sync_api = pytest.importorskip("playwright.sync_api")

from zhuoji import tiles as T  # noqa: E402
from zhuoji.hand import HandRules  # noqa: E402
from zhuoji.server.process import ServerProcess  # noqa: E402
from zhuoji.variant_io import load_variant  # noqa: E402

CHROMIUM = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--font-render-hinting=none",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-lcd-text", "--force-color-profile=srgb", "--hide-scrollbars",
]  # fmt: skip
OP = "browser-operator-token-0123456789"
SEATS = [
    {"kind": "human", "name": "小明"},
    {"kind": "bot", "name": "阿强"},
    {"kind": "bot", "name": "老王"},
    {"kind": "bot", "name": "莉莉"},
]
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
#: the game of the screenshots and the mouse test: the human claims 碰 at its 2nd and 7th
#: decisions, is ready from the 9th and wins; the revealed 七万 makes 八万 a chicken
SEED = 39
VIEWPORT = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
UPDATE = os.environ.get("ZHUOJI_UPDATE_SCREENSHOTS") == "1"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium not found (/usr/bin/chromium): install it with `apt-get install -y chromium` "
    "(.ci/run does); the browser tests need it",
)

MY_TURN = """() => document.body.dataset.conn === 'open' && !document.body.classList.contains('busy')
  && (document.body.classList.contains('my-turn') || document.body.dataset.phase === 'end')"""


# -------------------------------------------------------------------------------------------
# the player's rule
# -------------------------------------------------------------------------------------------


def choose(view: dict[str, Any], rules: HandRules) -> str:
    """Win; else claim (碰, 杠); else pass a claim; else the plain discard leaving the hand
    fewest tiles from ready, keeping pairs, connected tiles and 幺鸡."""
    legal = [a["action"] for a in view["legal"]]
    first: dict[str, str] = {}
    for a in legal:
        first.setdefault(a.split()[1], a)
    for word in ("hu", "peng", "gang", "bugang", "angang", "pass"):
        if word in first:
            return first[word]
    c = T.counts(view["hand"])
    best: tuple[tuple[int, ...], str] | None = None
    for a in legal:
        _seat, word, tile = a.split()
        if word != "discard":
            continue
        k = T.parse_one(tile)
        c[k] -= 1
        near = sum(
            c[j] for j in range(max(0, k - 2), min(27, k + 3)) if j != k and j // 9 == k // 9
        )
        key = (rules.shanten(c), c[k], near if k < 27 else 0, k == T.YAOJI, -k)
        c[k] += 1
        if best is None or key < best[0]:
            best = (key, a)
    assert best is not None, legal
    return best[1]


class Player:
    """The human seat in a page, acting with the mouse or the keyboard."""

    def __init__(self, page: Any, variant: str = "guiyang") -> None:
        self.page = page
        self.rules = load_variant(variant).hand_rules()
        self.actions: list[str] = []

    def view(self) -> dict[str, Any]:
        return dict(self.page.evaluate("() => window.zhuoji.view()"))

    def wait_turn(self) -> dict[str, Any]:
        self.page.wait_for_function(MY_TURN, timeout=20_000)
        return self.view()

    def act(self, view: dict[str, Any], keyboard: bool = False) -> str:
        """Play :func:`choose`'s action in the page and wait for the next view."""
        action = choose(view, self.rules)
        word = action.split()[1]
        page = self.page
        if word == "discard":
            tile = action.split()[2]
            hand = page.eval_on_selector_all("#hand .tile", "ts => ts.map(t => t.dataset.tile)")
            target = len(hand) - 1 - hand[::-1].index(tile)  # the drawn copy if it is one
            if keyboard:
                self.focus_hand_tile(target)
                page.keyboard.press("Enter")
            else:
                page.locator("#hand .tile").nth(target).click()
        else:
            button = page.locator(f'#actions button[data-action="{action}"]')
            if keyboard:
                key = button.get_attribute("data-key") or ""
                page.keyboard.press(key if len(key) > 1 else key.upper())
            else:
                button.click()
        page.wait_for_function(
            f"() => document.body.dataset.seq !== '{view['seq']}'", timeout=20_000
        )
        self.actions.append(action)
        return action

    def focus_hand_tile(self, index: int) -> None:
        page = self.page
        active = "() => document.activeElement && document.activeElement.dataset.index"
        if page.evaluate(active) is None:
            page.keyboard.press("ArrowRight")  # from anywhere: into the hand
        for _ in range(30):
            at = int(page.evaluate(active))
            if at == index:
                return
            page.keyboard.press("ArrowRight" if at < index else "ArrowLeft")
        raise AssertionError(f"could not reach hand tile {index}")


# -------------------------------------------------------------------------------------------
# fixtures
# -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert CHROMIUM is not None
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_table(url: str, seed: int, **extra: Any) -> tuple[str, str]:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {OP}"}, timeout=30) as http:
        body = {"name": "晚场", "seats": SEATS, "seed": seed, "rounds": 4, "next_round": "ready"}
        r = http.post("/api/tables", json=body | extra)
        assert r.status_code == 201, r.text
        return r.json()["id"], r.json()["tokens"]["0"]


def open_page(
    browser: Any, url: str, tid: str, token: str, viewport: dict[str, int] = VIEWPORT
) -> Any:
    ctx = browser.new_context(viewport=viewport, device_scale_factor=1, locale="zh-CN")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{url}/table/{tid}#token={token}")
    page.wait_for_selector("#ready", timeout=15_000)
    return page


# -------------------------------------------------------------------------------------------
# a round with the mouse
# -------------------------------------------------------------------------------------------


def check_table(page: Any, view: dict[str, Any]) -> None:
    """The page draws what the view says: seats around the table, the hand, the wall."""
    n = len(view["names"])
    for pos, rel in (("bottom", 0), ("right", 1), ("top", 2), ("left", 3)):
        seat = (view["seat"] + rel) % n
        box = page.locator(f"#seat-{pos}")
        assert box.get_attribute("data-seat") == str(seat)
        plate = box.locator(".plate").inner_text()
        assert view["names"][seat] in plate
        assert "东南西北"[(seat - view["dealer"]) % n] in plate  # its wind
        assert (box.locator(".badge.dealer").count() == 1) == (seat == view["dealer"])
        pond = page.locator(f"#pond-{pos} .tile")
        mine = [d for d in view["discards"] if d["seat"] == seat]
        assert pond.count() == len(mine)
        for i, d in enumerate(mine):
            cls = pond.nth(i).get_attribute("class") or ""
            assert pond.nth(i).get_attribute("data-tile") == d["tile"]
            assert ("claimed" in cls) == (d["claimed_by"] is not None)
        assert page.locator(
            f"#seat-{pos} .meld, #my-melds .meld" if rel == 0 else f"#seat-{pos} .meld"
        ).count() == len(view["melds"][seat])
    hand = page.locator("#hand .tile")
    assert sorted(hand.evaluate_all("ts => ts.map(t => t.dataset.tile)")) == sorted(
        T.TILE_TEXT[k] for k in T.parse(view["hand"])
    )
    for i in range(hand.count()):
        label = hand.nth(i).get_attribute("aria-label") or ""
        assert any(ch in label for ch in "万条筒鸡风中发白"), label  # the Chinese name
        if hand.nth(i).get_attribute("data-tile") == "1s":
            assert "chicken" in (hand.nth(i).get_attribute("class") or "")  # 幺鸡 marked
    if view["phase"] == "turn" and view.get("drawn"):
        last = hand.nth(hand.count() - 1)
        assert last.get_attribute("data-tile") == view["drawn"]
        assert "drawn" in (last.get_attribute("class") or "")  # the drawn tile stands apart
    assert page.inner_text("#wall-left").replace(" ", "").find(str(view["wall"])) >= 0
    for w in view.get("waits") or []:
        chip = page.locator(f'#waits .wait[data-tile="{w["tile"]}"]')
        assert chip.count() == 1 and str(w["left"]) in chip.inner_text()


def test_a_human_plays_a_round_with_the_mouse_claims_and_reaches_the_settlement(
    browser: Any, tmp_path: Path
) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'b.db'}", OP, cwd=tmp_path) as srv:
        tid, token = make_table(srv.url, SEED, turn_seconds=600)
        page = open_page(browser, srv.url, tid, token)
        assert "#token" not in page.url  # the token leaves the address bar
        assert page.inner_text("#status")  # says what to do: press ready
        page.click("#ready")
        me = Player(page)
        view = me.wait_turn()
        # a refused action shows the server's own message and changes nothing
        page.evaluate("() => window.zhuoji.act('discard 7z')")
        page.wait_for_selector("#error:not([hidden])")
        assert "白板" in page.inner_text("#error")  # the refused discard, in words
        assert me.view()["seq"] == view["seq"]
        assert page.locator("#timer").inner_text().strip().isdigit()  # the turn timer runs
        claims = 0
        while view["phase"] != "end":
            check_table(page, view)
            action = me.act(view)
            if action.split()[1] in ("peng", "gang"):
                claims += 1
                view = me.view()
                meld = page.locator("#my-melds .meld").last
                assert "from" in (meld.get_attribute("data-meld") or "")
                giver = int((meld.get_attribute("data-meld") or "").split()[-1])
                assert (
                    page.locator(
                        f"#pond-{['bottom', 'right', 'top', 'left'][giver]} .tile.claimed"
                    ).count()
                    >= 1
                )
            view = me.wait_turn()
            assert len(me.actions) < 100
        assert claims >= 1
        settlement = page.locator("#settlement")
        assert settlement.is_visible()
        with httpx.Client(base_url=srv.url) as http:
            row = http.get(f"/api/tables/{tid}/rounds/1").json()
        entries = row["settlement"]["entries"]
        covered = sorted(
            int(i)
            for r in page.locator("#ledger tr[data-item]").evaluate_all(
                "rs => rs.map(r => r.dataset.entries)"
            )
            for i in r.split(",")
        )
        assert covered == list(range(len(entries)))  # every payment, grouped by payee and reason
        for why in page.locator("#ledger td.why").all_inner_texts():
            assert why.strip()
        text = settlement.inner_text()
        reveal = row["settlement"]["result"]["reveal"]
        assert reveal == "7m"
        assert "翻出七万，八万为鸡" in text  # 翻鸡 in words
        assert page.locator("#showdown .show-row").count() == 4  # every hand
        assert page.locator("#showdown .tile.win").count() == 1  # the winning tile
        assert page.locator('#showdown .tile[data-tile="8m"]:not(.chicken)').count() == 0
        totals = page.locator("#totals tbody tr").first.inner_text()
        for t in row["totals"]:
            assert f"{t:+d}" in totals
        page.click("#toggle-settlement")  # the table behind it, every hand face up
        assert settlement.is_hidden()
        assert page.locator("#seat-top .backs.open .tile").count() > 0
        page.click("#ready")
        page.wait_for_function("() => document.body.dataset.round === '2'", timeout=15_000)
        assert page.locator("#settlement").is_hidden()
        assert page.errors == []


# -------------------------------------------------------------------------------------------
# a crash of the server
# -------------------------------------------------------------------------------------------


def test_the_page_reconnects_after_the_server_is_killed_and_restarted(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    port = free_port()
    srv = ServerProcess(db, OP, cwd=tmp_path, port=port).start()
    try:
        tid, token = make_table(srv.url, 5)
        page = open_page(browser, srv.url, tid, token)
        page.click("#ready")
        me = Player(page)
        view = me.wait_turn()
        for _ in range(3):
            me.act(view)
            view = me.wait_turn()
        before = me.view()
        srv.kill()
        page.wait_for_selector("#reconnect:not([hidden])", timeout=10_000)
        assert page.evaluate("() => document.body.dataset.conn") == "closed"
    finally:
        srv.kill()
    with ServerProcess(db, OP, cwd=tmp_path, port=port):
        page.wait_for_function("() => document.body.dataset.conn === 'open'", timeout=20_000)
        page.wait_for_selector("#reconnect", state="hidden")
        after = me.wait_turn()
        assert after["seq"] == before["seq"] and after["hand"] == before["hand"]
        assert after["legal"] == before["legal"]  # the same decision, where it stopped
        me.act(after)  # and play goes on
        assert page.errors == []


# -------------------------------------------------------------------------------------------
# keyboard only
# -------------------------------------------------------------------------------------------


def test_keyboard_only_play_and_the_language_choice(browser: Any, tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'k.db'}", OP, cwd=tmp_path) as srv:
        tid, token = make_table(srv.url, 3)  # 碰 at the 2nd decision
        page = open_page(browser, srv.url, tid, token)
        page.keyboard.press("r")  # 准备
        me = Player(page)
        view = me.wait_turn()
        # every hand tile is reachable: Tab into the hand, arrows along it
        for _ in range(12):
            if page.evaluate("() => !!document.activeElement.closest('#hand')"):
                break
            page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('#hand')")
        count = page.locator("#hand .tile").count()
        page.keyboard.press("Home")
        seen = set()
        for _ in range(count):
            seen.add(page.evaluate("() => document.activeElement.dataset.index"))
            page.keyboard.press("ArrowRight")
        assert len(seen) == count
        # English, remembered across a reload
        page.keyboard.press("l")
        assert page.evaluate("() => document.documentElement.lang") == "en"
        assert "Your turn" in page.inner_text("#status")
        page.reload()
        page.wait_for_function(MY_TURN, timeout=15_000)
        assert "Your turn" in page.inner_text("#status")
        page.keyboard.press("l")
        assert "轮到你出牌" in page.inner_text("#status")
        claimed = False
        while view["phase"] != "end":
            action = me.act(view, keyboard=True)
            claimed = claimed or action.split()[1] in ("peng", "gang")
            view = me.wait_turn()
            assert len(me.actions) < 100
        assert claimed
        assert page.locator("#settlement").is_visible()
        page.keyboard.press("r")  # next round, from the keyboard too
        page.wait_for_function("() => document.body.dataset.round === '2'", timeout=15_000)
        assert page.errors == []


# -------------------------------------------------------------------------------------------
# screenshots in the docs
# -------------------------------------------------------------------------------------------

FINGERPRINT = """() => {
  const cls = (t) => t.className.replace(/\\btile\\b|\\bhand-tile\\b/g, '').trim().split(/\\s+/)
    .filter(Boolean).sort();
  const tiles = (sel) => [...document.querySelectorAll(sel)].map(
    (t) => t.dataset.tile ? [t.dataset.tile, ...cls(t)].join('.') : 'back');
  const text = (sel) => [...document.querySelectorAll(sel)].map(
    (n) => n.innerText.replace(/\\s+/g, ' ').trim());
  const box = (sel) => document.querySelector(sel).getBoundingClientRect();
  const [top, left, right, bottom, center, hand] = [
    '#seat-top', '#seat-left', '#seat-right', '#seat-bottom', '#center', '#hand'].map(box);
  const shown = !document.getElementById('settlement').hidden;
  return {
    width: innerWidth, scroll_width: document.documentElement.scrollWidth,
    phase: document.body.dataset.phase, seq: document.body.dataset.seq,
    lang: document.documentElement.lang, plates: text('.plate'), center: text('#center'),
    status: text('#status'), actions: text('#actions button'), waits: text('#waits'),
    hand: tiles('#hand .tile'), my_melds: tiles('#my-melds .tile'),
    ponds: Object.fromEntries(
      ['top', 'left', 'right', 'bottom'].map((p) => [p, tiles('#pond-' + p + ' .tile')])),
    seats: Object.fromEntries(['top', 'left', 'right'].map((p) => [p, tiles('#seat-' + p + ' .tile')])),
    settlement: shown ? text('#settlement h2, #settlement h3, #settlement .headline, #ledger tr, #totals tr')
      : null,
    // where things are, as relations that survive a pixel or two of font difference
    layout: {
      top_above_center: top.bottom <= center.top, bottom_below_center: bottom.top >= center.bottom,
      left_of_center: left.right <= center.left, right_of_center: right.left >= center.right,
      hand_below_table: hand.top >= bottom.bottom, hand_inside: hand.left >= 0 && hand.right <= innerWidth,
    },
  };
}"""


def _browser_version(browser: Any) -> str:
    return str(browser.version)


def _has_cjk_font() -> bool:
    return bool(shutil.which("fc-list")) and "Noto Sans CJK SC" in os.popen("fc-list").read()


def _pixels_close(a: Path, b: Path) -> tuple[bool, str]:
    """Tolerant comparison: same size, and at most 1% of pixels differing by more than 48
    levels in some channel (anti-aliasing and font rasterizing differ a little between
    chromium builds; a changed layout or tile moves far more)."""
    from PIL import Image, ImageChops

    with Image.open(a) as ia, Image.open(b) as ib:
        if ia.size != ib.size:
            return False, f"size {ia.size} != {ib.size}"
        diff = ImageChops.difference(ia.convert("RGB"), ib.convert("RGB")).convert("L")
        changed = sum(diff.point(lambda v: 255 if v > 48 else 0).histogram()[255:])
        share = changed / (ia.size[0] * ia.size[1])
        return share <= 0.01, f"{share:.2%} of pixels differ"


def _capture(page: Any, name: str, out: Path, hover: str | None = None) -> dict[str, Any]:
    page.mouse.move(0, 0)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    if hover:
        page.hover(hover)
    page.wait_for_timeout(150)
    page.screenshot(path=str(out / f"{name}.png"), animations="disabled", caret="hide")
    return dict(page.evaluate(FINGERPRINT))


def test_the_screenshots_in_the_docs_are_current(browser: Any, tmp_path: Path) -> None:
    """Plays the SEED game again, captures the table (a discard hint shown), a claim, the
    settlement and the phone layout, and compares each with docs/screenshots: the page's
    structure exactly (the fingerprint JSON beside each PNG), the pixels with a tolerance.
    ZHUOJI_UPDATE_SCREENSHOTS=1 writes new ones instead (then look at them)."""
    out = SHOTS if UPDATE else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    prints: dict[str, Any] = {}
    with ServerProcess(f"sqlite:///{tmp_path / 's.db'}", OP, cwd=tmp_path) as srv:
        tid, token = make_table(srv.url, SEED)
        page = open_page(browser, srv.url, tid, token)
        page.click("#ready")
        me = Player(page)
        view = me.wait_turn()
        while view["phase"] != "end":
            words = {a["action"].split()[1] for a in view["legal"]}
            if "claim" not in prints and words & {"peng", "gang"}:
                prints["claim"] = _capture(page, "claim", out)
                page.set_viewport_size(PHONE)
                prints["phone"] = _capture(page, "phone", out)
                page.set_viewport_size(VIEWPORT)
            if "table" not in prints and view["phase"] == "turn" and view.get("discard_waits"):
                ting = sorted(view["discard_waits"])[0]
                prints["table"] = _capture(
                    page, "table", out, f'#hand .tile.ting[data-tile="{ting}"]'
                )
            me.act(view)
            view = me.wait_turn()
        prints["settlement"] = _capture(page, "settlement", out)
        assert page.errors == []
    assert set(prints) == {"claim", "phone", "table", "settlement"}
    assert prints["phone"]["scroll_width"] <= PHONE["width"]  # nothing sticks out at phone width
    assert prints["table"]["waits"] and "听" in prints["table"]["waits"][0]
    assert all(all(fp["layout"].values()) for fp in prints.values()), prints
    if UPDATE:
        for name, fp in prints.items():
            record = {"browser": _browser_version(browser), **fp}
            (SHOTS / f"{name}.json").write_text(
                json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
            )
        return
    regenerate = "regenerate with ZHUOJI_UPDATE_SCREENSHOTS=1 pytest tests/test_server_browser.py -k screenshots"
    same_browser = True
    for name, fp in prints.items():
        recorded = json.loads((SHOTS / f"{name}.json").read_text(encoding="utf-8"))
        browser_then = recorded.pop("browser", "")
        same_browser = (
            same_browser and browser_then.split(".")[0] == _browser_version(browser).split(".")[0]
        )
        assert fp == recorded, (
            f"docs/screenshots/{name}: the page's structure changed; {regenerate}"
        )
    # pixels only where they can match: the same chromium major version and the same fonts
    if not _has_cjk_font():
        pytest.skip(
            "structure checked; pixels not compared: no Noto Sans CJK font (fonts-noto-cjk)"
        )
    if not same_browser:
        pytest.skip(
            "structure checked; pixels not compared: screenshots made with another chromium"
        )
    for name in prints:
        ok, why = _pixels_close(out / f"{name}.png", SHOTS / f"{name}.png")
        assert ok, f"docs/screenshots/{name}.png is not current ({why}); {regenerate}"


# -------------------------------------------------------------------------------------------
# actions the page has no special code for
# -------------------------------------------------------------------------------------------


def test_declaring_and_other_actions_are_buttons_with_keys(browser: Any, tmp_path: Path) -> None:
    """报听 is a toggle (T) that makes a click declare; a choice of the whole table such as
    定缺 (``que``: legal actions the page only knows by word) comes out as buttons with
    shortcuts.  The page draws views it is given (window.zhuoji.show) and the messages it
    sends are recorded."""
    with ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", OP, cwd=tmp_path) as srv:
        tid, token = make_table(srv.url, 3)
        page = open_page(browser, srv.url, tid, token)
        page.evaluate(
            """() => { window.sent = []; const send = WebSocket.prototype.send;
            WebSocket.prototype.send = function (m) {
              window.sent.push(JSON.parse(m)); return send.call(this, m); }; }"""
        )
        base = page.evaluate("() => window.zhuoji.view()")
        turn = base | {
            "round": 1, "phase": "turn", "seq": 40, "to_act": [0], "dealer": 0, "wall": 50,
            "hand": "123456m789s1155p", "drawn": "5p", "melds": [[], [], [], []], "discards": [],
            "concealed_counts": [14, 13, 13, 13], "declared": [None] * 4, "marks": {"1s": "chicken"},
            "legal": [
                {"action": f"0 {w} {t}", "label": f"{w} {t}"}
                for w, t in (("discard", "1p"), ("discard", "5p"), ("declare", "1p"), ("declare", "5p"))
            ] + [{"action": "0 angang 5p", "label": "暗杠 五筒 (5p)"}],
            "discard_waits": {"1p": [{"tile": "5p", "left": 1}]},
        }  # fmt: skip
        turn["rules"] = base["rules"] | {
            "house_rules": ["冲锋鸡 multiplier: 2 → 3"],
            "house_rules_words": [
                {"zh": "冲锋鸡倍数：2 → 3", "en": "first chicken multiplier: 2 → 3"}
            ],
        }
        page.evaluate("(v) => window.zhuoji.show(v)", turn)
        assert page.inner_text("#house-rules") == "本桌规则 冲锋鸡倍数：2 → 3"  # in words, in zh
        only_cli = turn["rules"] | {"house_rules_words": []}  # an older server's words
        page.evaluate("(v) => window.zhuoji.show(v)", turn | {"rules": only_cli})
        assert page.inner_text("#house-rules") == "本桌规则 冲锋鸡 multiplier: 2 → 3"
        page.evaluate("(v) => window.zhuoji.show(v)", turn)
        keys = page.locator("#actions button").evaluate_all(
            "bs => bs.map(b => [b.dataset.key, b.dataset.action || b.className])"
        )
        assert ["t", "act act-declare"] in keys and ["g", "0 angang 5p"] in keys
        assert page.locator('#hand .tile.ting[data-tile="1p"]').count() == 2
        page.keyboard.press("t")  # 报听 on: the tiles it may discard are lit
        assert page.locator("#hand .tile.declare").count() == 4  # two 1p, two 5p
        assert "报听" in page.inner_text("#status")
        page.locator('#hand .tile[data-tile="1p"]').first.click()
        sent = page.evaluate("() => window.sent.filter(m => m.type === 'action')")
        assert sent[-1]["action"] == "0 declare 1p" and sent[-1]["seq"] == 40
        que = turn | {
            "phase": "dingque", "seq": 41, "drawn": None, "discard_waits": {},
            "legal": [{"action": f"0 que {s}", "label": f"定缺 {n}"} for s, n in zip("msp", "万条筒", strict=True)],
        }  # fmt: skip
        page.evaluate("(v) => window.zhuoji.show(v)", que)
        buttons = page.locator("#actions button[data-action]")
        assert buttons.all_inner_texts() == ["Q 定缺 万", "1 定缺 条", "2 定缺 筒"]
        assert page.inner_text("#status").startswith("定缺")
        page.keyboard.press("1")
        sent = page.evaluate("() => window.sent.filter(m => m.type === 'action')")
        assert sent[-1]["action"] == "0 que s" and sent[-1]["seq"] == 41
        # 换三张: tiles are picked by clicking them, one at a time
        swap = que | {
            "phase": "exchange", "seq": 42, "exchange": {"given": "1m", "received": "", "direction": None},
            "legal": [{"action": f"0 exchange {t}", "label": f"换牌 {t}"} for t in ("2m", "3m", "4m")],
        }  # fmt: skip
        page.evaluate("(v) => window.zhuoji.show(v)", swap)
        assert page.locator("#actions button[data-action]").count() == 0
        assert "换三张" in page.inner_text("#status") and "一万" in page.inner_text("#status")
        page.locator('#hand .tile[data-tile="3m"]').click()
        sent = page.evaluate("() => window.sent.filter(m => m.type === 'action')")
        assert sent[-1]["action"] == "0 exchange 3m"
        # afterwards: what was passed and received, and every seat's void suit
        after = turn | {
            "seq": 43, "legal": [], "to_act": [1], "void_suits": ["s", "m", None, "p"],
            "exchange": {"given": "123m", "received": "789p", "direction": "opposite"},
        }  # fmt: skip
        page.evaluate("(v) => window.zhuoji.show(v)", after)
        assert "换给对家" in page.inner_text("#exchanged")
        assert page.locator("#seat-bottom .badge.void").inner_text() == "缺条"
        assert page.locator(".badge.void").count() == 3
        assert page.errors == []
