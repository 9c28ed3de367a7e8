"""The count-array arithmetic behind :mod:`zhuoji.hand`: distances, win checks and waits.

This module is the hot path of hand analysis and is compiled with mypyc when the package is
installed (``docs/build.md``); :mod:`zhuoji.hand` runs the compiled build when it was compiled
from this very file and the pure-Python one otherwise (:mod:`zhuoji.compiled`).  Both run the
same source, so the code here keeps to what mypyc compiles well: typed locals, ``list[int]``
inside (a caller's sequence is copied once at the boundary), ``i64`` locals (machine
integers once compiled, plain ints in Python), one read of the counts (:func:`_scan`; a
form set's distance and win check derive every form from one read, :func:`_read` when
compiled: :func:`_distance`, :func:`_is_win`), ``Final`` tables, and no imports beyond the
standard library and the table loader.  Counts are 0–4 (a pattern index has one base-5
digit a kind).

Forms (RULES.md glossary): **standard** (sets and one pair), **seven pairs** (a
four-of-a-kind as two pairs unless ``quads_as_two_pairs`` is off), **十三烂** (fourteen
distinct tiles, honors all different, seed 003 "1、4、7+2、5、8+3、6、9+不重复的风牌": each
suit's ranks pairwise at least three apart, or with ``strict`` literally within 147, 258 and
369, a different triple per suit), **十三幺** (one of each terminal and honor and a second of
one of them, seed 002 天和 "当十三幺盘算推算,9番").  Distances are the fewest tiles to add;
shanten is distance − 1.  The per-suit tables are :mod:`zhuoji.hand_tables`.

A form set reaches the ``forms_*`` entry points as one int of or-ed switches
(:data:`STANDARD` … :data:`QUADS_AS_TWO_PAIRS`), which :class:`zhuoji.hand.HandRules`
computes once, and binds the methods of a :class:`Forms` made for them.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, cast

from zhuoji import hand_tables

if TYPE_CHECKING:  # mypyc's unboxed 64-bit int; plain int when the module runs as Python
    from mypy_extensions import i64

NUM_KINDS: Final[int] = 34  # tile kinds (zhuoji.tiles): 0–26 suited, 27–33 honors
#: a distance no real hand reaches; used for forms that do not apply
FAR: Final[int] = 99
#: digit weights of the base-5 pattern index
POW5: Final[tuple[int, ...]] = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)

_TABLES: Final = hand_tables.load()
_SUIT_CLASS: Final[bytes] = _TABLES.suit_class
_HONOR_CLASS: Final[bytes] = _TABLES.honor_class
_VEC: Final[tuple[bytes, ...]] = _TABLES.vectors
_PROD: Final[tuple[bytes, ...]] = _TABLES.product
#: the classes with no kind above four copies (no wild tiles): differ only for a pattern
#: holding a four-of-a-kind
_SUIT_CAPPED: Final[bytes] = _TABLES.suit_capped
_HONOR_CAPPED: Final[bytes] = _TABLES.honor_capped

#: form switches of the ``forms_*`` entry points, or-ed together
STANDARD: Final = 1
SEVEN_PAIRS: Final = 2
SHISANLAN: Final = 4
SHISANYAO: Final = 8
#: 十三烂 read literally: 147, 258 and 369, a different triple per suit (LanRule.STRICT)
STRICT_LAN: Final = 16
#: a four-of-a-kind counts as two pairs in seven pairs (off: the riichi convention)
QUADS_AS_TWO_PAIRS: Final = 32
#: the plain forms (docs/architecture.md, "Stable interfaces"): standard and seven pairs, a four-of-a-kind as two pairs
PLAIN: Final = STANDARD | SEVEN_PAIRS | QUADS_AS_TWO_PAIRS


def _as_list(c: Sequence[int]) -> list[int]:
    """The caller's counts as a list (the same object when it is one: nothing is written)."""
    return c if isinstance(c, list) else list(c)


#: the interpreter's own objects for the counts 0–4: CPython keeps one object for each small
#: int, and every count of a hand is one of them (:func:`_read`)
_SMALL: Final[tuple[object, ...]] = tuple(range(5))
#: this module runs compiled (mypyc): a compiled function has no ``__code__``
_COMPILED: Final[bool] = not hasattr(_as_list, "__code__")

if TYPE_CHECKING:
    #: the 34 counts as machine integers, kind by kind (:func:`_read`)
    _Counts = tuple[
        i64, i64, i64, i64, i64, i64, i64, i64, i64,
        i64, i64, i64, i64, i64, i64, i64, i64, i64,
        i64, i64, i64, i64, i64, i64, i64, i64, i64,
        i64, i64, i64, i64, i64, i64, i64,
    ]  # fmt: skip


# fmt: off
def _read(c: list[int]) -> _Counts:
    """The 34 counts as machine integers, read compiled without a branch on their values.

    Unboxing an int branches on its size, 0 or 1 digit, so on whether the count is 0; a
    hand's zeros and non-zeros come in no order a branch predictor learns, and 34 such
    branches cost about 65 ns a hand (166 against 100 ns for 34 counts, measured compiled).
    A count is one of the interpreter's objects for 0–4 (:data:`_SMALL`), so it is read by
    comparing the object with each of them instead.  Any other object (a count above 4, a
    ``bool``, an integer of another type) is read the ordinary way, as is the whole list
    when the module runs as Python (``_COMPILED``), where that is the faster."""
    m1: i64; m2: i64; m3: i64; m4: i64; m5: i64; m6: i64; m7: i64; m8: i64; m9: i64  # noqa: E702
    s1: i64; s2: i64; s3: i64; s4: i64; s5: i64; s6: i64; s7: i64; s8: i64; s9: i64  # noqa: E702
    p1: i64; p2: i64; p3: i64; p4: i64; p5: i64; p6: i64; p7: i64; p8: i64; p9: i64  # noqa: E702
    z1: i64; z2: i64; z3: i64; z4: i64; z5: i64; z6: i64; z7: i64  # noqa: E702
    x0: object; x1: object; x2: object; x3: object; x4: object; x5: object  # noqa: E702
    x6: object; x7: object; x8: object; x9: object; x10: object; x11: object; x12: object  # noqa: E702
    x13: object; x14: object; x15: object; x16: object; x17: object; x18: object; x19: object  # noqa: E702
    x20: object; x21: object; x22: object; x23: object; x24: object; x25: object; x26: object  # noqa: E702
    x27: object; x28: object; x29: object; x30: object; x31: object; x32: object; x33: object  # noqa: E702
    (x0, x1, x2, x3, x4, x5, x6, x7, x8,
     x9, x10, x11, x12, x13, x14, x15, x16, x17,
     x18, x19, x20, x21, x22, x23, x24, x25, x26,
     x27, x28, x29, x30, x31, x32, x33) = cast("list[object]", c)
    zero = _SMALL[0]
    one = _SMALL[1]
    two = _SMALL[2]
    three = _SMALL[3]
    four = _SMALL[4]
    a: i64; b: i64; t: i64; d: i64; z: i64  # noqa: E702
    bad: i64 = 0
    a = x0 is one; b = x0 is two; t = x0 is three; d = x0 is four; z = x0 is zero  # noqa: E702
    m1 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x1 is one; b = x1 is two; t = x1 is three; d = x1 is four; z = x1 is zero  # noqa: E702
    m2 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x2 is one; b = x2 is two; t = x2 is three; d = x2 is four; z = x2 is zero  # noqa: E702
    m3 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x3 is one; b = x3 is two; t = x3 is three; d = x3 is four; z = x3 is zero  # noqa: E702
    m4 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x4 is one; b = x4 is two; t = x4 is three; d = x4 is four; z = x4 is zero  # noqa: E702
    m5 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x5 is one; b = x5 is two; t = x5 is three; d = x5 is four; z = x5 is zero  # noqa: E702
    m6 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x6 is one; b = x6 is two; t = x6 is three; d = x6 is four; z = x6 is zero  # noqa: E702
    m7 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x7 is one; b = x7 is two; t = x7 is three; d = x7 is four; z = x7 is zero  # noqa: E702
    m8 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x8 is one; b = x8 is two; t = x8 is three; d = x8 is four; z = x8 is zero  # noqa: E702
    m9 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x9 is one; b = x9 is two; t = x9 is three; d = x9 is four; z = x9 is zero  # noqa: E702
    s1 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x10 is one; b = x10 is two; t = x10 is three; d = x10 is four; z = x10 is zero  # noqa: E702
    s2 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x11 is one; b = x11 is two; t = x11 is three; d = x11 is four; z = x11 is zero  # noqa: E702
    s3 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x12 is one; b = x12 is two; t = x12 is three; d = x12 is four; z = x12 is zero  # noqa: E702
    s4 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x13 is one; b = x13 is two; t = x13 is three; d = x13 is four; z = x13 is zero  # noqa: E702
    s5 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x14 is one; b = x14 is two; t = x14 is three; d = x14 is four; z = x14 is zero  # noqa: E702
    s6 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x15 is one; b = x15 is two; t = x15 is three; d = x15 is four; z = x15 is zero  # noqa: E702
    s7 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x16 is one; b = x16 is two; t = x16 is three; d = x16 is four; z = x16 is zero  # noqa: E702
    s8 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x17 is one; b = x17 is two; t = x17 is three; d = x17 is four; z = x17 is zero  # noqa: E702
    s9 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x18 is one; b = x18 is two; t = x18 is three; d = x18 is four; z = x18 is zero  # noqa: E702
    p1 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x19 is one; b = x19 is two; t = x19 is three; d = x19 is four; z = x19 is zero  # noqa: E702
    p2 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x20 is one; b = x20 is two; t = x20 is three; d = x20 is four; z = x20 is zero  # noqa: E702
    p3 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x21 is one; b = x21 is two; t = x21 is three; d = x21 is four; z = x21 is zero  # noqa: E702
    p4 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x22 is one; b = x22 is two; t = x22 is three; d = x22 is four; z = x22 is zero  # noqa: E702
    p5 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x23 is one; b = x23 is two; t = x23 is three; d = x23 is four; z = x23 is zero  # noqa: E702
    p6 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x24 is one; b = x24 is two; t = x24 is three; d = x24 is four; z = x24 is zero  # noqa: E702
    p7 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x25 is one; b = x25 is two; t = x25 is three; d = x25 is four; z = x25 is zero  # noqa: E702
    p8 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x26 is one; b = x26 is two; t = x26 is three; d = x26 is four; z = x26 is zero  # noqa: E702
    p9 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x27 is one; b = x27 is two; t = x27 is three; d = x27 is four; z = x27 is zero  # noqa: E702
    z1 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x28 is one; b = x28 is two; t = x28 is three; d = x28 is four; z = x28 is zero  # noqa: E702
    z2 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x29 is one; b = x29 is two; t = x29 is three; d = x29 is four; z = x29 is zero  # noqa: E702
    z3 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x30 is one; b = x30 is two; t = x30 is three; d = x30 is four; z = x30 is zero  # noqa: E702
    z4 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x31 is one; b = x31 is two; t = x31 is three; d = x31 is four; z = x31 is zero  # noqa: E702
    z5 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x32 is one; b = x32 is two; t = x32 is three; d = x32 is four; z = x32 is zero  # noqa: E702
    z6 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    a = x33 is one; b = x33 is two; t = x33 is three; d = x33 is four; z = x33 is zero  # noqa: E702
    z7 = a + 2 * b + 3 * t + 4 * d; bad |= 1 - a - b - t - d - z  # noqa: E702
    if bad:  # not all of them are 0–4: unboxed one by one
        (m1, m2, m3, m4, m5, m6, m7, m8, m9,
         s1, s2, s3, s4, s5, s6, s7, s8, s9,
         p1, p2, p3, p4, p5, p6, p7, p8, p9,
         z1, z2, z3, z4, z5, z6, z7) = c
    return (m1, m2, m3, m4, m5, m6, m7, m8, m9,
            s1, s2, s3, s4, s5, s6, s7, s8, s9,
            p1, p2, p3, p4, p5, p6, p7, p8, p9,
            z1, z2, z3, z4, z5, z6, z7)
