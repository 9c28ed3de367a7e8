"""Dou — kongs (``settle.dou``): 闷豆, 点豆, 转弯豆, 憨包豆, 见豆三.

Sources: seed 000 特殊玩法规则 12)–14) (点豆 1 from the feeder, 闷豆 2 and 转弯豆 1 from each
other player) and 17) (黄庄: "所有的豆都不会再计算"); seed 001 豆 (闷豆 3 or 2, 转弯豆 3,
点豆 1, 见豆三, 憨包豆 "沒有倍數,只有通行證", "得豆的玩家必須聽牌或胡牌才能獲得豆應得相應分數");
seed 004 豆 (点 1, 闷 2, 转弯 3; a kong not made when first possible scores nothing later).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import Fact, fact
from zhuoji.outcome import MeldKind
from zhuoji.rules.needs import KONGS, Because, IsNot, Set, all_of
from zhuoji.rules.registry import Params, Phase, Point, Words, register
from zhuoji.tiles import TILE_PATTERN, parse_one

Tile = Annotated[str, Field(pattern=TILE_PATTERN)]


class DouValues(Params):
    concealed: int = Field(
        2, ge=0, le=1000, title="闷豆 value", description="from each other player"
    )
    exposed: int = Field(
        1, ge=0, le=1000, title="点豆 value", description="from the feeder (see exposed_paid_by)"
    )
    added: int = Field(1, ge=0, le=1000, title="转弯豆 value", description="from each other player")


class DouParams(Params):
    values: DouValues = Field(
        default_factory=DouValues, title="dou values", description="what each kong kind pays"
    )
    jiandousan: bool = Field(
        False,
        title="见豆三",
        description="every kind of dou pays jiandousan_value (seed 001 见豆三)",
    )
    jiandousan_value: int = Field(
        3,
        ge=0,
        le=1000,
        title="见豆三 value",
        description="what every dou pays when jiandousan is on",
    )
    exposed_paid_by: Literal["feeder", "all", "konger"] = Field(
        "feeder",
        title="点豆 paid by",
        description="feeder: the discarder pays the konger; all: every other player; "
        "konger: the konger pays the feeder",
    )
    requires_ready: Literal["none", "at_end", "ever"] = Field(
        "at_end",
        title="dou needs 叫",
        description="a kong scores only if its owner is ready or wins at the end (seed 001), was ever ready, or always",
    )
    unready_pays: bool = Field(
        False,
        title="unready konger pays (包杠)",
        description="a kong that does not score (its owner not ready) is paid the other way: "
        "the konger pays those who would have paid him (包杠, CITIES.md 独山 / 黔西)",
    )
    unready_pays_to: Literal["all", "ready"] = Field(
        "all",
        title="包杠 payees",
        description="with unready_pays: all — every player who would have paid him, ready or "
        "not (CITIES.md 黔西/金沙 BaoKongNeedTing=false); ready — only those who are ready",
    )
    unready_pays_tiles: list[Tile] | None = Field(
        None,
        title="包杠 tiles",
        description="with unready_pays: only kongs of these tiles are paid back (包杠幺鸡: "
        "[1s], CITIES.md 毕节, FW EnableBaoKongBam1); null: every kong",
    )
    late_value: int = Field(
        0,
        ge=0,
        le=1000,
        title="憨包豆 value",
        description="a late kong's value from each other player (0: pass only)",
    )
    void_on_draw: bool = Field(
        True, title="void on draw", description="no dou scores when nobody wins (黄庄)"
    )


_ITEMS = {
    MeldKind.GANG_CONCEALED: "dou.men",
    MeldKind.GANG_EXPOSED: "dou.dian",
    MeldKind.GANG_ADDED: "dou.zhuanwan",
}


LABELS = {
    "dou.men": ("闷豆", "concealed kong"),
    "dou.dian": ("点豆", "kong on a discard"),
    "dou.zhuanwan": ("转弯豆", "added kong"),
    "dou.hanbao": ("憨包豆", "late kong"),
}


_NOT_JIANDOUSAN = Because(
    IsNot("settle:dou.jiandousan", True), "见豆三 sets every value (settle.dou.jiandousan)"
)
_EXPOSED = Because(Set("claims.kongs.exposed"), "no kong on a discard (claims.kongs.exposed)")
NEEDS = {
    "": KONGS,
    "values.concealed": all_of(
        Because(Set("claims.kongs.concealed"), "no concealed kong (claims.kongs.concealed)"),
        _NOT_JIANDOUSAN,
    ),
    "values.exposed": all_of(_EXPOSED, _NOT_JIANDOUSAN),
    "values.added": all_of(
        Because(Set("claims.kongs.added"), "no added kong (claims.kongs.added)"), _NOT_JIANDOUSAN
    ),
    "exposed_paid_by": _EXPOSED,
    "jiandousan_value": Because(Set("settle:dou.jiandousan"), "settle.dou.jiandousan is off"),
    "unready_pays": Because(
        IsNot("settle:dou.requires_ready", "none"),
        "every kong scores, ready or not (settle.dou.requires_ready: none)",
    ),
    "unready_pays_to": Because(Set("settle:dou.unready_pays"), "settle.dou.unready_pays is off"),
    "unready_pays_tiles": Because(Set("settle:dou.unready_pays"), "settle.dou.unready_pays is off"),
}


#: each dou item's rule in a sentence
_RULES = {
    "dou.men": (
        "闷豆：暗杠，四张都是自己摸的",
        "concealed kong: all four tiles drawn by its owner",
    ),
    "dou.dian": ("点豆：杠别人打出的牌", "kong on another player's discard"),
    "dou.zhuanwan": (
        "转弯豆：碰了以后又摸到第四张补杠",
        "added kong: the fourth tile added to a pung",
    ),
    "dou.hanbao": ("憨包豆：能杠时没杠，后来才杠", "late kong: not made when it first could be"),
}


def dou_words(item: str, f: Fact) -> Words | None:
    """A kong's payment: its tile (``tiles``), kind (``kind``: the meld kind), value
    (``fan``); tags ``jiandousan`` (every dou the same value), ``konger_pays`` (the konger
    pays the feeder), ``back`` (its owner was not ready: paid the other way)."""
    rule = _RULES.get(item)
    if rule is None:
        return None
    tile = f.tiles[0] if f.tiles else None
    zh = f"{T.name(tile)}的杠 {f.fan}" if tile is not None else f"{f.fan}"
    en = f"kong of {T.name_en(tile)} {f.fan}" if tile is not None else f"{f.fan}"
    if "jiandousan" in f.tags:
        zh, en = f"{zh}（见豆三：每种豆都算{f.fan}）", f"{en} (every kind of kong counts {f.fan})"
    if "konger_pays" in f.tags:
        zh, en = f"{zh}，杠的人付给点杠的人", f"{en}; the konger pays the discarder"
    if "back" in f.tags:
        zh, en = f"{zh}，杠的人没叫嘴，反赔", f"{en}; its owner was not ready: he pays it back"
    return Words(zh, en, *rule)


@register(
    Point.SETTLE,
    "dou",
    DouParams,
    phase=Phase.DOU,
    title="豆",
    labels=LABELS,
    needs=NEEDS,
    words=dou_words,
)
def settle_dou(ctx: SettleContext, p: DouParams) -> None:
    """Pay each kong by kind; late kongs (憨包) at ``late_value``; burnt owners' kongs void."""
    end = ctx.end
    if end.is_draw and p.void_on_draw:
        return
    pays_back = (
        None if p.unready_pays_tiles is None else {parse_one(t) for t in p.unready_pays_tiles}
    )
    for s, seat in enumerate(end.seats):
        for meld in seat.melds:
            if not meld.is_kong:
                continue
            if ctx.kong_burnt(s, meld):
                continue
            scores = {
                "none": True,
                "at_end": ctx.ready[s],
                "ever": ctx.ready[s] or seat.ever_ready,
            }[p.requires_ready]
            if not scores and not (
                p.unready_pays and (pays_back is None or meld.tile in pays_back)
            ):
                continue
            item = _ITEMS[meld.kind]
            if meld.late:
                value, item = p.late_value, "dou.hanbao"
            elif p.jiandousan:
                value = p.jiandousan_value
            else:
                value = {
                    MeldKind.GANG_CONCEALED: p.values.concealed,
                    MeldKind.GANG_EXPOSED: p.values.exposed,
                    MeldKind.GANG_ADDED: p.values.added,
                }[meld.kind]
            if not value:
                continue
            if meld.kind is MeldKind.GANG_EXPOSED and not meld.late and p.exposed_paid_by != "all":
                assert meld.source is not None
                pairs = [(meld.source, s)] if p.exposed_paid_by == "feeder" else [(s, meld.source)]
            else:
                pairs = [(o, s) for o in ctx.others(s)]
            tags = (
                *(("jiandousan",) if p.jiandousan and not meld.late else ()),
                *(("konger_pays",) if pairs and pairs[0][0] == s else ()),
                *(() if scores else ("back",)),
            )
            f = fact(tiles=(meld.tile,), kind=meld.kind.value, fan=value, seat=s, tags=tags)
            for payer, payee in pairs:
                if scores:
                    ctx.pay(payer, payee, value, item, fact=f)
                elif p.unready_pays_to == "all" or ctx.ready[payer]:
                    ctx.pay(payee, payer, value, item, fact=f)
