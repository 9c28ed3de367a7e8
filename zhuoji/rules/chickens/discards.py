"""Discarded chickens: 冲锋鸡/英雄鸡, 横鸡 and 责任鸡, read from the discards in table order.

Sources: seed 000 ① 冲锋鸡 「玩家打出的第一张幺鸡」, ② 责任鸡 「打出的第一张幺鸡被场上的其他玩家碰走」;
seed 001 二(1)(2) (英雄鸡, 責任雞); CITIES.md common mechanism 3 (冲锋/责任 on any configured
tile, per round or per player's first discard, 首圈); DS §7.3 (冲锋 = one's own first discard
when it is a chicken; 横鸡 rounds: 「开轮者（或已在轮内打过同种鸡牌的人）再次出牌时，该轮结束」)
and §7.4 (责任 premium).  The first go-round (首圈) is the discards before the first claim, at
most one per player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Final

from zhuoji.contract.ledger import Fact, fact
from zhuoji.contract.ledger_kernel import fact_at
from zhuoji.outcome import RoundEnd
from zhuoji.rules.chickens.params import (
    ChickenParams,
    Chongfeng,
    Hengji,
    Shouquan,
    TileChoice,
    UnreadyPays,
    Zeren,
)
from zhuoji.rules.chickens.params import Standing as StandingRule
from zhuoji.rules.chickens.values import Chicken
from zhuoji.rules.memo import per_object
from zhuoji.tiles import FLOWER, parse_one


class Status(StrEnum):
    """What a discarded chicken was when it was discarded."""

    PLAIN = "plain"
    CHONGFENG = "chongfeng"  # 冲锋鸡 / 英雄鸡
    HENGJI = "hengji"  # 横鸡 (DS)


class Special:
    """A 冲锋 owned by ``seat``, or a 责任 the ``seat`` (discarder) owes ``other`` (claimer);
    ``fact`` is what its amount counts (the words of :mod:`~zhuoji.rules.chickens.words`);
    ``face`` the claimed chicken's plain value (a 责任's).  Read-only (``Final``): a plain
    class with its own ``__init__``, as :class:`~zhuoji.rules.chickens.ownership.Earning`."""

    seat: Final[int]
    other: Final[int | None]
    amount: Final[int]
    item: Final[str]
    fact: Final[Fact]
    face: Final[int]

    def __init__(
        self, seat: int, other: int | None, amount: int, item: str, fact: Fact, face: int = 0
    ) -> None:
        self.seat = seat
        self.other = other
        self.amount = amount
        self.item = item
        self.fact = fact
        self.face = face

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Special) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[int, int | None, int, str, Fact, int]:
        return (self.seat, self.other, self.amount, self.item, self.fact, self.face)

    def __repr__(self) -> str:
        return (
            f"Special(seat={self.seat!r}, other={self.other!r}, amount={self.amount!r}, "
            f"item={self.item!r}, fact={self.fact!r}, face={self.face!r})"
        )


#: the statuses as module constants, which the stage's compiled modules read (the chickens
#: group: a member read off its enum class goes through the enum type's ``__getattr__``)
PLAIN: Final = Status.PLAIN
CHONGFENG: Final = Status.CHONGFENG
HENGJI: Final = Status.HENGJI


class ChongfengTerms:
    """``Chongfeng`` read once into plain fields (the same names and values)."""

    def __init__(self, c: Chongfeng) -> None:
        self.tiles: Final[TileChoice] = c.tiles
        self.label: Final[str] = c.label
        self.multiplier: Final[int] = c.multiplier
        self.golden_multiplier: Final[int] = c.golden_multiplier
        self.first: Final[str] = c.first
        self.claimed: Final[str] = c.claimed
        self.also_discard: Final[bool] = c.also_discard
        self.shouquan: Final[Shouquan | None] = c.shouquan
        #: the kinds ``tiles`` names, read once (None for ``any``: the round's table says)
        self.kinds: Final[frozenset[int] | None] = _named_or_none(c.tiles)


class HengjiTerms:
    """``Hengji`` read once into plain fields (the same names and values)."""

    def __init__(self, h: Hengji) -> None:
        self.tiles: Final[TileChoice] = h.tiles
        self.multiplier: Final[int] = h.multiplier
        self.label: Final[str] = h.label


class ZerenTerms:
    """``Zeren`` read once into plain fields (the same names and values)."""

    def __init__(self, z: Zeren) -> None:
        self.tiles: Final[TileChoice] = z.tiles
        self.extra: Final[int] = z.extra
        self.premium: Final[bool] = z.premium
        self.claims: Final[str] = z.claims
        self.discarder: Final[str] = z.discarder
        self.claimer_unready: Final[str] = z.claimer_unready
        self.claimer_pays_back: Final[str] = z.claimer_pays_back
        self.shouquan: Final[Shouquan | None] = z.shouquan
        #: the kinds ``tiles`` names, read once (None for ``any``: the round's table says)
        self.kinds: Final[frozenset[int] | None] = _named_or_none(z.tiles)


def _named_or_none(choice: TileChoice) -> frozenset[int] | None:
    """The kinds a rule's ``tiles`` name (:func:`named_kinds`), None for ``any``."""
    return None if choice == "any" else named_kinds(choice)


