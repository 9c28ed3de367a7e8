"""六安 extras (seed 003): 扔宝.

``reng_bao`` — seed 003 扔宝 b: "扔宝的玩家如果在当局游戏中胡牌了,则其它玩家要多付15嘴;如果是其它
玩家胡牌了,选择扔宝的玩家也要多付15嘴;扔宝的玩家如果被抢杠,多付的扔宝15嘴不算在*3的范围内".
"""

from __future__ import annotations

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import SEAT, Fact, fact
from zhuoji.rules.needs import Because, Set
from zhuoji.rules.registry import Params, Phase, Point, Words, register


class RengBaoParams(Params):
    value: int = Field(
        15,
        ge=0,
        le=1000,
        title="扔宝 value",
        description="嘴 paid to or by the player whose first discard was a wild",
    )


def reng_bao_words(item: str, f: Fact) -> Words | None:
    """「{seat}第一张打出宝牌（五万），他胡了：15」: the thrower (``seat``), the wild
    (``tiles``), whether he won (``kind``)."""
    wild = f.tiles[0] if f.tiles else None
    zh_tile = f"（{T.name(wild)}）" if wild is not None else ""
    en_tile = f" ({T.name_en(wild)})" if wild is not None else ""
    won = f.kind == "won"
    return Words(
        f"{SEAT}第一张打出宝牌{zh_tile}，" + ("他胡了" if won else "别人胡了") + f"：{f.fan}",
        f"{SEAT}'s first discard was the wild{en_tile}; "
        + ("he won" if won else "another player won")
        + f": {f.fan}",
        "扔宝：第一张就打出宝牌的人，胡了收、没胡赔",
        "the first discard was the wild: its thrower collects if he wins, else pays",
    )


@register(
    Point.SETTLE,
    "reng_bao",
    RengBaoParams,
    phase=Phase.SIDE,
    title="扔宝",
    labels={"zui.rengbao": ("扔宝", "first discard a wild")},
    words=reng_bao_words,
    needs={"": Because(Set("wild"), "the variant has no wild tiles (wild is null)")},
)
def settle_reng_bao(ctx: SettleContext, p: RengBaoParams) -> None:
    """扔宝 player wins: each other pays ``value``; another wins: he pays the winner ``value``."""
    end = ctx.end
    if end.wild is None or not end.wins:
        return
    firsts: dict[int, int] = {}
    for d in end.discards:
        firsts.setdefault(d.seat, d.tile)
    throwers = [s for s, t in sorted(firsts.items()) if t == end.wild]
    tiles = (end.wild,)
    for s in throwers:
        for win in end.wins:
            if win.seat == s:
                f = fact(seat=s, kind="won", tiles=tiles, fan=p.value)
                for other in ctx.others(s):
                    ctx.pay(other, s, p.value, "zui.rengbao", fact=f)
            else:
                f = fact(seat=s, kind="lost", tiles=tiles, fan=p.value)
                ctx.pay(s, win.seat, p.value, "zui.rengbao", fact=f)
