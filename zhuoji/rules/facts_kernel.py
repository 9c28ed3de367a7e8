"""The facts of one realization of a hand (:func:`hand_facts`), computed for every win
settlement pays and every hand a pattern row is matched against: the kernel of
:mod:`zhuoji.rules.facts`, which defines what each fact means (:class:`~zhuoji.rules.facts.Requires`,
the rules author's reference) and re-exports :func:`hand_facts`.

A module of its own so that it compiles (``zhuoji.compiled.GROUPS["facts"]``, issue 29):
``facts.py`` holds the pydantic model of the facts a row may require, which mypyc does not
compile; this one holds plain functions over the hand's blocks and melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from zhuoji.hand import Decomposition, Form, Group, GroupKind
from zhuoji.outcome import Meld, MeldKind
from zhuoji.tiles import NUM_KINDS, TERMINALS_AND_HONORS, is_dragon, is_honor, wind

# Read natively once compiled: an enum member read off its class goes through the enum
# type's ``__getattr__``, and a function of ``zhuoji.tiles`` is a Python call (issue 29).
_PUNG: Final = GroupKind.PUNG
_CHOW: Final = GroupKind.CHOW
_PAIR: Final = GroupKind.PAIR
_SINGLE: Final = GroupKind.SINGLE
_STANDARD: Final = Form.STANDARD
_SEVEN_PAIRS: Final = Form.SEVEN_PAIRS
_SHISANLAN: Final = Form.SHISANLAN
_CHI: Final = MeldKind.CHI
_PENG: Final = MeldKind.PENG
_GANG_CONCEALED: Final = MeldKind.GANG_CONCEALED
#: the first honor and the first dragon kind, and the east wind (``tiles.is_honor``,
#: ``tiles.is_dragon``, ``tiles.wind``)
_FIRST_HONOR: Final = min(k for k in range(NUM_KINDS) if is_honor(k))
_FIRST_DRAGON: Final = min(k for k in range(NUM_KINDS) if is_dragon(k))
_EAST: Final = wind(0)
_TERMINALS_AND_HONORS: Final[tuple[int, ...]] = TERMINALS_AND_HONORS


def _suit(kind: int) -> int:
    """:func:`zhuoji.tiles.suit_of`: 0 万, 1 条, 2 筒, 3 honors."""
    return kind // 9


def _terminal_or_honor(kind: int) -> bool:
    """:func:`zhuoji.tiles.is_terminal_or_honor`."""
    return kind >= _FIRST_HONOR or kind % 9 in (0, 8)


class WinContext(Protocol):
    """What :func:`hand_facts` reads of a :class:`zhuoji.rules.facts.WinContext` (how the
    tile came; ``facts.py`` defines it: this module imports nothing of ``facts.py``, which
    imports it)."""

    @property
    def self_draw(self) -> bool: ...
    @property
    def rob_kong(self) -> bool: ...
    @property
    def gangkai(self) -> bool: ...
    @property
    def repao(self) -> bool: ...
    @property
    def haidi(self) -> bool: ...
    @property
    def tianhu(self) -> bool: ...
    @property
    def dihu(self) -> bool: ...
    @property
    def renhu(self) -> bool: ...
    @property
    def declared(self) -> bool: ...
    @property
    def dealer(self) -> bool: ...
    @property
    def seat_wind(self) -> int: ...
    @property
    def round_wind(self) -> int: ...


class _Blocks:
    """One pass over a realization's blocks (:func:`_blocks`).  A plain class, not a
    ``NamedTuple``: compiled, it is built and read natively (a named tuple is built by a
    Python ``__new__``, about 3 K instructions a win)."""

    suits: Final[set[int]]  # suits of the tiles that are themselves (a group's tiles share one)
    wilds: Final[int]
    pung_kinds: Final[list[int]]  # kinds of pungs of real tiles
    chow_firsts: Final[list[int]]
    pair: Final[Group | None]  # the standard form's pair

    def __init__(
        self,
        suits: set[int],
        wilds: int,
        pung_kinds: list[int],
        chow_firsts: list[int],
        pair: Group | None,
    ) -> None:
        self.suits = suits
        self.wilds = wilds
        self.pung_kinds = pung_kinds
        self.chow_firsts = chow_firsts
        self.pair = pair


def _blocks(dec: Decomposition) -> _Blocks:
    """Suits, wilds, pungs, chows and the pair of a realization, in one pass that reads each
    group's fields once (no tile tuples: the tiles of a group share its suit)."""
    suits: set[int] = set()
    wilds = 0
    pung_kinds: list[int] = []
    chow_firsts: list[int] = []
    pair: Group | None = None
    pung, chow, pair_kind = _PUNG, _CHOW, _PAIR
    for g in dec.groups:
        kind = g.kind
        first = g.first
        wild = g.wild
        if wild:
            wilds += wild.bit_count()
            if wild != _full_mask(kind):
                suits.add(_suit(first))
        else:
            suits.add(_suit(first))
        if kind is pung:
            if not wild:
                pung_kinds.append(first)
        elif kind is chow:
            chow_firsts.append(first)
        elif kind is pair_kind and pair is None:
            pair = g
    if dec.form is not _STANDARD:
        pair = None  # :attr:`Decomposition.pair`
    return _Blocks(suits, wilds, pung_kinds, chow_firsts, pair)


