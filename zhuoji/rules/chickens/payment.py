"""Who collects chickens and who pays: collectors, payers, 包鸡, 责任鸡, pairwise settlement.

Sources: seed 001 一(1)(3) (each other player pays the holder; only 叫嘴 players' chickens
count), 二(5) and (四)(1) (包鸡; burning keeps the penalties owed: 「需倒賠的英雄雞、責任雞仍然
生效」); CITIES.md common mechanism 4 (ready-only collectors; every other player or only
unready players pay; 包鸡 scope and payees; DS §11.1 pairwise difference) and the GA
``process_reponsibility_ji_fen`` direction of 责任鸡.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Final

from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import Fact, fact, with_fact
from zhuoji.contract.ledger_kernel import pay as ledger_pay
from zhuoji.rules.chickens.discards import ChickenTerms, Special, terms
from zhuoji.rules.chickens.ownership import Earning, Shown
from zhuoji.rules.chickens.params import ChickenParams


class Standing:
    """Each seat's standing for chickens at the end.  (A plain class with its own
    ``__init__``: see :class:`~zhuoji.rules.chickens.ownership.Earning`.)"""

    ready: Final[list[bool]]
    burnt: Final[frozenset[int]]  # 烧: collect nothing, still owe penalties
    collects: Final[list[bool]]  # ready (or everyone collects) and not burnt
    owes: Final[list[bool]]  # not ready and does not collect: owes 包鸡 where the variant has it

    def __init__(
        self,
        ready: list[bool],
        burnt: frozenset[int],
        collects: list[bool],
        owes: list[bool],
    ) -> None:
        self.ready = ready
        self.burnt = burnt
        self.collects = collects
        self.owes = owes

    @classmethod
    def of(cls, ctx: SettleContext, p: ChickenParams | ChickenTerms) -> Standing:
        # the one place the chickens stage reads burning: the seats whose chickens are
        # burnt, in one read (``ctx.chickens_burnt`` a seat was a call into Python each)
        burnt: frozenset[int] = ctx.burnt
        players: int = ctx.players
        ready = list(ctx.ready)
        everyone = terms(p).collectors == "all"
        collects = [(ready[s] or everyone) and s not in burnt for s in range(players)]
        # 倒赔 / 包鸡 are owed by a player who is not ready (seed 001 二(5) "未叫嘴"); burning
        # turns nothing into a debt (seed 001 (四)(1): only what was owed anyway stays)
        owes = [not collects[s] and not ready[s] for s in range(players)]
        return cls(ready, burnt, collects, owes)


def pay_holdings(
    ctx: SettleContext,
    p: ChickenParams | ChickenTerms,
    st: Standing,
    earnings: list[list[Earning]],
) -> None:
    """Each collector earns each of his items from each payer (or, ``pairwise``, each pair
    settles the difference in one entry)."""
    flows: dict[tuple[int, int], int] = defaultdict(int)
    netted: dict[tuple[int, int], set[int]] = defaultdict(set)  # the chickens in a flow
    t = terms(p)
    unready_only = t.payers == "unready"
    pairwise = t.payment == "pairwise"
    ready = st.ready
    collects = st.collects
    ledger = ctx.ledger  # ``ctx.pay`` without its calls: the same entry, under this hook
    rule = ctx.rule
    players: int = ctx.players
    for s, items in enumerate(earnings):
        if not items or not collects[s]:
            continue
        # ``ctx.others(s)`` (a ``range`` kept in a variable was iterated as a Python object)
        payers = [o for o in range(players) if o != s]
        for e in items:
            for payer in payers:
                if unready_only and ready[payer] and not e.chongfeng:
                    continue
                if pairwise:
                    flows[(payer, s)] += e.amount
                    netted[(min(payer, s), max(payer, s))].update(e.fact.tiles)
                else:
                    ledger_pay(ledger, payer, s, e.amount, e.item, "", e.fact, rule)
    if pairwise:
        for a in range(ctx.players):
            for b in range(a + 1, ctx.players):
                owed, due = flows[(a, b)], flows[(b, a)]
                tiles = tuple(sorted(netted[(a, b)]))
                if owed >= due:
                    f = fact(kind="net", netted=(owed, due), tiles=tiles)
                    ctx.pay(a, b, owed - due, "ji.net", fact=f)
                else:
                    f = fact(kind="net", netted=(due, owed), tiles=tiles)
                    ctx.pay(b, a, due - owed, "ji.net", fact=f)


def pay_zeren(
    ctx: SettleContext, p: ChickenParams | ChickenTerms, st: Standing, events: list[Special]
) -> None:
    """责任鸡: the discarder pays a collecting claimer; ``reversed``: an unready claimer pays a
    ready discarder (GA); ``reversed_to_any``: any discarder (DS §11.2) — the 责任, or with
    ``claimer_pays_back: face_and_amount`` the chicken's face value on top (DS §11.2)."""
    zr = terms(p).zeren
    assert zr is not None or not events
    for z in events:
        discarder, claimer = z.seat, z.other
        assert claimer is not None and zr is not None
        if zr.discarder == "unready" and st.ready[discarder]:
            continue
        if st.collects[claimer]:
            ctx.pay(discarder, claimer, z.amount, z.item, fact=z.fact)
        elif not st.ready[claimer] and (
            zr.claimer_unready == "reversed_to_any"
            or (zr.claimer_unready == "reversed" and st.collects[discarder])
        ):
            if zr.claimer_pays_back == "face_and_amount":  # DS §11.2 「面值 + 溢价」
                f = with_fact(_back(z.fact), extra=z.face, tags=(*z.fact.tags, "back", "face"))
                ctx.pay(claimer, discarder, z.amount + z.face, z.item, fact=f)
            else:
                ctx.pay(claimer, discarder, z.amount, z.item, fact=_back(z.fact))


def pay_unready(
    ctx: SettleContext,
    p: ChickenParams | ChickenTerms,
    st: Standing,
    shown: list[Shown],
    chongfeng: list[Special],
) -> None:
    """包鸡: an unready player pays each payee for the chickens he showed; his 冲锋鸡 is paid
    back (倒赔)."""
    up = terms(p).unready_pays
    if up is None:
        return
    owing = [s for s in range(ctx.players) if st.owes[s]]

    def payees(s: int) -> list[int]:
        if up.payees == "ready":
            return [c for c in range(ctx.players) if st.collects[c]]
        return [c for c in ctx.others(s) if c not in st.burnt]

    for s in owing:
        if "chongfeng" in up.of:
            for cf in chongfeng:
                if cf.seat == s:
                    back = _back(cf.fact)
                    for c in payees(s):
                        ctx.pay(s, c, cf.amount, cf.item, fact=back)
        by = owing if up.discards_paid_by == "every_unready" else [s]
        for kind, value, discarded, melded in shown[s].lines:
            for payer in by:
                thrown = discarded if "discards" in up.of else 0
                n = thrown + (melded if payer == s and "melds" in up.of else 0)
                if not n:
                    continue
                f = fact(
                    tiles=(kind,),
                    kind="baoji",
                    count=n,
                    each=value,
                    discarded=thrown or None,
                    seat=s,
                )
                for c in payees(s):
                    ctx.pay(payer, c, n * value, "ji.baoji", fact=f)
        if "discards" in up.of:
            for e in shown[s].extra:
                for payer in by:
                    for c in payees(s):
                        ctx.pay(payer, c, e.amount, "ji.baoji", fact=e.fact)


def _back(f: Fact) -> Fact:
    """``f`` paid the other way (倒赔, a reversed 责任鸡)."""
    return with_fact(f, tags=(*f.tags, "back"))
