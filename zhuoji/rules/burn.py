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

from zhuoji import tiles as T
from zhuoji.contract.context import DouBurn, SettleContext
from zhuoji.contract.ledger import SEAT, Fact
from zhuoji.outcome import Win, WinHow
from zhuoji.rules.needs import ROBBING, WINS_ON_DISCARD
from zhuoji.rules.registry import Params, Phase, Point, Words, register


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


#: why a player was burnt (the ``why`` of :meth:`SettleContext.burn`, ``Fact.kind``)
_WHY = {
    "repao": ("点了热炮", "dealt a discard after a kong that was won on"),
    "rob_kong": ("被抢杠", "had his kong robbed"),
    "xianggong": ("相公（手牌张数不对）", "had a wrong tile count"),
}


def burn_words(item: str, f: Fact) -> Words | None:
    """A burnt player's remark (item ``burn``): who (``seat``), why (``kind``), what he lost
    (``tags``: chickens, every dou, or the kong of ``tiles``)."""
    if item != "burn":
        return None
    why_zh, why_en = _WHY.get(f.kind or "", ("", ""))
    lost_zh, lost_en = [], []
    if "chickens" in f.tags:
        lost_zh.append("鸡")
        lost_en.append("his chickens")
    if "dou" in f.tags:
        lost_zh.append("所有的豆")
        lost_en.append("every kong")
    if "kong" in f.tags:
        tile = f.tiles[0] if f.tiles else None
        lost_zh.append(f"{T.name(tile)}的杠" if tile is not None else "那个杠")
        lost_en.append(f"the kong of {T.name_en(tile)}" if tile is not None else "that kong")
    return Words(
        f"{SEAT}{why_zh}，{'和'.join(lost_zh)}不算分，该赔的照赔",
        f"{SEAT} {why_en}, so {' and '.join(lost_en)} "
        + ("scores" if len(lost_en) == 1 and "kong" in f.tags else "score")
        + " nothing; he still pays what he owes",
        "烧",
        "burnt",
    )


@register(
    Point.SETTLE,
    "burn",
    BurnParams,
    phase=Phase.BURN,
    title="烧",
    labels={"burn": ("烧", "burnt")},
    needs={"repao": WINS_ON_DISCARD, "rob_kong": ROBBING},
    words=burn_words,
)
def settle_burn(ctx: SettleContext, p: BurnParams) -> None:
    """Mark what burnt players lose (no ledger entries of its own)."""
    for win in ctx.end.wins:
        if win.source is None:
            continue
        if win.how is WinHow.DISCARD and ctx.end.repao:
            parts, why = p.repao, "repao"
        elif win.how is WinHow.ROB_KONG:
            parts, why = p.rob_kong, "rob_kong"
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
