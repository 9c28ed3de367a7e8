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
from typing import cast

from zhuoji.hand import HandRules
from zhuoji.outcome import Meld, frozen_from
from zhuoji.rules.facts import WinContext, hand_facts, with_tile
from zhuoji.rules.memo import per_object
from zhuoji.tiles import parse_one, suit_of
from zhuoji.variant import PatternRow, PatternsSection


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


def _row_fan(row: PatternRow, facts: dict[str, object]) -> int:
    if row.per is None:
        return row.fan
    count = cast(int, facts[row.per])
    if row.values_by_count is not None:
        table = row.values_by_count
        return table[min(count, len(table) - 1)]
    return row.fan * count


#: how a condition compares a fact with the value a row wants (:func:`facts.matches`)
_BOOL, _AT_LEAST, _EQUAL = 0, 1, 2


@dataclass(frozen=True)
class _Row:
    """A pattern row made ready for matching: its conditions as ``(fact, want, how)``, its
    own tile parsed (``-1`` for none)."""

    pid: str
    row: PatternRow
    conditions: tuple[tuple[str, object, int], ...]
    tile: int


@per_object(maxsize=64)
def _rows(table: PatternsSection) -> tuple[_Row, ...]:
    """The table's rows ready for matching, once per table (the variant's pattern table
    is read every round)."""
    out = []
    for pid, row in table.rows.items():
        conditions = tuple(
            (
                name,
                want,
                _BOOL if isinstance(want, bool) else _AT_LEAST if isinstance(want, int) else _EQUAL,
            )
            for name, want in row.requires
            if want is not None
        )
        out.append(_Row(pid, row, conditions, -1 if row.tile is None else parse_one(row.tile)))
    return tuple(out)


def value_of(table: PatternsSection, facts: dict[str, object]) -> tuple[Component, ...]:
    """The scoring components for one set of facts."""
    hits: dict[str, tuple[PatternRow, int]] = {}
    for r in _rows(table):
        seen = facts if r.tile < 0 else with_tile(facts, r.tile)
        for name, want, how in r.conditions:  # _holds, inline: every row, every hand
            have = seen[name]
            if how == _BOOL:
                if bool(have) is not want:
                    break
            elif how == _AT_LEAST:
                if not isinstance(have, int) or have < cast(int, want):
                    break
            elif have != want:
                break
        else:
            row = r.row
            fan = _row_fan(row, seen)
            if fan or row.per is None:
                hits[r.pid] = (row, fan)
    for pid, (row, _) in list(hits.items()):
        if pid in hits:
            for other in row.excludes:
                hits.pop(other, None)
    alone = next((pid for pid, (row, _) in hits.items() if row.exclusive), None)
    if alone is not None:
        hits = {pid: h for pid, h in hits.items() if pid == alone or h[0].additive}
    chosen: list[tuple[str, PatternRow, int]]
    if table.combine == "highest":
        base = [(pid, r, f) for pid, (r, f) in hits.items() if not r.additive]
        best = max(base, key=lambda x: x[2], default=None)
        chosen = [best] if best else []
        chosen += [(pid, r, f) for pid, (r, f) in hits.items() if r.additive]
    else:
        chosen = [(pid, r, f) for pid, (r, f) in hits.items()]
    highest = table.combine == "highest"
    comps = [
        _component(pid, r.name, r.name_en, f, r.item, r.additive and highest)
        for pid, r, f in chosen
    ]
    return _cap(comps, table.cap)


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


def _cap(comps: list[Component], cap: int | None) -> tuple[Component, ...]:
    """爆和: keep components in order until the cap, trimming the one that crosses it."""
    if cap is None:
        return tuple(comps)
    out: list[Component] = []
    room = cap
    for c in comps:
        if room <= 0:
            break
        fan = min(c.fan, room)
        out.append(_component(c.pattern, c.name, c.name_en, fan, c.item, c.bonus))
        room -= fan
    return tuple(out)


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
        value = HandValue(comps, facts)
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
