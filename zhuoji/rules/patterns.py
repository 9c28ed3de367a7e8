"""Pattern evaluation: a hand's value from the variant's pattern table (data, not code).

For every realization of the hand, the facts of :mod:`zhuoji.rules.facts` are computed and
the table's rows matched; ``excludes`` drop the rows a matched row replaces; with
``combine: highest`` only the best non-additive row counts (the 捉鸡 fan tables of seeds
000/001/004), with ``combine: additive`` all rows add up (六安 嘴, seed 003; 金游, seed 002);
an ``exclusive`` row that matches is the hand's only pattern (杠上开花 as a stand-alone
pattern, FW server ``EnableKongAfterDraw`` "杠上开花时，不计其他牌型"); ``cap`` (爆和) bounds
the total.  The best realization wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from zhuoji.hand import HandRules
from zhuoji.outcome import Meld, frozen_from
from zhuoji.rules.facts import WinContext, hand_facts
from zhuoji.rules.facts_kernel import (
    AT_LEAST,
    BOOL,
    EQUAL,
    PreparedRow,
    PreparedTable,
    chosen_rows,
)
from zhuoji.rules.memo import per_object
from zhuoji.tiles import parse_one, suit_of
from zhuoji.variant import PatternsSection


@mypyc_attr(native_class=False)  # Python classes: built by frozen_from, pickled, compared
@dataclass(frozen=True)
class Component:
    """One scoring part of a hand: a pattern row and the fan it adds."""

    pattern: str
    name: str
    name_en: str
    fan: int
    item: str
    bonus: bool = False  # an ``additive`` row counted on top of the highest pattern

    @property
    def label(self) -> str:
        return f"{self.name} ({self.name_en})" if self.name_en else self.name


@mypyc_attr(native_class=False)  # Python classes: built by frozen_from, pickled, compared
@dataclass(frozen=True)
class HandValue:
    components: tuple[Component, ...]
    facts: dict[str, object]

    @property
    def total(self) -> int:
        return sum(c.fan for c in self.components)

    @property
    def base(self) -> int:
        """The pattern part (rows that are not ``additive`` bonuses)."""
        return sum(c.fan for c in self.components if not c.bonus)

    def describe(self) -> str:
        return " + ".join(f"{c.name} {c.fan}" for c in self.components) or "0"


@per_object(maxsize=64)
def _prepared(table: PatternsSection) -> PreparedTable:
    """The table made ready for matching, once per table (the variant's pattern table is
    read every round; its rows are read natively where the kernel is compiled)."""
    rows = []
    for pid, row in table.rows.items():
        # a row's fields read from the model's ``__dict__`` (where pydantic keeps them, in
        # field order; ``Requires`` allows no extra fields): iterating the model goes through
        # a generator filtering every name, 0.8 M instructions for a ten-row table (issue 29)
        conditions = tuple(
            (name, want, BOOL, 0)
            if isinstance(want, bool)
            else (name, want, AT_LEAST, want)
            if isinstance(want, int)
            else (name, want, EQUAL, 0)
            for name, want in vars(row.requires).items()
            if want is not None
        )
        rows.append(
            PreparedRow(
                pid,
                conditions,
                -1 if row.tile is None else parse_one(row.tile),
                row.fan,
                row.per,
                None if row.values_by_count is None else tuple(row.values_by_count),
                row.name,
                row.name_en,
                row.item,
                row.additive,
                row.exclusive,
                tuple(row.excludes),
            )
        )
    return PreparedTable(tuple(rows), table.combine == "highest", table.cap)


def value_of(table: PatternsSection, facts: dict[str, object]) -> tuple[Component, ...]:
    """The scoring components for one set of facts: every row whose ``requires`` the facts
    meet; ``excludes`` drop the rows a matched row replaces; an ``exclusive`` row that
    matches is the hand's only pattern (additive rows stay); with ``combine: highest`` only
    the best non-additive row counts, ``additive`` rows on top as bonuses, else all rows
    add up; ``cap`` (爆和) bounds the total, trimming the row that crosses it.  Worked out by
    :func:`~zhuoji.rules.facts_kernel.chosen_rows` (compiled) on the table made ready once."""
    # the pair read once: another thread may put its own in between two reads
    pair = _LAST_TABLE[0] if _LAST_TABLE else None
    if pair is not None and pair[0] is table:
        prepared = pair[1]
    else:
        prepared = _prepared(table)
        _LAST_TABLE[:] = [(table, prepared)]
    return tuple(
        _component(r.pid, r.name, r.name_en, fan, r.item, bonus)
        for r, fan, bonus in chosen_rows(prepared, facts)
    )


#: the table :func:`value_of` read last and its preparation (the entry keeps the table
#: alive, so the identity check is sound): read natively, where ``_prepared``'s lookup is a
#: Python call (``PerObject.__call__``) every win
_LAST_TABLE: list[tuple[PatternsSection, PreparedTable]] = []


def _component(
    pattern: str, name: str, name_en: str, fan: int, item: str, bonus: bool
) -> Component:
    """``Component(...)`` without the frozen dataclass's field-by-field ``__init__``
    (:func:`~zhuoji.outcome.frozen_from`): every realization of every win makes them."""
    return frozen_from(
        Component,
        {
            "pattern": pattern,
            "name": name,
            "name_en": name_en,
            "fan": fan,
            "item": item,
            "bonus": bonus,
        },
    )


def real_waits(rules: HandRules, waits: Sequence[int]) -> list[int]:
    """The kinds a ready hand waits on, for 独子 / 单吊 / 大宽张: drawing the wild (六安 宝牌)
    completes every ready hand, so it is not a wait of its own (seed 003 "独子……即只听一张牌")."""
    if rules.wild is None:
        return list(waits)
    return [w for w in waits if w != rules.wild.kind]


def evaluate(
    table: PatternsSection,
    rules: HandRules,
    full: Sequence[int],
    melds: tuple[Meld, ...],
    win_tile: int | None,
    ctx: WinContext,
    waits: Sequence[int] | None = None,
) -> HandValue | None:
    """Best value of a complete hand (``full`` = concealed tiles plus the winning tile), or
    None when it is not complete under ``rules``; ``waits`` are the kinds the hand waited on
    (found here when not given)."""
    decs = rules.decompositions(full)
    if not decs:
        return None
    if waits is None:
        if win_tile is not None:
            before = list(full)
            before[win_tile] -= 1
            waits = real_waits(rules, rules.waits(before))
        else:
            waits = ()
    held = list(full)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    if rules.wild is not None:
        held[rules.wild.kind] = 0  # jokers are no tile of their own
    best: HandValue | None = None
    for dec in decs:
        facts = hand_facts(dec, melds, win_tile, waits, ctx, held)
        comps = value_of(table, facts)
        # every field (``frozen_from``: no frozen ``__init__``, once a realization)
        value = frozen_from(HandValue, {"components": comps, "facts": facts})
        if best is None or value.total > best.total:
            best = value
    return best


def waiting_value(
    table: PatternsSection,
    rules: HandRules,
    concealed: Sequence[int],
    melds: tuple[Meld, ...],
    ctx: WinContext,
    skip_suit: int | None = None,
) -> HandValue | None:
    """Best value among the hand's waits (荒庄查叫: "叫牌玩家手中牌的番值"; 查大叫: the largest
    wait), or None when the hand is not ready; waits of ``skip_suit`` (定缺) do not count."""
    ws = [t for t in rules.waits(concealed) if skip_suit is None or suit_of(t) != skip_suit]
    best: HandValue | None = None
    full = list(concealed)
    for t in ws:
        full[t] += 1
        v = evaluate(table, rules, full, melds, t, ctx, waits=real_waits(rules, ws))
        full[t] -= 1
        if v is not None and (best is None or v.total > best.total):
            best = v
    return best
