"""The pricers' remembered answers equal their uncached computation.

``HuPricer.decide`` keeps one ``_HuSeat`` per (seat, dealer, streak, players) across
decisions, and the seat remembers its win values by their arguments; ``DouSeat.held``
keeps its answer for the seat's melds of now.  Each memo must be keyed by everything its
answer reads: random decisions and questions, asked in a random order, are compared with a
fresh, uncached pricer's answer (a key missing a part would hand one decision another's
answer, and the comparison would fail)."""

from __future__ import annotations

import random

import pytest

from zhuoji.contract.pricing import Decision, Pricer
from zhuoji.outcome import Meld, MeldKind
from zhuoji.rules.dou import DouPricer, DouSeat
from zhuoji.rules.hu import HuPricer, _HuSeat
from zhuoji.variant_io import load_variant

VARIANTS = ("guiyang", "liupanshui", "luan", "jinyou", "zunyi", "dushan", "qianxi", "bijie")
_KONG_KINDS = (MeldKind.GANG_EXPOSED, MeldKind.GANG_CONCEALED, MeldKind.GANG_ADDED)


def _pricer(variant: str, kind: type[Pricer]) -> Pricer | None:
    found = [p for p in load_variant(variant).pricing.pricers if isinstance(p, kind)]
    return found[0] if found else None


def _melds(rng: random.Random) -> tuple[Meld, ...]:
    out = []
    for _ in range(rng.randrange(4)):
        kind = rng.choice((MeldKind.PENG, *_KONG_KINDS))
        out.append(Meld(kind, rng.randrange(27), source=rng.randrange(4), late=rng.random() < 0.2))
    return tuple(out)


def _decision(rng: random.Random, players: int, melds: tuple[Meld, ...] = ()) -> Decision:
    ready = rng.choice((0.0, 0.4, 1.0, 1.7, 2.0))
    return Decision(
        seat=rng.randrange(players),
        players=players,
        dealer=rng.randrange(players),
        streak=rng.randrange(4),
        weekday=1,
        reveals=(),
        table=(),
        live=[4] * 34,
        unseen=100,
        declared=[False] * players,
        own_melds=melds,
        wild=None,
        claim_source=-1,
        p_ready=[0.0] * players,
        ready_opponents=ready,
        typical_loss=2.0,
        other_self_draw_share=rng.choice((0.3, 0.7)),
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_hu_seats_and_win_values_equal_the_uncached_call(variant: str) -> None:
    rule = _pricer(variant, HuPricer)
    assert isinstance(rule, HuPricer)
    players = load_variant(variant).players
    rng = random.Random(variant)
    answers: dict[tuple[int, int, bool], set[tuple[float, float]]] = {}
    for _ in range(400):
        d = _decision(rng, players)
        seat = rule.decide(d)
        assert isinstance(seat, _HuSeat)
        fresh = _HuSeat(rule, d)
        assert (seat.dealer, seat.streak, seat.payers) == (fresh.dealer, fresh.streak, fresh.payers)
        for _ in range(3):
            args = (rng.randrange(1, 12), rng.randrange(1, 12), rng.random() < 0.5)
            got = seat.win_values(*args)
            assert got == fresh.price_win(*args), (d, args)
            answers.setdefault(args, set()).add(got)
    if variant in ("guiyang", "liupanshui"):  # 连庄 and the dealer change a win's value
        assert any(len(v) > 1 for v in answers.values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_hu_shares_equal_the_uncached_call(variant: str) -> None:
    rule = _pricer(variant, HuPricer)
    assert isinstance(rule, HuPricer)
    rng = random.Random(variant)
    answers = set()
    for _ in range(600):
        fan, streak = rng.randrange(1, 12), rng.randrange(4)
        flags = [rng.random() < 0.5 for _ in range(4)]
        got = rule.share(
            fan,
            self_draw=flags[0],
            winner_dealer=flags[1],
            payer_dealer=flags[2],
            streak=streak,
            repao=flags[3],
        )
        assert got == rule.share_of(fan, *flags[:3], streak, flags[3]), (fan, flags, streak)
        answers.add(got)
    assert len(answers) > 1


def test_hu_seats_are_kept_within_a_bound() -> None:
    rule = _pricer("guiyang", HuPricer)
    assert isinstance(rule, HuPricer)
    rng = random.Random(5)
    for streak in range(200):
        d = _decision(rng, 4)._replace(streak=streak)
        seat = rule.decide(d)
        assert isinstance(seat, _HuSeat) and seat.streak == streak
        assert rule.decide(d) is seat
    assert len(rule._seats) <= 64


@pytest.mark.parametrize("variant", VARIANTS)
def test_dou_held_equals_the_uncached_call(variant: str) -> None:
    rule = _pricer(variant, DouPricer)
    if rule is None:
        pytest.skip(f"{variant} has no dou pricer")
    assert isinstance(rule, DouPricer)
    players = load_variant(variant).players
    rng = random.Random(variant)
    answers = set()
    for _ in range(200):
        now = _melds(rng)
        d = _decision(rng, players, now)
        seat = rule.decide(d)
        assert isinstance(seat, DouSeat)
        fresh = DouSeat(rule, d)
        for _ in range(4):
            melds = now if rng.random() < 0.6 else _melds(rng)
            concealed = [rng.randrange(3) for _ in range(34)]
            got = seat.held(concealed, melds, rng.randrange(-1, 34))
            assert got == fresh.price_held(melds), (d, melds)
            answers.add(got)
    assert len(answers) > 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_seat_pricing_ends_equal_the_uncached_call(variant: str) -> None:
    """``SeatPricing.ends`` keeps the answers of the pricers that read only the melds
    (``held_by_melds``) for the melds of now: the same sums, in the same order, as a
    fresh decision's first answer."""
    pricing = load_variant(variant).pricing
    players = load_variant(variant).players
    rng = random.Random(variant)
    answers = set()
    for _ in range(60):
        now = _melds(rng)
        d = _decision(rng, players, now)
        prices = pricing.decide(d)
        for _ in range(5):
            melds = now if rng.random() < 0.7 else _melds(rng)
            concealed = [rng.randrange(3) for _ in range(34)]
            discarded, declared = rng.randrange(-1, 34), rng.random() < 0.3
            got = prices.ends(concealed, melds, discarded, declared)
            fresh = pricing.decide(d).ends(concealed, melds, discarded, declared)
            assert got == fresh, (d, melds, concealed, discarded)
            answers.add(got)
    if any(p.held_by_melds for p in prices.bound):  # jinyou: no holdings priced
        assert len(answers) > 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_held_by_melds_pricers_read_only_the_melds(variant: str) -> None:
    """A pricer that says its ``held`` reads only the melds answers the same whatever the
    concealed counts and the discard."""
    pricing = load_variant(variant).pricing
    players = load_variant(variant).players
    rng = random.Random(variant)
    for _ in range(40):
        d = _decision(rng, players, _melds(rng))
        for p in pricing.decide(d).bound:
            if not p.held_by_melds:
                continue
            melds = _melds(rng)
            first = p.held([rng.randrange(3) for _ in range(34)], melds, rng.randrange(-1, 34))
            again = p.held([rng.randrange(3) for _ in range(34)], melds, rng.randrange(-1, 34))
            assert first == again, (type(p).__name__, melds)
