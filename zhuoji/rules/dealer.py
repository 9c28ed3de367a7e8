"""Who deals next, and the 连庄 streak (``dealer``).

* ``winner_deals`` — seeds 000/001: the winner deals; two winners on one discard: the winner
  nearest downstream of the old dealer; three: the discarder (seed 001 一炮兩響三響); or the
  first winner after the discarder (CITIES.md 独山, DS §2 "首位赢家坐庄"); after a draw
  (seed 000 17), seed 001 荒莊查叫): nobody ready — the dealer stays (+1 连庄); everyone
  ready — he stays; some ready — the ready player nearest the dealer (the dealer himself if
  ready); three ready — the one who is not; or, whoever is ready, the dealer stays (DS §2
  "黄庄流局 → 原庄家连庄").
* ``rotate`` — seed 003 庄规则 b: the dealer stays on his own win or a draw, otherwise the next
  seat deals.

The streak counts consecutive rounds the dealer kept the deal (0 in his first round).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zhuoji.outcome import RoundEnd
from zhuoji.rules.needs import (
    STREAK_PAID,
    WINS_ON_ANOTHERS_TILE,
    AtLeast,
    Because,
    IsNot,
    Set,
    all_of,
)
from zhuoji.rules.registry import Params, Point, register


def _keep(end: RoundEnd, new_dealer: int, increment: bool = True) -> tuple[int, int]:
    if new_dealer == end.dealer:
        return new_dealer, end.streak + (1 if increment else 0)
    return new_dealer, 0


def nearest_from(start: int, seats: list[int], players: int, *, inclusive: bool = True) -> int:
    """The first of ``seats`` in turn order from ``start``."""
    for step in range(0 if inclusive else 1, players + 1):
        s = (start + step) % players
        if s in seats:
            return s
    raise ValueError("no seat to choose from")


SeveralWinners = Literal["nearest_to_dealer", "discarder", "first_after_discarder"]
_SEVERAL = (
    "nearest_to_dealer: the winner nearest downstream of the old dealer (seed 001 一炮兩響); "
    "discarder (seed 001 一炮三響); first_after_discarder: the first winner in turn order "
    'after the discarder (CITIES.md source DS §2 "首位赢家坐庄")'
)


class WinnerDealsParams(Params):
    two_winners: SeveralWinners = Field(
        "nearest_to_dealer",
        title="next dealer, two winners",
        description="who deals after a two-winner discard: " + _SEVERAL,
    )
    three_winners: SeveralWinners = Field(
        "discarder",
        title="next dealer, three winners",
        description="who deals after a three-winner discard: " + _SEVERAL,
    )
    draw_dealer_stays: bool = Field(
        False,
        title="dealer stays after any draw",
        description="after every draw (黄庄) the dealer deals again, his streak one longer, "
        'whoever is ready (CITIES.md 独山, DS §2 "黄庄流局 → 原庄家连庄"); false: the draw_* '
        "rules below decide by who is ready (seed 000 17), seed 001 荒莊查叫)",
    )
    draw_none_ready_streak: bool = Field(
        True,
        title="连庄 when none ready",
        description="the dealer's streak grows after a draw with nobody ready",
    )
    draw_all_ready_streak: bool = Field(
        False,
        title="连庄 when all ready",
        description="the dealer's streak grows after a draw with everyone ready",
    )
    draw_three_ready_unready_deals: bool = Field(
        True,
        title="three ready: unready deals",
        description="after a draw with one unready player, he deals",
    )


_SEVERAL_WIN = all_of(
    WINS_ON_ANOTHERS_TILE,
    Because(Set("claims.multiple_winners"), "one discard has one winner (claims.multiple_winners)"),
)
#: two winners on one tile need a discarder and two others; three need four seats
_TWO_WINNERS = all_of(
    _SEVERAL_WIN,
    Because(AtLeast("tiles.players", 3), "two players: one discard has one winner (tiles.players)"),
)
_THREE_WINNERS = all_of(
    _SEVERAL_WIN,
    Because(
        AtLeast("tiles.players", 4),
        "fewer than four players: one discard has at most two winners (tiles.players)",
    ),
)

_BY_READY = Because(
    IsNot("dealer:winner_deals.draw_dealer_stays", True),
    "the dealer stays after every draw (dealer.draw_dealer_stays)",
)


@register(
    Point.DEALER,
    "winner_deals",
    WinnerDealsParams,
    title="胡牌者接庄",
    needs={
        "draw_none_ready_streak": all_of(STREAK_PAID, _BY_READY),
        "draw_all_ready_streak": all_of(STREAK_PAID, _BY_READY),
        "draw_three_ready_unready_deals": all_of(
            _BY_READY,
            Because(
                AtLeast("tiles.players", 3),
                "two players: no draw leaves exactly one player unready among three ready",
            ),
        ),
        "two_winners": _TWO_WINNERS,
        "three_winners": _THREE_WINNERS,
    },
)
def winner_deals(end: RoundEnd, ready: list[bool], p: WinnerDealsParams) -> tuple[int, int]:
    """The winner deals; rules for several winners and for draws as configured."""
    n = end.players
    winners = [w.seat for w in end.wins]
    if len(winners) == 1:
        return _keep(end, winners[0])
    if winners:
        rule = p.two_winners if len(winners) == 2 else p.three_winners
        source = end.wins[0].source
        if rule == "discarder" and source is not None:
            return _keep(end, source)
        if rule == "first_after_discarder" and source is not None:
            return _keep(end, nearest_from(source, winners, n, inclusive=False))
        return _keep(end, nearest_from(end.dealer, winners, n))
    if p.draw_dealer_stays:
        return _keep(end, end.dealer)
    ready_seats = [s for s in range(n) if ready[s]]
    if not ready_seats:
        return _keep(end, end.dealer, p.draw_none_ready_streak)
    if len(ready_seats) == n:
        return _keep(end, end.dealer, p.draw_all_ready_streak)
    if len(ready_seats) == n - 1 and p.draw_three_ready_unready_deals and n > 2:
        return _keep(end, next(s for s in range(n) if not ready[s]))
    return _keep(end, nearest_from(end.dealer, ready_seats, n))


class RotateParams(Params):
    stay_on_draw: bool = Field(
        True, title="dealer stays on a draw", description="seed 003: 荒庄由庄家连庄"
    )
    streak_on_draw: bool = Field(
        True, title="连庄 on a draw", description="a draw counts as a 连庄"
    )


@register(Point.DEALER, "rotate", RotateParams, title="轮庄", needs={"streak_on_draw": STREAK_PAID})
def rotate(end: RoundEnd, ready: list[bool], p: RotateParams) -> tuple[int, int]:
    """The dealer stays on his own win (and on a draw if configured); else the next seat."""
    if any(w.seat == end.dealer for w in end.wins):
        return _keep(end, end.dealer)
    if not end.wins and p.stay_on_draw:
        return _keep(end, end.dealer, p.streak_on_draw)
    return _keep(end, (end.dealer + 1) % end.players)
