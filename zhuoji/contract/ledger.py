"""The ledger: every payment of a round, itemized (DESIGN.md "Ledger").

Every payment is a :class:`LedgerEntry` ``{payer, payee, amount, item, detail}``; per-seat
totals are derived, and the ledger sums to zero by construction.  Stages pay in units (番,
分, 鸡, 嘴); the table's stake (the variant's top-level ``stake``, a per-table override) is
applied by the :class:`Ledger` alone, so every item scales with it.  Part of the hook
contract (:mod:`zhuoji.contract`): the hooks write it, settlement returns it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from zhuoji.rules.registry import label as item_label


@dataclass(frozen=True)
class LedgerEntry:
    """One payment: ``units`` of the rule's own unit (番, 分, 鸡 or 嘴) times the table's stake
    make ``amount``.  A ``void`` entry (its reason given) stays on record to explain the
    round but moves no money."""

    payer: int
    payee: int
    amount: int
    item: str
    detail: str
    units: int
    void: str | None = None

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
        }


def _entry(payer: int, payee: int, amount: int, item: str, detail: str, units: int) -> LedgerEntry:
    """A live :class:`LedgerEntry`, the same as ``LedgerEntry(...)``, built without the
    frozen dataclass's field-by-field ``object.__setattr__`` (a round pays a dozen)."""
    entry = _new_object(LedgerEntry)
    entry.__dict__.update(
        payer=payer, payee=payee, amount=amount, item=item, detail=detail, units=units, void=None
    )
    return entry


_new_object = object.__new__


@dataclass
class Ledger:
    """The itemized settlement of one round.  The stake lives here and only here: stages pay
    in units (:meth:`pay`), the ledger multiplies (STYLE.md "A cross-cutting quantity lives
    in one place")."""

    players: int
    stake: int = 1
    record: list[LedgerEntry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    next_dealer: int = 0
    next_streak: int = 0

    def pay(self, payer: int, payee: int, units: int, item: str, detail: str) -> int | None:
        """Record ``payer`` paying ``payee`` ``units`` × stake; a negative amount is paid the
        other way, nothing is recorded for zero or a seat paying itself.  Returns the new
        entry's index in :attr:`record` (None when nothing was recorded)."""
        if units < 0:
            payer, payee, units = payee, payer, -units
        if units == 0 or payer == payee:
            return None
        self.record.append(_entry(payer, payee, units * self.stake, item, detail, units))
        return len(self.record) - 1

    def void(self, indices: Iterable[int], why: str) -> list[LedgerEntry]:
        """Mark the live entries at ``indices`` void (reason ``why``): they stay on record to
        explain the round, excluded from totals.  Returns the entries voided."""
        voided = []
        for i in indices:
            e = self.record[i]
            if e.void is None:
                self.record[i] = replace(e, void=why)
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

    def as_dict(self) -> dict[str, object]:
        return {
            "stake": self.stake,
            "entries": [e.as_dict() for e in self.record],
            "totals": self.totals(),
            "notes": list(self.notes),
            "next_dealer": self.next_dealer,
            "next_streak": self.next_streak,
        }
