"""烧 (``settle.burn``): the 热炮 discarder's or the robbed player's chickens and dou are void.

Sources: seed 001 (四)(1)(2) ("手中的雞和豆全部燒掉,需倒賠的英雄雞、責任雞仍然生效"); seed 004
(4) ("烧光:热炮或抢杠和时,点热炮或被抢杠玩家的鸡和豆都不计分(即一烧全烧)"); CITIES.md 贵阳
common, 热炮 ("QQ: that kong void …", i.e. only the kong cancelled) and 独山 burn ("热炮
discarder and robbed player: chickens and kongs void, still pay").

Who is burnt (the 热炮 discarder, the robbed player) and what he loses (his chickens; his
kongs: none, only the kong behind the 热炮, or all) are parameters; the chickens and dou
stages ask :meth:`SettleContext.chickens_burnt` and :meth:`SettleContext.kong_burnt`.  A
burnt player still owes his penalties.

QQ's 热炮 (CITIES.md 贵阳 common: "QQ: that kong void and paid to the winner as its dou kind
(闷6/转弯3/点1 after ÷10) plus the discard payment"; FW ``clacRePao`` pays the same three
items, an exposed kong once and the others × (players − 1)) is ``kong_to_winner``: the kong
behind the 热炮 scores nothing for its owner, who pays each winner of the discard what it
would have collected (:func:`zhuoji.rules.dou.kong_collects`, the ``dou`` stage's values).
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.bound import BoundRules
from zhuoji.contract.checks import Problem
from zhuoji.contract.context import DouBurn, SettleContext
from zhuoji.contract.ledger import PAYEE, SEAT, Fact, fact
from zhuoji.contract.pricing import CHICKENS, DOU, Pricer
from zhuoji.outcome import Meld, MeldKind, RoundEnd, Win, WinHow
from zhuoji.rules.dou import DouParams, kong_collects
from zhuoji.rules.needs import ROBBING, WINS_ON_DISCARD, Because, IsNot, Set, all_of
from zhuoji.rules.registry import Params, Phase, Point, Words, register

# a win's kinds as module constants (read off their class, each goes through the enum type's
# ``__getattr__``: the stage asks them of every win; issue 29)
_DISCARD: Final = WinHow.DISCARD
_ROB_KONG: Final = WinHow.ROB_KONG


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


class RepaoBurn(BurnParts):
    """What the player who dealt a 热炮 loses; QQ also pays the kong behind it to the winner
    (a robbed kong was never made, seed 000 16) 「点炮玩家的转弯豆不成立」: nothing to pay)."""

    kong_to_winner: bool = Field(
        False,
        title="burnt kong paid to the winner",
        description="the kong behind it (void by dou: kong or all) is paid to the winner "
        "instead: its owner pays each winner what it would have collected as its dou kind "
        "(QQ 热炮 「that kong void and paid to the winner as its dou kind (闷6/转弯3/点1 after "
        "÷10)」, CITIES.md 贵阳 common; FW clacRePao); false (the default): it is only void",
    )


class BurnParams(Params):
    repao: RepaoBurn | None = Field(
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

#: the ledger item of a burnt kong paid to the winner (``kong_to_winner``)
KONG_TO_WINNER = "burn.kong"
_KONG_KIND = {
    MeldKind.GANG_CONCEALED.value: ("闷豆", "concealed kong"),
    MeldKind.GANG_EXPOSED.value: ("点豆", "kong on a discard"),
    MeldKind.GANG_ADDED.value: ("转弯豆", "added kong"),
}


def burn_words(item: str, f: Fact) -> Words | None:
    """A burnt player's remark (item ``burn``): who (``seat``), why (``kind``), what he lost
    (``tags``: chickens, every dou, or the kong of ``tiles``); a burnt kong paid to the winner
    (item ``burn.kong``: the kong's ``tiles``, its kind ``kind``, ``fan`` what it would have
    collected, ``count`` from how many, ``each`` from each)."""
    if item == KONG_TO_WINNER:
        return _kong_to_winner_words(f)
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


def _kong_to_winner_words(f: Fact) -> Words:
    tile = f.tiles[0] if f.tiles else None
    kind_zh, kind_en = _KONG_KIND.get(f.kind or "", ("杠", "kong"))
    zh = f"{T.name(tile)}的{kind_zh}" if tile is not None else kind_zh
    en = f"his {kind_en} of {T.name_en(tile)}" if tile is not None else f"his {kind_en}"
    if f.count is not None and f.count > 1 and f.each is not None:
        zh, en = f"{zh} {f.each}×{f.count}", f"{en}, {f.each} × {f.count}"
    else:
        zh, en = f"{zh} {f.fan}", f"{en}, {f.fan}"
    return Words(
        f"{SEAT}点了热炮，{zh}不算，按豆赔给{PAYEE}",
        f"{SEAT} dealt a discard after a kong that was won on: {en}, is void and paid to {PAYEE}",
        "热炮：那个杠作废，按豆的种类赔给胡牌的人",
        "hot discard: the kong behind it is void and paid to the winner as its kind of kong",
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

    @classmethod
    def of(cls, p: BurnParams, rules: BoundRules) -> BurnPricer:
        """The pricer of these parameters: with ``repao.kong_to_winner``, one that also
        prices the kong a 热炮 deal-in pays (:class:`RepaoKongPricer`)."""
        value = repao_kong_value(p, rules)
        return RepaoKongPricer(p, rules, value) if value else cls(p, rules)


class RepaoKongPricer(BurnPricer):
    """:class:`BurnPricer` where the 热炮 discarder also pays the winner the kong behind it
    (``kong_to_winner``): a deal-in's share grows by ``value``."""

    def __init__(self, p: BurnParams, rules: BoundRules, value: float) -> None:
        super().__init__(p, rules)
        self.value = value

    def share(
        self,
        fan: int,
        *,
        self_draw: bool,
        winner_dealer: bool,
        payer_dealer: bool,
        streak: int,
        repao: bool = False,
    ) -> float:
        return self.value if repao else 0.0


