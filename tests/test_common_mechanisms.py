"""CITIES.md "Common mechanisms" 7 (additive items per win, dealer multipliers) and 9 (burn
targets and scope, dou rules), each written in YAML only — overrides on a shipped variant —
and settled on a golden round (the same rounds ``tests/golden`` works by hand).

Every case states the mechanism's source row in CITIES.md and the amounts expected.
"""

from __future__ import annotations

from pathlib import Path

import goldenlib  # tests/golden/goldenlib.py, on the path by conftest.py
import pytest

from zhuoji import roundend
from zhuoji import tiles as T
from zhuoji.contract.ledger import Ledger

GOLDEN = Path(__file__).parent / "golden"

#: seat 1 self-draws 平胡 (non-dealer; the dealer seat 0 has streak 1)
SELF_DRAW = "guiyang/01_zimo_dealer_streak"
#: seat 1 self-draws 平胡 on his 闷豆's replacement (杠开; dealer seat 3)
GANGKAI = "guiyang/17_gangkai_mendou"
#: seat 3's 7p, after his 闷豆 of 9m, deals in to seat 1's 平胡 (热炮)
REPAO = "guiyang/08_repao_burn_zeren"
#: seat 1 robs seat 2's added kong of 6s with a 平胡 (dealer seat 3, streak 1)
ROB = "guiyang/09_rob_kong"
#: an unready seat 2 owns a 转弯豆 and a 闷豆; a ready seat 3 a 转弯豆
DOU = "guiyang/18_dou_needs_ready"


def settle(case: str, *overrides: str) -> Ledger:
    c = goldenlib.load_case(GOLDEN / f"{case}.yaml")
    f = roundend.parse(c.data, case)
    return roundend.settle_file(f, None, [*c.overrides, *overrides], label=case)[2]


def paid(ledger: Ledger, item: str) -> list[tuple[int, int, int]]:
    return sorted((e.payer, e.payee, e.amount) for e in ledger.entries if e.item == item)


def row(item: str, fan: int, requires: str = "", *, additive: bool = True, more: str = "") -> str:
    req = f", requires: {{{requires}}}" if requires else ""
    add = ", additive: true" if additive else ""
    return f"{{name: x, fan: {fan}, item: {item}{add}{req}{more}}}"


# --- 7. additive items per win -----------------------------------------------------------


@pytest.mark.parametrize("bonus", [1, 2, 3])
def test_self_draw_plus(bonus: int) -> None:
    """自摸 +1/+2/+3 (CITIES.md 遵义 自摸 option, 独山 自摸 3): an additive row."""
    led = settle(SELF_DRAW, f"patterns.rows.zimo={row('hu.zimo', bonus, 'self_draw: true')}")
    assert paid(led, "hu.zimo") == [(0, 1, bonus), (2, 1, bonus), (3, 1, bonus)]


def test_self_draw_times_two() -> None:
    """自摸 ×2 (CITIES.md 安顺 自摸翻倍): the hand's value doubles; the streak does not."""
    led = settle(SELF_DRAW, "settle.hu.multipliers.self_draw=2")
    assert paid(led, "hu.pattern") == [(0, 1, 2), (2, 1, 2), (3, 1, 2)]
    assert paid(led, "lianzhuang") == [(0, 1, 1)]


@pytest.mark.parametrize("bonus", [1, 4, 5, 10])
def test_gangkai_plus(bonus: int) -> None:
    """杠开 +1/+4/+5/+10 (seeds 000/004; 多乐 +4; 独山 5; 遵义 10)."""
    led = settle(GANGKAI, f"patterns.rows.gangkai={row('hu.gangkai', bonus, 'gangkai: true')}")
    assert paid(led, "hu.gangkai") == [(0, 1, bonus), (2, 1, bonus), (3, 1, bonus)]
    assert paid(led, "hu.pattern") == [(0, 1, 1), (2, 1, 1), (3, 1, 1)]


def test_gangkai_stand_alone() -> None:
    """杠上开花 as a stand-alone pattern replacing the others (CITIES.md 遵义): a row that
    excludes every other one."""
    others = "[pinghu, daduizi, qidui, longqidui, qingyise, qingdadui, qingqidui, qinglongbei]"
    gangkai = row("hu.gangkai", 10, "gangkai: true", additive=False, more=f", excludes: {others}")
    led = settle(GANGKAI, f"patterns.rows.gangkai={gangkai}")
    assert paid(led, "hu.gangkai") == [(0, 1, 10), (2, 1, 10), (3, 1, 10)]
    assert paid(led, "hu.pattern") == []