class ChickenTerms:
    """``ChickenParams`` read once into plain fields, as ``HuTerms`` reads the ``hu`` hook's
    (issue 29: a pydantic model's attribute is a Python read through its ``__getattr__`` hook,
    about 0.3 K instructions from compiled code; a field here is a native read).  The same
    names and values: :class:`~zhuoji.rules.chickens.params.ChickenParams` stays the validated
    source and the one the words, the pricer and the table read; the stage's compiled
    functions read this (:func:`terms`), and take either."""

    def __init__(self, p: ChickenParams) -> None:
        cf, hj, zr = p.chongfeng, p.hengji, p.zeren
        self.chongfeng: Final[ChongfengTerms | None] = None if cf is None else ChongfengTerms(cf)
        self.hengji: Final[HengjiTerms | None] = None if hj is None else HengjiTerms(hj)
        self.zeren: Final[ZerenTerms | None] = None if zr is None else ZerenTerms(zr)
        self.standing: Final[StandingRule | None] = p.standing
        self.unready_pays: Final[UnreadyPays | None] = p.unready_pays
        self.kong_counts: Final[int] = p.kong_counts
        self.scope: Final[str] = p.scope
        self.won_tile: Final[str] = p.won_tile
        self.zhuopao: Final[bool] = p.zhuopao
        self.collectors: Final[str] = p.collectors
        self.payers: Final[str] = p.payers
        self.payment: Final[str] = p.payment


_TERMS: dict[int, tuple[ChickenParams, ChickenTerms]] = {}


def terms(p: ChickenParams | ChickenTerms) -> ChickenTerms:
    """The :class:`ChickenTerms` of ``p`` (itself when it is one), read on its first use and
    kept with ``p`` (so its id is not reused) for the rounds of the same ruleset."""
    if isinstance(p, ChickenTerms):
        return p
    got = _TERMS.get(id(p))
    if got is None or got[0] is not p:
        if len(_TERMS) >= 256:  # a process meets few rule sets (as rules/memo.py's stores)
            _TERMS.clear()
        got = (p, ChickenTerms(p))
        _TERMS[id(p)] = got
    return got[1]


@per_object(maxsize=256)
def named_kinds(tiles: list[str]) -> frozenset[int]:
    """The kinds a variant's tile list names, read once per list (it is read every round)."""
    return frozenset(parse_one(t) for t in tiles)


def chicken_flags(table: Mapping[int, Chicken]) -> list[bool]:
    """Per tile kind (the flower too), whether ``table`` makes it a chicken: the stages ask
    it of every tile they walk, and an index into this list is a native read where ``in``
    on the table (a read-only mapping) is a generic containment test, about 0.1 K
    instructions (a set's too; issue 29)."""
    flags = [False] * (FLOWER + 1)
    for k in table:
        flags[k] = True
    return flags


