"""Hand analysis on 34-long count arrays: winning forms, waits, shanten, decompositions.

The concealed part of a hand is analysed; melds already laid down are not passed in, so a
hand with ``k`` melds has ``13 − 3k`` (waiting) or ``14 − 3k`` (complete) concealed tiles.

Winning forms (RULES.md, glossary and 六安 specifics):

* **standard** — sets (pungs or chows) and one pair;
* **seven pairs** — fourteen tiles in pairs; a four-of-a-kind counts as two pairs unless
  ``quads_as_two_pairs`` is off (riichi convention), and the number of such quads decides
  龙七对 / 双龙七对;
* **十三烂** (shisanlan) — fourteen distinct tiles, honors all different; how the suits'
  tiles may lie is :class:`LanRule` (seed 003 "1、4、7+2、5、8+3、6、9+不重复的风牌"): each
  suit's tiles pairwise at least three ranks apart (``three_apart``, 1-4-8 allowed), or
  literally within 147, 258 and 369, one of them per suit (``strict``).
* **十三幺** (shisanyao) — one of each terminal and honor (1 and 9 of each suit, the seven
  honors) and a second of one of them (seed 002 天和 "当十三幺盘算推算,9番").

Wild tiles (六安 宝牌, seed 003): every copy of the wild kind is a joker that may stand for
any kind; a *stand-in* kind (红中配) may stand for the wild's own face instead of itself.
A joker may stand for any kind, even a fifth copy.

Fast paths use the per-suit distance tables of :mod:`zhuoji.hand_tables`.

>>> from zhuoji.tiles import counts
>>> is_win(counts("123m456m789m123s55p"))
True
>>> waits(counts("1112345678999m"))
[0, 1, 2, 3, 4, 5, 6, 7, 8]
>>> shanten(counts("147m258s369p1234z"))
6
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import compress

from zhuoji import hand_tables
from zhuoji.tiles import NUM_KINDS, format, is_honor, next_in_cycle

_TABLES = hand_tables.load()
_SUIT_CLASS = _TABLES.suit_class
_HONOR_CLASS = _TABLES.honor_class
_VEC = _TABLES.vectors
_PROD = _TABLES.product
#: a distance no real hand reaches; used for forms that do not apply
FAR = 99


class Form(StrEnum):
    """The shape a winning hand takes."""

    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    SHISANLAN = "shisanlan"
    SHISANYAO = "shisanyao"


class LanRule(StrEnum):
    """How strictly the suits of a 十三烂 hand are read (``forms.shisanlan``)."""

    THREE_APART = "three_apart"  # each suit's ranks pairwise three or more apart
    STRICT = "strict"  # each suit within one of 147 / 258 / 369, a different one per suit


class GroupKind(StrEnum):
    PAIR = "pair"
    PUNG = "pung"
    CHOW = "chow"
    SINGLE = "single"  # one tile of a 十三烂 or 十三幺 hand


@dataclass(frozen=True, order=True)
class Group:
    """One block of a realized hand: ``first`` is its lowest tile, ``wild`` a bit per tile
    (bit ``i`` set when tile ``i`` of :attr:`tiles` is a joker standing in)."""

    kind: GroupKind
    first: int
    wild: int = 0

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind is GroupKind.CHOW:
            return (self.first, self.first + 1, self.first + 2)
        size = {GroupKind.PAIR: 2, GroupKind.PUNG: 3, GroupKind.SINGLE: 1}[self.kind]
        return (self.first,) * size

    @property
    def wild_count(self) -> int:
        return self.wild.bit_count()

    def __repr__(self) -> str:
        marks = "".join("*" if self.wild >> i & 1 else "" for i in range(len(self.tiles)))
        return f"Group({self.kind.value} {format(self.tiles)}{marks})"


@dataclass(frozen=True)
class Decomposition:
    """One way a complete hand is realized: its form and blocks (sorted)."""

    form: Form
    groups: tuple[Group, ...]

    @property
    def pair(self) -> Group | None:
        pairs = [g for g in self.groups if g.kind is GroupKind.PAIR]
        return pairs[0] if self.form is Form.STANDARD and pairs else None


# ---------------------------------------------------------------------------------------
# per-suit table access
# ---------------------------------------------------------------------------------------


def _suit_index(c: Sequence[int], b: int) -> int:
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


def group_index(c: Sequence[int], group: int) -> int:
    """Base-5 pattern index of one group (0 万, 1 条, 2 筒, 3 honors) into the class tables."""
    return _suit_index(c, 9 * group) if group < 3 else _honor_index(c)


def _honor_index(c: Sequence[int]) -> int:
    return c[27] + 5 * c[28] + 25 * c[29] + 125 * c[30] + 625 * c[31] + 3125 * c[32] + 15625 * c[33]


# fmt: off
def _indices(c: Sequence[int]) -> tuple[int, int, int, int]:
    """The base-5 pattern indices of 万, 条, 筒 and the honors.  The list is unpacked once
    into locals (about a quarter faster than 34 subscripts; the hottest path of the package)."""
    (m1, m2, m3, m4, m5, m6, m7, m8, m9,
     s1, s2, s3, s4, s5, s6, s7, s8, s9,
     p1, p2, p3, p4, p5, p6, p7, p8, p9,
     z1, z2, z3, z4, z5, z6, z7) = c
    return (
        m1 + 5 * m2 + 25 * m3 + 125 * m4 + 625 * m5 + 3125 * m6 + 15625 * m7 + 78125 * m8 + 390625 * m9,
        s1 + 5 * s2 + 25 * s3 + 125 * s4 + 625 * s5 + 3125 * s6 + 15625 * s7 + 78125 * s8 + 390625 * s9,
        p1 + 5 * p2 + 25 * p3 + 125 * p4 + 625 * p5 + 3125 * p6 + 15625 * p7 + 78125 * p8 + 390625 * p9,
        z1 + 5 * z2 + 25 * z3 + 125 * z4 + 625 * z5 + 3125 * z6 + 15625 * z7,
    )
# fmt: on


def hand_vector(c: Sequence[int]) -> bytes:
    """The (m, h) distance vector of the whole hand: four class lookups, three products."""
    m, s, p, z = _indices(c)
    return _VEC[
        _PROD[_PROD[_PROD[_SUIT_CLASS[m]][_SUIT_CLASS[s]]][_SUIT_CLASS[p]]][_HONOR_CLASS[z]]
    ]


def _standard_distance(c: Sequence[int], sets: int) -> int:
    if sets > 4:
        raise ValueError(f"a concealed hand holds at most 14 tiles, not {sum(c)}")
    return hand_vector(c)[2 * sets + 1]


def standard_distance(c: Sequence[int], jokers: int = 0, *, wild_in_play: bool = False) -> int:
    """Fewest tiles to add for sets and a pair; the hand plus ``jokers`` sets the set count.

    With no wild tiles in play no kind goes above four copies; with them (or with ``jokers``)
    a fifth copy counts, since a joker may stand for it.
    """
    sets = (sum(c) + jokers) // 3
    if wild_in_play or jokers or 4 not in c:
        return _standard_distance(c, sets)
    return _capped_standard_distance(c, sets)


def _capped_standard_distance(c: Sequence[int], sets: int) -> int:
    """:func:`_standard_distance` with no fifth copy: the tables count one (``1111m234p567p789s``
    would be one tile from ``11111m``).  Only a suit or the honors holding a four-of-a-kind
    can differ from its table vector (checked for every pattern of up to 14 tiles), so only
    those are looked up again."""
    if sets > 4:
        raise ValueError(f"a concealed hand holds at most 14 tiles, not {sum(c)}")
    groups: list[int | bytes] = []  # class ids, or a vector no class has
    for base in (0, 9, 18, 27):
        if base < 27:
            index = _suit_index(c, base)
            group: int | bytes = _SUIT_CLASS[index]
        else:
            index = _honor_index(c)
            group = _HONOR_CLASS[index]
        if 4 in c[base : base + 9]:
            group = _capped_class(base < 27, index)
        groups.append(group)
    m, s, p, z = groups
    if isinstance(m, int) and isinstance(s, int) and isinstance(p, int) and isinstance(z, int):
        return _VEC[_PROD[_PROD[_PROD[m][s]][p]][z]][2 * sets + 1]
    vec = b""
    for group in groups:
        v = _VEC[group] if isinstance(group, int) else group
        vec = hand_tables._product(vec, v) if vec else v
    return vec[2 * sets + 1]


_CLASS_OF = {v: i for i, v in enumerate(_VEC)}


@lru_cache(maxsize=65536)
def _capped_class(suit: bool, index: int) -> int | bytes:
    """The class of a pattern's capped vector (its vector when no class has it)."""
    part = tuple(index // 5**i % 5 for i in range(9 if suit else 7))
    vec = _capped_vector(part, suit)
    return _CLASS_OF.get(vec, vec)


def _capped_vector(part: tuple[int, ...], chows: bool) -> bytes:
    """A suit's (or the honors') (m, h) distance vector as in the tables, with at most four
    copies of each kind in the completed pattern: a left-to-right pass over the ranks whose
    state is the chows started one and two ranks back."""
    far = hand_tables.UNREACHABLE
    states: dict[tuple[int, int], list[int]] = {(0, 0): [0] + [far] * (hand_tables.WIDTH - 1)}
    n = len(part)
    for i, held in enumerate(part):
        nxt: dict[tuple[int, int], list[int]] = {}
        for (back1, back2), vec in states.items():
            carry = back1 + back2
            for starts in range(5 - carry if chows and i + 2 < n else 1):
                for pung in (0, 1):
                    for pair in (0, 1):
                        total = carry + starts + 3 * pung + 2 * pair
                        if total > 4:
                            continue
                        cost = max(total - held, 0)
                        out = nxt.setdefault((starts, back1), [far] * hand_tables.WIDTH)
                        for m in range(5 - starts - pung):
                            for h in range(2 - pair):
                                v = vec[2 * m + h] + cost
                                k = 2 * (m + starts + pung) + h + pair
                                if v < out[k]:
                                    out[k] = v
        states = nxt
    return bytes(min(v, far) for v in states[(0, 0)])


def pairs_distance(
    ones: int, twos: int, threes: int, fours: int, quads_as_two_pairs: bool = True
) -> int:
    """Seven-pairs distance from the histogram of counts (how many kinds are held 1–4 times)."""
    if quads_as_two_pairs:
        need = 7 - min(twos + threes + 2 * fours, 7)  # a single needs one tile, a gap two
        return need + max(need - ones - threes, 0)
    pairs = min(twos + threes + fours, 7)
    return (7 - pairs) + max(0, 7 - (ones + twos + threes + fours))  # riichi: seven kinds


def seven_pairs_distance(
    c: Sequence[int], jokers: int = 0, *, quads_as_two_pairs: bool = True
) -> int:
    """Fewest tiles to add for seven pairs (only for 13 or 14 tiles with no melds)."""
    if sum(c) + jokers < 13:
        return FAR
    return pairs_distance(c.count(1), c.count(2), c.count(3), c.count(4), quads_as_two_pairs)


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


def _lan_table() -> tuple[tuple[int, int, int, int], ...]:
    """For each 9-bit mask of ranks held in a suit, the best overlap with a part of size 0–3."""
    parts = _lan_parts()
    out = []
    for mask in range(512):
        best = [0, 0, 0, 0]
        for part in parts:
            hit = sum(1 for r in part if mask >> r & 1)
            best[len(part)] = max(best[len(part)], hit)
        out.append((best[0], best[1], best[2], best[3]))
    return tuple(out)


_LAN = _lan_table()
#: the literal 十三烂 triples 147, 258 and 369 as rank masks
_LAN_TRIPLES = tuple(sum(1 << r for r in range(i, 9, 3)) for i in range(3))
#: for each rank mask, how many of its ranks lie in each literal triple
_LAN_STRICT = tuple(tuple((mask & t).bit_count() for t in _LAN_TRIPLES) for mask in range(512))
#: the ways to give the three suits three different triples
_LAN_PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
#: (suit parts' sizes, room left for honors) for every split of fourteen tiles
_LAN_SPLITS = tuple(
    (a, b, c, 14 - a - b - c)
    for a in range(4)
    for b in range(4)
    for c in range(4)
    if 14 - a - b - c <= 7
)


def shisanlan_distance(c: Sequence[int], jokers: int = 0, strict: bool = False) -> int:
    """Fewest tiles to add for 十三烂 (fourteen tiles, no melds); ``strict`` reads the suits
    as :attr:`LanRule.STRICT`."""
    if sum(c) + jokers < 13:
        return FAR
    m = [0, 0, 0]
    for k in compress(range(27), c):
        m[k // 9] |= 1 << (k % 9)
    honors = 7 - c[27:34].count(0)
    if strict:  # nine suited places at most, seven honors: any 14 of the 16 will do
        s0, s1, s2 = _LAN_STRICT[m[0]], _LAN_STRICT[m[1]], _LAN_STRICT[m[2]]
        suited = max(s0[a] + s1[b] + s2[d] for a, b, d in _LAN_PERMS)
        return 14 - min(suited + honors, 14)
    o0, o1, o2 = _LAN[m[0]], _LAN[m[1]], _LAN[m[2]]
    best = 0
    for a, b, d, room in _LAN_SPLITS:
        hit = o0[a] + o1[b] + o2[d] + (honors if honors < room else room)
        if hit > best:
            best = hit
    return 14 - best


#: the thirteen kinds of 十三幺: 1 and 9 of each suit and the seven honors
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def shisanyao_distance(c: Sequence[int], jokers: int = 0) -> int:
    """Fewest tiles to add for 十三幺 (fourteen tiles, no melds): 14 less the orphan kinds
    held, less one more when one of them is held twice."""
    if sum(c) + jokers < 13:
        return FAR
    held = [c[k] for k in ORPHANS]
    return 14 - (13 - held.count(0)) - (1 if max(held) >= 2 else 0)


def is_shisanyao(c: Sequence[int]) -> bool:
    return sum(c) == 14 and shisanyao_distance(c) == 0


def is_standard_win(c: Sequence[int]) -> bool:
    """Sets and one pair, from the tables, without wild tiles (the product of the suits'
    vectors is zero exactly when every suit completes with one pair among them)."""
    n = sum(c)
    return n % 3 == 2 and not hand_vector(c)[2 * (n // 3) + 1]


def is_seven_pairs(c: Sequence[int], *, quads_as_two_pairs: bool = True) -> bool:
    if sum(c) != 14:
        return False
    if quads_as_two_pairs:
        return not c.count(1) and not c.count(3)
    return not c.count(1) and not c.count(3) and not c.count(4)


def is_shisanlan(c: Sequence[int], strict: bool = False) -> bool:
    return sum(c) == 14 and max(c) == 1 and shisanlan_distance(c, 0, strict) == 0


def quads(c: Sequence[int]) -> int:
    """Four-of-a-kinds in a seven-pairs hand (1 → 龙七对, 2 → 双龙七对)."""
    return sum(1 for x in c if x == 4)


def is_win(c: Sequence[int]) -> bool:
    """The plain forms of DESIGN.md: standard or seven pairs (four of a kind as two pairs)."""
    n = sum(c)
    if n % 3 == 2:
        m, s, p, z = _indices(c)  # hand_vector, inline: this is the hottest check
        if not _VEC[
            _PROD[_PROD[_PROD[_SUIT_CLASS[m]][_SUIT_CLASS[s]]][_SUIT_CLASS[p]]][_HONOR_CLASS[z]]
        ][2 * (n // 3) + 1]:
            return True
    return n == 14 and not c.count(1) and not c.count(3)  # seven pairs


POW5 = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)  # digit weights of the pattern index


def _standard_waits(c: list[int]) -> list[int]:
    """Tiles completing a standard hand, found suit by suit from the tables: the tile goes
    to the one short suit (which then holds the pair), or to one of two suits each holding
    a pair's worth of extra tiles; every other suit must already be complete."""
    counts = (sum(c[0:9]), sum(c[9:18]), sum(c[18:27]), sum(c[27:34]))
    residues = (counts[0] % 3, counts[1] % 3, counts[2] % 3, counts[3] % 3)
    ones = residues.count(1)
    twos = residues.count(2)
    if ones == 1 and not twos:
        plans = [(residues.index(1), 1)]
    elif twos == 2 and not ones:
        first = residues.index(2)
        plans = [(first, 0), (residues.index(2, first + 1), 0)]
    else:
        return []
    index = _indices(c)
    vectors = (
        _VEC[_SUIT_CLASS[index[0]]],
        _VEC[_SUIT_CLASS[index[1]]],
        _VEC[_SUIT_CLASS[index[2]]],
        _VEC[_HONOR_CLASS[index[3]]],
    )
    out: list[int] = []
    for target, pair_after in plans:
        if any(
            vectors[g][(counts[g] // 3) * 2 + (residues[g] == 2)]
            for g in range(4)
            if g != target and counts[g]
        ):
            continue
        b = 9 * target
        classes = _SUIT_CLASS if target < 3 else _HONOR_CLASS
        cell = ((counts[target] + 1) // 3) * 2 + pair_after
        base = index[target]
        for r in range(9 if target < 3 else 7):
            if c[b + r] < 4 and not _VEC[classes[base + POW5[r]]][cell]:
                out.append(b + r)
    return out


def _seven_pairs_waits(c: Sequence[int], quads_as_two_pairs: bool) -> list[int]:
    if c.count(1) + c.count(3) != 1:
        return []
    odd = next(k for k in range(NUM_KINDS) if c[k] & 1)
    if not quads_as_two_pairs and (c[odd] != 1 or max(c) > 2):
        return []
    return [odd]


def _lan_complete_with(c: list[int], t: int, strict: bool) -> bool:
    c[t] += 1
    done = shisanlan_distance(c, 0, strict) == 0
    c[t] -= 1
    return done


def waits(c: Sequence[int]) -> list[int]:
    """Kinds that complete the hand in a plain form; a kind already held four times is not a
    wait (there is no fifth copy)."""
    cc = list(c)
    found = set(_standard_waits(cc))
    if sum(cc) == 13:
        found.update(_seven_pairs_waits(cc, True))
    return sorted(found)


def is_ready(c: Sequence[int]) -> bool:
    return bool(waits(c))


def shanten_standard(c: Sequence[int]) -> int:
    return standard_distance(c) - 1


def shanten_seven_pairs(c: Sequence[int], *, quads_as_two_pairs: bool = True) -> int:
    return seven_pairs_distance(c, quads_as_two_pairs=quads_as_two_pairs) - 1


def shanten(c: Sequence[int]) -> int:
    """Distance to ready over the plain forms; ``-1`` means complete."""
    n = sum(c)
    fours = c.count(4)
    d = _capped_standard_distance(c, n // 3) if fours else hand_vector(c)[2 * (n // 3) + 1]
    if n >= 13:
        sp = pairs_distance(c.count(1), c.count(2), c.count(3), fours)
        if sp < d:
            d = sp
    return d - 1


# ---------------------------------------------------------------------------------------
# forms with wild tiles: one object per table setting
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wild:
    """The round's wild kind and, optionally, a kind that may stand for the wild's face."""

    kind: int
    stand_in: int | None = None


@dataclass(frozen=True)
class HandRules:
    """Which forms win, and the wild tiles; the analyser a variant's round uses."""

    forms: frozenset[Form] = frozenset({Form.STANDARD, Form.SEVEN_PAIRS})
    quads_as_two_pairs: bool = True
    wild: Wild | None = None
    shisanlan: LanRule = LanRule.THREE_APART

    @property
    def strict_lan(self) -> bool:
        return self.shisanlan is LanRule.STRICT

    # --- splitting jokers off ---------------------------------------------------------

    def _variants(self, c: Sequence[int]) -> Iterator[tuple[list[int], int]]:
        """(non-joker counts, joker count) for each way to read the stand-in tiles."""
        w = self.wild
        if w is None:
            yield list(c), 0
            return
        base = list(c)
        jokers = base[w.kind]
        base[w.kind] = 0
        yield base, jokers
        if w.stand_in is None or w.stand_in == w.kind:
            return
        for j in range(1, base[w.stand_in] + 1):
            moved = list(base)
            moved[w.stand_in] -= j
            moved[w.kind] += j
            yield moved, jokers

    def distance(self, c: Sequence[int], form: Form | None = None) -> int:
        """Fewest tiles to add (jokers count as added tiles already held) over the forms."""
        forms = self.forms if form is None else (form,)
        best = FAR
        wild = self.wild is not None  # a drawn joker may stand for a fifth copy
        for base, jokers in self._variants(c):
            for f in forms:
                d = _FORM_DISTANCE[f](base, jokers, self, wild) - jokers
                if d < best:
                    best = d
        return best

    def shanten(self, c: Sequence[int]) -> int:
        if self.wild is None and self.forms == _PLAIN and self.quads_as_two_pairs:
            return shanten(c)  # the common case, without the generic loop
        return self.distance(c) - 1

    def shanten_floor(self, c: Sequence[int]) -> int:
        """A lower bound on :meth:`shanten`, cheaper: it may count a fifth copy (so a hand
        whose only wait is a fifth copy reads 0); callers then check :meth:`waits`."""
        if self.wild is None and self.forms == _PLAIN:
            n = sum(c)
            d = hand_vector(c)[2 * (n // 3) + 1]
            if n >= 13:
                sp = seven_pairs_distance(c, quads_as_two_pairs=self.quads_as_two_pairs)
                if sp < d:
                    d = sp
            return d - 1
        return self.distance(c) - 1

    def is_win(self, c: Sequence[int]) -> bool:
        if self.wild is None:
            if Form.STANDARD in self.forms and is_standard_win(c):
                return True
            if Form.SEVEN_PAIRS in self.forms and is_seven_pairs(
                c, quads_as_two_pairs=self.quads_as_two_pairs
            ):
                return True
            if Form.SHISANYAO in self.forms and is_shisanyao(c):
                return True
            return Form.SHISANLAN in self.forms and is_shisanlan(c, self.strict_lan)
        if sum(c) % 3 != 2:
            return False
        return self.distance(c) == 0

    def win_forms(self, c: Sequence[int]) -> list[Form]:
        return [f for f in Form if f in self.forms and self.distance(c, f) == 0]

    def waits(self, c: Sequence[int]) -> list[int]:
        cc = list(c)
        if self.wild is None:
            found: set[int] = set()
            if Form.STANDARD in self.forms:
                found.update(_standard_waits(cc))
            if sum(cc) == 13 and Form.SEVEN_PAIRS in self.forms:
                found.update(_seven_pairs_waits(cc, self.quads_as_two_pairs))
            if sum(cc) == 13 and Form.SHISANLAN in self.forms and max(cc) == 1:
                strict = self.strict_lan
                found.update(
                    t for t in range(NUM_KINDS) if not cc[t] and _lan_complete_with(cc, t, strict)
                )
            if sum(cc) == 13 and Form.SHISANYAO in self.forms and shisanyao_distance(cc) == 1:
                found.update(t for t in ORPHANS if cc[t] < 4 and _yao_complete_with(cc, t))
            return sorted(found)
        out = []
        for t in range(NUM_KINDS):
            if cc[t] >= 4:
                continue
            cc[t] += 1
            if self.is_win(cc):
                out.append(t)
            cc[t] -= 1
        return out

    def is_ready(self, c: Sequence[int]) -> bool:
        return bool(self.waits(c))

    # --- realizations ------------------------------------------------------------------

    def decompositions(self, c: Sequence[int]) -> list[Decomposition]:
        """Every realization of a complete hand, over forms, jokers and stand-ins."""
        seen: set[Decomposition] = set()
        joker_face = self.wild.kind if self.wild else 0
        for base, jokers in self._variants(c):
            if Form.STANDARD in self.forms and (sum(base) + jokers) % 3 == 2:
                for groups in _standard_realizations(base, jokers, joker_face):
                    seen.add(Decomposition(Form.STANDARD, groups))
            if Form.SEVEN_PAIRS in self.forms and sum(base) + jokers == 14:
                for groups in _pair_realizations(base, jokers, joker_face, self.quads_as_two_pairs):
                    seen.add(Decomposition(Form.SEVEN_PAIRS, groups))
            if Form.SHISANLAN in self.forms and sum(base) + jokers == 14:
                for groups in _lan_realizations(base, jokers, joker_face, self.strict_lan):
                    seen.add(Decomposition(Form.SHISANLAN, groups))
            if Form.SHISANYAO in self.forms and sum(base) + jokers == 14:
                for groups in _yao_realizations(base, jokers):
                    seen.add(Decomposition(Form.SHISANYAO, groups))
        return sorted(seen, key=lambda d: (d.form.value, d.groups))


_PLAIN = frozenset({Form.STANDARD, Form.SEVEN_PAIRS})
_FORM_DISTANCE: dict[Form, Callable[[Sequence[int], int, HandRules, bool], int]] = {
    Form.STANDARD: lambda c, j, r, w: standard_distance(c, j, wild_in_play=w),
    Form.SEVEN_PAIRS: lambda c, j, r, w: seven_pairs_distance(
        c, j, quads_as_two_pairs=r.quads_as_two_pairs
    ),
    Form.SHISANLAN: lambda c, j, r, w: shisanlan_distance(c, j, r.strict_lan),
    Form.SHISANYAO: lambda c, j, r, w: shisanyao_distance(c, j),
}

PLAIN = HandRules()


def decompositions(c: Sequence[int]) -> list[Decomposition]:
    """Every realization of a complete plain hand (standard and seven pairs)."""
    return PLAIN.decompositions(c)


# ---------------------------------------------------------------------------------------
# realization search (only for complete hands; not a hot path)
# ---------------------------------------------------------------------------------------


def _standard_realizations(
    c: list[int], jokers: int, joker_face: int
) -> Iterator[tuple[Group, ...]]:
    """Exhaustive search: the lowest real tile starts a block in every possible way, with
    jokers filling any place (also places a real tile could have taken)."""
    results: set[tuple[Group, ...]] = set()

    def rec(jk: int, has_pair: bool, acc: list[Group]) -> None:
        i = 0
        while i < NUM_KINDS and not c[i]:
            i += 1
        if i == NUM_KINDS:
            rest = jk - (0 if has_pair else 2)
            if rest < 0 or rest % 3:
                return
            tail = list(acc)
            if not has_pair:
                tail.append(Group(GroupKind.PAIR, joker_face, 0b11))
            tail.extend(Group(GroupKind.PUNG, joker_face, 0b111) for _ in range(rest // 3))
            results.add(tuple(sorted(tail)))
            return
        for kind, size in ((GroupKind.PAIR, 2), (GroupKind.PUNG, 3)):
            if kind is GroupKind.PAIR and has_pair:
                continue
            for real in range(1, min(c[i], size) + 1):
                need = size - real
                if need > jk:
                    continue
                c[i] -= real
                acc.append(Group(kind, i, ((1 << need) - 1) << real))
                rec(jk - need, has_pair or kind is GroupKind.PAIR, acc)
                acc.pop()
                c[i] += real
        if is_honor(i):
            return
        rank = i % 9
        for p in range(3):  # tile i sits at place p; places below it can only be jokers
            first = i - p
            if p > rank or first % 9 > 6:
                continue
            for choice in range(1 << (2 - p)):  # for each place above p: real (0) or joker (1)
                mask = (1 << p) - 1
                for q in range(p + 1, 3):
                    if choice >> (q - p - 1) & 1:
                        mask |= 1 << q
                need = mask.bit_count()
                if need > jk:
                    continue
                places = [first + q for q in range(p, 3) if not mask >> q & 1]
                if any(c[t] == 0 for t in places):
                    continue
                for t in places:
                    c[t] -= 1
                acc.append(Group(GroupKind.CHOW, first, mask))
                rec(jk - need, has_pair, acc)
                acc.pop()
                for t in places:
                    c[t] += 1

    rec(jokers, False, [])
    return iter(sorted(results))


def _pair_realizations(
    c: list[int], jokers: int, joker_face: int, quads_as_two_pairs: bool
) -> Iterator[tuple[Group, ...]]:
    groups: list[Group] = []
    jk = jokers
    for k in range(NUM_KINDS):
        x = c[k]
        if x > 2 and not quads_as_two_pairs:
            return iter(())
        while x >= 2:
            groups.append(Group(GroupKind.PAIR, k))
            x -= 2
        if x:
            if not jk:
                return iter(())
            jk -= 1
            groups.append(Group(GroupKind.PAIR, k, 0b10))
    if jk % 2:
        return iter(())
    groups.extend(Group(GroupKind.PAIR, joker_face, 0b11) for _ in range(jk // 2))
    if len(groups) != 7:
        return iter(())
    return iter([tuple(sorted(groups))])


def _lan_realizations(
    c: list[int], jokers: int, joker_face: int, strict: bool
) -> Iterator[tuple[Group, ...]]:
    """Real tiles as singles; each joker is a single marked wild, standing for a free place
    (which place does not change any 十三烂 pattern: 七风全 needs its honors real, seed 003
    "宝牌不可以当某张风牌")."""
    if max(c) > 1 or shisanlan_distance(c, jokers, strict) != jokers:
        return iter(())
    groups = [Group(GroupKind.SINGLE, k) for k in range(NUM_KINDS) if c[k]]
    groups += [Group(GroupKind.SINGLE, joker_face, 1) for _ in range(jokers)]
    return iter([tuple(sorted(groups))])


def _yao_complete_with(c: list[int], t: int) -> bool:
    c[t] += 1
    done = shisanyao_distance(c) == 0
    c[t] -= 1
    return done


def _yao_realizations(c: list[int], jokers: int) -> Iterator[tuple[Group, ...]]:
    """Each orphan kind a single, one of them a pair; jokers stand for the missing kinds and,
    when no kind is held twice, for the pair's second tile (on the lowest kind held)."""
    if shisanyao_distance(c, jokers) != jokers or any(
        c[k] for k in range(NUM_KINDS) if k not in ORPHANS
    ):
        return iter(())
    pairs = [k for k in ORPHANS if c[k] == 2]
    missing = [k for k in ORPHANS if not c[k]]
    groups = [Group(GroupKind.SINGLE, k) for k in ORPHANS if c[k] == 1]
    groups += [Group(GroupKind.SINGLE, k, 1) for k in missing]
    if pairs:
        groups.append(Group(GroupKind.PAIR, pairs[0]))
    else:
        low = min((k for k in ORPHANS if c[k]), default=ORPHANS[0])
        groups = [g for g in groups if g.first != low or g.kind is not GroupKind.SINGLE]
        groups.append(Group(GroupKind.PAIR, low, 0b10 if c[low] else 0b11))
    return iter([tuple(sorted(groups))])


def wild_from_indicator(indicator: int, stand_in: int | None = None) -> Wild:
    """六安 宝牌: the next kind after the revealed indicator (seed 003 "确定宝牌")."""
    kind = next_in_cycle(indicator)
    if stand_in is not None and is_honor(kind):
        stand_in = None  # 红中配 only "在宝牌不是东、南、西、北、中、发、白的时候"
    return Wild(kind, stand_in)
