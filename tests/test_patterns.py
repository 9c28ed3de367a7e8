"""Pattern rows and hand facts (zhuoji.rules.patterns, zhuoji.rules.facts): the city-only rows
of CITIES.md "Common mechanisms" 8 written as data, and tiles as row parameters.

Definitions are those of the public FW game server (module ``mahjong.go``, ``game`` package,
the ``winType`` chain CITIES.md cites for 遵义/仁怀/金沙): ``bianKaDiao`` "no tile but the
winning one completes the hand", ``daKuanZhang`` "three waits of one suit, each three apart",
``hepu7Dui`` "seven pairs with two runs of three consecutive pairs", ``long7Dui`` "the
four-of-a-kind is the winning tile"; 单吊 = four melds (CITIES.md 独山 §9, 三丁拐).
"""

from __future__ import annotations

from typing import Any

import pytest

from zhuoji.cli import shipped_variants
from zhuoji.hand import HandRules, Wild
from zhuoji.outcome import Meld, MeldKind
from zhuoji.rules.facts import WinContext
from zhuoji.rules.patterns import HandValue, _prepared, evaluate
from zhuoji.tiles import counts, parse_one
from zhuoji.variant import PatternRow, PatternsSection
from zhuoji.variant_io import load_variant

#: a 遵义-style table (CITIES.md 遵义: 平胡2 边卡吊4 大宽张5 大对子6 七对7 清一色10 …)
ZUNYI_ROWS: dict[str, dict[str, Any]] = {
    "pinghu": {"name": "平胡", "fan": 2, "requires": {"form": "standard"}},
    "biankadiao": {"name": "边卡吊", "fan": 4, "requires": {"form": "standard", "one_wait": True}},
    "dakuanzhang": {"name": "大宽张", "fan": 5, "requires": {"wide_wait": True}},
    "daduizi": {"name": "大对子", "fan": 6, "requires": {"all_pungs": True}},
    "qidui": {"name": "七对", "fan": 7, "requires": {"form": "seven_pairs"}},
    "qingyise": {"name": "清一色", "fan": 10, "requires": {"one_suit": True}},
    "danddiao": {"name": "单吊", "fan": 10, "requires": {"melds": 4}},
    "hepu": {"name": "合浦小七对", "fan": 12, "requires": {"form": "seven_pairs", "pair_runs": 2}},
    "longqidui": {
        "name": "龙七对",
        "fan": 10,
        "requires": {"form": "seven_pairs", "quads": 1, "quad_on_win": True},
    },
    "shuanglong": {"name": "双龙七对", "fan": 20, "requires": {"form": "seven_pairs", "quads": 2}},
}


def table(rows: dict[str, dict[str, Any]], combine: str = "highest") -> PatternsSection:
    return PatternsSection.model_validate({"combine": combine, "rows": rows})


def value(
    text: str,
    tile: str,
    rows: dict[str, dict[str, Any]] = ZUNYI_ROWS,
    *,
    melds: tuple[Meld, ...] = (),
    rules: HandRules | None = None,
    ctx: WinContext | None = None,
    combine: str = "highest",
) -> HandValue:
    """The value of ``text`` (the concealed tiles before the win) completed by ``tile``."""
    full = counts(text)
    full[parse_one(tile)] += 1
    got = evaluate(
        table(rows, combine),
        rules or HandRules(),
        full,
        melds,
        parse_one(tile),
        ctx or WinContext(),
    )
    assert got is not None, f"{text} + {tile} does not win"
    return got


def names(v: HandValue) -> list[str]:
    return [c.name for c in v.components]


@pytest.mark.parametrize(
    ("text", "tile", "expected"),
    [
        pytest.param("12m456m789s234p55p", "3m", "边卡吊", id="edge-wait-12-3"),
        pytest.param("13m456m789s234p55p", "2m", "边卡吊", id="closed-wait-1-3"),
        pytest.param("123m456m789s234p9p", "9p", "边卡吊", id="pair-wait"),
        pytest.param("23m567m789s234p55p", "1m", "平胡", id="open-wait-23-no"),
        pytest.param("23456m789s234p55p", "4m", "大宽张", id="wide-147"),
        pytest.param("23456m789s234p55p", "7m", "大宽张", id="wide-on-the-outer-tile"),
        pytest.param("34567m789s234p55p", "5m", "大宽张", id="wide-258"),
        pytest.param("2345m789s234p555p", "2m", "平胡", id="two-waits-no"),
        pytest.param("1122m3344s55667p", "7p", "七对", id="plain-seven-pairs"),
        pytest.param("112233m445566s7p", "7p", "合浦小七对", id="hepu-two-runs"),
        pytest.param("112233m446688s7p", "7p", "七对", id="hepu-one-run-no"),
        pytest.param("111m223344s5566p", "1m", "龙七对", id="long-on-the-quad"),
        pytest.param("1111m22334s5566p", "4s", "七对", id="long-quad-not-won-no"),
        pytest.param("1111m2222s3p4455p", "3p", "双龙七对", id="shuanglong"),
    ],
)
def test_city_rows(text: str, tile: str, expected: str) -> None:
    assert names(value(text, tile)) == [expected]


def test_one_suit_beats_edge_wait() -> None:
    """Highest only: 清一色 (10) over 边卡吊 (4) in the same hand."""
    assert names(value("12m456m789m234m55m", "3m")) == ["清一色"]


