"""The ledger: every payment of a round, itemized (docs/architecture.md, "The ledger").

Every payment is a :class:`LedgerEntry`: who pays whom (``payer``, ``payee``), how much
(``units`` of the rule's own unit — 番, 分, 鸡 or 嘴 — times the table's stake make
``amount``), under which ledger item (``item``), paid by which hook (``rule``), and the
structured :class:`Fact` behind its units: the tiles it is about, the counts and
multipliers, the pattern row, the seats it concerns.  Per-seat totals are derived, and the
ledger sums to zero by construction.  The stake is applied by the :class:`Ledger` alone, so
every item scales with it.

What a record says in words belongs to the hook that wrote it: a hook registers a words
function (``register(..., words=...)``, :mod:`zhuoji.rules.registry`) that turns an item and
its fact into Chinese and English apart (:class:`~zhuoji.rules.registry.Words`).  A sentence
names a seat only through a placeholder (:data:`PAYER`, :data:`PAYEE`, :data:`SEAT`,
:data:`FOR`) that the reader fills with its own seat names (:func:`fill`).  A hook that
registers no words is shown by its item's labels.  ``detail`` is derived from the words for
readers written before they existed (or is the free text an older plug-in gave).

A :class:`Remark` is a record that moves no money: what the round was (the chickens it made,
a burnt player, a draw with nobody ready), worded by its hook like an entry.

Part of the hook contract (:mod:`zhuoji.contract`): the hooks write it, settlement returns it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, TypedDict, Unpack

from zhuoji.contract import ledger_kernel as _kernel
from zhuoji.rules.registry import Words, words_of
from zhuoji.rules.registry import label as item_label
from zhuoji.tiles import text as tile_text

#: placeholders a sentence names seats by (a reader fills them: 东/南/西/北, "you", "seat 2")
PAYER = "{payer}"
PAYEE = "{payee}"
SEAT = "{seat}"  # the fact's ``seat``
FOR = "{for}"  # the fact's ``for_seat``


@dataclass(frozen=True)
class Fact:
    """The structured facts behind one record's units, every field optional.

    * ``tiles`` — the tiles it is about (a chicken's tile, a kong's, the winning tile, the
      chickens netted);
    * ``count`` — how many: copies of a chicken, a dealer's streak, tiles of a void suit, sets;
    * ``each`` — the value of one of ``count`` (a chicken's per-tile value; a 冲锋's base);
    * ``multiplier`` — what ``each`` is multiplied by (冲锋, 金鸡, 站鸡, 责任, 包牌 …);
    * ``golden`` — the chicken is golden (金鸡);
    * ``pattern``, ``name``, ``name_en`` — a pattern row (its id and names), or the variant's
      own name of the thing paid (幺鸡, 英雄鸡); ``name_en`` may be empty;
    * ``fan`` — a part's value before ``factors``;
    * ``factors`` — why, and by how much, ``fan`` was multiplied: ``(("self_draw", 2),
      ("dealer_wins", 2))``; :attr:`factor` is their product;
    * ``kind`` — the rule's own case (a dou's kong kind, a chicken's origin, 硬报/软报 …);
    * ``seat`` — the seat it is about (the winner whose hand is valued, the declared player
      of 杀报, the thrower of 扔宝, a burnt player);
    * ``for_seat`` — the seat whose share the payer pays (抢杠, 包付);
    * ``revealed`` — the revealed tile that made a chicken (翻鸡, 金鸡);
    * ``discarded`` — of ``count``, the copies that were discarded;
    * ``extra`` — a flat addition (查叫's extra, 站鸡's bonus);
    * ``netted`` — (owed, owed back) of a pairwise settlement; units are the difference;
    * ``mark`` — how a client marks the tiles of a remark (``chicken``, ``golden``, ``none``);
    * ``tags`` — the rule's flags (``back``: paid the other way; ``bonus``: an additive row …).

    Hooks build facts with :func:`fact` (cheap: only the given fields are stored)."""

    tiles: tuple[int, ...] = ()
    count: int | None = None
    each: int | None = None
    multiplier: int | None = None
    golden: bool = False
    pattern: str | None = None
    name: str | None = None
    name_en: str | None = None
    fan: int | None = None
    factors: tuple[tuple[str, int], ...] = ()
    kind: str | None = None
    seat: int | None = None
    for_seat: int | None = None
    revealed: int | None = None
    discarded: int | None = None
    extra: int | None = None
    netted: tuple[int, int] | None = None
    mark: str | None = None
    tags: tuple[str, ...] = ()

    @property
    def factor(self) -> int:
        """The product of :attr:`factors` (1 when none)."""
        return math.prod(n for _, n in self.factors) if self.factors else 1

    def as_dict(self) -> dict[str, object]:
        """The fields that are set, for JSON: tiles in notation (``"8p"``), ``factors`` as
        ``[{"why", "times"}]`` with their product ``factor``."""
        out: dict[str, object] = {}
        for key in _FACT_FIELDS:
            value = getattr(self, key)
            if value is None or value == () or value is False:
                continue
            if key == "tiles":
                out[key] = [tile_text(t) for t in value]
            elif key == "revealed":
                out[key] = tile_text(value)
            elif key == "factors":
                out[key] = [{"why": why, "times": n} for why, n in value]
                out["factor"] = self.factor
            elif key in ("netted", "tags"):
                out[key] = list(value)
            else:
                out[key] = value
        return out


_FACT_FIELDS = tuple(f.name for f in fields(Fact))


class FactFields(TypedDict, total=False):
    """The keyword arguments of :func:`fact` (the fields of :class:`Fact`)."""

    tiles: tuple[int, ...]
    count: int | None
    each: int | None
    multiplier: int | None
    golden: bool
    pattern: str | None
    name: str | None
    name_en: str | None
    fan: int | None
    factors: tuple[tuple[str, int], ...]
    kind: str | None
    seat: int | None
    for_seat: int | None
    revealed: int | None
    discarded: int | None
    extra: int | None
    netted: tuple[int, int] | None
    mark: str | None
    tags: tuple[str, ...]


def fact(**fields: Unpack[FactFields]) -> Fact:
    """A :class:`Fact` holding ``fields`` (the others keep their defaults), the same as
    ``Fact(**fields)`` without the frozen dataclass's field-by-field ``object.__setattr__``
    (settlement writes a dozen a round).  At run time this is the compiled
    :func:`zhuoji.contract.ledger_kernel.fact` (bound below); this definition types it."""
    made: Fact = _kernel.fact(**fields)
    return made


def with_fact(f: Fact, **fields: Unpack[FactFields]) -> Fact:
    """``f`` with ``fields`` changed (at run time :func:`zhuoji.contract.ledger_kernel.with_fact`)."""
    made: Fact = _kernel.with_fact(f, **fields)
    return made


NO_FACT = Fact()


def words(rule: str, item: str, f: Fact) -> Words:
    """What the hook ``rule`` says of a record of ``item`` with fact ``f``; a hook that
    registered no words (or says nothing of it) is shown by the item's labels."""
    fn = words_of(rule)
    said = fn(item, f) if fn is not None else None
    if said is None:
        zh, en = item_label(item)
        return Words(zh, en)
    return said


