"""Scenario tests: stacked walls, one per tricky rule.

Each scenario deals chosen hands with :func:`stack` (per-seat hands, then the head draws in
order, then chosen tiles at the wall's end or at fixed positions; the remaining tiles fill
the rest in order) and plays scripted actions, asserting what the engine offers and how the
round ends and settles.  Seeds: ``seeds/000`` (guiyang), ``001`` (guiyang-weile), ``002``
(jinyou), ``003`` (luan), ``004`` (liupanshui).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from conformance.reference import HandRef
from conformance.walls import stack

from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.agents.base import Agent, RandomAgent, play_round
from zhuoji.agents.greedy import GreedyAgent
from zhuoji.engine import Phase, Round
from zhuoji.match import Match
from zhuoji.observation import Observation
from zhuoji.outcome import Declaration, MeldKind, WinHow
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import load_variant

# ---------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------


def legal(r: Round, seat: int) -> list[str]:
    return [str(a) for a in r.legal_actions(seat)]


def do(r: Round, *actions: str) -> None:
    """Apply actions given as text ("2 peng 5m"); each must be legal."""
    for text in actions:
        r.apply(Action.parse(text))


def draws_of(r: Round) -> list[tuple[int, str, bool]]:
    return [(e["seat"], e["tile"], e["replacement"]) for e in r.log if e["type"] == "draw"]


def paid(r: Round, item: str) -> list[tuple[int, int, int]]:
    """Ledger entries of one item as (payer, payee, amount)."""
    assert r.ledger is not None
    return [(e.payer, e.payee, e.amount) for e in r.ledger.entries if e.item == item]


def items(r: Round) -> set[str]:
    assert r.ledger is not None
    return {e.item for e in r.ledger.entries}


def tsumogiri(r: Round, seat: int) -> None:
    """``seat`` discards the tile it just drew."""
    do(r, f"{seat} discard {T.TILE_TEXT[r.observe(seat).drawn]}")


GUIYANG = load_variant("guiyang")
WEILE = load_variant("guiyang-weile")
LIUPANSHUI = load_variant("liupanshui")
JINYOU = load_variant("jinyou")
LUAN = load_variant("luan")


# ---------------------------------------------------------------------------------------
# 抢杠: robbing an added kong; a concealed kong cannot be robbed (seed 000 16))
# ---------------------------------------------------------------------------------------

# seat 2 waits on 2m/5m with a plain 平胡 and no dou: no 通行证 for a discard, but robbing a
# kong needs none (seed 000 16) "即便叫牌的玩家是无豆的平胡也可以胡牌")
ROB_HANDS = [
    "1m4m7m2s5s8s3p6p9p1s4s7s9m5m",  # dealer: discards 5m first
    "55m1p3p5p7p9s3s2m6m8m2p4p",  # pungs 5m, later draws the fourth
    "123p456p789p11s34m",
    "2m3m6m8m9m2s3s5s6s8s9s7p8p",
]


def test_rob_added_kong() -> None:
    r = Round(GUIYANG, wall=stack(GUIYANG, ROB_HANDS, "9m7m1m5m"), dealer=0)
    do(r, "0 discard 5m")
    assert legal(r, 1) == ["1 peng 5m", "1 pass"]
    assert legal(r, 2) == []  # 平胡 without dou: no win on a discard (通行证)
    do(r, "1 peng 5m", "1 discard 9s")
    for seat in (2, 3, 0):
        tsumogiri(r, seat)
    assert "1 bugang 5m" in legal(r, 1)
    do(r, "1 bugang 5m")
    assert r.phase is Phase.ROB
    assert legal(r, 2) == ["2 hu 5m", "2 pass"]
    assert legal(r, 0) == legal(r, 3) == []
    do(r, "2 hu 5m")
    assert r.end is not None
    assert [(w.seat, w.how, w.source) for w in r.end.wins] == [(2, WinHow.ROB_KONG, 1)]
    assert r.end.win_tile == T.parse_one("5m")
    assert r.end.seats[1].melds[0].kind is MeldKind.PENG  # the robbed kong is no kong
    # the robbed player pays the winner's share of all three (seed 000 16) "赔付三家")
    assert paid(r, "hu.pattern") == [(1, 2, 1)] * 3


def test_rob_added_kong_passed_completes_the_kong() -> None:
    r = Round(GUIYANG, wall=stack(GUIYANG, ROB_HANDS, "9m7m1m5m", tail="6s"), dealer=0)
    do(r, "0 discard 5m", "1 peng 5m", "1 discard 9s")
    for seat in (2, 3, 0):
        tsumogiri(r, seat)
    do(r, "1 bugang 5m", "2 pass")
    assert r.phase is Phase.TURN and r.to_act() == [1]
    assert r.seats[1].melds[0].kind is MeldKind.GANG_ADDED
    assert draws_of(r)[-1] == (1, "6s", True)  # the replacement comes from the wall's end


CONCEALED_HANDS = [
    "1m4m7m2s5s8s3p6p9p1s4s7s9m2m",
    "555m1p3p5p7p9s3s6m8m2p4p",  # draws the fourth 5m and kongs it
    "123p456p789p11s34m",  # waits on 5m
    "2m3m6m8m9m2s3s5s6s8s9s7p8p",
]


def test_concealed_kong_cannot_be_robbed() -> None:
    r = Round(GUIYANG, wall=stack(GUIYANG, CONCEALED_HANDS, "5m", tail="9p"), dealer=0)
    do(r, "0 discard 2m")
    assert "1 angang 5m" in legal(r, 1)
    do(r, "1 angang 5m")  # guiyang: claims.rob_kong [added]
    assert r.phase is Phase.TURN and r.to_act() == [1]
    assert legal(r, 2) == []
    assert draws_of(r)[-1] == (1, "9p", True)


def test_concealed_kong_robbed_where_the_variant_allows_it() -> None:
    rs = load_variant("guiyang", {"claims.rob_kong": ["added", "concealed"]})
    r = Round(rs, wall=stack(rs, CONCEALED_HANDS, "5m", tail="9p"), dealer=0)
    do(r, "0 discard 2m", "1 angang 5m")
    assert r.phase is Phase.ROB
    assert legal(r, 2) == ["2 hu 5m", "2 pass"]
    five = T.parse_one("5m")
    on_table = Observation(r, 3).seen_counts()[five] - r.seats[3].hand[five]
    assert on_table == 4  # the kong's meld, seen by every seat
    do(r, "2 hu 5m")
    # the void kong leaves the table: its tiles are back in a hand and in the winner's
    assert Observation(r, 3).seen_counts()[five] - r.seats[3].hand[five] == 0
    assert r.end is not None
    assert [(w.seat, w.how, w.source) for w in r.end.wins] == [(2, WinHow.ROB_KONG, 1)]
    # the robbed kong is void: its other three tiles stay in the konger's hand
    assert r.end.seats[1].melds == ()
    assert r.end.seats[1].concealed.count(T.parse_one("5m")) == 3
    assert "dou.men" not in items(r)


# ---------------------------------------------------------------------------------------
# 一炮多响: two and three winners on one discard (seed 001 特殊規則 2); one winner without it
# ---------------------------------------------------------------------------------------

# single waits on 5p with four pungs (大对子, which passes the 通行证); the dealer discards
# 9p, seat 1 draws and discards 9s, seat 2 draws and discards 5p
MULTI = [
    "111m222m333m444m5p9p",
    "555m666m777m888m5p",
    "9m9m5s5s6s6s1p1p2p2p3p3p7p",
    "111s222s333s444s5p",
]
DEALER_NOT_WAITING = "1m1m2m3m4m4m7s8s8s9s4p6p9p9p"


def multi_round(ruleset: Ruleset, hands: Sequence[str]) -> Round:
    r = Round(ruleset, wall=stack(ruleset, hands, "9s5p"), dealer=0)
    do(r, "0 discard 9p")
    tsumogiri(r, 1)
    do(r, "2 discard 5p")
    return r


def test_two_winners_nearest_to_the_dealer_deals() -> None:
    r = multi_round(WEILE, [DEALER_NOT_WAITING, *MULTI[1:]])
    assert r.phase is Phase.CLAIM
    assert r.to_act() == [1, 3]
    assert legal(r, 1) == ["1 hu 5p", "1 pass"] and legal(r, 3) == ["3 hu 5p", "3 pass"]
    do(r, "3 hu 5p", "1 hu 5p")
    assert r.end is not None and r.ledger is not None
    # winners in turn order from the discarder; each is paid by the discarder alone
    assert [(w.seat, w.how, w.source) for w in r.end.wins] == [
        (3, WinHow.DISCARD, 2),
        (1, WinHow.DISCARD, 2),
    ]
    assert {(p, q) for p, q, _ in paid(r, "hu.pattern")} == {(2, 3), (2, 1)}
    # 001 "一炮兩響離莊家最近的下家胡牌者接莊": from dealer 0 downstream, seat 1 comes first
    assert (r.ledger.next_dealer, r.ledger.next_streak) == (1, 0)


def test_three_winners_the_discarder_deals() -> None:
    r = multi_round(WEILE, MULTI)
    assert r.to_act() == [0, 1, 3]
    do(r, "1 hu 5p", "0 hu 5p", "3 hu 5p")
    assert r.end is not None and r.ledger is not None
    assert [w.seat for w in r.end.wins] == [3, 0, 1]
    assert r.ledger.next_dealer == 2  # 001 "一炮三響……下局點炮者做莊"


@pytest.mark.parametrize(
    ("hands", "answers", "dealer"),
    [
        ([DEALER_NOT_WAITING, *MULTI[1:]], ("3 hu 5p", "1 hu 5p"), 3),
        (MULTI, ("1 hu 5p", "0 hu 5p", "3 hu 5p"), 3),
    ],
)
def test_several_winners_first_after_the_discarder_deals(
    hands: list[str], answers: tuple[str, ...], dealer: int
) -> None:
    """DS §2 "首位赢家坐庄" (CITIES.md 独山): the first winner in turn order after the
    discarder (seat 2) deals, for two winners or three."""
    rs = load_variant(
        "guiyang-weile",
        {
            "dealer.two_winners": "first_after_discarder",
            "dealer.three_winners": "first_after_discarder",
        },
    )
    r = multi_round(rs, hands)
    do(r, *answers)
    assert r.ledger is not None
    assert (r.ledger.next_dealer, r.ledger.next_streak) == (dealer, 0)


def test_one_winner_when_multiple_winners_is_off() -> None:
    # jinyou: claims.multiple_winners false — the first winner in turn order from the discarder
    r = multi_round(JINYOU, MULTI)
    assert r.to_act() == [0, 1, 3]
    do(r, "1 hu 5p", "0 hu 5p", "3 hu 5p")
    assert r.end is not None
    assert [(w.seat, w.source) for w in r.end.wins] == [(3, 2)]
    r = multi_round(JINYOU, MULTI)
    do(r, "1 hu 5p", "0 hu 5p", "3 pass")
    assert r.end is not None
    assert [w.seat for w in r.end.wins] == [0]  # seat 3 passed: seat 0 is next after him


# ---------------------------------------------------------------------------------------
# 过水不胡: the pass lock lasts until one's own draw (jinyou, claims.pass_lock same_tile;
# seed 002 "除非玩家A有进活动牌")
# ---------------------------------------------------------------------------------------


PASS_HANDS = [
    "1s4s7s2m5m8m3z4z1z2z9p9p8p7z",
    "111m222m333m34p99s",  # waits 2p / 5p
    "1s2s5s6s9s4m6m7m9m5z6p7p1p",
    "3s8s9s4m5m8m6z2z3z4z1p2p9m",
]


def test_pass_lock_same_tile_lifted_by_own_draw() -> None:
    r = Round(JINYOU, wall=stack(JINYOU, PASS_HANDS, "6z5p5p2p5z5p"), dealer=0)
    do(r, "0 discard 7z")
    tsumogiri(r, 1)
    do(r, "2 discard 5p")
    assert legal(r, 1) == ["1 hu 5p", "1 pass"]
    do(r, "1 pass")  # seat 1 passes a win on 5p …
    do(r, "3 discard 5p")
    assert r.phase is Phase.TURN and r.to_act() == [0]
    assert legal(r, 1) == []  # … and may not win on 5p from another player
    do(r, "0 discard 2p")
    assert "1 hu 2p" in legal(r, 1)  # another tile is not locked (same_tile)
    do(r, "1 pass")
    do(r, "1 discard 5z")  # seat 1 drew 5z: the lock is lifted
    do(r, "2 discard 5p")
    assert legal(r, 1) == ["1 hu 5p", "1 pass"]
    do(r, "1 hu 5p")
    assert r.end is not None and [(w.seat, w.source) for w in r.end.wins] == [(1, 2)]


def test_no_pass_lock_without_the_option() -> None:
    rs = load_variant("jinyou", {"claims.pass_lock": "none"})
    r = Round(rs, wall=stack(rs, PASS_HANDS, "6z5p5p"), dealer=0)
    do(r, "0 discard 7z")
    tsumogiri(r, 1)
    do(r, "2 discard 5p", "1 pass", "3 discard 5p")
    assert legal(r, 1) == ["1 hu 5p", "1 pass"]


# ---------------------------------------------------------------------------------------
# 报听: hard for the dealer on his initial hand, soft for a non-dealer with his first
# discard; the hand is frozen afterwards (seed 000 10), seed 001 (五))
# ---------------------------------------------------------------------------------------

BAOTING_HANDS = [
    "111m456m789m123s5p9p",  # dealer: ready after discarding 9p (or 5p)
    "234p567p345s66s99m",  # waits 6s / 9m
    "11p22p33p77s88s99s4m",  # ready from the start, does not declare
    "2m3m5m6m7s8s1p4p6p7p8p3s7s",
]
BAOTING_DRAWS = "9p4s9m1m8p8m2m6m6s"


def test_baoting_hard_and_soft_freeze_the_hand() -> None:
    r = Round(GUIYANG, wall=stack(GUIYANG, BAOTING_HANDS, BAOTING_DRAWS), dealer=0)
    assert {"0 declare 9p", "0 declare 5p"} <= set(legal(r, 0))  # 硬报 on the initial 14
    do(r, "0 declare 9p")
    assert r.seats[0].declared is Declaration.HARD
    assert "1 declare 9p" in legal(r, 1)  # 软报 after the first draw
    do(r, "1 declare 9p")
    assert r.seats[1].declared is Declaration.SOFT
    assert any(a.startswith("2 declare") for a in legal(r, 2))
    do(r, "2 discard 4s")  # seat 2 lets his chance go
    do(r, "3 discard 9m")
    # the declared seat 1 holds 99m: he may win (报听 is a pass) but not pung
    assert legal(r, 1) == ["1 hu 9m", "1 pass"]
    do(r, "1 pass")
    # the dealer drew his fourth 1m: frozen, so only the drawn tile may go, and no kong
    assert legal(r, 0) == ["0 discard 1m"]
    do(r, "0 discard 1m")
    assert legal(r, 1) == ["1 discard 8p"]
    do(r, "1 discard 8p")
    # 软报 only with the first discard: seat 2 is still ready but may not declare now
    assert legal(r, 2) and not any(a.startswith("2 declare") for a in legal(r, 2))
    do(r, "2 discard 8m", "3 discard 2m")
    assert legal(r, 0) == ["0 discard 6m"]
    do(r, "0 discard 6m")
    assert legal(r, 1) == ["1 discard 6s", "1 hu 6s"]
    do(r, "1 hu 6s")
    assert r.end is not None and r.ledger is not None
    assert r.end.seats[1].declared is Declaration.SOFT
    # 报听 counts at least ten fan (guiyang: baoting floor 10), from each other player;
    # 杀报: the declared dealer pays ten more (seed 000 11))
    win: Counter[int] = Counter()
    for payer, payee, amount in paid(r, "hu.pattern") + paid(r, "baoting"):
        assert payee == 1
        win[payer] += amount
    assert win == {0: 10, 2: 10, 3: 10}
    assert paid(r, "shabao") == [(0, 1, 10)]


def test_baoting_not_for_the_dealer_after_his_first_discard() -> None:
    r = Round(GUIYANG, wall=stack(GUIYANG, BAOTING_HANDS, BAOTING_DRAWS), dealer=0)
    do(r, "0 discard 9p", "1 discard 9p", "2 discard 4s", "3 discard 9m", "1 pass")
    assert not any(a.startswith("0 declare") for a in legal(r, 0))
    assert "0 angang 1m" in legal(r, 0)  # not frozen: he may kong


# ---------------------------------------------------------------------------------------
# 憨包豆: a kong made later than the turn it became possible is recorded as late and scores
# nothing, but is still a dou for the 通行证 (seed 001 豆 4 "沒有倍數,只有通行證")
# ---------------------------------------------------------------------------------------

LATE_HANDS = [
    "7777s123m456m78p9p1s",
    "1m4m7m2s5s8s3p6p9p1p4p8m9m",
    "2m5m3s6s9s2p5p8p1p4p7p3m6m",
    "3m6m9m4s8s9s3p6p2p5p7p8m2m",
]


def test_late_kong_is_hanbao_and_pass_only() -> None:
    r = Round(WEILE, wall=stack(WEILE, LATE_HANDS, "4m8m1m5s5s", tail="6s"), dealer=0)
    assert "0 angang 7s" in legal(r, 0)
    do(r, "0 discard 1s")  # the kong is possible now but not made
    for seat in (1, 2, 3):
        tsumogiri(r, seat)
    do(r, "0 angang 7s", "0 discard 6s")  # a later turn: 憨包
    assert r.seats[0].melds[0].late
    do(r, "1 discard 5s")
    # 123m 456m 789p + 5s: a 平胡 that wins on a discard only thanks to the (late) dou
    assert legal(r, 0) == ["0 hu 5s", "0 pass"]
    do(r, "0 hu 5s")
    assert r.end is not None and r.end.seats[0].melds[0].late
    assert not {i for i in items(r) if i.startswith("dou.")}


def test_timely_kong_scores() -> None:
    r = Round(WEILE, wall=stack(WEILE, LATE_HANDS, "4m5s", tail="5s"), dealer=0)
    do(r, "0 angang 7s", "0 discard 1s")
    assert not r.seats[0].melds[0].late
    do(r, "1 discard 4m")
    do(r, "2 discard 5s")
    do(r, "0 hu 5s")
    assert sorted(paid(r, "dou.men")) == [(1, 0, 3), (2, 0, 3), (3, 0, 3)]  # 001 悶豆 3


# ---------------------------------------------------------------------------------------
# 热炮: a win on the discard right after the discarder's own kong (seed 000 3.15), seed 001
# (四)(1), seed 004 (1)); the discarder's chickens and dou are burnt (烧)
# ---------------------------------------------------------------------------------------

REPAO_DEALER = "1m2m3m6m7m9m2s3s5s6s7s5p6p8p"
REPAO_KONGER = "5555m123s456s78s9p"  # kongs 5m, then discards 9p; ready with 1s (幺鸡)
REPAO_JUNK = "4m8m9m2s3s6s7s8s5p6p7p7p8p"
DADUIZI_9P = "111p222p333p444s9p"
PINGHU_9P = "123p456p78p123m11s"


def repao_round(ruleset: Ruleset, winner: str) -> Round:
    r = Round(
        ruleset,
        wall=stack(ruleset, [REPAO_DEALER, REPAO_KONGER, winner, REPAO_JUNK], "9s", tail="9s"),
        dealer=0,
    )
    do(r, "0 discard 8p", "1 angang 5m", "1 discard 9p")
    return r


def test_repao_burns_the_discarder() -> None:
    r = repao_round(GUIYANG, DADUIZI_9P)
    assert legal(r, 2) == ["2 hu 9p", "2 pass"]
    do(r, "2 hu 9p")
    assert r.end is not None and r.end.repao and r.end.kong_tile == T.parse_one("5m")
    assert paid(r, "hu.repao") == [(1, 2, 1)]  # +1 fan paid by the discarder
    # seat 1 is ready with a 幺鸡 and a 闷豆, but burnt: neither scores
    assert r.ledger is not None and all(e.payee != 1 for e in r.ledger.entries)
    unburnt = load_variant("guiyang", {"settle.burn.repao": None})
    r = repao_round(unburnt, DADUIZI_9P)
    do(r, "2 hu 9p")
    assert sorted(paid(r, "dou.men")) == [(0, 1, 2), (2, 1, 2), (3, 1, 2)]
    assert (0, 1, 1) in paid(r, "ji.yaoji")


@pytest.mark.parametrize(
    ("variant", "offered"),
    [("guiyang", False), ("liupanshui", True)],  # 004 (1) "如果胡牌者是无豆的平胡,依然可以胡"
)
def test_repao_as_a_pass(variant: str, offered: bool) -> None:
    r = repao_round(load_variant(variant), PINGHU_9P)
    assert ("2 hu 9p" in legal(r, 2)) is offered
    if offered:
        do(r, "2 hu 9p")
        assert r.end is not None and r.end.repao


# ---------------------------------------------------------------------------------------
# a kong on the last tile: none unless claims.last_tile_kong; then the round ends drawn,
# for there is no replacement
# ---------------------------------------------------------------------------------------

LAST_HANDS = [
    "1m4m7m2s5s8s3p6p1p4p7p2m5m8m",
    "3m6m9m1s4s7s2p5p8p3s6s9s1m",
    "2m5m8m3s6s9s1p4p7p3p6p2s7m",
    "999p1s4s7s3m6m1p4p7p8m2p",
]


def play_to_last_tile(r: Round) -> None:
    """Everyone discards what he draws and passes every claim, until the last tile is drawn."""
    while r.wall.live() or r.phase is not Phase.TURN:
        if r.phase is Phase.TURN:
            tsumogiri(r, r.to_act()[0])
        else:
            for seat in r.to_act():
                do(r, f"{seat} pass")


def test_no_kong_on_the_last_tile() -> None:
    r = Round(GUIYANG, wall=stack(GUIYANG, LAST_HANDS, tail="9p"), dealer=0)
    play_to_last_tile(r)
    assert r.to_act() == [3] and r.observe(3).drawn == T.parse_one("9p")
    assert r.observe(3).hand[T.parse_one("9p")] == 4
    assert "3 angang 9p" not in legal(r, 3)  # claims.last_tile_kong false


def test_kong_on_the_last_tile_ends_the_round_drawn() -> None:
    rs = load_variant("guiyang", {"claims.last_tile_kong": True})
    r = Round(rs, wall=stack(rs, LAST_HANDS, tail="9p"), dealer=0)
    play_to_last_tile(r)
    assert "3 angang 9p" in legal(r, 3)
    do(r, "3 angang 9p")
    assert r.end is not None and r.end.is_draw
    assert [e["type"] for e in r.log[-2:]] == ["action", "end"]  # no replacement draw
    assert r.end.seats[3].melds[0].kind is MeldKind.GANG_CONCEALED


# ---------------------------------------------------------------------------------------
# 六安 宝牌 (seed 003): the wild is the kind after an indicator counted by dice from the
# wall's end; it cannot be punged or konged; it may be discarded only as a player's first
# discard (扔宝); kong replacements are counted by dice from the end, skipping the indicator
# ---------------------------------------------------------------------------------------

INDICATOR = {130: "4p"}  # dice 1+2: the third stack from the end, top tile (position 130)


def luan_round(
    hands: Sequence[str],
    draws: str = "",
    *,
    dice: Sequence[tuple[int, int]] = ((1, 2),),
    at: Mapping[int, str] | None = None,
) -> Round:
    wall = stack(LUAN, hands, draws, at={**INDICATOR, **(at or {})})
    r = Round(LUAN, wall=wall, dealer=0, dice=list(dice))
    assert r.wild_indicator == T.parse_one("4p") and r.wild == T.parse_one("5p")
    return r


LUAN_JUNK2 = "3m6m9m1s4s7s2p8p9p4z6z7z1m"
LUAN_JUNK3 = "2m5m8m2s5s8s1p4p7p3p6p9p5z"


def test_wild_discarded_first_only_and_never_punged() -> None:
    r = luan_round(
        ["1m4m7m2s5s8s3p6p1z2z3z9m5p5p", "5p5p2m5m8m3s6s9s1p7p4z6z7z", LUAN_JUNK2, LUAN_JUNK3],
        "7s6m3s2z",
    )
    assert "0 discard 5p" in legal(r, 0)  # 扔宝: a wild as the first discard
    do(r, "0 discard 5p")
    assert r.phase is Phase.TURN and r.to_act() == [1]  # seat 1 holds two wilds: no pung
    assert "1 discard 5p" in legal(r, 1)  # his own first discard may be a wild too
    for seat in (1, 2, 3):
        tsumogiri(r, seat)
    assert r.observe(0).hand[T.parse_one("5p")] == 1
    assert "0 discard 5p" not in legal(r, 0)  # not after the first discard


def test_wild_never_konged() -> None:
    r = luan_round(
        ["5p5p5p5p1m4m7m2s5s8s1z2z3z9m", "2m5m8m3s6s9s1p7p4z6z7z3m6m", LUAN_JUNK2, LUAN_JUNK3]
    )
    assert "0 discard 5p" in legal(r, 0)
    assert not [a for a in legal(r, 0) if "angang" in a]  # four wilds are no kong
    r = luan_round(
        [
            "5p1m4m7m2s5s8s1z2z3z9m3m6m9s",
            "2m5m8m3s6s1p7p4z6z7z2p8p9p",
            "2m5m8m2s5s8s1p4p7p3p6p9p1s",
            "5p5p5p4m7m1s4s7s2z3z4z6z7z",
        ]
    )
    do(r, "0 discard 5p")
    assert legal(r, 3) == []  # three wilds in hand: no exposed kong, no pung of a wild
    assert r.phase is Phase.TURN and r.to_act() == [1]


def test_luan_replacements_counted_by_dice_skip_the_indicator() -> None:
    r = luan_round(
        [
            "9999m8888m1s4s7s2p3z1z",
            "2m5m3s6s9s1p7p4z6z7z3m6m2p",
            "3m6m1s4s7s2p8p9p4z6z7z1m5s",
            "2m5m2s5s8s1p4p7p3p6p9p5z3s",
        ],
        dice=[(1, 2), (2, 3), (1, 2)],
        at={126: "7z", 131: "6z"},
    )
    do(r, "0 angang 9m")  # dice 2+3: the fifth stack from the end, top tile (126)
    do(r, "0 angang 8m")  # dice 1+2: the third stack's top is the indicator: the tile below (131)
    assert draws_of(r) == [(0, "7z", True), (0, "6z", True)]
    assert [e["dice"] for e in r.log if e["type"] == "dice"] == [[1, 2], [2, 3], [1, 2]]
    assert [e for e in r.log if e["type"] == "wild"] == [
        {"type": "wild", "indicator": "4p", "wild": "5p"}
    ]


# ---------------------------------------------------------------------------------------
# 通行证 (seed 000 特殊玩法规则 1)): a win on a discard needs a dou or a pattern above 平胡;
# a self-draw needs neither
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "on_discard"),
    [
        pytest.param("123p456p789p11s34m", False, id="pinghu"),
        pytest.param("111p222p333p44s55m", True, id="daduizi"),
        pytest.param("123m456m789m11m34m", True, id="qingyise"),
        pytest.param("11p22p33p44s66s77s5m", True, id="qidui"),
    ],
)
def test_pass_to_win_on_a_discard(hand: str, on_discard: bool) -> None:
    hands = [
        "1m4m7m2s5s8s3p6p9p1s4s7s9m5m",
        hand,
        "3m6m2s3s5s6s8s9s4p5p7p8p9p",
        "2m3m6m8m9m2s3s5s6s8s9s7p8p",
    ]
    r = Round(GUIYANG, wall=stack(GUIYANG, hands, "2m"), dealer=0)
    do(r, "0 discard 5m")
    assert ("1 hu 5m" in legal(r, 1)) is on_discard
    if not on_discard:
        # the 平胡 cannot take the discard, but self-draws its other wait
        assert r.to_act() == [1] and "1 hu 2m" in legal(r, 1)
        do(r, "1 hu 2m")
        assert r.end is not None and [(w.seat, w.how) for w in r.end.wins] == [
            (1, WinHow.SELF_DRAW)
        ]


# ---------------------------------------------------------------------------------------
# dealer rotation across a match (seed 000 连庄规则, seed 001 基本規則 5 and 荒莊查叫, seed 003
# 庄规则): each round's dealer and streak follow from the previous round's end
# ---------------------------------------------------------------------------------------


def expected_next_dealer(ruleset: Ruleset, r: Round) -> tuple[int, int]:
    """The next dealer and streak by the variant's dealer rule, computed here."""
    end = r.end
    assert end is not None
    rule: dict[str, Any] = dict(ruleset.variant.dealer)
    n, dealer = end.players, end.dealer
    winners = [w.seat for w in end.wins]

    def keep(seat: int, grow: bool = True) -> tuple[int, int]:
        return (seat, end.streak + int(grow)) if seat == dealer else (seat, 0)

    def downstream(seats: list[int]) -> int:
        return next(s for s in ((dealer + i) % n for i in range(n)) if s in seats)

    if rule["id"] == "rotate":
        if dealer in winners:
            return keep(dealer)
        if not winners and rule.get("stay_on_draw", True):
            return keep(dealer, rule.get("streak_on_draw", True))
        return keep((dealer + 1) % n)
    assert rule["id"] == "winner_deals"
    if len(winners) == 1:
        return keep(winners[0])
    if winners:
        how = (
            rule.get("two_winners", "nearest_to_dealer")
            if len(winners) == 2
            else rule.get("three_winners", "discarder")
        )
        source = end.wins[0].source
        if how == "first_after_discarder" and source is not None:  # DS §2 "首位赢家坐庄"
            return keep(next(s for s in ((source + i) % n for i in range(1, n)) if s in winners))
        return (
            keep(source) if how == "discarder" and source is not None else keep(downstream(winners))
        )
    if rule.get("draw_dealer_stays", False):  # DS §2 "黄庄流局 → 原庄家连庄"
        return keep(dealer)
    ref = HandRef(ruleset, end.wild)
    ready = [s for s in range(n) if ref.ready(end.seats[s].concealed_counts())]
    if not ready:
        return keep(dealer, rule.get("draw_none_ready_streak", True))
    if len(ready) == n:
        return keep(dealer, rule.get("draw_all_ready_streak", False))
    if len(ready) == n - 1 and rule.get("draw_three_ready_unready_deals", True):
        return keep(next(s for s in range(n) if s not in ready))
    return keep(downstream(ready))


