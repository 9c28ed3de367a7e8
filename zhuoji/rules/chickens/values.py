"""Which tile kinds are chickens this round, and what one tile of each is worth.

Sources: seed 000 2) (翻鸡 「顺位加一」, 金鸡), seed 001 一 (1 per chicken, 金鸡 ×2), and
CITIES.md "Reveal and chicken mechanisms" (本鸡, 上下鸡/摇摆鸡, 星期鸡, 金鸡 on 乌骨鸡, 银鸡).
A permanent chicken that a reveal also makes is counted once, at its own value (GA
``process_ji_fen`` values 幺鸡/乌骨 before looking at reveal chickens); only a golden rule
raises it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from zhuoji.contract.ledger import Fact
from zhuoji.outcome import Reveal, RevealAt
from zhuoji.rules.chickens.params import ChickenParams, Direction
from zhuoji.rules.memo import Identity
from zhuoji.tiles import name, next_in_cycle, parse_one, prev_in_cycle


@dataclass(frozen=True)
class Part:
    """One ledger item a chicken tile earns: ``per_tile`` under ``item``.  ``origin`` says
    what made the tile a chicken (``permanent``, ``reveal`` for a reveal chicken with its own
    item, ``flip``, ``golden``, ``weekday``), ``revealed`` the revealed tile that did,
    ``multiplier`` the golden (or 翻倍) factor in ``per_tile``, ``name`` the variant's own name
    of it (幺鸡, 银鸡; None for none)."""

    per_tile: int
    item: str
    label: str
    origin: str = "permanent"
    revealed: int | None = None
    multiplier: int | None = None
    name: str | None = None
    #: the facts of holdings of this part, by (kind, copies, discarded copies): settlement
    #: pays the same few every round (:func:`~zhuoji.rules.chickens.ownership.held_fact`)
    held: dict[tuple[int, int, int], Fact] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Chicken:
    """A chicken kind of this round."""

    kind: int
    parts: tuple[Part, ...]
    base: int  # the tile's own value: what 冲锋/横鸡/责任 multiply
    fixed: bool  # permanent, or made by a reveal during play (not after the win; not 星期鸡)
    permanent: bool  # listed as a permanent chicken (常鸡)
    golden: bool = False
    fanbei: int = 1  # 翻倍鸡: every item on the tile × this
    discard_parts: tuple[Part, ...] = ()  # what a discarded copy earns, when not ``parts``
    #: what ``n`` copies (``thrown`` of them discarded) earn, by (n, thrown): the round's
    #: table is remembered across rounds, so settlement pays the same few every round
    #: (``ownership._plain``: its ``Earning`` objects)
    earned: dict[tuple[int, int], tuple[object, ...]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    @property
    def value(self) -> int:
        return sum(p.per_tile for p in self.parts)

    def discarded(self) -> Chicken:
        """The chicken as a discarded copy counts it (a golden one not golden on discards,
        ``GoldenRule.discards``)."""
        if not self.discard_parts:
            return self
        return Chicken(self.kind, self.discard_parts, self.base, self.fixed, self.permanent)

    @property
    def label(self) -> str:
        return "+".join(p.label for p in self.parts)


def _made(tile: int, makes: Iterable[Direction]) -> list[int]:
    out = []
    for d in makes:
        k = next_in_cycle(tile) if d == "next" else prev_in_cycle(tile) if d == "prev" else tile
        if k not in out:
            out.append(k)
    return out


def weekday_kinds(weekday: int) -> list[int]:
    """星期鸡: the day's rank in each suit (Monday 1 … Sunday 7, FW ``GetWeekChikens``)."""
    rank = (weekday - 1) % 7
    return [rank, 9 + rank, 18 + rank]


