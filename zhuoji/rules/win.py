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

from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.bound import BoundRules
from zhuoji.contract.checks import Problem, rule
from zhuoji.outcome import Meld, MeldKind, RoundEnd, SeatEnd, Win, WinHow
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
from zhuoji.rules.screen import pattern_fan
from zhuoji.tiles import SUIT_LETTERS, suit_of


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


def holds_void(counts: Sequence[int], melds: Sequence[Meld], void: int) -> bool:
    """定缺: whether a hand (its concealed ``counts`` and its ``melds``) holds a tile of its
    void suit ``void``, and so cannot win (GA ``Table_GY_TWO`` "cannot win while holding
    it"; the engine's waits and :func:`void_suit_clear` both ask this)."""
    if any(counts[9 * void : 9 * void + 9]):
        return True
    return any(suit_of(m.tile) == void for m in melds)


def void_suit_clear(check: WinCheck) -> bool:
    """定缺: no tile of the void suit in the hand or its melds (GA ``Table_GY_TWO``)."""
    void = check.void_suit
    return void is None or not holds_void(check.counts, check.melds, void)


# --- how the win came: 杠开, 天和, 地和, 人和 and the kong behind them --------------------

#: the definitions the win-event facts are checked against
TIANHU = "seed 002 天和 「只有庄家独占的权柄，庄家起牌后即成和牌牌型」"
DIHU = "seed 002 地和 「起牌后，第一圈里闲家自摸的第一张牌和牌」"
RENHU = "seed 002 人和 「起牌后，庄家打出的第一张牌，闲家吃和」"
GANGKAI = "RULES.md 杠开 「self-draw on the replacement tile after a kong」"
KONG_TILE = "docs/round-end.md kong_tile: the kong behind 杠开 / 热炮 / 抢杠"


def is_tianhu(*, dealer: bool, untouched: bool, draws: int) -> bool:
    """天和: the dealer complete on his first 14 tiles: no draw yet, and nothing done at the
    table before (``untouched``: no meld made by anyone and no discard of his)."""
    return dealer and untouched and draws == 0


def is_dihu(*, dealer: bool, untouched: bool, draws: int) -> bool:
    """地和: a non-dealer self-draws his first tile in the first go-around, nobody having
    melded before (seed 002 「第一圈里若有人吃、碰牌…不可地和」)."""
    return not dealer and untouched and draws == 1


def is_renhu(*, from_dealer: bool, first_discard: bool, first_go_around: bool) -> bool:
    """人和: a non-dealer wins on the dealer's first discard, the round's first."""
    return from_dealer and first_discard and first_go_around


def event_problems(end: RoundEnd) -> list[Problem]:
    """How the win came, as the round end states it, against what each fact means: 杠开 is
    a self-draw on one's own kong's replacement; 天和 the dealer's self-draw before any
    discard or meld; 地和 a non-dealer's self-draw of his first tile, no meld before; 人和 a
    non-dealer's win on the dealer's first discard; ``kong_tile`` names a kong of the
    round (the winner's, with 杠开), or the robbed tile.  (海底 is checked as the file is
    read.)"""
    out = []
    wins = end.wins
    self_draw = len(wins) == 1 and wins[0].how is _SELF_DRAW
    winner = wins[0].seat if wins else None
    melded = next((s for s, seat in enumerate(end.seats) if seat.melds), None)

    def fact(field: str, name: str, source: str, why: str | None) -> None:
        if why is not None:
            out.append(Problem(f"result.{field}", f"{field} ({name})", why, source))

    if end.gangkai:
        fact("gangkai", "杠开", GANGKAI, _gangkai_refused(end, self_draw, winner))
    if end.tianhu:
        why = None
        if not self_draw or winner != end.dealer:
            why = _not_by("天和 is the dealer's self-draw on his first 14 tiles", end, self_draw)
        elif melded is not None or end.discards:
            why = "天和 comes before any discard or meld: " + (
                f"seat {melded} melded" if melded is not None else "the round lists discards"
            )
        fact("tianhu", "天和", TIANHU, why)
    if end.dihu:
        why = None
        if not self_draw or winner == end.dealer:
            why = _not_by("地和 is a non-dealer's self-draw of his first tile", end, self_draw)
        elif melded is not None:
            why = f"地和 comes before any meld: seat {melded} melded"
        elif not _first_go_around(end, winner):
            why = (
                "地和 is his first draw: before it only the seats ahead of him in the first "
                "go-around discarded, once each"
            )
        fact("dihu", "地和", DIHU, why)
    if end.renhu:
        fact("renhu", "人和", RENHU, _renhu_refused(end, melded))
    if end.kong_tile is not None:
        fact("kong_tile", "杠", KONG_TILE, _kong_tile_refused(end, winner))
    return out


