"""What chickens are worth to a seat deciding (zhuoji/rules/chickens/pricing.py): the chicken
stage's own prices in expectation, checked against zhuoji.settle on hand-built round ends,
and the 冲锋 / 责任 / 包鸡 rules as the variant files set them."""

from __future__ import annotations

import random

import pytest
from conformance.walls import stack
from pricing_support import bound, evaluator, reveal_weights

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.agents.expert_value import Evaluator, HandState
from zhuoji.contract.pricing import CHICKENS
from zhuoji.engine import Round
from zhuoji.observation import Observation
from zhuoji.outcome import (
    Discard,
    Meld,
    MeldKind,
    Reveal,
    RevealAt,
    RoundEnd,
    SeatEnd,
    Win,
    WinHow,
)
from zhuoji.rules.chickens.pricing import ChickenPricer, ChickenSeat
from zhuoji.ruleset import Ruleset
from zhuoji.settle import settle
from zhuoji.variant_io import load_variant

YAO, BA = T.parse_one("1s"), T.parse_one("8p")


def pricer(rs: Ruleset) -> ChickenPricer:
    found = [p for p in rs.pricing.pricers if isinstance(p, ChickenPricer)]
    assert len(found) == 1
    return found[0]


# ---------------------------------------------------------------------------------------
# the pricer reads the variant file
# ---------------------------------------------------------------------------------------


def test_the_pricer_reads_the_variant_file() -> None:
    """Values quoted from zhuoji/variants/guiyang.yaml (seed 000) and guiyang-weile.yaml
    (seed 001)."""
    ch = pricer(load_variant("guiyang"))
    assert ch.cf_tiles == {YAO} and ch.cf_mult == 2 and ch.cf_round_first
    assert ch.cf_golden_mult == 4 and ch.zeren_extra == 1 and ch.scope == "all"
    assert ch.collectors_ready and not ch.payers_unready and not ch.unready_pays
    assert ch.burnt_as == CHICKENS
    weile = pricer(load_variant("guiyang-weile"))
    assert weile.cf_mult == 3 and weile.unready_pays
    assert weile.unready_of == {"discards", "melds", "chongfeng"} and not weile.unready_tiles_all
    assert not any(isinstance(p, ChickenPricer) for p in load_variant("jinyou").pricing.pricers)


def test_overrides_reach_the_pricer() -> None:
    rs = load_variant("guiyang", ["settle.chickens.chongfeng.multiplier=6"])
    assert pricer(rs).cf_mult == 6


def test_what_the_deal_shows() -> None:
    """The chickens of every round and the 冲锋 tiles known at the deal: 幺鸡 in guiyang; 幺鸡
    and 乌骨鸡 (worth 2) in guiyang-qq, both 冲锋 tiles; liupanshui has no 冲锋鸡; dushan's
    冲锋 is any chicken known during play (its permanent 幺鸡 at the deal)."""
    assert pricer(load_variant("guiyang")).deal_chickens() == {YAO: 1}
    assert pricer(load_variant("guiyang")).deal_chongfeng() == {YAO}
    qq = pricer(load_variant("guiyang-qq"))
    assert qq.deal_chickens() == {YAO: 1, BA: 2} and qq.deal_chongfeng() == {YAO, BA}
    assert pricer(load_variant("liupanshui")).deal_chongfeng() == frozenset()
    assert pricer(load_variant("dushan")).deal_chongfeng() == {YAO}
    assert pricer(load_variant("kaili")).deal_chickens() == {YAO: 2}  # 翻倍鸡 ×2


# ---------------------------------------------------------------------------------------
# prices against settlement
# ---------------------------------------------------------------------------------------


def _chicken_end(reveal: int, seat0: str = "45m11s234p567p888p", discards: str = "9m") -> RoundEnd:
    """Seat 1 self-draws a plain hand; seat 0 is ready (45m waits 3m6m); seats 2 and 3 are
    not ready.  ``discards``: seat 0's unclaimed discards, then seat 2's 9m."""
    seats = (
        SeatEnd(tuple(T.parse(seat0))),
        SeatEnd(tuple(T.parse("123m456m789m23p55p"))),
        SeatEnd(tuple(T.parse("1379m2468p1357s9s"))),
        SeatEnd(tuple(T.parse("2468m1379p2468s3s"))),
    )
    table = [Discard(0, t) for t in T.parse(discards)] if discards != "9m" else []
    return RoundEnd(
        players=4,
        dealer=1,
        streak=0,
        seats=seats,
        discards=(*table, Discard(2, T.parse_one("9m"))),
        wins=(Win(1, WinHow.SELF_DRAW),),
        win_tile=T.parse_one("4p"),
        reveals=(Reveal(reveal, RevealAt.WIN),),
    )


