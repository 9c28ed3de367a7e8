"""爬坡鸡 (``settle.papo``): the chicken the reveal made is counted again, times its rank.

Source: CITIES.md 金沙 chickens "爬坡鸡 option" (FW JS).  FW's settlement (``clacWinKitchenScore``
→ ``clacPaPoKitchen``) takes the round's 爬坡 chicken (``getPaPoChiken``) and, for each player
collecting chickens, counts his copies of it as his other chickens are counted
(``findKitchen``: hand, melds, and discards where they count) and pays
``SCORE_TYPE_PP_KITCHEN`` times ``copies × (pai % 10)`` — the tile's rank — from the same
payers as his other chickens.  FW's number is not found (CITIES.md: "FW gives switches, not
numbers"); ``value`` is one chicken's unit, 1.  Which reveal chicken ``getPaPoChiken`` names
is not in the code read; the reading is the one the reveal makes in ``makes`` (default: +1,
the family's 翻鸡, seed 000 2) 「顺位加一」).

Who holds which chickens, who collects and who pays are the chickens stage's
(:mod:`zhuoji.rules.chickens`): this stage reads its parameters and pays through its
payment rules (collectors, payers, pairwise), so a burnt player collects nothing here either.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.bound import BoundRules
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import Fact, fact
from zhuoji.contract.pricing import CHICKENS, Pricer
from zhuoji.outcome import RevealAt
from zhuoji.rules.chickens.discards import classify
from zhuoji.rules.chickens.ownership import Earning, discarded_chickens, holdings
from zhuoji.rules.chickens.params import Direction
from zhuoji.rules.chickens.payment import Standing, pay_holdings
from zhuoji.rules.chickens.stage import round_table
from zhuoji.rules.chickens.values import Chicken, made_kinds
from zhuoji.rules.manji import chicken_params
from zhuoji.rules.needs import Because, Set
from zhuoji.rules.registry import Params, Phase, Point, Words, register

ITEM = "ji.papo"


class PapoParams(Params):
    value: int = Field(
        1,
        ge=0,
        le=1000,
        title="爬坡鸡 value",
        description="paid per copy and per rank step: copies × rank × value (FW "
        "clacPaPoKitchen; its number not found: one chicken's unit)",
    )
    makes: list[Direction] = Field(
        default_factory=lambda: list[Direction](["next"]),
        min_length=1,
        title="爬坡鸡 kinds",
        description="the kinds the after-win reveal makes in these directions are 爬坡鸡 "
        "(reading: +1, the 翻鸡 of seed 000 2) 「顺位加一」; FW getPaPoChiken not read)",
    )


def papo_words(item: str, f: Fact) -> Words | None:
    """「六万 ×2，爬坡 6」: the chicken (``tiles``), copies (``count``), its rank
    (``multiplier``), the value per step (``each``)."""
    tile = f.tiles[0] if f.tiles else None
    zh = T.name(tile) if tile is not None else ""
    en = T.name_en(tile) if tile is not None else ""
    each = f.each if f.each is not None else 1
    return Words(
        f"{zh} ×{f.count}，按点数{f.multiplier}再算：{f.count}×{f.multiplier}×{each}",
        f"{en} ×{f.count}, counted again by its rank {f.multiplier}: "
        f"{f.count} × {f.multiplier} × {each}",
        "爬坡鸡：翻出的鸡按点数再算一次",
        "climbing chicken: the revealed chicken counts again, times its rank",
    )


class PapoPricer(Pricer):
    """爬坡鸡 to a seat deciding: before the win the reveal is not known; a held copy of a
    suited kind is worth ``rank × value`` from each payer times the chance that the reveal
    makes it — one kind per direction of the reveal's suit, ``len(makes) / 27``.  A 烧
    voids it with the chickens."""

    burnt_as = CHICKENS

    def __init__(self, p: PapoParams) -> None:
        chance = len(p.makes) / 27.0
        self.values = [
            0.0 if T.is_honor(k) else T.rank_of(k) * p.value * chance for k in range(T.NUM_KINDS)
        ]

    def hold_values(self) -> Sequence[float] | None:
        return self.values


def _pricer(p: PapoParams, rules: BoundRules) -> Pricer | None:
    return PapoPricer(p) if p.value and chicken_params(rules) is not None else None


@register(
    Point.SETTLE,
    "papo",
    PapoParams,
    phase=Phase.CHICKENS,
    title="爬坡鸡",
    labels={ITEM: ("爬坡鸡", "climbing chicken: revealed chicken × its rank")},
    needs={
        "": Because(Set("settle:chickens"), "the variant has no chickens stage (settle.chickens)")
    },
    words=papo_words,
    pricer=_pricer,
)
def settle_papo(ctx: SettleContext, p: PapoParams) -> None:
    """Each collector of chickens earns, for his copies of each 爬坡 kind, copies × rank ×
    ``value`` from his payers (as the chickens stage pays: no chickens on a draw)."""
    end = ctx.end
    ch = chicken_params(ctx.ruleset)
    if ch is None or end.is_draw or not p.value:
        return
    kinds: list[int] = []
    for r in ctx.ruleset.variant.deal.counting(end.reveals):
        if r.at is RevealAt.WIN:
            kinds += [k for k in made_kinds(r.tile, p.makes) if not T.is_honor(k)]
    if not kinds:
        return
    table = round_table(ctx, ch)
    status = classify(end, table, ch)
    held = holdings(end, table, status, discarded_chickens(end, status), ch)
    earnings: list[list[Earning]] = []
    for items in held:
        mine: list[Earning] = []
        for k in dict.fromkeys(kinds):
            count = _copies(items, table[k]) if k in table else 0
            if not count:
                continue
            rank = T.rank_of(k)
            f = fact(tiles=(k,), count=count, multiplier=rank, each=p.value, kind="papo")
            mine.append(Earning(count * rank * p.value, ITEM, f))
        earnings.append(mine)
    pay_holdings(ctx, ch, Standing.of(ctx, ch), earnings)


def _copies(items: list[Earning], c: Chicken) -> int:
    """How many copies of chicken ``c`` a holder's earnings count (held, melded, won and
    discarded ones, as the chickens stage counts them): the count of its first part's line,
    plus that of its discarded copies where they are paid apart (a golden chicken not golden
    on discards)."""
    heads = {c.parts[0].item} if c.parts else set()
    if c.discard_parts:
        heads.add(c.discard_parts[0].item)
    return sum(e.fact.count or 0 for e in items if e.fact.tiles == (c.kind,) and e.item in heads)
