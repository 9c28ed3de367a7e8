"""Dou — kongs (``settle.dou``): 闷豆, 点豆, 转弯豆, 憨包豆, 见豆三.

Sources: seed 000 特殊玩法规则 12)–14) (点豆 1 from the feeder, 闷豆 2 and 转弯豆 1 from each
other player) and 17) (黄庄: "所有的豆都不会再计算"); seed 001 豆 (闷豆 3 or 2, 转弯豆 3,
点豆 1, 见豆三, 憨包豆 "沒有倍數,只有通行證", "得豆的玩家必須聽牌或胡牌才能獲得豆應得相應分數");
seed 004 豆 (点 1, 闷 2, 转弯 3; a kong not made when first possible scores nothing later).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final, Literal

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.bound import BoundRules
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import Fact, fact
from zhuoji.contract.pricing import DOU, Decision, Ends, Pricer
from zhuoji.outcome import Meld, MeldKind, RoundEnd, WinHow
from zhuoji.rules.needs import KONGS, Because, IsNot, Set, all_of
from zhuoji.rules.registry import Params, Phase, Point, Words, register
from zhuoji.tiles import TILE_PATTERN, parse_one

Tile = Annotated[str, Field(pattern=TILE_PATTERN)]


class DouValues(Params):
    concealed: int = Field(
        2, ge=0, le=1000, title="闷豆 value", description="from each other player"
    )
    exposed: int = Field(
        1, ge=0, le=1000, title="点豆 value", description="from the feeder (see exposed_paid_by)"
    )
    added: int = Field(1, ge=0, le=1000, title="转弯豆 value", description="from each other player")


class DouParams(Params):
    values: DouValues = Field(
        default_factory=DouValues, title="dou values", description="what each kong kind pays"
    )
    jiandousan: bool = Field(
        False,
        title="见豆三",
        description="every kind of dou pays jiandousan_value (seed 001 见豆三)",
    )
    jiandousan_value: int = Field(
        3,
        ge=0,
        le=1000,
        title="见豆三 value",
        description="what every dou pays when jiandousan is on",
    )
    exposed_paid_by: Literal["feeder", "all", "konger"] = Field(
        "feeder",
        title="点豆 paid by",
        description="feeder: the discarder pays the konger; all: every other player; "
        "konger: the konger pays the feeder",
    )
    requires_ready: Literal["none", "at_end", "ever"] = Field(
        "at_end",
        title="dou needs 叫",
        description="a kong scores only if its owner is ready or wins at the end (seed 001), was ever ready, or always",
    )
    unready_pays: bool = Field(
        False,
        title="unready konger pays (包杠)",
        description="a kong that does not score (its owner not ready) is paid the other way: "
        "the konger pays those who would have paid him (包杠, CITIES.md 独山 / 黔西)",
    )
    unready_pays_to: Literal["all", "ready"] = Field(
        "all",
        title="包杠 payees",
        description="with unready_pays: all — every player who would have paid him, ready or "
        "not (CITIES.md 黔西/金沙 BaoKongNeedTing=false); ready — only those who are ready",
    )
    unready_pays_tiles: list[Tile] | None = Field(
        None,
        title="包杠 tiles",
        description="with unready_pays: only kongs of these tiles are paid back (包杠幺鸡: "
        "[1s], CITIES.md 毕节, FW EnableBaoKongBam1); null: every kong",
    )
    unready_pays_on: list[Literal["self_draw", "discard", "draw"]] | None = Field(
        None,
        title="包杠 on",
        description="with unready_pays: the round ends an unready konger pays his kongs back "
        "on — a win by self-draw, a win on a discard (or a robbed kong), a drawn round (DS "
        "§11.3 流局包杠, huang_baogang: paid even where no kong scores on a draw).  [self_draw] "
        "is 包杠 on self-draws, a reading (docs/variants.md).  null: every win, and a draw "
        "where void_on_draw is off",
    )
    late_value: int = Field(
        0,
        ge=0,
        le=1000,
        title="憨包豆 value",
        description="a late kong's value from each other player (0: pass only)",
    )
    void_on_draw: bool = Field(
        True, title="void on draw", description="no dou scores when nobody wins (黄庄)"
    )


_ITEMS = {
    MeldKind.GANG_CONCEALED: "dou.men",
    MeldKind.GANG_EXPOSED: "dou.dian",
    MeldKind.GANG_ADDED: "dou.zhuanwan",
}


LABELS = {
    "dou.men": ("闷豆", "concealed kong"),
    "dou.dian": ("点豆", "kong on a discard"),
    "dou.zhuanwan": ("转弯豆", "added kong"),
    "dou.hanbao": ("憨包豆", "late kong"),
}


_NOT_JIANDOUSAN = Because(
    IsNot("settle:dou.jiandousan", True), "见豆三 sets every value (settle.dou.jiandousan)"
)
_EXPOSED = Because(Set("claims.kongs.exposed"), "no kong on a discard (claims.kongs.exposed)")
NEEDS = {
    "": KONGS,
    "values.concealed": all_of(
        Because(Set("claims.kongs.concealed"), "no concealed kong (claims.kongs.concealed)"),
        _NOT_JIANDOUSAN,
    ),
    "values.exposed": all_of(_EXPOSED, _NOT_JIANDOUSAN),
    "values.added": all_of(
        Because(Set("claims.kongs.added"), "no added kong (claims.kongs.added)"), _NOT_JIANDOUSAN
    ),
    "exposed_paid_by": _EXPOSED,
    "jiandousan_value": Because(Set("settle:dou.jiandousan"), "settle.dou.jiandousan is off"),
    "unready_pays": Because(
        IsNot("settle:dou.requires_ready", "none"),
        "every kong scores, ready or not (settle.dou.requires_ready: none)",
    ),
    "unready_pays_to": Because(Set("settle:dou.unready_pays"), "settle.dou.unready_pays is off"),
    "unready_pays_tiles": Because(Set("settle:dou.unready_pays"), "settle.dou.unready_pays is off"),
    "unready_pays_on": Because(Set("settle:dou.unready_pays"), "settle.dou.unready_pays is off"),
}


#: the kinds of meld that are kongs (what ``MeldKind.is_kong`` says, read once: it is a Python
#: property, and settlement asks it of every meld of every round; issue 29)
_KONG_KINDS: Final = frozenset(k for k in MeldKind if k.is_kong)
# enum members as module constants (read off their class, each goes through the enum type's
# ``__getattr__``)
_SELF_DRAW: Final = WinHow.SELF_DRAW
_GANG_EXPOSED: Final = MeldKind.GANG_EXPOSED
_GANG_CONCEALED: Final = MeldKind.GANG_CONCEALED
_GANG_ADDED: Final = MeldKind.GANG_ADDED


def round_end_kind(end: RoundEnd) -> str:
    """How the round ended, as ``unready_pays_on`` names it: ``draw``, ``self_draw`` (a win
    by self-draw), or ``discard`` (a win on a discard or on a robbed kong)."""
    if end.is_draw:
        return "draw"
    return "self_draw" if any(w.how is _SELF_DRAW for w in end.wins) else "discard"


def pays_back_on(p: DouParams, kind: str) -> bool:
    """Whether an unready konger pays his kongs back (包杠) when the round ends ``kind``-wise
    (:func:`round_end_kind`): ``unready_pays_on`` where given, else on every win, and on a
    draw where kongs score then (``void_on_draw`` off)."""
    if not p.unready_pays:
        return False
    if p.unready_pays_on is not None:
        return kind in p.unready_pays_on
    return kind != "draw" or not p.void_on_draw


#: each dou item's rule in a sentence
_RULES = {
    "dou.men": (
        "闷豆：暗杠，四张都是自己摸的",
        "concealed kong: all four tiles drawn by its owner",
    ),
    "dou.dian": ("点豆：杠别人打出的牌", "kong on another player's discard"),
    "dou.zhuanwan": (
        "转弯豆：碰了以后又摸到第四张补杠",
        "added kong: the fourth tile added to a pung",
    ),
    "dou.hanbao": ("憨包豆：能杠时没杠，后来才杠", "late kong: not made when it first could be"),
}


def dou_words(item: str, f: Fact) -> Words | None:
    """A kong's payment: its tile (``tiles``), kind (``kind``: the meld kind), value
    (``fan``); tags ``jiandousan`` (every dou the same value), ``konger_pays`` (the konger
    pays the feeder), ``back`` (its owner was not ready: paid the other way)."""
    rule = _RULES.get(item)
    if rule is None:
        return None
    tile = f.tiles[0] if f.tiles else None
    zh = f"{T.name(tile)}的杠 {f.fan}" if tile is not None else f"{f.fan}"
    en = f"kong of {T.name_en(tile)} {f.fan}" if tile is not None else f"{f.fan}"
    if "jiandousan" in f.tags:
        zh, en = f"{zh}（见豆三：每种豆都算{f.fan}）", f"{en} (every kind of kong counts {f.fan})"
    if "konger_pays" in f.tags:
        zh, en = f"{zh}，杠的人付给点杠的人", f"{en}; the konger pays the discarder"
    if "back" in f.tags:
        zh, en = f"{zh}，杠的人没叫嘴，反赔", f"{en}; its owner was not ready: he pays it back"
    return Words(zh, en, *rule)


def kong_value(p: DouParams, meld: Meld) -> int:
    """What kong ``meld`` is worth from each payer: a late kong's value (憨包豆), 见豆三's, or
    its kind's (闷豆 / 点豆 / 转弯豆) — read by the payment and by :func:`kong_collects`."""
    if meld.late:
        return p.late_value
    if p.jiandousan:
        return p.jiandousan_value
    # by kind, without a dict of the three built per call (its keys read off the enum class)
    values = p.values
    kind = meld.kind
    if kind is _GANG_CONCEALED:
        return values.concealed
    if kind is _GANG_EXPOSED:
        return values.exposed
    if kind is _GANG_ADDED:
        return values.added
    raise KeyError(kind)  # no kong: it has no value (as the kind's table had none)