def tiles_of(choice: TileChoice, table: Mapping[int, Chicken]) -> frozenset[int]:
    """The kinds a 冲锋/横鸡/责任 rule names; ``any``: every chicken known during play."""
    if choice == "any":
        return frozenset(k for k, c in table.items() if c.fixed)
    return named_kinds(choice)


def first_go_round(end: RoundEnd) -> int:
    """How many leading discards belong to the first go-round (首圈): one per player at most,
    ending with the first claimed discard."""
    return go_round_length(end.discards, end.players)


def go_round_length(discards: Sequence[tuple[Any, ...]], players: int) -> int:
    """:func:`first_go_round` of discards given as (seat, tile, claimed by) in table order
    (a :class:`~zhuoji.outcome.Discard` is one): a bot asks it of the table so far."""
    n = 0
    for d in discards[:players]:
        n += 1
        if d[2] is not None:
            break
    return n


def _own_firsts(end: RoundEnd) -> set[int]:
    """The indexes of each player's first discard."""
    firsts: dict[int, int] = {}
    for i, d in enumerate(end.discards):
        if d.seat not in firsts:
            firsts[d.seat] = i
            if len(firsts) == end.players:
                break
    return set(firsts.values())


def classify(
    end: RoundEnd, table: Mapping[int, Chicken], p: ChickenParams | ChickenTerms
) -> dict[int, Status]:
    """Discard index → status, for every discarded chicken (in discard order)."""
    t = terms(p)
    if t.hengji is not None:
        return _classify_with_rounds(end, table, t)
    # without 横鸡 a discard's status reads only earlier discards of its own kind (冲锋
    # ``round``) or its discarder's first discard (冲锋 ``own``): only the chickens are walked
    discards = end.discards
    is_chicken = chicken_flags(table)
    chickens = [i for i, d in enumerate(discards) if is_chicken[d.tile]]
    cf = t.chongfeng
    if cf is None:
        return dict.fromkeys(chickens, PLAIN)
    cf_tiles = cf.kinds if cf.kinds is not None else tiles_of(cf.tiles, table)
    first = cf.first
    out: dict[int, Status] = {}
    if first == "round":
        seen: set[int] = set()
        for i in chickens:
            k = discards[i].tile
            out[i] = CHONGFENG if k in cf_tiles and k not in seen else PLAIN
            seen.add(k)
    elif first == "round_any":  # one 冲锋 a round: the first discard of any of its tiles
        taken = False
        for i in chickens:
            is_first = discards[i].tile in cf_tiles and not taken
            out[i] = CHONGFENG if is_first else PLAIN
            taken = taken or discards[i].tile in cf_tiles
    else:
        own = _own_firsts(end)
        for i in chickens:
            is_first = i in own and discards[i].tile in cf_tiles
            out[i] = CHONGFENG if is_first else PLAIN
    return out


def _classify_with_rounds(
    end: RoundEnd, table: Mapping[int, Chicken], p: ChickenTerms
) -> dict[int, Status]:
    """:func:`classify` with 横鸡 rounds, which every discard may close (DS §7.3)."""
    walk = DiscardWalk(table, p)
    out: dict[int, Status] = {}
    for i, d in enumerate(end.discards):
        status = walk.push(d.seat, d.tile)
        if status is not None:
            out[i] = status
    return out


