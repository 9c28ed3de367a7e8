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

The count-array arithmetic (distances, win checks, waits) is :mod:`zhuoji.hand_kernel`, on
the per-suit distance tables of :mod:`zhuoji.hand_tables`; its functions are this module's
(``is_win``, ``waits``, ``shanten``, …), run compiled when the install compiled them
(:mod:`zhuoji.compiled`).

>>> from zhuoji.tiles import counts
>>> is_win(counts("123m456m789m123s55p"))
True
>>> waits(counts("1112345678999m"))
[0, 1, 2, 3, 4, 5, 6, 7, 8]
>>> shanten(counts("147m258s369p1234z"))
6
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache, partial
from operator import attrgetter
from typing import TYPE_CHECKING

from zhuoji.tiles import NUM_KINDS, format, is_honor, next_in_cycle

if TYPE_CHECKING:
    from zhuoji import hand_kernel as _kernel
    from zhuoji import hand_realize as _realize
else:
    from zhuoji.compiled import select

    _kernel = select("hand_kernel")
    _realize = select("hand_realize")


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
# count-array arithmetic: zhuoji.hand_kernel, compiled when installed (zhuoji.compiled)
# ---------------------------------------------------------------------------------------

FAR = _kernel.FAR
POW5 = _kernel.POW5
ORPHANS = _kernel.ORPHANS
group_index = _kernel.group_index
hand_vector = _kernel.hand_vector
standard_distance = _kernel.standard_distance
pairs_distance = _kernel.pairs_distance
seven_pairs_distance = _kernel.seven_pairs_distance
shisanlan_distance = _kernel.shisanlan_distance
shisanyao_distance = _kernel.shisanyao_distance
is_standard_win = _kernel.is_standard_win
is_seven_pairs = _kernel.is_seven_pairs
is_shisanlan = _kernel.is_shisanlan
is_shisanyao = _kernel.is_shisanyao
quads = _kernel.quads
is_win = _kernel.is_win
waits = _kernel.waits
is_ready = _kernel.is_ready
shanten_standard = _kernel.shanten_standard
shanten_seven_pairs = _kernel.shanten_seven_pairs
shanten = _kernel.shanten


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
    """Which forms win, and the wild tiles; the analyser a variant's round uses.

    Without wild tiles, :meth:`shanten`, :meth:`is_win`, :meth:`waits` and :meth:`is_ready`
    are the kernel's :class:`~zhuoji.hand_kernel.Forms` methods for these forms, bound when
    the object is made (the same answers as the methods below, with no Python call before
    the kernel's)."""

    forms: frozenset[Form] = frozenset({Form.STANDARD, Form.SEVEN_PAIRS})
    quads_as_two_pairs: bool = True
    wild: Wild | None = None
    shisanlan: LanRule = LanRule.THREE_APART
    #: the kernel's form switches (zhuoji.hand_kernel.STANDARD …), from the fields above
    _switches: int = field(init=False, repr=False, compare=False)
    #: the kernel's checks for these forms without wild tiles (None with them)
    _forms: _kernel.Forms | None = field(init=False, repr=False, compare=False)
    #: :meth:`decompositions` without wild tiles, compiled (None with them)
    _realizer: _realize.PlainRealizer | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        switches = _form_switches(self.forms, self.quads_as_two_pairs, self.shisanlan)
        object.__setattr__(self, "_switches", switches)
        realizer = None if self.wild is not None else self._plain_realizer()
        object.__setattr__(self, "_realizer", realizer)
        if realizer is not None:
            # its compiled method stands in for :meth:`decompositions` (the same list)
            object.__setattr__(self, "decompositions", realizer.decompositions)
        forms = None if self.wild is not None else _kernel.Forms(switches)
        object.__setattr__(self, "_forms", forms)
        if forms is not None:
            # the kernel's methods for these forms stand in for the methods below of the same
            # names (same answers): a call then runs compiled code with no Python frame first
            for name in _BOUND_FROM_KERNEL:
                object.__setattr__(self, name, getattr(forms, name))

    def __reduce__(self) -> tuple[type[HandRules], tuple[object, ...]]:
        """Pickled and copied by its fields (the bound kernel methods are made again)."""
        return (type(self), (self.forms, self.quads_as_two_pairs, self.wild, self.shisanlan))

    @property
    def _stand_in(self) -> int:
        """The 红中配 stand-in kind for the kernel's ``*_wild`` functions, -1 for none."""
        w = self.wild
        return -1 if w is None or w.stand_in is None else w.stand_in

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
        if self.wild is None:
            switches = self._switches
            if form is not None:
                switches = _FORM_SWITCH[form] | switches & _OPTION_SWITCHES
            return _kernel.forms_distance(c, switches)
        switches = self._switches
        if form is not None:
            switches = _FORM_SWITCH[form] | switches & _OPTION_SWITCHES
        return _kernel.forms_distance_wild(c, self.wild.kind, self._stand_in, switches)

    def shanten(self, c: Sequence[int]) -> int:
        if self.wild is None:
            return _kernel.forms_distance(c, self._switches) - 1
        return _kernel.forms_shanten_wild(c, self.wild.kind, self._stand_in, self._switches)

    def shanten_floor(self, c: Sequence[int]) -> int:
        """A lower bound on :meth:`shanten`, cheaper: it may count a fifth copy (so a hand
        whose only wait is a fifth copy reads 0); callers then check :meth:`waits`."""
        if self.wild is None and self.forms == _PLAIN:
            return _kernel.forms_shanten_floor(c, self.quads_as_two_pairs)
        return self.distance(c) - 1

    def shanten_floor_function(self) -> Callable[[Sequence[int]], int]:
        """:meth:`shanten_floor` as one callable: the kernel's own function when the forms
        are the plain ones (the engine asks at most discards; this spares a Python call)."""
        if self.wild is None and self.forms == _PLAIN:
            return partial(_kernel.forms_shanten_floor, quads_as_two_pairs=self.quads_as_two_pairs)
        if self.wild is not None:  # the exact shanten
            w = self.wild
            return partial(
                _kernel.forms_shanten_wild,
                wild=w.kind,
                stand_in=self._stand_in,
                switches=self._switches,
            )
        return self.shanten_floor

    def distance_function(self) -> Callable[[Sequence[int]], int]:
        """:meth:`distance` over all the forms as one callable: the kernel's own function
        with this table's wild tile and forms bound (the bots ask it for every draw)."""
        if self._forms is not None:
            return self._forms.distance
        assert self.wild is not None
        return partial(
            _kernel.forms_distance_wild,
            wild=self.wild.kind,
            stand_in=self._stand_in,
            switches=self._switches,
        )

    def ukeire_function(
        self,
    ) -> Callable[[Sequence[int], Sequence[int]], tuple[int, int, list[int]]] | None:
        """With wild tiles, ``(hand, live) -> (shanten, live improving copies, improving
        kinds)`` as one kernel call (``forms_ukeire_wild``, the table's wild tile and forms
        bound); None without (the bots' plain path has its own kernel)."""
        if self.wild is None:
            return None
        return partial(
            _kernel.forms_ukeire_wild,
            wild=self.wild.kind,
            stand_in=self._stand_in,
            switches=self._switches,
        )

    def discard_distances_function(
        self,
    ) -> Callable[[Sequence[int], Sequence[int]], list[int]] | None:
        """With wild tiles, ``(hand, discards) -> the distance after each discard`` as one
        kernel call (``forms_discard_distances_wild``, the table's wild tile and forms bound;
        each as :meth:`distance` of the hand less that tile); None without."""
        if self.wild is None:
            return None
        return partial(
            _kernel.forms_discard_distances_wild,
            wild=self.wild.kind,
            stand_in=self._stand_in,
            switches=self._switches,
        )

    def is_win(self, c: Sequence[int]) -> bool:
        if self.wild is None:
            return _kernel.forms_is_win(c, self._switches)
        return _kernel.forms_is_win_wild(c, self.wild.kind, self._stand_in, self._switches)

    def win_forms(self, c: Sequence[int]) -> list[Form]:
        return [f for f in Form if f in self.forms and self.distance(c, f) == 0]

    def waits(self, c: Sequence[int]) -> list[int]:
        if self.wild is None:
            return _kernel.forms_waits(c, self._switches)
        return _kernel.forms_waits_wild(c, self.wild.kind, self._stand_in, self._switches)

    def is_ready(self, c: Sequence[int]) -> bool:
        return bool(self.waits(c))

    # --- realizations ------------------------------------------------------------------

    def decompositions(self, c: Sequence[int]) -> list[Decomposition]:
        """Every realization of a complete hand, over forms, jokers and stand-ins."""
        if self.wild is None:
            return self._plain_decompositions(c)
        # by (form name, groups' fields): equal keys are equal decompositions, and sorting
        # the keys sorts the decompositions by form name, then groups
        seen: dict[tuple[str, tuple[tuple[str, int, int], ...]], Decomposition] = {}
        joker_face = self.wild.kind if self.wild else 0
        for base, jokers in self._variants(c):
            found: list[tuple[Form, Iterable[tuple[Group, ...]]]] = []
            if Form.STANDARD in self.forms and (sum(base) + jokers) % 3 == 2:
                found.append((Form.STANDARD, _standard_realizations(base, jokers, joker_face)))
            if Form.SEVEN_PAIRS in self.forms and sum(base) + jokers == 14:
                pairs = _pair_realizations(base, jokers, joker_face, self.quads_as_two_pairs)
                found.append((Form.SEVEN_PAIRS, pairs))
            if Form.SHISANLAN in self.forms and sum(base) + jokers == 14:
                lan = _lan_realizations(base, jokers, joker_face, self.strict_lan)
                found.append((Form.SHISANLAN, lan))
            if Form.SHISANYAO in self.forms and sum(base) + jokers == 14:
                found.append((Form.SHISANYAO, _yao_realizations(base, jokers)))
            for form, realizations in found:
                for groups in realizations:
                    seen[(form.value, _realization_key(groups))] = Decomposition(form, groups)
        return [seen[key] for key in sorted(seen)]

    def _plain_decompositions(self, c: Sequence[int]) -> list[Decomposition]:
        """:meth:`decompositions` without jokers: the counts are read one way only, so each
        form's realizations are distinct already and come sorted; the forms are taken in
        the order of their names, as the general path sorts them.  Assembled by the compiled
        :class:`~zhuoji.hand_realize.PlainRealizer` (settlement values every win)."""
        assert self._realizer is not None
        found: list[Decomposition] = self._realizer.decompositions(c)
        return found

    def _plain_realizer(self) -> _realize.PlainRealizer:
        """The realizer of this table's forms without wild tiles: the forms in the order of
        their names, each with its kernel switch and the switch with the table's options
        (read once: a form's hash and a member read off :class:`Form` are Python calls)."""
        options = self._switches & _OPTION_SWITCHES
        plan = tuple(
            (form, _FORM_SWITCH[form], _FORM_SWITCH[form] | options)
            for form in _FORMS_BY_NAME
            if form in self.forms
        )
        other = partial(_other_realizations, self.quads_as_two_pairs, self.strict_lan)
        return _realize.PlainRealizer(
            plan,
            _kernel.STANDARD,
            _kernel.standard_splits,
            _kernel.forms_distance,
            Decomposition,
            _BLOCKS,  # type: ignore[arg-type]
            Group,
            _BLOCK_KINDS,  # type: ignore[arg-type]
            other,
        )


