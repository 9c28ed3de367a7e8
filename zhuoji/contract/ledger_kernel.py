"""The ledger's records and their construction, compiled (issue 29).

:mod:`zhuoji.contract.ledger` keeps what the records mean (their words, their JSON, the
:class:`~zhuoji.contract.ledger.Ledger` that sums them) and re-exports them; this module holds
the two records settlement makes on every payment, :class:`Fact` and :class:`LedgerEntry`,
and how they are built: ``with_fact`` and the ledger's ``pay`` (the stake applied here, by the
ledger alone).

Both are frozen dataclasses that the build compiles as native classes (``@mypyc_attr``;
``docs/build.md``, "Issue 29, eighth round"): one object each instead of an object and its
``__dict__``, built by a compiled ``__init__`` that stores each field (the compiled stages call
it without a Python call), and not tracked by the garbage collector (``acyclic``: a record
holds tuples, strings, numbers and other records, never itself).  Everything a reader asks of
a dataclass still works, since ``@dataclass`` still makes them one: ``fields``, ``asdict``,
``astuple``, ``replace``, ``==``, ``hash``, ``repr`` and ``FrozenInstanceError`` on assignment.
Pickles made before (``copyreg.__newobj__`` with the instance's ``__dict__`` as its state, only
the given fields when :func:`zhuoji.contract.ledger.fact` made it) load through
``__setstate__``; new ones are constructor calls (``__reduce__``), the same in both builds.

Run as Python (``ZHUOJI_PURE=1``), the frozen dataclass's ``__setattr__`` refuses the stores of
``__init__``: :mod:`zhuoji.contract.ledger` gives the classes the dataclass's own constructor
then (:func:`zhuoji.outcome_kernel.interpreted`, the outcome kernel's records' own).

It imports nothing of the package (run as Python, the outcome kernel's ``interpreted``, from
the layer below): the ledger hands it its readers when it loads (:func:`bind`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

#: the ledger's readers of what a record means (set by :func:`bind` when the ledger loads)
_fact_as_dict: Any = None
_entry_words: Any = None
_entry_detail: Any = None
_entry_as_dict: Any = None


def bind(fact_as_dict: Any, entry_words: Any, entry_detail: Any, entry_as_dict: Any) -> None:
    """Take the ledger's readers (called once, by :mod:`zhuoji.contract.ledger`)."""
    global _fact_as_dict, _entry_words, _entry_detail, _entry_as_dict
    _fact_as_dict = fact_as_dict
    _entry_words = entry_words
    _entry_detail = entry_detail
    _entry_as_dict = entry_as_dict


