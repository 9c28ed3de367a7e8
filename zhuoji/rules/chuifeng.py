"""吹风鸡, FW's reading (``settle.chuifeng``): an after-win reveal of a 吹风 tile voids the round.

CITIES.md 吹风鸡 「reveal is 5筒: FW — every chicken, kong, win and liability of the round void,
next round, dealer stays; GA — only chicken scoring skipped **[!]**」.  GA's reading is the
chickens stage's ``settle.chickens.chuifeng`` (no chickens, the rest paid); this stage is
FW's: when the tile revealed after the win is one of ``tiles``, every payment of the round —
the win, 杀报, chickens (冲锋/责任/包鸡 included), kongs, liabilities, side payments — stays on
record, void, with one remark saying why, and the dealer deals again.  His streak stays as
it was (``streak: same``: the round is replayed, not won or drawn — a reading, as FW gives
no number); ``streak: plus_one`` counts it as a kept deal (连庄, as after a draw the dealer
keeps).

The stage runs last (phase ``draw``, after every stage that pays on a win).  A bot's choices
do not move the chance of the reveal, and the void scales every end of the round alike, so
the rule changes no decision's ranking: it registers no pricer.  It forbids nothing.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import Fact, Remark, fact
from zhuoji.rules.needs import Because, IsNot
from zhuoji.rules.registry import Params, Phase, Point, Words, register

Tile = Annotated[str, Field(pattern="^([1-9][msp]|[1-7]z)$")]
ITEM = "chuifeng"


class ChuifengParams(Params):
    tiles: list[Tile] = Field(
        min_length=1,
        description="the after-win revealed tiles that void the round (五筒, CITIES.md 吹风鸡)",
    )
    streak: Literal["same", "plus_one"] = Field(
        "same",
        title="streak after 吹风",
        description="the dealer deals again with his streak as it was (same: the round is "
        "replayed), or one longer (plus_one: counted as a kept deal); FW says only 「dealer "
        "stays」, so either is a reading",
    )


def chuifeng_words(item: str, f: Fact) -> Words | None:
    """The void round: the revealed tile (``tiles``), how many payments it voided (``count``)."""
    tile = f.tiles[0] if f.tiles else None
    zh_tile = T.name(tile) if tile is not None else "吹风牌"
    en_tile = T.name_en(tile) if tile is not None else "a wind-blowing tile"
    return Words(
        f"翻出{zh_tile}（吹风鸡）：本局{f.count}笔输赢全部作废，庄家不变",
        f"{en_tile} revealed (wind-blown chicken): all {f.count} payments of the round void, "
        "the dealer stays",
        "吹风鸡：胡牌后翻出吹风牌，本局胡牌、豆、鸡、包付全部作废，下局庄家不变",
        "wind-blown chicken: a wind-blowing tile revealed after the win voids the round's win, "
        "kongs, chickens and liabilities, and the dealer deals again",
    )


def _kinds(tiles: list[str]) -> frozenset[int]:
    return frozenset(T.parse_one(t) for t in tiles)


@register(
    Point.SETTLE,
    "chuifeng",
    ChuifengParams,
    phase=Phase.DRAW,
    title="吹风鸡（作废）",
    labels={ITEM: ("吹风鸡", "wind-blown reveal: round void")},
    words=chuifeng_words,
    needs={"": Because(IsNot("deal.reveal", "none"), "no tile is revealed after a win")},
)
def settle_chuifeng(ctx: SettleContext, p: ChuifengParams) -> None:
    """A 吹风 tile revealed after the win: every payment so far is void, the dealer stays."""
    end = ctx.end
    revealed = end.reveal
    if end.is_draw or revealed is None or revealed not in _kinds(p.tiles):
        return
    live = [i for i, e in enumerate(ctx.ledger.record) if e.void is None]
    reason = Remark(ctx.rule, ITEM, fact(kind="chuifeng", tiles=(revealed,), count=len(live)))
    ctx.ledger.void(live, by=reason)
    ctx.ledger.remarks.append(reason)
    ctx.next_dealer = (end.dealer, end.streak + (1 if p.streak == "plus_one" else 0))