def kong_collects(p: DouParams, meld: Meld, others: int) -> int:
    """What kong ``meld`` collects in all when it scores, as :func:`settle_dou` pays it: its
    kind's value (见豆三's, a late kong's) from the feeder alone (a 点豆 paid by its feeder)
    or from each of the ``others``.  0 for a meld that is no kong, or a 点豆 the konger pays
    (``exposed_paid_by: konger``).  The 热炮 rule that pays a burnt kong to the winner
    (``settle.burn.repao.kong_to_winner``, :mod:`zhuoji.rules.burn`) asks it."""
    if not meld.is_kong:
        return 0
    value = kong_value(p, meld)
    if meld.late:
        return value * others
    if meld.kind is _GANG_EXPOSED:
        return {"feeder": value, "all": value * others, "konger": 0}[p.exposed_paid_by]
    return value * others


class DouPricer(Pricer):
    """Kongs to a seat deciding, as :func:`settle_dou` pays them: what a kong collects by
    kind (见豆三 sets one value; a 点豆 from its feeder or from all), whether it scores only
    for a ready owner, 包杠 (an unready owner pays his kongs back: to every payer or the
    ready ones, for every kong or the tiles named), 憨包豆, and no dou after a draw
    (``void_on_draw``).  A 烧 voids the dou (:data:`zhuoji.contract.pricing.DOU`)."""

    burnt_as = DOU

    def __init__(self, p: DouParams, rules: BoundRules) -> None:
        same = p.jiandousan_value if p.jiandousan else None
        self.concealed = same if same is not None else p.values.concealed
        self.exposed = same if same is not None else p.values.exposed
        self.added = same if same is not None else p.values.added
        self.exposed_from_feeder = p.exposed_paid_by == "feeder"  # 点豆 paid by the feeder alone
        self.needs_ready = p.requires_ready != "none"
        self.late_value = p.late_value
        self.void_on_draw = p.void_on_draw
        self.unready_pays = p.unready_pays
        self.unready_pays_ready = p.unready_pays_to == "ready"
        #: 包杠 on another's win by self-draw, on a discard, on a draw (``unready_pays_on``)
        self.back_on_self_draw = pays_back_on(p, "self_draw")
        self.back_on_discard = pays_back_on(p, "discard")
        self.back_on_draw = pays_back_on(p, "draw")
        tiles = p.unready_pays_tiles
        self.unready_pays_tiles = None if tiles is None else frozenset(parse_one(t) for t in tiles)
        self.others = rules.players - 1

    def pays_back(self, tile: int) -> bool:
        """Whether an unready owner pays back his kong of ``tile`` (包杠)."""
        return self.unready_pays and (
            self.unready_pays_tiles is None or tile in self.unready_pays_tiles
        )

    @property
    def active(self) -> bool:
        return bool(self.concealed or self.exposed or self.added)

    def owned(self, melds: tuple[Meld, ...]) -> float:
        """What these kongs collect when they score (from all payers)."""
        if not self.active:
            return 0.0
        total = 0.0
        others = self.others
        for m in melds:
            if not m.kind.is_kong:
                continue
            if m.late:
                total += self.late_value * others
            elif m.kind is MeldKind.GANG_CONCEALED:
                total += self.concealed * others
            elif m.kind is MeldKind.GANG_ADDED:
                total += self.added * others
            else:
                total += self.exposed * (1 if self.exposed_from_feeder else others)
        return total

    def decide(self, d: Decision) -> Pricer:
        return DouSeat(self, d)


