"""Every discard of a hand at once: the shanten it leaves and the live tiles that lower it.

The question a bot asks at each of its turns (:meth:`zhuoji.agents.analysis.HandAnalyzer.
options`), for a plain hand: no wild tiles and no 十三烂 (the forms standard, seven pairs and
十三幺, RULES.md glossary).  Compiled with :mod:`zhuoji.hand_kernel`, in its group
(``zhuoji.compiled.GROUPS``, ``docs/build.md``), so the kernel's helpers are native calls;
the pure-Python build runs this same source.  Like the kernel it keeps to what mypyc compiles
well: ``list[int]`` inside, ``i64`` locals, ``Final`` tables.

Method (the per-suit class tables of :mod:`zhuoji.hand_tables`): a hand's standard distance
is ``vector(product(class(万), class(条), class(筒), class(字)))[slot]``.  Taking one tile
changes one group's class, so each discard costs one look-up against the product of the other
three; adding a tile to a group likewise, so the improving tiles of a discard are one look-up
a kind.  Adding a tile lowers a distance by at most one, so a tile improves the hand exactly
when it improves a form whose distance is the hand's.  Seven pairs is counted from the
histogram of counts, 十三幺 from the orphan kinds held.  The raw tables read a
four-of-a-kind's kind as one more copy away (see :mod:`zhuoji.agents.analysis`); a kind held
four times is never an improving tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from zhuoji import hand_tables
from zhuoji.hand_kernel import (
    FAR,
    NUM_KINDS,
    ORPHANS,
    POW5,
    _held,
    _scan,
    pairs_distance,
    shisanyao_distance,
)

# the form switches discard_options reads, as the hand kernel defines them (re-exported)
from zhuoji.hand_kernel import QUADS_AS_TWO_PAIRS as QUADS_AS_TWO_PAIRS
from zhuoji.hand_kernel import SEVEN_PAIRS as SEVEN_PAIRS
from zhuoji.hand_kernel import SHISANYAO as SHISANYAO

if TYPE_CHECKING:  # mypyc's unboxed 64-bit int; plain int when the module runs as Python
    from mypy_extensions import i64

_TABLES: Final = hand_tables.load()
_SUIT_CLASS: Final[bytes] = _TABLES.suit_class
_HONOR_CLASS: Final[bytes] = _TABLES.honor_class
_VEC: Final[tuple[bytes, ...]] = _TABLES.vectors
_PROD: Final[tuple[bytes, ...]] = _TABLES.product
#: the group of each kind (0 万, 1 条, 2 筒, 3 字) and its first kind
_GROUP: Final[tuple[int, ...]] = tuple(k // 9 if k < 27 else 3 for k in range(NUM_KINDS))
_BASES: Final[tuple[int, ...]] = (0, 9, 18, 27)
_ALL_KINDS: Final[list[int]] = list(range(NUM_KINDS))
#: base-5 digit weight of each kind in its group's pattern index
_WEIGHT: Final[tuple[int, ...]] = tuple(
    POW5[k % 9] if k < 27 else POW5[k - 27] for k in range(NUM_KINDS)
)


class DiscardOption:
    """One discard and what it leaves: shanten, and the live tiles that lower it (``ukeire``
    -1 and no ``improving`` kinds for a discard left out by ``only_best``).  A compiled
    class: a bot's turn makes one for every discard."""

    __slots__ = ("improving", "shanten", "tile", "ukeire")

    def __init__(self, tile: int, shanten: int, ukeire: int, improving: tuple[int, ...]) -> None:
        self.tile = tile
        self.shanten = shanten
        self.ukeire = ukeire  # live copies of the improving kinds
        self.improving = improving  # kinds that lower the shanten (the waits when it is 0)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiscardOption):
            return NotImplemented
        return (self.tile, self.shanten, self.ukeire, self.improving) == (
            other.tile,
            other.shanten,
            other.ukeire,
            other.improving,
        )

    def __hash__(self) -> int:
        return hash((self.tile, self.shanten, self.ukeire, self.improving))

    def __repr__(self) -> str:
        return (
            f"DiscardOption(tile={self.tile}, shanten={self.shanten}, ukeire={self.ukeire}, "
            f"improving={self.improving})"
        )


