"""Liability (包牌 / 包付): one player pays for others.

* ``baopai`` — seed 000 胡牌算番规则 18), seed 001 特殊規則 1: a ready player who passed a win
  on a discard and wins on another discard before drawing again pays each other player his
  hand's value instead of collecting it.
* ``xianggong`` — seed 001 特殊規則 1 (相公包牌, wrong tile count: "大家沒有聽牌情況下付給3家
  2倍的錢,如果聽牌則按聽牌倍數付"): pays each other player ``value``, or a ready value.
* ``peng_sets`` — seed 003 碰3对/碰4对: when another player wins, a player with three (four)
  pungs or exposed kongs pays what the others lose.
* ``twelve_down`` — seed 002 十二张落地包自摸: the player who fed the fourth meld of a hand that
  then self-draws pays the other players' shares (例二: optionally only for the first hand he
  brought to twelve down).
* ``kong_feeder`` — seed 002 杠开 包牌状态: a win on the replacement of a kong made on a discard
  is paid entirely by that discard's player.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zhuoji.contract.bound import BoundRules
from zhuoji.contract.checks import Problem, rule
from zhuoji.contract.context import DouBurn, SettleContext
from zhuoji.contract.ledger import FOR, PAYER, SEAT, Fact, Remark, fact, with_fact
from zhuoji.contract.pricing import NO_ENDS, Decision, Ends, Pricer
from zhuoji.outcome import Meld, MeldKind, RoundEnd, Win, WinHow
from zhuoji.rules.burn import burn_words
from zhuoji.rules.hu import value_fact
from zhuoji.rules.needs import WINS_ON_DISCARD, Because, Set
from zhuoji.rules.patterns import HandValue
from zhuoji.rules.registry import Params, Phase, Point, Words, register

#: the liability rules that take over a win's payment (``Fact.kind``), in a sentence
_TAKE_OVER = {
    "peng_sets": (
        "碰三对包付：别人胡牌时，碰出{count}副的人包付",
        "liability: when another player wins, the one with {count} claimed sets pays for all",
    ),
    "twelve_down": (
        "十二张落地包自摸：给自摸的人喂了第四副牌的人包付",
        "twelve tiles down: whoever fed the self-drawer's fourth meld pays for all",
    ),
    "kong_feeder": (
        "杠开包牌：杠上开花时，点杠的人包付",
        "won on the replacement of a kong made on a discard: that discarder pays for all",
    ),
}


def liability_words(item: str, f: Fact) -> Words | None:
    """A win's payment taken over (``kind`` the rule, ``seat`` the winner, ``for_seat`` whose
    share the payer pays, ``count`` the claimed sets); its void reason (tag ``instead``)."""
    zh, en = _TAKE_OVER.get(f.kind or "", ("包付", "liability"))
    zh, en = zh.replace("{count}", str(f.count)), en.replace("{count}", str(f.count))
    if "instead" in f.tags:
        return Words(f"改由{SEAT}付", f"{SEAT} pays it instead", zh, en)
    return Words(
        f"{PAYER}替{FOR}付{SEAT}胡牌的份", f"{PAYER} pays {FOR}'s share of {SEAT}'s win", zh, en
    )


def transfer_win(
    ctx: SettleContext, win: Win, liable: int, item: str, why: str, count: int | None = None
) -> None:
    """``liable`` pays ``win``'s winner every other payer's share of the win: their entries
    stay on record, void (``liable`` pays it), and one entry per former payer moves the same
    units from ``liable`` to the winner.  ``why`` is the rule's case (``Fact.kind``), ``count``
    what it counted."""
    record = ctx.ledger.record
    mine = [i for i in ctx.win_entries.get(win.seat, []) if record[i].payer != liable]
    owed: dict[int, int] = {}
    reason = Remark(ctx.rule, item, fact(kind=why, seat=liable, tags=("instead",), count=count))
    for e in ctx.ledger.void(mine, by=reason):
        owed[e.payer] = owed.get(e.payer, 0) + e.units
    for payer, units in sorted(owed.items()):
        f = fact(kind=why, seat=win.seat, for_seat=payer, count=count)
        ctx.pay(liable, win.seat, units, item, fact=f)


class BaopaiParams(Params):
    multiplier: int = Field(
        1,
        ge=1,
        le=100,
        title="包牌 multiplier",
        description="times the hand's value paid to each other player",
    )


def passed_win_problems(end: RoundEnd, rules: BoundRules, p: BaopaiParams) -> list[Problem]:
    """包牌's fact, ``passed_win``, marks a win made after passing one with no draw between
    (seed 000 18) 「还没有等到再次摸牌，又有一名玩家来点炮」): a self-draw follows a draw."""
    return [
        Problem(
            f"result.wins[{k}].passed_win",
            "settle.baopai (包牌)",
            f"seat {w.seat} self-drew, so he drew since any win he passed",
            "seed 000 18) 「还没有等到再次摸牌，又有一名玩家来点炮」",
        )
        for k, w in enumerate(end.wins)
        if w.passed_win and w.how is WinHow.SELF_DRAW
    ]


def baopai_words(item: str, f: Fact) -> Words | None:
    """The winner's hand value (``name``, ``fan``) times ``multiplier``, paid back."""
    times = f" ×{f.multiplier}" if f.multiplier and f.multiplier > 1 else ""
    return Words(
        f"{SEAT}的牌：{f.name}，共{f.fan}{times}",
        f"{SEAT}'s hand: {f.name_en}, {f.fan} in all{times}",
        "包牌：放过胡，没再摸牌就胡了别人打出的牌，反赔每家",
        "he passed a win, then won on a discard before drawing again: he pays everyone instead",
    )


