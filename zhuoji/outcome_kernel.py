"""The round's records, and records built without their frozen ``__init__``, compiled
(issue 29).

:class:`SeatEnd` and :class:`RoundEnd` are :mod:`zhuoji.outcome`'s under their names: the
engine ends every round with a round end and a seat end a seat, and as frozen dataclasses
each was an object and its ``__dict__`` (a dict built for it, about 2 K instructions a
record to make, and two objects the garbage collector tracks).  Here they are frozen
dataclasses that the build compiles as native classes (``@mypyc_attr``, as the ledger's
:class:`~zhuoji.contract.ledger.Fact`): one object each, its fields stored by a compiled
``__init__``, not tracked by the collector (``acyclic``: a record holds tuples, numbers,
enum members and other records, never itself).  Everything a reader asks of a dataclass
still works: ``fields``, ``asdict``, ``replace``, ``==``, ``hash``, ``repr`` and
``FrozenInstanceError`` on assignment.  Pickles made before (``copyreg.__newobj__`` with the
instance's ``__dict__`` as its state) load through ``__setstate__``; new ones are
constructor calls (``__reduce__``), the same in both builds.  What the records mean (their
methods) is :mod:`zhuoji.outcome`'s, which hands its readers to :func:`bind` when it loads;
the fields are typed there (this module's are ``Any``: it imports nothing of the package, and
a native field typed ``Any`` takes whatever a round-end file gives, as the dataclass did).

:func:`record` is :func:`zhuoji.outcome.frozen_from`, for the records that stay Python
dataclasses (a win's context, the pattern components, the simulation's round records): as a
Python function each of those calls was a frame of its own; compiled, it is a call of a
native function.

The module sits in the lowest layer beside :mod:`zhuoji.outcome` (``docs/architecture.md``)
and imports nothing of the package, so the records' module may import it (the seventh round
of issue 29 bound ``frozen_from`` to the ledger kernel instead, a layer above, and reverted
it).  What :func:`record` promises, and what its callers must pass, is said in
:func:`zhuoji.outcome.frozen_from`'s docstring.

Run as Python (``ZHUOJI_PURE=1``, or no build), the frozen dataclass's ``__setattr__`` refuses
the stores of ``__init__``: the classes get the dataclass's own constructor then
(:func:`interpreted`, which the ledger kernel's records use too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from mypy_extensions import mypyc_attr

#: a new instance of a class, without its ``__init__``
_new_object: Final = object.__new__
#: sets a frozen record's ``__dict__`` (its class refuses ``setattr``)
_set_attr: Final = object.__setattr__

#: :mod:`zhuoji.outcome`'s readers of what the records mean (set by :func:`bind`)
_concealed_counts: Any = None
_void_tiles: Any = None
_reveal: Any = None


def bind(concealed_counts: Any, void_tiles: Any, reveal: Any) -> None:
    """Take the records' readers (called once, by :mod:`zhuoji.outcome`)."""
    global _concealed_counts, _void_tiles, _reveal
    _concealed_counts = concealed_counts
    _void_tiles = void_tiles
    _reveal = reveal


def record(cls: type, fields: dict[str, Any]) -> Any:
    """An instance of the frozen dataclass ``cls`` whose ``__dict__`` is ``fields`` (the
    dict itself, not a copy): :func:`zhuoji.outcome.frozen_from`."""
    obj: Any = _new_object(cls)
    _set_attr(obj, "__dict__", fields)
    return obj