class DouSeat(Pricer):
    """:class:`DouPricer` for one decision: this seat's kongs now, and the ready opponents
    a 包杠 is paid back to."""

    burnt_as = DOU
    held_by_melds = True  # :meth:`held` reads the melds alone

    def __init__(self, rule: DouPricer, d: Decision) -> None:
        self.rule = rule
        self.melds_now = d.own_melds
        self.dou_now = rule.owned(d.own_melds)
        self.ready_opponents = d.ready_opponents
        self._back: dict[tuple[Meld, ...], float] = {}
        #: :meth:`held` of the melds of now, once asked
        self._held_now: Ends | None = None
        #: the share of another's wins a 包杠 is owed on (``unready_pays_on``)
        share = d.other_self_draw_share
        on_self, on_discard = rule.back_on_self_draw, rule.back_on_discard
        self.back_share = (
            1.0
            if on_self and on_discard
            else share
            if on_self
            else 1.0 - share
            if on_discard
            else 0.0
        )

    def owned(self, melds: tuple[Meld, ...]) -> float:
        """What the kongs among ``melds`` collect: those of now, and a new one (a kong
        replaces a pung, or is added, at the end)."""
        if melds is self.melds_now or not self.rule.active:
            return self.dou_now
        return self.rule.owned(melds)

    def dou_back(self, melds: tuple[Meld, ...]) -> float:
        """包杠 (``dou.unready_pays``, CITIES.md 黔西/毕节/独山): what this seat pays back for
        its kongs if it ends unready — each kong of a paid-back tile at its value, to every
        payer or (``unready_pays_to: ready``) the ready ones."""
        rule = self.rule
        if not rule.unready_pays or not rule.needs_ready:
            return 0.0
        got = self._back.get(melds)
        if got is not None:
            return got
        others = rule.others
        payees = self.ready_opponents if rule.unready_pays_ready else float(others)
        total = 0.0
        for m in melds:
            if not m.kind.is_kong or not rule.pays_back(m.tile):
                continue
            if m.late:
                total += rule.late_value * payees
            elif m.kind is MeldKind.GANG_CONCEALED:
                total += rule.concealed * payees
            elif m.kind is MeldKind.GANG_ADDED:
                total += rule.added * payees
            else:
                total += rule.exposed * (payees / others if rule.exposed_from_feeder else payees)
        self._back[melds] = total
        return total

    def held(self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int) -> Ends:
        """:meth:`price_held`, kept for the melds of now: it reads only the melds (and what
        is fixed for the decision), and most options of a decision keep the seat's melds."""
        if melds is self.melds_now:
            got = self._held_now
            if got is None:
                got = self._held_now = self.price_held(melds)
            return got
        return self.price_held(melds)

    def price_held(self, melds: tuple[Meld, ...]) -> Ends:
        """A win: the dou; another wins: the dou if ready (or if it needs no 叫), less the
        包杠 if not (on the share of wins ``unready_pays_on`` names); a draw: the dou unless
        ``void_on_draw`` (seed 000 17), less the 包杠 if not ready where it is owed then."""
        rule = self.rule
        dou = self.owned(melds)
        ready = dou if rule.needs_ready else 0.0
        back = self.dou_back(melds) if rule.needs_ready else 0.0
        unready = -back * self.back_share if rule.needs_ready else dou
        draw_ready = draw_unready = 0.0
        if dou and not rule.void_on_draw:
            draw_ready = dou
            draw_unready = dou if not rule.needs_ready else 0.0
        if back and rule.back_on_draw:
            draw_unready = -back
        return dou, ready, unready, draw_ready, draw_unready