def _full_mask(kind: GroupKind) -> int:
    """The bits of every tile of a group of ``kind`` (``Group.wild`` equal to it: no real
    tile in the group)."""
    if kind is _SINGLE:
        return 1
    return 0b11 if kind is _PAIR else 0b111


class _Laid:
    """What the melds laid down show (:func:`_laid`; a plain class, as :class:`_Blocks`)."""

    suits: Final[set[int]]
    chows: Final[list[int]]  # first tiles of chows
    pung_kinds: Final[list[int]]  # kinds of pungs and kongs
    claimed: Final[int]
    peng_sets: Final[int]  # pungs and open kongs
    concealed_kongs: Final[int]
    exposed_kongs: Final[int]

    def __init__(
        self,
        suits: set[int],
        chows: list[int],
        pung_kinds: list[int],
        claimed: int,
        peng_sets: int,
        concealed_kongs: int,
        exposed_kongs: int,
    ) -> None:
        self.suits = suits
        self.chows = chows
        self.pung_kinds = pung_kinds
        self.claimed = claimed
        self.peng_sets = peng_sets
        self.concealed_kongs = concealed_kongs
        self.exposed_kongs = exposed_kongs


def _laid(melds: tuple[Meld, ...]) -> _Laid:
    suits: set[int] = set()
    chows: list[int] = []
    pung_kinds: list[int] = []
    claimed = peng_sets = concealed_kongs = exposed_kongs = 0
    chi, peng, concealed = _CHI, _PENG, _GANG_CONCEALED
    for m in melds:
        mk = m.kind
        tile = m.tile
        suits.add(_suit(tile))  # a meld's tiles share one suit
        if mk is chi:
            chows.append(tile)
        else:
            pung_kinds.append(tile)
        if mk is concealed:  # the one meld not made with another's tile (MeldKind.claimed)
            concealed_kongs += 1
            continue
        claimed += 1
        if mk is not chi:
            peng_sets += 1
            if mk is not peng:
                exposed_kongs += 1
    return _Laid(suits, chows, pung_kinds, claimed, peng_sets, concealed_kongs, exposed_kongs)


def _chow_facts(concealed_firsts: list[int], meld_firsts: list[int]) -> tuple[int, bool]:
    """(twin chows: pairs of identical chows, full straight 123-456-789 of one suit).

    Over bit masks of the first kinds (chows start below the honors: under 27 bits), not a
    dict of counts: a second copy of a first makes a twin and clears its bit, so ``n``
    copies make ``n // 2`` twins (issue 29: the dict was 3.4 K instructions a win)."""
    seen = 0  # a bit per first kind of a chow
    odd = 0  # a bit per first kind seen an odd number of times so far
    twins = 0
    for f in concealed_firsts:
        bit = 1 << f
        seen |= bit
        if odd & bit:
            twins += 1
        odd ^= bit
    for f in meld_firsts:
        bit = 1 << f
        seen |= bit
        if odd & bit:
            twins += 1
        odd ^= bit
    straight = False
    for b in (0, 9, 18):  # each suit's 1: chows from its 1, 4 and 7
        if (seen >> b) & _STRAIGHT_FIRSTS == _STRAIGHT_FIRSTS:
            straight = True
            break
    return twins, straight


