"""Discarded chickens: 冲锋鸡/英雄鸡, 横鸡 and 责任鸡, read from the discards in table order.

Sources: seed 000 ① 冲锋鸡 「玩家打出的第一张幺鸡」, ② 责任鸡 「打出的第一张幺鸡被场上的其他玩家碰走」;
seed 001 二(1)(2) (英雄鸡, 責任雞); CITIES.md common mechanism 3 (冲锋/责任 on any configured
tile, per round or per player's first discard, 首圈); DS §7.3 (冲锋 = one's own first discard
when it is a chicken; 横鸡 rounds: 「开轮者（或已在轮内打过同种鸡牌的人）再次出牌时，该轮结束」)
and §7.4 (责任 premium).  The first go-round (首圈) is the discards before the first claim, at
most one per player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from zhuoji.contract.ledger import Fact, fact
from zhuoji.outcome import RoundEnd
from zhuoji.rules.chickens.params import ChickenParams, TileChoice
from zhuoji.rules.chickens.values import Chicken
from zhuoji.rules.memo import per_object
from zhuoji.tiles import parse_one


class Status(StrEnum):
    """What a discarded chicken was when it was discarded."""

    PLAIN = "plain"
    CHONGFENG = "chongfeng"  # 冲锋鸡 / 英雄鸡
    HENGJI = "hengji"  # 横鸡 (DS)


@dataclass(frozen=True)
class Special:
    """A 冲锋 owned by ``seat``, or a 责任 the ``seat`` (discarder) owes ``other`` (claimer);
    ``fact`` is what its amount counts (the words of :mod:`~zhuoji.rules.chickens.words`)."""

    seat: int
    other: int | None
    amount: int
    item: str
    fact: Fact


@per_object(maxsize=256)
def named_kinds(tiles: list[str]) -> frozenset[int]:
    """The kinds a variant's tile list names, read once per list (it is read every round)."""
    return frozenset(parse_one(t) for t in tiles)


def tiles_of(choice: TileChoice, table: Mapping[int, Chicken]) -> frozenset[int]:
    """The kinds a 冲锋/横鸡/责任 rule names; ``any``: every chicken known during play."""
    if choice == "any":
        return frozenset(k for k, c in table.items() if c.fixed)
    return named_kinds(choice)


def first_go_round(end: RoundEnd) -> int:
    """How many leading discards belong to the first go-round (首圈): one per player at most,
    ending with the first claimed discard."""
    n = 0
    for d in end.discards[: end.players]:
        n += 1
        if d.claimed_by is not None:
            break
    return n


def _own_firsts(end: RoundEnd) -> set[int]:
    """The indexes of each player's first discard."""
    firsts: dict[int, int] = {}
    for i, d in enumerate(end.discards):
        if d.seat not in firsts:
            firsts[d.seat] = i
            if len(firsts) == end.players:
                break
    return set(firsts.values())


def classify(end: RoundEnd, table: Mapping[int, Chicken], p: ChickenParams) -> dict[int, Status]:
    """Discard index → status, for every discarded chicken (in discard order)."""
    if p.hengji is not None:
        return _classify_with_rounds(end, table, p)
    # without 横鸡 a discard's status reads only earlier discards of its own kind (冲锋
    # ``round``) or its discarder's first discard (冲锋 ``own``): only the chickens are walked
    discards = end.discards
    chickens = [i for i, d in enumerate(discards) if d.tile in table]
    cf = p.chongfeng
    if cf is None:
        return dict.fromkeys(chickens, Status.PLAIN)
    cf_tiles = tiles_of(cf.tiles, table)
    out: dict[int, Status] = {}
    if cf.first == "round":
        seen: set[int] = set()
        for i in chickens:
            k = discards[i].tile
            out[i] = Status.CHONGFENG if k in cf_tiles and k not in seen else Status.PLAIN
            seen.add(k)
    else:
        own = _own_firsts(end)
        for i in chickens:
            first = i in own and discards[i].tile in cf_tiles
            out[i] = Status.CHONGFENG if first else Status.PLAIN
    return out


def _classify_with_rounds(
    end: RoundEnd, table: Mapping[int, Chicken], p: ChickenParams
) -> dict[int, Status]:
    """:func:`classify` with 横鸡 rounds, which every discard may close (DS §7.3)."""
    cf, hj = p.chongfeng, p.hengji
    cf_tiles = tiles_of(cf.tiles, table) if cf else frozenset()
    hj_tiles = tiles_of(hj.tiles, table) if hj else frozenset()
    seen: set[int] = set()  # kinds discarded so far
    started: set[int] = set()  # seats that have discarded
    rounds: dict[int, set[int] | None] = {}  # 横鸡 round per kind: members, None when closed
    out: dict[int, Status] = {}
    for i, d in enumerate(end.discards):
        for k, members in rounds.items():
            if members is not None and d.seat in members:
                rounds[k] = None  # a member discards again: that round is over
        own_first = d.seat not in started
        started.add(d.seat)
        k = d.tile
        first_of_kind = k not in seen
        seen.add(k)
        if k not in table:
            continue
        if (
            cf is not None
            and k in cf_tiles
            and (first_of_kind if cf.first == "round" else own_first)
        ):
            out[i] = Status.CHONGFENG
            members = rounds.get(k)
            if members is not None:
                members.add(d.seat)  # DS: a 冲锋 inside an open round closes it next time too
        elif hj is not None and k in hj_tiles and (k not in rounds or rounds[k] is not None):
            out[i] = Status.HENGJI
            rounds.setdefault(k, set()).add(d.seat)  # type: ignore[union-attr]
        else:
            out[i] = Status.PLAIN
    return out


