"""定缺 settlement after a draw: 查花猪 (``settle.huazhu``) and 查大叫 (``settle.dajiao``).

The Guizhou texts name 花猪 and 查缺 but give no value (CITIES.md "捉鸡 with 定缺": 花猪 "value
not found in a Guizhou text"; 三丁拐: 查缺 "pays the others per tile (value not found)";
FW idx 22 "查缺不查叫").  Both come from Sichuan 血战 rules, where 定缺 originates; the values
and who pays whom are read from a public implementation of them, guogeer/gofishing-game
``games/migrate/mahjong/sichuan.go`` ``Award()``:

* 查花猪: a player still holding a tile of his void suit (``HasColor(handCards,
  discardColor)``) pays every other player who is no 花猪 ``times := 16`` base units (capped
  by the room's limit);
* 查大叫: every other non-winner who is no 花猪 and not ready (``CheckWin()`` empty) pays
  every ready one the largest value that player waits on (``maxPoints``); a 花猪 neither
  pays nor collects it.

Both run only after a draw (荒庄): in 血战 play goes on until the wall is empty, which in a
round that ends at its first win is exactly a draw (a reading).  FW's 查缺 (``chaQue``,
CITIES.md 三丁拐 "a player still holding his void suit at the end pays the others per tile")
runs at the end of every round, won or drawn, and pays only the players ``getBeiBaoQueId``
names — those ready and not burnt (``getTingAndNoshaoJiId``): ``huazhu.after_wins`` and
``huazhu.payees: ready``.  A variant with 定缺 lists
``dajiao`` instead of ``chajiao`` (which would charge a 花猪 twice); leaving ``dajiao`` out is
FW's 查缺不查叫.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import Fact, fact
from zhuoji.contract.pricing import Pricer
from zhuoji.rules.drawgame import ReadyCheckPricer, pay_waiting_values, ready_value_words
from zhuoji.rules.registry import Params, Phase, Point, Words, register


class HuazhuParams(Params):
    value: int = Field(
        16,
        ge=0,
        le=1000,
        title="查花猪 value",
        description="what a 花猪 pays every player who is no 花猪 (gofishing-game sichuan.go: "
        "16; no Guizhou text gives one)",
    )
    per_tile: bool = Field(
        False,
        title="查花猪 per tile",
        description="the value is paid once per void-suit tile still held (FW chaQue 查缺 "
        '"pays the others per tile", CITIES.md 三丁拐)',
    )
    after_wins: bool = Field(
        False,
        title="查缺 after wins",
        description="a 花猪 pays after a won round too, not only after a draw (FW chaQue runs "
        "at the end of every round, CITIES.md 三丁拐 查缺 「at the end」); false: after a draw only",
    )
    payees: Literal["others", "ready"] = Field(
        "others",
        title="查花猪 payees",
        description="others: every player who is no 花猪 (gofishing-game sichuan.go); ready: "
        "only those ready (winners included) and not burnt (FW chaQue getBeiBaoQueId)",
    )


def huazhu_words(item: str, f: Fact) -> Words | None:
    """A 花猪's payment: how many tiles of which void suit (``count``, ``kind`` the suit
    letter), per tile (``each``) or once (``fan``); the remark that every hand was clear."""
    if f.kind == "clear":
        return Words("每家都没有定缺那门的牌", "every hand is clear of its void suit", "", "")
    suit = T.SUIT_LETTERS.index(f.kind) if f.kind and f.kind in T.SUIT_LETTERS else None
    zh_suit = T.suit_name(suit) if suit is not None else ""
    en_suit = T.suit_name_en(suit) if suit is not None else ""
    each_zh = f"，每张{f.each}" if f.each is not None else ""
    each_en = f", {f.each} each" if f.each is not None else ""
    if "after_win" in f.tags:
        rule_zh, rule_en = (
            "查缺：一局结束时手里还有定缺那门牌的玩家要赔",
            "at the end of the round, a hand still holding its void suit pays",
        )
    else:
        rule_zh, rule_en = (
            "查花猪：荒庄时手里还有定缺那门牌的玩家要赔",
            "after a draw, a hand still holding its void suit pays",
        )
    to_zh, to_en = (
        ("（只赔听牌的人）", " (to ready players only)") if "ready" in f.tags else ("", "")
    )
    return Words(
        f"手里还有{f.count}张{zh_suit}{each_zh}{to_zh}",
        f"still holds {f.count} {en_suit}{each_en}{to_en}",
        rule_zh,
        rule_en,
    )


@register(
    Point.SETTLE,
    "huazhu",
    HuazhuParams,
    phase=Phase.DRAW,
    title="查花猪",
    labels={"huazhu": ("查花猪", "void suit still held at the end")},
    words=huazhu_words,
)
def settle_huazhu(ctx: SettleContext, p: HuazhuParams) -> None:
    """After a draw (and, with ``after_wins``, after a win), each 花猪 (a hand still holding
    its 定缺 suit) pays each other player who is no 花猪 (``payees: ready``: each ready one
    not burnt)."""
    end = ctx.end
    if not end.is_draw and not p.after_wins:
        return
    held = [seat.void_tiles() for seat in end.seats]
    if p.payees == "ready":
        paid = [ctx.ready[s] and not ctx.chickens_burnt(s) for s in range(ctx.players)]
    else:
        paid = [not n for n in held]
    tags = (*(() if end.is_draw else ("after_win",)), *(("ready",) if p.payees == "ready" else ()))
    for pig, n in enumerate(held):
        if not n:
            continue
        suit = end.seats[pig].void_suit
        assert suit is not None
        amount = p.value * (n if p.per_tile else 1)
        f = fact(
            seat=pig,
            count=n,
            kind=T.SUIT_LETTERS[suit],
            fan=amount,
            each=p.value if p.per_tile else None,
            tags=tags,
        )
        for other in ctx.others(pig):
            if paid[other] and not held[other]:
                ctx.pay(pig, other, amount, "huazhu", fact=f)
    if not any(held) and any(seat.void_suit is not None for seat in end.seats):
        ctx.remark("huazhu", fact(kind="clear"))


class DajiaoParams(Params):
    extra: int = Field(
        0,
        ge=0,
        le=1000,
        title="查大叫 extra",
        description="added to each ready player's largest waiting value (as chajiao.extra)",
    )


def dajiao_words(item: str, f: Fact) -> Words | None:
    """查大叫's entries (a ready player's largest value) and its no-payment remarks."""
    if f.kind == "nobody_ready":
        return Words("荒庄，没人听牌，不用赔", "drawn round: nobody is ready, no payment", "", "")
    if f.kind == "no_payer":
        return Words("荒庄，没有该赔的人", "drawn round: nobody has to pay", "", "")
    zh, en = ready_value_words(f)
    return Words(
        zh,
        en,
        "查大叫：荒庄时没听牌的玩家按听牌玩家的最大番赔",
        "after a draw, players not ready pay ready ones their largest value",
    )


def _dajiao_pricer(p: DajiaoParams, rules: object) -> Pricer:
    """查大叫 priced as 查叫 (the bot never stays a 花猪, so it pays or collects it)."""
    return ReadyCheckPricer(p.extra)


@register(
    Point.SETTLE,
    "dajiao",
    DajiaoParams,
    phase=Phase.DRAW,
    title="查大叫",
    labels={"dajiao": ("查大叫", "ready check after a draw (void suits)")},
    words=dajiao_words,
    pricer=_dajiao_pricer,
)
def settle_dajiao(ctx: SettleContext, p: DajiaoParams) -> None:
    """After a draw, each player who is neither ready nor a 花猪 pays each ready player the
    largest value that player waits on."""
    end = ctx.end
    if not end.is_draw:
        return
    unready = [s for s in range(ctx.players) if not ctx.ready[s] and not end.seats[s].void_tiles()]
    if not unready or all(not r for r in ctx.ready):
        ctx.remark("dajiao", fact(kind="nobody_ready" if unready else "no_payer"))
        return
    pay_waiting_values(ctx, unready, p.extra, "dajiao")