def _other_realizations(
    quads_as_two_pairs: bool, strict_lan: bool, switch: int, base: list[int]
) -> list[tuple[Group, ...]]:
    """The realizations without jokers of the form of ``switch`` other than the standard
    one (seven pairs, 十三烂, 十三幺), for counts the kernel found complete in it."""
    if switch == _SEVEN_PAIRS_SWITCH:
        return list(_pair_realizations(base, 0, 0, quads_as_two_pairs))
    if switch == _SHISANLAN_SWITCH:
        return list(_lan_realizations(base, 0, 0, strict_lan))
    return list(_yao_realizations(base, 0))


#: the methods of :class:`HandRules` a table without wild tiles takes from the kernel's
#: :class:`~zhuoji.hand_kernel.Forms` (``distance`` keeps its own: it takes a form too)
_BOUND_FROM_KERNEL = ("shanten", "is_win", "waits", "is_ready")
#: each form's switch in the kernel's ``forms_*`` entry points
_FORM_SWITCH = {
    Form.STANDARD: _kernel.STANDARD,
    Form.SEVEN_PAIRS: _kernel.SEVEN_PAIRS,
    Form.SHISANLAN: _kernel.SHISANLAN,
    Form.SHISANYAO: _kernel.SHISANYAO,
}
#: the switches that are not forms: how the forms are read
_OPTION_SWITCHES = _kernel.STRICT_LAN | _kernel.QUADS_AS_TWO_PAIRS
_SEVEN_PAIRS_SWITCH: int = _kernel.SEVEN_PAIRS
_SHISANLAN_SWITCH: int = _kernel.SHISANLAN