class DiscardWalk:
    """The statuses of a round's discards, one discard at a time in table order, with the
    横鸡 rounds any discard may close (DS §7.3): :func:`classify` walks a round with it, and
    a bot asks what its next discard would be (:meth:`next_status`)."""

    def __init__(
        self, table: Mapping[int, Chicken], p: ChickenParams | ChickenTerms | None
    ) -> None:
        """The walk of a round's discards from its start (``p`` None: one that knows no
        冲锋 or 横鸡 rule, which :meth:`copy` fills in)."""
        cf = p.chongfeng if p is not None else None
        hj = p.hengji if p is not None else None
        self.table = table
        self.cf_round = cf is not None and cf.first == "round"
        #: one 冲锋 a round, shared by its tiles (``first: round_any``), and whether it is gone
        self.cf_round_any = cf is not None and cf.first == "round_any"
        self.cf_taken = False
        self.cf_tiles = tiles_of(cf.tiles, table) if cf is not None else frozenset()
        self.hj_tiles = tiles_of(hj.tiles, table) if hj is not None else frozenset()
        self.seen: set[int] = set()  # kinds discarded so far
        self.started: set[int] = set()  # seats that have discarded
        #: 横鸡 round per kind: its members, None once closed
        self.rounds: dict[int, set[int] | None] = {}

    def copy(self) -> DiscardWalk:
        """An independent walk at the same place (a bot walks on from a table it has seen)."""
        twin = DiscardWalk(self.table, None)
        twin.cf_round = self.cf_round
        twin.cf_round_any, twin.cf_taken = self.cf_round_any, self.cf_taken
        twin.cf_tiles, twin.hj_tiles = self.cf_tiles, self.hj_tiles
        twin.seen, twin.started = set(self.seen), set(self.started)
        twin.rounds = {k: None if m is None else set(m) for k, m in self.rounds.items()}
        return twin

    def push(self, seat: int, tile: int) -> Status | None:
        """The status of ``seat``'s discard of ``tile``, next in table order (None: it is no
        chicken); the walk moves on past it."""
        rounds = self.rounds
        for k, members in rounds.items():
            if members is not None and seat in members:
                rounds[k] = None  # a member discards again: that round is over
        status = self.next_status(seat, tile)
        self.started.add(seat)
        self.seen.add(tile)
        self.cf_taken = self.cf_taken or tile in self.cf_tiles
        if status is CHONGFENG:
            members = rounds.get(tile)
            if members is not None:
                members.add(seat)  # DS: a 冲锋 inside an open round closes it next time too
        elif status is HENGJI:
            joined = rounds.setdefault(tile, set())
            assert joined is not None
            joined.add(seat)
        return status

    def next_status(self, seat: int, tile: int) -> Status | None:
        """What ``seat``'s discard of ``tile`` would be if it came next (None: no chicken);
        nothing changes."""
        if tile not in self.table:
            return None
        if tile in self.cf_tiles:
            if self.cf_round_any:
                first = not self.cf_taken
            elif self.cf_round:
                first = tile not in self.seen
            else:
                first = seat not in self.started
            if first:
                return CHONGFENG
        if tile in self.hj_tiles:
            members = self.rounds.get(tile, set())
            if members is not None and seat not in members:  # its round is open (or none yet)
                return HENGJI
        return PLAIN


def status_value(status: Status, c: Chicken, p: ChickenParams | ChickenTerms) -> int:
    """A discarded chicken's own value: 冲锋 and 横鸡 multiply the tile's value (not golden)."""
    if status is CHONGFENG:
        cf = terms(p).chongfeng
        if cf is not None:
            return cf.multiplier * c.base
    elif status is HENGJI:
        hj = terms(p).hengji
        if hj is not None:
            return hj.multiplier * c.base
    return c.base


def chongfeng_multipliers(p: ChickenParams | ChickenTerms, first_round: bool) -> tuple[int, int]:
    """(multiplier, golden multiplier) of a 冲锋鸡: the 首圈 ones for a 冲锋 in the first
    go-round where the variant sets them (FW idx 14), else the 冲锋 ones."""
    cf = terms(p).chongfeng
    assert cf is not None
    if first_round and cf.shouquan is not None:
        sq = cf.shouquan
        return sq.multiplier, sq.golden_multiplier or sq.multiplier
    return cf.multiplier, cf.golden_multiplier


