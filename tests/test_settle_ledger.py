"""The ledger's entries (zhuoji.settle): built by :meth:`Ledger.pay` without the frozen
dataclass's own ``__init__``, yet the same entries, as frozen, as a plain ``LedgerEntry(...)``."""

from __future__ import annotations

import dataclasses

import pytest

from zhuoji.contract.ledger import Ledger, LedgerEntry


def test_paid_entry_is_the_plain_entry() -> None:
    ledger = Ledger(4, stake=5)
    assert ledger.pay(1, 2, 3, "ji.yaoji", "幺鸡 ×3") == 0
    got = ledger.record[0]
    want = LedgerEntry(1, 2, 15, "ji.yaoji", "幺鸡 ×3", 3)
    assert got == want and hash(got) == hash(want) and repr(got) == repr(want)
    assert vars(got) == vars(want) and list(vars(got)) == list(vars(want))
    assert dataclasses.astuple(got) == (1, 2, 15, "ji.yaoji", "幺鸡 ×3", 3, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.amount = 1  # type: ignore[misc]


def test_negative_units_pay_the_other_way_and_void_keeps_the_entry() -> None:
    ledger = Ledger(4)
    ledger.pay(0, 1, -2, "hu.pattern", "x")
    assert ledger.pay(2, 2, 4, "hu.pattern", "self") is None
    assert ledger.pay(0, 1, 0, "hu.pattern", "zero") is None
    (e,) = ledger.record
    assert (e.payer, e.payee, e.amount, e.units) == (1, 0, 2, 2)
    assert ledger.void([0], "包牌") == [e]
    assert ledger.record[0] == dataclasses.replace(e, void="包牌")
    assert ledger.totals() == [0, 0, 0, 0] and ledger.as_dict()["entries"][0]["void"] == "包牌"