@pytest.mark.parametrize("variant", ["guiyang", "guiyang-weile", "guiyang-shoushang", "liupanshui"])
def test_chicken_prices_agree_with_settlement(variant: str) -> None:
    """For every revealed tile, what the pricer expects a collector to earn for the tiles it
    owns is what zhuoji.settle pays it (the chicken entries)."""
    rs = load_variant(variant)
    prices = pricer(rs).round((), 1)
    for reveal in T.kinds_in(T.TileSet.SUITS):
        end = _chicken_end(reveal)
        ledger = settle(rs, end)
        got = sum(e.amount for e in ledger.entries if e.payee == 0 and e.item.startswith("ji."))
        ev = prices.expected(reveal_weights(T.format([reveal])))
        owned = end.seats[0].concealed_counts()
        want = 3 * sum(ev[k] * owned[k] for k in range(T.NUM_KINDS))
        assert got == pytest.approx(want), (T.format([reveal]), got, want)


@pytest.mark.parametrize("variant", ["guiyang-qq", "zunyi", "guiyang"])
def test_chongfeng_prices_agree_with_settlement(variant: str) -> None:
    """The round's first discarded 八筒 is a 冲锋鸡 where the variant lists it (guiyang-qq and
    zunyi: ``chongfeng.tiles: [1s, 8p]``, 乌骨鸡 worth 2, ×2, golden ×4 after a 7筒 flip), and
    no chicken in guiyang: for every after-win reveal, the pricer's 冲锋 value is what
    zhuoji.settle pays the ready discarder from each other player."""
    rs = load_variant(variant)
    ch = pricer(rs)
    prices = ch.round((), 1)
    for reveal in T.kinds_in(T.TileSet.SUITS):
        end = _chicken_end(reveal, seat0="45m11s234p567p999s", discards="8p")
        ledger = settle(rs, end)
        paid = [e.amount for e in ledger.entries if e.item == "ji.chongfeng" and e.payee == 0]
        value = prices.chongfeng_value(
            ch.cf_mult, ch.cf_golden_mult, BA, reveal_weights(T.format([reveal]))
        )
        if variant == "guiyang":
            assert paid == [] and value == 0.0
        else:
            assert paid == [value] * 3, (T.format([reveal]), paid, value)
            assert value == (8 if reveal == T.parse_one("7p") else 4)


# ---------------------------------------------------------------------------------------
# one decision
# ---------------------------------------------------------------------------------------


def _dealer_first_turn(variant: str, hand: str) -> Evaluator:
    """The dealer's first turn holding ``hand`` (14 tiles)."""
    rs = load_variant(variant)
    hands = [hand, "123m1479p234667s", "456m23p23557889s", "789m2368p115799s"]
    r = Round(rs, wall=stack(rs, hands), dealer=0)
    return evaluator(Observation(r, 0))