@mypyc_attr(acyclic=True)
@dataclass(frozen=True)
class SeatEnd:
    """A seat at the round's end (:class:`zhuoji.outcome.SeatEnd`, where its fields are
    typed and said)."""

    concealed: Any = ()
    melds: Any = ()
    declared: Any = None
    ever_ready: Any = False
    xianggong: Any = False
    void_suit: Any = None
    flowers: Any = 0

    # ``concealed`` has a default here only so that an old pickle's ``SeatEnd.__new__``
    # can make the object its state then fills (as the ledger's ``LedgerEntry``)
    def __init__(
        self,
        concealed: Any = (),
        melds: Any = (),
        declared: Any = None,
        ever_ready: Any = False,
        xianggong: Any = False,
        void_suit: Any = None,
        flowers: Any = 0,
    ) -> None:
        self.concealed = concealed  # type: ignore[misc]
        self.melds = melds  # type: ignore[misc]
        self.declared = declared  # type: ignore[misc]
        self.ever_ready = ever_ready  # type: ignore[misc]
        self.xianggong = xianggong  # type: ignore[misc]
        self.void_suit = void_suit  # type: ignore[misc]
        self.flowers = flowers  # type: ignore[misc]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a constructor call (a native class has no ``__dict__`` to pickle)."""
        return (SeatEnd, (
            self.concealed, self.melds, self.declared, self.ever_ready, self.xianggong,
            self.void_suit, self.flowers,
        ))  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        """An old pickle's state (the dataclass's ``__dict__``): the fields it holds."""
        # (stored one by one: called from Python, a native class's ``__init__`` does nothing)
        self.concealed = state.get("concealed", ())  # type: ignore[misc]
        self.melds = state.get("melds", ())  # type: ignore[misc]
        self.declared = state.get("declared")  # type: ignore[misc]
        self.ever_ready = state.get("ever_ready", False)  # type: ignore[misc]
        self.xianggong = state.get("xianggong", False)  # type: ignore[misc]
        self.void_suit = state.get("void_suit")  # type: ignore[misc]
        self.flowers = state.get("flowers", 0)  # type: ignore[misc]

    def concealed_counts(self) -> list[int]:
        """:meth:`zhuoji.outcome.SeatEnd.concealed_counts`."""
        out: list[int] = _concealed_counts(self)
        return out

    def void_tiles(self) -> int:
        """:meth:`zhuoji.outcome.SeatEnd.void_tiles`."""
        out: int = _void_tiles(self)
        return out