def test_dandiao_four_melds() -> None:
    """单吊 = four melds, won on the last tile (CITIES.md 独山 "单吊(4 melds)10")."""
    melds = (
        Meld(MeldKind.PENG, parse_one("2m"), 1),
        Meld(MeldKind.PENG, parse_one("5s"), 2),
        Meld(MeldKind.GANG_EXPOSED, parse_one("9p"), 3),
        Meld(MeldKind.PENG, parse_one("7s"), 1),
    )
    v = value("3p", "3p", melds=melds)
    assert names(v) == ["单吊"] and v.facts["melds"] == 4
    three = value("333p5p", "5p", melds=melds[:3])
    assert three.facts["melds"] == 3 and "单吊" not in names(three)


GANGKAI_ALONE = {
    "pinghu": {"name": "平胡", "fan": 2, "requires": {"form": "standard"}},
    "qingyise": {"name": "清一色", "fan": 10, "requires": {"one_suit": True}},
    "gangkai": {"name": "杠上开花", "fan": 8, "exclusive": True, "requires": {"gangkai": True}},
    "zimo": {"name": "自摸", "fan": 1, "additive": True, "requires": {"self_draw": True}},
}


def test_exclusive_row_stands_alone() -> None:
    """杠上开花 as a stand-alone pattern replaces the others even when they are worth more
    (FW "杠上开花时，不计其他牌型"); additive rows still add."""
    ctx = WinContext(self_draw=True, gangkai=True)
    v = value("123m456m789m234m5m", "5m", GANGKAI_ALONE, ctx=ctx)
    assert [(c.name, c.fan) for c in v.components] == [("杠上开花", 8), ("自摸", 1)]
    plain = value("123m456m789m234m5m", "5m", GANGKAI_ALONE, ctx=WinContext(self_draw=True))
    assert [(c.name, c.fan) for c in plain.components] == [("清一色", 10), ("自摸", 1)]
    additive = value("123m456m789m234m5m", "5m", GANGKAI_ALONE, ctx=ctx, combine="additive")
    assert [c.name for c in additive.components] == ["杠上开花", "自摸"]


def test_additive_table_adds_every_row() -> None:
    """独山 (CITIES.md): patterns add up: 清一色 10 + 单吊-style one wait 4 … all count."""
    v = value("12m456m789m234m55m", "3m", combine="additive")
    assert sorted(names(v)) == ["平胡", "清一色", "边卡吊"]
    assert v.total == 2 + 10 + 4


def test_tile_copies_counts_the_rows_tile() -> None:
    """A row names its tile (红中 嘴, seed 003 23 "胡牌玩家有1个红中就加2嘴"); no fact does."""
    rows = {
        "win": {"name": "开牌", "fan": 2},
        "bai": {
            "name": "白板",
            "fan": 2,
            "per": "tile_copies",
            "tile": "7z",
            "values_by_count": [0, 2, 4, 6, 10],
        },
    }
    melds = (Meld(MeldKind.PENG, parse_one("7z"), 2),)
    v = value("234m456m678p2s", "2s", rows, melds=melds, combine="additive")
    assert [(c.name, c.fan) for c in v.components] == [("开牌", 2), ("白板", 6)]
    assert not v.facts["no_terminals"]


def test_stand_in_counts_as_itself() -> None:
    """白板配 (stand_in 7z, stand_in_when: always) with a fixed 红中 wild: a 白板 read as the
    红中 face is still a 白板 for tile_copies, and the wild 红中 is no tile of its own."""
    rows = {
        "win": {"name": "开牌", "fan": 2},
        "bai": {"name": "白板", "fan": 2, "per": "tile_copies", "tile": "7z"},
        "hong": {"name": "红中", "fan": 2, "per": "tile_copies", "tile": "5z"},
    }
    rules = HandRules(wild=Wild(parse_one("5z"), parse_one("7z")))
    v = value("234m456m678p22s77z", "5z", rows, rules=rules, combine="additive")
    assert [(c.name, c.fan) for c in v.components] == [("开牌", 2), ("白板", 4)]


def test_row_tile_needs_tile_copies() -> None:
    with pytest.raises(ValueError, match="names the tile it counts"):
        PatternRow.model_validate({"name": "x", "fan": 1, "per": "tile_copies"})
    with pytest.raises(ValueError, match="read only by tile_copies"):
        PatternRow.model_validate({"name": "x", "fan": 1, "tile": "5z"})


@pytest.mark.parametrize(
    ("wild", "when", "stand_in"),
    [
        ("5p", "suit_wild", "5z"),  # 红中配, seed 003
        ("2z", "suit_wild", None),  # "在宝牌不是东、南、西、北、中、发、白的时候"
        ("5z", "always", "7z"),  # 白板配 for a 红中 wild (a reading)
    ],
)
def test_stand_in_when(wild: str, when: str, stand_in: str | None) -> None:
    si = "7z" if when == "always" else "5z"
    rs = load_variant("luan", {"wild.stand_in": si, "wild.stand_in_when": when})
    rules = rs.hand_rules(parse_one(wild))
    assert rules.wild == Wild(parse_one(wild), parse_one(stand_in) if stand_in else None)


@pytest.mark.parametrize("variant", shipped_variants())
def test_prepared_rows_read_every_condition(variant: str) -> None:
    """The prepared table reads a row's conditions from the model's fields directly (not by
    iterating the model): the same names and values, in the same order, on every shipped
    variant's table."""
    table = load_variant(variant).variant.patterns
    prepared = _prepared.fn(table)
    assert len(prepared.rows) == len(table.rows)
    for row, (pid, model) in zip(prepared.rows, table.rows.items(), strict=True):
        assert row.pid == pid
        want = [(name, value) for name, value in model.requires if value is not None]
        assert [(c[0], c[1]) for c in row.conditions] == want
