"""Who holds which chickens at the end, and what each holding earns.

A player holds the chickens in his concealed hand, in his melds (a pung counts 3, a kong
``kong_counts``: 4, or 5 in ZA 「满鸡加1」), the winning tile where ``won_tile`` says so, and —
by ``scope`` — his discards that nobody took (seed 000 ③ 手上鸡 「捉鸡只捉场上玩家没有打出的牌」,
④ 内外鸡 「玩家打出和未打出的牌都会进行捉鸡」).  A discard taken for a meld is the claimer's.
The winning tile is one tile: when several players win on one discard (一炮多响) or one
robbed kong, it counts for the winner the discard names as ``claimed_by`` (the engine: the
first after the discarder), never for each (issue 11 item 4).  站鸡 and 捉炮鸡 follow
CITIES.md.  What an unready player showed (his discards and melds) is what he pays 包鸡 for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Final

from zhuoji.contract.ledger import Fact, fact
from zhuoji.contract.ledger_kernel import fact_at
from zhuoji.outcome import MeldKind, RoundEnd, WinHow
from zhuoji.rules.chickens.discards import (
    CHONGFENG,
    HENGJI,
    PLAIN,
    ChickenTerms,
    Status,
    chicken_flags,
    status_value,
    terms,
)
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import Chicken, Part

# the meld kinds holdings tell apart, read as constants (a member read off its enum class,
# and ``MeldKind.is_kong``, a Python property, are calls into Python from compiled code)
CHI: Final = MeldKind.CHI
PENG: Final = MeldKind.PENG
GANG_CONCEALED: Final = MeldKind.GANG_CONCEALED
# a win's kinds as constants too (a member read off its class is the enum type's __getattr__)
SELF_DRAW: Final = WinHow.SELF_DRAW
DISCARD: Final = WinHow.DISCARD


class Earning:
    """One ledger line a holder earns from each of his payers; ``fact`` is what its amount
    counts (the words of :mod:`~zhuoji.rules.chickens.words`).

    Read-only (``Final``; a chicken keeps its earnings between rounds, :attr:`Chicken.earned`).
    A plain class with its own ``__init__``, not a frozen dataclass: compiled (the chickens
    group), a dataclass's generated ``__init__`` runs as Python, one ``object.__setattr__`` a
    field, and the stage makes dozens a round (issue 29)."""

    amount: Final[int]
    item: Final[str]
    fact: Final[Fact]
    chongfeng: Final[bool]  # 冲锋鸡: paid by every other player whatever ``payers`` says

    def __init__(self, amount: int, item: str, fact: Fact, chongfeng: bool = False) -> None:
        self.amount = amount
        self.item = item
        self.fact = fact
        self.chongfeng = chongfeng

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Earning) and (
            self.amount,
            self.item,
            self.fact,
            self.chongfeng,
        ) == (other.amount, other.item, other.fact, other.chongfeng)

    def __hash__(self) -> int:
        return hash((self.amount, self.item, self.fact, self.chongfeng))

    def __repr__(self) -> str:
        return (
            f"Earning(amount={self.amount!r}, item={self.item!r}, fact={self.fact!r}, "
            f"chongfeng={self.chongfeng!r})"
        )


class Shown:
    """What an unready player showed (包鸡): per kind, discarded and melded counts, and the
    amounts his discards are worth beyond a plain tile (横鸡).  (A plain class: see
    :class:`Earning`.)"""

    lines: Final[list[tuple[int, int, int, int]]]  # (kind, value, discarded, melded)
    extra: Final[list[Earning]]  # 横鸡 discards, paid as they are worth

    def __init__(self, lines: list[tuple[int, int, int, int]], extra: list[Earning]) -> None:
        self.lines = lines
        self.extra = extra


class WonTile:
    """Who holds the winning tile as a chicken, and the discard it was won on (if any)."""

    seat: Final[int]  # who holds it
    discard: Final[int | None]  # the discard it was won on, if any

    def __init__(self, seat: int, discard: int | None) -> None:
        self.seat = seat
        self.discard = discard


def won_tile(end: RoundEnd, p: ChickenParams | ChickenTerms) -> WonTile | None:
    """Who holds the winning tile as a chicken, if anyone (``won_tile``)."""
    rule = terms(p).won_tile
    if end.win_tile is None or not end.wins or rule == "never":
        return None
    first = end.wins[0]
    if first.how is SELF_DRAW:
        return WonTile(first.seat, None)
    if rule == "self_draw" or first.source is None:
        return None
    winners = {w.seat for w in end.wins}
    index = next(
        (
            i
            for i in range(len(end.discards) - 1, -1, -1)
            if end.discards[i].seat == first.source
            and end.discards[i].tile == end.win_tile
            and end.discards[i].claimed_by in winners
            and end.discards[i].claim is None
        ),
        None,
    )
    if index is not None and first.how is DISCARD:
        holder = end.discards[index].claimed_by
        assert holder is not None
        return WonTile(holder, index)
    src = first.source
    return WonTile(min(winners, key=lambda s: (s - src) % end.players), None)


def discarded_chickens(end: RoundEnd, status: Mapping[int, Status]) -> list[list[int]]:
    """Per seat, the indexes of his discards that are chickens and that nobody took
    (``status`` is :func:`~zhuoji.rules.chickens.discards.classify`: every discarded
    chicken, in discard order)."""
    out: list[list[int]] = [[] for _ in end.seats]
    discards = end.discards
    for i in status:
        d = discards[i]
        if d.claimed_by is None:
            out[d.seat].append(i)
    return out


def _plain(c: Chicken, n: int, thrown: int = 0) -> tuple[Earning, ...]:
    """``n`` tiles of chicken ``c``, ``thrown`` of them discarded (内外鸡/满堂鸡: the fact
    says so, since a player may not see why a tile he no longer holds is paid); remembered
    on the chicken (:attr:`Chicken.earned`: earnings are frozen, the table is shared)."""
    key = (n, thrown)
    got = c.earned.get(key)
    if got is None:
        got = c.earned[key] = tuple(
            Earning(n * part.per_tile, part.item, held_fact(c.kind, part, n, thrown))
            for part in c.parts
            if part.per_tile
        )
    return got  # type: ignore[return-value]  # only Earning objects are stored


def held_fact(kind: int, part: Part, n: int, thrown: int) -> Fact:
    """What ``n`` copies of ``kind`` (``thrown`` of them discarded) earn under ``part``: the
    tile, copies, per-tile value, what made it a chicken (remembered on the part)."""
    key = (kind, n, thrown)
    f = part.held.get(key)
    if f is None:
        # ``fact(tiles=, count=, each=, multiplier=, golden=, name=, kind=, revealed=,
        # discarded=)`` by position (a keyword call into the ledger's group is matched by name)
        origin = part.origin
        f = part.held[key] = fact_at(
            (kind,),  # tiles
            n,  # count
            part.per_tile,  # each
            part.multiplier,
            origin == "golden",  # golden
            None,  # pattern
            part.name,
            None,  # name_en
            None,  # fan
            (),  # factors
            origin,  # kind
            None,  # seat
            None,  # for_seat
            part.revealed,
            thrown or None,  # discarded
        )
    return f


def holdings(
    end: RoundEnd,
    table: Mapping[int, Chicken],
    status: dict[int, Status],
    discarded: list[list[int]],
    p: ChickenParams | ChickenTerms,
) -> list[list[Earning]]:
    """Per seat, what his chickens earn from each payer (before who collects is decided);
    ``discarded`` is :func:`discarded_chickens`."""
    pt = terms(p)
    won = won_tile(end, pt)
    stands = pt.standing  # 站鸡: counted only where the variant has it
    won_kind = -1 if end.win_tile is None else end.win_tile
    # the parameters read once, not per seat and tile
    kong_counts, scope, zhuopao = pt.kong_counts, pt.scope, pt.zhuopao
    concealed_kongs_stand = stands is not None and stands.concealed_kongs
    is_chicken = chicken_flags(table)  # asked of every tile (``in`` the table: a generic test)
    out: list[list[Earning]] = []
    for s, seat in enumerate(end.seats):
        plain: dict[int, int] = {}
        thrown: dict[int, int] = {}  # of ``plain``, the discarded ones
        apart: dict[int, int] = {}  # discarded copies counted at their own value
        extra: list[Earning] = []
        for t in seat.concealed:  # one pass over the tiles (``tuple.count`` a kind: 1.6 K each)
            if is_chicken[t]:
                plain[t] = plain.get(t, 0) + 1
        standing = dict(plain) if stands is not None else {}
        if won is not None and won.seat == s and won_kind >= 0 and is_chicken[won_kind]:
            k = won_kind
            st = status.get(won.discard, PLAIN) if won.discard is not None else None
            if zhuopao and st is not None and st is not PLAIN:
                v = status_value(st, table[k], pt)
                f = fact(tiles=(k,), kind="zhuopao", fan=v, tags=(st.value,))
                extra.append(Earning(v, "ji.zhuopao", f))
            elif zhuopao and st is not None and table[k].discard_parts:
                apart[k] = apart.get(k, 0) + 1  # 捉炮鸡 of a plain discard: its discard value
            else:
                plain[k] = plain.get(k, 0) + 1
                if stands is not None and stands.won_tile:
                    standing[k] = standing.get(k, 0) + 1
        for m in seat.melds:
            mk, t = m.kind, m.tile  # its kinds: ``set(m.tiles)`` without building the tiles
            if mk is CHI:
                kinds: tuple[int, ...] = (t, t + 1, t + 2)
                n = 1
            else:
                kinds = (t,)
                n = 3 if mk is PENG else kong_counts  # a pung, else a kong (``is_kong``)
            for k in kinds:
                if not is_chicken[k]:
                    continue
                plain[k] = plain.get(k, 0) + n
                if concealed_kongs_stand and mk is GANG_CONCEALED:
                    standing[k] = standing.get(k, 0) + n
        if scope != "hand":
            for i in discarded[s]:
                d = end.discards[i]
                c = table[d.tile]
                if scope == "permanent" and not c.fixed:
                    continue
                st = status.get(i, PLAIN)
                if st is CHONGFENG:
                    assert pt.chongfeng is not None
                    if pt.chongfeng.also_discard:
                        plain[d.tile] = plain.get(d.tile, 0) + 1
                        thrown[d.tile] = thrown.get(d.tile, 0) + 1
                elif st is HENGJI:
                    assert pt.hengji is not None
                    v = status_value(st, c, pt)
                    f = fact(
                        tiles=(d.tile,),
                        kind="hengji",
                        each=c.base,
                        multiplier=pt.hengji.multiplier,
                        name=pt.hengji.label,
                    )
                    extra.append(Earning(v, "ji.hengji", f))
                elif c.discard_parts:  # a golden chicken not golden on discards
                    apart[d.tile] = apart.get(d.tile, 0) + 1
                else:
                    plain[d.tile] = plain.get(d.tile, 0) + 1
                    thrown[d.tile] = thrown.get(d.tile, 0) + 1
        earnings: list[Earning] = []
        if plain:  # (``sorted`` of an empty dict is a call all the same)
            earnings = [
                e for k in sorted(plain) for e in _plain(table[k], plain[k], thrown.get(k, 0))
            ]
        if apart:
            earnings += [
                e for k in sorted(apart) for e in _plain(table[k].discarded(), apart[k], apart[k])
            ]
        if standing:
            earnings += _standing(table, standing, pt)
        earnings += extra
        out.append(earnings)
    return out


def _standing(
    table: Mapping[int, Chicken], standing: Mapping[int, int], p: ChickenTerms
) -> list[Earning]:
    """站鸡: a chicken still standing is worth its value × multiplier + bonus."""
    st = p.standing
    if st is None:
        return []
    out = []
    for k in sorted(standing):
        c = table[k]
        if st.tiles == "permanent" and not c.permanent:
            continue
        per = c.value * (st.multiplier - 1) + st.bonus
        if per and standing[k]:
            n = standing[k]
            f = fact(
                tiles=(k,),
                kind="standing",
                count=n,
                each=per,
                multiplier=st.multiplier,
                extra=st.bonus or None,
            )
            out.append(Earning(n * per, "ji.zhanji", f))
    return out


def shown(
    end: RoundEnd,
    ready: list[bool],
    table: Mapping[int, Chicken],
    status: dict[int, Status],
    discards: list[list[int]],
    p: ChickenParams | ChickenTerms,
) -> list[Shown]:
    """Per unready seat, the chickens he showed — discarded (nobody took) and melded — for
    包鸡 (``unready_pays``); ``discards`` is :func:`discarded_chickens`."""
    t = terms(p)
    up = t.unready_pays
    assert up is not None
    out = []
    for s, seat in enumerate(end.seats):
        discarded: Counter[int] = Counter()
        melded: Counter[int] = Counter()
        extra: list[Earning] = []
        if ready[s]:
            out.append(Shown([], []))  # only an unready player shows what he pays for
            continue
        for i in discards[s]:
            d = end.discards[i]
            c = table[d.tile]
            if up.tiles == "permanent" and not c.fixed:
                continue
            st = status.get(i, PLAIN)
            if st is HENGJI:
                v = status_value(st, c, t)
                f = fact(tiles=(d.tile,), kind="baoji", fan=v, seat=s, tags=("hengji",))
                extra.append(Earning(v, "ji.baoji", f))
            elif st is PLAIN or (t.chongfeng is not None and t.chongfeng.also_discard):
                discarded[d.tile] += 1
        for m in seat.melds:
            for k in set(m.tiles):
                held = table.get(k)
                if held is None or (up.tiles == "permanent" and not held.fixed):
                    continue
                melded[k] += t.kong_counts if m.is_kong else m.tiles.count(k)
        lines = []
        for k in sorted(set(discarded) | set(melded)):
            c, thrown = table[k], table[k].discarded()
            if thrown is c:
                lines.append((k, c.value, discarded[k], melded[k]))
                continue
            if discarded[k]:
                lines.append((k, thrown.value, discarded[k], 0))
            if melded[k]:
                lines.append((k, c.value, 0, melded[k]))
        out.append(Shown(lines, extra))
    return out
