"""Ledger records stored before ``Fact`` and ``LedgerEntry`` became native classes (issue 29,
eighth round) still load and read as they did: pickles of every protocol from 2 up (the
dataclass's ``copyreg.__newobj__`` with its ``__dict__`` as state: a ``fact(...)``'s holds
only the fields given, an entry the ledger's ``pay`` made has no ``text``, ``void`` or
``voided_by``) and the JSON a ledger wrote (``Ledger.as_dict``, which the server stores).
The old forms were written by main's code at 3407b23 (``tests/ledger_old/make.py``).

Also: today's records pickle and copy the same in both builds (under
``zhuoji.contract.ledger``, as before), stay frozen dataclasses, and when compiled hold no
``__dict__`` and are not tracked by the garbage collector.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import gc
import importlib.util
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from zhuoji import compiled
from zhuoji.contract import ledger_kernel
from zhuoji.contract.ledger import NO_FACT, Fact, Ledger, LedgerEntry, Remark, fact, with_fact
from zhuoji.rules import catalog  # noqa: F401  (registers every hook: the records' words)

HERE = Path(__file__).parent / "ledger_old"
OLD: dict[str, Any] = json.loads((HERE / "records.json").read_text("utf-8"))


def _records() -> dict[str, Any]:
    """``tests/ledger_old/make.py``'s records, made by today's code."""
    spec = importlib.util.spec_from_file_location("ledger_old_make", HERE / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made: dict[str, Any] = module.records()
    return made


@pytest.mark.parametrize("proto", sorted(OLD["pickles"]))
def test_old_pickles_load_and_read_as_before(proto: str) -> None:
    singles, ledgers = pickle.loads(base64.b64decode(OLD["pickles"][proto]))
    assert [repr(x) for x in singles] == OLD["repr"]
    assert [repr(lg) for lg in ledgers] == OLD["ledgers_repr"]
    assert [lg.as_dict() for lg in ledgers] == OLD["ledgers_json"]
    flip, full, empty, entry, plain, why = singles
    # a fact ``fact()`` made pickled only its given fields: the others read as their defaults
    assert flip == fact(tiles=(25,), count=2, each=1, kind="flip", revealed=24)
    assert flip.factors == () and flip.seat is None and flip.factor == 1
    assert hash(flip) == hash(Fact(tiles=(25,), count=2, each=1, kind="flip", revealed=24))
    assert full.factor == 2 and empty == NO_FACT
    assert entry.voided_by == why and entry.void == "void" and entry.fact.count == 3
    assert plain == LedgerEntry(0, 3, 4, "hu.pattern", 4) and plain.text == ""
    assert all(isinstance(e, LedgerEntry) for lg in ledgers for e in lg.record)
    # an old record loaded is today's record: it pickles again and comes back equal
    again = pickle.loads(pickle.dumps((singles, ledgers)))
    assert [repr(x) for x in again[0]] == OLD["repr"]


def test_the_old_json_is_what_today_writes() -> None:
    """The same rounds (and the ledger made by hand) write the JSON they wrote before: what the
    server stored reads the same, and no ledger moved."""
    assert _records()["ledgers_json"] == OLD["ledgers_json"]


def _samples() -> list[Any]:
    why = Remark("liability", "baopai", fact(kind="peng_sets", seat=2))
    f = fact(tiles=(3, 4), factors=(("self_draw", 2), ("dealer_wins", 2)), netted=(2, 1))
    return [
        f,
        NO_FACT,
        with_fact(f, seat=1, tags=("back",)),
        LedgerEntry(1, 2, 15, "ji.yaoji", 3, "chickens", f, "", "void", why),
        LedgerEntry(0, 3, 4, "hu.pattern", 4),
    ]


@pytest.mark.parametrize("proto", range(pickle.HIGHEST_PROTOCOL + 1))
def test_records_pickle_and_copy_under_the_ledgers_name(proto: int) -> None:
    for x in _samples():
        data = pickle.dumps(x, proto)
        assert b"zhuoji.contract.ledger" in data and b"ledger_kernel" not in data
        assert b"_compiled" not in data  # the same pickle whichever build made it
        for y in (pickle.loads(data), copy.copy(x), copy.deepcopy(x)):
            assert y == x and hash(y) == hash(x) and repr(y) == repr(x)


def test_records_keep_their_dataclass_readers() -> None:
    f, _, g, entry, plain = _samples()
    assert f.factor == 4 and f.seat is None
    assert g.seat == 1 and g.tags == ("back",) and g.factors == f.factors
    assert dataclasses.is_dataclass(Fact) and dataclasses.is_dataclass(LedgerEntry)
    assert [x.name for x in dataclasses.fields(LedgerEntry)][:5] == [
        "payer", "payee", "amount", "item", "units"
    ]  # fmt: skip
    assert dataclasses.asdict(entry)["fact"]["factors"] == (("self_draw", 2), ("dealer_wins", 2))
    assert dataclasses.replace(plain, void="x").void == "x" and plain.void is None
    assert dataclasses.astuple(plain)[:5] == (0, 3, 4, "hu.pattern", 4)
    for x, name in ((f, "count"), (entry, "amount")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(x, name, 1)


def test_fact_takes_the_fields_by_keyword_only() -> None:
    assert fact() == NO_FACT and fact(count=2, tags=("back",)) == Fact(count=2, tags=("back",))
    with pytest.raises(TypeError):
        fact(counts=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        fact((1,))  # type: ignore[arg-type, call-arg]


def test_a_ledger_pays_through_the_records() -> None:
    ledger = Ledger(4, stake=3)
    assert ledger.pay(0, 1, -2, "hu.pattern", "", NO_FACT, "hu") == 0
    (e,) = ledger.record
    assert e == LedgerEntry(1, 0, 6, "hu.pattern", 2, "hu", NO_FACT)
    assert type(e) is LedgerEntry and type(fact(count=1)) is Fact


def test_compiled_records_are_native_and_untracked() -> None:
    if not compiled.is_compiled(ledger_kernel):
        pytest.skip("the ledger group runs as Python")
    f, _, _, entry, _ = _samples()
    for x in (f, entry):
        assert not hasattr(x, "__dict__")
        assert not gc.is_tracked(x)
