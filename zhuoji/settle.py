"""Settlement: ordered hook stages turn a :class:`RoundEnd` into an itemized :class:`Ledger`.

Every payment is a :class:`LedgerEntry` ``{payer, payee, amount, item, detail}`` (DESIGN.md,
"Ledger"); per-seat totals are derived, and the ledger sums to zero by construction.  The
stages come from the variant (``settle:``), run by phase: win payment, 杀报, burning,
chickens, dou, liability, 查叫 …  The engine and ``zhuoji settle FILE`` both call
:func:`settle`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from zhuoji.hand import HandRules
from zhuoji.outcome import RoundEnd, Win, WinHow
from zhuoji.rules.facts import WinContext
from zhuoji.rules.patterns import HandValue, evaluate, waiting_value
from zhuoji.tiles import suit_of
from zhuoji.variant import Ruleset

#: item code → (Chinese, English) labels
ITEM_LABELS: dict[str, tuple[str, str]] = {
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
    "shabao": ("杀报", "beating a declared player"),
    "ji.yaoji": ("幺鸡", "permanent chicken"),
    "ji.wugu": ("乌骨鸡", "8-dots chicken"),
    "ji.fanji": ("翻鸡", "flipped chicken"),
    "ji.jinji": ("金鸡", "golden chicken"),
    "ji.chongfeng": ("冲锋鸡/英雄鸡", "first 1-bamboo discarded"),
    "ji.zeren": ("责任鸡", "first 1-bamboo claimed"),
    "ji.baoji": ("包鸡", "unready player's chickens"),
    "dou.men": ("闷豆", "concealed kong"),
    "dou.dian": ("点豆", "kong on a discard"),
    "dou.zhuanwan": ("转弯豆", "added kong"),
    "dou.hanbao": ("憨包豆", "late kong"),
    "chajiao": ("查叫", "ready check after a draw"),
    "huazhu": ("查花猪", "void suit still held after a draw"),
    "dajiao": ("查大叫", "ready check after a draw (定缺)"),
    "baopai": ("包牌", "liability after passing a win"),
    "xianggong": ("相公", "wrong tile count"),
    "liability": ("包付", "liability"),
    "zui.rengbao": ("扔宝", "first discard a wild"),
    "zui": (
        "嘴",
        "zui item",
    ),  # 六安 嘴 rows (zui.kaipai, zui.menqing …): the row names the item in the detail
}


def item_label(item: str) -> tuple[str, str]:
    if item in ITEM_LABELS:
        return ITEM_LABELS[item]
    head = item.split(".")[0]
    return ITEM_LABELS.get(head, (item, item))


@dataclass(frozen=True)
class LedgerEntry:
    payer: int
    payee: int
    amount: int
    item: str
    detail: str

    def as_dict(self) -> dict[str, object]:
        zh, en = item_label(self.item)
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "item": self.item,
            "label": zh,
            "label_en": en,
            "detail": self.detail,
        }


@dataclass
class Ledger:
    players: int
    entries: list[LedgerEntry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    next_dealer: int = 0
    next_streak: int = 0

    def pay(self, payer: int, payee: int, amount: int, item: str, detail: str) -> None:
        if amount < 0:
            payer, payee, amount = payee, payer, -amount
        if amount == 0 or payer == payee:
            return
        self.entries.append(LedgerEntry(payer, payee, amount, item, detail))

    def totals(self) -> list[int]:
        out = [0] * self.players
        for e in self.entries:
            out[e.payer] -= e.amount
            out[e.payee] += e.amount
        return out

    def by_item(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.item] = out.get(e.item, 0) + e.amount
        return out

    def as_dict(self) -> dict[str, object]:
        return {
            "entries": [e.as_dict() for e in self.entries],
            "totals": self.totals(),
            "notes": list(self.notes),
            "next_dealer": self.next_dealer,
            "next_streak": self.next_streak,
        }


class SettleContext:
    """What stages share while settling one round."""

    def __init__(self, ruleset: Ruleset, end: RoundEnd) -> None:
        self.ruleset = ruleset
        self.end = end
        self.players = end.players
        self.ledger = Ledger(end.players)
        self.rules: HandRules = ruleset.hand_rules(end.wild)
        self.burnt: set[int] = set()  # 烧: chickens and dou void, penalties stay
        self.void_wins: set[int] = set()  # wins paid the other way round (包牌)
        self.stake = 1  # multiplier every stage applies (set by the win stage)
        self.hu_items: set[str] = set()  # items the win stage used (liability transfers)
        self._values: dict[tuple[int, bool], HandValue] = {}

    # --- facts -----------------------------------------------------------------------

    @cached_property
    def winners(self) -> list[int]:
        return [w.seat for w in self.end.wins]

    @cached_property
    def ready(self) -> list[bool]:
        """Winners, and players whose concealed hand waits (叫嘴); under 定缺 a hand holding
        its void suit cannot win, so it is not ready (花猪), and only waits outside the void
        suit count."""
        out = []
        known = self.end.ready
        for s, seat in enumerate(self.end.seats):
            if s in self.winners:
                out.append(True)
            elif seat.xianggong or seat.void_tiles():
                out.append(False)
            elif known is not None and known[s] is not None:
                out.append(bool(known[s]))
            else:
                waits = self.rules.waits(seat.concealed_counts())
                void = seat.void_suit
                out.append(any(void is None or suit_of(t) != void for t in waits))
        return out

    def win_context(self, win: Win, *, rob_kong_as_self_draw: bool = False) -> WinContext:
        end = self.end
        return WinContext(
            self_draw=win.how is WinHow.SELF_DRAW
            or (rob_kong_as_self_draw and win.how is WinHow.ROB_KONG),
            rob_kong=win.how is WinHow.ROB_KONG,
            gangkai=end.gangkai,
            repao=end.repao,
            haidi=end.haidi,
            tianhu=end.tianhu,
            dihu=end.dihu,
            renhu=end.renhu,
            declared=end.seats[win.seat].declared is not None,
            dealer=win.seat == end.dealer,
            seat_wind=end.seat_wind(win.seat),
            round_wind=end.round_wind,
        )

    def win_value(self, win: Win, *, rob_kong_as_self_draw: bool = False) -> HandValue:
        key = (win.seat, rob_kong_as_self_draw)
        if key not in self._values:
            seat = self.end.seats[win.seat]
            full = seat.concealed_counts()
            assert self.end.win_tile is not None
            full[self.end.win_tile] += 1
            ctx = self.win_context(win, rob_kong_as_self_draw=rob_kong_as_self_draw)
            value = evaluate(
                self.ruleset.variant.patterns, self.rules, full, seat.melds, self.end.win_tile, ctx
            )
            if value is None:
                raise ValueError(f"seat {win.seat}'s hand does not win")
            self._values[key] = value
        return self._values[key]

    def ready_value(self, seat: int) -> HandValue | None:
        """The best pattern value a ready (non-winning) seat waits on."""
        s = self.end.seats[seat]
        ctx = WinContext(
            declared=s.declared is not None,
            dealer=seat == self.end.dealer,
            seat_wind=self.end.seat_wind(seat),
            round_wind=self.end.round_wind,
        )
        return waiting_value(
            self.ruleset.variant.patterns,
            self.rules,
            s.concealed_counts(),
            s.melds,
            ctx,
            skip_suit=s.void_suit,
        )

    def others(self, seat: int) -> Iterable[int]:
        return (s for s in range(self.players) if s != seat)

    def pay(self, payer: int, payee: int, amount: int, item: str, detail: str) -> None:
        self.ledger.pay(payer, payee, amount, item, detail)

    def note(self, text: str) -> None:
        self.ledger.notes.append(text)


def settle(ruleset: Ruleset, end: RoundEnd) -> Ledger:
    """Run the variant's stages over a finished round; also decide the next dealer."""
    ctx = SettleContext(ruleset, end)
    for stage in ruleset.stages:
        stage(ctx)
    ctx.ledger.next_dealer, ctx.ledger.next_streak = ruleset.dealer(end, ctx.ready)
    return ctx.ledger