@register(
    Point.SETTLE,
    "baopai",
    BaopaiParams,
    phase=Phase.PENALTY,
    title="包牌",
    labels={"baopai": ("包牌", "liability after passing a win")},
    needs={"": WINS_ON_DISCARD},
    checks=(passed_win_problems,),
    words=baopai_words,
)
def settle_baopai(ctx: SettleContext, p: BaopaiParams) -> None:
    """A winner who passed a win since his last draw pays each other player his value."""
    for win in ctx.end.wins:
        if not win.passed_win or win.how is not WinHow.DISCARD:
            continue
        ctx.void_wins.add(win.seat)
        value = ctx.win_value(win)
        f = value_fact(value, win.seat, "win")
        if p.multiplier != 1:
            f = with_fact(f, multiplier=p.multiplier)
        for other in ctx.others(win.seat):
            ctx.pay(win.seat, other, value.total * p.multiplier, "baopai", fact=f)


class XianggongParams(Params):
    value: int = Field(
        2,
        ge=0,
        le=1000,
        title="相公 value",
        description="paid to each other player when nobody is ready (seed 001: 2倍)",
    )
    when_ready: Literal["value", "own", "others"] = Field(
        "value",
        title="相公 when ready",
        description='seed 001 "如果聽牌則按聽牌倍數付": value — always pay value; own — when the '
        "相公 hand is ready (one tile too many, and some discard leaves it ready) he pays each "
        "other player that hand's best ready value instead; others — each other player who is "
        "ready is paid his own ready value (as in 查叫), the rest value",
    )


def xianggong_words(item: str, f: Fact) -> Words | None:
    """What a 相公 player pays: ``value``, or a ready hand's value (``seat``'s hand: his own,
    tag ``own``, or the payee's)."""
    if item == "burn":
        return burn_words(item, f)
    rule_zh = "相公：手牌张数不对，赔每家"
    rule_en = "wrong tile count: he pays every other player"
    if f.kind == "ready":
        whose_zh, whose_en = ("他自己", "his own") if "own" in f.tags else (SEAT, f"{SEAT}'s")
        return Words(
            f"按{whose_zh}听牌的番：{f.name}，共{f.fan}",
            f"{whose_en} ready value: {f.name_en}, {f.fan} in all",
            rule_zh,
            rule_en,
        )
    return Words(f"{f.fan}", f"{f.fan}", rule_zh, rule_en)


@register(
    Point.SETTLE,
    "xianggong",
    XianggongParams,
    phase=Phase.PENALTY,
    title="相公",
    labels={"xianggong": ("相公", "wrong tile count")},
    words=xianggong_words,
)
def settle_xianggong(ctx: SettleContext, p: XianggongParams) -> None:
    """A 相公 (wrong tile count) player pays each other player ``value``, or a ready value as
    ``when_ready`` says; he cannot collect."""
    for s, seat in enumerate(ctx.end.seats):
        if not seat.xianggong:
            continue
        ctx.burn(s, chickens=True, dou=DouBurn.ALL, why="xianggong")
        own = _xianggong_ready_value(ctx, s) if p.when_ready == "own" else None
        own_fact = None if own is None else with_fact(value_fact(own, s, "ready"), tags=("own",))
        plain = fact(kind="value", fan=p.value)
        for other in ctx.others(s):
            value, f = own, own_fact
            if p.when_ready == "others" and ctx.ready[other]:
                value = ctx.ready_value(other)
                f = None if value is None else value_fact(value, other, "ready")
            if value is not None and f is not None:
                ctx.pay(s, other, value.total, "xianggong", fact=f)
            else:
                ctx.pay(s, other, p.value, "xianggong", fact=plain)