def _form_switches(forms: Collection[Form], quads_as_two_pairs: bool, lan: LanRule) -> int:
    """The kernel's switches for a form set and how its forms are read."""
    switches = 0
    for form in forms:
        switches |= _FORM_SWITCH[form]
    if lan is LanRule.STRICT:
        switches |= _kernel.STRICT_LAN
    if quads_as_two_pairs:
        switches |= _kernel.QUADS_AS_TWO_PAIRS
    return switches


_PLAIN = frozenset({Form.STANDARD, Form.SEVEN_PAIRS})
#: the forms in the order :meth:`HandRules.decompositions` lists them (by name)
_FORMS_BY_NAME = tuple(sorted(Form, key=lambda f: f.value))


def decompositions(c: Sequence[int]) -> list[Decomposition]:
    """Every realization of a complete plain hand (standard and seven pairs)."""
    return PLAIN.decompositions(c)


# ---------------------------------------------------------------------------------------
# realization search (only for complete hands; not a hot path)
# ---------------------------------------------------------------------------------------


def _standard_realizations(
    c: list[int], jokers: int, joker_face: int
) -> Iterator[tuple[Group, ...]]:
    """Every standard realization (sets and one pair) of the counts ``c`` with ``jokers``
    jokers of face ``joker_face``: without jokers by the kernel's search
    (:func:`_plain_standard_realizations`), else by :func:`_search_realizations`."""
    if jokers == 0:
        return iter(_plain_standard_realizations(c))
    return _search_realizations(c, jokers, joker_face)