def _seat_zh(seat: int) -> str:
    return f"{seat}号位"


def _seat_en(seat: int) -> str:
    return f"seat {seat}"


def fill(
    text: str, payer: int | None, payee: int | None, f: Fact, name: Callable[[int], str]
) -> str:
    """``text`` with its seat placeholders replaced by ``name(seat)``."""
    if "{" not in text:
        return text
    for key, seat in ((PAYER, payer), (PAYEE, payee), (SEAT, f.seat), (FOR, f.for_seat)):
        if seat is not None and key in text:
            text = text.replace(key, name(seat))
    return text


@dataclass(frozen=True)
class Remark:
    """A record of the round that moves no money (the chickens a reveal made, a burnt
    player, a draw nobody pays for), worded by its hook like an entry."""

    rule: str
    item: str
    fact: Fact = NO_FACT

    def words(self) -> Words:
        return words(self.rule, self.item, self.fact)

    @property
    def text(self) -> str:
        """The words as one line, Chinese then English, seats as "N号位" / "seat N" (for
        readers of plain text)."""
        w = self.words()
        zh, en = w.sentence()
        return (
            f"{fill(zh, None, None, self.fact, _seat_zh)} / "
            f"{fill(en, None, None, self.fact, _seat_en)}"
        )

    def as_dict(self) -> dict[str, object]:
        zh, en = item_label(self.item)
        return {
            "rule": self.rule,
            "item": self.item,
            "label": zh,
            "label_en": en,
            "fields": self.fact.as_dict(),
            "text": self.text,
        }


