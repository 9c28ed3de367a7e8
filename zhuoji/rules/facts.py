"""Facts about a winning (or waiting) hand that pattern rows may require.

A pattern row in a variant file is data: ``{fan: 15, requires: {all_pungs: true,
one_suit: true}}`` (清大对, seed 000 "同时满足对对胡和清一色").  This module computes the facts
for one realization of a hand; a row matches when every fact it names holds (booleans must
be equal, numbers are minimums).  The hand's value is the best over its realizations.

Every fact is a field of :class:`Requires`, whose descriptions are the rules author's
reference (they go into the JSON Schema).  No fact names a tile: a row that counts one
tile (红中 嘴, seed 003 23) names it as its own ``tile`` and requires ``tile_copies``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, cast

from pydantic import BaseModel, ConfigDict, Field

from zhuoji.hand import Decomposition, Form, Group, GroupKind
from zhuoji.outcome import Meld, MeldKind
from zhuoji.tiles import (
    TERMINALS_AND_HONORS,
    is_dragon,
    is_honor,
    is_terminal_or_honor,
    suit_of,
    wind,
)


class Requires(BaseModel):
    """Facts a pattern row requires; omitted facts are not checked."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    form: Form | None = Field(
        None,
        description="winning form: standard, seven_pairs, shisanlan (十三烂) or shisanyao (十三幺)",
    )
    all_pungs: bool | None = Field(
        None, description="大对子: standard form, every set a pung or kong"
    )
    one_suit: bool | None = Field(None, description="清一色: every tile from one suit, no honors")
    mixed_one_suit: bool | None = Field(
        None, description="混一色: one suit plus at least one honor tile"
    )
    quads: int | None = Field(
        None,
        ge=0,
        le=3,
        description="seven pairs with at least this many four-of-a-kinds (龙七对 1, 双龙七对 2)",
    )
    concealed: bool | None = Field(
        None, description="门清/门前清: no meld made with another's tile"
    )
    single_wait: bool | None = Field(None, description="单吊: waited on the pair's tile alone")
    one_wait: bool | None = Field(
        None,
        description="独子 (seed 003 4): the hand waited on exactly one kind; with form: standard "
        "this is 边卡吊 (遵义/仁怀, FW server `bianKaDiao`: no tile but the winning one "
        "completes the hand — an edge, closed or pair wait)",
    )
    wide_wait: bool | None = Field(
        None,
        description="大宽张 (遵义/仁怀, FW server `daKuanZhang`): the hand waited on exactly "
        "three kinds of one suit, three ranks apart (1-4-7, 2-5-8 or 3-6-9)",
    )
    melds: int | None = Field(
        None,
        ge=0,
        le=4,
        description="at least this many melds laid down (单吊 / 金钩钓 of CITIES.md 独山 and "
        "三丁拐: 4, the last tile waited on alone)",
    )
    quad_on_win: bool | None = Field(
        None,
        description="seven pairs whose four-of-a-kind the winning tile completes (龙七对 as FW "
        "`long7Dui` and CITIES.md 独山 read it: the 4-of-a-kind must be the winning tile)",
    )
    pair_runs: int | None = Field(
        None,
        ge=0,
        le=2,
        description="seven pairs holding at least this many runs of three pairs on consecutive "
        "ranks of one suit (112233); 合浦小七对 (金沙) is 2 (FW server `hepu7Dui`)",
    )
    no_wild: bool | None = Field(None, description="无宝: no wild tile in the hand")
    wilds: int | None = Field(
        None, ge=0, le=4, description="at least this many wild tiles held (四宝 4)"
    )
    missing_suit: bool | None = Field(None, description="缺门: at least one of 万条筒 absent")
    no_terminals: bool | None = Field(
        None, description="断幺: no 1, 9 or honor tile (wilds allowed)"
    )
    terminal_pair: bool | None = Field(
        None, description="幺头: the pair is 1, 9 or an honor, with no wild in it"
    )
    kan: int | None = Field(
        None, ge=0, le=4, description="坎: at least this many concealed pungs of real tiles"
    )
    twin_chows: int | None = Field(
        None, ge=0, le=2, description="亲三对: at least this many pairs of identical chows"
    )
    full_straight: bool | None = Field(None, description="通天: 1-9 of one suit as three chows")
    all_honors_lan: bool | None = Field(
        None, description="七风全: 十三烂 holding all seven honors as real tiles"
    )
    wild_single_wait: bool | None = Field(
        None, description="单吊宝: the winning tile paired with a wild"
    )
    wild_pair_wait: bool | None = Field(
        None, description="双吊宝: the winning tile made a pung with two wilds"
    )
    tile_copies: int | None = Field(
        None,
        ge=0,
        le=4,
        description="at least this many copies of the row's own `tile` held, melds included, "
        "wild tiles not (红中 嘴, seed 003 23); a stand-in (红中配) standing for another face "
        "still counts as itself",
    )
    peng_sets: int | None = Field(
        None, ge=0, le=4, description="碰N对: at least this many pungs or exposed kongs claimed"
    )
    concealed_kongs: int | None = Field(
        None, ge=0, le=4, description="暗杠: at least this many concealed kongs"
    )
    exposed_kongs: int | None = Field(
        None, ge=0, le=4, description="明杠: at least this many kongs on a discard or added"
    )
    dragon_pungs: int | None = Field(
        None, ge=0, le=3, description="pungs or kongs of dragons (三元牌刻)"
    )
    seat_wind_pung: bool | None = Field(None, description="pung or kong of the seat wind (门风)")
    round_wind_pung: bool | None = Field(None, description="pung or kong of the round wind (圈风)")
    self_draw: bool | None = Field(None, description="自摸 (a robbed kong is not a self-draw here)")
    rob_kong: bool | None = Field(None, description="抢杠: won by robbing a kong")
    gangkai: bool | None = Field(None, description="杠开: self-draw on a kong's replacement tile")
    repao: bool | None = Field(
        None, description="热炮: won on a discard made right after the discarder's kong"
    )
    haidi: bool | None = Field(None, description="海底捞月: self-draw of the last tile")
    tianhu: bool | None = Field(None, description="天和: dealer complete on the initial hand")
    dihu: bool | None = Field(
        None, description="地和: non-dealer self-draws his first tile, no claim before"
    )
    renhu: bool | None = Field(
        None, description="人和: non-dealer wins on the dealer's first discard"
    )
    declared: bool | None = Field(None, description="the winner declared 报听")
    dealer: bool | None = Field(None, description="the winner is the dealer")


