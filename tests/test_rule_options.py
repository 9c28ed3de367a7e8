"""Rule values from RULES.md's "elsewhere" column, each working without code (issue 5): set by
override or a small variant file, or — for the tables the catalog now ships (issue 12:
三丁拐, 二丁拐, the 定缺 table, 金沙's 112 tiles, the 贵阳 QQ table with 乌骨鸡 and 上下鸡) —
played from the shipped file."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhuoji import roundend, tiles
from zhuoji.agents.base import RandomAgent, make_agent
from zhuoji.match import Match
from zhuoji.outcome import WinHow
from zhuoji.rules.chickens.marks import chicken_marks
from zhuoji.rules.win import WinCheck
from zhuoji.settle import settle
from zhuoji.variant_io import load_variant

SELF_DRAW = {
    "dealer": 0,
    "seats": [
        {"hand": "123m456m789m1p2p3p5s"},  # seat 0 self-draws 5s: 平胡
        {"hand": "1199m2288s337p46p"},
        {"hand": "147m258s369p2468s"},
        {"hand": "235m678m33s45s678p"},
    ],
    "result": {"wins": [{"seat": 0, "how": "self_draw"}], "tile": "5s"},
}


def _settle(
    data: dict[str, object], variant: str, overrides: list[str] | None = None
) -> dict[str, int]:
    rs = load_variant(variant, overrides)
    ledger = settle(rs, roundend.build(roundend.parse(data), rs))
    return ledger.by_item()


def test_self_draw_multiplier() -> None:
    """RULES.md 自摸 row, elsewhere: "×2" — the hand's value doubles, paid by all three."""
    plain = _settle(SELF_DRAW, "guiyang")
    doubled = _settle(SELF_DRAW, "guiyang", ["settle.hu.multipliers.self_draw=2"])
    assert plain["hu.pattern"] == 3  # 平胡 1 from each other player
    assert doubled["hu.pattern"] == 6


def test_rob_kong_multiplier_does_not_touch_a_self_draw() -> None:
    assert _settle(SELF_DRAW, "guiyang", ["settle.hu.multipliers.rob_kong=4"])["hu.pattern"] == 3


def test_flat_self_draw_bonus_row() -> None:
    """自摸 elsewhere "+2": a pattern row, no code."""
    items = _settle(
        SELF_DRAW,
        "guiyang",
        [
            "patterns.rows.zimo={name: 自摸, fan: 2, item: hu.zimo, additive: true, requires: {self_draw: true}}"
        ],
    )
    assert items["hu.zimo"] == 6


HONGZHONG_WILD = """\
name: hongzhong-wild
title: 红中癞子（测试）
source: "RULES.md tiles row: 112 tiles (108 + 红中); a fixed 红中 wild, a table option"
extends: guiyang
tiles: {set: suits+red}
wild: {indicator: fixed, tile: 5z, claimable: false, discard: any, live_wall_ends_at_indicator: false}
"""


def test_112_tiles_with_a_fixed_wild(tmp_path: Path) -> None:
    """The 112-tile set with 红中 as a fixed wild (红中癞子).  Not 金沙: there 红中 is an
    ordinary tile and a 钻石鸡 (the shipped ``jinsha``, below)."""
    path = tmp_path / "hongzhong-wild.yaml"
    path.write_text(HONGZHONG_WILD, encoding="utf-8")
    rs = load_variant(path)
    # seat 0 wins with a 红中 standing in for the missing 3p
    data = {
        "dealer": 0,
        "seats": [
            {"hand": "123m456m789m1p2p5z5s"},
            {"hand": "1199m2288s337p46p"},
            {"hand": "147m258s369p2468s"},
            {"hand": "235m678m33s45s678p"},
        ],
        "result": {"wins": [{"seat": 0, "how": "self_draw"}], "tile": "5s"},
    }
    end = roundend.build(roundend.parse(data), rs)
    assert end.wild == 31
    assert sum(settle(rs, end).totals()) == 0
    result = Match(rs, seed=3, rounds=3).play([make_agent("greedy", i) for i in range(4)])
    assert all(len(r.wall.tiles) == 112 and r.wild == 31 for r in result.rounds)


