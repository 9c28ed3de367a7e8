"""烧 / 烧光 (``settle.burn``): the 热炮 discarder's or robbed player's chickens and dou are void.

Sources: seed 001 (四)(1)(2) ("手中的雞和豆全部燒掉,需倒賠的英雄雞、責任雞仍然生效"); seed 004
(4) ("烧光:热炮或抢杠和时,点热炮或被抢杠玩家的鸡和豆都不计分(即一烧全烧)").  The burnt player
still owes penalties: the chickens and dou stages read :attr:`SettleContext.burnt`.
"""

from __future__ import annotations

from pydantic import Field

from zhuoji.outcome import WinHow
from zhuoji.rules.registry import Params, Phase, Point, register
from zhuoji.settle import DouBurn, SettleContext


class BurnParams(Params):
    on_repao: bool = Field(
        True, title="burn on 热炮", description="the discarder who dealt in right after his kong"
    )
    on_rob_kong: bool = Field(
        True, title="burn on 抢杠", description="the player whose kong was robbed"
    )


@register(Point.SETTLE, "burn", BurnParams, phase=Phase.BURN, title="烧")
def settle_burn(ctx: SettleContext, p: BurnParams) -> None:
    """Mark burnt seats (no ledger entries of its own)."""
    for win in ctx.end.wins:
        if win.source is None:
            continue
        burns = (win.how is WinHow.DISCARD and ctx.end.repao and p.on_repao) or (
            win.how is WinHow.ROB_KONG and p.on_rob_kong
        )
        if burns:
            why = "热炮" if win.how is WinHow.DISCARD else "抢杠"
            ctx.burn(win.source, chickens=True, dou=DouBurn.ALL, why=why)