@pytest.mark.parametrize("variant", ["guiyang-qq", "zunyi"])
def test_the_bot_values_the_first_badong_as_chongfeng(variant: str) -> None:
    """Where the variant says 八筒 is a 冲锋 tile (``chongfeng.tiles: [1s, 8p]``), discarding
    the round's first 八筒 is worth its 冲锋 value to the bot — 乌骨鸡's 2 × 2, or × 4 when
    an after-win 7筒 makes it golden, weighted by the unseen 7筒 — from each other player,
    at the end of every win; in guiyang, where 八筒 is no chicken, it is worth nothing."""
    hand = "456789m5678p58s9s8p"
    ev = _dealer_first_turn(variant, hand)
    seat = bound(ev.prices, ChickenSeat)
    assert seat.prices_discard(BA) and seat.is_chongfeng(BA)
    p_golden = ev.live[T.parse_one("7p")] / ev.unseen
    assert seat.chongfeng_value(BA) == pytest.approx(2 * (2 * (1 - p_golden) + 4 * p_golden))
    c = T.counts(hand)
    c[BA] -= 1
    badong = ev.end_prices(HandState(c, (), discarded=BA))
    kept = ev.end_prices(HandState(c, ()))  # the same hand, with no discard priced
    thrown = seat.thrown_ev[BA] * seat.chicken_payers if seat.discard_counts(BA, True) else 0.0
    assert badong[0] - kept[0] == pytest.approx(seat.chongfeng_value(BA) * 3 + thrown)
    assert badong[0] - kept[0] > 11.0  # at least 4 from each of three players
    plain = _dealer_first_turn("guiyang", hand)
    gy = bound(plain.prices, ChickenSeat)
    assert not gy.prices_discard(BA) and gy.chongfeng_value(BA) == 0.0
    # only what a discarded 八筒 is worth as an after-win 翻鸡 (内外鸡: scope all)
    thrown_gy = gy.thrown_ev[BA] * gy.chicken_payers
    gained = (
        plain.end_prices(HandState(c, (), discarded=BA))[0] - plain.end_prices(HandState(c, ()))[0]
    )
    assert gained == pytest.approx(thrown_gy) and gained < 1.0


def _after_first_yaoji(overrides: list[str]) -> Evaluator:
    """Seat 1's evaluator after the dealer's first discard, a 幺鸡 nobody claims."""
    rs = load_variant("guiyang", overrides)
    hands = ["1s456789m5678p68s9s", "123m1479p234667s", "456m23p23557889s", "789m2368p115799s"]
    r = Round(rs, wall=stack(rs, hands), dealer=0)
    r.apply(Action.parse("0 discard 1s"))
    while r.phase.value == "claim":
        for seat in r.to_act():
            r.apply(make(seat, ActionKind.PASS))
    return evaluator(Observation(r, 1))


def test_chongfeng_and_zeren_follow_their_parameters() -> None:
    """冲锋 on the round's first 幺鸡 (seed 000 ①) or on each player's own first discard
    (``chongfeng.first: own``, DS §7.3); 责任鸡 as an extra or as DS's premium (the 冲锋
    value less the plain value)."""
    seat = bound(_after_first_yaoji([]).prices, ChickenSeat)
    assert not seat.is_chongfeng(YAO) and seat.zeren_cost(YAO) == 0.0
    own = bound(_after_first_yaoji(["settle.chickens.chongfeng.first=own"]).prices, ChickenSeat)
    assert own.is_chongfeng(YAO) and own.chongfeng_value(YAO) > 2.0  # ×2, golden ×4 possible
    premium = bound(
        _after_first_yaoji(
            [
                "settle.chickens.chongfeng.first=own",
                "settle.chickens.chongfeng.multiplier=6",
                "settle.chickens.zeren.premium=true",
                "settle.chickens.zeren.claims=every",
            ]
        ).prices,
        ChickenSeat,
    )
    assert premium.zeren_cost(YAO) == 5.0
    assert premium.zeren_cost(T.parse_one("2s")) == 0.0  # not a 责任 tile
    # a punged 冲锋 loses its value where the seat collects, and pays the 责任
    assert own.claimed_loss(YAO, 0.5) == pytest.approx(
        own.chongfeng_value(YAO) * 3 * 0.5 + own.zeren_cost(YAO)
    )


def test_golden_on_held_chickens_only() -> None:
    """独山 金鸡 (``golden.discards: false``, DS §7.7 「幺鸡计分 ×2（作用在「手中鸡」上）」): after
    a 9s flip a held 幺鸡 is priced golden, a discarded one at its plain value; where 金鸡
    counts on discards too (guiyang) both are the same."""
    weights = reveal_weights("9s")
    ds = pricer(load_variant("dushan")).round((), 1)
    assert ds.expected(weights)[YAO] == 2 * ds.expected_thrown(weights)[YAO] > 0
    gy = pricer(load_variant("guiyang")).round((), 1)
    assert gy.expected(weights) == gy.expected_thrown(weights)


