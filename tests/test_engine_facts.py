"""What the engine records for settlement, by the variant's rules (issue 11): 海底捞月 only on
a self-draw of the last tile, the 热炮 scope, 必胡, and the 憨包 kong as a pass.

Stacked walls (:func:`conformance.walls.stack`) and scripted actions, as in
``test_scenarios.py``; every case is also played by the conformance referee.
"""

from __future__ import annotations

import pytest
from conformance.reference import Referee
from conformance.walls import stack

from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.engine import Phase, Round
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import load_variant


def legal(r: Round, seat: int) -> list[str]:
    return [str(a) for a in r.legal_actions(seat)]


def play(r: Round, *actions: str) -> Referee:
    """Apply the actions through the conformance referee, which checks each offer."""
    ref = Referee(r)
    for text in actions:
        ref.step(Action.parse(text))
    return ref


def tsumogiri(r: Round, seat: int) -> str:
    return f"{seat} discard {T.TILE_TEXT[r.observe(seat).drawn]}"


# ---------------------------------------------------------------------------------------
# 海底捞月: seed 002 八 "结果一张牌自摸" — a self-draw of the last tile, not a win on the
# last discard
# ---------------------------------------------------------------------------------------

WAITS_4P = "123m456m789m111s4p"  # a concealed hand waiting on 4p alone
JUNK_4P = "1m4m7m2s5s8s3p6p1p4p7p2m5m"  # holds a 4p it never discards
JUNK_1 = "3m6m9m1s4s7s2p5p8p3s6s9s1m"
JUNK_2 = "2m5m8m3s6s9s1p4p7p3p6p2s7m"  # holds a 4p it never discards


def to_last_tile(r: Round, ref: Referee) -> None:
    """Everyone discards what he draws and passes every claim, until the last tile is drawn."""
    while r.wall.live() or r.phase is not Phase.TURN:
        if r.phase is Phase.TURN:
            ref.step(Action.parse(tsumogiri(r, r.to_act()[0])))
        else:
            for seat in r.to_act():
                ref.step(Action.parse(f"{seat} pass"))


def test_haidi_on_a_self_draw_of_the_last_tile() -> None:
    rs = load_variant("jinyou")
    # 136 tiles, 53 dealt: seat 3 draws the 83rd and last live tile, the fourth 4p
    r = Round(rs, wall=stack(rs, [JUNK_4P + "8m", JUNK_1, JUNK_2, WAITS_4P], tail="4p"), dealer=0)
    ref = Referee(r)
    to_last_tile(r, ref)
    assert r.to_act() == [3] and r.observe(3).drawn == T.parse_one("4p")
    ref.step(Action.parse("3 hu 4p"))
    assert r.end is not None and r.end.haidi
    assert r.ledger is not None and [e.payer for e in r.ledger.entries if e.item == "hu.haidi"] == [
        0,
        1,
        2,
    ]


def test_no_haidi_on_the_last_discard() -> None:
    """A win on the discard of the last tile is a discard win, not 海底捞月."""
    rs = load_variant("jinyou")
    r = Round(rs, wall=stack(rs, [WAITS_4P + "7z", JUNK_1, JUNK_2, JUNK_4P], tail="4p"), dealer=0)
    ref = Referee(r)
    ref.step(Action.parse("0 discard 7z"))
    to_last_tile(r, ref)
    assert r.to_act() == [3] and r.observe(3).drawn == T.parse_one("4p")
    ref.step(Action.parse("3 discard 4p"))
    assert "0 hu 4p" in legal(r, 0)
    for seat in r.to_act():
        ref.step(Action.parse("0 hu 4p" if seat == 0 else f"{seat} pass"))
    assert r.end is not None and r.end.wins[0].seat == 0 and not r.end.haidi
    assert r.ledger is not None and not any(e.item == "hu.haidi" for e in r.ledger.entries)


# ---------------------------------------------------------------------------------------
# 热炮 scope: seed 000 15) "所有成豆后打出的牌点炮都被称作是点热炮" (guiyang: any deal-in once
# the discarder owns a dou) against seeds 001/004 (the first discard after a kong)
# ---------------------------------------------------------------------------------------

DEALER = "1m2m3m6m7m9m2s3s5s6s7s5p6p8p"
KONGER = "5555m123s456s78s9p"  # kongs 5m at once; keeps 9p for a later discard
DADUIZI_9P = "111p222p333p444s9p"  # waits on 9p; 大对子 wins on any discard
PINGHU_9P = "123p456p78p123m11s"  # waits on 9p; a 平胡 needs a pass on a discard
JUNK = "4m8m9m2s3s6s7s8s5p6p7p7p8p"


def later_discard(rs: Ruleset, winner: str) -> tuple[Round, Referee]:
    """Seat 1 kongs 5m, discards its replacement (8m), and a go-round later discards 9p."""
    wall = stack(rs, [DEALER, KONGER, winner, JUNK], "9s1m2m9m6m", tail="8m")
    r = Round(rs, wall=wall, dealer=0)
    ref = play(r, "0 discard 8p", "1 angang 5m", "1 discard 8m")
    for seat in (2, 3, 0):
        ref.step(Action.parse(tsumogiri(r, seat)))
    ref.step(Action.parse("1 discard 9p"))
    return r, ref