def _class(group: int, index: int) -> int:
    return _HONOR_CLASS[index] if group == 3 else _SUIT_CLASS[index]


def _classes(idx: list[int]) -> list[int]:
    """The four groups' classes from their pattern indices."""
    return [_SUIT_CLASS[idx[0]], _SUIT_CLASS[idx[1]], _SUIT_CLASS[idx[2]], _HONOR_CLASS[idx[3]]]


def _standard_after(cls: list[int], idx: list[int], d: int, slot: int) -> int:
    """The standard distance (raw tables) of the hand less one ``d``; ``idx`` and ``cls``
    hold the groups' pattern indices and classes of the whole hand (only ``d``'s group's
    class is looked up again)."""
    g = _GROUP[d]
    k = _class(g, idx[g] - _WEIGHT[d])
    k0 = k if g == 0 else cls[0]
    k1 = k if g == 1 else cls[1]
    k2 = k if g == 2 else cls[2]
    k3 = k if g == 3 else cls[3]
    return _VEC[_PROD[_PROD[_PROD[k0][k1]][k2]][k3]][slot]


#: product classes of the hand tables (a key's radix), and the slots of a distance vector
_PRODUCTS: Final[int] = len(_PROD)
_SLOTS: Final[int] = len(_VEC[0])
#: memo of :func:`_group_improving`, by its key; cleared when it reaches the limit
_GROUP_IMPROVING: Final[dict[int, int]] = {}
_MEMO_LIMIT: Final[int] = 1 << 18


def _group_improving(c: list[int], g: int, index: int, other: int, slot: int) -> i64:
    """Bit ``r`` set when adding the group's kind ``r`` (held fewer than four times) lowers
    the standard distance of a hand whose group ``g`` has the pattern ``index`` and whose
    other three groups' classes multiply to ``other``.  The answer is that of the tables
    alone, so it is memoized by everything it reads: the pattern (which fixes each kind's
    count, hence which are held four times), the product class, the distance slot, and
    whether the group is the honors' (its class table and its seven kinds); the suits
    share one class table.  ``c`` holds the group's counts (the pattern's digits)."""
    honors = g == 3
    key = ((index * _PRODUCTS + other) * _SLOTS + slot) * 2 + (1 if honors else 0)
    found = _GROUP_IMPROVING.get(key, -1)
    if found >= 0:
        return found
    row = _PROD[other]
    now = _VEC[row[_class(g, index)]][slot]
    base = _BASES[g]
    found = 0
    for r in range(7 if honors else 9):
        if c[base + r] >= 4:
            continue
        if _VEC[row[_class(g, index + POW5[r])]][slot] < now:
            found |= 1 << r
    if len(_GROUP_IMPROVING) >= _MEMO_LIMIT:
        _GROUP_IMPROVING.clear()
    _GROUP_IMPROVING[key] = found
    return found


def _standard_improving(
    c: list[int], idx: list[int], cls: list[int], slot: int, live_mask: i64
) -> i64:
    """Bit mask of the live kinds (``live_mask``: bit ``t`` for a kind with live copies)
    whose addition lowers the standard distance of ``c`` (whose groups' pattern indices
    and classes are ``idx`` and ``cls``).  A lone tile in an empty group never helps the
    standard form."""
    k0 = cls[0]
    k1 = cls[1]
    k2 = cls[2]
    k3 = cls[3]
    p01 = _PROD[k0][k1]
    p23 = _PROD[k2][k3]
    others = (_PROD[k1][p23], _PROD[k0][p23], _PROD[p01][k3], _PROD[p01][k2])
    found: i64 = 0
    for g in range(4):
        index = idx[g]
        if index:
            found |= _group_improving(c, g, index, others[g], slot) << _BASES[g]
    return found & live_mask