#: a group's fields in the order its dataclass compares them (sorting by them is the same
#: order, without a Python comparison per pair)
_GROUP_FIELDS = attrgetter("kind", "first", "wild")


def _realization_key(groups: tuple[Group, ...]) -> tuple[tuple[str, int, int], ...]:
    return tuple(map(_GROUP_FIELDS, groups))


def _plain_standard_realizations(c: list[int]) -> list[tuple[Group, ...]]:
    """:func:`_search_realizations` without jokers, the same list: the kernel's depth-first
    search (:func:`zhuoji.hand_kernel.standard_splits`, compiled), its blocks made groups
    (one :class:`Group` object a block, shared: they cannot be changed)."""
    block = _BLOCKS.get
    return [
        tuple([block(b) or _new_block(b) for b in split]) for split in _kernel.standard_splits(c)
    ]


#: the kind of a :func:`zhuoji.hand_kernel.standard_splits` block, by its code's high bits
_BLOCK_KINDS = {
    _kernel.CHOW_BLOCK: GroupKind.CHOW,
    _kernel.PAIR_BLOCK: GroupKind.PAIR,
    _kernel.PUNG_BLOCK: GroupKind.PUNG,
}
#: the groups made of kernel blocks so far, by block
_BLOCKS: dict[int, Group] = {}


