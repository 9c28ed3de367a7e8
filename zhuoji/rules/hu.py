"""Win payment (``settle.hu``): the hand's value, 报听, the dealer's part, who pays.

Sources: seed 000 连庄规则 ("庄家都需要赔付牌型基础番+连庄番"), seed 001 结算规则 ("自摸胡牌,
其他3家都要付;点胡,点炮者单独付"), seed 000/001/004 抢杠 ("被抢杠的玩家需要赔付三家的牌"),
seed 004 连庄记分 ("庄两番起算"), seed 003 结算规则 ("(底番+牌型嘴数)*基础银子").

Each payer's share is the hand's components (pattern rows, bonuses) plus, where the dealer
pays or wins, ``dealer_bonus`` + streak × ``streak_bonus`` (else ``other_bonus``), all
paid in units (the ledger applies the table's stake).  One ledger entry per component and
payer keeps it explainable.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.bound import BoundRules
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import FOR, Fact, fact
from zhuoji.contract.pricing import Decision, Pricer
from zhuoji.rules.hu_kernel import (
    BONUS,
    Part,
    baoting_part,
    dealer_part,
    pay_win,
    robbed_with_dealer_part,
    share_bearers,
    terms_of,
)
from zhuoji.rules.needs import DECLARING, ROBBING, WINS_ON_DISCARD, Because, Set
from zhuoji.rules.patterns import Component, HandValue
from zhuoji.rules.registry import Params, Phase, Point, Words, register


class BaotingPay(Params):
    mode: Literal["none", "add", "floor"] = Field(
        "none",
        title="报听 value mode",
        description="add: a declared winner's hand counts hard/soft more; floor: it counts at "
        'least hard/soft (seed 000 "番数按照十番来计算"); none',
    )
    hard: int = Field(
        10, ge=0, le=1000, title="硬报 value", description="fan for a hard (dealer) declaration"
    )
    soft: int = Field(
        10, ge=0, le=1000, title="软报 value", description="fan for a soft declaration"
    )


class Multipliers(Params):
    """Factors on the hand's value (patterns and 报听, not the dealer part) by how it was won;
    the RULES.md "elsewhere" column's 自摸 ×2, 热炮 ×2, 抢杠 ×4."""

    self_draw: int = Field(
        1, ge=1, le=100, title="自摸 multiplier", description="factor for a self-draw"
    )
    gangkai: int = Field(
        1,
        ge=1,
        le=100,
        title="杠开 multiplier",
        description="factor for a win on a kong replacement",
    )
    repao: int = Field(
        1,
        ge=1,
        le=100,
        title="热炮 multiplier",
        description="factor for a win on a discard after a kong",
    )
    rob_kong: int = Field(
        1, ge=1, le=100, title="抢杠 multiplier", description="factor for robbing a kong"
    )
    dealer_wins: int = Field(
        1,
        ge=1,
        le=100,
        title="庄家翻倍 (dealer wins)",
        description="factor when the dealer wins (庄家翻倍, CITIES.md 凯里: the dealer's win items ×2)",
    )
    dealer_pays: int = Field(
        1,
        ge=1,
        le=100,
        title="庄家翻倍 (dealer pays)",
        description="factor on the share the dealer pays when another player wins",
    )