def test_zeren_claimed_and_reversed() -> None:
    """责任鸡 from the claimer's side: claiming the round's first 幺鸡 earns the extra when
    this seat collects; with ``claimer_unready: reversed_to_any`` (DS §11.2) an unready
    claimer pays it back to the discarder, so a hand certain to end unready loses by it."""
    seat = bound(_after_first_yaoji([]).prices, ChickenSeat)
    assert seat.zeren_claimed() == 1.0  # guiyang: 责任 extra 1 × the 幺鸡's base 1
    assert seat.claim_gain(1.0, 0.0) == 1.0
    assert seat.claim_gain(0.0, 1.0) == 0.0
    rev = _after_first_yaoji(["settle.chickens.zeren.claimer_unready=reversed_to_any"])
    rseat = bound(rev.prices, ChickenSeat)
    assert rseat.claim_gain(0.0, 1.0) == -1.0
    assert rseat.claim_gain(1.0, 0.0) == 1.0


# ---------------------------------------------------------------------------------------
# 首圈鸡, 横鸡 and a 冲锋 taken over by its claimer
# ---------------------------------------------------------------------------------------


def _discards(r: Round, turns: int, keep: str = "1s") -> None:
    """Play ``turns`` discards nobody claims, none of them a ``keep`` tile."""
    kept = set(T.parse(keep))
    done = 0
    while done < turns:
        if r.phase.value == "claim":
            for seat in r.to_act():
                r.apply(make(seat, ActionKind.PASS))
            continue
        legal = r.legal_actions(r.current)
        r.apply(
            next(
                a
                for a in legal
                if a.kind is ActionKind.DISCARD and a.tile not in kept and not a.declare
            )
        )
        done += 1
    while r.phase.value == "claim":
        for seat in r.to_act():
            r.apply(make(seat, ActionKind.PASS))


HANDS = ["1s456789m5678p68s9s", "123m1479p234667s", "456m23p23557889s", "789m2368p115799s"]


def _round(variant: str, overrides: object = ()) -> Round:
    rs = load_variant(variant, overrides)  # type: ignore[arg-type]
    return Round(rs, wall=stack(rs, HANDS), dealer=0)


def test_shouquan_chongfeng_is_priced_as_settlement_pays_it() -> None:
    """都匀 首圈冲锋鸡 (CITIES.md 都匀 "首圈冲锋鸡 on", FW idx 14; duyun.yaml: ×3, golden ×6): a
    幺鸡 discarded as the round's first, in the first go-round, is paid as 首圈鸡 — for every
    after-win reveal what the pricer prices at the 首圈 multipliers is what zhuoji.settle
    pays the ready discarder; the dealer's first discard is priced so, his first after the
    first go-round at the plain ×2 / ×4."""
    rs = load_variant("duyun")
    ch = pricer(rs)
    assert ch.cf_first == (3, 6)
    prices = ch.round((), 1)
    for reveal in T.kinds_in(T.TileSet.SUITS):
        end = _chicken_end(reveal, seat0="45m234p567p999s88p", discards="1s")
        ledger = settle(rs, end)
        paid = [e.amount for e in ledger.entries if e.item == "ji.shouquan" and e.payee == 0]
        value = prices.chongfeng_value(3, 6, YAO, reveal_weights(T.format([reveal])))
        assert paid == [value] * 3, (T.format([reveal]), paid, value)
        assert not any(e.item == "ji.chongfeng" for e in ledger.entries)
    r = _round("duyun")
    seat = bound(evaluator(Observation(r, 0)).prices, ChickenSeat)
    p_golden = seat.reveal[T.parse_one("9s")] if seat.reveal else 0.0
    assert seat.next_first and seat.is_chongfeng(YAO)
    assert seat.chongfeng_value(YAO) == pytest.approx(3 * (1 - p_golden) + 6 * p_golden)
    _discards(r, 4)
    later = bound(evaluator(Observation(r, 0)).prices, ChickenSeat)
    assert r.current == 0 and not later.next_first and later.is_chongfeng(YAO)
    p_golden = later.reveal[T.parse_one("9s")] if later.reveal else 0.0
    assert later.chongfeng_value(YAO) == pytest.approx(2 * (1 - p_golden) + 4 * p_golden)