@register(
    Point.SETTLE,
    "dou",
    DouParams,
    phase=Phase.DOU,
    title="豆",
    labels=LABELS,
    needs=NEEDS,
    words=dou_words,
    pricer=DouPricer,
)
def settle_dou(ctx: SettleContext, p: DouParams) -> None:
    """Pay each kong by kind; late kongs (憨包) at ``late_value``; burnt owners' kongs void;
    an unready owner's paid back (包杠) on the round ends ``unready_pays_on`` names."""
    end = ctx.end
    # the kongs, seat by seat in meld order: a round without one pays nothing here, and most
    # rounds have none (what follows reads the parameters, pydantic attributes; issue 29)
    kongs = [
        (s, seat, meld)
        for s, seat in enumerate(end.seats)
        for meld in seat.melds
        if meld.kind in _KONG_KINDS
    ]
    if not kongs:
        return
    kongs_score = not (end.is_draw and p.void_on_draw)
    back_now = pays_back_on(p, round_end_kind(end))
    if not kongs_score and not back_now:
        return
    pays_back = (
        None if p.unready_pays_tiles is None else {parse_one(t) for t in p.unready_pays_tiles}
    )
    for s, seat, meld in kongs:
        if ctx.kong_burnt(s, meld):
            continue
        scores = {
            "none": True,
            "at_end": ctx.ready[s],
            "ever": ctx.ready[s] or seat.ever_ready,
        }[p.requires_ready]
        if scores and not kongs_score:
            continue  # 黄庄: no kong scores (DS 流局包杠 pays only the unready back)
        if not scores and not (back_now and (pays_back is None or meld.tile in pays_back)):
            continue
        item = "dou.hanbao" if meld.late else _ITEMS[meld.kind]
        value = kong_value(p, meld)
        if not value:
            continue
        if meld.kind is _GANG_EXPOSED and not meld.late and p.exposed_paid_by != "all":
            assert meld.source is not None
            pairs = [(meld.source, s)] if p.exposed_paid_by == "feeder" else [(s, meld.source)]
        else:
            pairs = [(o, s) for o in ctx.others(s)]
        tags = (
            *(("jiandousan",) if p.jiandousan and not meld.late else ()),
            *(("konger_pays",) if pairs and pairs[0][0] == s else ()),
            *(() if scores else ("back",)),
        )
        f = fact(tiles=(meld.tile,), kind=meld.kind.value, fan=value, seat=s, tags=tags)
        for payer, payee in pairs:
            if scores:
                ctx.pay(payer, payee, value, item, fact=f)
            elif p.unready_pays_to == "all" or ctx.ready[payer]:
                ctx.pay(payee, payer, value, item, fact=f)