def _new_block(b: int) -> Group:
    """The group of kernel block ``b``, made and kept (``hand_realize.block_group``, which
    the compiled realizer calls natively)."""
    g: Group = _realize.block_group(b, Group, _BLOCK_KINDS, _BLOCKS)  # type: ignore[arg-type]
    return g


#: the table of the plain forms (standard and seven pairs), no wild tiles (made here: its
#: realizer reads the shared groups above)
PLAIN = HandRules()


def _search_realizations(c: list[int], jokers: int, joker_face: int) -> Iterator[tuple[Group, ...]]:
    """Exhaustive search: the lowest real tile starts a block in every possible way, with
    jokers filling any place (also places a real tile could have taken)."""
    found: dict[tuple[tuple[str, int, int], ...], tuple[Group, ...]] = {}

    def rec(i: int, jk: int, has_pair: bool, acc: list[Group]) -> None:
        # every tile below ``i`` is placed already: blocks take tiles from the lowest on
        while i < NUM_KINDS and not c[i]:
            i += 1
        if i == NUM_KINDS:
            rest = jk - (0 if has_pair else 2)
            if rest < 0 or rest % 3:
                return
            tail = list(acc)
            if not has_pair:
                tail.append(_group(GroupKind.PAIR, joker_face, 0b11))
            tail.extend(_group(GroupKind.PUNG, joker_face, 0b111) for _ in range(rest // 3))
            tail.sort(key=_GROUP_FIELDS)
            found[tuple(map(_GROUP_FIELDS, tail))] = tuple(tail)
            return
        held = c[i]
        for kind, size in ((GroupKind.PAIR, 2), (GroupKind.PUNG, 3)):
            if kind is GroupKind.PAIR and has_pair:
                continue
            for real in range(1, min(held, size) + 1):
                need = size - real
                if need > jk:
                    continue
                c[i] -= real
                acc.append(_group(kind, i, ((1 << need) - 1) << real))
                rec(i, jk - need, has_pair or kind is GroupKind.PAIR, acc)
                acc.pop()
                c[i] += real
        if is_honor(i):
            return
        rank = i % 9
        for p, mask, need, offsets in _CHOW_SHAPES:
            # tile i at place p of a chow starting at i - p, within its suit
            if need > jk or p > rank or rank - p > 6:
                continue
            for o in offsets:
                if not c[i + o]:
                    break
            else:
                for o in offsets:
                    c[i + o] -= 1
                acc.append(_group(GroupKind.CHOW, i - p, mask))
                rec(i, jk - need, has_pair, acc)
                acc.pop()
                for o in offsets:
                    c[i + o] += 1

    rec(0, jokers, False, [])
    # sorted by the groups' fields: the order of the Group tuples themselves
    return iter([found[key] for key in sorted(found)])


def _chow_shapes() -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
    """Each way a real tile sits in a chow with jokers: (its place p, the joker mask, the
    jokers needed, the real tiles' offsets from it).  Places below p can only be jokers
    (the tile is the lowest real one); each place above is real or a joker."""
    out = []
    for p in range(3):
        for choice in range(1 << (2 - p)):
            mask = (1 << p) - 1
            for q in range(p + 1, 3):
                if choice >> (q - p - 1) & 1:
                    mask |= 1 << q
            offsets = tuple(q - p for q in range(p, 3) if not mask >> q & 1)
            out.append((p, mask, mask.bit_count(), offsets))
    return tuple(out)


_CHOW_SHAPES = _chow_shapes()


@lru_cache(maxsize=2048)
def _group(kind: GroupKind, first: int, wild: int) -> Group:
    """One :class:`Group` per (kind, first, wild) (groups are immutable; the search makes
    the same few again and again)."""
    return Group(kind, first, wild)


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
