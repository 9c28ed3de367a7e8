"""跟庄 / 开局跟 (``settle.genzhuang``): the round's first discards are all the dealer's tile.

Issue 25 ("Mechanisms real tables use that no key writes yet"): 「跟庄 / 开局跟: the four first
discards are the same tile, and the dealer pays each」.  The dealer discards first; when every
other player, in turn, discards the same tile as his own first discard — nobody claiming any
of them in between — the dealer pays each other player ``value``.  The payment stands whatever
the round's end (a win or a draw): it is made at the table when the last player follows.

No source in ``docs/sources`` (the seeds, RULES.md, CITIES.md) gives 跟庄 a number, nor has
any catalog city that plays it; ``value`` 1 is a reading — the base stake, CITIES.md's unit
(「1 unit = 1 base stake」).  A variant that plays it writes its own source beside the key.

A round-end file that turns 跟庄 on lists every discard of the first go-round, in order
(docs/round-end.md, as for 首圈鸡): the stage reads the leading discards of the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.bound import BoundRules
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import SEAT, Fact, fact
from zhuoji.contract.pricing import Decision, Pricer
from zhuoji.outcome import RoundEnd
from zhuoji.rules.registry import Params, Phase, Point, Words, register

ITEM = "genzhuang"


class GenzhuangParams(Params):
    value: int = Field(
        1,
        ge=0,
        le=1000,
        title="跟庄 value",
        description="what the dealer pays each other player when every player's first "
        "discard, in turn from the dealer's, is the dealer's tile (跟庄 / 开局跟, issue 25); "
        "no source gives a number: 1 (the base stake) is a reading",
    )


def followed_tile(discards: Sequence[tuple[Any, ...]], players: int, dealer: int) -> int | None:
    """The dealer's first discard when the round's first ``players`` discards — his, then
    each other player's in turn, none claimed before the last — are all that tile; else
    None.  ``discards`` are (seat, tile, claimed by) in table order (a
    :class:`~zhuoji.outcome.Discard` is one)."""
    if len(discards) < players:
        return None
    tile: int = discards[0][1]
    for k in range(players):
        seat, kind, claimed = discards[k][0], discards[k][1], discards[k][2]
        if seat != (dealer + k) % players or kind != tile:
            return None
        if claimed is not None and k < players - 1:
            return None
    return tile


def genzhuang_words(item: str, f: Fact) -> Words | None:
    """「庄家首张打九万，各家都跟：付{seat} 1」: the tile (``tiles``), the value (``fan``)."""
    tile = f.tiles[0] if f.tiles else None
    zh_tile = T.name(tile) if tile is not None else "同一张"
    en_tile = T.name_en(tile) if tile is not None else "the same tile"
    return Words(
        f"庄家首张打{zh_tile}，各家都跟：付{SEAT} {f.fan}",
        f"the dealer's first discard {en_tile}, followed by everyone: {f.fan} to {SEAT}",
        "跟庄：开局各家第一张都跟庄家打同一张，庄家赔每家",
        "following the dealer: every player's first discard is the dealer's tile; the dealer "
        "pays each other player",
    )


class GenzhuangPricer(Pricer):
    """跟庄 to a seat making the round's first discards: the dealer's first discard risks
    ``value`` to each other player, if all of them follow it; a follower's discard of the
    dealer's tile earns ``value`` if the rest follow too.  A later player follows when he
    holds a copy: the chance that a hand of ``hand_size`` unseen tiles holds one."""

    def __init__(self, p: GenzhuangParams, rules: BoundRules) -> None:
        self.value = p.value
        self.hand_size = rules.variant.tiles.hand_size

    def decide(self, d: Decision) -> Pricer:
        k = len(d.table)
        if not self.value or k >= d.players or d.seat != (d.dealer + k) % d.players:
            return self  # prices nothing: not a seat of the first go-round
        if k and followed_tile(d.table, k, d.dealer) is None:
            return self  # the go-round so far already broke the sequence
        tile = d.table[0][1] if k else None
        return _GenzhuangSeat(self.value, self.hand_size, k, d.players, tile, d.live, d.unseen)


class _GenzhuangSeat(Pricer):
    def __init__(
        self,
        value: int,
        hand_size: int,
        position: int,
        players: int,
        tile: int | None,
        live: Sequence[int],
        unseen: int,
    ) -> None:
        self.value = value
        self.hand_size = hand_size
        self.position = position  # this discard's place in the first go-round (0: the dealer)
        self.players = players
        self.tile = tile  # the dealer's tile (None: this seat is the dealer)
        self.live = live
        self.unseen = max(1, unseen)

    def _all_follow(self, tile: int, after: int) -> float:
        """The chance that the ``after`` players still to discard each hold ``tile``."""
        p_miss = max(0.0, 1.0 - self.live[tile] / self.unseen) ** self.hand_size
        return (1.0 - p_miss) ** after

    def discard_gain(self, tile: int, p_win: float, p_lose: float) -> float:
        after = self.players - 1 - self.position
        if self.tile is None:  # the dealer: each other player may follow, and he pays each
            return -self.value * (self.players - 1) * self._all_follow(tile, after)
        if tile != self.tile:
            return 0.0
        return self.value * self._all_follow(tile, after)


@register(
    Point.SETTLE,
    "genzhuang",
    GenzhuangParams,
    phase=Phase.SIDE,
    title="跟庄",
    labels={ITEM: ("跟庄", "following the dealer")},
    words=genzhuang_words,
    pricer=GenzhuangPricer,
)
def settle_genzhuang(ctx: SettleContext, p: GenzhuangParams) -> None:
    """The dealer pays each other player ``value`` when all followed his first discard."""
    end: RoundEnd = ctx.end
    tile = followed_tile(end.discards, end.players, end.dealer)
    if tile is None or not p.value:
        return
    for other in ctx.others(end.dealer):
        f = fact(seat=other, kind="genzhuang", tiles=(tile,), fan=p.value)
        ctx.pay(end.dealer, other, p.value, ITEM, fact=f)
