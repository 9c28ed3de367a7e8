"""补花鸡 / 红花 (``settle.flowers``): each flower a player set aside is one of his chickens.

Source: CITIES.md 黔西 tiles 「**112**: 108 + 4 extra tiles (``MahjongCards112_FLOWER``); the
server has 补花 and a 红花 chicken item, so probably flower tiles drawn and replaced (inf.)」.
The wall and the set-aside flowers are the engine's (``tiles.flowers``: a drawn flower is set
aside face up and replaced, at the deal too, :mod:`zhuoji.round_deal`, :mod:`zhuoji.round_turn`);
this stage pays the 红花 chicken item.  FW gives switches, not numbers (CITIES.md source key:
"Score tables (config.XX_SCORE) were not found"), so ``value`` is a reading: 1, a plain
chicken's value (guiyang's 常鸡 幺鸡, seed 000 ⑤, 1 from each other player: the RULES.md
reading of seed 001 一(1)), the chickens' unit.

Who collects and who pays are the chickens stage's (:mod:`zhuoji.rules.chickens`): a flower
is paid as the holder's other chickens are — to a collector (ready, and not burnt: 烧), by
his payers (every other player, or the unready ones; pairwise where the variant nets
chickens) — and, like every chicken, not on a drawn round.  A flower is no tile of a kind, so
no reveal, 金鸡 or 包鸡 touches it (a reading: FW's 红花 is its own item).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from zhuoji.contract.bound import BoundRules
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import SEAT, Fact, fact
from zhuoji.contract.pricing import CHICKENS, Decision, Ends, Pricer
from zhuoji.outcome import Meld
from zhuoji.rules.chickens.ownership import Earning
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.payment import Standing, pay_holdings
from zhuoji.rules.manji import chicken_params
from zhuoji.rules.needs import Because, Set, all_of
from zhuoji.rules.registry import Params, Phase, Point, Words, register

ITEM = "ji.buhua"


class FlowerParams(Params):
    value: int = Field(
        1,
        ge=0,
        le=1000,
        title="补花鸡 value",
        description="what each flower a player set aside (补花, tiles.flowers) earns him from "
        "each payer of his chickens (CITIES.md 黔西 「a 红花 chicken item」; FW's number not "
        "found: a reading, 1, a plain chicken's value: 幺鸡's, seed 000 ⑤ / seed 001 一(1))",
    )


def flower_words(item: str, f: Fact) -> Words | None:
    """「红花 ×2，每张 1」: the flowers set aside (``count``), the value of each (``each``)."""
    each = f.each if f.each is not None else 1
    return Words(
        f"{SEAT}补花 红花 ×{f.count}，每张 {each}",
        f"{SEAT} set aside {f.count} flower(s), {each} each",
        "补花鸡：摸到的花牌放在一边补一张，每张花算一只鸡",
        "flower chicken: a drawn flower is set aside and replaced; each counts as a chicken",
    )


class FlowerPricer(Pricer):
    """补花鸡 to a seat deciding: its flowers are set aside already (no choice moves them),
    so they price only the ends — ``flowers × value`` from each payer of its chickens when it
    wins or ends ready (or ready or not, where every holder collects), nothing after a draw.
    The payers: every other player, or (``payers: unready``) the opponents the bot expects
    unready.  A 烧 voids them with the chickens."""

    burnt_as = CHICKENS

    def __init__(self, p: FlowerParams, ch: ChickenParams) -> None:
        self.value = p.value
        self.unready_payers = ch.payers == "unready"
        self.all_collect = ch.collectors == "all"

    def decide(self, d: Decision) -> Pricer:
        if not d.flowers or not self.value:
            return Pricer()
        payers = d.others - d.ready_opponents if self.unready_payers else float(d.others)
        worth = d.flowers * self.value * payers
        return _FlowerSeat(worth, worth if self.all_collect else 0.0)


class _FlowerSeat(Pricer):
    burnt_as = CHICKENS
    held_by_melds = True  # the same ends whatever the option

    def __init__(self, ready: float, unready: float) -> None:
        self.ends: Ends = (ready, ready, unready, 0.0, 0.0)

    def held(self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int) -> Ends:
        return self.ends


def _pricer(p: FlowerParams, rules: BoundRules) -> Pricer | None:
    ch = chicken_params(rules)
    if ch is None or not p.value or not rules.variant.tiles.flowers:
        return None
    return FlowerPricer(p, ch)


@register(
    Point.SETTLE,
    "flowers",
    FlowerParams,
    phase=Phase.CHICKENS,
    title="补花鸡",
    labels={ITEM: ("补花鸡", "flower chicken (flowers set aside)")},
    needs={
        "": all_of(
            Because(Set("tiles.flowers"), "the variant has no flower tiles (tiles.flowers: 0)"),
            Because(Set("settle:chickens"), "the variant has no chickens stage (settle.chickens)"),
        )
    },
    words=flower_words,
    pricer=_pricer,
)
def settle_flowers(ctx: SettleContext, p: FlowerParams) -> None:
    """Each collector of chickens earns ``value`` per flower he set aside from each of his
    payers, as the chickens stage pays (no chickens on a draw)."""
    end = ctx.end
    ch = chicken_params(ctx.ruleset)
    if ch is None or end.is_draw or not p.value:
        return
    earnings: list[list[Earning]] = []
    for s, seat in enumerate(end.seats):
        n = seat.flowers
        f = fact(seat=s, count=n, each=p.value, kind="buhua")
        earnings.append([Earning(n * p.value, ITEM, f)] if n else [])
    if any(earnings):
        pay_holdings(ctx, ch, Standing.of(ctx, ch), earnings)