def _xianggong_ready_value(ctx: SettleContext, seat: int) -> HandValue | None:
    """The best ready value of a 相公 hand holding one tile too many, over the tiles he might
    discard; None when no discard leaves it ready (a short hand is never ready)."""
    s = ctx.end.seats[seat]
    if len(s.concealed) + 3 * len(s.melds) != ctx.ruleset.variant.tiles.hand_size + 1:
        return None
    counts = s.concealed_counts()
    best: HandValue | None = None
    for k in sorted(set(s.concealed)):
        counts[k] -= 1
        value = ctx.ready_value(seat, counts)
        counts[k] += 1
        if value is not None and (best is None or value.total > best.total):
            best = value
    return best


class PengSetsParams(Params):
    min_sets: int = Field(
        3,
        ge=1,
        le=4,
        title="碰N对 threshold",
        description="pungs or exposed kongs that make a player liable",
    )


LIABILITY_LABELS = {"liability": ("包付", "liability")}


_CLAIMED_SETS = (MeldKind.PENG, MeldKind.GANG_EXPOSED, MeldKind.GANG_ADDED)


class PengSetsPricer(Pricer):
    """碰N对 包付 to a seat deciding: with ``min_sets`` claimed sets it pays, when another
    wins, what the other seats lose to the winner — their plain wins, the bot's estimate."""

    def __init__(self, p: PengSetsParams, rules: object = None) -> None:
        self.min_sets = p.min_sets

    def decide(self, d: Decision) -> Pricer:
        return _PengSetsSeat(self.min_sets, d.typical_loss * (d.players - 2))


class _PengSetsSeat(Pricer):
    def __init__(self, min_sets: int, loss: float) -> None:
        self.min_sets = min_sets
        self.ends: Ends = (0.0, -loss, -loss, 0.0, 0.0)

    def owed(self, melds: tuple[Meld, ...], declared: bool) -> Ends:
        claimed = sum(1 for m in melds if m.kind in _CLAIMED_SETS)
        return self.ends if claimed >= self.min_sets else NO_ENDS


@register(
    Point.SETTLE,
    "peng_sets",
    PengSetsParams,
    phase=Phase.LIABILITY,
    title="碰三对包付",
    labels=LIABILITY_LABELS,
    words=liability_words,
    needs={"": Because(Set("claims.peng"), "nobody can pung (claims.peng is off)")},
    pricer=PengSetsPricer,
)
def settle_peng_sets(ctx: SettleContext, p: PengSetsParams) -> None:
    """The non-winner with the most claimed sets (at least ``min_sets``) pays the others' loss."""
    for win in ctx.end.wins:
        best: tuple[int, int] | None = None
        for step in range(1, ctx.players):
            s = (win.seat + step) % ctx.players
            n = sum(
                1
                for m in ctx.end.seats[s].melds
                if m.kind in (MeldKind.PENG, MeldKind.GANG_EXPOSED, MeldKind.GANG_ADDED)
            )
            if n >= p.min_sets and (best is None or n > best[1]):
                best = (s, n)
        if best is not None:
            transfer_win(ctx, win, best[0], "liability", "peng_sets", best[1])


class TwelveDownParams(Params):
    feeder_liable: Literal["every", "first"] = Field(
        "every",
        title="十二张落地 feeder liable for",
        description="every: a feeder pays for each hand whose fourth meld he fed; first: only "
        "for the first hand he brought to twelve down, by the order of the feeding discards "
        "(seed 002 例二 「玩家A放一张让玩家 B 12张/例牌达成，及后玩家A再放一张让玩家C或D 12张/例牌"
        "达成，此时只有玩家A必要承担包玩家B自模的使命．C和D 则不在此条例张制。」)",
    )


_TWELVE_DOWN_SOURCE = "seed 002 包自摸规则 十二张落地 例二"


def _fed_fourth(end: RoundEnd, seat: int) -> Meld | None:
    """The seat's fourth meld when another player fed it (十二张落地), else None."""
    melds = end.seats[seat].melds
    if len(melds) < 4:
        return None
    fourth = melds[3]
    if not fourth.kind.claimed or fourth.source is None or fourth.source == seat:
        return None
    return fourth


def _feed_index(end: RoundEnd, seat: int, meld: Meld) -> int | None:
    """The index in ``end.discards`` of the discard ``seat`` claimed to make ``meld`` (a pung
    since extended to an added kong included); None when the round end does not list it."""
    for j, d in enumerate(end.discards):
        if d.claimed_by != seat or d.seat != meld.source or d.claim is None:
            continue
        if meld.kind is MeldKind.CHI:
            if d.claim is MeldKind.CHI and d.tile in meld.tiles and meld.claimed in (None, d.tile):
                return j
        elif d.tile == meld.tile and d.claim is not MeldKind.CHI:
            return j
    return None