def test_shouquan_zeren_is_priced_as_settlement_pays_it() -> None:
    """首圈责任鸡 (``zeren.shouquan``, FW idx 14): a 责任 claimed in the first go-round pays
    the tile's value × its multiplier as 首圈鸡 — what the discarder's pricer prices for its
    first 幺鸡 and the claimer's for the claim, and what zhuoji.settle books; later, the
    plain extra (seed 000 ② 1)."""
    overrides = {"settle.chickens.zeren.shouquan": {"multiplier": 5}}
    rs = load_variant("guiyang", overrides)
    r = _round("guiyang", overrides)
    assert bound(evaluator(Observation(r, 0)).prices, ChickenSeat).zeren_cost(YAO) == 5.0
    r.apply(Action.parse("0 discard 1s"))
    assert r.phase.value == "claim" and 3 in r.to_act()
    claimer = bound(evaluator(Observation(r, 3)).prices, ChickenSeat)
    assert claimer.zeren_claimed() == 5.0
    end = RoundEnd(
        players=4,
        dealer=1,
        streak=0,
        seats=(
            SeatEnd(tuple(T.parse("2468m1379p2468s3s"))),
            SeatEnd(tuple(T.parse("123m456m789m23p55p"))),
            SeatEnd(tuple(T.parse("1379m2468p1357s9s"))),
            SeatEnd(tuple(T.parse("45m234p567p99s")), (Meld(MeldKind.PENG, YAO, 0),)),
        ),
        discards=(Discard(0, YAO, 3, MeldKind.PENG),),
        wins=(Win(1, WinHow.SELF_DRAW),),
        win_tile=T.parse_one("4p"),
        reveals=(Reveal(T.parse_one("5m"), RevealAt.WIN),),
    )
    paid = [
        (e.payer, e.payee, e.amount) for e in settle(rs, end).entries if e.item == "ji.shouquan"
    ]
    assert paid == [(0, 3, 5)]
    later = _round("guiyang", overrides)
    _discards(later, 4)
    assert bound(evaluator(Observation(later, 0)).prices, ChickenSeat).zeren_cost(YAO) == 1.0


def _dushan_second_turn(overrides: object = ()) -> tuple[Round, ChickenSeat]:
    """独山: seat 0's second turn, its first discard made, no 幺鸡 discarded yet."""
    r = _round("dushan", overrides)
    _discards(r, 4)
    assert r.current == 0 and Observation(r, 0).hand[YAO] == 1
    return r, bound(evaluator(Observation(r, 0)).prices, ChickenSeat)


def _hengji_end(ready: bool, claimed_by: int | None = None) -> RoundEnd:
    """独山: seat 0's first discard 5m, then (after three others) the round's first 幺鸡 —
    a 横鸡 (DS §7.3); seat 1 self-draws; seat 0 ready or not."""
    seat0 = "45m234p567p999s88p" if ready else "47m258p369p13579s"
    seat3 = "2468m1379p2468s3s"
    melds: tuple[Meld, ...] = ()
    if claimed_by == 3:
        seat3, melds = "45m234p567p99s", (Meld(MeldKind.PENG, YAO, 0),)
    return RoundEnd(
        players=4,
        dealer=0,
        streak=0,
        seats=(
            SeatEnd(tuple(T.parse(seat0))),
            SeatEnd(tuple(T.parse("123m456m789m23p55p"))),
            SeatEnd(tuple(T.parse("1379m2468p2468s9s"))),
            SeatEnd(tuple(T.parse(seat3)), melds),
        ),
        discards=(
            Discard(0, T.parse_one("5m")),
            Discard(1, T.parse_one("9p")),
            Discard(2, T.parse_one("9p")),
            Discard(3, T.parse_one("9p")),
            Discard(0, YAO, claimed_by, MeldKind.PENG if claimed_by is not None else None),
        ),
        wins=(Win(1, WinHow.SELF_DRAW),),
        win_tile=T.parse_one("4p"),
        reveals=(Reveal(T.parse_one("5m"), RevealAt.WIN),),
    )


