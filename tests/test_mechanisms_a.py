"""Mechanisms of issue 25 (deliverable 3, first half), each a key whose default changes
nothing: 跟庄 (``settle.genzhuang``, zhuoji/rules/genzhuang.py), 吹风鸡 in FW's reading
(``settle.chuifeng``, zhuoji/rules/chuifeng.py) …  Their goldens are in
tests/golden/ (guiyang 24 …); here the rules' edges, their prices and their words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import goldenlib

from zhuoji import roundend
from zhuoji import tiles as T
from zhuoji.contract.pricing import Decision, Pricer
from zhuoji.rules.genzhuang import GenzhuangPricer, followed_tile
from zhuoji.variant_io import load_variant

GOLDEN = Path(__file__).parent / "golden"
NINE_M = T.parse_one("9m")
ONE_P = T.parse_one("1p")


# --- 跟庄 -----------------------------------------------------------------------------------


def _rows(*rows: tuple[int, str, int | None]) -> list[tuple[int, int, int | None]]:
    return [(seat, T.parse_one(tile), by) for seat, tile, by in rows]


def test_followed_tile_needs_every_player_in_turn_with_the_dealers_tile() -> None:
    four = _rows((2, "9m", None), (3, "9m", None), (0, "9m", None), (1, "9m", None))
    assert followed_tile(four, 4, 2) == NINE_M
    assert followed_tile(four[:3], 4, 2) is None  # not everyone has discarded
    assert followed_tile(four[:3], 3, 2) is None  # at three seats the turn is 2, 0, 1
    assert followed_tile(_rows((2, "9m", None), (0, "9m", None), (1, "9m", None)), 3, 2) == NINE_M
    other = _rows((2, "9m", None), (3, "9m", None), (0, "1p", None), (1, "9m", None))
    assert followed_tile(other, 4, 2) is None
    claimed = _rows((2, "9m", None), (3, "9m", 0), (0, "9m", None), (1, "9m", None))
    assert followed_tile(claimed, 4, 2) is None  # a claim breaks the go-round
    last_won = _rows((2, "9m", None), (3, "9m", None), (0, "9m", None), (1, "9m", 2))
    assert followed_tile(last_won, 4, 2) == NINE_M  # all four were discarded


def _settle(name: str, overrides: list[str], change: dict[str, Any] | None = None) -> list[int]:
    case = goldenlib.load_case(GOLDEN / name)
    data = dict(case.data, **(change or {}))
    _, _, ledger = roundend.settle_file(roundend.parse(data, name), None, overrides, label=name)
    return ledger.totals()


def test_genzhuang_is_off_unless_the_variant_turns_it_on() -> None:
    assert _settle("guiyang/24_genzhuang_draw.yaml", ["settle.genzhuang={}"]) == [1, 1, -3, 1]
    assert _settle("guiyang/24_genzhuang_draw.yaml", []) == [0, 0, 0, 0]
    on = ["settle.genzhuang={value: 2}"]
    assert _settle("guiyang/24_genzhuang_draw.yaml", on) == [2, 2, -6, 2]
    broken = {
        "discards": [
            {"seat": 2, "tile": "9m"},
            {"seat": 3, "tile": "9m"},
            {"seat": 0, "tile": "1m"},
            {"seat": 1, "tile": "9m"},
        ]
    }
    assert _settle("guiyang/24_genzhuang_draw.yaml", on, broken) == [0, 0, 0, 0]


def _decision(seat: int, table: list[tuple[int, int, int | None]], live: int) -> Decision:
    counts = [0] * T.NUM_KINDS
    counts[NINE_M] = live
    counts[ONE_P] = 4
    return Decision(
        seat=seat,
        players=4,
        dealer=0,
        streak=0,
        weekday=1,
        reveals=(),
        table=tuple(table),
        live=counts,
        unseen=80,
        declared=[False] * 4,
        own_melds=(),
        wild=None,
        claim_source=-1,
        p_ready=[0.0] * 4,
        ready_opponents=0.0,
        typical_loss=1.0,
        other_self_draw_share=0.5,
    )


def _genzhuang_pricer() -> GenzhuangPricer:
    rs = load_variant("guiyang", ["settle.genzhuang={}"])
    found = [p for p in rs.pricing.pricers if isinstance(p, GenzhuangPricer)]
    assert len(found) == 1
    assert not any(isinstance(p, GenzhuangPricer) for p in load_variant("guiyang").pricing.pricers)
    return found[0]


def test_genzhuang_prices_the_first_go_round() -> None:
    """The dealer's first discard risks 1 to each of three if all follow; the last follower
    earns 1 for certain with the dealer's tile; a tile no one else holds risks nothing."""
    pricer = _genzhuang_pricer()
    dealer = pricer.decide(_decision(0, [], live=3))
    risk = dealer.discard_gain(NINE_M, 0.0, 0.0)
    assert -3.0 < risk < 0.0
    assert dealer.discard_gain(T.parse_one("5s"), 0.0, 0.0) == 0.0  # no copy unseen
    last = pricer.decide(_decision(3, _rows((0, "9m", None), (1, "9m", None), (2, "9m", None)), 1))
    assert last.discard_gain(NINE_M, 0.0, 0.0) == 1.0
    assert last.discard_gain(ONE_P, 0.0, 0.0) == 0.0
    second = pricer.decide(_decision(1, _rows((0, "9m", None)), live=2))
    assert 0.0 < second.discard_gain(NINE_M, 0.0, 0.0) < 1.0
    # out of the first go-round, or once it broke, it prices nothing
    late = pricer.decide(_decision(2, _rows((0, "9m", None), (1, "1p", None)), live=2))
    assert type(late) is GenzhuangPricer and late.discard_gain(NINE_M, 0.0, 0.0) == 0.0
    assert isinstance(late, Pricer)