# fmt: on


# ---------------------------------------------------------------------------------------
# per-suit table access
# ---------------------------------------------------------------------------------------


def _suit_index(c: list[int], b: int) -> int:
    return (
        c[b]
        + 5 * c[b + 1]
        + 25 * c[b + 2]
        + 125 * c[b + 3]
        + 625 * c[b + 4]
        + 3125 * c[b + 5]
        + 15625 * c[b + 6]
        + 78125 * c[b + 7]
        + 390625 * c[b + 8]
    )


def _honor_index(c: list[int]) -> int:
    return c[27] + 5 * c[28] + 25 * c[29] + 125 * c[30] + 625 * c[31] + 3125 * c[32] + 15625 * c[33]


def group_index(c: Sequence[int], group: int) -> int:
    """Base-5 pattern index of one group (0 万, 1 条, 2 筒, 3 honors) into the class tables."""
    cc = _as_list(c)
    return _suit_index(cc, 9 * group) if group < 3 else _honor_index(cc)


# fmt: off
def _scan(c: list[int]) -> tuple[i64, i64, i64, i64, i64, i64, i64, i64, i64]:
    """One read of the counts: the pattern index of 万, 条, 筒 and the honors, the tiles held
    in each, and the histogram of counts packed six bits a count (bits ``6k``–``6k+5``: how
    many kinds are held ``k`` times; see :func:`_held`).

    The hottest code of the package, written for both builds: one unpacking into ``i64``
    locals (about 1,100 machine instructions compiled, against 1,600 for a loop and 3,400
    for plain ints; about 2.4 µs as Python, against 4.9 µs for a loop).  It does not take
    :func:`_read`: for the waits and the discard kernel, which do far more after it, that
    saved no time measurably and cost some 1,200 instructions a call."""
    m1: i64; m2: i64; m3: i64; m4: i64; m5: i64; m6: i64; m7: i64; m8: i64; m9: i64  # noqa: E702
    s1: i64; s2: i64; s3: i64; s4: i64; s5: i64; s6: i64; s7: i64; s8: i64; s9: i64  # noqa: E702
    p1: i64; p2: i64; p3: i64; p4: i64; p5: i64; p6: i64; p7: i64; p8: i64; p9: i64  # noqa: E702
    z1: i64; z2: i64; z3: i64; z4: i64; z5: i64; z6: i64; z7: i64  # noqa: E702
    (m1, m2, m3, m4, m5, m6, m7, m8, m9,
     s1, s2, s3, s4, s5, s6, s7, s8, s9,
     p1, p2, p3, p4, p5, p6, p7, p8, p9,
     z1, z2, z3, z4, z5, z6, z7) = c
    return (
        m1 + 5 * (m2 + 5 * (m3 + 5 * (m4 + 5 * (m5 + 5 * (m6 + 5 * (m7 + 5 * (m8 + 5 * m9))))))),
        s1 + 5 * (s2 + 5 * (s3 + 5 * (s4 + 5 * (s5 + 5 * (s6 + 5 * (s7 + 5 * (s8 + 5 * s9))))))),
        p1 + 5 * (p2 + 5 * (p3 + 5 * (p4 + 5 * (p5 + 5 * (p6 + 5 * (p7 + 5 * (p8 + 5 * p9))))))),
        z1 + 5 * (z2 + 5 * (z3 + 5 * (z4 + 5 * (z5 + 5 * (z6 + 5 * z7))))),
        m1 + m2 + m3 + m4 + m5 + m6 + m7 + m8 + m9,
        s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + s9,
        p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9,
        z1 + z2 + z3 + z4 + z5 + z6 + z7,
        (1 << 6 * m1) + (1 << 6 * m2) + (1 << 6 * m3) + (1 << 6 * m4) + (1 << 6 * m5)
        + (1 << 6 * m6) + (1 << 6 * m7) + (1 << 6 * m8) + (1 << 6 * m9)
        + (1 << 6 * s1) + (1 << 6 * s2) + (1 << 6 * s3) + (1 << 6 * s4) + (1 << 6 * s5)
        + (1 << 6 * s6) + (1 << 6 * s7) + (1 << 6 * s8) + (1 << 6 * s9)
        + (1 << 6 * p1) + (1 << 6 * p2) + (1 << 6 * p3) + (1 << 6 * p4) + (1 << 6 * p5)
        + (1 << 6 * p6) + (1 << 6 * p7) + (1 << 6 * p8) + (1 << 6 * p9)
        + (1 << 6 * z1) + (1 << 6 * z2) + (1 << 6 * z3) + (1 << 6 * z4) + (1 << 6 * z5)
        + (1 << 6 * z6) + (1 << 6 * z7),
    )
# fmt: on


def _held(hist: i64, times: int) -> int:
    """How many kinds are held ``times`` times, from :func:`_scan`'s histogram."""
    return int(hist >> 6 * times & 63)


def _vector_of(i0: i64, i1: i64, i2: i64, i3: i64) -> bytes:
    """The (m, h) distance vector of a whole hand from its four pattern indices: four class
    lookups, three products."""
    return _VEC[
        _PROD[_PROD[_PROD[_SUIT_CLASS[i0]][_SUIT_CLASS[i1]]][_SUIT_CLASS[i2]]][_HONOR_CLASS[i3]]
    ]


#: the product table flat, 256 slots a class: the class of the product of classes ``a`` and
#: ``b`` at ``a << 8 | b`` (one bytes look-up, where ``_PROD`` takes a tuple's and a bytes')
_PRODUCT: Final[bytes] = b"".join(row.ljust(256, b"\xff") for row in _PROD)
#: every class's (m, h) vector flat, ``hand_tables.WIDTH`` (10) bytes a class
_VECTORS: Final[bytes] = b"".join(_VEC)


def _class_cell(a: i64, b: i64, d: i64, h: i64, cell: i64) -> int:
    """Cell ``cell`` of the whole hand's (m, h) vector from the classes of 万, 条, 筒 and the
    honors: three products and the vector, four bytes look-ups."""
    p: i64 = _PRODUCT[a << 8 | b]
    p = _PRODUCT[p << 8 | d]
    p = _PRODUCT[p << 8 | h]
    return _VECTORS[10 * p + cell]


def _table_cell(i0: i64, i1: i64, i2: i64, i3: i64, cell: i64) -> int:
    """:func:`_class_cell` of the four groups' pattern indices (a fifth copy may count)."""
    a: i64 = _SUIT_CLASS[i0]
    b: i64 = _SUIT_CLASS[i1]
    d: i64 = _SUIT_CLASS[i2]
    h: i64 = _HONOR_CLASS[i3]
    return _class_cell(a, b, d, h, cell)


def hand_vector(c: Sequence[int]) -> bytes:
    """The (m, h) distance vector of the whole hand: four class lookups, three products."""
    i0, i1, i2, i3, _n0, _n1, _n2, _n3, _hist = _scan(_as_list(c))
    return _vector_of(i0, i1, i2, i3)


def _total(c: list[int]) -> int:
    n: i64 = 0  # (machine integers: a tagged int's add is a call a kind)
    for k in range(NUM_KINDS):
        n += c[k]
    return int(n)


# ---------------------------------------------------------------------------------------
# distances
# ---------------------------------------------------------------------------------------


def _check_sets(sets: int, n: int) -> None:
    if sets > 4:
        raise ValueError(f"a concealed hand holds at most 14 tiles, not {n}")


def standard_distance(c: Sequence[int], jokers: int = 0, *, wild_in_play: bool = False) -> int:
    """Fewest tiles to add for sets and a pair; the hand plus ``jokers`` sets the set count.

    With no wild tiles in play no kind goes above four copies; with them (or with ``jokers``)
    a fifth copy counts, since a joker may stand for it.
    """
    cc = _as_list(c)
    if not wild_in_play and not jokers:
        return _distance(cc, STANDARD)
    i0, i1, i2, i3, n0, n1, n2, n3, _hist = _scan(cc)
    n = int(n0 + n1 + n2 + n3)
    sets = (n + jokers) // 3
    _check_sets(sets, n)
    return _vector_of(i0, i1, i2, i3)[2 * sets + 1]


def pairs_distance(
    ones: int, twos: int, threes: int, fours: int, quads_as_two_pairs: bool = True
) -> int:
    """Seven-pairs distance from the histogram of counts (how many kinds are held 1–4 times)."""
    if quads_as_two_pairs:
        need = 7 - min(twos + threes + 2 * fours, 7)  # a single needs one tile, a gap two
        return need + max(need - ones - threes, 0)
    pairs = min(twos + threes + fours, 7)
    return (7 - pairs) + max(0, 7 - (ones + twos + threes + fours))  # riichi: seven kinds


def _seven_pairs_distance(c: list[int], jokers: int, quads_as_two_pairs: bool) -> int:
    _i0, _i1, _i2, _i3, n0, n1, n2, n3, hist = _scan(c)
    if n0 + n1 + n2 + n3 + jokers < 13:
        return FAR
    return _pairs_from(hist, quads_as_two_pairs)


def _pairs_from(hist: i64, quads_as_two_pairs: bool) -> int:
    return pairs_distance(
        _held(hist, 1), _held(hist, 2), _held(hist, 3), _held(hist, 4), quads_as_two_pairs
    )


def seven_pairs_distance(
    c: Sequence[int], jokers: int = 0, *, quads_as_two_pairs: bool = True
) -> int:
    """Fewest tiles to add for seven pairs (only for 13 or 14 tiles with no melds)."""
    return _seven_pairs_distance(_as_list(c), jokers, quads_as_two_pairs)


def _lan_parts() -> list[tuple[int, ...]]:
    """The 十三烂 parts of one suit: up to three ranks, pairwise at least three apart."""
    parts: list[tuple[int, ...]] = [()]
    for a in range(9):
        parts.append((a,))
        for b in range(a + 3, 9):
            parts.append((a, b))
            for c in range(b + 3, 9):
                parts.append((a, b, c))
    return parts


def _lan_table() -> bytes:
    """For each 9-bit mask of ranks held in a suit, the best overlap with a part of each size
    0–3: four bytes a mask."""
    parts = _lan_parts()
    out = bytearray()
    for mask in range(512):
        best = [0, 0, 0, 0]
        for part in parts:
            hit = sum(1 for r in part if mask >> r & 1)
            best[len(part)] = max(best[len(part)], hit)
        out.extend(best)
    return bytes(out)