@mypyc_attr(acyclic=True)
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

    Hooks build facts with :func:`zhuoji.contract.ledger.fact` (this constructor)."""

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

    # the fields are stored one by one (compiled: a native store each; the frozen
    # dataclass's ``__setattr__`` is for readers, not for this constructor)
    def __init__(
        self,
        tiles: tuple[int, ...] = (),
        count: int | None = None,
        each: int | None = None,
        multiplier: int | None = None,
        golden: bool = False,
        pattern: str | None = None,
        name: str | None = None,
        name_en: str | None = None,
        fan: int | None = None,
        factors: tuple[tuple[str, int], ...] = (),
        kind: str | None = None,
        seat: int | None = None,
        for_seat: int | None = None,
        revealed: int | None = None,
        discarded: int | None = None,
        extra: int | None = None,
        netted: tuple[int, int] | None = None,
        mark: str | None = None,
        tags: tuple[str, ...] = (),
    ) -> None:
        self.tiles = tiles  # type: ignore[misc]
        self.count = count  # type: ignore[misc]
        self.each = each  # type: ignore[misc]
        self.multiplier = multiplier  # type: ignore[misc]
        self.golden = golden  # type: ignore[misc]
        self.pattern = pattern  # type: ignore[misc]
        self.name = name  # type: ignore[misc]
        self.name_en = name_en  # type: ignore[misc]
        self.fan = fan  # type: ignore[misc]
        self.factors = factors  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]
        self.seat = seat  # type: ignore[misc]
        self.for_seat = for_seat  # type: ignore[misc]
        self.revealed = revealed  # type: ignore[misc]
        self.discarded = discarded  # type: ignore[misc]
        self.extra = extra  # type: ignore[misc]
        self.netted = netted  # type: ignore[misc]
        self.mark = mark  # type: ignore[misc]
        self.tags = tags  # type: ignore[misc]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a constructor call (a native class has no ``__dict__`` to pickle)."""
        return (Fact, (
            self.tiles, self.count, self.each, self.multiplier, self.golden, self.pattern,
            self.name, self.name_en, self.fan, self.factors, self.kind, self.seat,
            self.for_seat, self.revealed, self.discarded, self.extra, self.netted, self.mark,
            self.tags,
        ))  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        """An old pickle's state (the dataclass's ``__dict__``; only the fields given when
        ``fact`` made it): the fields it holds, the others at their defaults."""
        # (stored one by one: called from Python, a native class's ``__init__`` does nothing)
        self.tiles = state.get("tiles", ())  # type: ignore[misc]
        self.count = state.get("count")  # type: ignore[misc]
        self.each = state.get("each")  # type: ignore[misc]
        self.multiplier = state.get("multiplier")  # type: ignore[misc]
        self.golden = state.get("golden", False)  # type: ignore[misc]
        self.pattern = state.get("pattern")  # type: ignore[misc]
        self.name = state.get("name")  # type: ignore[misc]
        self.name_en = state.get("name_en")  # type: ignore[misc]
        self.fan = state.get("fan")  # type: ignore[misc]
        self.factors = state.get("factors", ())  # type: ignore[misc]
        self.kind = state.get("kind")  # type: ignore[misc]
        self.seat = state.get("seat")  # type: ignore[misc]
        self.for_seat = state.get("for_seat")  # type: ignore[misc]
        self.revealed = state.get("revealed")  # type: ignore[misc]
        self.discarded = state.get("discarded")  # type: ignore[misc]
        self.extra = state.get("extra")  # type: ignore[misc]
        self.netted = state.get("netted")  # type: ignore[misc]
        self.mark = state.get("mark")  # type: ignore[misc]
        self.tags = state.get("tags", ())  # type: ignore[misc]

    @property
    def factor(self) -> int:
        """The product of :attr:`factors` (1 when none)."""
        out = 1
        for _, n in self.factors:
            out *= n
        return out

    def as_dict(self) -> dict[str, object]:
        """The fields that are set, for JSON: tiles in notation (``"8p"``), ``factors`` as
        ``[{"why", "times"}]`` with their product ``factor``
        (:func:`zhuoji.contract.ledger.fact_as_dict`)."""
        out: dict[str, object] = _fact_as_dict(self)
        return out


if Fact.__dictoffset__:  # an interpreted class (its instances have a ``__dict__``)
    # run as Python only: the outcome kernel's frozen constructors (compiled, this module
    # imports nothing of the package)
    from zhuoji.outcome_kernel import interpreted

    interpreted(Fact)

NO_FACT = Fact()