def test_genzhuang_words() -> None:
    case = goldenlib.load_case(GOLDEN / "guiyang/24_genzhuang_draw.yaml")
    _, _, ledger = roundend.settle_file(
        roundend.parse(case.data, "24"), None, ["settle.genzhuang={}"], label="24"
    )
    words = [e.words() for e in ledger.entries]
    assert words[0].zh.startswith("庄家首张打九万，各家都跟")
    assert words[0].rule_zh.startswith("跟庄")
    assert "the dealer pays each other player" in words[0].rule_en


# --- 吹风鸡, FW's reading ----------------------------------------------------------------------

CHUIFENG = "guiyang/25_chuifeng_fw_void.yaml"
ON = ["settle.chuifeng={tiles: [5p]}"]


def _ledger(name: str, overrides: list[str], change: dict[str, Any] | None = None) -> Any:
    case = goldenlib.load_case(GOLDEN / name)
    data = dict(case.data, **(change or {}))
    return roundend.settle_file(roundend.parse(data, name), None, overrides, label=name)[2]


def test_chuifeng_voids_the_round_and_keeps_the_dealer() -> None:
    """CITIES.md 吹风鸡 「FW — every chicken, kong, win and liability of the round void, next
    round, dealer stays」: the same round without the stage pays and passes the deal."""
    plain = _ledger(CHUIFENG, [])
    assert plain.totals() == [-9, -10, 16, 3]
    assert (plain.next_dealer, plain.next_streak) == (2, 0)
    void = _ledger(CHUIFENG, ON)
    assert void.totals() == [0, 0, 0, 0] and not void.entries
    assert len(void.record) == len(plain.record)  # kept on record, void
    assert (void.next_dealer, void.next_streak) == (0, 0)
    grows = _ledger(CHUIFENG, ["settle.chuifeng={tiles: [5p], streak: plus_one}"], {"streak": 2})
    assert (grows.next_dealer, grows.next_streak) == (0, 3)
    stays = _ledger(CHUIFENG, ON, {"streak": 2})
    assert (stays.next_dealer, stays.next_streak) == (0, 2)


def test_chuifeng_needs_its_tile_revealed_after_a_win() -> None:
    other = _ledger(CHUIFENG, ON, {"reveal": "2m"})
    assert other.totals() == _ledger(CHUIFENG, [], {"reveal": "2m"}).totals() != [0, 0, 0, 0]
    assert other.next_dealer == 2
    draw = {"result": {"wins": []}, "reveal": None}
    drawn = _ledger(CHUIFENG, ON, draw)
    assert drawn.next_dealer == _ledger(CHUIFENG, [], draw).next_dealer


def test_chuifeng_words_say_why_every_entry_is_void() -> None:
    void = _ledger(CHUIFENG, ON)
    remark = [r for r in void.remarks if r.item == "chuifeng"]
    assert len(remark) == 1
    assert "：翻出五筒（吹风鸡）：本局16笔输赢全部作废，庄家不变 / " in remark[0].text
    assert all(e.voided_by == remark[0] for e in void.record)


def test_gas_chuifeng_is_still_the_chickens_key() -> None:
    """GA's reading (「GA — only chicken scoring skipped」) stays settle.chickens.chuifeng: the
    win and the kong are paid, the chickens are not, the deal passes."""
    ga = _ledger(CHUIFENG, ["settle.chickens.chuifeng={tiles: [5p]}"])
    assert {e.item for e in ga.entries} == {"hu.pattern", "dou.men"}
    assert ga.next_dealer == 2