#: :func:`_lan_table`, stored compressed: building it costs ~50 ms as Python at every import
#: (tests/test_hand_kernel.py checks the two agree)
_LAN: Final[bytes] = zlib.decompress(
    bytes.fromhex(
        "78da63600002464646fc988989300dc394f2d131dde471d120cc8c9bc6301f9b7da4e8671a60fd24ba1f"
        "4e3393c7a7d4fd54b77fa4fb9fcef663f099e92b3feaff51ff8f5cff0300103f0ab8"
    )
)
#: the literal 十三烂 triples 147, 258 and 369 as rank masks
_LAN_TRIPLES: Final[tuple[int, int, int]] = (0b001001001, 0b010010010, 0b100100100)
#: for each 9-bit rank mask, how many of its ranks lie in each literal triple: three bytes a
#: mask
_LAN_STRICT: Final[bytes] = bytes(
    [(mask & triple).bit_count() for mask in range(512) for triple in _LAN_TRIPLES]
)
#: every split of fourteen tiles into 十三烂 parts of the three suits (sizes 0–3) and room
#: for honors (at most seven): four bytes a split (sizes, room)
_LAN_SPLITS: Final[bytes] = bytes(
    [
        v
        for a in range(4)
        for b in range(4)
        for c in range(4)
        if 14 - a - b - c <= 7
        for v in (a, b, c, 14 - a - b - c)
    ]
)


def _shisanlan_distance(c: list[int], jokers: int, strict: bool) -> int:
    if _total(c) + jokers < 13:
        return FAR
    m0 = _rank_mask(c, 0)
    m1 = _rank_mask(c, 9)
    m2 = _rank_mask(c, 18)
    honors = 0
    for k in range(27, NUM_KINDS):
        if c[k]:
            honors += 1
    if strict:  # nine suited places at most, seven honors: any 14 of the 16 will do
        kept = _lan_strict_suited(m0, m1, m2) + honors
        return 14 - (kept if kept < 14 else 14)
    best = 0
    for i in range(0, len(_LAN_SPLITS), 4):
        room = _LAN_SPLITS[i + 3]
        hit = (
            _LAN[4 * m0 + _LAN_SPLITS[i]]
            + _LAN[4 * m1 + _LAN_SPLITS[i + 1]]
            + _LAN[4 * m2 + _LAN_SPLITS[i + 2]]
            + (honors if honors < room else room)
        )
        if hit > best:
            best = hit
    return 14 - best


def _lan_strict_suited(m0: i64, m1: i64, m2: i64) -> i64:
    """The most suited tiles kept when the three suits take 147, 258 and 369, one each, in
    the best of the six orders."""
    a0: i64 = _LAN_STRICT[3 * m0]
    a1: i64 = _LAN_STRICT[3 * m0 + 1]
    a2: i64 = _LAN_STRICT[3 * m0 + 2]
    b0: i64 = _LAN_STRICT[3 * m1]
    b1: i64 = _LAN_STRICT[3 * m1 + 1]
    b2: i64 = _LAN_STRICT[3 * m1 + 2]
    d0: i64 = _LAN_STRICT[3 * m2]
    d1: i64 = _LAN_STRICT[3 * m2 + 1]
    d2: i64 = _LAN_STRICT[3 * m2 + 2]
    return max(
        max(max(a0 + b1 + d2, a0 + b2 + d1), max(a1 + b0 + d2, a1 + b2 + d0)),
        max(a2 + b0 + d1, a2 + b1 + d0),
    )


def _rank_mask(c: list[int], b: int) -> int:
    """The ranks held in the suit starting at kind ``b``, as nine bits (machine integers:
    the wild-tile kernels ask it of every reading)."""
    mask: i64 = 0
    bit: i64 = 1
    for r in range(9):
        if c[b + r]:
            mask |= bit
        bit <<= 1
    return int(mask)


def shisanlan_distance(c: Sequence[int], jokers: int = 0, strict: bool = False) -> int:
    """Fewest tiles to add for 十三烂 (fourteen tiles, no melds); ``strict`` reads the suits
    as ``LanRule.STRICT`` (147, 258 and 369, a different triple per suit)."""
    return _shisanlan_distance(_as_list(c), jokers, strict)


#: the thirteen kinds of 十三幺: 1 and 9 of each suit and the seven honors
ORPHANS: Final[tuple[int, ...]] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _shisanyao_from(c: list[int], n: int) -> int:
    """十三幺 distance of ``n`` tiles (jokers included) from the orphan counts: 14 less the
    orphan kinds held, less one more when one of them is held twice."""
    if n < 13:
        return FAR
    kinds = 0
    pair = 0
    for k in ORPHANS:
        x = c[k]
        if x:
            kinds += 1
            if x >= 2:
                pair = 1
    return 14 - kinds - pair


def shisanyao_distance(c: Sequence[int], jokers: int = 0) -> int:
    """Fewest tiles to add for 十三幺 (fourteen tiles, no melds)."""
    cc = _as_list(c)
    return _shisanyao_from(cc, _total(cc) + jokers)


# ---------------------------------------------------------------------------------------
# complete hands
# ---------------------------------------------------------------------------------------