@pytest.mark.parametrize(
    ("overrides", "pattern", "repao"),
    [
        ((), 1, 1),  # guiyang: +1 (RULES.md reading)
        (("patterns.rows.repao.fan=5",), 1, 5),  # 独山: 热炮 5 (discarder)
        (("patterns.rows.repao=null", "settle.hu.multipliers.repao=2"), 2, 0),  # ×2
    ],
)
def test_repao_items(overrides: tuple[str, ...], pattern: int, repao: int) -> None:
    led = settle(REPAO, *overrides)
    assert paid(led, "hu.pattern") == [(3, 1, pattern)]
    assert paid(led, "hu.repao") == ([(3, 1, repao)] if repao else [])


def test_rob_kong_plus_nine_robbed_alone() -> None:
    """抢杠 +9 paid by the robbed player only (CITIES.md 贵阳 club table): one share."""
    led = settle(
        ROB,
        "settle.hu.rob_kong_paid_by=robbed_once",
        f"patterns.rows.qianggang={row('hu.qianggang', 9, 'rob_kong: true')}",
    )
    assert paid(led, "hu.pattern") == [(2, 1, 1)]
    assert paid(led, "hu.qianggang") == [(2, 1, 9)]
    assert paid(led, "lianzhuang") == []  # the dealer (seat 3) is not in this share


def test_rob_kong_as_self_draw_for_three() -> None:
    """抢杠 counts as self-draw, the robbed pays for all three (百度/QQ, seeds 000/001)."""
    led = settle(ROB)
    assert paid(led, "hu.pattern") == [(2, 1, 1)] * 3
    assert paid(led, "lianzhuang") == [(2, 1, 1)]


def test_rob_kong_times_others() -> None:
    """抢杠: the robbed pays (players − 1) × the pattern, the others their shares (seed 003
    24 literal; CITIES.md 遵义 "hand value × (players − 1)")."""
    led = settle(ROB, "settle.hu.rob_kong_paid_by=robbed_triple_and_others")
    assert paid(led, "hu.pattern") == [(0, 1, 1), (2, 1, 3), (3, 1, 1)]
    assert paid(led, "lianzhuang") == [(3, 1, 1)]


def test_baoting_tianhu_dihu_rows() -> None:
    """报听/天胡/地胡 (CITIES.md 遵义 +10 each): 报听 by settle.hu.baoting, 天胡/地胡 by rows."""
    led = settle(
        SELF_DRAW,
        f"patterns.rows.dihu={row('hu.bonus', 10, 'dihu: true')}",
        f"patterns.rows.tianhu={row('hu.bonus', 10, 'tianhu: true')}",
    )
    assert paid(led, "hu.bonus") == []  # neither happened
    c = goldenlib.load_case(GOLDEN / f"{SELF_DRAW}.yaml")
    data = {**c.data, "result": {**c.data["result"], "dihu": True}}
    f = roundend.parse(data, "dihu")
    dihu = f"patterns.rows.dihu={row('hu.bonus', 10, 'dihu: true')}"
    led = roundend.settle_file(f, None, [dihu])[2]
    assert paid(led, "hu.bonus") == [(0, 1, 10), (2, 1, 10), (3, 1, 10)]


def test_tongsan_plus_three_on_every_win() -> None:
    """通三: +3 on every win (CITIES.md 贵阳 club table): a row with no requirement, paid in
    every share (three on a self-draw or a robbed kong, the discarder's one on a discard)."""
    for case, shares in ((SELF_DRAW, 3), (REPAO, 1), (ROB, 3)):
        led = settle(case, f"patterns.rows.tongsan={row('hu.bonus', 3)}")
        assert [e.amount for e in led.entries if e.item == "hu.bonus"] == [3] * shares, case


def test_dealer_doubles() -> None:
    """庄家翻倍 (CITIES.md 凯里: the dealer's win items ×2): on a dealer win; and, as a
    separate parameter, on the share the dealer pays."""
    led = settle(ROB, "settle.hu.multipliers.dealer_pays=2")
    assert paid(led, "hu.pattern") == [(2, 1, 1), (2, 1, 1), (2, 1, 2)]
    c = goldenlib.load_case(GOLDEN / f"{SELF_DRAW}.yaml")
    f = roundend.parse({**c.data, "dealer": 1, "streak": 0}, "dealer-wins")
    led = roundend.settle_file(f, None, ["settle.hu.multipliers.dealer_wins=2"])[2]
    assert paid(led, "hu.pattern") == [(0, 1, 2), (2, 1, 2), (3, 1, 2)]