def _not_by(what: str, end: RoundEnd, self_draw: bool) -> str:
    if not end.wins:
        return f"{what}; the round was drawn"
    if not self_draw:
        return f"{what}; this is a win on another's tile"
    seat = end.wins[0].seat
    if seat == end.dealer:
        return f"{what}; seat {seat} is the dealer"
    return f"{what}; seat {seat} is not the dealer (seat {end.dealer} is)"


def _gangkai_refused(end: RoundEnd, self_draw: bool, winner: int | None) -> str | None:
    if not self_draw:
        what = "the round was drawn" if not end.wins else "this is a win on another's tile"
        return f"杠开 is a self-draw on a kong's replacement tile; {what}"
    assert winner is not None
    if not any(m.is_kong for m in end.seats[winner].melds):
        return f"杠开 is a self-draw on a kong's replacement tile; seat {winner} made no kong"
    return None


def _first_go_around(end: RoundEnd, winner: int | None) -> bool:
    """Whether every listed discard could come before ``winner``'s first draw: one each by
    the seats from the dealer up to him."""
    assert winner is not None
    ahead = (winner - end.dealer) % end.players
    seats = [d.seat for d in end.discards]
    return len(set(seats)) == len(seats) and all(
        (s - end.dealer) % end.players < ahead for s in seats
    )


def _renhu_refused(end: RoundEnd, melded: int | None) -> str | None:
    what = "人和 is a non-dealer's win on the dealer's first discard"
    for w in end.wins:
        if w.how is not WinHow.DISCARD:
            return f"{what}; this is not a win on a discard"
        if w.seat == end.dealer or w.source != end.dealer:
            return (
                f"{what}; seat {w.seat} won on seat {w.source}'s discard (seat {end.dealer} deals)"
            )
    if not end.wins:
        return f"{what}; the round was drawn"
    if melded is not None:
        return f"{what}, before any meld; seat {melded} melded"
    won = [d for d in end.discards if d.claimed_by is not None and d.claim is None]
    if any(d not in won for d in end.discards):
        return f"{what}, the round's first; other discards are listed"
    return None


def _kong_tile_refused(end: RoundEnd, winner: int | None) -> str | None:
    tile = end.kong_tile
    assert tile is not None
    name = T.format([tile])
    robbed = any(w.how is _ROB_KONG for w in end.wins)
    if robbed:
        if tile != end.win_tile:
            return f"the robbed kong's tile is the winning tile, not {name}"
        return None
    owners = [
        s
        for s, seat in enumerate(end.seats)
        if any(m.is_kong and m.tile == tile for m in seat.melds)
    ]
    if not owners:
        return f"no kong of {name} was made"
    if end.gangkai and winner not in owners:
        return (
            f"杠开 wins on the replacement of one's own kong; seat {winner} has no kong of {name}"
        )
    return None


def round_win_check(end: RoundEnd, win: Win, rules: BoundRules) -> WinCheck:
    """The :class:`WinCheck` the engine builds before allowing ``win`` (``Round._check``),
    from a round end: the concealed hand with the winning tile, the seat's melds, 报听 on
    both sides, 热炮, the 定缺 suit, and whether the seat had neither discarded nor melded
    (read from the discards listed)."""
    seat = end.seats[win.seat]
    tile = end.win_tile
    assert tile is not None
    counts = seat.concealed_counts()
    counts[tile] = counts[tile] + 1
    full = tuple(counts)
    melds = seat.melds
    hand = rules.hand_rules(end.wild)
    dealer = win.seat == end.dealer

    def base_fan() -> int:
        return pattern_fan(rules, hand, full, melds, tile, dealer=dealer)

    source = end.seats[win.source] if win.source is not None else None
    return WinCheck(
        seat=win.seat,
        tile=tile,
        how=win.how,
        has_kong=any(m.is_kong for m in melds),
        declared=seat.declared is not None,
        source_declared=source is not None and source.declared is not None,
        repao=win.how is WinHow.DISCARD and end.repao,
        base_fan=base_fan,
        counts=full,
        melds=melds,
        void_suit=seat.void_suit,
        first_turn=not melds and all(d.seat != win.seat for d in end.discards),
    )


