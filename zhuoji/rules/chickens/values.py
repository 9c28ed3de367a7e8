"""Which tile kinds are chickens this round, and what one tile of each is worth.

Sources: seed 000 2) (翻鸡 「顺位加一」, 金鸡), seed 001 一 (1 per chicken, 金鸡 ×2), and
CITIES.md "Reveal and chicken mechanisms" (本鸡, 上下鸡/摇摆鸡, 星期鸡, 金鸡 on 乌骨鸡, 银鸡).
A permanent chicken that a reveal also makes is counted once, at its own value (GA
``process_ji_fen`` values 幺鸡/乌骨 before looking at reveal chickens); only a golden rule
raises it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Final

from zhuoji.contract.ledger import Fact
from zhuoji.outcome import Reveal, RevealAt
from zhuoji.rules.chickens.params import ChickenParams, Direction
from zhuoji.rules.memo import Identity, per_object
from zhuoji.tiles import name, next_in_cycle, parse_one, prev_in_cycle

# read off its class, a member goes through the enum type's ``__getattr__`` (every reveal of
# every round; issue 29)
_AT_WIN: Final = RevealAt.WIN


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


class _Plan:
    """What one chickens section says of every round, read once per parameters object, and
    the chickens (and their parts) its tables have made, each made once.

    A round's table is remembered by its reveals (:func:`round_chickens`), and a short
    session sees most reveals for the first time: a table for new reveals takes the
    permanent chickens and the reveal's chicken made before (by what made it), so what a
    chicken earns (:attr:`Chicken.earned`) and the facts of its holdings (:attr:`Part.held`)
    carry over from every earlier round that held it, and the parameters (pydantic models)
    are not read again (issue 29: 95 K instructions a new reveal, 16 of 23 bench rounds)."""

    def __init__(self, p: ChickenParams) -> None:
        self.permanent: dict[int, Chicken] = {}
        for pc in p.permanent:
            k = parse_one(pc.tile)
            v = pc.value * pc.fanbei
            fanbei = pc.fanbei if pc.fanbei != 1 else None
            part = Part(v, pc.item, pc.label, "permanent", None, fanbei, pc.label)
            self.permanent[k] = Chicken(k, (part,), v, True, True, fanbei=pc.fanbei)
        self.own = {parse_one(i.tile): (i.value, i.item, i.label) for i in p.flip.own_items}
        self.makes: tuple[Direction, ...] = tuple(p.flip.makes)
        ipm = p.flip.in_play_makes
        self.in_play_makes: tuple[Direction, ...] | None = None if ipm is None else tuple(ipm)
        self.flip_value = p.flip.value
        #: (tile, flip tile, multiplier, discards) of each golden rule
        self.golden = tuple(
            (parse_one(g.tile), parse_one(g.flip), g.multiplier, g.discards) for g in p.golden
        )
        wd = p.weekday
        #: (value, on top) of 星期鸡, None without it
        self.weekday: tuple[int, bool] | None = (
            (wd.value, wd.on_top) if wd is not None and wd.value else None
        )
        self._made: dict[tuple[int, bool], list[int]] = {}
        self._chickens: dict[tuple[object, ...], Chicken] = {}

    def made(self, tile: int, in_play: bool) -> list[int]:
        """The kinds a reveal of ``tile`` makes chickens (during play or after the win)."""
        key = (tile, in_play)
        got = self._made.get(key)
        if got is None:
            makes = self.makes
            if in_play and self.in_play_makes is not None:
                makes = self.in_play_makes
            got = self._made[key] = _made(tile, makes)
        return got

    def once(self, key: tuple[object, ...], make: Callable[..., Chicken], *args: Any) -> Chicken:
        """The chicken ``make(*args)`` builds, made once for ``key`` (what it is built from: kinds,
        tiles, and the ``id`` of a chicken it is built on, which is kept here or in
        :attr:`permanent`, so no id is reused while its key stands).  Never emptied: the keys
        are bounded by the tile kinds and the section's rules."""
        got = self._chickens.get(key)
        if got is None:
            got = self._chickens[key] = make(*args)
        return got


_plan = per_object(maxsize=256)(_Plan)