def _is_standard_win(c: list[int]) -> bool:
    i0, i1, i2, i3, n0, n1, n2, n3, _hist = _scan(c)
    n = n0 + n1 + n2 + n3
    return n % 3 == 2 and not _vector_of(i0, i1, i2, i3)[2 * (n // 3) + 1]


def is_standard_win(c: Sequence[int]) -> bool:
    """Sets and one pair, from the tables, without wild tiles (the product of the suits'
    vectors is zero exactly when every suit completes with one pair among them)."""
    return _is_standard_win(_as_list(c))


def _is_seven_pairs(c: list[int], quads_as_two_pairs: bool) -> bool:
    _i0, _i1, _i2, _i3, n0, n1, n2, n3, hist = _scan(c)
    return n0 + n1 + n2 + n3 == 14 and _pairs_complete(hist, quads_as_two_pairs)


def _pairs_complete(hist: i64, quads_as_two_pairs: bool) -> bool:
    """Every kind held is held an even number of times (twice, unless quads count)."""
    return not _held(hist, 1) and not _held(hist, 3) and (quads_as_two_pairs or not _held(hist, 4))


def is_seven_pairs(c: Sequence[int], *, quads_as_two_pairs: bool = True) -> bool:
    return _is_seven_pairs(_as_list(c), quads_as_two_pairs)


def _is_shisanlan(c: list[int], strict: bool) -> bool:
    return _total(c) == 14 and max(c) == 1 and _shisanlan_distance(c, 0, strict) == 0


def is_shisanlan(c: Sequence[int], strict: bool = False) -> bool:
    return _is_shisanlan(_as_list(c), strict)


def _is_shisanyao(c: list[int]) -> bool:
    n = _total(c)
    return n == 14 and _shisanyao_from(c, n) == 0


def is_shisanyao(c: Sequence[int]) -> bool:
    return _is_shisanyao(_as_list(c))


def quads(c: Sequence[int]) -> int:
    """Four-of-a-kinds in a seven-pairs hand (1 → 龙七对, 2 → 双龙七对)."""
    return _held(_scan(_as_list(c))[8], 4)


# ---------------------------------------------------------------------------------------
# every form from one read of the counts (no wild tiles)
# ---------------------------------------------------------------------------------------
#
# HandRules asks for a form set's distance or win at once: each of these reads the counts
# once into 34 ``i64`` locals and derives every form's part from them with shifts and
# masks, which hold for counts 0–4: ``(x + 3) >> 2`` is 1 when a kind is held, ``x >> 1``
# is not 0 when it is held twice or more, and the or of counts has bit 2 set when one is
# held four times and equals 1 when none is held twice.


# fmt: off
def _distance(c: list[int], switches: i64) -> int:
    """Fewest tiles to add over the forms switched on (see :data:`STANDARD`), without wild
    tiles (no kind above four copies); ``FAR`` with no form.  The per-form functions
    (:func:`standard_distance`, :func:`pairs_distance`, :func:`_shisanlan_distance`,
    :func:`_shisanyao_from`) give the same answers form by form."""
    m1: i64; m2: i64; m3: i64; m4: i64; m5: i64; m6: i64; m7: i64; m8: i64; m9: i64  # noqa: E702
    s1: i64; s2: i64; s3: i64; s4: i64; s5: i64; s6: i64; s7: i64; s8: i64; s9: i64  # noqa: E702
    p1: i64; p2: i64; p3: i64; p4: i64; p5: i64; p6: i64; p7: i64; p8: i64; p9: i64  # noqa: E702
    z1: i64; z2: i64; z3: i64; z4: i64; z5: i64; z6: i64; z7: i64  # noqa: E702
    if _COMPILED:
        (m1, m2, m3, m4, m5, m6, m7, m8, m9,
         s1, s2, s3, s4, s5, s6, s7, s8, s9,
         p1, p2, p3, p4, p5, p6, p7, p8, p9,
         z1, z2, z3, z4, z5, z6, z7) = _read(c)
    else:  # as Python the plain unpacking is the faster
        (m1, m2, m3, m4, m5, m6, m7, m8, m9,
         s1, s2, s3, s4, s5, s6, s7, s8, s9,
         p1, p2, p3, p4, p5, p6, p7, p8, p9,
         z1, z2, z3, z4, z5, z6, z7) = c
    n = (m1 + m2 + m3 + m4 + m5 + m6 + m7 + m8 + m9
         + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + s9
         + p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9
         + z1 + z2 + z3 + z4 + z5 + z6 + z7)
    best: i64 = FAR
    if switches & STANDARD:
        if n > 14:
            raise ValueError(f"a concealed hand holds at most 14 tiles, not {n}")
        i0 = m1 + 5 * (m2 + 5 * (m3 + 5 * (m4 + 5 * (m5 + 5 * (m6 + 5 * (m7 + 5 * (m8 + 5 * m9)))))))
        i1 = s1 + 5 * (s2 + 5 * (s3 + 5 * (s4 + 5 * (s5 + 5 * (s6 + 5 * (s7 + 5 * (s8 + 5 * s9)))))))
        i2 = p1 + 5 * (p2 + 5 * (p3 + 5 * (p4 + 5 * (p5 + 5 * (p6 + 5 * (p7 + 5 * (p8 + 5 * p9)))))))
        i3 = z1 + 5 * (z2 + 5 * (z3 + 5 * (z4 + 5 * (z5 + 5 * (z6 + 5 * z7)))))
        cell = 2 * (n // 3) + 1
        held = (m1 | m2 | m3 | m4 | m5 | m6 | m7 | m8 | m9
                | s1 | s2 | s3 | s4 | s5 | s6 | s7 | s8 | s9
                | p1 | p2 | p3 | p4 | p5 | p6 | p7 | p8 | p9
                | z1 | z2 | z3 | z4 | z5 | z6 | z7)
        if held & 4:  # a four-of-a-kind, whose fifth copy the plain tables count
            best = _class_cell(
                _SUIT_CAPPED[i0], _SUIT_CAPPED[i1], _SUIT_CAPPED[i2], _HONOR_CAPPED[i3], cell
            )
        else:
            best = _table_cell(i0, i1, i2, i3, cell)
    # with 13 tiles or more the other forms need 14 - n tiles at least
    if n < 13 or best <= 14 - n:
        return best
    if switches & SEVEN_PAIRS and switches & QUADS_AS_TWO_PAIRS:
        # kinds held an odd number of times; the pairs are the rest of the tiles, halved
        odd = ((m1 & 1) + (m2 & 1) + (m3 & 1) + (m4 & 1) + (m5 & 1) + (m6 & 1) + (m7 & 1)
               + (m8 & 1) + (m9 & 1) + (s1 & 1) + (s2 & 1) + (s3 & 1) + (s4 & 1) + (s5 & 1)
               + (s6 & 1) + (s7 & 1) + (s8 & 1) + (s9 & 1) + (p1 & 1) + (p2 & 1) + (p3 & 1)
               + (p4 & 1) + (p5 & 1) + (p6 & 1) + (p7 & 1) + (p8 & 1) + (p9 & 1) + (z1 & 1)
               + (z2 & 1) + (z3 & 1) + (z4 & 1) + (z5 & 1) + (z6 & 1) + (z7 & 1))
        pairs = (n - odd) >> 1
        need = 7 - min(pairs, 7)  # as pairs_distance: a single needs one tile, a gap two
        d: i64 = need + max(need - odd, 0)
        if d < best:
            best = d
    elif switches & SEVEN_PAIRS:
        # seven different kinds: the kinds held twice or more, and the kinds held
        twice = (((m1 + 2) >> 2) + ((m2 + 2) >> 2) + ((m3 + 2) >> 2) + ((m4 + 2) >> 2)
                + ((m5 + 2) >> 2) + ((m6 + 2) >> 2) + ((m7 + 2) >> 2) + ((m8 + 2) >> 2)
                + ((m9 + 2) >> 2) + ((s1 + 2) >> 2) + ((s2 + 2) >> 2) + ((s3 + 2) >> 2)
                + ((s4 + 2) >> 2) + ((s5 + 2) >> 2) + ((s6 + 2) >> 2) + ((s7 + 2) >> 2)
                + ((s8 + 2) >> 2) + ((s9 + 2) >> 2) + ((p1 + 2) >> 2) + ((p2 + 2) >> 2)
                + ((p3 + 2) >> 2) + ((p4 + 2) >> 2) + ((p5 + 2) >> 2) + ((p6 + 2) >> 2)
                + ((p7 + 2) >> 2) + ((p8 + 2) >> 2) + ((p9 + 2) >> 2) + ((z1 + 2) >> 2)
                + ((z2 + 2) >> 2) + ((z3 + 2) >> 2) + ((z4 + 2) >> 2) + ((z5 + 2) >> 2)
                + ((z6 + 2) >> 2) + ((z7 + 2) >> 2))
        kinds = (((m1 + 3) >> 2) + ((m2 + 3) >> 2) + ((m3 + 3) >> 2) + ((m4 + 3) >> 2)
                + ((m5 + 3) >> 2) + ((m6 + 3) >> 2) + ((m7 + 3) >> 2) + ((m8 + 3) >> 2)
                + ((m9 + 3) >> 2) + ((s1 + 3) >> 2) + ((s2 + 3) >> 2) + ((s3 + 3) >> 2)
                + ((s4 + 3) >> 2) + ((s5 + 3) >> 2) + ((s6 + 3) >> 2) + ((s7 + 3) >> 2)
                + ((s8 + 3) >> 2) + ((s9 + 3) >> 2) + ((p1 + 3) >> 2) + ((p2 + 3) >> 2)
                + ((p3 + 3) >> 2) + ((p4 + 3) >> 2) + ((p5 + 3) >> 2) + ((p6 + 3) >> 2)
                + ((p7 + 3) >> 2) + ((p8 + 3) >> 2) + ((p9 + 3) >> 2) + ((z1 + 3) >> 2)
                + ((z2 + 3) >> 2) + ((z3 + 3) >> 2) + ((z4 + 3) >> 2) + ((z5 + 3) >> 2)
                + ((z6 + 3) >> 2) + ((z7 + 3) >> 2))
        d = (7 - min(twice, 7)) + max(7 - kinds, 0)  # as pairs_distance, quads not as two
        if d < best:
            best = d
    if switches & (SHISANYAO | SHISANLAN):
        honors = (((z1 + 3) >> 2) + ((z2 + 3) >> 2) + ((z3 + 3) >> 2) + ((z4 + 3) >> 2)
                  + ((z5 + 3) >> 2) + ((z6 + 3) >> 2) + ((z7 + 3) >> 2))
        # 十三幺 holds six suited kinds at most, 十三烂 nine suited tiles: with few honors
        # neither comes near
        if switches & SHISANYAO and best > 7 - honors:
            kinds = (honors + ((m1 + 3) >> 2) + ((m9 + 3) >> 2) + ((s1 + 3) >> 2)
                     + ((s9 + 3) >> 2) + ((p1 + 3) >> 2) + ((p9 + 3) >> 2))
            twice = (m1 | m9 | s1 | s9 | p1 | p9 | z1 | z2 | z3 | z4 | z5 | z6 | z7) >> 1
            d = 13 - kinds if twice else 14 - kinds
            if d < best:
                best = d
        if switches & SHISANLAN and best > 5 - honors:
            b0 = (((m1 + 3) >> 2) | ((m2 + 3) >> 2 << 1) | ((m3 + 3) >> 2 << 2)
                  | ((m4 + 3) >> 2 << 3) | ((m5 + 3) >> 2 << 4) | ((m6 + 3) >> 2 << 5)
                  | ((m7 + 3) >> 2 << 6) | ((m8 + 3) >> 2 << 7) | ((m9 + 3) >> 2 << 8))
            b1 = (((s1 + 3) >> 2) | ((s2 + 3) >> 2 << 1) | ((s3 + 3) >> 2 << 2)
                  | ((s4 + 3) >> 2 << 3) | ((s5 + 3) >> 2 << 4) | ((s6 + 3) >> 2 << 5)
                  | ((s7 + 3) >> 2 << 6) | ((s8 + 3) >> 2 << 7) | ((s9 + 3) >> 2 << 8))
            b2 = (((p1 + 3) >> 2) | ((p2 + 3) >> 2 << 1) | ((p3 + 3) >> 2 << 2)
                  | ((p4 + 3) >> 2 << 3) | ((p5 + 3) >> 2 << 4) | ((p6 + 3) >> 2 << 5)
                  | ((p7 + 3) >> 2 << 6) | ((p8 + 3) >> 2 << 7) | ((p9 + 3) >> 2 << 8))
            d = 14 - _lan_kept(b0, b1, b2, honors, (switches & STRICT_LAN) != 0)
            if d < best:
                best = d
    return best


def _is_win(c: list[int], switches: i64) -> bool:
    """Whether the hand is complete in one of the forms switched on, without wild tiles: a
    hand no form takes is turned away from the one read of its counts (the per-form
    checks, :func:`is_standard_win` …, give the same answers form by form)."""
    m1: i64; m2: i64; m3: i64; m4: i64; m5: i64; m6: i64; m7: i64; m8: i64; m9: i64  # noqa: E702
    s1: i64; s2: i64; s3: i64; s4: i64; s5: i64; s6: i64; s7: i64; s8: i64; s9: i64  # noqa: E702
    p1: i64; p2: i64; p3: i64; p4: i64; p5: i64; p6: i64; p7: i64; p8: i64; p9: i64  # noqa: E702
    z1: i64; z2: i64; z3: i64; z4: i64; z5: i64; z6: i64; z7: i64  # noqa: E702
    if _COMPILED:
        (m1, m2, m3, m4, m5, m6, m7, m8, m9,
         s1, s2, s3, s4, s5, s6, s7, s8, s9,
         p1, p2, p3, p4, p5, p6, p7, p8, p9,
         z1, z2, z3, z4, z5, z6, z7) = _read(c)
    else:  # as Python the plain unpacking is the faster
        (m1, m2, m3, m4, m5, m6, m7, m8, m9,
         s1, s2, s3, s4, s5, s6, s7, s8, s9,
         p1, p2, p3, p4, p5, p6, p7, p8, p9,
         z1, z2, z3, z4, z5, z6, z7) = c
    n = (m1 + m2 + m3 + m4 + m5 + m6 + m7 + m8 + m9
         + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + s9
         + p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9
         + z1 + z2 + z3 + z4 + z5 + z6 + z7)
    if switches & STANDARD and n % 3 == 2:
        if n > 14:  # no cell for five sets: the vector's look-up failed so
            raise IndexError("index out of range")
        i0 = m1 + 5 * (m2 + 5 * (m3 + 5 * (m4 + 5 * (m5 + 5 * (m6 + 5 * (m7 + 5 * (m8 + 5 * m9)))))))
        i1 = s1 + 5 * (s2 + 5 * (s3 + 5 * (s4 + 5 * (s5 + 5 * (s6 + 5 * (s7 + 5 * (s8 + 5 * s9)))))))
        i2 = p1 + 5 * (p2 + 5 * (p3 + 5 * (p4 + 5 * (p5 + 5 * (p6 + 5 * (p7 + 5 * (p8 + 5 * p9)))))))
        i3 = z1 + 5 * (z2 + 5 * (z3 + 5 * (z4 + 5 * (z5 + 5 * (z6 + 5 * z7)))))
        if not _table_cell(i0, i1, i2, i3, 2 * (n // 3) + 1):
            return True
    if n != 14:
        return False
    held = (m1 | m2 | m3 | m4 | m5 | m6 | m7 | m8 | m9
            | s1 | s2 | s3 | s4 | s5 | s6 | s7 | s8 | s9
            | p1 | p2 | p3 | p4 | p5 | p6 | p7 | p8 | p9
            | z1 | z2 | z3 | z4 | z5 | z6 | z7)
    # seven pairs: every kind held an even number of times (twice, unless quads count)
    if switches & SEVEN_PAIRS and not held & (1 if switches & QUADS_AS_TWO_PAIRS else 5):
        return True
    twice = (m1 | m9 | s1 | s9 | p1 | p9 | z1 | z2 | z3 | z4 | z5 | z6 | z7) >> 1
    if switches & SHISANYAO and twice:
        kinds = (((m1 + 3) >> 2) + ((m9 + 3) >> 2) + ((s1 + 3) >> 2) + ((s9 + 3) >> 2)
                 + ((p1 + 3) >> 2) + ((p9 + 3) >> 2) + ((z1 + 3) >> 2) + ((z2 + 3) >> 2)
                 + ((z3 + 3) >> 2) + ((z4 + 3) >> 2) + ((z5 + 3) >> 2) + ((z6 + 3) >> 2)
                 + ((z7 + 3) >> 2))
        if kinds == 13:
            return True
    if switches & SHISANLAN and held == 1:  # fourteen kinds, once each
        b0 = (m1 | m2 << 1 | m3 << 2 | m4 << 3 | m5 << 4 | m6 << 5 | m7 << 6 | m8 << 7 | m9 << 8)
        b1 = (s1 | s2 << 1 | s3 << 2 | s4 << 3 | s5 << 4 | s6 << 5 | s7 << 6 | s8 << 7 | s9 << 8)
        b2 = (p1 | p2 << 1 | p3 << 2 | p4 << 3 | p5 << 4 | p6 << 5 | p7 << 6 | p8 << 7 | p9 << 8)
        honors = z1 + z2 + z3 + z4 + z5 + z6 + z7
        return _lan_kept(b0, b1, b2, honors, (switches & STRICT_LAN) != 0) == 14
    return False
# fmt: on


def _held_masks(c: list[int]) -> tuple[i64, i64, i64, i64, i64]:
    """Bit ``t`` of the ``x``-th mask set for each kind ``t`` held ``x`` times (0–4)."""
    m0: i64 = 0
    m1: i64 = 0
    m2: i64 = 0
    m3: i64 = 0
    m4: i64 = 0
    bit: i64 = 1
    for t in range(NUM_KINDS):
        x: i64 = c[t]
        if x == 0:
            m0 |= bit
        elif x == 1:
            m1 |= bit
        elif x == 2:
            m2 |= bit
        elif x == 3:
            m3 |= bit
        else:
            m4 |= bit
        bit <<= 1
    return m0, m1, m2, m3, m4


def _lan_added(
    b0: i64, b1: i64, b2: i64, honors: i64, group: i64, rank_bit: i64, strict: bool
) -> i64:
    """A 十三烂 hand's distance (14 less the tiles kept, :func:`_lan_kept`) once a kind not
    held is added: its rank bit into its suit's mask (``group`` 0–2), or one more honor (3)."""
    if group == 0:
        b0 |= rank_bit
    elif group == 1:
        b1 |= rank_bit
    elif group == 2:
        b2 |= rank_bit
    else:
        honors += 1
    return 14 - _lan_kept(b0, b1, b2, honors, strict)


def _lan_kept(b0: i64, b1: i64, b2: i64, honors: i64, strict: bool) -> i64:
    """The most tiles of a 十三烂 hand kept (at most 14), from the ranks held in each suit
    (nine bits each) and the honor kinds held: :func:`_shisanlan_distance` is 14 less it.

    Three apart: a 十三烂 hand holds 14 tiles, at most three a suit and seven honors, so its
    suits' parts hold seven to nine ranks between them: sizes 3 + 3 + 3 with room for five
    honors, 3 + 3 + 2 with six, or 3 + 3 + 1 and 3 + 2 + 2 with all seven.  ``_LAN`` gives
    each suit's best overlap with a part of each size; the best split is read off the all-3
    one from how much each suit gains by a smaller part (the same maximum as trying the ten
    splits of ``_LAN_SPLITS``)."""
    if strict:  # nine suited places at most, seven honors: any 14 of the 16 will do
        kept = _lan_strict_suited(b0, b1, b2) + honors
        return kept if kept < 14 else 14
    a3: i64 = _LAN[4 * b0 + 3]
    c3: i64 = _LAN[4 * b1 + 3]
    d3: i64 = _LAN[4 * b2 + 3]
    # what a suit gains by a part of two ranks instead of three (−1, 0 or 1), or of one
    a2: i64 = _LAN[4 * b0 + 2] - a3
    c2: i64 = _LAN[4 * b1 + 2] - c3
    d2: i64 = _LAN[4 * b2 + 2] - d3
    a1: i64 = _LAN[4 * b0 + 1] - a3
    c1: i64 = _LAN[4 * b1 + 1] - c3
    d1: i64 = _LAN[4 * b2 + 1] - d3
    top2 = max(max(a2, c2), d2)
    low2 = min(min(a2, c2), d2)
    # 3+3+3 (five honors) or 3+3+2 (six), then 3+3+1 or 3+2+2 (all seven)
    kept = max(min(honors, 5), top2 + min(honors, 6))
    kept = max(kept, max(max(max(a1, c1), d1), a2 + c2 + d2 - low2) + honors)
    kept += a3 + c3 + d3
    return kept if kept < 14 else 14


def is_win(c: Sequence[int]) -> bool:
    """The plain forms (docs/architecture.md, "Stable interfaces"): standard or seven pairs
    (four of a kind as two pairs)."""
    return _is_win(_as_list(c), PLAIN)


# ---------------------------------------------------------------------------------------
# waits
# ---------------------------------------------------------------------------------------


def _standard_waits(
    c: list[int], out: list[int], scan: tuple[i64, i64, i64, i64, i64, i64, i64, i64, i64]
) -> None:
    """Append the tiles completing a standard hand, in increasing order, found suit by suit
    from the tables: the tile goes to the one short suit (which then holds the pair), or to
    one of two suits each holding a pair's worth of extra tiles; every other suit must
    already be complete.  ``scan`` is :func:`_scan` of ``c``."""
    i0, i1, i2, i3, n0, n1, n2, n3, _hist = scan
    r0 = n0 % 3
    r1 = n1 % 3
    r2 = n2 % 3
    r3 = n3 % 3
    ones = (r0 == 1) + (r1 == 1) + (r2 == 1) + (r3 == 1)
    twos = (r0 == 2) + (r1 == 2) + (r2 == 2) + (r3 == 2)
    if ones == 1 and not twos:
        pair_after = 1  # the tile goes to the short suit, which then holds the pair
    elif twos == 2 and not ones:
        pair_after = 0  # the tile goes to one of the two suits with a pair's worth extra
    else:
        return
    # each group's distance to complete as it is (sets, and a pair when two over)
    d0 = _VEC[_SUIT_CLASS[i0]][(n0 // 3) * 2 + (r0 == 2)] if n0 else 0
    d1 = _VEC[_SUIT_CLASS[i1]][(n1 // 3) * 2 + (r1 == 2)] if n1 else 0
    d2 = _VEC[_SUIT_CLASS[i2]][(n2 // 3) * 2 + (r2 == 2)] if n2 else 0
    d3 = _VEC[_HONOR_CLASS[i3]][(n3 // 3) * 2 + (r3 == 2)] if n3 else 0
    short = 1 if pair_after else 2  # the residue of a group the tile may go to
    for target in range(4):
        if target == 0:
            n, r, base, others = n0, r0, i0, d1 + d2 + d3
        elif target == 1:
            n, r, base, others = n1, r1, i1, d0 + d2 + d3
        elif target == 2:
            n, r, base, others = n2, r2, i2, d0 + d1 + d3
        else:
            n, r, base, others = n3, r3, i3, d0 + d1 + d2
        if r != short or others:
            continue
        cell = ((n + 1) // 3) * 2 + pair_after
        classes = _SUIT_CLASS if target < 3 else _HONOR_CLASS
        weight: i64 = 1
        for k in range(9 * target, 9 * target + (9 if target < 3 else 7)):
            if c[k] < 4 and not _VEC[classes[base + weight]][cell]:
                out.append(k)
            weight *= 5


def _seven_pairs_wait(c: list[int], quads_as_two_pairs: bool) -> int:
    """The one kind completing seven pairs from 13 tiles, or −1."""
    odd = -1
    high = 0
    for k in range(NUM_KINDS):
        x = c[k]
        if x & 1:
            if odd >= 0:
                return -1
            odd = k
        if x > high:
            high = x
    if odd < 0:
        return -1
    if not quads_as_two_pairs and (c[odd] != 1 or high > 2):
        return -1
    return odd


def _insert_sorted(out: list[int], t: int) -> None:
    """Add ``t`` to the increasing list ``out`` unless it is there."""
    i = 0
    while i < len(out) and out[i] < t:
        i += 1
    if i == len(out) or out[i] != t:
        out.insert(i, t)


def _waits(c: list[int], switches: int) -> list[int]:
    """The waits over the forms switched on (see :data:`STANDARD`)."""
    out: list[int] = []
    scan = _scan(c)
    if switches & STANDARD:
        _standard_waits(c, out, scan)
    _i0, _i1, _i2, _i3, n0, n1, n2, n3, hist = scan
    if n0 + n1 + n2 + n3 != 13:
        return out
    if switches & SEVEN_PAIRS and _held(hist, 1) + _held(hist, 3) == 1:
        t = _seven_pairs_wait(c, (switches & QUADS_AS_TWO_PAIRS) != 0)
        if t >= 0:
            _insert_sorted(out, t)
    strict = (switches & STRICT_LAN) != 0
    if switches & SHISANLAN and _held(hist, 1) == 13 and _shisanlan_distance(c, 0, strict) == 1:
        trial = list(c)  # the caller's list is never written
        for t in range(NUM_KINDS):
            if not trial[t]:
                trial[t] = 1
                done = _shisanlan_distance(trial, 0, strict) == 0
                trial[t] = 0
                if done:
                    _insert_sorted(out, t)
    if switches & SHISANYAO and _shisanyao_from(c, 13) == 1:
        # thirteen orphans one tile short: all thirteen kinds (any of them makes the pair),
        # or twelve and a pair (the missing kind)
        pair = _held(hist, 2) > 0
        for t in ORPHANS:
            if not c[t] or not pair:
                _insert_sorted(out, t)
    return out


def waits(c: Sequence[int]) -> list[int]:
    """Kinds that complete the hand in a plain form; a kind already held four times is not a
    wait (there is no fifth copy)."""
    return _waits(_as_list(c), PLAIN)


def is_ready(c: Sequence[int]) -> bool:
    return bool(_waits(_as_list(c), PLAIN))


# ---------------------------------------------------------------------------------------
# shanten
# ---------------------------------------------------------------------------------------


def shanten_standard(c: Sequence[int]) -> int:
    return _distance(_as_list(c), STANDARD) - 1


def shanten_seven_pairs(c: Sequence[int], *, quads_as_two_pairs: bool = True) -> int:
    return _seven_pairs_distance(_as_list(c), 0, quads_as_two_pairs) - 1


def shanten(c: Sequence[int]) -> int:
    """Distance to ready over the plain forms; ``-1`` means complete."""
    return _distance(_as_list(c), PLAIN) - 1


# ---------------------------------------------------------------------------------------
# a form set's checks, without wild tiles (zhuoji.hand.HandRules)
# ---------------------------------------------------------------------------------------


def forms_distance(c: Sequence[int], switches: int) -> int:
    """Fewest tiles to add over the forms switched on (``FAR`` with none), no wild tiles."""
    return _distance(_as_list(c), switches)


def forms_distance_jokers(c: Sequence[int], jokers: int, switches: int) -> int:
    """Fewest tiles to add over the forms switched on (``FAR`` with none) for a hand of
    wild tiles in play: ``c`` without its jokers, ``jokers`` held beside it (so a fifth copy
    counts, as :func:`standard_distance` with ``wild_in_play``).  Each form as its own
    entry point computes it (``zhuoji.hand.HandRules.distance``, one call per reading of
    the stand-in tiles instead of one per form), here from one read of the counts
    (:func:`_scan`): the standard form and seven pairs from its indices and histogram,
    十三烂 from the rank masks (:func:`_lan_kept`), 十三幺 from the orphans."""
    cc = _as_list(c)
    i0, i1, i2, i3, n0, n1, n2, n3, hist = _scan(cc)
    n = int(n0 + n1 + n2 + n3)
    best = FAR
    if switches & STANDARD:
        sets = (n + jokers) // 3
        _check_sets(sets, n)
        best = _table_cell(i0, i1, i2, i3, 2 * sets + 1)
    if n + jokers < 13:
        return best
    if switches & SEVEN_PAIRS:
        d = _pairs_from(hist, (switches & QUADS_AS_TWO_PAIRS) != 0)
        if d < best:
            best = d
    if switches & SHISANLAN:
        b0 = _rank_mask(cc, 0)
        b1 = _rank_mask(cc, 9)
        b2 = _rank_mask(cc, 18)
        honors = int(NUM_KINDS - _held(hist, 0) - _bits(b0) - _bits(b1) - _bits(b2))
        if 14 - honors - _bits(b0) - _bits(b1) - _bits(b2) < best:
            d = int(14 - _lan_kept(b0, b1, b2, honors, (switches & STRICT_LAN) != 0))
            if d < best:
                best = d
    if switches & SHISANYAO:
        d = _shisanyao_from(cc, n + jokers)
        if d < best:
            best = d
    return best


def forms_shanten_floor(c: Sequence[int], quads_as_two_pairs: bool) -> int:
    """A lower bound on the plain forms' shanten that may count a fifth copy."""
    i0, i1, i2, i3, n0, n1, n2, n3, hist = _scan(_as_list(c))
    n = int(n0 + n1 + n2 + n3)
    _check_sets(n // 3, n)
    d = _vector_of(i0, i1, i2, i3)[2 * (n // 3) + 1]
    if n >= 13:
        sp = _pairs_from(hist, quads_as_two_pairs)
        if sp < d:
            d = sp
    return d - 1


def forms_is_win(c: Sequence[int], switches: int) -> bool:
    """Whether the hand is complete in one of the forms switched on, no wild tiles."""
    return _is_win(_as_list(c), switches)


def forms_waits(c: Sequence[int], switches: int) -> list[int]:
    """Kinds completing the hand in one of the forms switched on; a kind held four times is
    no wait."""
    return _waits(_as_list(c), switches)


class Forms:
    """A form set's checks without wild tiles, as methods of one object that holds its
    switches: :class:`zhuoji.hand.HandRules` makes one and binds its methods in place of its
    own, so ``rules.shanten(c)`` calls compiled code with no Python frame between (a
    ``functools.partial`` with the switches as a keyword costs more than the frame)."""

    def __init__(self, switches: int) -> None:
        self.switches: i64 = switches

    def distance(self, c: Sequence[int]) -> int:
        """:func:`forms_distance`."""
        return _distance(_as_list(c), self.switches)

    def shanten(self, c: Sequence[int]) -> int:
        """:func:`forms_distance` less one: tiles from ready (0 ready, -1 complete)."""
        return _distance(_as_list(c), self.switches) - 1

    def is_win(self, c: Sequence[int]) -> bool:
        """:func:`forms_is_win`."""
        return _is_win(_as_list(c), self.switches)

    def waits(self, c: Sequence[int]) -> list[int]:
        """:func:`forms_waits`."""
        return _waits(_as_list(c), self.switches)

    def is_ready(self, c: Sequence[int]) -> bool:
        return bool(_waits(_as_list(c), self.switches))


# ---------------------------------------------------------------------------------------
# wild tiles in the hand
# ---------------------------------------------------------------------------------------


def _wild_distance(c: list[int], wild: int, stand_in: int, switches: int) -> int:
    """:func:`forms_distance_wild` of a list it may change and restores."""
    jokers = c[wild]
    c[wild] = 0
    best = forms_distance_jokers(c, jokers, switches) - jokers
    if stand_in >= 0 and stand_in != wild:
        held = c[stand_in]
        for _ in range(held):  # j stand-ins read as the wild's own face, j = 1 … held
            c[stand_in] -= 1
            c[wild] += 1
            d = forms_distance_jokers(c, jokers, switches) - jokers
            if d < best:
                best = d
        c[stand_in] += held
    c[wild] = jokers
    return best


def forms_distance_wild(c: Sequence[int], wild: int, stand_in: int, switches: int) -> int:
    """Fewest tiles to add over the forms switched on, for a hand holding copies of the wild
    kind ``wild`` (jokers: added tiles already held); with a 红中配 ``stand_in`` kind (-1:
    none), any number of its copies may instead be read as the wild's own face
    (``zhuoji.hand.HandRules``: the least over the readings)."""
    return _wild_distance(list(c), wild, stand_in, switches)


def forms_shanten_wild(c: Sequence[int], wild: int, stand_in: int, switches: int) -> int:
    """:func:`forms_distance_wild` less one: tiles from ready (0 ready, -1 complete)."""
    return _wild_distance(list(c), wild, stand_in, switches) - 1


def forms_is_win_wild(c: Sequence[int], wild: int, stand_in: int, switches: int) -> bool:
    """Whether the hand (wild tiles as in :func:`forms_distance_wild`) is complete."""
    cc = list(c)
    return _total(cc) % 3 == 2 and _wild_distance(cc, wild, stand_in, switches) == 0


def forms_ukeire_wild(
    c: Sequence[int], live: Sequence[int], wild: int, stand_in: int, switches: int
) -> tuple[int, int, list[int]]:
    """(shanten, live copies of the improving kinds, the improving kinds) of a hand between
    turns holding wild tiles (as in :func:`forms_distance_wild`): a kind improves the hand
    when one more copy of it lowers the shanten; ``live[k]`` copies of kind ``k`` are still
    to be drawn (kinds with none, or held four times, are skipped).  The kinds come from
    :func:`_kinds_below`."""
    cc = list(c)
    lv = list(live)
    dist = _wild_distance(cc, wild, stand_in, switches)
    _check_added(cc, lv, wild, stand_in, switches)
    found: i64 = _kinds_below(cc, lv, dist, wild, stand_in, switches)
    count = 0
    kinds: list[int] = []
    for t in range(NUM_KINDS):
        if found & 1:
            count += lv[t]
            kinds.append(t)
        found >>= 1
    return dist - 1, count, kinds


def _kinds_below(
    cc: list[int],
    lv: list[int],
    dist: int,
    wild: int,
    stand_in: int,
    switches: int,
    live_bits: i64 = -1,
) -> i64:
    """Bit ``t`` set for each kind ``t`` with ``lv[t] > 0`` held fewer than four times in
    ``cc`` (a hand holding wild tiles, as in :func:`forms_distance_wild`; restored before
    returning) one more copy of which leaves the hand fewer than ``dist`` tiles from
    complete.

    The distance is the least over the readings of the stand-ins (each with the wild's
    copies as jokers), and one more copy of a kind changes each reading by one tile: one
    group's pattern index, one count of the histogram, at most one rank or honor of 十三烂.
    So each reading is read once (:func:`_improving_kinds`) and each added kind costs a few
    table look-ups, where each kind was a whole :func:`_wild_distance` before
    (``tests/test_hand_kernel.py`` compares the two on random hands).  One more wild is one
    more joker beside the same counts; one more stand-in is one more of its own face in
    each reading, and a new last reading with all of them read as the wild's face.  The
    caller has checked the hand's size (:func:`_check_added`); ``live_bits``, when given,
    is :func:`live_bits_of` ``lv``."""
    jokers = cc[wild]
    joker_ok = lv[wild] > 0 and jokers < 4
    cc[wild] = 0
    other = stand_in if stand_in >= 0 and stand_in != wild else -1
    held = cc[other] if other >= 0 else 0
    face = other if other >= 0 and lv[other] > 0 and held < 4 else -1
    # a stand-in held four times is no kind to add (the last reading adds no face either)
    skip = other if other >= 0 and face < 0 else -1
    # the kinds a reading may add besides the wild and its face (live, neither wild nor
    # skip), as bits
    addable: i64 = live_bits if live_bits >= 0 else live_bits_of(lv)
    bit: i64 = 1
    bit <<= wild
    addable &= ~bit
    if skip >= 0:
        bit = 1
        bit <<= skip
        addable &= ~bit
    found: i64 = _improving_kinds(
        cc, jokers, switches, dist, lv, wild, skip, joker_ok, held == 0, face, 0, addable
    )
    for r in range(1, held + 1):  # r stand-ins read as the wild's own face, r = 1 … held
        cc[other] -= 1
        cc[wild] += 1
        found = _improving_kinds(
            cc, jokers, switches, dist, lv, wild, skip, joker_ok, r == held, face, found, addable
        )
    if other >= 0:
        cc[other] += held
    cc[wild] = jokers
    return found


def live_bits_of(live: list[int]) -> i64:
    """Bit ``t`` for each kind ``t`` with ``live[t] > 0``."""
    bits: i64 = 0
    bit: i64 = 1
    for t in range(NUM_KINDS):
        if live[t] > 0:
            bits |= bit
        bit <<= 1
    return bits


def _check_added(cc: list[int], lv: list[int], wild: int, stand_in: int, switches: int) -> None:
    """Fails as :func:`_wild_distance` of the hand ``cc`` with the first kind
    :func:`_kinds_below` tries added would, when that hand is too large (``cc`` restored)."""
    if switches & STANDARD and _total(cc) >= 14:
        for t in range(NUM_KINDS):
            if lv[t] > 0 and cc[t] < 4:
                cc[t] += 1
                _wild_distance(cc, wild, stand_in, switches)
                cc[t] -= 1


def forms_discard_distances_wild(
    c: Sequence[int], discards: Sequence[int], wild: int, stand_in: int, switches: int
) -> list[int]:
    """For each kind of ``discards`` (each held), :func:`forms_distance_wild` of the hand
    less one copy of it: a bot's turn asks it of every discard.  One copy fewer changes each
    reading of the stand-ins by one tile (one group's pattern index, one count of the
    histogram, at most one rank or honor of 十三烂; a wild, one joker fewer beside the same
    counts; a stand-in, one fewer of its own face, in the readings that keep one), so each
    reading is read once (:func:`_discard_distances`)."""
    return _wild_discard_distances(list(c), list(discards), wild, stand_in, switches)


def _wild_discard_distances(
    cc: list[int], kinds: list[int], wild: int, stand_in: int, switches: int
) -> list[int]:
    """:func:`forms_discard_distances_wild` of a list it may change and restores."""
    best = [FAR] * len(kinds)
    if switches & STANDARD and _total(cc) >= 16 and kinds:  # too large: fail as the first
        cc[kinds[0]] -= 1
        _wild_distance(cc, wild, stand_in, switches)
        cc[kinds[0]] += 1
    jokers = cc[wild]
    cc[wild] = 0
    other = stand_in if stand_in >= 0 and stand_in != wild else -1
    held = cc[other] if other >= 0 else 0
    _discard_distances(cc, jokers, switches, kinds, wild, best)
    for _ in range(held):  # j stand-ins read as the wild's own face, j = 1 … held
        cc[other] -= 1
        cc[wild] += 1
        _discard_distances(cc, jokers, switches, kinds, wild, best)
    if other >= 0:
        cc[other] += held
    cc[wild] = jokers
    return best


def _discard_distances(
    c: list[int],
    jokers: int,
    switches: int,
    kinds: list[int],
    wild: int,
    best: list[int],
) -> None:
    """Lowers ``best[i]`` to the distance (less the jokers, as :func:`forms_distance_jokers`
    less them) of the hand ``c`` (the non-joker counts of one reading of the stand-ins;
    ``jokers`` held beside them) less one copy of ``kinds[i]`` (``wild``: one joker fewer),
    for each kind this reading holds; each form's part is read once and changed by the one
    tile taken away."""
    i0, i1, i2, i3, n0, n1, n2, n3, hist = _scan(c)
    j: i64 = jokers
    n: i64 = n0 + n1 + n2 + n3 - 1  # tiles held without the discard
    total: i64 = n + j
    std = (switches & STANDARD) != 0
    sets: i64 = total // 3
    cell: i64 = 2 * sets + 1
    a: i64 = _SUIT_CLASS[i0]
    b: i64 = _SUIT_CLASS[i1]
    d: i64 = _SUIT_CLASS[i2]
    h: i64 = _HONOR_CLASS[i3]
    pairs = (switches & SEVEN_PAIRS) != 0 and total >= 13
    quads_two = (switches & QUADS_AS_TWO_PAIRS) != 0
    lan = (switches & SHISANLAN) != 0 and total >= 13
    strict = (switches & STRICT_LAN) != 0
    yao = (switches & SHISANYAO) != 0 and total >= 13
    kinds_held: i64 = NUM_KINDS - _held(hist, 0)
    h1: i64 = _held(hist, 1)
    h2: i64 = _held(hist, 2)
    h3: i64 = _held(hist, 3)
    h4: i64 = _held(hist, 4)
    # (an ``if`` each, not a conditional of two tuples: that one is unpacked generically)
    b0: i64 = 0
    b1: i64 = 0
    b2: i64 = 0
    honors: i64 = 0
    if lan:
        b0, b1, b2, honors = _lan_parts_of(i0, i1, i2, kinds_held)
    # orphan kinds held, and those held twice or more
    orphans: i64 = 0
    orphan_pairs: i64 = 0
    if yao:
        orphans, orphan_pairs = _orphan_counts(c)
    for i in range(len(kinds)):
        t = kinds[i]
        if t == wild:  # one joker fewer: the same counts (and the same sets)
            dist: i64 = FAR
            if std:
                dist = _class_cell(a, b, d, h, cell)
            if pairs:
                dist = min(dist, _pairs_from(hist, quads_two))
            if lan:
                dist = min(dist, 14 - _lan_kept(b0, b1, b2, honors, strict))
            if yao:
                dist = min(dist, 14 - orphans - (1 if orphan_pairs else 0))
            dist -= j - 1
            if dist < best[i]:
                best[i] = dist
            continue
        x: i64 = c[t]
        if x == 0:  # a stand-in this reading reads as the wild's face throughout
            continue
        gone: i64 = 1 if x == 1 else 0  # the kind's last copy
        dist = FAR
        if std:
            if sets > 4:
                _check_sets(int(sets), int(n))
            if t < 9:
                dist = _class_cell(_SUIT_CLASS[i0 - POW5[t]], b, d, h, cell)
            elif t < 18:
                dist = _class_cell(a, _SUIT_CLASS[i1 - POW5[t - 9]], d, h, cell)
            elif t < 27:
                dist = _class_cell(a, b, _SUIT_CLASS[i2 - POW5[t - 18]], h, cell)
            else:
                dist = _class_cell(a, b, d, _HONOR_CLASS[i3 - POW5[t - 27]], cell)
        if pairs:
            p: i64 = _pairs_moved(h1, h2, h3, h4, x, -1, quads_two)
            if p < dist:
                dist = p
        if lan and 14 - (kinds_held - gone) < dist:
            m0: i64 = b0
            m1: i64 = b1
            m2: i64 = b2
            hh: i64 = honors
            if gone:
                if t < 9:
                    m0 &= ~_RANK_BIT[t]
                elif t < 18:
                    m1 &= ~_RANK_BIT[t - 9]
                elif t < 27:
                    m2 &= ~_RANK_BIT[t - 18]
                else:
                    hh -= 1
            q: i64 = 14 - _lan_kept(m0, m1, m2, hh, strict)
            if q < dist:
                dist = q
        if yao:
            y: i64 = 14 - orphans - (1 if orphan_pairs else 0)
            if _ORPHAN_BITS[t]:
                pairs_left: i64 = orphan_pairs - (1 if x == 2 else 0)
                y = 14 - (orphans - gone) - (1 if pairs_left else 0)
            if y < dist:
                dist = y
        dist -= j
        if dist < best[i]:
            best[i] = dist


#: the kinds of 十三幺 as a mask, bit ``k`` for kind ``k`` (a Python int: 34 bits)
_ORPHAN_BITS: Final[tuple[int, ...]] = tuple(int(k in ORPHANS) for k in range(NUM_KINDS))


class _Reading:
    """One reading of the stand-ins as :func:`_improving_kinds` tests kinds against it: the
    hand's suit and honor pattern indexes, each form's part now and whether it may fall
    below the mark with one more tile (:func:`_reading_of`)."""

    def __init__(self) -> None:
        self.i0: i64 = 0
        self.i1: i64 = 0
        self.i2: i64 = 0
        self.i3: i64 = 0
        # the other groups' product class, for a kind of each group
        self.o0: i64 = 0
        self.o1: i64 = 0
        self.o2: i64 = 0
        self.o3: i64 = 0
        self.cell: i64 = 0
        self.below: i64 = 0  # a form's distance (jokers not taken off) that improves
        self.std_on = False
        self.pairs_on = False
        self.quads_two = False
        self.h1: i64 = 0
        self.h2: i64 = 0
        self.h3: i64 = 0
        self.h4: i64 = 0
        self.lan_on = False
        self.strict = False
        self.lan_held: i64 = FAR  # the 十三烂 distance now (and with a kind held added)
        self.b0: i64 = 0
        self.b1: i64 = 0
        self.b2: i64 = 0
        self.honors: i64 = 0
        self.yao = False
        self.orphans: i64 = 0
        self.orphan_pair: i64 = 0


def _reading_of(c: list[int], jokers: int, switches: int, dist: int) -> _Reading:
    """The reading ``c`` (non-joker counts; ``jokers`` held beside them) as
    :func:`_improving_kinds` reads it, for the mark ``dist``.  One more tile lowers a form's
    distance by one at most (it is the fewest tiles to add), so a form already more than
    one tile above the mark (at the slot of the hand with the added tile) is off: on a turn
    that is most readings' 十三烂 and seven pairs, and the standard form of the readings
    that are not the best.  The standard form's other three groups are multiplied once a
    reading (the class product is commutative and associative), so a kind costs one
    product."""
    rd = _Reading()
    i0, i1, i2, i3, n0, n1, n2, n3, hist = _scan(c)
    rd.i0, rd.i1, rd.i2, rd.i3 = i0, i1, i2, i3
    j: i64 = jokers
    n: i64 = n0 + n1 + n2 + n3 + 1  # tiles held with the added one
    total: i64 = n + j
    below: i64 = dist + j
    rd.below = below
    sets: i64 = total // 3  # at most 4: a larger hand failed in _check_added
    cell: i64 = 2 * sets + 1
    rd.cell = cell
    a: i64 = _SUIT_CLASS[i0]
    b: i64 = _SUIT_CLASS[i1]
    d: i64 = _SUIT_CLASS[i2]
    h: i64 = _HONOR_CLASS[i3]
    pab: i64 = _PRODUCT[a << 8 | b]
    pdh: i64 = _PRODUCT[d << 8 | h]
    whole: i64 = _PRODUCT[pab << 8 | pdh]
    now: i64 = _VECTORS[10 * whole + cell]
    rd.std_on = (switches & STANDARD) != 0 and now <= below
    rd.o0 = _PRODUCT[b << 8 | pdh]
    rd.o1 = _PRODUCT[a << 8 | pdh]
    rd.o2 = _PRODUCT[pab << 8 | h]
    rd.o3 = _PRODUCT[pab << 8 | d]
    rd.quads_two = (switches & QUADS_AS_TWO_PAIRS) != 0
    pairs = (switches & SEVEN_PAIRS) != 0 and total >= 13
    rd.pairs_on = pairs and _pairs_from(hist, rd.quads_two) <= below
    rd.h1 = _held(hist, 1)
    rd.h2 = _held(hist, 2)
    rd.h3 = _held(hist, 3)
    rd.h4 = _held(hist, 4)
    lan = (switches & SHISANLAN) != 0 and total >= 13
    rd.strict = (switches & STRICT_LAN) != 0
    kinds_held: i64 = NUM_KINDS - _held(hist, 0)
    if lan and 14 - kinds_held <= below:  # (it keeps one tile a kind held at most)
        rd.b0, rd.b1, rd.b2, rd.honors = _lan_parts_of(i0, i1, i2, kinds_held)
        rd.lan_held = 14 - _lan_kept(rd.b0, rd.b1, rd.b2, rd.honors, rd.strict)
    rd.lan_on = lan and rd.lan_held <= below
    rd.yao = (switches & SHISANYAO) != 0 and total >= 13
    if rd.yao:
        orphans, orphan_pairs = _orphan_counts(c)
        rd.orphans = orphans
        rd.orphan_pair = 1 if orphan_pairs else 0
    return rd


def _kind_below(rd: _Reading, t: int, x: i64, kg: i64, kw: i64, krb: i64) -> bool:
    """Whether one more copy of kind ``t`` (held ``x`` times; its group ``kg``, its weight
    ``kw`` in the group's pattern index, its rank bit ``krb``) takes the reading ``rd``
    below its mark over a form that is on; a kind already held leaves the 十三烂 parts as
    they are."""
    below = rd.below
    if rd.std_on:
        # (each look-up into an i64 local: arithmetic on the bytes' items would be on
        # boxed ints)
        if kg == 0:
            k: i64 = _SUIT_CLASS[rd.i0 + kw]
            oth: i64 = rd.o0
        elif kg == 1:
            k = _SUIT_CLASS[rd.i1 + kw]
            oth = rd.o1
        elif kg == 2:
            k = _SUIT_CLASS[rd.i2 + kw]
            oth = rd.o2
        else:
            k = _HONOR_CLASS[rd.i3 + kw]
            oth = rd.o3
        p: i64 = _PRODUCT[k << 8 | oth]
        dd: i64 = _VECTORS[10 * p + rd.cell]
        if dd < below:
            return True
    if rd.pairs_on and _pairs_moved(rd.h1, rd.h2, rd.h3, rd.h4, x, 1, rd.quads_two) < below:
        return True
    if rd.lan_on:
        if x:  # a kind held: the same parts
            if rd.lan_held < below:
                return True
        elif _lan_added(rd.b0, rd.b1, rd.b2, rd.honors, kg, krb, rd.strict) < below:
            return True
    if rd.yao and _ORPHAN_BITS[t]:
        new: i64 = 1 if x == 0 else 0  # a kind not held before
        pair: i64 = 1 if x == 1 else rd.orphan_pair
        return 14 - rd.orphans - new - pair < below
    return rd.yao and 14 - rd.orphans - rd.orphan_pair < below


def _improving_kinds(
    c: list[int],
    jokers: int,
    switches: int,
    dist: int,
    live: list[int],
    wild: int,
    skip: int,
    joker_ok: bool,
    last: bool,
    face: int,
    found: i64,
    addable: i64,
) -> i64:
    """``found`` (bit ``t`` for kind ``t``) with every kind ``t`` added (live, held fewer
    than four times, neither ``wild`` nor ``skip``, not in it yet) one more copy of which
    takes the hand ``c`` (the non-joker counts of one reading of the stand-ins; ``jokers``
    held beside them) below ``dist`` tiles from complete over the forms switched on, as
    :func:`forms_distance_jokers` less the jokers would say: each form's part is read once
    (:func:`_reading_of`) and changed by the one added tile (:func:`_kind_below`).  With
    ``joker_ok``, ``wild`` is added when one more joker does it; on the ``last`` reading,
    ``face`` (the stand-in, or -1) is added when one more copy of the wild's own face does
    it (a new reading: every stand-in read so)."""
    rd = _reading_of(c, jokers, switches, dist)
    below = rd.below
    wild_bit: i64 = 1
    wild_bit <<= wild  # (not 1 << wild: compiled, a C int shifted, wrong past bit 31)
    # one more joker: the same counts, one tile more (the same sets as any added tile),
    # which takes a form now at the mark below it; with no form at all (FAR), FAR less one
    # more joker is less
    if (
        joker_ok
        and not found & wild_bit
        and (
            below >= FAR
            or rd.std_on
            or rd.pairs_on
            or rd.lan_on
            or (rd.yao and 14 - rd.orphans - rd.orphan_pair <= below)
        )
    ):
        found |= wild_bit
    if not (rd.std_on or rd.pairs_on or rd.lan_on or rd.yao):
        return found
    if rd.std_on:
        # the standard form's kinds group by group, from masks kept by what they depend on
        # (:func:`_standard_kinds`); ``addable`` (bit ``t``: ``live[t] > 0``, ``t`` neither
        # ``wild`` nor ``skip``) as the loop below filters them
        found |= _standard_kinds(rd) & addable
        if last and face >= 0:  # the wild's own face for the stand-in, every form asked
            found = _with_face(rd, c, wild, face, found)
            last = False
        if not (rd.pairs_on or rd.lan_on or rd.yao):  # the standard form alone
            return found
        rd.std_on = False  # its kinds are in ``found``: the rest asks the other forms
    if not rd.yao:  # seven pairs and 十三烂: their answers by the kind's count, in masks
        return _pairs_lan_kinds(rd, c, wild, last, face, found, addable)
    # the kinds, then (on the last reading) the wild's own face for the stand-in; each
    # kind's group g, its weight w in the group's pattern index and its rank bit rb
    bit: i64 = 1
    g: i64 = 0
    w: i64 = 1
    rb: i64 = 1
    for step in range(NUM_KINDS + 1):
        if step < NUM_KINDS:
            t = step
            if t == 9 or t == 18 or t == 27:
                g += 1
                w = 1
                rb = 1
            kw: i64 = w
            krb: i64 = rb
            kg: i64 = g
            w *= 5
            rb <<= 1
            mark: i64 = bit
            bit <<= 1
            if found & mark or t in (wild, skip) or live[t] <= 0:
                continue
        else:
            if not last or face < 0:
                continue
            mark = 1
            mark <<= face
            if found & mark:
                continue
            t = wild
            kg = t // 9 if t < 27 else 3
            kw = POW5[t - 9 * kg]
            krb = 1
            krb <<= t - 9 * kg
        x: i64 = c[t]
        if x < 4 and _kind_below(rd, t, x, kg, kw, krb):
            found |= mark
    return found


def _pairs_lan_kinds(
    rd: _Reading, c: list[int], wild: int, last: bool, face: int, found: i64, addable: i64
) -> i64:
    """:func:`_improving_kinds`' answer over seven pairs and 十三烂 (the reading's standard
    form off, or its kinds in ``found`` already; no 十三幺): seven pairs by the added
    kind's count alone (one :func:`_pairs_moved` a count, not a kind), 十三烂 by whether
    the kind is held (then the parts stay) or its rank or honor is new."""
    below = rd.below
    m0, m1, m2, m3, _m4 = _held_masks(c)  # the kinds held 0, 1, 2 and 3 times, as bits
    open_: i64 = addable & ~found  # (a kind held four times is in no mask)
    if rd.pairs_on:
        h1 = rd.h1
        h2 = rd.h2
        h3 = rd.h3
        h4 = rd.h4
        q = rd.quads_two
        if _pairs_moved(h1, h2, h3, h4, 0, 1, q) < below:
            found |= m0 & open_
        if _pairs_moved(h1, h2, h3, h4, 1, 1, q) < below:
            found |= m1 & open_
        if _pairs_moved(h1, h2, h3, h4, 2, 1, q) < below:
            found |= m2 & open_
        if _pairs_moved(h1, h2, h3, h4, 3, 1, q) < below:
            found |= m3 & open_
    if rd.lan_on:
        if rd.lan_held < below:  # a kind held: the same parts
            found |= (m1 | m2 | m3) & open_
        new: i64 = m0 & open_ & ~found
        if new:
            bit = 1
            g: i64 = 0
            rb: i64 = 1
            for t in range(NUM_KINDS):
                if t == 9 or t == 18 or t == 27:
                    g += 1
                    rb = 1
                if (
                    new & bit
                    and _lan_added(rd.b0, rd.b1, rd.b2, rd.honors, g, rb, rd.strict) < below
                ):
                    found |= bit
                bit <<= 1
                rb <<= 1
    if last and face >= 0:  # the wild's own face for the stand-in
        return _with_face(rd, c, wild, face, found)
    return found


def _with_face(rd: _Reading, c: list[int], wild: int, face: int, found: i64) -> i64:
    """``found`` with bit ``face`` set when one more copy of the wild read as its own face
    (the stand-in) takes the reading ``rd`` below its mark (:func:`_kind_below`)."""
    face_bit: i64 = 1
    face_bit <<= face
    if not found & face_bit:
        fg: i64 = wild // 9 if wild < 27 else 3
        frb: i64 = 1
        frb <<= wild - 9 * fg
        fx: i64 = c[wild]
        if fx < 4 and _kind_below(rd, wild, fx, fg, POW5[wild - 9 * fg], frb):
            found |= face_bit
    return found


def _standard_kinds(rd: _Reading) -> i64:
    """Bit ``t`` for each kind ``t`` held fewer than four times one more copy of which takes
    the reading ``rd``'s standard form below its mark (:func:`_kind_below`'s standard part),
    whether live or not, group by group (:func:`_group_mask`: the group's pattern index and
    the other groups' product read once)."""
    below: i64 = rd.below
    cell: i64 = rd.cell
    return (
        _group_mask(False, rd.i0, rd.o0, cell, below)
        | _group_mask(False, rd.i1, rd.o1, cell, below) << 9
        | _group_mask(False, rd.i2, rd.o2, cell, below) << 18
        | _group_mask(True, rd.i3, rd.o3, cell, below) << 27
    )


def _group_mask(honors: bool, idx: i64, oth: i64, cell: i64, below: i64) -> i64:
    """Bit ``r`` for each rank ``r`` of a group (suited, or the honors) held fewer than four
    times in its pattern index ``idx`` one more copy of which takes the standard form below
    ``below`` at slot ``cell``, the other groups' class product being ``oth``."""
    mask: i64 = 0
    w: i64 = 1
    bit: i64 = 1
    n: i64 = 7 if honors else 9
    r: i64 = 0
    rest: i64 = idx  # the digits of ranks r and up
    while r < n:
        above: i64 = rest // 5  # (by a constant: no division instruction)
        if rest - 5 * above < 4:
            if honors:
                k: i64 = _HONOR_CLASS[idx + w]
            else:
                k = _SUIT_CLASS[idx + w]
            p: i64 = _PRODUCT[k << 8 | oth]
            dd: i64 = _VECTORS[10 * p + cell]
            if dd < below:
                mask |= bit
        rest = above
        w *= 5
        bit <<= 1
        r += 1
    return mask


def _lan_parts_of(i0: i64, i1: i64, i2: i64, kinds_held: i64) -> tuple[i64, i64, i64, i64]:
    """The 十三烂 parts of a hand holding ``kinds_held`` kinds, its suits' pattern indexes
    ``i0``, ``i1``, ``i2`` (:func:`_scan`): each suit's ranks held (nine bits) and the honor
    kinds held."""
    b0: i64 = _ranks_held(i0)
    b1: i64 = _ranks_held(i1)
    b2: i64 = _ranks_held(i2)
    return b0, b1, b2, kinds_held - _bits(b0) - _bits(b1) - _bits(b2)


def _ranks_held(idx: i64) -> i64:
    """The ranks held in a suit of pattern index ``idx`` (its base-5 digits), as nine bits
    (from the index :func:`_scan` gave, not a second read of the counts)."""
    mask: i64 = 0
    bit: i64 = 1
    rest: i64 = idx
    for _r in range(9):
        above: i64 = rest // 5
        if rest - 5 * above:
            mask |= bit
        rest = above
        bit <<= 1
    return mask


def _orphan_counts(c: list[int]) -> tuple[i64, i64]:
    """(十三幺 kinds held, those of them held twice or more)."""
    orphans: i64 = 0
    pairs: i64 = 0
    for k in ORPHANS:
        held_k = c[k]
        if held_k:
            orphans += 1
            if held_k >= 2:
                pairs += 1
    return orphans, pairs


def _pairs_moved(
    h1: i64, h2: i64, h3: i64, h4: i64, x: i64, step: i64, quads_as_two_pairs: bool
) -> i64:
    """:func:`pairs_distance` of a histogram (kinds held once … four times) after one kind
    held ``x`` times gains (``step`` 1) or loses (``step`` -1) a copy, in machine integers
    (the batch functions ask it of every kind)."""
    y = x + step
    if x == 1:
        h1 -= 1
    elif x == 2:
        h2 -= 1
    elif x == 3:
        h3 -= 1
    elif x == 4:
        h4 -= 1
    if y == 1:
        h1 += 1
    elif y == 2:
        h2 += 1
    elif y == 3:
        h3 += 1
    elif y == 4:
        h4 += 1
    if quads_as_two_pairs:
        need: i64 = 7 - min(h2 + h3 + 2 * h4, 7)
        return need + max(need - h1 - h3, 0)
    pairs: i64 = min(h2 + h3 + h4, 7)
    return (7 - pairs) + max(0, 7 - (h1 + h2 + h3 + h4))


#: bit ``r`` of a nine-bit rank mask
_RANK_BIT: Final[tuple[int, ...]] = tuple(1 << r for r in range(9))


def _bits(mask: i64) -> i64:
    """How many of a nine-bit mask's bits are set."""
    n: i64 = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def forms_waits_wild(c: Sequence[int], wild: int, stand_in: int, switches: int) -> list[int]:
    """Kinds completing the hand (wild tiles as in :func:`forms_distance_wild`); a kind held
    four times is no wait.  A hand one tile short of complete is never less than 0 tiles
    from it, so its waits are the kinds that take it below 1 (:func:`_kinds_below`)."""
    cc = list(c)
    out: list[int] = []
    if (_total(cc) + 1) % 3 != 2:
        return out
    _check_added(cc, _EVERY_KIND, wild, stand_in, switches)
    found: i64 = _kinds_below(cc, _EVERY_KIND, 1, wild, stand_in, switches)
    for t in range(NUM_KINDS):
        if found & 1:
            out.append(t)
        found >>= 1
    return out


# ---------------------------------------------------------------------------------------
# standard realizations of a complete hand (settlement's pattern evaluation)
# ---------------------------------------------------------------------------------------

#: a block of :func:`standard_splits`: its kind's code plus its first kind (0–33).  The codes
#: order blocks as :class:`zhuoji.hand.Group` sorts them (by kind name: chow, pair, pung;
#: then first kind), so a sorted tuple of blocks is the sorted realization
CHOW_BLOCK: Final = 0
PAIR_BLOCK: Final = 64
PUNG_BLOCK: Final = 128


def standard_splits(c: Sequence[int]) -> list[tuple[int, ...]]:
    """Every standard realization (sets and exactly one pair; chows within a suit) of the
    counts ``c``: each a sorted tuple of blocks (:data:`CHOW_BLOCK` + first kind …), the
    list sorted, each realization once.  Without wild tiles: a depth-first search that
    starts a block at the lowest kind still held, every way it can.  Settlement asks it for
    every winning hand (``zhuoji.hand.HandRules.decompositions``); as Python it took a
    third of a greedy round's settlement."""
    counts = _as_list(c)
    found: set[tuple[int, ...]] = set()
    blocks: list[int] = []
    if len(counts) == NUM_KINDS:
        _split(counts, 0, False, blocks, found)
    return sorted(found)


def _split(
    c: list[int], start: int, has_pair: bool, blocks: list[int], found: set[tuple[int, ...]]
) -> None:
    i = start
    while i < NUM_KINDS and c[i] == 0:
        i += 1
    if i == NUM_KINDS:
        if has_pair:
            found.add(tuple(sorted(blocks)))
        return
    held = c[i]
    if not has_pair and held >= 2:
        c[i] = held - 2
        blocks.append(PAIR_BLOCK + i)
        _split(c, i, True, blocks, found)
        blocks.pop()
        c[i] = held
    if held >= 3:
        c[i] = held - 3
        blocks.append(PUNG_BLOCK + i)
        _split(c, i, has_pair, blocks, found)
        blocks.pop()
        c[i] = held
    if i < 27 and i % 9 <= 6 and c[i + 1] > 0 and c[i + 2] > 0:
        c[i] = held - 1
        c[i + 1] = c[i + 1] - 1
        c[i + 2] = c[i + 2] - 1
        blocks.append(CHOW_BLOCK + i)
        _split(c, i, has_pair, blocks, found)
        blocks.pop()
        c[i] = held
        c[i + 1] = c[i + 1] + 1
        c[i + 2] = c[i + 2] + 1


#: one copy of every kind to draw (:func:`forms_waits_wild` asks about each kind)
_EVERY_KIND: Final[list[int]] = [1] * NUM_KINDS