class HuParams(Params):
    discard_paid_by: Literal["discarder", "all"] = Field(
        "discarder", title="discard win paid by", description="who pays a win on a discard"
    )
    rob_kong_paid_by: Literal["robbed_for_all", "robbed_triple_and_others", "robbed_once"] = Field(
        "robbed_for_all",
        title="抢杠 paid by",
        description="robbed_for_all: the robbed player pays every other player's share (seed "
        '000 16) "被抢杠的玩家需要赔付三家的牌"); robbed_triple_and_others: he pays his share with '
        "the hand's pattern parts (players − 1) times — three times at four players — and the "
        'others pay their own shares (seed 003 24 "被抢杠玩家要支付3倍抢杠玩家的牌形嘴数,其它两位玩家'
        '也要赔付"); robbed_once: he alone pays one share, like a discard (CITIES.md 贵阳 club '
        "table: 抢杠 +9 paid by the robbed player only)",
    )
    rob_kong_as_self_draw: bool = Field(
        True,
        title="抢杠 counts as 自摸",
        description="a robbed kong meets rows that require self_draw",
    )
    rob_kong_dealer_part: Literal["always", "dealer_wins"] = Field(
        "always",
        title="抢杠 dealer part",
        description="always: a robbed kong's shares carry the dealer part (dealer_bonus) where "
        "the dealer pays or wins, as any self-draw; dealer_wins: only when the dealer is the "
        "robbing winner — a non-dealer winner is paid the pattern and the streak, no dealer "
        "part even when the dealer is the one robbed (seed 004 (2) 「闲家被抢杠和,闲自摸,闲家支付"
        "胡牌者牌型分*3+连庄分」)",
    )
    dealer_bonus: int = Field(
        0,
        ge=0,
        le=1000,
        title="dealer part",
        description="added to a share where the dealer pays or wins",
    )
    dealer_bonus_max_pattern: bool = Field(
        False,
        title="dealer part at most the pattern",
        description="the dealer part is at most the hand's pattern fan (seed 004 庄两番: 平胡 2, 大对子 7)",
    )
    streak_bonus: int = Field(
        1,
        ge=0,
        le=1000,
        title="连庄 per streak",
        description="added per 连庄 where the dealer pays or wins",
    )
    other_bonus: int = Field(
        0,
        ge=0,
        le=1000,
        title="non-dealer base",
        description="added to a share where the dealer is not involved",
    )
    multipliers: Multipliers = Field(
        default_factory=Multipliers,
        title="multipliers",
        description="factors on the hand's value by how it was won",
    )
    baoting: BaotingPay = Field(
        default_factory=BaotingPay,
        title="报听 payment",
        description="what a declared (报听) winner's hand adds",
    )


LABELS = {
    "hu.pattern": ("胡牌", "win"),
    "hu.zimo": ("自摸", "self-draw"),
    "hu.gangkai": ("杠开", "win on kong replacement"),
    "hu.repao": ("热炮", "discard after kong"),
    "hu.qianggang": ("抢杠", "robbing a kong"),
    "hu.haidi": ("海底捞月", "last-tile win"),
    "hu.base": ("底分", "base"),
    "hu.bonus": ("加番", "bonus"),
    "lianzhuang": ("连庄", "dealer streak"),
    "baoting": ("报听", "declared ready"),
    # 嘴 rows (zui.kaipai, zui.menqing …): the row names the item in the entry's fields
    "zui": ("嘴", "zui item"),
}

#: the rule behind a pattern row's ledger item (its head for ``zui.*``), in a sentence
_ITEM_RULES: dict[str, tuple[str, str]] = {
    "hu.pattern": ("胡牌，按牌型算番", "a win, paid by the hand's pattern"),
    "hu.zimo": ("自摸：自己摸到胡牌", "self-draw: the winner drew the winning tile"),
    "hu.gangkai": ("杠开：杠后补牌自摸胡牌", "won on the replacement tile after a kong"),
    "hu.repao": ("热炮：杠后打出的牌被胡", "won on a discard made just after a kong"),
    "hu.qianggang": ("抢杠：胡别人补杠的那张牌", "won by robbing another player's added kong"),
    "hu.haidi": ("海底捞月：摸最后一张牌胡", "won on the last tile of the wall"),
    "hu.bonus": ("加番", "a bonus the hand scores"),
    "zui": ("按牌型算嘴", "a point (zui) the hand scores"),
}

#: why a part was multiplied (``Fact.factors`` codes), in words
FACTOR_WORDS: dict[str, tuple[str, str]] = {
    "self_draw": ("自摸", "self-draw"),
    "gangkai": ("杠开", "win on a kong replacement"),
    "repao": ("热炮", "win on a discard after a kong"),
    "rob_kong": ("抢杠", "robbing a kong"),
    "dealer_wins": ("庄家胡牌翻倍", "the dealer wins"),
    "dealer_pays": ("庄家付翻倍", "the dealer pays"),
    "robbed_pays_all": ("被抢杠的人按各家的份付", "the robbed player pays every share"),
}


NEEDS = {
    "discard_paid_by": WINS_ON_DISCARD,
    "multipliers.repao": WINS_ON_DISCARD,
    "rob_kong_paid_by": ROBBING,
    "rob_kong_as_self_draw": ROBBING,
    "rob_kong_dealer_part": ROBBING,
    "multipliers.rob_kong": ROBBING,
    "baoting": DECLARING,
    "dealer_bonus_max_pattern": Because(
        Set("settle:hu.dealer_bonus"), "there is no dealer part (settle.hu.dealer_bonus is 0)"
    ),
}