# --- 9. burn targets and scope, dou rules ------------------------------------------------


def test_burn_repao_discarder_everything() -> None:
    """热炮 discarder burnt, 一烧全烧 (seed 004 (4)): his chickens and every dou void."""
    led = settle(REPAO)
    assert not [e for e in led.entries if e.payee == 3]
    assert paid(led, "dou.men") == []


def test_burn_only_the_kong() -> None:
    """「×2 and the kong cancelled」 (RULES.md 热炮, elsewhere; CITIES.md 贵阳 QQ)."""
    led = settle(
        REPAO,
        "patterns.rows.repao=null",
        "settle.hu.multipliers.repao=2",
        "settle.burn.repao={chickens: false, dou: kong}",
    )
    assert paid(led, "hu.pattern") == [(3, 1, 2)]
    assert paid(led, "dou.men") == []  # the 闷豆 9m behind the 热炮 is cancelled
    # his chickens still count: ready (234m 567m 44p 88s), he collects his two 4p (reveal 3p)
    assert paid(led, "ji.fanji") == [
        (0, 1, 1),
        (0, 3, 2),
        (1, 3, 2),
        (2, 1, 1),
        (2, 3, 2),
        (3, 1, 1),
    ]


def test_burn_chickens_only() -> None:
    led = settle(REPAO, "settle.burn.repao={chickens: true, dou: none}")
    assert paid(led, "dou.men") == [(0, 3, 2), (1, 3, 2), (2, 3, 2)]  # his 闷豆 scores
    assert (0, 3, 2) not in paid(led, "ji.fanji")  # his chickens do not


def test_burn_robbed_player() -> None:
    """The robbed player burnt (seeds 001/004; 独山)."""
    assert paid(settle(ROB), "ji.yaoji") == [(0, 2, 2), (1, 2, 2), (3, 2, 2)]
    led = settle(ROB, "settle.burn.rob_kong={chickens: true, dou: all}")
    assert not [e for e in led.entries if e.payee == 2]


@pytest.mark.parametrize(
    ("overrides", "zhuanwan"),
    [
        ((), [(0, 3, 1), (1, 3, 1), (2, 3, 1)]),  # seed 000 转弯豆 1, ready only
        (("settle.dou.values.added=3",), [(0, 3, 3), (1, 3, 3), (2, 3, 3)]),  # 001/004: 3
        (("settle.dou.jiandousan=true",), [(0, 3, 3), (1, 3, 3), (2, 3, 3)]),  # 见豆三
    ],
)
def test_dou_values(overrides: tuple[str, ...], zhuanwan: list[tuple[int, int, int]]) -> None:
    assert paid(settle(DOU, *overrides), "dou.zhuanwan") == zhuanwan


def test_dou_ready_only_or_not() -> None:
    led = settle(DOU, "settle.dou.requires_ready=none")
    assert (0, 2, 1) in paid(led, "dou.zhuanwan") and (0, 2, 2) in paid(led, "dou.men")


def test_baogang_unready_pays() -> None:
    """包杠 (CITIES.md 独山, 黔西): an unready konger pays those who would have paid him —
    every one of them, or only the ready ones."""
    led = settle(DOU, "settle.dou.unready_pays=true")
    assert paid(led, "dou.men") == [(2, 0, 2), (2, 1, 2), (2, 3, 2)]
    led = settle(DOU, "settle.dou.unready_pays=true", "settle.dou.unready_pays_to=ready")
    assert paid(led, "dou.men") == [(2, 1, 2), (2, 3, 2)]  # seat 0 is not ready


def test_exposed_kong_payer() -> None:
    """点豆 paid by the feeder, by every other player, or the konger pays (RULES.md dou row)."""
    assert paid(settle(REPAO), "dou.dian") == [(0, 1, 1)]
    assert paid(settle(REPAO, "settle.dou.exposed_paid_by=all"), "dou.dian") == [
        (0, 1, 1),
        (2, 1, 1),
        (3, 1, 1),
    ]
    assert paid(settle(REPAO, "settle.dou.exposed_paid_by=konger"), "dou.dian") == [(1, 0, 1)]


