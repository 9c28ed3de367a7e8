"""Settlement records explained in words, in Chinese and in English apart, for players.

A thin reader: every ledger entry and remark names the hook that wrote it (``rule``) and
carries its structured facts (:class:`~zhuoji.contract.ledger.Fact`); the words are that
hook's own (its registered words function, :class:`~zhuoji.rules.registry.Words`) — 翻鸡
says which tile was revealed and which chicken that made (「翻出五筒，六筒为鸡」), 冲锋鸡 names
the real tile (「冲锋鸡：本局第一张打出的八筒没人碰杠，打出的人得分」).  A plug-in's hook that
registers words is explained the same way; one that does not is shown by its labels.

Sentences name seats only through placeholders (``{payer}``, ``{payee}``, ``{seat}``,
``{for}``: :mod:`zhuoji.contract.ledger`), which the reader fills with its own seat names
(:func:`fill_seats`): the browser says 东/南/西/北 or "you", the terminal "seat 2".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from zhuoji import tiles as T
from zhuoji.contract.ledger import Fact, Ledger, LedgerEntry, Remark, fill
from zhuoji.rules import catalog  # noqa: F401  (every built-in hook registers its words)


@dataclass(frozen=True)
class ChickenRule:
    """One way a tile became a chicken this round (or, mark ``none``, why none is), in words."""

    tile: int
    mark: str  # chicken | golden | none
    zh: str
    en: str

    def as_dict(self) -> dict[str, str]:
        return {"tile": T.text(self.tile), "mark": self.mark, "zh": self.zh, "en": self.en}


def explain_entry(entry: LedgerEntry) -> tuple[str, str]:
    """The sentence of one ledger entry, (Chinese, English), from its hook's words: the rule,
    then what this entry counted (seats as placeholders)."""
    return entry.words().sentence()


def explain_remark(remark: Remark) -> tuple[str, str]:
    """The sentence of one remark, (Chinese, English), from its hook's words."""
    return remark.words().sentence()


def fill_seats(text: str, record: LedgerEntry | Remark, name: Callable[[int], str]) -> str:
    """``text`` (a sentence of ``record``) with its seats named by ``name(seat)``."""
    if isinstance(record, LedgerEntry):
        return fill(text, record.payer, record.payee, record.fact, name)
    return fill(text, None, None, record.fact, name)


def chicken_rules(ledger: Ledger) -> list[ChickenRule]:
    """The round's chickens and why, one per tile: the remarks the chickens stage recorded
    (those with a ``mark``), worded by it — permanent ones (常鸡), per counting reveal the
    chickens it made (翻鸡), golden ones (金鸡), the day's (星期鸡), or, after a 吹风鸡
    reveal, that nothing is a chicken."""
    out: list[ChickenRule] = []
    for r in ledger.remarks:
        f: Fact = r.fact
        if f.mark is None:
            continue
        zh, en = explain_remark(r)
        out.extend(ChickenRule(k, f.mark, zh, en) for k in f.tiles)
    return out


def explain_settlement(settlement: Mapping[str, Any], ledger: Ledger) -> dict[str, Any]:
    """A copy of a settlement (``zhuoji.report.settlement_json`` of ``ledger`` and the
    server's additions) whose entries (the ledger's, as ``LedgerEntry.as_dict`` gives them)
    carry ``why`` / ``why_en`` (and, when voided, ``void_why`` / ``void_why_en``), whose
    ``remarks`` carry theirs (``notes`` keeps only the free text of hooks without words),
    with the round's ``chickens`` rules.  Seats stay placeholders the reader fills from each
    record's ``payer``, ``payee`` and ``fields`` (``seat``, ``for_seat``)."""
    out = dict(settlement)
    entries = []
    for record in ledger.record:  # the ledger's own records (a stored settlement may be older)
        zh, en = explain_entry(record)
        explained: dict[str, Any] = {**record.as_dict(), "why": zh, "why_en": en}
        if record.voided_by is not None:
            vz, ve = explain_remark(record.voided_by)
            explained.update(void_why=vz, void_why_en=ve)
        entries.append(explained)
    out["entries"] = entries
    remarks = []
    for r in ledger.remarks:
        zh, en = explain_remark(r)
        remarks.append({**r.as_dict(), "why": zh, "why_en": en})
    out["remarks"] = remarks
    out["notes"] = list(ledger.notes)  # free text only: the remarks carry their own words
    out["chickens"] = [c.as_dict() for c in chicken_rules(ledger)]
    return out