def factor_words(f: Fact) -> tuple[str, str]:
    """「，×4（自摸 ×2、庄家胡牌翻倍 ×2）」 / ", ×4 (self-draw ×2, the dealer wins ×2)": what
    multiplied a part (``f.factors``), "" when nothing did."""
    if not f.factors:
        return "", ""
    parts = [(FACTOR_WORDS.get(why, (why, why)), n) for why, n in f.factors]
    zh = "、".join(f"{w[0]} ×{n}" for w, n in parts)
    en = ", ".join(f"{w[1]} ×{n}" for w, n in parts)
    return f"，×{f.factor}（{zh}）", f", ×{f.factor} ({en})"


def for_words(f: Fact) -> tuple[str, str]:
    """Whose share the payer pays (``f.for_seat``), "" when his own."""
    if f.for_seat is None:
        return "", ""
    return f"（替{FOR}付）", f" (paying {FOR}'s share)"


def hand_words(f: Fact) -> tuple[str, str]:
    """A hand's pattern (``name``/``name_en``, ``fan``; ``pattern`` for a row without an
    English name): 「平胡 1」 / "plain win 1"."""
    zh = f.name or f.pattern or ""
    en = f.name_en or (f.pattern or "")
    return f"{zh} {f.fan}", f"{en} {f.fan}"


def baoting_words(f: Fact) -> tuple[str, str]:
    """What a declared hand adds (``kind`` hard/soft, ``each`` its value, ``tags`` add or
    floor): 「硬报，按10计」 / "hard declaration counts as 10"."""
    zh = "硬报" if f.kind == "hard" else "软报"
    en = "hard declaration" if f.kind == "hard" else "soft declaration"
    if "floor" in f.tags:
        return f"{zh}，按{f.each}计", f"{en} counts as {f.each}"
    return f"{zh}，加{f.each}", f"{en} adds {f.each}"


def hu_words(item: str, f: Fact) -> Words | None:
    """The words of the win payment's entries, from their facts."""
    fz, fe = factor_words(f)
    sz, se = for_words(f)
    if f.kind == "win":
        zh, en = hand_words(f)
        tile = f.tiles[0] if f.tiles else None
        if tile is not None:
            zh, en = f"{zh} · {T.name(tile)}", f"{en} · {T.name_en(tile)}"
        rule = _ITEM_RULES.get(item) or _ITEM_RULES.get(item.split(".")[0])
        rz, re_ = rule if rule is not None else ("胡牌", "a win")
        return Words(zh + fz + sz, en + fe + se, rz, re_)
    if item == "baoting":
        zh, en = baoting_words(f)
        return Words(
            zh + fz + sz, en + fe + se, "报听：报了听的玩家胡牌", "a declared-ready hand won"
        )
    if f.kind == "dealer":
        return Words(
            f"庄家底分 {f.fan}{sz}",
            f"dealer's part {f.fan}{se}",
            "庄家输赢另加底分",
            "added where the dealer pays or wins",
        )
    if f.kind == "other":
        return Words(
            f"闲家底分 {f.fan}{sz}",
            f"base {f.fan}{se}",
            "闲家之间另加底分",
            "added where the dealer is not involved",
        )
    if f.kind == "streak":
        return Words(
            f"连庄{f.count}次 × {f.each}{sz}",
            f"streak of {f.count} × {f.each}{se}",
            "连庄：庄家连续坐庄",
            "dealer streak: the dealer kept the deal",
        )
    return None