def chongfeng_value(
    c: Chicken, p: ChickenParams | ChickenTerms, first_round: bool, tags: tuple[str, ...] = ()
) -> tuple[int, str, Fact]:
    """(amount, item, fact) of a 冲锋鸡 on ``c``: its tile, base value (``each``) and
    multiplier, golden or not, the variant's name of it (冲锋鸡 / 英雄鸡 / 首圈鸡); ``tags``
    say how it was made (``own``: a player's own first discard; ``claimed``/``claimer``)."""
    t = terms(p)
    cf = t.chongfeng
    assert cf is not None
    plain_mult, golden_mult = chongfeng_multipliers(t, first_round)
    mult = golden_mult if c.golden else plain_mult
    item, label, kind = "ji.chongfeng", cf.label, "chongfeng"
    if first_round and cf.shouquan is not None:
        item, label, kind = "ji.shouquan", cf.shouquan.label, "shouquan"
        tags = (*tags, "chongfeng")
    if cf.first == "own":
        tags = (*tags, "own")
    elif cf.first == "round_any":
        tags = (*tags, "shared")
    # ``fact(tiles=, each=, multiplier=, golden=, name=, kind=, tags=)`` by position (a
    # keyword call into the ledger's group is matched by name, issue 29)
    f = fact_at(
        (c.kind,),  # tiles
        None,  # count
        c.base,  # each
        mult,  # multiplier
        c.golden,  # golden
        None,  # pattern
        label,  # name
        None,  # name_en
        None,  # fan
        (),  # factors
        kind,
        None,  # seat
        None,  # for_seat
        None,  # revealed
        None,  # discarded
        None,  # extra
        None,  # netted
        None,  # mark
        tags,
    )
    return mult * c.base, item, f


def chongfeng(
    end: RoundEnd,
    table: Mapping[int, Chicken],
    status: dict[int, Status],
    ready: list[bool],
    p: ChickenParams | ChickenTerms,
) -> list[Special]:
    """Every 冲锋鸡 of the round with its owner."""
    t = terms(p)
    cf = t.chongfeng
    if cf is None:
        return []
    firsts = first_go_round(end)
    out = []
    for i, st in status.items():
        if st is not CHONGFENG:
            continue
        d = end.discards[i]
        tags: tuple[str, ...] = ()
        if d.claimed_by is None:
            owner = d.seat
        elif d.claim is None:
            continue  # won on: no 冲锋 (捉炮鸡 gives the winner its value, see ownership)
        elif cf.claimed == "claimer":
            owner = d.claimed_by if ready[d.claimed_by] else d.seat
            tags = ("claimed", "claimer") if owner == d.claimed_by else ("claimed",)
        else:
            continue  # punged or konged: 责任鸡, not 冲锋
        amount, item, f = chongfeng_value(table[d.tile], t, i < firsts, tags)
        out.append(Special(owner, None, amount, item, f))
    return out


def zeren(
    end: RoundEnd,
    table: Mapping[int, Chicken],
    status: dict[int, Status],
    p: ChickenParams | ChickenTerms,
) -> list[Special]:
    """Every 责任鸡 of the round: (discarder, claimer, amount)."""
    t = terms(p)
    zr = t.zeren
    if zr is None:
        return []
    kinds = zr.kinds if zr.kinds is not None else tiles_of(zr.tiles, table)
    firsts = first_go_round(end)
    first_index: dict[int, int] = {}
    out = []
    # every discarded chicken is in ``status``: the first discard of a chicken kind is there
    for i in sorted(status):
        d = end.discards[i]
        first_index.setdefault(d.tile, i)
        if d.claim is None or d.claimed_by is None or d.tile not in kinds:
            continue
        if zr.claims == "first" and first_index[d.tile] != i:
            continue
        c = table[d.tile]
        tiles = (c.kind,)
        if zr.shouquan is not None and i < firsts:
            sq = zr.shouquan
            amount, item = sq.multiplier * c.base, "ji.shouquan"
            f = fact(
                tiles=tiles,
                kind="shouquan",
                each=c.base,
                multiplier=sq.multiplier,
                name=sq.label,
                tags=("zeren",),
            )
        elif zr.premium:
            st = status.get(i, PLAIN)
            amount, item = status_value(st, c, t) - c.base, "ji.zeren"
            f = fact(tiles=tiles, kind="zeren", each=c.base, fan=amount, tags=("premium", st.value))
        else:
            amount, item = zr.extra * c.base, "ji.zeren"
            f = fact(tiles=tiles, kind="zeren", each=c.base, multiplier=zr.extra)
        if amount or zr.claimer_pays_back == "face_and_amount":
            out.append(Special(d.seat, d.claimed_by, amount, item, f, c.base))
    return out