def test_jinsha_plays_112_tiles_with_hongzhong_as_a_tile() -> None:
    """金沙 (CITIES.md: 「108 + four 红中」): 红中 is dealt, held and discarded like any tile;
    a revealed 红中 is a 钻石鸡."""
    rs = load_variant("jinsha")
    result = Match(rs, seed=3, rounds=3).play([make_agent("greedy", i) for i in range(4)])
    for r in result.rounds:
        assert len(r.wall.tiles) == 112 and r.wall.tiles.count(31) == 4 and r.wild is None
    assert chicken_marks(rs, win_reveal=31)[31] == "chicken"
    assert 31 not in chicken_marks(load_variant("guiyang"), win_reveal=31)  # no 本鸡 there


def test_qq_table_wugu_and_shangxia() -> None:
    """The 贵阳 QQ table (CITIES.md 贵阳 common): 乌骨鸡 (八筒) always a chicken, golden on a
    revealed 七筒, whose 上下鸡 makes 六筒 a chicken too; seed 000's table has neither."""
    p = tiles.parse_one
    qq = chicken_marks(load_variant("guiyang-qq"), win_reveal=p("7p"))
    assert qq == {p("1s"): "chicken", p("6p"): "chicken", p("8p"): "golden"}
    assert chicken_marks(load_variant("guiyang-qq"))[p("8p")] == "chicken"
    assert chicken_marks(load_variant("guiyang"), win_reveal=p("7p")) == {
        p("1s"): "chicken",
        p("8p"): "chicken",
    }


def _first_discard_pinghu(seat: int) -> WinCheck:
    return WinCheck(
        seat=seat,
        tile=0,
        how=WinHow.DISCARD,
        has_kong=False,
        declared=False,
        source_declared=False,
        repao=False,
        base_fan=lambda: 1,
        first_turn=True,
    )


@pytest.mark.parametrize(
    ("variant", "allowed"),
    [("sandingguai", True), ("erdingguai", True), ("guiyang-dingque", False), ("guiyang", False)],
)
def test_first_discard_pass(variant: str, allowed: bool) -> None:
    """CITIES.md 三丁拐 pass 「… or is on the first discard」 (ZA 丁拐; 二丁拐 「as 三丁拐」): a
    平胡 with no dou wins on a discard before its player has discarded or melded."""
    rs = load_variant(variant)
    assert all(h(_first_discard_pinghu(1)) for h in rs.may_win) is allowed


@pytest.mark.parametrize(
    ("variant", "overrides", "players"),
    [
        ("erdingguai", {}, 2),  # 二丁拐: 72 tiles (条筒), two players — shipped
        ("sandingguai", {}, 3),  # 三丁拐: 108 tiles with 定缺, three players — shipped
        ("guiyang-dingque", {}, 3),  # 捉鸡 with 定缺 at three seats — shipped
        ("guiyang-dingque", {"tiles.players": 2}, 2),  # … and at two (FW: 「2 or 3 players」)
        # 两房 (FW "STT"): three players on the 72-tile 条筒 wall, no 定缺
        (
            "sandingguai",
            {"tiles.set": "two-suit", "dingque": None, "settle.huazhu": None},
            3,
        ),
        ("guiyang-weile", {"tiles.players": 3}, 3),  # seed 001 基本規則 1 "玩家人數:3至4人"
    ],
)
def test_fewer_players(variant: str, overrides: dict[str, object], players: int) -> None:
    rs = load_variant(variant, overrides or None)
    assert rs.variant.tiles.players == players
    wall = {"two-suit": 72, "suits": 108}[rs.variant.tiles.set.value]
    result = Match(rs, seed=4, rounds=12).play([RandomAgent(s) for s in range(players)])
    assert sum(result.totals) == 0
    for r in result.rounds:
        assert r.ledger is not None and len(r.ledger.totals()) == players
        assert len(r.wall.tiles) == wall
