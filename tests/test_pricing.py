"""The pricing interface of the hook contract (zhuoji/contract/pricing.py): a neutral base, the
pricer slot of a registered hook, the ruleset handing out the pricers of exactly its bound
hooks, and how their answers add up."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pricing_support import evaluator

from zhuoji.contract.pricing import (
    CHICKENS,
    DOU,
    NO_ENDS,
    Decision,
    Ends,
    Pricer,
    Pricing,
    SeatPricing,
    overrides,
)
from zhuoji.engine import Round
from zhuoji.observation import Observation
from zhuoji.outcome import Meld
from zhuoji.rules.catalog import hooks
from zhuoji.rules.registry import Point
from zhuoji.variant_io import builtin_names, load_variant

GUIYANG = load_variant("guiyang")


def _decision(players: int = 4) -> Decision:
    return Decision(
        seat=0,
        players=players,
        dealer=0,
        streak=0,
        weekday=1,
        reveals=(),
        table=(),
        live=[4] * 34,
        unseen=136,
        declared=[False] * players,
        own_melds=(),
        wild=None,
        claim_source=-1,
        p_ready=[0.0] * players,
        ready_opponents=0.0,
        typical_loss=1.0,
        other_self_draw_share=0.7,
    )


def test_the_base_pricer_prices_nothing() -> None:
    p = Pricer()
    d = _decision()
    assert p.decide(d) is p
    assert p.share(5, self_draw=True, winner_dealer=True, payer_dealer=False, streak=2) == 0.0
    assert p.declared_fan(3, hard=True) == 3
    assert p.win_values(3, 3, True) == (0.0, 0.0)
    assert p.dealt_in(True) == 0.0 and p.rob_cost(3, payer_dealer=True, streak=1) == 0.0
    assert p.discard_win_exempt(False, False) and p.discard_win_fan() == 0
    assert p.held([0] * 34, (), -1) == NO_ENDS and p.owed((), True) == NO_ENDS
    assert p.hold_values() is None and p.discards_worth([(0, 1)]) == 0.0
    assert not p.prices_discard(0) and p.claimed_loss(0, 1.0) == 0.0
    assert p.claim_gain(1.0, 0.0) == 0.0 and p.discard_gain(0, 0.5, 0.5) == 0.0
    assert p.burns("repao") == frozenset() and p.burnt_as == ""
    assert p.deal_chickens() == {} and p.deal_chongfeng() == frozenset()
    assert not overrides(p, "held")


class _Holding(Pricer):
    burnt_as = CHICKENS

    def __init__(self, ends: Ends) -> None:
        self.ends = ends

    def held(self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int) -> Ends:
        return self.ends


class _Owing(Pricer):
    def owed(self, melds: tuple[Meld, ...], declared: bool) -> Ends:
        return (0.0, -1.0, -1.0, 0.5, -0.5) if declared else NO_ENDS

    def declared_fan(self, fan: int, *, hard: bool) -> int:
        return fan * 2

    def discard_win_exempt(
        self, declared: bool, has_kong: bool, from_declared: bool = False
    ) -> bool:
        return declared

    def discard_win_fan(self) -> int:
        return 5

    def burns(self, how: str) -> frozenset[str]:
        return frozenset({CHICKENS}) if how == "repao" else frozenset()


class _Adding(Pricer):
    def declared_fan(self, fan: int, *, hard: bool) -> int:
        return fan + (10 if hard else 1)


def test_answers_add_up_in_stage_order() -> None:
    """Holdings first, then what the standing owes; a 报听 value passes through each pricer;
    a seat may win on any discard only where every pricer exempts it, else from the highest
    pattern threshold; a 烧 voids the holdings of the kinds it names."""
    pricing = Pricing(
        GUIYANG,
        [
            _Holding((1.0, 2.0, 3.0, 0.0, 0.0)),
            _Owing(),
            _Holding((4.0, 0.0, 0.0, 1.0, 1.0)),
            _Adding(),
        ],
    )
    seat = pricing.decide(_decision())
    assert isinstance(seat, SeatPricing)
    assert seat.ends([0] * 34, (), -1, False) == (5.0, 2.0, 3.0, 1.0, 1.0)
    assert seat.ends([0] * 34, (), -1, True) == (5.0, 1.0, 2.0, 1.5, 0.5)
    assert pricing.declared_fan(3, hard=True) == 16 and pricing.declared_fan(3, hard=False) == 7
    assert pricing.limited and pricing.discard_fan == 5
    assert pricing.may_win_on_discard(5, False, False) and not pricing.may_win_on_discard(
        4, False, True
    )
    assert pricing.may_win_on_discard(0, True, False)
    assert pricing.burns("repao") == {CHICKENS} and pricing.burns("rob_kong") == frozenset()
    assert seat.burnt("repao", [0] * 34, ()) == [1.0, 4.0]
    assert seat.burnt("rob_kong", [0] * 34, ()) == []


def test_the_registry_keeps_each_hooks_pricer() -> None:
    """Every built-in hook that prices its rule registers its pricer with the hook; the
    catalog says which do."""
    settle = hooks(Point.SETTLE, builtin_only=True)
    priced = {i for i, h in settle.items() if h.pricer is not None}
    assert priced == {
        "hu",
        "shabao",
        "burn",
        "chickens",
        "dou",
        "chajiao",
        "dajiao",
        "peng_sets",
        "reng_bao",
        "genzhuang",
        "manji",
        "papo",
        "flowers",
    }
    assert hooks(Point.MAY_WIN, builtin_only=True)["pass"].pricer is not None
    assert settle["chickens"].describe()["priced"] is True
    assert settle["baopai"].describe()["priced"] is False


def test_the_ruleset_hands_out_the_pricers_of_its_bound_hooks() -> None:
    """Exactly the variant's bound hooks, in the order its stages run, then may_win; a hook
    taken out takes its pricer with it; parameters reach the pricer (built once)."""
    names = [type(p).__name__ for p in GUIYANG.pricing.pricers]
    assert names == [
        "HuPricer",
        "ShabaoPricer",
        "BurnPricer",
        "ChickenPricer",
        "DouPricer",
        "ReadyCheckPricer",
        "PassPricer",
    ]
    assert GUIYANG.pricing is GUIYANG.pricing
    without = load_variant("guiyang", {"settle.chickens": None, "may_win.pass": None})
    assert [type(p).__name__ for p in without.pricing.pricers] == names[:3] + names[4:6]
    assert not without.pricing.limited
    assert load_variant("guiyang", ["settle.dou.values.concealed=7"]).pricing.burns("repao") == {
        CHICKENS,
        DOU,
    }


@pytest.mark.parametrize("variant", sorted(builtin_names()))
def test_every_shipped_variant_is_priced(variant: str) -> None:
    """Every shipped variant's pricers build and bind to a decision of its first turn."""
    rs = load_variant(variant)
    r = Round(rs, seed=1)
    ev = evaluator(Observation(r, r.current))
    assert len(ev.prices.bound) == len(rs.pricing.pricers) >= 1
    c = list(ev.view.hand)
    ends = ev.prices.ends(c, ev.view.own_melds(), -1, False)
    assert len(ends) == 5 and all(x == x for x in ends)
