"""杀报 (``settle.shabao``): a declared (报听) player who is beaten pays the winner extra.

Sources: seed 000 胡牌算番规则 11) ("报听玩家需要给胡牌玩家十番的杀报番数,若该名玩家为自摸杀报,
则其他玩家只需要赔付相应的牌型基本番"); seed 001 (五)(3) ("天聽或者地聽的人放炮,需要在胡牌手中
牌型的基礎上加10倍低分"); seed 004 (三) ("当报听者点炮……或其他玩家自摸时……额外支付清一色10番").
"""

from __future__ import annotations

from typing import Final

from pydantic import Field

from zhuoji.contract.bound import BoundRules
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import SEAT, Fact, fact
from zhuoji.contract.pricing import NO_ENDS, Decision, Ends, Pricer
from zhuoji.outcome import Meld, WinHow
from zhuoji.rules.needs import DECLARING, WINS_ON_ANOTHERS_TILE, Because, Set, all_of
from zhuoji.rules.registry import Params, Phase, Point, Words, register


class ShabaoParams(Params):
    value: int = Field(
        10,
        ge=0,
        le=1000,
        title="杀报 value",
        description="the declared player pays the winner this",
    )
    on_discard: bool = Field(
        True,
        title="杀报 on a deal-in",
        description="when the declared player's discard (or robbed kong) is won on",
    )
    on_self_draw: bool = Field(
        True, title="杀报 on a self-draw", description="when another player self-draws"
    )
    others_on_discard: bool = Field(
        False,
        title="杀报 from every declared loser",
        description="on a win on a discard (or a robbed kong) every other declared player who "
        'did not win pays too, not only the discarder (CITIES.md 遵义, ZA: "every other declared '
        'non-winner also pays the winner 10")',
    )


#: how the declared player lost (``Fact.kind``), in words
_HOW = {
    "dealt_in": ("却点炮", " and dealt in"),
    "other_dealt_in": ("，别人点炮", "; another player dealt in"),
    "self_draw": ("，别人自摸", "; another player self-drew"),
}


def shabao_words(item: str, f: Fact) -> Words | None:
    """「{seat}报了听却点炮：10」: the declared seat (``seat``), how he lost (``kind``)."""
    zh, en = _HOW.get(f.kind or "", ("", ""))
    return Words(
        f"{SEAT}报了听{zh}：{f.fan}",
        f"{SEAT} had declared ready{en}: {f.fan}",
        "杀报：胡了报听的玩家，报听的人另赔",
        "beating a declared-ready player: he pays the winner extra",
    )


class ShabaoPricer(Pricer):
    """杀报 to a seat deciding, as :func:`settle_shabao` pays it: declared opponents owe its
    win ``value``, and once declared it owes another's win ``value`` — on its own deal-in,
    on a self-draw, and (``others_on_discard``, 遵义) on anyone's deal-in."""

    def __init__(self, p: ShabaoParams) -> None:
        self.value = p.value
        self.on_discard = p.on_discard
        self.on_self_draw = p.on_self_draw
        self.others_on_discard = p.on_discard and p.others_on_discard

    @classmethod
    def of(cls, p: ShabaoParams, rules: BoundRules) -> ShabaoPricer | None:
        """None where the variant has no 报听 (nobody is ever declared)."""
        return cls(p) if rules.variant.baoting is not None else None

    def dealt_in(self, declared: bool) -> float:
        return self.value if declared and self.on_discard else 0.0

    def decide(self, d: Decision) -> Pricer:
        return _ShabaoSeat(self, d)


class _ShabaoSeat(Pricer):
    """:class:`ShabaoPricer` for one decision: the declared opponents now, and the bot's
    share of other seats' wins that are self-draws."""

    def __init__(self, rule: ShabaoPricer, d: Decision) -> None:
        n = d.players
        declared = sum(1 for o in range(n) if o != d.seat and d.declared[o])
        self.self_draw_in = rule.value * declared if rule.on_self_draw else 0.0
        # a discard win: the discarder pays if declared, or every declared loser (遵义)
        per_disc = declared if rule.others_on_discard else declared / max(1, n - 1)
        self.discard_in = rule.value * per_disc if rule.on_discard else 0.0
        owes = 0.0
        if rule.on_self_draw:
            owes += rule.value * d.other_self_draw_share
        if rule.others_on_discard:  # another's deal-in costs this declared seat too (遵义)
            owes += rule.value * (1.0 - d.other_self_draw_share)
        self.owes_ends: Ends = (0.0, -owes, -owes, 0.0, 0.0)
        self.owes = rule.on_self_draw or rule.others_on_discard

    def win_values(self, fan_sd: int, fan_disc: int, declared: bool) -> tuple[float, float]:
        return self.self_draw_in, self.discard_in

    def owed(self, melds: tuple[Meld, ...], declared: bool) -> Ends:
        return self.owes_ends if declared and self.owes else NO_ENDS


# a win's kinds as module constants (read off their class, each goes through the enum type's
# ``__getattr__``: 杀报 asks them for every seat of every win; issue 29)
_SELF_DRAW: Final = WinHow.SELF_DRAW
_ON_TILE: Final = (WinHow.DISCARD, WinHow.ROB_KONG)


@register(
    Point.SETTLE,
    "shabao",
    ShabaoParams,
    phase=Phase.WIN_EXTRA,
    title="杀报",
    labels={"shabao": ("杀报", "beating a declared player")},
    words=shabao_words,
    needs={
        "": DECLARING,
        "on_discard": WINS_ON_ANOTHERS_TILE,
        "others_on_discard": all_of(
            WINS_ON_ANOTHERS_TILE,
            Because(Set("settle:shabao.on_discard"), "settle.shabao.on_discard is off"),
        ),
    },
    pricer=ShabaoPricer.of,
)
def settle_shabao(ctx: SettleContext, p: ShabaoParams) -> None:
    """Each declared loser pays each winner ``value`` (once per win); a declared winner of the
    same discard is no loser."""
    end = ctx.end
    winners = {w.seat for w in end.wins}
    for win in end.wins:
        if win.seat in ctx.void_wins:
            continue
        on_tile = win.how in _ON_TILE
        for s, seat in enumerate(end.seats):
            if s in winners or seat.declared is None:
                continue
            dealt_in = on_tile and win.source == s
            by_other = on_tile and not dealt_in and p.others_on_discard
            if ((dealt_in or by_other) and p.on_discard) or (
                win.how is _SELF_DRAW and p.on_self_draw
            ):
                how = "dealt_in" if dealt_in else "other_dealt_in" if by_other else "self_draw"
                f = fact(seat=s, kind=how, fan=p.value)
                ctx.pay(s, win.seat, p.value, "shabao", fact=f)