#: facts a row may multiply its fan by (``per:``)
COUNT_FACTS = (
    "kan",
    "twin_chows",
    "tile_copies",
    "peng_sets",
    "concealed_kongs",
    "exposed_kongs",
    "dragon_pungs",
    "quads",
    "wilds",
    "melds",
    "pair_runs",
)


#: the facts of how the winning tile came (:class:`WinContext`), apart from the winner's
#: own standing: all false for a hand valued before its win, as the bots value them
EVENT_FACTS = ("self_draw", "rob_kong", "gangkai", "repao", "haidi", "tianhu", "dihu", "renhu")


@dataclass(frozen=True)
class WinContext:
    """How the tile came: facts that do not depend on the hand's shape."""

    self_draw: bool = False
    rob_kong: bool = False
    gangkai: bool = False
    repao: bool = False
    haidi: bool = False
    tianhu: bool = False
    dihu: bool = False
    renhu: bool = False
    declared: bool = False
    dealer: bool = False
    seat_wind: int = 0
    round_wind: int = 0


class _Blocks(NamedTuple):
    """One pass over a realization's blocks (:func:`_blocks`)."""

    suits: set[int]  # suits of the tiles that are themselves (a group's tiles share one)
    wilds: int
    pung_kinds: list[int]  # kinds of pungs of real tiles
    chow_firsts: list[int]
    pair: Group | None  # the standard form's pair


def _blocks(dec: Decomposition) -> _Blocks:
    """Suits, wilds, pungs, chows and the pair of a realization, in one pass that reads each
    group's fields once (no tile tuples: the tiles of a group share its suit)."""
    suits: set[int] = set()
    wilds = 0
    pung_kinds: list[int] = []
    chow_firsts: list[int] = []
    pair: Group | None = None
    pung, chow, pair_kind = GroupKind.PUNG, GroupKind.CHOW, GroupKind.PAIR
    for g in dec.groups:
        kind = g.kind
        first = g.first
        wild = g.wild
        if wild:
            wilds += wild.bit_count()
            if wild != _full_mask(kind):
                suits.add(suit_of(first))
        else:
            suits.add(suit_of(first))
        if kind is pung:
            if not wild:
                pung_kinds.append(first)
        elif kind is chow:
            chow_firsts.append(first)
        elif kind is pair_kind and pair is None:
            pair = g
    if dec.form is not Form.STANDARD:
        pair = None  # :attr:`Decomposition.pair`
    return _Blocks(suits, wilds, pung_kinds, chow_firsts, pair)