def test_baogang_some_tiles_only() -> None:
    """包杠幺鸡 (CITIES.md 毕节, FW EnableBaoKongBam1): only kongs of the listed tiles are paid
    back; the unready player's other kongs are simply void."""
    led = settle(DOU, "settle.dou.unready_pays=true", "settle.dou.unready_pays_tiles=[8m]")
    assert paid(led, "dou.men") == [(2, 0, 2), (2, 1, 2), (2, 3, 2)]  # his 闷豆 of 8m
    assert paid(led, "dou.zhuanwan") == [(0, 3, 1), (1, 3, 1), (2, 3, 1)]  # seat 3's only
    back = [e for e in led.entries if "back" in e.fact.tags]  # the entry's fact says so
    assert [(e.payer, e.fact.tiles) for e in back] == [(2, (T.parse_one("8m"),))] * 3
    led = settle(DOU, "settle.dou.unready_pays=true", "settle.dou.unready_pays_tiles=[1s]")
    assert not [e for e in led.entries if "back" in e.fact.tags]


def test_repao_kong_kinds() -> None:
    """安顺 (CITIES.md, FW EnableKongHotPao=false): a 点豆 owner's deal-in is no 热炮; when every
    kong kind counts it is one (+1, and the discarder is burnt)."""
    case = "anshun/01_exposed_kong_no_repao"
    assert not paid(settle(case), "hu.repao")
    led = settle(case, "repao.kong_kinds=[concealed, exposed, added]")
    assert paid(led, "hu.repao") == [(3, 1, 1)]
    assert not [e for e in led.entries if e.payee == 3]  # burnt: his chickens and 点豆 void


def test_dealer_stays_after_any_draw() -> None:
    """独山 (CITIES.md; DS §2 "黄庄流局 → 原庄家连庄"): after a draw the dealer deals again,
    whoever is ready (guiyang: the nearest ready player, seat 1 here)."""
    case = "guiyang/11_draw_some_ready"  # dealer 0, streak 1, seat 1 ready
    assert (settle(case).next_dealer, settle(case).next_streak) == (1, 0)
    led = settle(case, "dealer.draw_dealer_stays=true")
    assert (led.next_dealer, led.next_streak) == (0, 2)


def test_shabao_from_every_declared_loser() -> None:
    """遵义 (CITIES.md, ZA): 「every other declared non-winner also pays the winner 10」 on a
    discard win — off, only the declared discarder pays."""
    case = "zunyi/03_dakuanzhang_baoting_shabao"
    assert paid(settle(case), "shabao") == [(0, 1, 10), (3, 1, 10)]
    assert paid(settle(case, "settle.shabao.others_on_discard=false"), "shabao") == [(3, 1, 10)]


def test_zeren_reversed_to_any_discarder() -> None:
    """独山 (DS §11.2): an unready claimer of a 冲锋鸡 pays its face value and premium back to
    the discarder even when that discarder is not ready himself (the premium alone with
    ``claimer_pays_back: amount``); GA's reading (reversed) pays only a ready one."""
    case = "dushan/05_gangkai_dandiao_kongs_baoji"  # seat 1 (unready) punged seat 0's 冲锋
    assert paid(settle(case), "ji.zeren") == [(1, 0, 3)]
    led = settle(case, "settle.chickens.zeren.claimer_pays_back=amount")
    assert paid(led, "ji.zeren") == [(1, 0, 2)]
    led = settle(case, "settle.chickens.zeren.claimer_unready=reversed")
    assert not paid(led, "ji.zeren")  # seat 0 is not ready


def test_golden_on_held_chickens_only() -> None:
    """独山 (DS §7.7 「作用在「手中鸡」上」): a golden 幺鸡 counts double held or melded, not
    discarded — for its ready owner and in 包鸡; guiyang's reading doubles discards too."""
    case = "dushan/06_golden_held_only_hengji_round"
    assert paid(settle(case), "ji.baoji") == [(2, 0, 1), (2, 1, 1), (2, 3, 1)]
    assert (0, 3, 6) in paid(settle(case), "ji.net")
    both = "[{flip: 9s, tile: 1s, multiplier: 2}, {flip: 2s, tile: 1s, multiplier: 2}]"
    led = settle(case, f"settle.chickens.golden={both}")
    assert paid(led, "ji.baoji") == [(2, 0, 2), (2, 1, 2), (2, 3, 2)]
    assert (0, 3, 7) in paid(led, "ji.net")