def _live_mask(live: list[int]) -> i64:
    """Bit ``t`` set for each kind ``t`` with live copies."""
    mask: i64 = 0
    for t in range(NUM_KINDS):
        if live[t] > 0:
            mask |= 1 << t
    return mask


def _pairs_improving(
    c: list[int], hist: list[int], dist: int, q2: bool, odd: list[int], live: list[int]
) -> i64:
    """Bit mask of the live kinds whose addition lowers the seven-pairs distance ``dist`` of
    ``c`` (``hist``: how many kinds are held 0–4 times).  While the hand lacks kinds any kind
    short of four may help, else only those of ``odd`` (held once or three times).  Whether
    a kind helps depends only on how many of it are held, so the distance is worked out
    once for each count."""
    ones = hist[1]
    twos = hist[2]
    threes = hist[3]
    fours = hist[4]
    lacking = 7 - min(twos + threes + 2 * fours, 7) > ones + threes  # a gap needs two tiles
    seek = lacking if q2 else ones + twos + threes + fours < 7
    helps: list[bool] = []
    for x in range(4):
        hist[x] = hist[x] - 1
        hist[x + 1] = hist[x + 1] + 1
        helps.append(pairs_distance(hist[1], hist[2], hist[3], hist[4], q2) < dist)
        hist[x + 1] = hist[x + 1] - 1
        hist[x] = hist[x] + 1
    found: i64 = 0
    for t in _ALL_KINDS if seek else odd:
        x = c[t]
        if live[t] <= 0 or x >= 4:
            continue
        if helps[x]:
            found |= 1 << t
    return found


def _orphans_improving(c: list[int], live: list[int]) -> i64:
    """Bit mask of the live kinds that lower the 十三幺 distance: a missing orphan, or a held
    one while no orphan is held twice."""
    paired = False
    for k in ORPHANS:
        if c[k] >= 2:
            paired = True
    found: i64 = 0
    for k in ORPHANS:
        x = c[k]
        if live[k] > 0 and (not x or (not paired and x == 1)):
            found |= 1 << k
    return found


def unseen(copies: list[int], seen: list[int]) -> list[int]:
    """Per kind, the copies of the wall (``copies``) less those ``seen``, never below 0: the
    live counts a bot weighs improving tiles by."""
    out = [0] * NUM_KINDS
    for k in range(NUM_KINDS):
        x = copies[k] - seen[k]
        if x > 0:
            out[k] = x
    return out


