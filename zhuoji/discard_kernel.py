"""Every discard of a hand at once: the shanten it leaves and the live tiles that lower it.

The question a bot asks at each of its turns (:meth:`zhuoji.agents.analysis.HandAnalyzer.
options`), for a plain hand: no wild tiles and no 十三烂 (the forms standard, seven pairs and
十三幺, RULES.md glossary).  Compiled with :mod:`zhuoji.hand_kernel`, in its group
(``zhuoji.compiled.GROUPS``, ``docs/build.md``), so the kernel's helpers are native calls;
the pure-Python build runs this same source.  Like the kernel it keeps to what mypyc compiles
well: ``i64`` locals and attributes, ``Final`` tables, bit masks of kinds instead of lists.

Method (the per-suit class tables of :mod:`zhuoji.hand_tables`): a hand's standard distance
is ``vector(product(class(万), class(条), class(筒), class(字)))[slot]``.  Taking one tile
changes one group's class, so each discard costs one look-up against the product of the other
three (worked out once a hand); adding a tile to a group likewise, so the improving tiles of
a discard are one look-up a kind.  Adding a tile lowers a distance by at most one, so a tile
improves the hand exactly when it improves a form whose distance is the hand's.  Seven pairs
is counted from the histogram of counts (a discard's result depends only on how many of its
kind were held, an added tile's only on how many of its kind are), 十三幺 from the orphan
kinds held.  The raw tables read a four-of-a-kind's kind as one more copy away (see
:mod:`zhuoji.agents.analysis`); a kind held four times is never an improving tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from zhuoji import hand_tables
from zhuoji.hand_kernel import (
    FAR,
    NUM_KINDS,
    POW5,
    _check_added,
    _held,
    _held_masks,
    _kinds_below,
    _scan,
    _total,
    _wild_discard_distances,
    live_bits_of,
    pairs_distance,
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
_PROD: Final[tuple[bytes, ...]] = _TABLES.product
#: each slot's distance by class: ``_COLUMNS[slot][k] == vectors[k][slot]``
_COLUMNS: Final[tuple[bytes, ...]] = tuple(
    bytes([vector[slot] for vector in _TABLES.vectors]) for slot in range(hand_tables.WIDTH)
)
#: base-5 digit weight of each kind in its group's pattern index
_WEIGHT: Final[tuple[int, ...]] = tuple(
    POW5[k % 9] if k < 27 else POW5[k - 27] for k in range(NUM_KINDS)
)
#: bit ``k`` set for each kind ``k`` of ``zhuoji.hand_kernel.ORPHANS`` (the 十三幺 kinds), and
#: for every kind (checked by tests/test_discard_kernel.py)
_ORPHAN_BITS: Final = 0x3FC060301
_ALL_BITS: Final = 0x3FFFFFFFF


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


def _group_improving(
    c: list[int],
    base: i64,
    size: i64,
    index: i64,
    table: bytes,
    row: bytes,
    col: bytes,
    now: i64,
    d: i64,
    quads: bool,
) -> i64:
    """Bit ``r`` set when adding the group's kind ``r`` lowers the standard distance ``now``
    of the hand ``c`` less one ``d``: the group starts at kind ``base`` (``size`` kinds, their
    classes in ``table``) and has the pattern ``index`` after the discard, ``row`` is the
    product table's row of the other groups' product class and ``col`` the distance slot's
    column.  A kind then held four times is never one (the counts are read only when the
    hand holds a kind four times: ``quads``; the pattern has no fifth copy to look up)."""
    found: i64 = 0
    bit: i64 = 1
    w: i64 = 1
    r: i64 = 0
    while r < size:
        held = False
        if quads:
            k = base + r
            x: i64 = c[k]
            held = x - (1 if k == d else 0) >= 4
        if not held and col[row[table[index + w]]] < now:
            found |= bit
        bit <<= 1
        w *= 5
        r += 1
    return found


#: the kinds of each group's part of a kind mask (bits ``9g``–``9g+8``), as a tuple, by
#: ``512 * g + part``; filled when first asked (at most 1,664 small tuples in all)
_PART_KINDS: Final[list[tuple[int, ...] | None]] = [None] * (4 << 9)


def _part_kinds(g: i64, part: i64) -> tuple[int, ...]:
    """The kinds of group ``g`` whose bits are set in ``part`` (nine bits), in order."""
    key = (g << 9) | part
    found = _PART_KINDS[key]
    if found is None:
        base = 9 * g
        found = tuple([int(base + r) for r in range(9) if (part >> r) & 1])
        _PART_KINDS[key] = found
    return found


def _improving_kinds(found: i64, live: list[int]) -> tuple[int, tuple[int, ...]]:
    """(live copies, kinds) of the kinds of the mask ``found`` that have live copies."""
    ukeire: i64 = 0
    kept: i64 = 0
    bit: i64 = 1
    t: i64 = 0
    while found:
        if not found & 511:  # a group with none
            found >>= 9
            bit <<= 9
            t += 9
            continue
        if found & 1:
            x: i64 = live[t]
            if x > 0:
                kept |= bit
                ukeire += x
        found >>= 1
        bit <<= 1
        t += 1
    improving: tuple[int, ...] = ()
    g: i64 = 0
    while kept:
        part = kept & 511
        if part:
            kinds = _part_kinds(g, part)
            improving = improving + kinds if improving else kinds
        kept >>= 9
        g += 1
    return int(ukeire), improving


class _Hand:
    """One hand's counts as every discard of it reads them, from one read of the counts
    (:func:`zhuoji.hand_kernel._scan`): the groups' pattern indices and classes, the product
    class of the groups other than each, the distance slot, the seven-pairs distance after
    discarding a kind held 1–4 times, and the orphan kinds held.  ``switches`` as in
    :func:`discard_options`; seven pairs and 十三幺 count only for fourteen tiles or more."""

    def __init__(self, c: list[int], switches: int) -> None:
        i0, i1, i2, i3, n0, n1, n2, n3, packed = _scan(c)
        n = n0 + n1 + n2 + n3
        self.c = c
        self.i0 = i0
        self.i1 = i1
        self.i2 = i2
        self.i3 = i3
        k0: i64 = _SUIT_CLASS[i0]
        k1: i64 = _SUIT_CLASS[i1]
        k2: i64 = _SUIT_CLASS[i2]
        k3: i64 = _HONOR_CLASS[i3]
        self.k0 = k0
        self.k1 = k1
        self.k2 = k2
        self.k3 = k3
        p01: i64 = _PROD[k0][k1]
        p23: i64 = _PROD[k2][k3]
        #: the product table's row of the product class of the groups other than each
        self.r0 = _PROD[_PROD[k1][p23]]
        self.r1 = _PROD[_PROD[k0][p23]]
        self.r2 = _PROD[_PROD[p01][k3]]
        self.r3 = _PROD[_PROD[p01][k2]]
        self.col = _COLUMNS[2 * (n // 3) + 1]  # (n - 1) and n tiles need the same sets
        self.q2 = bool(switches & QUADS_AS_TWO_PAIRS)
        self.pairs = n >= 14 and bool(switches & SEVEN_PAIRS)
        self.yao = n >= 14 and bool(switches & SHISANYAO)
        ones = _held(packed, 1)
        twos = _held(packed, 2)
        threes = _held(packed, 3)
        fours = _held(packed, 4)
        #: how many kinds are held once, twice, three and four times
        self.ones: i64 = ones
        self.twos: i64 = twos
        self.threes: i64 = threes
        self.fours: i64 = fours
        self.quads = fours > 0
        q2 = self.q2
        self.p1: i64 = pairs_distance(ones - 1, twos, threes, fours, q2) if self.pairs else FAR
        self.p2: i64 = pairs_distance(ones + 1, twos - 1, threes, fours, q2) if self.pairs else FAR
        self.p3: i64 = pairs_distance(ones, twos + 1, threes - 1, fours, q2) if self.pairs else FAR
        self.p4: i64 = pairs_distance(ones, twos, threes + 1, fours - 1, q2) if self.pairs else FAR
        orphans: i64 = 0
        paired: i64 = 0
        if self.yao:
            bits: i64 = _ORPHAN_BITS
            for k in range(NUM_KINDS):
                if (bits >> k) & 1 and c[k]:
                    orphans += 1
                    if c[k] >= 2:
                        paired += 1
        self.orphans = orphans
        self.paired = paired
        #: the group and its class after the last discard :meth:`standard_improving` worked
        #: out, and the improving kinds of the other groups then
        self.last_group: i64 = -1
        self.last_class: i64 = -1
        self.last_others: i64 = 0
        #: kinds held 0–4 times (bit masks, from :func:`_held_masks` when first needed)
        self.masks: tuple[i64, i64, i64, i64, i64] | None = None

    def standard_after(self, d: i64) -> i64:
        """The standard distance (raw tables) of the hand less one ``d``: one class, one
        product."""
        col = self.col
        w: i64 = _WEIGHT[d]
        if d < 9:
            return col[self.r0[_SUIT_CLASS[self.i0 - w]]]
        if d < 18:
            return col[self.r1[_SUIT_CLASS[self.i1 - w]]]
        if d < 27:
            return col[self.r2[_SUIT_CLASS[self.i2 - w]]]
        return col[self.r3[_HONOR_CLASS[self.i3 - w]]]

    def pairs_after(self, x: i64) -> i64:
        """The seven-pairs distance after discarding a kind held ``x`` times (FAR when the
        form does not count)."""
        if x == 1:
            return self.p1
        if x == 2:
            return self.p2
        return self.p3 if x == 3 else self.p4

    def orphans_after(self, d: i64, x: i64) -> i64:
        """The 十三幺 distance after discarding a kind ``d`` held ``x`` times (FAR when the
        form does not count): 14 less the orphan kinds held, less one more when one of them
        is held twice (:func:`zhuoji.hand_kernel.shisanyao_distance`)."""
        if not self.yao:
            return FAR
        orphans = self.orphans
        paired = self.paired
        if (_ORPHAN_BITS >> d) & 1:
            if x == 1:
                orphans -= 1
            elif x == 2:
                paired -= 1
        return 14 - orphans - (1 if paired > 0 else 0)

    def least_after(self, d: i64) -> i64:
        """The distance after discarding one ``d``: the least of the forms that count."""
        s = self.standard_after(d)
        if not self.pairs and not self.yao:
            return s
        x: i64 = self.c[d]
        p = self.pairs_after(x)
        y = self.orphans_after(d, x)
        least = s if s < p else p  # (not min(): a call of the builtin when compiled)
        return least if least < y else y

    def standard_improving(self, d: i64, now: i64) -> i64:
        """Bit mask of the kinds (each held fewer than four times after the discard) whose
        addition lowers the standard distance ``now`` of the hand less one ``d``.  A lone
        tile in an empty group never helps the standard form, so empty groups are skipped.

        The other groups' kinds depend on the discard only through its group and that
        group's class after it (which fix the other groups' company, and ``now``), so they
        are kept for the next discard (the kinds come in order: a group's discards follow
        one another)."""
        c = self.c
        col = self.col
        quads = self.quads
        i0 = self.i0
        i1 = self.i1
        i2 = self.i2
        i3 = self.i3
        k0 = self.k0
        k1 = self.k1
        k2 = self.k2
        k3 = self.k3
        w: i64 = _WEIGHT[d]
        g: i64 = 0
        if d < 9:
            i0 -= w
            k0 = _SUIT_CLASS[i0]
            after = k0
        elif d < 18:
            g = 1
            i1 -= w
            k1 = _SUIT_CLASS[i1]
            after = k1
        elif d < 27:
            g = 2
            i2 -= w
            k2 = _SUIT_CLASS[i2]
            after = k2
        else:
            g = 3
            i3 -= w
            k3 = _HONOR_CLASS[i3]
            after = k3
        again = g == self.last_group and after == self.last_class
        others: i64 = self.last_others if again else 0
        own: i64 = 0
        p01 = _PROD[k0][k1]
        p23 = _PROD[k2][k3]
        if i0 and (g == 0 or not again):
            row = _PROD[_PROD[k1][p23]]
            part = _group_improving(c, 0, 9, i0, _SUIT_CLASS, row, col, now, d, quads)
            if g == 0:
                own = part
            else:
                others |= part
        if i1 and (g == 1 or not again):
            row = _PROD[_PROD[k0][p23]]
            part = _group_improving(c, 9, 9, i1, _SUIT_CLASS, row, col, now, d, quads) << 9
            if g == 1:
                own = part
            else:
                others |= part
        if i2 and (g == 2 or not again):
            row = _PROD[_PROD[p01][k3]]
            part = _group_improving(c, 18, 9, i2, _SUIT_CLASS, row, col, now, d, quads) << 18
            if g == 2:
                own = part
            else:
                others |= part
        if i3 and (g == 3 or not again):
            row = _PROD[_PROD[p01][k2]]
            part = _group_improving(c, 27, 7, i3, _HONOR_CLASS, row, col, now, d, quads) << 27
            if g == 3:
                own = part
            else:
                others |= part
        if not again:
            self.last_group = g
            self.last_class = after
            self.last_others = others
        return own | others

    def held(self) -> tuple[i64, i64, i64, i64, i64]:
        """The kinds held 0–4 times (bit masks)."""
        masks = self.masks
        if masks is None:
            masks = _held_masks(self.c)
            self.masks = masks
        return masks

    def held_after(self, d: i64, x: i64) -> tuple[i64, i64, i64, i64, i64]:
        """The kinds held 0–4 times (bit masks) after discarding ``d``, held ``x`` times."""
        m0, m1, m2, m3, m4 = self.held()
        bit: i64 = 1
        bit <<= d  # (not 1 << d: compiled, a C int shifted, wrong past bit 31)
        if x == 1:
            return m0 | bit, m1 & ~bit, m2, m3, m4
        if x == 2:
            return m0, m1 | bit, m2 & ~bit, m3, m4
        if x == 3:
            return m0, m1, m2 | bit, m3 & ~bit, m4
        return m0, m1, m2, m3 | bit, m4 & ~bit

    def pairs_improving(self, d: i64, x: i64, dist: i64) -> i64:
        """Bit mask of the kinds whose addition lowers the seven-pairs distance ``dist`` of
        the hand less one ``d`` (held ``x`` times).  While the hand then lacks kinds any
        kind short of four may help, else only those held once or three times before the
        discard.  Whether a kind helps depends only on how many of it are held, so the
        distance is worked out once for each count."""
        ones = self.ones
        twos = self.twos
        threes = self.threes
        fours = self.fours
        if x == 1:
            ones -= 1
        elif x == 2:
            twos -= 1
            ones += 1
        elif x == 3:
            threes -= 1
            twos += 1
        else:
            fours -= 1
            threes += 1
        q2 = self.q2
        pairs = twos + threes + 2 * fours
        lacking = 7 - (pairs if pairs < 7 else 7) > ones + threes  # a gap needs two tiles
        seek = lacking if q2 else ones + twos + threes + fours < 7
        m0, m1, m2, m3, _m4 = self.held_after(d, x)
        found: i64 = 0
        if pairs_distance(ones + 1, twos, threes, fours, q2) < dist:
            found |= m0
        if pairs_distance(ones - 1, twos + 1, threes, fours, q2) < dist:
            found |= m1
        if pairs_distance(ones, twos - 1, threes + 1, fours, q2) < dist:
            found |= m2
        if pairs_distance(ones, twos, threes - 1, fours + 1, q2) < dist:
            found |= m3
        if seek:
            return found
        _b0, b1, b2, b3, _b4 = self.held()
        return found & (b1 | b2 | b3)

    def orphans_improving(self, d: i64, x: i64) -> i64:
        """Bit mask of the kinds that lower the 十三幺 distance of the hand less one ``d``
        (held ``x`` times): a missing orphan, or a held one while no orphan is held twice."""
        m0, m1, m2, m3, m4 = self.held_after(d, x)
        if _ORPHAN_BITS & (m2 | m3 | m4):
            return _ORPHAN_BITS & m0
        return _ORPHAN_BITS & (m0 | m1)


def least_shanten(options: list[DiscardOption]) -> int:
    """The lowest shanten among ``options`` (99 when there are none): read here, where the
    options' fields are native attributes (the bots' group reads them by name)."""
    best = 99
    for o in options:
        s = o.shanten
        if s < best:
            best = s
    return best


def discard_shanten(counts: list[int], kinds: list[int], switches: int) -> list[int]:
    """The shanten after each discard of ``kinds`` (distinct, held) from the plain hand
    ``counts`` (forms as in :func:`discard_options`)."""
    hand = _Hand(counts, switches)
    return [int(hand.least_after(d)) - 1 for d in kinds]


def discard_options(
    counts: list[int], kinds: list[int], live: list[int], switches: int, only_best: bool
) -> list[DiscardOption]:
    """Each discard of ``kinds`` (sorted, distinct, held) from the plain hand ``counts``
    (14 − 3k tiles; the standard form always counts, ``switches`` as in
    :mod:`zhuoji.hand_kernel` say which other forms do) with its shanten and its improving
    live kinds (``live``: unseen copies of each kind); with ``only_best`` the improving
    kinds are found only for the discards of the lowest shanten.  ``counts`` is only read."""
    hand = _Hand(counts, switches)
    best: i64 = FAR
    dists: list[int] = []  # each discard's (small ints: no allocation)
    if only_best:
        for d in kinds:
            dist = hand.least_after(d)
            dists.append(int(dist))
            if dist < best:
                best = dist
    out: list[DiscardOption] = []
    i: i64 = 0
    for d in kinds:
        if only_best:
            far: i64 = dists[i]
            i += 1
            if far > best:
                out.append(DiscardOption(d, int(far) - 1, -1, ()))
                continue
        x: i64 = counts[d]
        s = hand.standard_after(d)
        p = hand.pairs_after(x)
        y = hand.orphans_after(d, x)
        least = s if s < p else p
        dist = least if least < y else y
        found: i64 = 0
        if s == dist:
            found |= hand.standard_improving(d, s)
        if p == dist:
            found |= hand.pairs_improving(d, x, p)
        if y == dist:
            found |= hand.orphans_improving(d, x)
        ukeire, improving = _improving_kinds(found, live)
        out.append(DiscardOption(d, int(dist) - 1, ukeire, improving))
    return out


def wild_discard_options(
    counts: list[int],
    kinds: list[int],
    live: list[int],
    wild: int,
    stand_in: int,
    switches: int,
    only_best: bool,
) -> list[DiscardOption]:
    """:func:`discard_options` for a hand holding wild tiles (the wild kind ``wild``, the
    红中配 ``stand_in`` kind or -1, every form of ``switches``, as
    :func:`zhuoji.hand_kernel.forms_distance_wild` reads them): every discard's distance
    from one read of each reading of the stand-ins
    (:func:`zhuoji.hand_kernel.forms_discard_distances_wild`), then, for the discards
    ``only_best`` keeps, the improving kinds of the hand less that discard below that
    distance (:func:`zhuoji.hand_kernel._kinds_below`).  The same answers as
    ``forms_ukeire_wild`` of the hand less each discard, without working each one's
    distance out again (the first pass has it).  ``counts`` is only read."""
    cc = list(counts)
    dists = _wild_discard_distances(cc, kinds, wild, stand_in, switches)
    large = _total(cc) >= 15  # the hand less a discard may be too large to add a kind to
    best: i64 = FAR
    for far in dists:
        if far < best:
            best = far
    out: list[DiscardOption] = []
    live_bits: i64 = live_bits_of(live)  # (read once for every discard)
    for i in range(len(kinds)):
        d = kinds[i]
        dist: i64 = dists[i]
        if only_best and dist > best:
            out.append(DiscardOption(d, int(dist) - 1, -1, ()))
            continue
        cc[d] -= 1
        if large:
            _check_added(cc, live, wild, stand_in, switches)
        found = _kinds_below(cc, live, int(dist), wild, stand_in, switches, live_bits)
        cc[d] += 1
        ukeire, improving = _improving_kinds(found, live)
        out.append(DiscardOption(d, int(dist) - 1, ukeire, improving))
    return out