def status_value(status: Status, c: Chicken, p: ChickenParams) -> int:
    """A discarded chicken's own value: 冲锋 and 横鸡 multiply the tile's value (not golden)."""
    if status is Status.CHONGFENG and p.chongfeng is not None:
        return p.chongfeng.multiplier * c.base
    if status is Status.HENGJI and p.hengji is not None:
        return p.hengji.multiplier * c.base
    return c.base


def chongfeng_value(
    c: Chicken, p: ChickenParams, first_round: bool, tags: tuple[str, ...] = ()
) -> tuple[int, str, Fact]:
    """(amount, item, fact) of a 冲锋鸡 on ``c``: its tile, base value (``each``) and
    multiplier, golden or not, the variant's name of it (冲锋鸡 / 英雄鸡 / 首圈鸡); ``tags``
    say how it was made (``own``: a player's own first discard; ``claimed``/``claimer``)."""
    cf = p.chongfeng
    assert cf is not None
    mult = cf.golden_multiplier if c.golden else cf.multiplier
    item, label, kind = "ji.chongfeng", cf.label, "chongfeng"
    if first_round and cf.shouquan is not None:
        sq = cf.shouquan
        mult = (sq.golden_multiplier or sq.multiplier) if c.golden else sq.multiplier
        item, label, kind = "ji.shouquan", sq.label, "shouquan"
        tags = (*tags, "chongfeng")
    if cf.first == "own":
        tags = (*tags, "own")
    f = fact(
        tiles=(c.kind,),
        kind=kind,
        each=c.base,
        multiplier=mult,
        golden=c.golden,
        name=label,
        tags=tags,
    )
    return mult * c.base, item, f


def chongfeng(
    end: RoundEnd,
    table: Mapping[int, Chicken],
    status: dict[int, Status],
    ready: list[bool],
    p: ChickenParams,
) -> list[Special]:
    """Every 冲锋鸡 of the round with its owner."""
    cf = p.chongfeng
    if cf is None:
        return []
    firsts = first_go_round(end)
    out = []
    for i, st in status.items():
        if st is not Status.CHONGFENG:
            continue
        d = end.discards[i]
        tags: tuple[str, ...] = ()
        if d.claimed_by is None:
            owner = d.seat
        elif d.claim is None:
            continue  # won on: no 冲锋 (捉炮鸡 gives the winner its value, see ownership)
        elif cf.claimed == "claimer":
            owner = d.claimed_by if ready[d.claimed_by] else d.seat
            tags = ("claimed", "claimer") if owner == d.claimed_by else ("claimed",)
        else:
            continue  # punged or konged: 责任鸡, not 冲锋
        amount, item, f = chongfeng_value(table[d.tile], p, i < firsts, tags)
        out.append(Special(owner, None, amount, item, f))
    return out


def zeren(
    end: RoundEnd, table: Mapping[int, Chicken], status: dict[int, Status], p: ChickenParams
) -> list[Special]:
    """Every 责任鸡 of the round: (discarder, claimer, amount)."""
    zr = p.zeren
    if zr is None:
        return []
    kinds = tiles_of(zr.tiles, table)
    firsts = first_go_round(end)
    first_index: dict[int, int] = {}
    out = []
    # every discarded chicken is in ``status``: the first discard of a chicken kind is there
    for i in sorted(status):
        d = end.discards[i]
        first_index.setdefault(d.tile, i)
        if d.claim is None or d.claimed_by is None or d.tile not in kinds:
            continue
        if zr.claims == "first" and first_index[d.tile] != i:
            continue
        c = table[d.tile]
        tiles = (c.kind,)
        if zr.shouquan is not None and i < firsts:
            sq = zr.shouquan
            amount, item = sq.multiplier * c.base, "ji.shouquan"
            f = fact(
                tiles=tiles,
                kind="shouquan",
                each=c.base,
                multiplier=sq.multiplier,
                name=sq.label,
                tags=("zeren",),
            )
        elif zr.premium:
            st = status.get(i, Status.PLAIN)
            amount, item = status_value(st, c, p) - c.base, "ji.zeren"
            f = fact(tiles=tiles, kind="zeren", each=c.base, fan=amount, tags=("premium", st.value))
        else:
            amount, item = zr.extra * c.base, "ji.zeren"
            f = fact(tiles=tiles, kind="zeren", each=c.base, multiplier=zr.extra)
        if amount:
            out.append(Special(d.seat, d.claimed_by, amount, item, f))
    return out