@mypyc_attr(acyclic=True)
@dataclass(frozen=True)
class LedgerEntry:
    """One payment: ``units`` of the rule's own unit (番, 分, 鸡 or 嘴) times the table's stake
    make ``amount``; ``rule`` is the hook that paid it, ``fact`` what its units count.  A
    ``void`` entry (its reason given; ``voided_by`` the record that says why, a
    :class:`~zhuoji.contract.ledger.Remark`) stays on record to explain the round but moves no
    money.  ``text`` is free text a hook gave in place of words (plug-ins written before
    words)."""

    payer: int
    payee: int
    amount: int
    item: str
    units: int
    rule: str = ""
    fact: Fact = NO_FACT
    text: str = ""
    void: str | None = None
    voided_by: Any = None

    # ``payer`` … ``units`` have defaults here only so that an old pickle's
    # ``LedgerEntry.__new__(LedgerEntry)`` can make the object its state then fills
    def __init__(
        self,
        payer: int = 0,
        payee: int = 0,
        amount: int = 0,
        item: str = "",
        units: int = 0,
        rule: str = "",
        fact: Fact = NO_FACT,
        text: str = "",
        void: str | None = None,
        voided_by: Any = None,
    ) -> None:
        self.payer = payer  # type: ignore[misc]
        self.payee = payee  # type: ignore[misc]
        self.amount = amount  # type: ignore[misc]
        self.item = item  # type: ignore[misc]
        self.units = units  # type: ignore[misc]
        self.rule = rule  # type: ignore[misc]
        self.fact = fact  # type: ignore[misc]
        self.text = text  # type: ignore[misc]
        self.void = void  # type: ignore[misc]
        self.voided_by = voided_by  # type: ignore[misc]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a constructor call (a native class has no ``__dict__`` to pickle)."""
        return (LedgerEntry, (
            self.payer, self.payee, self.amount, self.item, self.units, self.rule, self.fact,
            self.text, self.void, self.voided_by,
        ))  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        """An old pickle's state (the dataclass's ``__dict__``; without ``text``, ``void`` and
        ``voided_by`` when the ledger's ``pay`` made it): the fields it holds."""
        self.payer = state.get("payer", 0)  # type: ignore[misc]
        self.payee = state.get("payee", 0)  # type: ignore[misc]
        self.amount = state.get("amount", 0)  # type: ignore[misc]
        self.item = state.get("item", "")  # type: ignore[misc]
        self.units = state.get("units", 0)  # type: ignore[misc]
        self.rule = state.get("rule", "")  # type: ignore[misc]
        self.fact = state.get("fact", NO_FACT)  # type: ignore[misc]
        self.text = state.get("text", "")  # type: ignore[misc]
        self.void = state.get("void")  # type: ignore[misc]
        self.voided_by = state.get("voided_by")  # type: ignore[misc]

    def words(self) -> Any:
        """What the paying hook says of this entry (its labels when it says nothing): a
        :class:`~zhuoji.rules.registry.Words`."""
        return _entry_words(self)

    @property
    def detail(self) -> str:
        """A human-readable line: the hook's free text when it gave one, else what its words
        say this entry counted, Chinese then English (seats as "N号位" / "seat N")."""
        out: str = _entry_detail(self)
        return out

    def as_dict(self) -> dict[str, object]:
        """The entry for JSON (:func:`zhuoji.contract.ledger.entry_as_dict`)."""
        out: dict[str, object] = _entry_as_dict(self)
        return out


if LedgerEntry.__dictoffset__:
    interpreted(LedgerEntry)


def fact(
    *,
    tiles: tuple[int, ...] = (),
    count: int | None = None,
    each: int | None = None,
    multiplier: int | None = None,
    golden: bool = False,
    pattern: str | None = None,
    name: str | None = None,
    name_en: str | None = None,
    fan: int | None = None,
    factors: tuple[tuple[str, int], ...] = (),
    kind: str | None = None,
    seat: int | None = None,
    for_seat: int | None = None,
    revealed: int | None = None,
    discarded: int | None = None,
    extra: int | None = None,
    netted: tuple[int, int] | None = None,
    mark: str | None = None,
    tags: tuple[str, ...] = (),
) -> Fact:
    """``Fact(**fields)``, for callers in Python and in the other compiled groups: the
    constructor's own argument parsing (``__new__`` with a keyword dictionary) is about 12 K
    instructions a call from Python with nineteen keywords; a compiled function's keywords
    are matched by the vectorcall parser, and the constructor called natively."""
    return Fact(
        tiles,
        count,
        each,
        multiplier,
        golden,
        pattern,
        name,
        name_en,
        fan,
        factors,
        kind,
        seat,
        for_seat,
        revealed,
        discarded,
        extra,
        netted,
        mark,
        tags,
    )