@dataclass(frozen=True)
class LedgerEntry:
    """One payment: ``units`` of the rule's own unit (番, 分, 鸡 or 嘴) times the table's stake
    make ``amount``; ``rule`` is the hook that paid it, ``fact`` what its units count.  A
    ``void`` entry (its reason given; ``voided_by`` the record that says why) stays on record
    to explain the round but moves no money.  ``text`` is free text a hook gave in place of
    words (plug-ins written before words)."""

    payer: int
    payee: int
    amount: int
    item: str
    units: int
    rule: str = ""
    fact: Fact = NO_FACT
    text: str = ""
    void: str | None = None
    voided_by: Remark | None = None

    def words(self) -> Words:
        """What the paying hook says of this entry (its labels when it says nothing)."""
        return words(self.rule, self.item, self.fact)

    @property
    def detail(self) -> str:
        """A human-readable line: the hook's free text when it gave one, else what its words
        say this entry counted, Chinese then English (seats as "N号位" / "seat N")."""
        if self.text:
            return self.text
        w = self.words()
        zh = fill(w.zh, self.payer, self.payee, self.fact, _seat_zh)
        en = fill(w.en, self.payer, self.payee, self.fact, _seat_en)
        return f"{zh} / {en}" if zh != en else zh

    def as_dict(self) -> dict[str, object]:
        zh, en = item_label(self.item)
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "units": self.units,
            "item": self.item,
            "label": zh,
            "label_en": en,
            "detail": self.detail,
            "void": self.void,
            "rule": self.rule,
            "fields": self.fact.as_dict(),
            "voided_by": self.voided_by.as_dict() if self.voided_by is not None else None,
        }


@dataclass
class Ledger:
    """The itemized settlement of one round.  The stake lives here and only here: stages pay
    in units (:meth:`pay`), the ledger multiplies (docs/architecture.md, "The ledger": a
    quantity every stage needs lives in one place, so no hook can forget it)."""

    players: int
    stake: int = 1
    record: list[LedgerEntry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    next_dealer: int = 0
    next_streak: int = 0
    remarks: list[Remark] = field(default_factory=list)

    def pay(
        self,
        payer: int,
        payee: int,
        units: int,
        item: str,
        text: str = "",
        f: Fact = NO_FACT,
        rule: str = "",
    ) -> int | None:
        """Record ``payer`` paying ``payee`` ``units`` × stake under ``item`` (paid by hook
        ``rule``, its facts ``f``); a negative amount is paid the other way, nothing is
        recorded for zero or a seat paying itself.  Returns the new entry's index in
        :attr:`record` (None when nothing was recorded)."""
        return _pay(self, payer, payee, units, item, text, f, rule)

    def void(
        self, indices: Iterable[int], why: str = "", *, by: Remark | None = None
    ) -> list[LedgerEntry]:
        """Mark the live entries at ``indices`` void: they stay on record to explain the
        round, excluded from totals.  The reason is ``why`` (text), or the record ``by`` whose
        words say it.  Returns the entries voided."""
        reason = why or (by.text if by is not None else "void")
        voided = []
        for i in indices:
            e = self.record[i]
            if e.void is None:
                self.record[i] = replace(e, void=reason, voided_by=by)
                voided.append(e)
        return voided

    @property
    def entries(self) -> list[LedgerEntry]:
        """The entries that move money (void ones left out)."""
        return [e for e in self.record if e.void is None]

    def totals(self) -> list[int]:
        out = [0] * self.players
        for e in self.record:
            if e.void is None:
                out[e.payer] -= e.amount
                out[e.payee] += e.amount
        return out

    def by_item(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.item] = out.get(e.item, 0) + e.amount
        return out

    def tally(self) -> tuple[list[int], dict[str, int], LedgerEntry | None]:
        """:meth:`totals`, :meth:`by_item` and the largest entry that moves money (the first
        of the largest), in one pass over the record (a simulation summarizes every round
        with them)."""
        totals = [0] * self.players
        items: dict[str, int] = {}
        top: LedgerEntry | None = None
        for e in self.record:
            if e.void is None:
                amount = e.amount
                totals[e.payer] -= amount
                totals[e.payee] += amount
                items[e.item] = items.get(e.item, 0) + amount
                if top is None or amount > top.amount:
                    top = e
        return totals, items, top

    def as_dict(self) -> dict[str, object]:
        return {
            "stake": self.stake,
            "entries": [e.as_dict() for e in self.record],
            "totals": self.totals(),
            "notes": [*self.notes, *(r.text for r in self.remarks if r.fact.mark is None)],
            "remarks": [r.as_dict() for r in self.remarks],
            "next_dealer": self.next_dealer,
            "next_streak": self.next_streak,
        }


# the constructors and the payment, compiled (``contract/ledger_kernel.py``): it builds these
# classes, which it does not import
_kernel.bind(Fact, LedgerEntry)
_pay = _kernel.pay
if not TYPE_CHECKING:  # the same functions as above, without a Python call each
    fact = _kernel.fact
    with_fact = _kernel.with_fact
