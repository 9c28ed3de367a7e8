"""What a round leaves behind: the facts settlement reads.

The round engine produces a :class:`RoundEnd` when a round ends; ``zhuoji settle FILE``
builds the same object from a round-end file (:mod:`zhuoji.roundend`).  Settlement sees
nothing else, so the engine and the command settle through one code path.

:class:`RoundEnd` and :class:`SeatEnd` are :mod:`zhuoji.outcome_kernel`'s frozen dataclasses,
native classes when the ``outcome`` group is compiled (issue 29 item 4, eleventh round); their
fields are typed and said here, and their methods' meaning is here (handed to the kernel).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from zhuoji import outcome_kernel as _kernel
from zhuoji.tiles import NUM_KINDS, suit_of

_T = TypeVar("_T")
_new_object = object.__new__
#: sets a frozen record's ``__dict__`` (its class refuses ``setattr``)
_set_attr = object.__setattr__


def frozen_from(cls: type[_T], fields: dict[str, object]) -> _T:
    """The frozen dataclass ``cls`` holding ``fields`` — every field of it, none left to its
    default — equal to ``cls(**fields)``, built without the generated ``__init__``'s
    field-by-field ``object.__setattr__`` (issue 29: the engine's round end and its seats were
    built this way, about 0.1 M instructions a round less than the constructor, before they
    became native classes; a win's context, the pattern components and the simulation's round
    records still are), as :func:`zhuoji.contract.ledger.fact` builds facts.
    ``fields`` itself becomes the object's ``__dict__`` (no copy into an empty one: about
    4 K instructions a round, settle30's measurement), so pass a new dict and keep no other
    reference to it; every caller passes a dict display."""
    obj = _new_object(cls)
    _set_attr(obj, "__dict__", fields)
    return obj


if not TYPE_CHECKING:
    # the same construction compiled (the ``outcome`` group's ``record``, issue 29): no Python
    # frame a call from the settle context (one a win) and the pattern components; the
    # definition above stays the typed signature
    frozen_from = _kernel.record


class MeldKind(StrEnum):
    CHI = "chi"  # 吃
    PENG = "peng"  # 碰
    GANG_EXPOSED = "gang_exposed"  # 点豆 / 明杠: kong on another player's discard
    GANG_CONCEALED = "gang_concealed"  # 闷豆 / 暗杠
    GANG_ADDED = "gang_added"  # 转弯豆 / 补杠: the fourth tile added to a pung

    @property
    def is_kong(self) -> bool:
        return self in _KONGS

    @property
    def claimed(self) -> bool:
        """Made with another player's tile (not 门清)."""
        return self is not _GANG_CONCEALED


_KONGS = frozenset({MeldKind.GANG_EXPOSED, MeldKind.GANG_CONCEALED, MeldKind.GANG_ADDED})
# members as module constants: read off its class, a member goes through the enum type's
# ``__getattr__`` (about 70 ns against 5; settlement asks these of every meld and reveal)
_CHI = MeldKind.CHI
_GANG_CONCEALED = MeldKind.GANG_CONCEALED


@dataclass(frozen=True)
class Meld:
    """A meld on the table.  ``tile`` is the kind (lowest tile of a chow); ``source`` the seat
    whose discard it took (for an added kong, the seat the pung came from); ``late`` marks a
    kong declared after the turn it first became possible (憨包豆)."""

    kind: MeldKind
    tile: int
    source: int | None = None
    claimed: int | None = None  # the discarded tile taken, for a chow
    late: bool = False

    @property
    def tiles(self) -> tuple[int, ...]:
        kind = self.kind
        if kind is _CHI:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if kind in _KONGS else 3)

    @property
    def is_kong(self) -> bool:
        return self.kind in _KONGS  # ``MeldKind.is_kong`` without its property call


class Declaration(StrEnum):
    """报听: hard for the dealer on the initial hand, soft for a non-dealer after one draw."""

    HARD = "hard"  # 硬报
    SOFT = "soft"  # 软报


class WinHow(StrEnum):
    SELF_DRAW = "self_draw"  # 自摸
    DISCARD = "discard"  # 点炮
    ROB_KONG = "rob_kong"  # 抢杠


class Discard(NamedTuple):
    """One discard in table order, and what became of it.  (A named tuple: the engine makes
    one per discard, so it must be cheap to build.)"""

    seat: int
    tile: int
    claimed_by: int | None = None
    claim: MeldKind | None = None  # the meld made with it; None when it was won on or stayed
    after_kong: bool = False  # the discarder's first discard after a kong of his (热炮 basis)
    declared: bool = False  # 报听 declared with this discard