def fact_at(
    tiles: tuple[int, ...] = (),
    count: int | None = None,
    each: int | None = None,
    multiplier: int | None = None,
    golden: bool = False,
    pattern: str | None = None,
    name: str | None = None,
    name_en: str | None = None,
    fan: int | None = None,
    factors: tuple[tuple[str, int], ...] = (),
    kind: str | None = None,
    seat: int | None = None,
    for_seat: int | None = None,
    revealed: int | None = None,
    discarded: int | None = None,
    extra: int | None = None,
    netted: tuple[int, int] | None = None,
    mark: str | None = None,
    tags: tuple[str, ...] = (),
) -> Fact:
    """:func:`fact` with its fields given by position, in :class:`Fact`'s order (trailing
    ones may be left out), for the compiled stages of other groups (the chickens, the win
    payment).  Their calls into this module are Python calls, and a call with keywords is
    matched parameter by parameter against the names given (about 3.5 K instructions a call
    with nineteen parameters; issue 29); a call with positions alone is not."""
    return Fact(
        tiles,
        count,
        each,
        multiplier,
        golden,
        pattern,
        name,
        name_en,
        fan,
        factors,
        kind,
        seat,
        for_seat,
        revealed,
        discarded,
        extra,
        netted,
        mark,
        tags,
    )


def with_fact(f: Fact, **fields: Any) -> Fact:
    """``f`` with ``fields`` changed."""
    return Fact(
        fields.get("tiles", f.tiles),
        fields.get("count", f.count),
        fields.get("each", f.each),
        fields.get("multiplier", f.multiplier),
        fields.get("golden", f.golden),
        fields.get("pattern", f.pattern),
        fields.get("name", f.name),
        fields.get("name_en", f.name_en),
        fields.get("fan", f.fan),
        fields.get("factors", f.factors),
        fields.get("kind", f.kind),
        fields.get("seat", f.seat),
        fields.get("for_seat", f.for_seat),
        fields.get("revealed", f.revealed),
        fields.get("discarded", f.discarded),
        fields.get("extra", f.extra),
        fields.get("netted", f.netted),
        fields.get("mark", f.mark),
        fields.get("tags", f.tags),
    )


def pay(
    ledger: Any, payer: int, payee: int, units: int, item: str, text: str, f: Fact, rule: str
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
    record: list[LedgerEntry] = ledger.record
    record.append(LedgerEntry(payer, payee, units * stake, item, units, rule, f, text))
    return len(record) - 1


def totals(record: list[LedgerEntry], players: int) -> list[int]:
    """``Ledger.totals``: each seat's net over the entries that move money (void ones left
    out).  Compiled, it reads the entries' fields natively: as a Python loop over these
    native records each read was a descriptor call and a boxed int (about 23 K instructions
    a guiyang round's ledger, in the round's end event; issue 29)."""
    out = [0] * players
    for e in record:
        if e.void is None:
            amount = e.amount
            out[e.payer] = out[e.payer] - amount
            out[e.payee] = out[e.payee] + amount
    return out


def tally(record: list[LedgerEntry], players: int) -> tuple[list[int], dict[str, int], Any]:
    """``Ledger.tally``: :func:`totals`, the amounts by item and the largest entry that moves
    money (the first of the largest; None without one), in one pass over the record."""
    out = [0] * players
    items: dict[str, int] = {}
    top: LedgerEntry | None = None
    for e in record:
        if e.void is None:
            amount = e.amount
            out[e.payer] = out[e.payer] - amount
            out[e.payee] = out[e.payee] + amount
            items[e.item] = items.get(e.item, 0) + amount
            if top is None or amount > top.amount:
                top = e
    return out, items, top
