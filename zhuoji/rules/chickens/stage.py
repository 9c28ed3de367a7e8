"""The ``settle.chickens`` stage: the round's chickens, who holds them, who pays whom."""

from __future__ import annotations

from zhuoji.reveals import counting
from zhuoji.rules.chickens.discards import chongfeng, classify, zeren
from zhuoji.rules.chickens.ownership import Earning, discarded_chickens, holdings, shown
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.payment import Standing, pay_holdings, pay_unready, pay_zeren
from zhuoji.rules.chickens.values import Chicken, chicken_table
from zhuoji.rules.registry import Point, register
from zhuoji.settle import SettleContext
from zhuoji.tiles import name, parse_one


def round_table(ctx: SettleContext, p: ChickenParams) -> dict[int, Chicken]:
    """The round's chickens from its counting reveals and weekday."""
    end = ctx.end
    return chicken_table(
        p, counting(end.reveals, ctx.ruleset.variant.deal.start_reveal), end.weekday
    )


@register(Point.SETTLE, "chickens", ChickenParams, phase=40, title="捉鸡")
def settle_chickens(ctx: SettleContext, p: ChickenParams) -> None:
    """Each collector earns each chicken's value from his payers; 冲锋鸡, 横鸡, 责任鸡, 包鸡,
    站鸡 and 捉炮鸡 as configured.  Burnt players (烧) collect nothing but still owe
    penalties.  No chickens on a draw, nor after a 吹风鸡 reveal."""
    end = ctx.end
    if end.is_draw:
        return
    if p.chuifeng is not None and end.reveal in {parse_one(t) for t in p.chuifeng.tiles}:
        assert end.reveal is not None
        ctx.note(f"吹风鸡: {name(end.reveal)} revealed, no chickens this round")
        return
    table = round_table(ctx, p)
    status = classify(end, table, p)
    st = Standing.of(ctx, p)
    cf = chongfeng(end, table, status, st.ready, p)
    discarded = discarded_chickens(end, table)
    earnings = holdings(end, table, status, discarded, p)
    for c in cf:
        earnings[c.seat].append(Earning(c.amount, c.item, c.detail, chongfeng=True))
    pay_holdings(ctx, p, st, earnings)
    pay_zeren(ctx, p, st, zeren(end, table, status, p))
    if p.unready_pays is not None:
        pay_unready(ctx, p, st, shown(end, st.ready, table, status, discarded, p), cf)