#: the bits of a suit's 1, 4 and 7 in a mask of first kinds, from the suit's 1
_STRAIGHT_FIRSTS: Final = 1 | 1 << 3 | 1 << 6


def hand_facts(
    dec: Decomposition,
    melds: tuple[Meld, ...],
    win_tile: int | None,
    waits: Sequence[int],
    ctx: WinContext,
    held: Sequence[int],
) -> dict[str, object]:
    """All facts of one realization (``dec`` covers the concealed tiles plus the winning
    tile; ``waits`` the kinds the hand waited on, the wild kind left out: a drawn wild
    completes every ready hand, :func:`zhuoji.rules.patterns.wait_count`; ``held`` the
    tiles physically held as 34 counts, melds and the winning tile included, wild tiles
    not).

    A stand-in (红中配) standing for the wild's face is that face in the realization, but the
    player still holds the stand-in tile: it counts as itself for ``tile_copies`` and rules
    out 断幺 (seed 003 "断幺2嘴（无字牌，无1、9）（不能有红中，可以有宝牌）", "有1个红中就加2嘴").
    ``tile_copies`` itself is per row (:func:`with_tile`); ``held`` stays in the facts for it.

    Settlement computes this for every realization of every win (issue 29): the passes
    read each group's and meld's fields once and call no property."""
    form = dec.form
    standard = form is _STANDARD
    pairs_form = form is _SEVEN_PAIRS
    b = _blocks(dec)
    laid = _laid(melds)
    pair = b.pair
    pung_kinds = b.pung_kinds + laid.pung_kinds
    suits = b.suits | laid.suits
    honors = _HONORS in suits
    suits.discard(_HONORS)
    twin, straight = _chow_facts(b.chow_firsts, laid.chows)
    win_group_wilds = _win_group_wild_shapes(dec, win_tile) if b.wilds else _NO_SHAPES
    n_waits = len(waits)
    no_terminals = True
    for k in _TERMINALS_AND_HONORS:
        if held[k]:
            no_terminals = False
            break
    dragons = 0
    for k in pung_kinds:
        if k >= _FIRST_DRAGON:
            dragons += 1
    return {
        "form": form,
        "all_pungs": standard and not b.chow_firsts and not laid.chows,
        "one_suit": len(suits) == 1 and not honors,
        "mixed_one_suit": len(suits) == 1 and honors,
        "quads": _quads(dec) if pairs_form else 0,
        "concealed": not laid.claimed,
        "single_wait": standard and n_waits == 1 and pair is not None and win_tile == pair.first,
        "one_wait": n_waits == 1,
        "wide_wait": n_waits == 3 and _wide(waits),
        "melds": len(melds),
        "quad_on_win": pairs_form and win_tile is not None and _quad_kinds(dec).count(win_tile) > 0,
        "pair_runs": _pair_runs(dec) if pairs_form else 0,
        "no_wild": b.wilds == 0,
        "wilds": b.wilds,
        "missing_suit": len(suits) < 3,
        "no_terminals": no_terminals,
        "terminal_pair": pair is not None and not pair.wild and _terminal_or_honor(pair.first),
        "kan": len(b.pung_kinds),
        "twin_chows": twin,
        "full_straight": straight,
        "all_honors_lan": form is _SHISANLAN
        and sum(1 for g in dec.groups if g.first >= _FIRST_HONOR and not g.wild) == 7,
        "wild_single_wait": "pair" in win_group_wilds,
        "wild_pair_wait": "pung" in win_group_wilds,
        "held": held,
        "peng_sets": laid.peng_sets,
        "concealed_kongs": laid.concealed_kongs,
        "exposed_kongs": laid.exposed_kongs,
        "dragon_pungs": dragons,
        "seat_wind_pung": _EAST + ctx.seat_wind in pung_kinds,
        "round_wind_pung": _EAST + ctx.round_wind in pung_kinds,
        "self_draw": ctx.self_draw,
        "rob_kong": ctx.rob_kong,
        "gangkai": ctx.gangkai,
        "repao": ctx.repao,
        "haidi": ctx.haidi,
        "tianhu": ctx.tianhu,
        "dihu": ctx.dihu,
        "renhu": ctx.renhu,
        "declared": ctx.declared,
        "dealer": ctx.dealer,
    }


