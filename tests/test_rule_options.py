"""Rule values from RULES.md's "elsewhere" column that no shipped variant uses, set by
override or a small variant file: each must work without code (issue 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhuoji import roundend
from zhuoji.agents.base import RandomAgent, make_agent
from zhuoji.match import Match
from zhuoji.settle import settle
from zhuoji.variant import load_variant

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


QIANXI = """\
name: qianxi-test
title: 黔西（测试）
source: "RULES.md tiles row: 112 tiles in 黔西/金沙; a fixed 红中 wild"
extends: guiyang
tiles: {set: suits+red}
wild: {indicator: fixed, tile: 5z, claimable: false, discard: any, live_wall_ends_at_indicator: false}
"""


def test_112_tiles_with_a_fixed_wild(tmp_path: Path) -> None:
    path = tmp_path / "qianxi.yaml"
    path.write_text(QIANXI, encoding="utf-8")
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


@pytest.mark.parametrize(
    ("variant", "overrides", "players"),
    [
        (
            "guiyang",
            {"tiles.set": "two-suit", "tiles.players": 2},
            2,
        ),  # 二丁拐: 72 tiles, two players
        ("guiyang", {"tiles.set": "two-suit", "tiles.players": 3}, 3),  # 三丁拐
        ("guiyang-weile", {"tiles.players": 3}, 3),  # seed 001 基本規則 1 "玩家人數:3至4人"
    ],
)
def test_fewer_players(variant: str, overrides: dict[str, object], players: int) -> None:
    rs = load_variant(variant, overrides)
    result = Match(rs, seed=4, rounds=12).play([RandomAgent(s) for s in range(players)])
    assert sum(result.totals) == 0
    for r in result.rounds:
        assert r.ledger is not None and len(r.ledger.totals()) == players