if TYPE_CHECKING:  # the fields typed and said; at run time the class is the kernel's

    @dataclass(frozen=True)
    class SeatEnd:
        concealed: tuple[int, ...]  # concealed tiles, without a winning tile taken from outside
        melds: tuple[Meld, ...] = ()
        declared: Declaration | None = None
        ever_ready: bool = False  # was ready at some point of the round
        xianggong: bool = False  # 相公: wrong tile count (only from round-end files)
        void_suit: int | None = None  # 定缺: the suit declared void (0 万, 1 条, 2 筒)
        flowers: int = 0  # flower tiles set aside (补花, ``tiles.flowers``)

        def concealed_counts(self) -> list[int]:
            return _concealed_counts(self)

        def void_tiles(self) -> int:
            """Tiles of the declared void suit still held, melds included (花猪 when any)."""
            return _void_tiles(self)

else:
    # a native class when the ``outcome`` group is compiled (issue 29: no ``__dict__`` to
    # build, not tracked by the collector); its methods are the functions below
    SeatEnd = _kernel.SeatEnd


def _concealed_counts(seat: SeatEnd) -> list[int]:
    """:meth:`SeatEnd.concealed_counts`: the concealed tiles as a count array."""
    c = [0] * NUM_KINDS
    for t in seat.concealed:
        c[t] += 1
    return c


def _void_tiles(seat: SeatEnd) -> int:
    """:meth:`SeatEnd.void_tiles`."""
    if seat.void_suit is None:
        return 0
    held = [*seat.concealed, *(t for m in seat.melds for t in m.tiles)]
    return sum(1 for t in held if suit_of(t) == seat.void_suit)


class RevealAt(StrEnum):
    """When a chicken tile was revealed (CITIES.md "Reveal and chicken mechanisms")."""

    START = "start"  # at round start, from the wall's end (开局翻鸡, 前后鸡, 滚筒鸡)
    KONG = "kong"  # at a kong, one stack further toward the live end (前后鸡, 滚筒鸡)
    WIN = "win"  # after a win (翻鸡 / 翻牌鸡)


class RevealStatus(StrEnum):
    """What became of a revealed tile by the round's end."""

    OPEN = "open"  # still face up in the wall
    CLOSED = "closed"  # 前后鸡: turned down when the reveal moved on at a kong
    DRAWN = "drawn"  # a player drew it (FW: the reveal is lost)


_AT_WIN = RevealAt.WIN  # as above: a module constant, not a read off the enum class


@dataclass(frozen=True)
class Reveal:
    """One revealed tile, in the order the round revealed them."""

    tile: int
    at: RevealAt = RevealAt.WIN
    status: RevealStatus = RevealStatus.OPEN


@dataclass(frozen=True)
class Win:
    seat: int
    how: WinHow
    source: int | None = None  # discarder, or the robbed player
    passed_win: bool = False  # passed a win on a discard since his own last draw (包牌)


if TYPE_CHECKING:  # as SeatEnd: the fields typed and said here, the class the kernel's

    @dataclass(frozen=True)
    class RoundEnd:
        players: int
        dealer: int
        streak: int
        seats: tuple[SeatEnd, ...]
        discards: tuple[Discard, ...] = ()
        wins: tuple[Win, ...] = ()
        win_tile: int | None = None
        gangkai: bool = False  # 杠开: self-draw on a kong's replacement tile
        repao: bool = False  # 热炮: won on the discarder's first discard after his kong
        haidi: bool = False  # 海底: won on the last tile
        tianhu: bool = False  # 天和: dealer complete on the initial hand
        dihu: bool = False  # 地和: a non-dealer self-draws his first tile, no claim before
        renhu: bool = False  # 人和: a non-dealer wins on the dealer's first discard
        kong_tile: int | None = None  # the kong behind 杠开 / 热炮 / 抢杠, when there is one
        reveals: tuple[Reveal, ...] = ()  # every chicken reveal, in order (翻鸡, 前后鸡, 滚筒鸡 …)
        wild: int | None = None  # 宝牌 kind
        wild_indicator: int | None = None
        round_wind: int = 0  # 0 东 … 3 北
        weekday: int = 1  # 星期鸡: 1 Monday … 7 Sunday
        tiles_left: int = 0
        notes: tuple[str, ...] = field(default=())
        # per seat, whether the hand waits, where already known (the engine knows it); None
        # entries, or no tuple at all (round-end files), are computed by settlement
        ready: tuple[bool | None, ...] | None = None

        @property
        def is_draw(self) -> bool:
            return not self.wins

        @property
        def reveal(self) -> int | None:
            """The tile revealed after the win (翻鸡), if any."""
            return _reveal(self)

        def seat_wind(self, seat: int) -> int:
            """门风: the dealer sits East."""
            return (seat - self.dealer) % self.players

else:
    RoundEnd = _kernel.RoundEnd


def _reveal(end: RoundEnd) -> int | None:
    """:attr:`RoundEnd.reveal`: the tile revealed after the win (翻鸡), if any."""
    return next((r.tile for r in end.reveals if r.at is _AT_WIN), None)


# the records' methods, which the kernel calls (it imports nothing of the package)
_kernel.bind(_concealed_counts, _void_tiles, _reveal)
if not TYPE_CHECKING:
    for _record in (SeatEnd, RoundEnd):  # pickled under this module's name, in both builds
        _record.__module__ = __name__
