"""Which tile kinds are chickens this round, and what each is worth."""

from __future__ import annotations

from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.settle import SettleContext
from zhuoji.tiles import name, next_in_cycle, parse_one, prev_in_cycle


def chicken_values(ctx: SettleContext, p: ChickenParams) -> dict[int, tuple[int, str, str, bool]]:
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