def chicken_table(p: ChickenParams, reveals: Iterable[Reveal], weekday: int) -> dict[int, Chicken]:
    """Kind → :class:`Chicken` for a round with these (counting) reveals on this weekday."""
    reveals = list(reveals)
    table: dict[int, Chicken] = {}
    for pc in p.permanent:
        k = parse_one(pc.tile)
        v = pc.value * pc.fanbei
        fanbei = pc.fanbei if pc.fanbei != 1 else None
        part = Part(v, pc.item, pc.label, "permanent", None, fanbei, pc.label)
        table[k] = Chicken(k, (part,), v, True, True, fanbei=pc.fanbei)
    own = {parse_one(i.tile): i for i in p.flip.own_items}
    for r in reveals:
        in_play = r.at is not RevealAt.WIN
        makes = p.flip.makes
        if in_play and p.flip.in_play_makes is not None:
            makes = p.flip.in_play_makes
        for k in _made(r.tile, makes):
            known = table.get(k)
            if known is not None:
                if in_play and not known.fixed:
                    table[k] = Chicken(k, known.parts, known.base, True, known.permanent)
                continue
            if k in own:
                o = own[k]
                part = Part(o.value, o.item, o.label, "reveal", r.tile, None, o.label)
            else:
                part = Part(p.flip.value, "ji.fanji", f"翻鸡 {name(k)}", "flip", r.tile)
            table[k] = Chicken(k, (part,), part.per_tile, in_play, False)
    revealed = {r.tile for r in reveals}
    for g in p.golden:
        k = parse_one(g.tile)
        if parse_one(g.flip) not in revealed:
            continue
        c = table.get(k) or Chicken(k, (), p.flip.value, False, False)
        head = c.parts[0].label if c.parts else name(k)
        own_name = c.parts[0].name if c.parts else None
        flip = parse_one(g.flip)
        part = Part(
            c.base * g.multiplier,
            "ji.jinji",
            f"金鸡 {head}",
            "golden",
            flip,
            g.multiplier,
            own_name,
        )
        plain = c.parts or (Part(c.base, "ji.fanji", f"翻鸡 {name(k)}", "flip", flip),)
        table[k] = Chicken(
            k, (part,), c.base, c.fixed, c.permanent, True, c.fanbei, () if g.discards else plain
        )
    if p.weekday is not None and p.weekday.value:
        wd = p.weekday
        for k in weekday_kinds(weekday):
            held = table.get(k)
            if held is None:  # not "fixed": 包鸡 and ``any`` rules do not take it (GA)
                part = Part(wd.value, "ji.xingqi", f"星期鸡 {name(k)}", "weekday")
                table[k] = Chicken(k, (part,), wd.value, False, False)
            elif wd.on_top:
                part = Part(wd.value, "ji.xingqi", "星期鸡", "weekday")
                table[k] = Chicken(
                    k,
                    (*held.parts, part),
                    held.base,
                    True,
                    held.permanent,
                    held.golden,
                    held.fanbei,
                    (*held.discard_parts, part) if held.discard_parts else (),
                )
    return table


@lru_cache(maxsize=1024)
def _remembered_table(
    p: Identity[ChickenParams], reveals: tuple[Reveal, ...], weekday: int
) -> Mapping[int, Chicken]:
    return MappingProxyType(chicken_table(p.obj, reveals, weekday))


def round_chickens(
    p: ChickenParams, reveals: Iterable[Reveal], weekday: int
) -> Mapping[int, Chicken]:
    """:func:`chicken_table`, remembered by the parameters object (by identity), the reveals
    and the weekday — everything it reads — since rounds of one table see few reveals (the
    mapping is shared: it cannot be changed)."""
    return _remembered_table(Identity(p), tuple(reveals), weekday)


def made_kinds(tile: int, makes: Iterable[Direction]) -> list[int]:
    """The kinds a reveal of ``tile`` makes chickens in these ``flip`` directions: what the
    stages that ask which chickens a reveal made use (满鸡 ``settle.manji``, 爬坡鸡
    ``settle.papo``)."""
    return _made(tile, makes)
