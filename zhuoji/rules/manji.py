"""满鸡算清一色 (``settle.manji``): a winner holding all four copies of a revealed chicken earns
an item valued as 清一色.

Source: CITIES.md 金沙 patterns "满鸡 counts as 清一色" (FW ``EnableFullChiken``) and 满堂鸡
"JS: 「满鸡算清一色」 is a different item".  FW's settlement (``clacScore`` → ``clacFullChiken``)
pays ``SCORE_TYPE_FULL_CHIKEN`` once to each winner ``hasFullChiken`` finds, from the win's
losers (the discarder, the robbed player, or every other player on a self-draw);
``hasFullChiken`` counts the winner's hand and melds — his discards too under 满堂鸡
(``getMergedTileMap(IsSettingAllChikenDraw)``) — and looks for four copies of a chicken the
reveal made (``getChikenDraw``, and the 前后鸡 reveal's ``getChikenFB``).  FW's number is not
found (CITIES.md: "FW gives switches, not numbers"); the name says it is worth 清一色, so the
value is a parameter, by default the 清一色 row of the family's fan table (seed 000 6) 「番数
为十」).

Which kinds a reveal made is the chickens stage's (its ``flip`` directions); a variant
without a chickens stage has no revealed chicken, and this stage pays nothing there.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from zhuoji import tiles as T
from zhuoji.contract.bound import BoundRules
from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import PAYER, SEAT, Fact, fact
from zhuoji.contract.pricing import NO_ENDS, Decision, Ends, Pricer
from zhuoji.outcome import Meld, RevealAt, RoundEnd, Win, WinHow
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import made_kinds
from zhuoji.rules.needs import Because, Set
from zhuoji.rules.registry import Params, Phase, Point, Words, register

ITEM = "hu.manji"


class ManjiParams(Params):
    fan: int = Field(
        10,
        ge=0,
        le=1000,
        title="满鸡 value",
        description="what each payer of the win pays a winner holding all four copies of a "
        "revealed chicken: 「满鸡 counts as 清一色」 (CITIES.md 金沙, FW clacFullChiken), the "
        "清一色 row's 10 (seed 000 6) 「番数为十」); FW's number is not found",
    )


def chicken_params(rules: BoundRules) -> ChickenParams | None:
    """The parameters of the variant's ``chickens`` stage (None: it has none)."""
    for bound in rules.stages:
        if bound.hook.id == "chickens" and isinstance(bound.params, ChickenParams):
            return bound.params
    return None


def revealed_kinds(end: RoundEnd, rules: BoundRules, p: ChickenParams) -> list[int]:
    """The kinds the round's counting reveals made chickens by their ``flip`` directions
    (FW ``getChikenDraw``, ``getChikenFB``): a permanent chicken a reveal also makes counts."""
    out: list[int] = []
    for r in rules.variant.deal.counting(end.reveals):
        makes = p.flip.makes
        if r.at is not RevealAt.WIN and p.flip.in_play_makes is not None:
            makes = p.flip.in_play_makes
        for k in made_kinds(r.tile, makes):
            if k not in out:
                out.append(k)
    return out


def copies_held(end: RoundEnd, win: Win, with_discards: bool) -> list[int]:
    """Per kind, the winner's copies: his concealed hand, the winning tile, his melds and
    (``with_discards``, 满堂鸡) his discards nobody took."""
    seat = end.seats[win.seat]
    counts = seat.concealed_counts()
    if end.win_tile is not None:
        counts[end.win_tile] += 1
    for m in seat.melds:
        for t in m.tiles:
            counts[t] += 1
    if with_discards:
        for d in end.discards:
            if d.seat == win.seat and d.claimed_by is None:
                counts[d.tile] += 1
    return counts


def payers(end: RoundEnd, win: Win) -> list[int]:
    """Who pays a win's own items (FW ``HInfo.Loser``): every other player on a self-draw,
    else the discarder or the robbed player."""
    if win.how is WinHow.SELF_DRAW or win.source is None:
        return [s for s in range(end.players) if s != win.seat]
    return [win.source]


def manji_words(item: str, f: Fact) -> Words | None:
    """「{seat}有四张六万（翻出的鸡）：10」: the winner (``seat``), the chicken (``tiles``), the
    value (``fan``)."""
    tile = f.tiles[0] if f.tiles else None
    zh = T.name(tile) if tile is not None else ""
    en = T.name_en(tile) if tile is not None else ""
    return Words(
        f"{SEAT}手里有四张{zh}（翻出的鸡）：{PAYER}付{f.fan}",
        f"{SEAT} holds all four {en} (a revealed chicken): {PAYER} pays {f.fan}",
        "满鸡算清一色：胡牌的人有翻出的鸡的全部四张，按清一色收",
        "all four of a revealed chicken: the winner is paid as for a one-suit hand",
    )


class ManjiPricer(Pricer):
    """满鸡 to a seat deciding: the reveal is not known before the win, so a held or melded
    kind with all four copies is worth ``fan`` from the win's payers (the mean of a
    self-draw's and a discard's) times the chance that the reveal makes it — each of the
    ``flip`` directions makes one kind of the reveal's suit, so ``directions / 27``
    (the 108 suited tiles)."""

    def __init__(self, p: ManjiParams, rules: BoundRules) -> None:
        ch = chicken_params(rules)
        directions = len(ch.flip.makes) if ch is not None else 0
        payers = rules.players / 2  # the mean of a self-draw's (players − 1) and a discard's 1
        self.per_kind = p.fan * payers * directions / 27.0
        self.active = bool(self.per_kind)

    def held(self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int) -> Ends:
        """At a win: each kind held four times (concealed, or a kong) times its chance."""
        if not self.active:
            return NO_ENDS
        full = sum(1 for k in range(T.NUM_KINDS) if concealed[k] >= T.COPIES)
        full += sum(1 for m in melds if m.is_kong)
        return (full * self.per_kind, 0.0, 0.0, 0.0, 0.0) if full else NO_ENDS

    def decide(self, d: Decision) -> Pricer:
        return self


def _pricer(p: ManjiParams, rules: BoundRules) -> Pricer | None:
    pricer = ManjiPricer(p, rules)
    return pricer if pricer.active else None


@register(
    Point.SETTLE,
    "manji",
    ManjiParams,
    phase=Phase.WIN_EXTRA,
    title="满鸡算清一色",
    labels={ITEM: ("满鸡", "all four of a revealed chicken")},
    needs={
        "": Because(Set("settle:chickens"), "the variant has no chickens stage (settle.chickens)")
    },
    words=manji_words,
    pricer=_pricer,
)
def settle_manji(ctx: SettleContext, p: ManjiParams) -> None:
    """Each winner holding all four copies of a kind the round's reveals made a chicken is
    paid ``fan`` by each payer of his win (once, however many such kinds he holds)."""
    end = ctx.end
    ch = chicken_params(ctx.ruleset)
    if ch is None or not end.wins or not p.fan:
        return
    kinds = revealed_kinds(end, ctx.ruleset, ch)
    if not kinds:
        return
    for win in end.wins:
        if win.seat in ctx.void_wins:
            continue
        counts = copies_held(end, win, ch.scope == "all")
        full = next((k for k in kinds if counts[k] >= T.COPIES), None)
        if full is None:
            continue
        f = fact(tiles=(full,), count=T.COPIES, fan=p.fan, seat=win.seat, pattern="qingyise")
        for payer in payers(end, win):
            ctx.pay(payer, win.seat, p.fan, ITEM, fact=f)