def repao_kong_value(p: BurnParams, rules: BoundRules) -> float:
    """What a 热炮 deal-in pays the winner for the kong behind it (``kong_to_winner``), as a
    bot prices it before it knows which kong: the mean of the three kinds' collections under
    the ``dou`` stage's values; 0 when off, when the 热炮 voids no kong, or with no dou stage."""
    dou = dou_params(rules)
    if p.repao is None or not p.repao.kong_to_winner or p.repao.dou == "none" or dou is None:
        return 0.0
    others = rules.players - 1
    kinds = (MeldKind.GANG_CONCEALED, MeldKind.GANG_EXPOSED, MeldKind.GANG_ADDED)
    values = [kong_collects(dou, Meld(k, 0), others) for k in kinds]
    return sum(values) / len(values)


def dou_params(rules: BoundRules) -> DouParams | None:
    """The parameters of the variant's ``dou`` stage (None: it has none)."""
    for bound in rules.stages:
        if bound.hook.id == "dou" and isinstance(bound.params, DouParams):
            return bound.params
    return None


def kong_named(end: RoundEnd, rules: BoundRules, p: BurnParams) -> list[Problem]:
    """``kong_to_winner`` pays one kong, the one behind the 热炮: a 热炮 whose discarder owns
    more than one kong must name it in ``kong_tile`` (a file that leaves it out could be paid
    for a kong that made no 热炮)."""
    parts = p.repao
    if parts is None or not parts.kong_to_winner or not end.repao or end.kong_tile is not None:
        return []
    for win in end.wins:
        if win.how is not WinHow.DISCARD or win.source is None:
            continue
        kongs = [m for m in end.seats[win.source].melds if m.is_kong]
        if len(kongs) > 1:
            return [
                Problem(
                    "result.kong_tile",
                    "settle.burn.repao.kong_to_winner: true",
                    f"the 热炮 discarder (seat {win.source}) owns {len(kongs)} kongs: name the "
                    "one behind the 热炮, as it is paid to the winner",
                    "CITIES.md 热炮 「QQ: that kong void and paid to the winner as its dou kind」",
                )
            ]
    return []


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
    needs={
        "repao": WINS_ON_DISCARD,
        "rob_kong": ROBBING,
        "repao.kong_to_winner": all_of(
            Because(
                IsNot("settle:burn.repao.dou", "none"),
                "the 热炮 voids no kong (settle.burn.repao.dou: none)",
            ),
            Because(Set("settle:dou"), "the variant has no dou stage (settle.dou)"),
        ),
    },
    words=burn_words,
    pricer=BurnPricer.of,
    labels={
        "burn": ("烧", "burnt"),
        KONG_TO_WINNER: ("热炮赔杠", "kong paid to the hot-discard winner"),
    },
    checks=(kong_named,),
)
def settle_burn(ctx: SettleContext, p: BurnParams) -> None:
    """Mark what burnt players lose; with ``repao.kong_to_winner`` the 热炮 discarder pays
    each winner the kong behind it (item ``burn.kong``)."""
    for win in ctx.end.wins:
        if win.source is None:
            continue
        parts: BurnParts | None
        if win.how is _DISCARD and ctx.end.repao:
            parts, why = p.repao, "repao"
        elif win.how is _ROB_KONG:
            parts, why = p.rob_kong, "rob_kong"
        else:
            continue
        if parts is not None:
            kong_tile = _kong_behind(ctx, win)
            ctx.burn(
                win.source,
                chickens=parts.chickens,
                dou=DouBurn(parts.dou),
                kong_tile=kong_tile,
                why=why,
            )
            to_winner = isinstance(parts, RepaoBurn) and parts.kong_to_winner
            if to_winner and parts.dou != "none" and kong_tile is not None:
                _pay_kong_to_winner(ctx, win, kong_tile)


def _pay_kong_to_winner(ctx: SettleContext, win: Win, kong_tile: int) -> None:
    """The burnt player pays the winner what his kong of ``kong_tile`` would have collected
    (QQ 热炮, ``kong_to_winner``)."""
    assert win.source is not None
    dou = dou_params(ctx.ruleset)
    meld = next(
        (m for m in ctx.end.seats[win.source].melds if m.is_kong and m.tile == kong_tile), None
    )
    if dou is None or meld is None:
        return
    value = kong_collects(dou, meld, ctx.players - 1)
    if not value:
        return
    each = kong_collects(dou, meld, 1)  # from one payer: the feeder's, or each other's
    count = value // each
    f = fact(
        tiles=(kong_tile,),
        kind=meld.kind.value,
        fan=value,
        count=count if count > 1 else None,
        each=each if count > 1 else None,
        seat=win.source,
    )
    ctx.pay(win.source, win.seat, value, KONG_TO_WINNER, fact=f)


def _kong_behind(ctx: SettleContext, win: Win) -> int | None:
    """The kong that made the 热炮 (or was robbed): the round's kong tile when it is the
    burnt player's, else his latest kong."""
    assert win.source is not None
    kongs = [m.tile for m in ctx.end.seats[win.source].melds if m.is_kong]
    if ctx.end.kong_tile is not None and (ctx.end.kong_tile in kongs or win.how is _ROB_KONG):
        return ctx.end.kong_tile
    return kongs[-1] if kongs else None