def _full_mask(kind: GroupKind) -> int:
    """The bits of every tile of a group of ``kind`` (``Group.wild`` equal to it: no real
    tile in the group)."""
    if kind is GroupKind.SINGLE:
        return 1
    return 0b11 if kind is GroupKind.PAIR else 0b111


class _Laid(NamedTuple):
    """What the melds laid down show (:func:`_laid`)."""

    suits: set[int]
    chows: list[int]  # first tiles of chows
    pung_kinds: list[int]  # kinds of pungs and kongs
    claimed: int
    peng_sets: int  # pungs and open kongs
    concealed_kongs: int
    exposed_kongs: int


def _laid(melds: tuple[Meld, ...]) -> _Laid:
    suits: set[int] = set()
    chows: list[int] = []
    pung_kinds: list[int] = []
    claimed = peng_sets = concealed_kongs = exposed_kongs = 0
    chi, peng, concealed = MeldKind.CHI, MeldKind.PENG, MeldKind.GANG_CONCEALED
    for m in melds:
        mk = m.kind
        tile = m.tile
        suits.add(suit_of(tile))  # a meld's tiles share one suit
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
    """(twin chows: pairs of identical chows, full straight 123-456-789 of one suit)."""
    if not concealed_firsts and not meld_firsts:
        return 0, False
    firsts = concealed_firsts + meld_firsts
    seen: dict[int, int] = {}
    for f in firsts:
        seen[f] = seen.get(f, 0) + 1
    twins = 0
    for n in seen.values():
        twins += n // 2
    straight = False
    if len(seen) >= 3:
        for b in (0, 9, 18):  # each suit's 1
            if b in seen and b + 3 in seen and b + 6 in seen:
                straight = True
                break
    return twins, straight


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
    standard = form is Form.STANDARD
    pairs_form = form is Form.SEVEN_PAIRS
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
    for k in TERMINALS_AND_HONORS:
        if held[k]:
            no_terminals = False
            break
    dragons = 0
    for k in pung_kinds:
        if is_dragon(k):
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
        "terminal_pair": pair is not None and not pair.wild and is_terminal_or_honor(pair.first),
        "kan": len(b.pung_kinds),
        "twin_chows": twin,
        "full_straight": straight,
        "all_honors_lan": form is Form.SHISANLAN
        and sum(1 for g in dec.groups if is_honor(g.first) and not g.wild) == 7,
        "wild_single_wait": "pair" in win_group_wilds,
        "wild_pair_wait": "pung" in win_group_wilds,
        "held": held,
        "peng_sets": laid.peng_sets,
        "concealed_kongs": laid.concealed_kongs,
        "exposed_kongs": laid.exposed_kongs,
        "dragon_pungs": dragons,
        "seat_wind_pung": wind(ctx.seat_wind) in pung_kinds,
        "round_wind_pung": wind(ctx.round_wind) in pung_kinds,
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
_HONORS = 3
_NO_SHAPES: frozenset[str] = frozenset()


def with_tile(facts: dict[str, object], tile: int) -> dict[str, object]:
    """The facts as a row naming ``tile`` sees them: ``tile_copies`` counts that tile."""
    held = cast(Sequence[int], facts["held"])  # (an isinstance check on an ABC costs more)
    return {**facts, "tile_copies": held[tile]}


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
    return not is_honor(c) and suit_of(a) == suit_of(c) and b - a == 3 and c - b == 3


def _pair_runs(dec: Decomposition) -> int:
    """Disjoint runs of three consecutive pair kinds in one suit, taken greedily from the
    lowest (which finds the most: a gap-free stretch of L kinds holds L // 3)."""
    present = {g.first for g in dec.groups if not is_honor(g.first) and g.wild != 0b11}
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
        if g.first != win_tile or g.kind not in (GroupKind.PAIR, GroupKind.PUNG):
            continue
        size = len(g.tiles)
        if g.wild_count == size - 1 and not g.wild & 1:
            shapes.add(g.kind.value)
    return shapes


@lru_cache(maxsize=4096)
def _conditions(req: Requires) -> tuple[tuple[str, object], ...]:
    """The facts a row names, once per row (iterating a pydantic model is slow)."""
    return tuple((name, want) for name, want in req if want is not None)


def matches(req: Requires, facts: dict[str, object]) -> bool:
    for name, want in _conditions(req):
        have = facts[name]
        if isinstance(want, bool):
            if bool(have) is not want:
                return False
        elif isinstance(want, int):
            if not isinstance(have, int) or have < want:
                return False
        elif have != want:
            return False
    return True
