"""Mechanisms of issue 25 (deliverable 3, first half), each a key whose default changes
nothing: 跟庄 (``settle.genzhuang``, zhuoji/rules/genzhuang.py), 吹风鸡 in FW's reading
(``settle.chuifeng``, zhuoji/rules/chuifeng.py), an unready 责任鸡 claimer paying back face
and premium (``settle.chickens.zeren.claimer_pays_back``) and one 冲锋鸡 a round shared by its
tiles (``settle.chickens.chongfeng.first: round_any``), both in zhuoji/rules/chickens/.  Their goldens are in
tests/golden/ (guiyang 24 …); here the rules' edges, their prices and their words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import goldenlib
from conformance.walls import stack
from pricing_support import bound, evaluator

from zhuoji import roundend
from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.contract.pricing import Decision, Pricer
from zhuoji.engine import Round
from zhuoji.observation import Observation
from zhuoji.rules.chickens.pricing import ChickenSeat
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


# --- 责任鸡: an unready claimer pays back face and premium ---------------------------------------

ZEREN = "dushan/05_gangkai_dandiao_kongs_baoji.yaml"  # seat 1, unready, punged seat 0's 冲锋


def test_an_unready_claimer_pays_face_and_premium_on_top_of_baoji() -> None:
    """DS §11.2 (dushan.yaml) "向原打出者另赔这笔鸡的 面值 + 溢价": dushan from revision 3
    pays the face 1 and the premium 2; revision 2 paid the premium alone.  His 包鸡 share
    for the meld (3 to each other player) is paid either way."""
    now = _ledger(ZEREN, [])
    zeren = [(e.payer, e.payee, e.amount) for e in now.entries if e.item == "ji.zeren"]
    assert zeren == [(1, 0, 3)]
    baoji = [(e.payer, e.payee, e.amount) for e in now.entries if e.item == "ji.baoji"]
    assert baoji == [(1, 0, 3), (1, 2, 3), (1, 3, 3)]
    assert now.totals() == [-16, -34, 68, -18]
    old = _ledger(ZEREN, [], {"variant": "dushan@2"})
    assert [e.amount for e in old.entries if e.item == "ji.zeren"] == [2]
    assert old.totals() == [-17, -33, 68, -18]
    words = next(e.words() for e in now.entries if e.item == "ji.zeren")
    assert "另加面值 1，碰的人没叫嘴，反赔打出的人" in words.zh
    assert "plus its face value 1" in words.en


def test_face_is_paid_back_for_a_claim_with_no_premium() -> None:
    """A claimed chicken whose 责任 is 0 (a plain discard under DS's premium, or extra 0)
    still costs an unready claimer its face value."""
    base = [
        "settle.chickens.zeren.extra=0",
        "settle.chickens.zeren.claimer_unready=reversed_to_any",
    ]
    case = "guiyang/05_zeren.yaml"  # seat 2 punged seat 1's first 1s
    seats = [dict(s) for s in goldenlib.load_case(GOLDEN / case).data["seats"]]
    seats[2]["hand"] = "456m789p5p237s"  # not ready
    unready = {"seats": seats, "result": {"wins": [{"seat": 3, "how": "self_draw"}], "tile": "9s"}}
    plain = _ledger(case, base, unready)
    assert not [e for e in plain.entries if e.item == "ji.zeren"]
    face = _ledger(
        case, [*base, "settle.chickens.zeren.claimer_pays_back=face_and_amount"], unready
    )
    assert [(e.payer, e.payee, e.amount) for e in face.entries if e.item == "ji.zeren"] == [
        (2, 1, 1)
    ]


def _claimed_first_yaoji(overrides: list[str]) -> ChickenSeat:
    """Seat 1's chicken pricer answering the dealer's first discard, a 幺鸡."""
    rs = load_variant("guiyang", overrides)
    hands = ["1s456789m5678p68s9s", "123m1479p234667s", "456m23p23557889s", "789m2368p115799s"]
    r = Round(rs, wall=stack(rs, hands), dealer=0)
    r.apply(Action.parse("0 discard 1s"))
    assert r.phase.value == "claim"
    seat = bound(evaluator(Observation(r, 1)).prices, ChickenSeat)
    for s in r.to_act():
        r.apply(make(s, ActionKind.PASS))
    return seat


def test_the_claimer_prices_the_face_he_would_pay_back() -> None:
    rev = ["settle.chickens.zeren.claimer_unready=reversed_to_any"]
    amount = _claimed_first_yaoji(rev)
    face = _claimed_first_yaoji([*rev, "settle.chickens.zeren.claimer_pays_back=face_and_amount"])
    assert amount.claim_gain(0.0, 1.0) == -1.0  # the extra 1 paid back
    assert face.claim_gain(0.0, 1.0) == -2.0  # and the 幺鸡's face 1
    assert face.claim_gain(1.0, 0.0) == amount.claim_gain(1.0, 0.0) == 1.0


# --- one 冲锋鸡 a round, shared by its tiles -------------------------------------------------------

SHARED = "guiyang-qq/04_chongfeng_one_a_round.yaml"
ANY = ["settle.chickens.chongfeng.first=round_any"]


def _chongfeng(ledger: Any) -> list[tuple[int, int, int]]:
    return [(e.payer, e.payee, e.amount) for e in ledger.entries if e.item == "ji.chongfeng"]


def test_one_chongfeng_a_round_goes_to_the_first_of_its_tiles() -> None:
    shared = _ledger(SHARED, ANY)
    assert _chongfeng(shared) == [(0, 3, 4), (1, 3, 4), (2, 3, 4)]  # the 8p only
    assert shared.totals() == [8, -8, -16, 16]
    per_tile = _ledger(SHARED, [])  # guiyang-qq: 冲锋 幺鸡 and 冲锋乌骨 each
    assert len(_chongfeng(per_tile)) == 6 and per_tile.totals() == [6, -10, -18, 22]
    # the first of the tiles taken (责任鸡) leaves the round with no 冲锋 at all
    seats = [dict(s) for s in goldenlib.load_case(GOLDEN / SHARED).data["seats"]]
    seats[1]["hand"] = "3m5m9m1p4p7p9p2s4s6s"
    seats[1]["melds"] = [{"kind": "peng", "tile": "8p", "from": 3}]
    taken = {
        "seats": seats,
        "discards": [
            {"seat": 3, "tile": "8p", "claimed_by": 1, "claim": "peng"},
            {"seat": 3, "tile": "1s"},
            {"seat": 2, "tile": "7m", "claimed_by": 0},
        ],
    }
    assert not _chongfeng(_ledger(SHARED, ANY, taken))
    assert len(_chongfeng(_ledger(SHARED, [], taken))) == 3  # per tile: the 幺鸡 still is one


def test_one_chongfeng_a_round_with_hengji_rounds() -> None:
    """The stage's discard walk (横鸡 variants) reads ``round_any`` the same way."""
    hj = [*ANY, "settle.chickens.hengji={}"]
    assert _chongfeng(_ledger(SHARED, hj)) == [(0, 3, 4), (1, 3, 4), (2, 3, 4)]


def _seat_after_first_discard(overrides: list[str], tile: str) -> ChickenSeat:
    """Seat 1's chicken pricer after the dealer's first discard, nobody claiming it."""
    rs = load_variant("guiyang-qq", overrides)
    hands = ["1s456789m5678p68s9s", "123m1479p234667s", "456m23p23557889s", "789m2368p115799s"]
    r = Round(rs, wall=stack(rs, hands), dealer=0)
    r.apply(Action.parse(f"0 discard {tile}"))
    while r.phase.value == "claim":
        for s in r.to_act():
            r.apply(make(s, ActionKind.PASS))
    return bound(evaluator(Observation(r, 1)).prices, ChickenSeat)


def test_the_bot_knows_the_round_has_had_its_chongfeng() -> None:
    yao = T.parse_one("1s")
    per_tile = _seat_after_first_discard([], "8p")
    shared = _seat_after_first_discard(ANY, "8p")
    assert per_tile.is_chongfeng(yao) and not shared.is_chongfeng(yao)
    assert shared.cf_indexes == frozenset({0}) == per_tile.cf_indexes
    other = _seat_after_first_discard(ANY, "9s")  # no 冲锋 tile yet: the 幺鸡 would be it
    assert other.is_chongfeng(yao)
