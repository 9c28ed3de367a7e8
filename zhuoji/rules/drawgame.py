"""荒庄查叫 (``settle.chajiao``): after a draw, unready players pay ready ones.

Sources: seed 000 胡牌算番规则 17) ①–④ (none or all ready: no payment; otherwise each unready
player pays every ready player "相应的番数"; dou void); seed 001 荒莊查叫 (1)–(4); seed 004
(四) and 连庄 3. ("荒庄的,庄家未听牌的,给听牌玩家额外支付连庄数;庄家听牌的,未听牌的闲家额外给
庄家支付连庄数").  The dealer after a draw is decided by the dealer hook.
"""

from __future__ import annotations

from pydantic import Field

from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import SEAT, Fact, fact, with_fact
from zhuoji.rules.hu import BaotingPay, baoting_part, baoting_words, value_fact
from zhuoji.rules.needs import DECLARING
from zhuoji.rules.registry import Params, Phase, Point, Words, register


class ChajiaoParams(Params):
    extra: int = Field(
        0,
        ge=0,
        le=1000,
        title="查叫 extra",
        description="added to each ready player's value (elsewhere: 3 + pattern)",
    )
    streak_extra: bool = Field(
        False,
        title="查叫 连庄",
        description="the dealer's streak is paid on top (seed 004 连庄 3.)",
    )
    baoting: BaotingPay = Field(
        default_factory=BaotingPay,
        title="报听 in 查叫",
        description="what a declared (报听) ready player's hand adds to his 查叫 value, as in "
        'settle.hu.baoting (seed 000 10) "番数按照十番来计算" with 17)③ "叫牌玩家可以根据自己所叫的番'
        '数进行算番": {mode: floor, hard: 10, soft: 10}); mode none: his pattern alone',
    )


def ready_value_words(f: Fact) -> tuple[str, str]:
    """What a ready player (``seat``) waits on (``name``, ``fan``; ``extra`` on top), or that
    he is ready with no pattern value (``kind`` ``ready_only``)."""
    if f.kind == "ready_only":
        zh, en = f"{SEAT}听牌", f"{SEAT} is ready"
    else:
        zh, en = f"{SEAT}听牌：{f.name}", f"{SEAT} is ready: {f.name_en}"
    if f.extra:
        zh, en = f"{zh}，另加{f.extra}", f"{en}, plus {f.extra}"
    return f"{zh}，共{f.fan}", f"{en}, {f.fan} in all"


def chajiao_words(item: str, f: Fact) -> Words | None:
    """查叫's entries and remarks: a ready player's value, 报听 on top, the dealer's streak, a
    draw nobody pays for."""
    rule_zh = "查叫：荒庄时没听牌的玩家赔给听牌的玩家"
    rule_en = "ready check after a drawn round: players not ready pay those who are"
    if item == "baoting":
        zh, en = baoting_words(f)
        return Words(f"{SEAT}报了听：{zh}", f"{SEAT} had declared ready: {en}", rule_zh, rule_en)
    if item == "lianzhuang":
        ready = f.kind == "dealer_ready"
        return Words(
            f"连庄{f.count}次，庄家" + ("听牌" if ready else "没听牌"),
            f"streak of {f.count}, the dealer " + ("is ready" if ready else "is not ready"),
            "荒庄查叫时另算连庄",
            "the dealer's streak is paid on top after a draw",
        )
    if f.kind == "nobody_ready":
        return Words("荒庄，没人听牌，不用赔", "drawn round: nobody is ready, no payment", "", "")
    if f.kind == "everyone_ready":
        return Words("荒庄，人人听牌，不用赔", "drawn round: everyone is ready, no payment", "", "")
    zh, en = ready_value_words(f)
    return Words(zh, en, rule_zh, rule_en)


@register(
    Point.SETTLE,
    "chajiao",
    ChajiaoParams,
    phase=Phase.DRAW,
    title="荒庄查叫",
    labels={
        "chajiao": ("查叫", "ready check after a draw"),
        "lianzhuang": ("连庄", "dealer streak"),
    },
    needs={"baoting": DECLARING},
    words=chajiao_words,
)
def settle_chajiao(ctx: SettleContext, p: ChajiaoParams) -> None:
    """Each unready player pays each ready player that player's best waiting value."""
    end = ctx.end
    if not end.is_draw:
        return
    ready = [s for s in range(ctx.players) if ctx.ready[s]]
    unready = [s for s in range(ctx.players) if not ctx.ready[s]]
    if not ready or not unready:
        ctx.remark("chajiao", fact(kind="nobody_ready" if not ready else "everyone_ready"))
        return
    pay_waiting_values(ctx, unready, p.extra, "chajiao", baoting=p.baoting)
    if p.streak_extra and end.streak:
        dealer = end.dealer
        if ctx.ready[dealer]:
            f = fact(kind="dealer_ready", count=end.streak, seat=dealer)
            for u in unready:
                ctx.pay(u, dealer, end.streak, "lianzhuang", fact=f)
        else:
            f = fact(kind="dealer_unready", count=end.streak, seat=dealer)
            for r in ready:
                ctx.pay(dealer, r, end.streak, "lianzhuang", fact=f)


def pay_waiting_values(
    ctx: SettleContext,
    payers: list[int],
    extra: int,
    item: str,
    *,
    baoting: BaotingPay | None = None,
) -> None:
    """Each of ``payers`` pays each ready player the best value that player waits on, plus
    ``extra`` (查叫 and, under 定缺, 查大叫); with ``baoting``, a declared (报听) ready
    player's hand adds what it says (``settle.chajiao.baoting``).  Each entry's fact is the
    ready player's (``seat``) value: :func:`ready_value_words` says it."""
    for r in (s for s in range(ctx.players) if ctx.ready[s]):
        value = ctx.ready_value(r)
        fan = (value.total if value else 0) + extra
        if value is not None:
            f = with_fact(value_fact(value, r, "ready"), fan=fan, extra=extra or None)
        else:
            f = fact(kind="ready_only", seat=r, fan=fan, extra=extra or None)
        declared = (
            baoting_part(baoting, ctx.end.seats[r].declared, value.base if value else 0)
            if baoting is not None
            else None
        )
        for u in payers:
            ctx.pay(u, r, fan, item, fact=f)
            if declared is not None:
                d_item, d_fact, units = declared
                ctx.pay(u, r, units, d_item, fact=with_fact(d_fact, seat=r))
