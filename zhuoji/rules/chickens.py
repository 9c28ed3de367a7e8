"""Chickens (``settle.chickens``): 幺鸡, flipped and golden chickens, 冲锋/英雄鸡, 责任鸡, 包鸡.

Sources: seed 000 特殊玩法规则 2) (幺鸡 常鸡, 翻鸡 "顺位加一", 金鸡, 冲锋鸡 ×2 / 金 ×4, 责任鸡
"多赔付一番", 手上鸡 vs 内外鸡); seed 001 进阶规则 一/二 (each chicken 1 from every other
player, 叫嘴 required, 金鸡 ×2, 英雄鸡 ×3 / ×6, 责任鸡 +2, 内外鸡, unready players pay for
their discarded or melded 幺鸡); seed 004 鸡 (固定鸡 + 单鸡).

Ownership: tiles in a player's hand (a winner's winning tile included) and melds; with
``scope: all`` (内外鸡) also his discards that nobody took.  The round's first discarded
幺鸡 is 冲锋鸡 for its discarder whatever the scope; if it was punged or konged it is not
冲锋, and the discarder pays the claimer the 责任鸡 extra.  Collectors (ready players, or
everyone) earn each chicken's value from every other player.  No chickens on a draw.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import Field

from zhuoji.outcome import MeldKind
from zhuoji.rules.registry import Params, Phase, Point, register
from zhuoji.settle import SettleContext
from zhuoji.tiles import YAOJI, name, next_in_cycle, parse_one, prev_in_cycle

TILE = "^([1-9][msp]|[1-7]z)$"


class PermanentChicken(Params):
    tile: str = Field(pattern=TILE, description="the chicken tile (幺鸡 1s, 乌骨鸡 8p)")
    value: int = Field(1, ge=0, le=100, description="earned from each other player per tile")
    item: str = Field("ji.yaoji", description="ledger item code")
    label: str = Field("幺鸡", description="display name")


class FlipRule(Params):
    mode: Literal["next", "same", "updown", "weekday", "none"] = Field(
        "next",
        title="翻鸡 mode",
        description="next: revealed rank+1 (9→1, seeds 000/001/004); same: 本鸡; updown: ±1 "
        "(上下鸡/摇摆鸡); weekday: 星期鸡, the weekday's rank in every suit; none",
    )
    value: int = Field(
        1,
        ge=0,
        le=100,
        title="翻鸡 value",
        description="per flipped chicken, from each other player",
    )


class GoldenRule(Params):
    flip: str = Field(pattern=TILE, description="revealing this tile …")
    tile: str = Field(pattern=TILE, description="… makes this chicken golden (金鸡)")
    multiplier: int = Field(2, ge=1, le=100, description="its value is multiplied by this")


class Chongfeng(Params):
    label: str = Field("冲锋鸡", description="冲锋鸡 (seed 000) or 英雄鸡 (seed 001)")
    multiplier: int = Field(
        2, ge=1, le=100, title="冲锋鸡 multiplier", description="value of the first discarded 幺鸡"
    )
    golden_multiplier: int = Field(
        4,
        ge=1,
        le=100,
        title="冲锋鸡 golden multiplier",
        description="its value when 幺鸡 is golden",
    )


class Zeren(Params):
    extra: int = Field(
        1,
        ge=0,
        le=100,
        title="责任鸡 extra",
        description="the discarder pays the claimer this much more",
    )


class UnreadyPays(Params):
    tiles: Literal["permanent", "all"] = Field(
        "permanent",
        description="which chickens an unready player pays for: permanent ones only, or flipped too",
    )


class ChickenParams(Params):
    permanent: list[PermanentChicken] = Field(
        default_factory=lambda: [PermanentChicken(tile="1s")],
        title="permanent chickens",
        description="tiles that are always chickens (常鸡 幺鸡; 乌骨鸡 8p where played)",
    )
    flip: FlipRule = Field(
        default_factory=FlipRule, title="翻鸡", description="which chicken the revealed tile makes"
    )
    golden: list[GoldenRule] = Field(
        default_factory=lambda: [GoldenRule(flip="9s", tile="1s")],
        title="金鸡",
        description="revealed tiles that make a chicken golden (9条 → 幺鸡 ×2); empty for none",
    )
    chongfeng: Chongfeng | None = Field(
        None,
        title="冲锋鸡 / 英雄鸡",
        description="the round's first discarded 幺鸡 pays extra; null: off",
    )
    zeren: Zeren | None = Field(
        None,
        title="责任鸡",
        description="the discarder of a claimed first 幺鸡 pays extra; null: off",
    )
    scope: Literal["hand", "all"] = Field(
        "all",
        title="scope",
        description="hand: 手上鸡, only undiscarded tiles; all: 内外鸡, discards too",
    )
    collectors: Literal["ready", "all"] = Field(
        "ready",
        title="who collects",
        description="ready: only ready or winning players (叫嘴); all: every holder",
    )
    unready_pays: UnreadyPays | None = Field(
        None,
        title="包鸡",
        description="unready players pay each collector for chickens they discarded or melded; null: off",
    )


def _chicken_values(ctx: SettleContext, p: ChickenParams) -> dict[int, tuple[int, str, str, bool]]:
    """kind → (value, item, label, is_permanent)."""
    reveal = ctx.end.reveal
    values: dict[int, tuple[int, str, str, bool]] = {}
    for pc in p.permanent:
        k = parse_one(pc.tile)
        values[k] = (pc.value, pc.item, pc.label, True)
    golden_tiles: set[int] = set()
    for g in p.golden:
        if reveal is not None and reveal == parse_one(g.flip):
            k = parse_one(g.tile)
            base, _item, label, perm = values.get(k, (p.flip.value, "ji.fanji", name(k), False))
            values[k] = (base * g.multiplier, "ji.jinji", f"金鸡 {label}", perm)
            golden_tiles.add(k)
    if reveal is not None and p.flip.mode != "none":
        for k in _flipped(reveal, p.flip.mode, ctx.end.weekday):
            if k in golden_tiles:
                continue
            if k in values:
                v, item, label, perm = values[k]
                values[k] = (v + p.flip.value, item, f"{label}+翻鸡", perm)
            else:
                values[k] = (p.flip.value, "ji.fanji", f"翻鸡 {name(k)}", False)
    return values


def _flipped(reveal: int, mode: str, weekday: int) -> list[int]:
    if mode == "next":
        return [next_in_cycle(reveal)]
    if mode == "same":
        return [reveal]
    if mode == "updown":
        return sorted({prev_in_cycle(reveal), next_in_cycle(reveal)})
    rank = (weekday - 1) % 9
    return [rank, 9 + rank, 18 + rank]


@register(Point.SETTLE, "chickens", ChickenParams, phase=Phase.CHICKENS, title="捉鸡")
def settle_chickens(ctx: SettleContext, p: ChickenParams) -> None:
    """Each collector earns each chicken's value from every other player; 冲锋鸡, 责任鸡 and
    包鸡 as configured.  Burnt players (烧) collect nothing but still owe penalties."""
    end = ctx.end
    if end.is_draw:
        return
    values = _chicken_values(ctx, p)
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
        (ctx.ready[s] or p.collectors == "all") and not ctx.chickens_burnt(s)
        for s in range(ctx.players)
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