def _twins(end: RoundEnd, seat: int, feeder: int) -> list[int]:
    """The other seats whose fourth meld ``feeder`` fed too."""
    out = []
    for s in range(end.players):
        m = _fed_fourth(end, s) if s != seat else None
        if m is not None and m.source == feeder:
            out.append(s)
    return out


def twelve_down_order_problems(
    end: RoundEnd, rules: BoundRules, p: TwelveDownParams
) -> list[Problem]:
    """With ``feeder_liable: first``, a self-drawn twelve-down hand whose feeder also fed
    another hand's fourth meld is paid by him only when his feed to it came first: the round
    end lists both feeding discards (``discards[].claimed_by``), so their order is known."""
    if p.feeder_liable != "first":
        return []
    out = []
    for k, win in enumerate(end.wins):
        fourth = _fed_fourth(end, win.seat)
        if win.how is not WinHow.SELF_DRAW or fourth is None or fourth.source is None:
            continue
        twins = _twins(end, win.seat, fourth.source)
        for s in [win.seat, *twins] if twins else []:
            meld = end.seats[s].melds[3]
            if _feed_index(end, s, meld) is None:
                out.append(
                    Problem(
                        f"seats[{s}].melds[3]",
                        rule("settle.twelve_down.feeder_liable", "first"),
                        f"seat {fourth.source} fed the fourth meld of seats "
                        f"{', '.join(str(t) for t in sorted([win.seat, *twins]))}, so the "
                        f"order of his feeds decides who pays for seat {win.seat}'s "
                        f"self-draw (result.wins[{k}]): list the discard seat {s} claimed "
                        f"for it in discards, with claimed_by and claim",
                        _TWELVE_DOWN_SOURCE,
                    )
                )
    return out


def first_feed(end: RoundEnd, seat: int) -> bool:
    """Whether the feeder of ``seat``'s fourth meld brought no other hand to twelve down
    before it (by the order of the feeding discards)."""
    fourth = _fed_fourth(end, seat)
    assert fourth is not None and fourth.source is not None
    own = _feed_index(end, seat, fourth)
    for s in _twins(end, seat, fourth.source):
        other = _feed_index(end, s, end.seats[s].melds[3])
        if own is None or other is None:  # refused by twelve_down_order_problems
            raise AssertionError("a twelve-down feed missing from the discards")
        if other < own:
            return False
    return True


@register(
    Point.SETTLE,
    "twelve_down",
    TwelveDownParams,
    phase=Phase.LIABILITY,
    title="十二张落地包自摸",
    labels=LIABILITY_LABELS,
    words=liability_words,
    checks=(twelve_down_order_problems,),
)
def settle_twelve_down(ctx: SettleContext, p: TwelveDownParams) -> None:
    """The feeder of a self-drawing winner's fourth meld pays the other shares (with
    ``feeder_liable: first``, only for the first hand he brought to twelve down)."""
    for win in ctx.end.wins:
        fourth = _fed_fourth(ctx.end, win.seat)
        if win.how is not WinHow.SELF_DRAW or fourth is None or fourth.source is None:
            continue
        if p.feeder_liable == "first" and not first_feed(ctx.end, win.seat):
            continue
        transfer_win(ctx, win, fourth.source, "liability", "twelve_down")


class KongFeederParams(Params):
    """No parameters: the rule is on or off."""


def kong_behind_gangkai(end: RoundEnd, rules: BoundRules, p: KongFeederParams) -> list[Problem]:
    """杠开 包牌 asks which kong the winning replacement came from: a 杠开 win names it in
    ``kong_tile`` (seed 002 九 「包牌状态：由打出杠牌的人包付三家帐」)."""
    if not end.gangkai or end.kong_tile is not None or not end.wins:
        return []
    return [
        Problem(
            "result.kong_tile",
            "settle.kong_feeder (杠开包牌)",
            "a 杠开 win names the kong whose replacement it was, as its feeder pays",
            "seed 002 九 「包牌状态：由打出杠牌的人包付三家帐」",
        )
    ]


@register(
    Point.SETTLE,
    "kong_feeder",
    KongFeederParams,
    phase=Phase.LIABILITY,
    title="杠开包牌",
    labels=LIABILITY_LABELS,
    words=liability_words,
    needs={"": Because(Set("claims.kongs.exposed"), "no kong on a discard (claims.kongs.exposed)")},
    checks=(kong_behind_gangkai,),
)
def settle_kong_feeder(ctx: SettleContext, p: KongFeederParams) -> None:
    """杠开 on a kong made on a discard: that discard's player pays all shares."""
    end = ctx.end
    if not end.gangkai or end.kong_tile is None:
        return
    for win in end.wins:
        for m in end.seats[win.seat].melds:
            if m.kind is MeldKind.GANG_EXPOSED and m.tile == end.kong_tile and m.source is not None:
                transfer_win(ctx, win, m.source, "liability", "kong_feeder")