#: :func:`zhuoji.tiles.suit_of` of an honor tile
_HONORS: Final = 3
_NO_SHAPES: frozenset[str] = frozenset()


def _quad_kinds(dec: Decomposition) -> list[int]:
    """Kinds a seven-pairs realization holds as two pairs (four of a kind)."""
    kinds = [g.first for g in dec.groups if not g.wild]
    return [k for k in set(kinds) if kinds.count(k) >= 2]


def _quads(dec: Decomposition) -> int:
    return len(_quad_kinds(dec))


def _wide(waits: Sequence[int]) -> bool:
    """大宽张: three waits of one suit, three ranks apart."""
    if len(waits) != 3:
        return False
    a, b, c = sorted(waits)
    return c < _FIRST_HONOR and _suit(a) == _suit(c) and b - a == 3 and c - b == 3


def _pair_runs(dec: Decomposition) -> int:
    """Disjoint runs of three consecutive pair kinds in one suit, taken greedily from the
    lowest (which finds the most: a gap-free stretch of L kinds holds L // 3)."""
    present = {g.first for g in dec.groups if g.first < _FIRST_HONOR and g.wild != 0b11}
    runs = 0
    for k in sorted(present):
        if k in present and k % 9 <= 6 and k + 1 in present and k + 2 in present:
            runs += 1
            present -= {k, k + 1, k + 2}
    return runs


def _win_group_wild_shapes(dec: Decomposition, win_tile: int | None) -> set[str]:
    """Which groups could hold the (real) winning tile together with only wilds."""
    shapes: set[str] = set()
    if win_tile is None:
        return shapes
    for g in dec.groups:
        if g.first != win_tile or g.kind not in (_PAIR, _PUNG):
            continue
        size = len(g.tiles)
        if g.wild_count == size - 1 and not g.wild & 1:
            shapes.add(g.kind.value)
    return shapes


# --- matching a pattern table's rows against the facts (patterns.value_of) ------------

#: how a row's condition compares a fact with the value it wants
BOOL: Final = 0  # equal as booleans
AT_LEAST: Final = 1  # a number at least the one wanted
EQUAL: Final = 2  # equal (the form)


class PreparedRow:
    """A pattern row made ready for matching, once per table
    (:func:`zhuoji.rules.patterns.value_of`; a pydantic model's attributes are read through
    its ``__getattr__`` hook, about a thousand instructions each): its conditions as
    ``(fact, want, how, wanted number)``, its own tile parsed (``-1`` for none), its value
    (``fan``, or by ``per``: × the count, or ``by_count[count]``, the last entry for more),
    names, ledger item, and how it combines (``additive``, ``exclusive``, ``excludes``)."""

    pid: Final[str]
    conditions: Final[tuple[tuple[str, object, int, int], ...]]
    tile: Final[int]
    fan: Final[int]
    per: Final[str | None]
    by_count: Final[tuple[int, ...] | None]
    name: Final[str]
    name_en: Final[str]
    item: Final[str]
    additive: Final[bool]
    exclusive: Final[bool]
    excludes: Final[tuple[str, ...]]

    def __init__(
        self,
        pid: str,
        conditions: tuple[tuple[str, object, int, int], ...],
        tile: int,
        fan: int,
        per: str | None,
        by_count: tuple[int, ...] | None,
        name: str,
        name_en: str,
        item: str,
        additive: bool,
        exclusive: bool,
        excludes: tuple[str, ...],
    ) -> None:
        self.pid = pid
        self.conditions = conditions
        self.tile = tile
        self.fan = fan
        self.per = per
        self.by_count = by_count
        self.name = name
        self.name_en = name_en
        self.item = item
        self.additive = additive
        self.exclusive = exclusive
        self.excludes = excludes