@pytest.mark.parametrize(
    "variant", ["guiyang", "guiyang-weile", "liupanshui", "luan", "jinyou", "dushan"]
)
def test_dealer_rotation_across_a_match(variant: str) -> None:
    ruleset = load_variant(variant)
    n = ruleset.players
    match = Match(ruleset, seed=7, rounds=12)
    # greedy bots win often, random ones make draws happen
    agents: list[Agent] = [GreedyAgent(1), RandomAgent(2), RandomAgent(3), GreedyAgent(4)]
    if variant == "luan":  # the greedy bot is slow with a wild tile: one is enough
        agents = [RandomAgent(1), GreedyAgent(2), RandomAgent(3), RandomAgent(4)]
    previous: tuple[int, int] | None = None
    changes = 0
    totals = [0] * n
    seen: Counter[str] = Counter()
    for i, r in enumerate(match.rounds()):
        if previous is None:
            if ruleset.variant.deal.first_dealer == "east":
                assert r.dealer == 0
        else:
            assert (r.dealer, r.streak) == previous, f"round {i}"
        assert r.round_wind == (changes // n) % 4
        play_round(r, agents)
        assert r.end is not None and r.ledger is not None
        previous = expected_next_dealer(ruleset, r)
        assert (r.ledger.next_dealer, r.ledger.next_streak) == previous, f"round {i}"
        changes += previous[0] != r.dealer
        totals = [a + b for a, b in zip(totals, r.ledger.totals(), strict=True)]
        seen["stays" if previous[0] == r.dealer else "moves"] += 1
        seen["draw" if r.end.is_draw else "win"] += 1
    assert match.totals == totals
    assert seen["stays"] and seen["moves"] and seen["win"], seen


@pytest.mark.parametrize(
    ("hand", "offered"),
    [
        # waits 1m / 7p; a kong of 7p would leave only 7p: not allowed
        pytest.param("11m123s567s6p777p8p", ["1 hu 7p", "1 pass"], id="waits-change"),
        # waits 1m / 9p before and after the kong
        pytest.param("11m123s567s777p99p", ["1 gang 7p", "1 pass"], id="waits-kept"),
    ],
)
def test_declared_hand_kongs_a_discard_only_keeping_its_waits(
    hand: str, offered: list[str]
) -> None:
    rs = load_variant("guiyang", {"baoting.allow_kong": True})  # "may kong (waits unchanged)"
    hands = [
        "2m3m5m6m8m4s8s9s1p3p5p2s4s9m",
        hand,
        "4m4m5m6m7m2s3s4s6s9s2p3p4p",
        "1m3m7m8m9m3s5s7s8s1p5p2p4p",
    ]
    r = Round(rs, wall=stack(rs, hands, "9s7p"), dealer=0)
    do(r, "0 discard 9m", "1 declare 9s", "2 discard 7p")
    assert legal(r, 1) == offered


@pytest.mark.parametrize("allowed", [False, True])
def test_kong_on_the_last_discard(allowed: bool) -> None:
    rs = load_variant("guiyang", {"claims.last_tile_kong": allowed})
    hands = [
        "999p1m4m7m2s5s8s1p4p2m5m3s",
        LAST_HANDS[1],
        LAST_HANDS[2],
        "9m9s6p1s4s7s3m6m1p4p7p8m2p",
    ]
    r = Round(rs, wall=stack(rs, hands, tail="9p"), dealer=0)
    play_to_last_tile(r)
    tsumogiri(r, 3)  # the last tile, 9p, discarded; seat 0 holds three
    if not allowed:
        assert legal(r, 0) == ["0 peng 9p", "0 pass"]
        return
    assert legal(r, 0) == ["0 peng 9p", "0 gang 9p", "0 pass"]
    do(r, "0 gang 9p")
    assert r.end is not None and r.end.is_draw  # no replacement left
    assert r.end.seats[0].melds[-1].kind is MeldKind.GANG_EXPOSED