def test_hengji_is_priced_as_settlement_pays_it() -> None:
    """独山 横鸡 (DS §7.3 "+2", dushan.yaml ``hengji: {tiles: any, multiplier: 2}``): the
    round's first 幺鸡, not a seat's own first discard, is a 横鸡 worth 2 from each payer to
    its ready discarder, and 2 to each other player as 包鸡 from an unready one (DS §11.2);
    punged, it costs its discarder DS's premium, 2 less the plain 1.  The pricer prices
    each as zhuoji.settle books it (``payment: each`` to see the items apart: DS nets them
    pairwise)."""
    each = ["settle.chickens.payment=each"]
    rs = load_variant("dushan", each)
    _, seat = _dushan_second_turn(each)
    assert seat.is_hengji(YAO) and not seat.is_chongfeng(YAO) and seat.prices_discard(YAO)
    assert seat.hengji_value(YAO) == 2.0
    c = [0] * T.NUM_KINDS
    thrown, kept = seat.held(c, (), YAO), seat.held(c, (), -1)
    ledger = settle(rs, _hengji_end(ready=True))
    got = sum(e.amount for e in ledger.entries if e.item == "ji.hengji" and e.payee == 0)
    assert got == 6 and thrown[1] - kept[1] == pytest.approx(got)
    ledger = settle(rs, _hengji_end(ready=False))
    owed = [(e.payee, e.amount) for e in ledger.entries if e.item == "ji.baoji" and e.payer == 0]
    assert owed == [(1, 2), (2, 2), (3, 2)]
    assert thrown[2] - kept[2] == pytest.approx(-sum(a for _, a in owed))
    assert seat.zeren_cost(YAO) == 1.0
    ledger = settle(rs, _hengji_end(ready=True, claimed_by=3))
    assert [(e.payer, e.payee, e.amount) for e in ledger.entries if e.item == "ji.zeren"] == [
        (0, 3, 1)
    ]


def test_hengji_changes_nothing_where_it_is_off() -> None:
    """Without 横鸡 (dushan with ``hengji: null``) the same discard is a plain chicken."""
    _, seat = _dushan_second_turn({"settle.chickens.hengji": None})
    assert not seat.is_hengji(YAO) and not seat.prices_discard(YAO)
    assert seat.zeren_cost(YAO) == 0.0


def _claimed_chongfeng_end(reveal: int, claimer_ready: bool) -> RoundEnd:
    """guiyang: seat 0's first discard, the round's first 幺鸡 (a 冲锋), is punged by seat 3;
    seat 1 self-draws; seat 0 is ready, seat 3 ready or not."""
    seat3 = "45m234p567p99s" if claimer_ready else "47m258p369p9s"
    return RoundEnd(
        players=4,
        dealer=1,
        streak=0,
        seats=(
            SeatEnd(tuple(T.parse("45m234p567p999s88p"))),
            SeatEnd(tuple(T.parse("123m456m789m23p55p"))),
            SeatEnd(tuple(T.parse("1379m2468p2468s9s"))),
            SeatEnd(tuple(T.parse(seat3)), (Meld(MeldKind.PENG, YAO, 0),)),
        ),
        discards=(Discard(0, YAO, 3, MeldKind.PENG),),
        wins=(Win(1, WinHow.SELF_DRAW),),
        win_tile=T.parse_one("4p"),
        reveals=(Reveal(reveal, RevealAt.WIN),),
    )


def test_a_claimed_chongfeng_is_priced_as_settlement_pays_it() -> None:
    """``chongfeng.claimed: claimer`` (CITIES.md common mechanism 4 reading): a punged 冲锋 is
    its claimer's when he ends ready, else still its discarder's.  Claiming the round's first
    幺鸡 earns what zhuoji.settle pays a ready claimer (the 冲锋 from every other player and
    the 责任 extra), expected over the after-win reveal as the pricer weighs it; the
    discarder still owns it as much as the claimer may end unready, and a punge of its next
    冲锋 costs it only that much."""
    overrides = ["settle.chickens.chongfeng.claimed=claimer"]
    rs = load_variant("guiyang", overrides)
    r = _round("guiyang", overrides)
    before = bound(evaluator(Observation(r, 0)).prices, ChickenSeat)
    plain = bound(evaluator(Observation(_round("guiyang"), 0)).prices, ChickenSeat)
    q = before.claimer_ready
    assert 0.0 < q < 1.0
    assert before.claimed_loss(YAO, 1.0) == pytest.approx(
        plain.chongfeng_value(YAO) * 3 * q + plain.zeren_cost(YAO)
    )
    r.apply(Action.parse("0 discard 1s"))
    claimer = bound(evaluator(Observation(r, 3)).prices, ChickenSeat)
    weights = claimer.reveal
    assert weights is not None
    expected = 0.0
    for reveal in T.kinds_in(T.TileSet.SUITS):
        ledger = settle(rs, _claimed_chongfeng_end(reveal, claimer_ready=True))
        got = sum(
            e.amount
            for e in ledger.entries
            if e.payee == 3 and e.item in ("ji.chongfeng", "ji.zeren")
        )
        expected += weights[reveal] * got
    assert claimer.claim_gain(1.0, 0.0) == pytest.approx(expected)
    # the discarder's, where the claimer ends unready
    unready = settle(rs, _claimed_chongfeng_end(T.parse_one("5m"), claimer_ready=False))
    assert [e.amount for e in unready.entries if e.item == "ji.chongfeng" and e.payee == 0] == [
        2
    ] * 3
    ready = settle(rs, _claimed_chongfeng_end(T.parse_one("5m"), claimer_ready=True))
    assert not [e for e in ready.entries if e.item == "ji.chongfeng" and e.payee == 0]
    r.apply(make(3, ActionKind.PENG, YAO))
    _discards(r, 1)  # the claimer's discard
    assert r.current == 0
    ev = evaluator(Observation(r, 0))
    seat = bound(ev.prices, ChickenSeat)
    assert seat.cf_mine == pytest.approx(seat.chongfeng_value(YAO, True) * (1 - ev.p_ready[3]))
    assert 0.0 < seat.cf_mine < seat.chongfeng_value(YAO, True)