class PreparedTable:
    """A pattern table made ready (:class:`PreparedRow`): its rows in table order, whether
    only the best non-additive row counts (``combine: highest``), its ``cap`` (爆和)."""

    rows: Final[tuple[PreparedRow, ...]]
    highest: Final[bool]
    cap: Final[int | None]

    def __init__(self, rows: tuple[PreparedRow, ...], highest: bool, cap: int | None) -> None:
        self.rows = rows
        self.highest = highest
        self.cap = cap


def chosen_rows(
    table: PreparedTable, facts: dict[str, object]
) -> list[tuple[PreparedRow, int, bool]]:
    """The rows that score, as ``(row, fan, bonus)`` in order, for one set of facts: the
    rows the facts meet (:func:`row_hits`); each one still standing drops the rows it
    ``excludes``; an ``exclusive`` row that matches is the only pattern (additive rows stay);
    with ``combine: highest`` the best non-additive row (the first of the best) and the
    additive rows as bonuses, else every row; then ``cap`` (爆和) keeps rows in order until
    it, trimming the one that crosses it.  (The meaning is :func:`zhuoji.rules.patterns.value_of`'s.)"""
    hits: dict[str, tuple[PreparedRow, int]] = {}
    for r, fan in row_hits(table.rows, facts):
        hits[r.pid] = (r, fan)
    for pid, (r, _) in list(hits.items()):
        if pid in hits:
            for other in r.excludes:
                hits.pop(other, None)
    alone: str | None = None
    for pid, (r, _) in hits.items():
        if r.exclusive:
            alone = pid
            break
    if alone is not None:
        hits = {pid: h for pid, h in hits.items() if pid == alone or h[0].additive}
    chosen: list[tuple[PreparedRow, int, bool]] = []
    if table.highest:
        best: tuple[PreparedRow, int] | None = None
        for r, fan in hits.values():
            if not r.additive and (best is None or fan > best[1]):
                best = (r, fan)
        if best is not None:
            chosen.append((best[0], best[1], False))
        for r, fan in hits.values():
            if r.additive:
                chosen.append((r, fan, True))
    else:
        for r, fan in hits.values():
            chosen.append((r, fan, False))
    cap = table.cap
    if cap is None:
        return chosen
    out: list[tuple[PreparedRow, int, bool]] = []
    room = cap
    for r, fan, bonus in chosen:
        if room <= 0:
            break
        kept = min(fan, room)
        out.append((r, kept, bonus))
        room -= kept
    return out


def row_hits(
    rows: tuple[PreparedRow, ...], facts: dict[str, object]
) -> list[tuple[PreparedRow, int]]:
    """Every row whose conditions the facts meet, with its fan, in table order: booleans
    must be equal, numbers are minimums; a row with its own ``tile`` sees ``tile_copies``
    of that tile (:func:`zhuoji.rules.facts.with_tile`); a ``per:`` row worth nothing is
    left out.  Every row of every realization of every win is matched here."""
    hits: list[tuple[PreparedRow, int]] = []
    for r in rows:
        seen = facts
        if r.tile >= 0:
            held: Sequence[int] = facts["held"]  # type: ignore[assignment]
            seen = {**facts, "tile_copies": held[r.tile]}
        matched = True
        for name, want, how, least in r.conditions:
            have = seen[name]
            if how == BOOL:
                if bool(have) is not want:
                    matched = False
                    break
            elif how == AT_LEAST:
                if not isinstance(have, int) or have < least:
                    matched = False
                    break
            elif have != want:
                matched = False
                break
        if not matched:
            continue
        per = r.per
        if per is None:
            hits.append((r, r.fan))
            continue
        count: int = seen[per]  # type: ignore[assignment]
        by_count = r.by_count
        fan = by_count[min(count, len(by_count) - 1)] if by_count is not None else r.fan * count
        if fan:
            hits.append((r, fan))
    return hits