@mypyc_attr(acyclic=True)
@dataclass(frozen=True)
class RoundEnd:
    """What a round leaves behind (:class:`zhuoji.outcome.RoundEnd`, where its fields are
    typed and said)."""

    players: Any = 0
    dealer: Any = 0
    streak: Any = 0
    seats: Any = ()
    discards: Any = ()
    wins: Any = ()
    win_tile: Any = None
    gangkai: Any = False
    repao: Any = False
    haidi: Any = False
    tianhu: Any = False
    dihu: Any = False
    renhu: Any = False
    kong_tile: Any = None
    reveals: Any = ()
    wild: Any = None
    wild_indicator: Any = None
    round_wind: Any = 0
    weekday: Any = 1
    tiles_left: Any = 0
    notes: Any = ()
    ready: Any = None

    # ``players`` … ``seats`` have defaults here only so that an old pickle's
    # ``RoundEnd.__new__`` can make the object its state then fills
    def __init__(
        self,
        players: Any = 0,
        dealer: Any = 0,
        streak: Any = 0,
        seats: Any = (),
        discards: Any = (),
        wins: Any = (),
        win_tile: Any = None,
        gangkai: Any = False,
        repao: Any = False,
        haidi: Any = False,
        tianhu: Any = False,
        dihu: Any = False,
        renhu: Any = False,
        kong_tile: Any = None,
        reveals: Any = (),
        wild: Any = None,
        wild_indicator: Any = None,
        round_wind: Any = 0,
        weekday: Any = 1,
        tiles_left: Any = 0,
        notes: Any = (),
        ready: Any = None,
    ) -> None:
        self.players = players  # type: ignore[misc]
        self.dealer = dealer  # type: ignore[misc]
        self.streak = streak  # type: ignore[misc]
        self.seats = seats  # type: ignore[misc]
        self.discards = discards  # type: ignore[misc]
        self.wins = wins  # type: ignore[misc]
        self.win_tile = win_tile  # type: ignore[misc]
        self.gangkai = gangkai  # type: ignore[misc]
        self.repao = repao  # type: ignore[misc]
        self.haidi = haidi  # type: ignore[misc]
        self.tianhu = tianhu  # type: ignore[misc]
        self.dihu = dihu  # type: ignore[misc]
        self.renhu = renhu  # type: ignore[misc]
        self.kong_tile = kong_tile  # type: ignore[misc]
        self.reveals = reveals  # type: ignore[misc]
        self.wild = wild  # type: ignore[misc]
        self.wild_indicator = wild_indicator  # type: ignore[misc]
        self.round_wind = round_wind  # type: ignore[misc]
        self.weekday = weekday  # type: ignore[misc]
        self.tiles_left = tiles_left  # type: ignore[misc]
        self.notes = notes  # type: ignore[misc]
        self.ready = ready  # type: ignore[misc]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a constructor call (a native class has no ``__dict__`` to pickle)."""
        return (RoundEnd, (
            self.players, self.dealer, self.streak, self.seats, self.discards, self.wins,
            self.win_tile, self.gangkai, self.repao, self.haidi, self.tianhu, self.dihu,
            self.renhu, self.kong_tile, self.reveals, self.wild, self.wild_indicator,
            self.round_wind, self.weekday, self.tiles_left, self.notes, self.ready,
        ))  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        """An old pickle's state (the dataclass's ``__dict__``): the fields it holds."""
        self.players = state.get("players", 0)  # type: ignore[misc]
        self.dealer = state.get("dealer", 0)  # type: ignore[misc]
        self.streak = state.get("streak", 0)  # type: ignore[misc]
        self.seats = state.get("seats", ())  # type: ignore[misc]
        self.discards = state.get("discards", ())  # type: ignore[misc]
        self.wins = state.get("wins", ())  # type: ignore[misc]
        self.win_tile = state.get("win_tile")  # type: ignore[misc]
        self.gangkai = state.get("gangkai", False)  # type: ignore[misc]
        self.repao = state.get("repao", False)  # type: ignore[misc]
        self.haidi = state.get("haidi", False)  # type: ignore[misc]
        self.tianhu = state.get("tianhu", False)  # type: ignore[misc]
        self.dihu = state.get("dihu", False)  # type: ignore[misc]
        self.renhu = state.get("renhu", False)  # type: ignore[misc]
        self.kong_tile = state.get("kong_tile")  # type: ignore[misc]
        self.reveals = state.get("reveals", ())  # type: ignore[misc]
        self.wild = state.get("wild")  # type: ignore[misc]
        self.wild_indicator = state.get("wild_indicator")  # type: ignore[misc]
        self.round_wind = state.get("round_wind", 0)  # type: ignore[misc]
        self.weekday = state.get("weekday", 1)  # type: ignore[misc]
        self.tiles_left = state.get("tiles_left", 0)  # type: ignore[misc]
        self.notes = state.get("notes", ())  # type: ignore[misc]
        self.ready = state.get("ready")  # type: ignore[misc]

    @property
    def is_draw(self) -> bool:
        """:attr:`zhuoji.outcome.RoundEnd.is_draw`: no win."""
        return not self.wins

    @property
    def reveal(self) -> Any:
        """:attr:`zhuoji.outcome.RoundEnd.reveal`."""
        return _reveal(self)

    def seat_wind(self, seat: int) -> int:
        """门风: the dealer sits East (:meth:`zhuoji.outcome.RoundEnd.seat_wind`)."""
        out: int = (seat - self.dealer) % self.players
        return out


def interpreted(cls: type) -> None:
    """Run as Python (``ZHUOJI_PURE=1``, or no build), a record class is a frozen dataclass
    whose ``__setattr__`` refuses the stores of its ``__init__`` and ``__setstate__``
    (compiled, they are native stores): both become the dataclass's own frozen constructor
    (``object.__setattr__`` a field), with the same defaults.  Not called compiled.  The
    ledger kernel's records (``Fact``, ``LedgerEntry``) use it too, importing it only then."""
    from dataclasses import field, make_dataclass
    from inspect import signature

    params = signature(cls).parameters.values()
    twin = make_dataclass(
        cls.__name__, [(p.name, object, field(default=p.default)) for p in params], frozen=True
    )
    init = vars(twin)["__init__"]

    def setstate(self: object, state: dict[str, object]) -> None:
        init(self, **state)

    setattr(cls, "__init__", init)  # noqa: B010  (mypy refuses assigning a method)
    setattr(cls, "__setstate__", setstate)  # noqa: B010


if SeatEnd.__dictoffset__:  # an interpreted class (its instances have a ``__dict__``)
    interpreted(SeatEnd)
if RoundEnd.__dictoffset__:
    interpreted(RoundEnd)