@pytest.mark.parametrize("variant", ["dushan", "guiyang", "guiyang-weile"])
def test_the_seat_reads_the_discards_as_the_stage_classifies_them(variant: str) -> None:
    """At every decision of random rounds the pricer's 冲锋 and 横鸡 discards so far, and the
    status of the seat's next discard of each chicken, are what the stage's ``classify``
    makes of the same table (the pricer walks on from the last table it saw)."""
    import random

    from zhuoji.rules.chickens.discards import Status, classify

    rs = load_variant(variant)
    p = pricer(rs).params
    asked = 0
    for seed in range(3):
        r = Round(rs, seed=seed)
        rng = random.Random(seed)
        while not r.is_terminal():
            for s in r.to_act():
                seat = bound(evaluator(Observation(r, s)).prices, ChickenSeat)
                rows = tuple(Discard(w, t, c) for w, t, c in seat.table)
                table = seat.prices.table
                end = RoundEnd(players=r.players, dealer=0, streak=0, seats=(), discards=rows)
                status = classify(end, table, p)
                cf = {i for i, st in status.items() if st is Status.CHONGFENG}
                assert seat.cf_indexes == cf
                assert seat.hj_indexes == {i for i, st in status.items() if st is Status.HENGJI}
                for k in table:
                    nxt = RoundEnd(
                        players=r.players,
                        dealer=0,
                        streak=0,
                        seats=(),
                        discards=(*rows, Discard(s, k)),
                    )
                    want = classify(nxt, table, p).get(len(rows))
                    assert seat.is_chongfeng(k) == (want is Status.CHONGFENG), (k, want)
                    assert seat.is_hengji(k) == (want is Status.HENGJI), (k, want)
                asked += 1
            obs = Observation(r, r.to_act()[0])
            r.apply(rng.choice(obs.legal))
    assert asked > 100


@pytest.mark.parametrize("variant", ["guiyang", "dushan", "liupanshui"])
def test_expected_values_add_the_reveals_row_by_row(variant: str) -> None:
    """A round's expected chicken values (``RoundChickens.expected``, kind by kind from
    columns) are the plain sum over the after-win reveal table, row by row in its order:
    the same floats, for held and thrown copies, on random reveal weights."""
    rs = load_variant(variant)
    prices = pricer(rs).round((), 3)
    rng = random.Random(6)
    for _ in range(50):
        live = [rng.randrange(5) for _ in range(T.NUM_KINDS)]
        weights = [x / max(1, sum(live)) for x in live]
        for value, rows, got in (
            (prices.value, prices.by_reveal, prices.expected(weights)),
            (
                prices.thrown or prices.value,
                prices.thrown_by_reveal if prices.thrown else prices.by_reveal,
                prices.expected_thrown(weights),
            ),
        ):
            want = [float(v) for v in value]
            for r, k, extra in rows:
                want[k] = want[k] + extra * weights[r]
            assert got == want
        assert prices.expected(None) == [float(v) for v in prices.value]