def _after_each(
    c: list[int], idx: list[int], hist: list[int], kinds: list[int], slot: int, forms: int
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Each form's distance after each discard of ``kinds``, and the least of them: the
    standard form always, seven pairs and 十三幺 as ``forms`` (the switches that apply to
    this hand's size) say.  ``c``, ``idx`` and ``hist`` are changed and restored."""
    pairs = bool(forms & SEVEN_PAIRS)
    yao = bool(forms & SHISANYAO)
    q2 = bool(forms & QUADS_AS_TWO_PAIRS)
    std_after: list[int] = []
    sp_after: list[int] = []
    yao_after: list[int] = []
    dist: list[int] = []
    cls = _classes(idx)
    for d in kinds:
        s = _standard_after(cls, idx, d, slot)
        p = FAR
        if pairs:
            x = c[d]
            hist[x] = hist[x] - 1
            hist[x - 1] = hist[x - 1] + 1
            p = pairs_distance(hist[1], hist[2], hist[3], hist[4], q2)
            hist[x - 1] = hist[x - 1] - 1
            hist[x] = hist[x] + 1
        y = FAR
        if yao:
            c[d] = c[d] - 1
            y = shisanyao_distance(c)
            c[d] = c[d] + 1
        std_after.append(s)
        sp_after.append(p)
        yao_after.append(y)
        least = s if s < p else p  # (not min(): a call of the builtin when compiled)
        dist.append(least if least < y else y)
    return std_after, sp_after, yao_after, dist


def _setup(c: list[int], switches: int) -> tuple[int, int, list[int], list[int]]:
    """(slot of the standard distance vector, the switches that apply to this hand's size,
    the groups' pattern indices, the histogram of counts) of the hand ``c``, from one read
    of the counts (:func:`zhuoji.hand_kernel._scan`)."""
    i0, i1, i2, i3, n0, n1, n2, n3, packed = _scan(c)
    n = n0 + n1 + n2 + n3
    slot = 2 * (n // 3) + 1  # (n - 1) and n tiles need the same number of sets
    forms = switches & QUADS_AS_TWO_PAIRS
    if n >= 14:  # seven pairs and 十三幺 need thirteen tiles after the discard
        forms |= switches & (SEVEN_PAIRS | SHISANYAO)
    idx = [int(i0), int(i1), int(i2), int(i3)]
    hist = [_held(packed, 0), _held(packed, 1), _held(packed, 2), _held(packed, 3)]
    hist.append(_held(packed, 4))
    hist.append(0)
    return slot, forms, idx, hist


def discard_shanten(counts: list[int], kinds: list[int], switches: int) -> list[int]:
    """The shanten after each discard of ``kinds`` (distinct, held) from the plain hand
    ``counts`` (forms as in :func:`discard_options`)."""
    c = list(counts)
    slot, forms, idx, hist = _setup(c, switches)
    dist = _after_each(c, idx, hist, kinds, slot, forms)[3]
    return [d - 1 for d in dist]


def discard_options(
    counts: list[int], kinds: list[int], live: list[int], switches: int, only_best: bool
) -> list[DiscardOption]:
    """Each discard of ``kinds`` (sorted, distinct, held) from the plain hand ``counts``
    (14 − 3k tiles; the standard form always counts, ``switches`` as in
    :mod:`zhuoji.hand_kernel` say which other forms do) with its shanten and its improving
    live kinds (``live``: unseen copies of each kind); with ``only_best`` the improving
    kinds are found only for the discards of the lowest shanten."""
    c = list(counts)
    slot, forms, idx, hist = _setup(c, switches)
    pairs = bool(forms & SEVEN_PAIRS)
    yao = bool(forms & SHISANYAO)
    q2 = bool(forms & QUADS_AS_TWO_PAIRS)
    # kinds a seven-pairs hand can pair up (held once or three times after any discard)
    odd = [t for t in range(NUM_KINDS) if 0 < c[t] < 4] if pairs else []
    live_mask = _live_mask(live)
    std_after, sp_after, yao_after, dist = _after_each(c, idx, hist, kinds, slot, forms)
    cls = _classes(idx)
    best = FAR
    for m in dist:
        if m < best:
            best = m
    out: list[DiscardOption] = []
    for i, d in enumerate(kinds):
        dd = dist[i]
        if only_best and dd > best:
            out.append(DiscardOption(d, dd - 1, -1, ()))
            continue
        c[d] = c[d] - 1
        g = _GROUP[d]
        idx[g] = idx[g] - _WEIGHT[d]
        found: i64 = 0
        if std_after[i] == dd:
            whole = cls[g]
            cls[g] = _class(g, idx[g])
            found |= _standard_improving(c, idx, cls, slot, live_mask)
            cls[g] = whole
        if sp_after[i] == dd:
            x = c[d]
            hist[x + 1] = hist[x + 1] - 1
            hist[x] = hist[x] + 1
            found |= _pairs_improving(c, hist, dd, q2, odd, live)
            hist[x] = hist[x] - 1
            hist[x + 1] = hist[x + 1] + 1
        if yao and yao_after[i] == dd:
            found |= _orphans_improving(c, live)
        idx[g] = idx[g] + _WEIGHT[d]
        c[d] = c[d] + 1
        improving: list[int] = []
        ukeire = 0
        t = 0
        while found:
            if found & 1:
                improving.append(t)
                ukeire += live[t]
            found >>= 1
            t += 1
        out.append(DiscardOption(d, dd - 1, ukeire, tuple(improving)))
    return out