class HuPricer(Pricer):
    """What a win is worth to a seat deciding, as :func:`settle_wins` pays it: one payer's
    share — the hand times its multipliers (自摸, 热炮, 庄家翻倍 won and paid), then the
    dealer's part and 连庄 where the dealer wins or pays, else the other part — who pays a
    discard win and a robbed kong (抢杠), and what 报听 adds.  Parameters read once."""

    def __init__(self, p: HuParams, rules: BoundRules) -> None:
        m = p.multipliers
        self.players = rules.players
        self.discard_paid_by_all = p.discard_paid_by == "all"
        self.rob_paid = p.rob_kong_paid_by
        self.rob_as_self_draw = p.rob_kong_as_self_draw
        self.params = p
        self.streak_bonus = p.streak_bonus
        self.other_bonus = p.other_bonus
        self.self_draw_mult = m.self_draw
        self.rob_kong_mult = m.rob_kong
        self.repao_mult = m.repao
        self.dealer_wins_mult = m.dealer_wins
        self.dealer_pays_mult = m.dealer_pays
        # 报听 adds nothing where the variant has no declaration
        declaring = rules.variant.baoting is not None
        self.baoting_mode = p.baoting.mode if declaring else "none"
        self.baoting_hard = p.baoting.hard
        self.baoting_soft = p.baoting.soft
        #: each seat's :class:`_HuSeat` by (seat, dealer, streak, players): see :meth:`decide`
        self._seats: dict[tuple[int, int, int, int], _HuSeat] = {}
        #: :meth:`share` by its arguments
        self._shares: dict[tuple[int, bool, bool, bool, int, bool], float] = {}

    def share(
        self,
        fan: int,
        *,
        self_draw: bool,
        winner_dealer: bool,
        payer_dealer: bool,
        streak: int,
        repao: bool = False,
    ) -> float:
        """:meth:`share_of`, remembered by its arguments (it reads nothing else that
        changes: the parameters are read once): the expert asks it every decision."""
        key = (fan, self_draw, winner_dealer, payer_dealer, streak, repao)
        got = self._shares.get(key)
        if got is None:
            if len(self._shares) >= _SHARES_KEPT:
                self._shares.clear()
            got = self._shares[key] = self.share_of(
                fan, self_draw, winner_dealer, payer_dealer, streak, repao
            )
        return got

    def share_of(
        self,
        fan: int,
        self_draw: bool,
        winner_dealer: bool,
        payer_dealer: bool,
        streak: int,
        repao: bool,
    ) -> float:
        """:meth:`share`, its arguments in order (the seat's win values call it for every
        payer of every hand valued)."""
        mult = self.self_draw_mult if self_draw else 1
        if repao and not self_draw:
            mult *= self.repao_mult
        if winner_dealer:
            mult *= self.dealer_wins_mult
        elif payer_dealer:
            mult *= self.dealer_pays_mult
        base = fan * mult
        if winner_dealer or payer_dealer:
            return float(base + dealer_part(self.params, fan) + streak * self.streak_bonus)
        return float(base + self.other_bonus)

    def declared_fan(self, fan: int, *, hard: bool) -> int:
        """:func:`baoting_part` on a hand of value ``fan`` (seed 000 10 "番数按照十番来计算")."""
        target = self.baoting_hard if hard else self.baoting_soft
        if self.baoting_mode == "add":
            return fan + target
        if self.baoting_mode == "floor":
            return max(fan, target)
        return fan

    def rob_cost(self, fan: int, *, payer_dealer: bool, streak: int) -> float:
        """The robbed player pays every share (``robbed_for_all``), his share (players − 1)
        times (``robbed_triple_and_others``: the others pay theirs too) or his one share
        (``robbed_once``) — seed 000 16, seed 003 24, CITIES.md 贵阳 club table; with
        ``rob_kong_dealer_part: dealer_wins`` a robbed dealer's share has no dealer part
        (seed 004 (2))."""
        robbed_fan = fan * self.rob_kong_mult
        share = self.share(
            robbed_fan,
            self_draw=self.rob_as_self_draw,
            winner_dealer=False,
            payer_dealer=payer_dealer,
            streak=streak,
        )
        if payer_dealer and not robbed_with_dealer_part(self.params, winner_dealer=False):
            share -= dealer_part(self.params, robbed_fan)  # seed 004 (2): pattern and streak
        return share if self.rob_paid == "robbed_once" else share * (self.players - 1)

    def rob_kong_self_draw(self) -> bool:
        return self.rob_as_self_draw

    def decide(self, d: Decision) -> Pricer:
        """This seat's :class:`_HuSeat`, kept across decisions: it reads only the seat, the
        dealer, the streak and the number of players (and this pricer's parameters, read
        once), so every decision of a seat in a round shares one, and with it the win
        values it has worked out (:meth:`_HuSeat.win_values`)."""
        key = (d.seat, d.dealer, d.streak, d.players)
        seats = self._seats
        got = seats.get(key)
        if got is None:
            if len(seats) >= _SEATS_KEPT:
                seats.clear()
            got = seats[key] = _HuSeat(self, d)
        return got


