"""The ``settle.chickens`` stage: the round's chickens, who holds them, who pays whom."""

from __future__ import annotations

from collections.abc import Mapping

from zhuoji.contract.context import SettleContext
from zhuoji.rules.chickens.discards import chongfeng, classify, named_kinds, terms, zeren
from zhuoji.rules.chickens.ownership import Earning, discarded_chickens, holdings, shown
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.payment import Standing, pay_holdings, pay_unready, pay_zeren
from zhuoji.rules.chickens.pricing import ChickenPricer
from zhuoji.rules.chickens.values import Chicken, round_chickens
from zhuoji.rules.chickens.words import chicken_words, round_remarks
from zhuoji.rules.registry import Phase, Point, register, register_labels

# the ledger items this stage pays
register_labels(
    {
        "ji.yaoji": ("幺鸡", "permanent chicken"),
        "ji.wugu": ("乌骨鸡", "8-dots chicken"),
        "ji.fanji": ("翻鸡", "flipped chicken"),
        "ji.jinji": ("金鸡", "golden chicken"),
        "ji.chongfeng": ("冲锋鸡/英雄鸡", "first chicken discarded"),
        "ji.zeren": ("责任鸡", "chicken discard claimed"),
        "ji.baoji": ("包鸡", "unready player's chickens"),
        "ji.changji": ("常鸡", "permanent chicken"),
        "ji.xingqi": ("星期鸡", "weekday chicken"),
        "ji.zhanji": ("站鸡", "chickens standing in the hand"),
        "ji.hengji": ("横鸡", "first discard of a chicken kind"),
        "ji.shouquan": ("首圈鸡", "first go-round chicken"),
        "ji.zhuopao": ("捉炮鸡", "discarded chicken won on"),
        "ji.net": ("鸡", "chickens, pairwise difference"),
        "ji": ("鸡", "chicken"),  # a variant's own chicken items (银鸡 ji.yinji …)
    }
)


def round_table(ctx: SettleContext, p: ChickenParams) -> Mapping[int, Chicken]:
    """The round's chickens from its counting reveals and weekday."""
    end = ctx.end
    return round_chickens(p, ctx.ruleset.variant.deal.counting(end.reveals), end.weekday)


@register(
    Point.SETTLE,
    "chickens",
    ChickenParams,
    phase=Phase.CHICKENS,
    title="捉鸡",
    words=chicken_words,
    pricer=ChickenPricer,
)
def settle_chickens(ctx: SettleContext, p: ChickenParams) -> None:
    """Each collector earns each chicken's value from his payers; 冲锋鸡, 横鸡, 责任鸡, 包鸡,
    站鸡 and 捉炮鸡 as configured.  Burnt players (烧) collect nothing but still owe
    penalties.  No chickens on a draw, nor after a 吹风鸡 reveal."""
    # the round's chickens (what made each one) are recorded as remarks (words.round_remarks)
    end = ctx.end
    remarks = ctx.ledger.remarks
    if end.is_draw:
        remarks.extend(round_remarks(p, None, (), end.weekday, ctx.rule))
        return
    counting = ctx.ruleset.variant.deal.counting(end.reveals)
    table = round_chickens(p, counting, end.weekday)
    blown = None
    if p.chuifeng is not None and end.reveal in named_kinds(p.chuifeng.tiles):
        blown = end.reveal  # 吹风鸡: no chickens this round (the remark says so)
    remarks.extend(round_remarks(p, table, counting, end.weekday, ctx.rule, blown))
    if blown is not None:
        return
    t = terms(p)  # the parameters as plain fields, which the compiled functions read natively
    status = classify(end, table, t)
    st = Standing.of(ctx, t)
    cf = chongfeng(end, table, status, st.ready, t)
    discarded = discarded_chickens(end, status)
    earnings = holdings(end, table, status, discarded, t)
    for c in cf:
        earnings[c.seat].append(Earning(c.amount, c.item, c.fact, chongfeng=True))
    pay_holdings(ctx, t, st, earnings)
    pay_zeren(ctx, t, st, zeren(end, table, status, t))
    if t.unready_pays is not None:
        pay_unready(ctx, t, st, shown(end, st.ready, table, status, discarded, t), cf)
