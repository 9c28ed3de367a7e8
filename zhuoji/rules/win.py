"""Conditions for winning on a tile (``may_win``): the 通行证 rule.

Sources: seed 000 特殊玩法规则 1) ("玩家只有在有豆的情况下才能胡其他人的牌,否则只能自摸。如果玩家做到了
平胡以上的牌,也可以胡其他人的牌") and 16) (抢杠: "即便叫牌的玩家是无豆的平胡也可以胡牌"); seed 000
10) (报听 "在没有的豆的情况下也可以胡牌"); seed 001 豆 (1)(2) and 聽牌 ("聽牌者可以胡報聽者點炮的牌");
seed 004 (1) 热炮 ("如果胡牌者是无豆的平胡,依然可以胡") and (三) 杀报 ("其他家可平胡").
CITIES.md "Common mechanisms" 6: which kong kinds count (安顺: FW ``EnableKongTXZ=false``, an
exposed kong 点豆 is no pass), a win before one's first discard (ZA 丁拐 mode; the FW server's
``isNotPiHu`` lets a player who has neither discarded nor melded win), 屁胡 allowed (FW
``SetEnablePinghu``: ``min_pattern_fan: 0``).

定缺 is not a hook: a variant's ``dingque`` section makes :func:`void_suit_clear` part of
every win check (GA ``Table_GY_TWO`` "cannot claim or win holding the void suit").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple

from pydantic import Field

from zhuoji.contract.pricing import Pricer
from zhuoji.outcome import Meld, MeldKind, WinHow
from zhuoji.rules.needs import (
    DECLARING,
    KONGS,
    ROBBING,
    WINS_ON_ANOTHERS_TILE,
    WINS_ON_DISCARD,
    Because,
    Set,
)
from zhuoji.rules.registry import Params, Point, register
from zhuoji.tiles import suit_of


class WinCheck(NamedTuple):
    """A candidate win, as the engine sees it before allowing the claim.  (A named tuple:
    the engine and the bots build one for every win they weigh, so it must be cheap to
    build; a frozen dataclass took four times as long.)"""

    seat: int
    tile: int
    how: WinHow
    has_kong: bool  # owns a kong (a late 憨包豆 included)
    declared: bool  # the seat declared 报听
    source_declared: bool  # the discarder (or robbed player) declared 报听
    repao: bool  # the discard follows the discarder's own kong
    base_fan: Callable[[], int]  # the hand's pattern value (lazy)
    counts: tuple[int, ...] = ()  # the concealed hand with the winning tile, 34 counts
    melds: tuple[Meld, ...] = ()  # the seat's melds
    void_suit: int | None = None  # 定缺: the seat's void suit (0 万, 1 条, 2 筒), if any
    first_turn: bool = False  # the seat has neither discarded nor melded yet


def void_suit_clear(check: WinCheck) -> bool:
    """定缺: no tile of the void suit in the hand or its melds (GA ``Table_GY_TWO``)."""
    void = check.void_suit
    if void is None:
        return True
    if any(check.counts[9 * void : 9 * void + 9]):
        return False
    return not any(suit_of(m.tile) == void for m in check.melds)


_SELF_DRAW = WinHow.SELF_DRAW  # (enum members read once: reading them off the class is slow)
_ROB_KONG = WinHow.ROB_KONG

KongKind = Literal["concealed", "exposed", "added"]
_KONG_KIND: dict[MeldKind, KongKind] = {
    MeldKind.GANG_CONCEALED: "concealed",
    MeldKind.GANG_EXPOSED: "exposed",
    MeldKind.GANG_ADDED: "added",
}


class PassParams(Params):
    min_pattern_fan: int = Field(
        2,
        ge=0,
        le=1000,
        title="通行证 pattern threshold",
        description="a hand whose pattern is worth at least this wins on a discard without a dou "
        "(2: anything above 平胡; 5: 大对子 and up; 10: 清一色-class; 0: 屁胡 allowed, any hand "
        "wins on a discard, FW SetEnablePinghu for 遵义/仁怀)",
    )
    dou: bool = Field(
        True, title="dou is a pass", description="owning a kong allows winning on a discard"
    )
    late_kong: bool = Field(
        True,
        title="憨包 kong is a pass",
        description='a late (憨包) kong counts as a dou for this (seed 001 憨包豆 "只有通行證"); '
        'false: it is an ordinary replacement draw, no pass (seed 004 (6)(7) "算普通补张")',
    )
    dou_kinds: list[KongKind] = Field(
        default_factory=lambda: list[KongKind](["concealed", "exposed", "added"]),
        title="kongs that are a pass",
        description="which kong kinds count for `dou` (安顺: [concealed, added], an exposed "
        "kong 点豆 is no pass, FW EnableKongTXZ=false)",
    )
    first_turn: bool = Field(
        False,
        title="first turn needs no pass",
        description="a player who has neither discarded nor melded may win on a discard "
        "(ZA 丁拐 mode 'is on the first discard'; FW isNotPiHu canDihu)",
    )
    declared: bool = Field(
        True, title="报听 is a pass", description="a declared player may win on a discard"
    )
    from_declared: bool = Field(
        True,
        title="beat a declared discard",
        description="anyone may win on a declared player's discard",
    )
    repao: bool = Field(
        True,
        title="热炮 needs no pass",
        description="a discard right after its player's kong may be won on",
    )
    rob_kong: bool = Field(
        True, title="抢杠 needs no pass", description="a kong may be robbed without a pass"
    )


NEEDS = {
    "": WINS_ON_ANOTHERS_TILE,
    "rob_kong": ROBBING,
    "repao": WINS_ON_DISCARD,
    "dou": KONGS,
    "dou_kinds": Because(Set("may_win:pass.dou"), "a kong is no pass here (may_win.pass.dou)"),
    "first_turn": WINS_ON_ANOTHERS_TILE,
    "late_kong": Because(Set("may_win:pass.dou"), "a kong is no pass here (may_win.pass.dou)"),
    "declared": DECLARING,
    "from_declared": DECLARING,
}


class PassPricer(Pricer):
    """The 通行证 to a seat deciding: a declaration, a kong (any kind, late ones included:
    the bots do not track which count) or a declared discarder lets it win on any discard;
    otherwise only a pattern of ``min_pattern_fan``.  The exemptions of 热炮, 抢杠 and a
    first turn are not priced."""

    def __init__(self, p: PassParams, rules: object = None) -> None:
        self.declared = p.declared
        self.dou = p.dou
        self.from_declared = p.from_declared
        self.min_fan = p.min_pattern_fan

    def discard_win_exempt(
        self, declared: bool, has_kong: bool, from_declared: bool = False
    ) -> bool:
        return (
            (self.declared and declared)
            or (self.dou and has_kong)
            or (self.from_declared and from_declared)
        )

    def discard_win_fan(self) -> int:
        return self.min_fan


@register(Point.MAY_WIN, "pass", PassParams, title="通行证", needs=NEEDS, pricer=PassPricer)
def may_win_pass(check: WinCheck, p: PassParams) -> bool:
    """Self-draws always pass; a win on another's tile needs a pass (dou, 报听, a pattern above
    the threshold) unless an exemption applies."""
    how = check.how
    if how is _SELF_DRAW:
        return True
    if how is _ROB_KONG and p.rob_kong:
        return True
    if check.repao and p.repao:
        return True
    if p.dou and _counted_kong(check.melds, p.dou_kinds, late=p.late_kong):
        return True
    if p.declared and check.declared:
        return True
    if (p.from_declared and check.source_declared) or (p.first_turn and check.first_turn):
        return True
    return p.min_pattern_fan == 0 or check.base_fan() >= p.min_pattern_fan


def _counted_kong(melds: tuple[Meld, ...], kinds: list[KongKind], *, late: bool) -> bool:
    """A kong of a kind that counts as a pass; a late (憨包) one only when ``late``."""
    if not melds:  # (the common case, without building a generator)
        return False
    return any(_KONG_KIND.get(m.kind) in kinds and (late or not m.late) for m in melds)