#: how many (seat, dealer, streak, players) a :class:`HuPricer` keeps its seats for
_SEATS_KEPT = 64
#: how many shares (:meth:`HuPricer.share`) a :class:`HuPricer` keeps
_SHARES_KEPT = 4096


class _HuSeat(Pricer):
    """:class:`HuPricer` for one decision: what this seat's own win brings it."""

    def __init__(self, rule: HuPricer, d: Decision) -> None:
        self.rule = rule
        self.dealer = d.seat == d.dealer
        self.streak = d.streak
        #: per payer (every other seat, in seat order): whether it is the dealer
        self.payers = [o == d.dealer for o in range(d.players) if o != d.seat]
        #: :meth:`win_values` by its arguments (the rest of what it reads is fixed above)
        self._values: dict[tuple[int, int, bool], tuple[float, float]] = {}

    def win_values(self, fan_sd: int, fan_disc: int, declared: bool) -> tuple[float, float]:
        """:meth:`price_win`, remembered by its arguments: it reads nothing else that
        changes (the seat, the dealer, the streak and the parameters are this object's)."""
        key = (fan_sd, fan_disc, declared)
        got = self._values.get(key)
        if got is None:
            got = self._values[key] = self.price_win(fan_sd, fan_disc, declared)
        return got

    def price_win(self, fan_sd: int, fan_disc: int, declared: bool) -> tuple[float, float]:
        """Every payer's share of a self-draw; the discarder's share of a discard win, or
        (``discard_paid_by: all``) every payer's — at a random discarder, its mean."""
        rule = self.rule
        dealer, streak, share = self.dealer, self.streak, rule.share_of
        sd = rule.declared_fan(fan_sd, hard=dealer) if declared else fan_sd
        dc = rule.declared_fan(fan_disc, hard=dealer) if declared else fan_disc
        payers = self.payers
        self_draw = sum([share(sd, True, dealer, pays, streak, False) for pays in payers])
        per = [share(dc, False, dealer, pays, streak, False) for pays in payers]
        disc = sum(per) if rule.discard_paid_by_all else sum(per) / len(per)
        return self_draw, disc


@register(
    Point.SETTLE,
    "hu",
    HuParams,
    phase=Phase.WIN,
    title="胡牌结算",
    labels=LABELS,
    needs=NEEDS,
    words=hu_words,
    pricer=HuPricer,
)
def settle_wins(ctx: SettleContext, p: HuParams) -> None:
    """Pay each winner: every share-bearer pays the hand's components, 报听 and the dealer part.

    Several winners on one discard are each paid separately (seed 001 一炮多响).  The
    payment's arithmetic is this hook's kernel (:func:`zhuoji.rules.hu_kernel.pay_win`,
    compiled), over the parameters read once (:func:`~zhuoji.rules.hu_kernel.terms_of`)."""
    terms = None
    for win in ctx.end.wins:
        if win.seat in ctx.void_wins:
            continue
        if terms is None:
            terms = terms_of(p)
        value = ctx.win_value(win, rob_kong_as_self_draw=terms.rob_kong_as_self_draw)
        pay_win(ctx, win, terms, value)


def main_component(value: HandValue) -> Component | None:
    """The hand's main pattern: its highest non-bonus component (the first such in table
    order on a tie); None for a hand with no component."""
    best = None
    for c in value.components:
        if not c.bonus and (best is None or c.fan > best.fan):
            best = c
    return best


def value_fact(value: HandValue, seat: int, kind: str) -> Fact:
    """A hand value as a fact: its main pattern (``pattern``), every component's name and fan
    (``name`` 「平胡 1 + 大对子 5」, ``name_en``), the total (``fan``), whose hand (``seat``)."""
    main = main_component(value)
    zh = " + ".join(f"{c.name} {c.fan}" for c in value.components) or "0"
    en = " + ".join(f"{c.name_en or c.pattern} {c.fan}" for c in value.components) or "0"
    if main is None:
        return fact(kind=kind, seat=seat, name=zh, name_en=en, fan=value.total)
    return fact(kind=kind, seat=seat, pattern=main.pattern, name=zh, name_en=en, fan=value.total)


__all__ = [
    "BONUS",
    "Part",
    "baoting_part",
    "dealer_part",
    "robbed_with_dealer_part",
    "share_bearers",
]
