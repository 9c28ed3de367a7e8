"""The ledger's constructors and its payment, compiled (issue 29).

:mod:`zhuoji.contract.ledger` keeps the records (``Fact``, ``LedgerEntry``, ``Ledger``: frozen
dataclasses whose equality, ``dataclasses.asdict``/``replace``, pickling and JSON every
reader relies on) and what they mean; this module is how they are built on every payment:
``fact``, ``with_fact`` and the ledger's ``pay`` (the stake applied here, by the ledger alone).
A record is built with its given fields as its ``__dict__`` (equal to the dataclass's
constructor, without its field-by-field ``object.__setattr__``), compiled so that the
compiled stages (the win payment, the chickens stage) pay without a Python call.

It imports nothing of the package: ``ledger.py`` hands it its two classes when it loads
(:func:`bind`), so neither module imports the other back.
"""

from __future__ import annotations

from typing import Any

_new_object = object.__new__
#: sets a record's ``__dict__`` (the frozen dataclasses refuse ``setattr``)
_set = object.__setattr__

#: the record classes of ``zhuoji.contract.ledger`` (set by :func:`bind` when it loads)
_FACT: Any = None
_ENTRY: Any = None


def bind(fact_class: type, entry_class: type) -> None:
    """Take the ledger's ``Fact`` and ``LedgerEntry`` classes (called once, by the ledger)."""
    global _FACT, _ENTRY
    _FACT = fact_class
    _ENTRY = entry_class


def fact(**fields: Any) -> Any:
    """A ``Fact`` holding ``fields`` (the others keep their defaults, read from the class):
    the same as ``Fact(**fields)``.  The keyword dictionary, new for each call, becomes the
    record's ``__dict__`` (no copy, no resizing of an empty one)."""
    f = _new_object(_FACT)
    _set(f, "__dict__", fields)
    return f


def with_fact(f: Any, **fields: Any) -> Any:
    """``f`` with ``fields`` changed."""
    d: dict[str, Any] = dict(f.__dict__)
    d.update(fields)
    g = _new_object(_FACT)
    _set(g, "__dict__", d)
    return g


def pay(
    ledger: Any, payer: int, payee: int, units: int, item: str, text: str, f: Any, rule: str
) -> int | None:
    """``Ledger.pay``: record ``payer`` paying ``payee`` ``units`` × the ledger's stake under
    ``item`` (paid by hook ``rule``, its facts ``f``, free text ``text``); a negative amount
    is paid the other way, nothing is recorded for zero or a seat paying itself.  Returns the
    new entry's index in the record (None when nothing was recorded)."""
    if units < 0:
        payer, payee, units = payee, payer, -units
    if units == 0 or payer == payee:
        return None
    stake: int = ledger.stake
    entry = _new_object(_ENTRY)
    # the fields left at their defaults (not void; no text) are read from the class; the
    # dictionary is built at its size and becomes the entry's ``__dict__``
    if text:
        d: dict[str, Any] = {
            "payer": payer, "payee": payee, "amount": units * stake, "item": item,
            "units": units, "rule": rule, "fact": f, "text": text,
        }  # fmt: skip
    else:
        d = {
            "payer": payer, "payee": payee, "amount": units * stake, "item": item,
            "units": units, "rule": rule, "fact": f,
        }  # fmt: skip
    _set(entry, "__dict__", d)
    record: list[Any] = ledger.record
    record.append(entry)
    return len(record) - 1
