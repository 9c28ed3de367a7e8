"""烧 (``settle.burn``): the 热炮 discarder's or the robbed player's chickens and dou are void.

Sources: seed 001 (四)(1)(2) ("手中的雞和豆全部燒掉,需倒賠的英雄雞、責任雞仍然生效"); seed 004
(4) ("烧光:热炮或抢杠和时,点热炮或被抢杠玩家的鸡和豆都不计分(即一烧全烧)"); CITIES.md 贵阳
common, 热炮 ("QQ: that kong void …", i.e. only the kong cancelled) and 独山 burn ("热炮
discarder and robbed player: chickens and kongs void, still pay").

Who is burnt (the 热炮 discarder, the robbed player) and what he loses (his chickens; his
kongs: none, only the kong behind the 热炮, or all) are parameters; the chickens and dou
stages ask :meth:`SettleContext.chickens_burnt` and :meth:`SettleContext.kong_burnt`.  A
burnt player still owes his penalties.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zhuoji.contract.bound import BoundRules
from zhuoji.contract.context import DouBurn, SettleContext
from zhuoji.contract.pricing import CHICKENS, DOU, Pricer
from zhuoji.outcome import Win, WinHow
from zhuoji.rules.needs import ROBBING, WINS_ON_DISCARD
from zhuoji.rules.registry import Params, Phase, Point, register


class BurnParts(Params):
    """What a burnt player loses."""

    chickens: bool = Field(
        True, title="chickens burnt", description="his chickens collect nothing (he still pays)"
    )
    dou: Literal["none", "kong", "all"] = Field(
        "all",
        title="dou burnt",
        description="none: his kongs still score; kong: only the kong behind the 热炮 is "
        "cancelled (QQ reading, CITIES.md 贵阳 common); all: none of his kongs scores (烧光)",
    )


class BurnParams(Params):
    repao: BurnParts | None = Field(
        None,
        title="burn on 热炮",
        description="what the player who dealt a 热炮 loses (一烧全烧: chickens and all dou); "
        "null (the default): he is not burnt",
    )
    rob_kong: BurnParts | None = Field(
        None,
        title="burn on 抢杠",
        description="what the player whose kong was robbed loses; null (the default): he is "
        "not burnt",
    )


class BurnPricer(Pricer):
    """烧 to a seat deciding: which of its holdings a 热炮 deal-in or a robbed kong voids
    (its chickens, its dou: :data:`~zhuoji.contract.pricing.CHICKENS`,
    :data:`~zhuoji.contract.pricing.DOU`); the chicken and dou pricers price them.  Only
    the kong behind it (``dou: kong``) is priced as all its dou."""

    def __init__(self, p: BurnParams, rules: BoundRules) -> None:
        self.voided = {"repao": _voided(p.repao), "rob_kong": _voided(p.rob_kong)}

    def burns(self, how: str) -> frozenset[str]:
        return self.voided.get(how, frozenset())


def _voided(parts: BurnParts | None) -> frozenset[str]:
    if parts is None:
        return frozenset()
    return frozenset(
        [*([CHICKENS] if parts.chickens else []), *([DOU] if parts.dou != "none" else [])]
    )


@register(
    Point.SETTLE,
    "burn",
    BurnParams,
    phase=Phase.BURN,
    title="烧",
    needs={"repao": WINS_ON_DISCARD, "rob_kong": ROBBING},
    pricer=BurnPricer,
)
def settle_burn(ctx: SettleContext, p: BurnParams) -> None:
    """Mark what burnt players lose (no ledger entries of its own)."""
    for win in ctx.end.wins:
        if win.source is None:
            continue
        if win.how is WinHow.DISCARD and ctx.end.repao:
            parts, why = p.repao, "热炮"
        elif win.how is WinHow.ROB_KONG:
            parts, why = p.rob_kong, "抢杠"
        else:
            continue
        if parts is not None:
            ctx.burn(
                win.source,
                chickens=parts.chickens,
                dou=DouBurn(parts.dou),
                kong_tile=_kong_behind(ctx, win),
                why=why,
            )


def _kong_behind(ctx: SettleContext, win: Win) -> int | None:
    """The kong that made the 热炮 (or was robbed): the round's kong tile when it is the
    burnt player's, else his latest kong."""
    assert win.source is not None
    kongs = [m.tile for m in ctx.end.seats[win.source].melds if m.is_kong]
    if ctx.end.kong_tile is not None and (ctx.end.kong_tile in kongs or win.how is WinHow.ROB_KONG):
        return ctx.end.kong_tile
    return kongs[-1] if kongs else None
