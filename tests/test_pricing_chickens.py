"""What chickens are worth to a seat deciding (zhuoji/rules/chickens/pricing.py): the chicken
stage's own prices in expectation, checked against zhuoji.settle on hand-built round ends,
and the 冲锋 / 责任 / 包鸡 rules as the variant files set them."""

from __future__ import annotations

import pytest
from conformance.walls import stack
from pricing_support import bound, evaluator, reveal_weights

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.agents.expert_value import Evaluator, HandState
from zhuoji.contract.pricing import CHICKENS
from zhuoji.engine import Round
from zhuoji.observation import Observation
from zhuoji.outcome import Discard, Reveal, RevealAt, RoundEnd, SeatEnd, Win, WinHow
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