def chicken_table(p: ChickenParams, reveals: Iterable[Reveal], weekday: int) -> dict[int, Chicken]:
    """Kind → :class:`Chicken` for a round with these (counting) reveals on this weekday.

    A chicken made the same way for another table of ``p`` is the same object (:class:`_Plan`):
    the chickens are frozen, and what they remember (earnings, facts) follows from their fields."""
    plan = _plan(p)
    reveals = list(reveals)
    table: dict[int, Chicken] = dict(plan.permanent)
    once = plan.once
    for r in reveals:
        in_play = r.at is not _AT_WIN
        for k in plan.made(r.tile, in_play):
            known = table.get(k)
            if known is not None:
                if in_play and not known.fixed:
                    table[k] = once(("fixed", id(known)), _fixed, known)
                continue
            own = plan.own.get(k)
            if own is not None:
                table[k] = once(("own", k, r.tile, in_play), _own, k, r.tile, in_play, *own)
            else:
                v = plan.flip_value
                table[k] = once(("flip", k, r.tile, in_play), _flipped, k, r.tile, in_play, v)
    if plan.golden:
        revealed = {r.tile for r in reveals}
        for k, flip, multiplier, discards in plan.golden:
            if flip not in revealed:
                continue
            c = table.get(k) or once(("plain", k), Chicken, k, (), plan.flip_value, False, False)
            table[k] = once(
                ("golden", id(c), flip, multiplier, discards),
                _golden,
                c,
                k,
                flip,
                multiplier,
                discards,
            )
    if plan.weekday is not None:
        value, on_top = plan.weekday
        for k in weekday_kinds(weekday):
            held = table.get(k)
            if held is None:  # not "fixed": 包鸡 and ``any`` rules do not take it (GA)
                table[k] = once(("weekday", k), _weekday, k, value)
            elif on_top:
                table[k] = once(("weekday on", id(held)), _weekday_on_top, held, k, value)
    return table


def _fixed(c: Chicken) -> Chicken:
    """Chicken ``c`` made fixed by a reveal during play (its other flags dropped)."""
    return Chicken(c.kind, c.parts, c.base, True, c.permanent)


def _flipped(k: int, tile: int, in_play: bool, value: int) -> Chicken:
    """翻鸡 ``k``, made by a reveal of ``tile``, worth ``value`` a tile."""
    part = Part(value, "ji.fanji", f"翻鸡 {name(k)}", "flip", tile)
    return Chicken(k, (part,), value, in_play, False)


def _own(k: int, tile: int, in_play: bool, value: int, item: str, label: str) -> Chicken:
    """A reveal chicken ``k`` with its own item (``flip.own_items``), made by a reveal of ``tile``."""
    part = Part(value, item, label, "reveal", tile, None, label)
    return Chicken(k, (part,), value, in_play, False)


def _weekday(k: int, value: int) -> Chicken:
    """星期鸡 ``k``, no other chicken."""
    return Chicken(
        k, (Part(value, "ji.xingqi", f"星期鸡 {name(k)}", "weekday"),), value, False, False
    )


def _golden(c: Chicken, k: int, flip: int, multiplier: int, discards: bool) -> Chicken:
    """金鸡: chicken ``c`` of kind ``k`` made golden by a reveal of ``flip``."""
    head = c.parts[0].label if c.parts else name(k)
    own_name = c.parts[0].name if c.parts else None
    part = Part(
        c.base * multiplier, "ji.jinji", f"金鸡 {head}", "golden", flip, multiplier, own_name
    )
    plain = c.parts or (Part(c.base, "ji.fanji", f"翻鸡 {name(k)}", "flip", flip),)
    return Chicken(
        k, (part,), c.base, c.fixed, c.permanent, True, c.fanbei, () if discards else plain
    )


def _weekday_on_top(held: Chicken, k: int, value: int) -> Chicken:
    """星期鸡 on top of chicken ``held`` of kind ``k`` (``weekday.on_top``)."""
    part = Part(value, "ji.xingqi", "星期鸡", "weekday")
    return Chicken(
        k,
        (*held.parts, part),
        held.base,
        True,
        held.permanent,
        held.golden,
        held.fanbei,
        (*held.discard_parts, part) if held.discard_parts else (),
    )


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