@pytest.mark.parametrize(("variant", "repao"), [("guiyang", True), ("guiyang-weile", False)])
def test_repao_scope_after_dou_or_after_kong(variant: str, repao: bool) -> None:
    r, ref = later_discard(load_variant(variant), DADUIZI_9P)
    assert legal(r, 2) == ["2 hu 9p", "2 pass"]
    ref.step(Action.parse("2 hu 9p"))
    assert r.end is not None and r.end.repao is repao
    assert r.ledger is not None
    assert any(e.item == "hu.repao" for e in r.ledger.entries) is repao
    # guiyang burns the 热炮 discarder: his 闷豆 does not score; in weile it does (he is
    # not ready, and weile's dou need 叫: nothing either way) — so compare the remarks
    assert any(m.item == "burn" for m in r.ledger.remarks) is repao


@pytest.mark.parametrize("scope", ["after_dou", "after_kong"])
@pytest.mark.parametrize(("kinds", "repao"), [(["concealed"], True), (["exposed", "added"], False)])
def test_repao_kong_kinds(scope: str, kinds: list[str], repao: bool) -> None:
    """repao.kong_kinds (CITIES.md 安顺, FW EnableKongHotPao=false): only the listed kinds of
    kong make 热炮 — here seat 1's 闷豆, right before the discard that is won."""
    rs = load_variant("guiyang", {"repao.scope": scope, "repao.kong_kinds": kinds})
    r, ref = first_after_kong(rs, DADUIZI_9P)
    assert legal(r, 2) == ["2 hu 9p", "2 pass"]
    ref.step(Action.parse("2 hu 9p"))
    assert r.end is not None and r.end.repao is repao


# ---------------------------------------------------------------------------------------
# 必胡: seed 004 (3) "热炮和抢杠和必胡" — the win is the only answer offered
# ---------------------------------------------------------------------------------------


def first_after_kong(rs: Ruleset, winner: str) -> tuple[Round, Referee]:
    wall = stack(rs, [DEALER, KONGER, winner, JUNK], "9s", tail="9s")
    r = Round(rs, wall=wall, dealer=0)
    return r, play(r, "0 discard 8p", "1 angang 5m", "1 discard 9p")


def test_repao_win_is_compulsory_in_liupanshui() -> None:
    r, ref = first_after_kong(load_variant("liupanshui"), PINGHU_9P)
    assert legal(r, 2) == ["2 hu 9p"]  # no pass
    ref.step(Action.parse("2 hu 9p"))
    assert r.end is not None and r.end.repao


def test_repao_win_may_be_passed_without_must_win() -> None:
    rs = load_variant("liupanshui", {"claims.must_win": []})
    r, _ = first_after_kong(rs, PINGHU_9P)
    assert legal(r, 2) == ["2 hu 9p", "2 pass"]


ROB_HANDS = [
    "1m4m7m2s5s8s3p6p9p1s4s7s9m5m",  # dealer: discards 5m first
    "55m1p3p5p7p9s3s2m6m8m2p4p",  # pungs 5m, later draws the fourth
    "123p456p789p11s34m",  # waits on 2m/5m
    "2m3m6m8m9m2s3s5s6s8s9s7p8p",
]


@pytest.mark.parametrize(
    ("must_win", "offer"), [(True, ["2 hu 5m"]), (False, ["2 hu 5m", "2 pass"])]
)
def test_rob_kong_compulsory(must_win: bool, offer: list[str]) -> None:
    rs = load_variant("liupanshui", None if must_win else {"claims.must_win": ["repao"]})
    r = Round(rs, wall=stack(rs, ROB_HANDS, "9m7m1m5m"), dealer=0)
    ref = play(r, "0 discard 5m", "1 peng 5m", "1 discard 9s")
    for seat in (2, 3, 0):
        ref.step(Action.parse(tsumogiri(r, seat)))
    ref.step(Action.parse("1 bugang 5m"))
    assert r.phase is Phase.ROB and legal(r, 2) == offer


# ---------------------------------------------------------------------------------------
# 憨包 kong: seed 004 (6)(7) "次圈开始暗杠算普通补张,不计豆分" — no score and, in 六盘水, no pass
# ---------------------------------------------------------------------------------------

LATE_HANDS = [
    "7777s123m456m78p9p1s",
    "1m4m7m2s5s8s3p6p9p1p4p8m9m",
    "2m5m3s6s9s2p5p8p1p4p7p3m6m",
    "3m6m9m4s8s9s3p6p2p5p7p8m2m",
]


@pytest.mark.parametrize(
    ("variant", "passes"),
    [("guiyang-weile", True), ("liupanshui", False)],  # 001 憨包豆 "只有通行證"; 004 "算普通补张"
)
def test_late_kong_as_a_pass(variant: str, passes: bool) -> None:
    rs = load_variant(variant)
    r = Round(rs, wall=stack(rs, LATE_HANDS, "4m8m1m5s5s", tail="6s"), dealer=0)
    ref = play(r, "0 discard 1s")  # the kong is possible now but not made
    for seat in (1, 2, 3):
        ref.step(Action.parse(tsumogiri(r, seat)))
    ref.step(Action.parse("0 angang 7s"))
    ref.step(Action.parse("0 discard 6s"))  # a later turn: 憨包
    assert r.seats[0].melds[0].late
    ref.step(Action.parse("1 discard 5s"))
    # 123m 456m 789p + 5s: a 平胡 whose only possible pass is the late kong
    assert ("0 hu 5s" in legal(r, 0)) is passes
