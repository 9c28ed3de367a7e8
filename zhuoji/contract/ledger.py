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

The two records settlement makes on every payment, :class:`Fact` and :class:`LedgerEntry`,
are defined in :mod:`zhuoji.contract.ledger_kernel` (compiled as native classes, still frozen
dataclasses to every reader) and are this module's under its name: imported, pickled and
worded from here (``fact_as_dict``, ``entry_words``, ``entry_detail``, ``entry_as_dict``).

Part of the hook contract (:mod:`zhuoji.contract`): the hooks write it, settlement returns it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, TypedDict, Unpack

from zhuoji.contract import ledger_kernel as _kernel
from zhuoji.contract.ledger_kernel import NO_FACT as NO_FACT
from zhuoji.contract.ledger_kernel import Fact as Fact
from zhuoji.contract.ledger_kernel import LedgerEntry as LedgerEntry
from zhuoji.rules.registry import Words, words_of
from zhuoji.rules.registry import label as item_label
from zhuoji.tiles import text as tile_text

#: placeholders a sentence names seats by (a reader fills them: 东/南/西/北, "you", "seat 2")
PAYER = "{payer}"
PAYEE = "{payee}"
SEAT = "{seat}"  # the fact's ``seat``
FOR = "{for}"  # the fact's ``for_seat``


_FACT_FIELDS = tuple(f.name for f in fields(Fact))


def fact_as_dict(f: Fact) -> dict[str, object]:
    """:meth:`Fact.as_dict`: the fields that are set, for JSON: tiles in notation (``"8p"``),
    ``factors`` as ``[{"why", "times"}]`` with their product ``factor``."""
    out: dict[str, object] = {}
    for key in _FACT_FIELDS:
        value = getattr(f, key)
        if value is None or value == () or value is False:
            continue
        if key == "tiles":
            out[key] = [tile_text(t) for t in value]
        elif key == "revealed":
            out[key] = tile_text(value)
        elif key == "factors":
            out[key] = [{"why": why, "times": n} for why, n in value]
            out["factor"] = f.factor
        elif key in ("netted", "tags"):
            out[key] = list(value)
        else:
            out[key] = value
    return out


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
    ``Fact(**fields)``.  At run time this is the compiled
    :func:`zhuoji.contract.ledger_kernel.fact` (bound below); this definition types it."""
    made: Fact = _kernel.fact(**fields)
    return made


def with_fact(f: Fact, **fields: Unpack[FactFields]) -> Fact:
    """``f`` with ``fields`` changed (at run time :func:`zhuoji.contract.ledger_kernel.with_fact`)."""
    made: Fact = _kernel.with_fact(f, **fields)
    return made


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


def entry_words(e: LedgerEntry) -> Words:
    """:meth:`LedgerEntry.words`: what the paying hook says of the entry (its labels when it
    says nothing)."""
    return words(e.rule, e.item, e.fact)


def entry_detail(e: LedgerEntry) -> str:
    """:attr:`LedgerEntry.detail`: a human-readable line, the hook's free text when it gave
    one, else what its words say this entry counted, Chinese then English (seats as "N号位" /
    "seat N")."""
    if e.text:
        return e.text
    w = entry_words(e)
    zh = fill(w.zh, e.payer, e.payee, e.fact, _seat_zh)
    en = fill(w.en, e.payer, e.payee, e.fact, _seat_en)
    return f"{zh} / {en}" if zh != en else zh


def entry_as_dict(e: LedgerEntry) -> dict[str, object]:
    """:meth:`LedgerEntry.as_dict`: the entry for JSON."""
    zh, en = item_label(e.item)
    voided_by: Remark | None = e.voided_by
    return {
        "payer": e.payer,
        "payee": e.payee,
        "amount": e.amount,
        "units": e.units,
        "item": e.item,
        "label": zh,
        "label_en": en,
        "detail": entry_detail(e),
        "void": e.void,
        "rule": e.rule,
        "fields": fact_as_dict(e.fact),
        "voided_by": voided_by.as_dict() if voided_by is not None else None,
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
        """Each seat's net over the entries that move money (void ones left out): the
        kernel's :func:`~zhuoji.contract.ledger_kernel.totals`, which reads the records
        natively."""
        return _kernel.totals(self.record, self.players)

    def by_item(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.item] = out.get(e.item, 0) + e.amount
        return out

    def tally(self) -> tuple[list[int], dict[str, int], LedgerEntry | None]:
        """:meth:`totals`, :meth:`by_item` and the largest entry that moves money (the first
        of the largest), in one pass over the record (a simulation summarizes every round
        with them; the kernel's :func:`~zhuoji.contract.ledger_kernel.tally`)."""
        return _kernel.tally(self.record, self.players)

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


# the records and their construction, compiled (``contract/ledger_kernel.py``): it reads
# their meaning here, which it does not import
_kernel.bind(fact_as_dict, entry_words, entry_detail, entry_as_dict)
for _record in (Fact, LedgerEntry):  # pickled under this module's name, in both builds
    _record.__module__ = __name__
_pay = _kernel.pay
if not TYPE_CHECKING:  # the same functions as above, without a Python call each
    fact = _kernel.fact
    with_fact = _kernel.with_fact
