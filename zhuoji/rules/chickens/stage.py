"""The ``settle.chickens`` stage: who owns which chickens, and who pays whom."""

from __future__ import annotations

from collections import Counter

from zhuoji.outcome import MeldKind
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import chicken_values
from zhuoji.rules.registry import Point, register
from zhuoji.settle import SettleContext
from zhuoji.tiles import YAOJI, name, parse_one


@register(Point.SETTLE, "chickens", ChickenParams, phase=40, title="捉鸡")
def settle_chickens(ctx: SettleContext, p: ChickenParams) -> None:
    """Each collector earns each chicken's value from every other player; 冲锋鸡, 责任鸡 and
    包鸡 as configured.  Burnt players (烧) collect nothing but still owe penalties."""
    end = ctx.end
    if end.is_draw:
        return
    values = chicken_values(ctx, p)
    base_yaoji = next((pc.value for pc in p.permanent if parse_one(pc.tile) == YAOJI), 1)
    golden_yaoji = any(
        parse_one(g.tile) == YAOJI and end.reveal == parse_one(g.flip) for g in p.golden
    )

    first = next((i for i, d in enumerate(end.discards) if d.tile == YAOJI), None)
    chongfeng_seat: int | None = None
    zeren: tuple[int, int] | None = None  # (discarder, claimer)
    if first is not None:
        d = end.discards[first]
        if d.claimed_by is None:
            chongfeng_seat = d.seat if p.chongfeng else None
        elif d.claim in (MeldKind.PENG, MeldKind.GANG_EXPOSED):
            zeren = (d.seat, d.claimed_by)

    win_tiles = {w.seat: end.win_tile for w in end.wins}
    owned: list[Counter[int]] = []
    discarded: list[Counter[int]] = []
    melded: list[Counter[int]] = []
    for s, seat in enumerate(end.seats):
        hand = Counter(seat.concealed)
        if s in win_tiles and win_tiles[s] is not None:
            hand[win_tiles[s]] += 1  # type: ignore[index]
        mc: Counter[int] = Counter(t for m in seat.melds for t in m.tiles)
        dc: Counter[int] = Counter(
            d.tile
            for i, d in enumerate(end.discards)
            if d.seat == s and d.claimed_by is None and i != first
        )
        melded.append(mc)
        discarded.append(dc)
        own = hand + mc
        if p.scope == "all":
            own += dc
        owned.append(own)

    collects = [
        (ctx.ready[s] or p.collectors == "all") and s not in ctx.burnt for s in range(ctx.players)
    ]
    collectors = [s for s in range(ctx.players) if collects[s]]
    # 倒赔 / 包鸡 are owed by a player who is not ready (seed 001 二(5) "未叫嘴"); burning (烧)
    # voids what a player would collect but turns nothing into a debt (seed 001 (四)(1)
    # "需倒賠的英雄雞、責任雞仍然生效": only what was owed anyway stays).
    owes = [not collects[s] and not ctx.ready[s] for s in range(ctx.players)]

    for s in range(ctx.players):
        for kind in sorted(owned[s]):
            if kind not in values:
                continue
            n = owned[s][kind]
            value, item, label, _perm = values[kind]
            if not n or not value:
                continue
            if collects[s]:
                for payer in ctx.others(s):
                    ctx.pay(payer, s, n * value, item, f"{label} ×{n} ({value} each)")

    if chongfeng_seat is not None and p.chongfeng is not None:
        cf = p.chongfeng
        mult = cf.golden_multiplier if golden_yaoji else cf.multiplier
        amount = mult * base_yaoji
        detail = f"{cf.label} ×{mult}" + (" (金鸡)" if golden_yaoji else "")
        if collects[chongfeng_seat]:
            for payer in ctx.others(chongfeng_seat):
                ctx.pay(payer, chongfeng_seat, amount, "ji.chongfeng", detail)
        elif p.unready_pays is not None and owes[chongfeng_seat]:
            for c in collectors:
                ctx.pay(
                    chongfeng_seat,
                    c,
                    amount,
                    "ji.chongfeng",
                    detail + " 倒赔 (paid back, not ready)",
                )

    if zeren is not None and p.zeren is not None and p.zeren.extra:
        discarder, claimer = zeren
        if collects[claimer]:
            ctx.pay(
                discarder,
                claimer,
                p.zeren.extra,
                "ji.zeren",
                f"责任鸡 +{p.zeren.extra}: {name(YAOJI)} claimed",
            )

    if p.unready_pays is not None:
        for s in range(ctx.players):
            if not owes[s]:
                continue
            for kind in sorted(set(discarded[s]) | set(melded[s])):
                if kind not in values:
                    continue
                value, _item, label, perm = values[kind]
                if not perm and p.unready_pays.tiles == "permanent":
                    continue
                n = discarded[s][kind] + melded[s][kind]
                for c in collectors:
                    ctx.pay(
                        s,
                        c,
                        n * value,
                        "ji.baoji",
                        f"包鸡 {label} ×{n} discarded or melded, not ready",
                    )