def win_problems(end: RoundEnd, rules: BoundRules) -> list[Problem]:
    """Each win of a round end asked as the engine asks it (``Round._may_win``): 定缺 first
    (:func:`void_suit_clear`), then every ``may_win`` hook.  A hook that registered
    round-end checks explains its own refusals there (they run with every hook's checks);
    a refusal by any other hook is named here."""
    out = []
    for k, win in enumerate(end.wins):
        check = round_win_check(end, win, rules)
        if not void_suit_clear(check):
            out.append(_void_problem(k, win, end.seats[win.seat]))
            continue
        for hook in rules.may_win:
            if not hook.hook.checks and not hook(check):
                title = f" ({hook.hook.title})" if hook.hook.title else ""
                out.append(
                    Problem(
                        f"result.wins[{k}]",
                        f"may_win.{hook.name}",
                        f"{_won(end, win)} is refused by may_win.{hook.name}{title}: "
                        + hook.hook.doc.split(". ")[0].rstrip("."),
                    )
                )
    return out


def _void_problem(k: int, win: Win, seat: SeatEnd) -> Problem:
    assert seat.void_suit is not None
    return Problem(
        f"result.wins[{k}].seat",
        "定缺",
        f"seat {win.seat} holds its void suit ({SUIT_LETTERS[seat.void_suit]}) and cannot win",
    )


def _won(end: RoundEnd, win: Win) -> str:
    """Seat N's win, in words: on whose tile."""
    tile = T.format([end.win_tile]) if end.win_tile is not None else "?"
    if win.how is WinHow.SELF_DRAW:
        return f"seat {win.seat}'s self-draw of {tile}"
    what = "discard" if win.how is WinHow.DISCARD else "robbed kong"
    return f"seat {win.seat}'s win on seat {win.source}'s {what} ({tile})"


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


def pass_problems(end: RoundEnd, rules: BoundRules, p: PassParams) -> list[Problem]:
    """The round-end check of 通行证: each win on another's tile that :func:`may_win_pass`
    refuses, with what the seat lacks (a hand holding its void suit is refused by 定缺
    first, as the engine asks)."""
    out = []
    for k, win in enumerate(end.wins):
        check = round_win_check(end, win, rules)
        if not void_suit_clear(check) or may_win_pass(check, p):
            continue
        key, lacks = _lacks(check, p)
        out.append(
            Problem(
                f"result.wins[{k}]",
                key,
                f"{_won(end, win)} needs a pass (通行证): {'; '.join(lacks)}",
            )
        )
    return out


def _lacks(check: WinCheck, p: PassParams) -> tuple[str, list[str]]:
    """Why ``check`` has no pass: the deciding rule and each pass the seat lacks."""
    robbed = check.how is _ROB_KONG and not p.rob_kong
    key = rule("may_win.pass.rob_kong", False) if robbed else ""
    lacks = []
    fan = check.base_fan()
    if p.min_pattern_fan > 0:
        lacks.append(f"his hand is worth {fan}, less than the {p.min_pattern_fan} that needs none")
    if p.dou:
        kongs = [m for m in check.melds if m.is_kong]
        if not kongs:
            lacks.append("he owns no kong (豆)")
        for m in kongs:
            tile = T.format([m.tile])
            if _KONG_KIND.get(m.kind) not in p.dou_kinds:
                lacks.append(f"his {m.kind.value} of {tile} is no pass here")
                key = key or rule("may_win.pass.dou_kinds", p.dou_kinds)
            elif m.late and not p.late_kong:
                lacks.append(f"his kong of {tile} is late (憨包), no pass here")
                key = key or rule("may_win.pass.late_kong", False)
    if p.declared:
        lacks.append("he did not declare 报听")
    return key or rule("may_win.pass.min_pattern_fan", p.min_pattern_fan), lacks


@register(Point.MAY_WIN, "pass", PassParams, title="通行证", needs=NEEDS, checks=(pass_problems,))
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
