"""The settle context: what a settlement stage receives and shares with the others.

Part of the hook contract (:mod:`zhuoji.contract`): every ``settle`` hook is called with a
:class:`SettleContext` and its parameters, reads the round's end and its facts (readiness,
hand values) here, and pays through it.  It sits below the hook modules and the settlement
pipeline (:mod:`zhuoji.settle`), so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from zhuoji.contract.bound import BoundRules
from zhuoji.contract.ledger import NO_FACT, Fact, Ledger, Remark, fact
from zhuoji.contract.ledger_kernel import pay as ledger_pay
from zhuoji.hand import HandRules
from zhuoji.outcome import Meld, RoundEnd, Win, WinHow, frozen_from
from zhuoji.rules.facts import WinContext
from zhuoji.rules.patterns import HandValue, evaluate, waiting_value
from zhuoji.tiles import suit_of

# a win's kinds as module constants: compiled, a member read off its class goes through the
# enum type's ``__getattr__`` (about 0.9 K instructions a read; issue 29)
_SELF_DRAW: Final = WinHow.SELF_DRAW
_ROB_KONG: Final = WinHow.ROB_KONG


class DouBurn(StrEnum):
    """What burning (烧) does to a player's kongs."""

    NONE = "none"  # kongs keep their score
    KONG = "kong"  # only the kong behind the 热炮 / 抢杠 is cancelled
    ALL = "all"  # every kong of his scores nothing (烧光, 一烧全烧)


@dataclass
class _Burn:
    chickens: bool = False
    dou: DouBurn = DouBurn.NONE
    kong_tiles: set[int] = field(default_factory=set)


class SettleContext:
    """What stages share while settling one round."""

    def __init__(self, ruleset: BoundRules, end: RoundEnd) -> None:
        self.ruleset = ruleset
        self.end = end
        self.players = end.players
        self.ledger = Ledger(end.players, ruleset.stake)
        self.rules: HandRules = ruleset.hand_rules(end.wild)
        self.void_wins: set[int] = set()  # wins paid the other way round (包牌)
        #: per winner, the record indices of what the win stage paid him (liability voids them)
        self.win_entries: dict[int, list[int]] = {}
        self._burns: dict[int, _Burn] = {}
        self._values: dict[tuple[int, bool], HandValue] = {}
        self.winners: list[int] = [w.seat for w in end.wins]
        #: the id of the hook now paying (set by the settlement pipeline before each stage);
        #: every entry and remark records it, so its words come from that hook
        self.rule = ""
        #: (next dealer, his streak) when a stage decides them itself instead of the
        #: variant's dealer rule (吹风鸡, FW: the round is void and the dealer stays)
        self.next_dealer: tuple[int, int] | None = None
        self._ready: list[bool] | None = None

    # --- burning (烧) -----------------------------------------------------------------

    def burn(
        self,
        seat: int,
        *,
        chickens: bool,
        dou: DouBurn,
        kong_tile: int | None = None,
        why: str,
    ) -> None:
        """Burn (烧) ``seat``: his chickens collect nothing (``chickens``), and his kongs score
        nothing — all of them, or only the one of ``kong_tile`` (``dou``).  What he owes as a
        penalty stays owed (seed 001 (四)(1) "需倒賠的英雄雞、責任雞仍然生效").  ``why`` is the
        burning hook's code for the case (``repao``, ``rob_kong`` …): the remark it leaves
        (item ``burn``) is worded by that hook."""
        b = self._burns.setdefault(seat, _Burn())
        b.chickens = b.chickens or chickens
        if dou is DouBurn.ALL:
            b.dou = DouBurn.ALL
        elif dou is DouBurn.KONG and kong_tile is not None:
            if b.dou is DouBurn.NONE:
                b.dou = DouBurn.KONG
            b.kong_tiles.add(kong_tile)
        tags = (
            *(("chickens",) if chickens else ()),
            *({DouBurn.ALL: ("dou",), DouBurn.KONG: ("kong",)}.get(dou, ())),
        )
        if tags:
            tiles = (kong_tile,) if dou is DouBurn.KONG and kong_tile is not None else ()
            self.remark("burn", fact(seat=seat, kind=why, tags=tags, tiles=tiles))

    @property
    def burnt(self) -> frozenset[int]:
        """Seats whose chickens are burnt (the older spelling of :meth:`chickens_burnt`)."""
        return frozenset(s for s, b in self._burns.items() if b.chickens)

    def chickens_burnt(self, seat: int) -> bool:
        """Whether ``seat``'s chickens are burnt: he collects none (he still pays)."""
        b = self._burns.get(seat)
        return b is not None and b.chickens

    def kong_burnt(self, seat: int, meld: Meld) -> bool:
        """Whether ``seat``'s kong ``meld`` is burnt: it scores nothing."""
        b = self._burns.get(seat)
        if b is None:
            return False
        return b.dou is DouBurn.ALL or (b.dou is DouBurn.KONG and meld.tile in b.kong_tiles)

    # --- facts -----------------------------------------------------------------------

    @property
    def ready(self) -> list[bool]:
        """Winners, and players whose concealed hand waits (叫嘴); under 定缺 a hand holding
        its void suit cannot win, so it is not ready (花猪), and only waits outside the void
        suit count.  Worked out on first use and kept (a plain attribute: ``cached_property``
        takes a lock to work it out, in Python 3.11)."""
        got = self._ready
        if got is None:
            got = self._ready = self._work_out_ready()
        return got

    def _work_out_ready(self) -> list[bool]:
        out = []
        known = self.end.ready
        for s, seat in enumerate(self.end.seats):
            if s in self.winners:
                out.append(True)
            # (``void_tiles`` is a Python call: asked only of a seat with a void suit)
            elif seat.xianggong or (seat.void_suit is not None and seat.void_tiles()):
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
        # the win's fields read once each (compiled, a read of another group's record is a
        # generic attribute lookup)
        how = win.how
        seat = win.seat
        # every field, in field order (``frozen_from``: no frozen ``__init__``, once a win)
        return frozen_from(
            WinContext,
            {
                "self_draw": how is _SELF_DRAW or (rob_kong_as_self_draw and how is _ROB_KONG),
                "rob_kong": how is _ROB_KONG,
                "gangkai": end.gangkai,
                "repao": end.repao,
                "haidi": end.haidi,
                "tianhu": end.tianhu,
                "dihu": end.dihu,
                "renhu": end.renhu,
                "declared": end.seats[seat].declared is not None,
                "dealer": seat == end.dealer,
                "seat_wind": end.seat_wind(seat),
                "round_wind": end.round_wind,
            },
        )

    def win_value(self, win: Win, *, rob_kong_as_self_draw: bool = False) -> HandValue:
        key = (win.seat, rob_kong_as_self_draw)
        if key not in self._values:
            end = self.end
            seat = end.seats[win.seat]
            full = seat.concealed_counts()
            tile = end.win_tile  # (read once: a generic attribute lookup, compiled)
            assert tile is not None
            full[tile] += 1
            ctx = self.win_context(win, rob_kong_as_self_draw=rob_kong_as_self_draw)
            value = evaluate(self.ruleset.variant.patterns, self.rules, full, seat.melds, tile, ctx)
            if value is None:
                raise ValueError(f"seat {win.seat}'s hand does not win")
            self._values[key] = value
        return self._values[key]

    def ready_value(self, seat: int, concealed: list[int] | None = None) -> HandValue | None:
        """The best pattern value a ready (non-winning) seat waits on (of ``concealed`` in
        place of his concealed tiles, when given); None when he is not ready."""
        s = self.end.seats[seat]
        ctx = WinContext(
            declared=s.declared is not None,
            dealer=seat == self.end.dealer,
            seat_wind=self.end.seat_wind(seat),
            round_wind=self.end.round_wind,
        )
        tiles = s.concealed_counts() if concealed is None else concealed
        return waiting_value(
            self.ruleset.variant.patterns, self.rules, tiles, s.melds, ctx, skip_suit=s.void_suit
        )

    def others(self, seat: int) -> Iterable[int]:
        return (s for s in range(self.players) if s != seat)

    def pay(
        self,
        payer: int,
        payee: int,
        units: int,
        item: str,
        detail: str = "",
        *,
        fact: Fact = NO_FACT,
    ) -> int | None:
        """Pay ``units`` (the rule's own unit) under ``item``; the ledger applies the table's
        stake.  ``fact`` holds what the units count (tiles, counts, multipliers, seats: see
        :class:`~zhuoji.contract.ledger.Fact`), which the paying hook's words turn into
        sentences; ``detail`` is free text for a hook that registers no words.  Returns the
        entry's index in the ledger's record (None when nothing was paid)."""
        # ``Ledger.pay``'s own payment, called without its Python frame (the compiled stages
        # pay through it so too)
        return ledger_pay(self.ledger, payer, payee, units, item, detail, fact, self.rule)

    def remark(self, item: str, fact: Fact = NO_FACT) -> None:
        """Record something about the round that moves no money (worded by this hook)."""
        self.ledger.remarks.append(Remark(self.rule, item, fact))

    def note(self, text: str) -> None:
        """Free text about the round (for a hook that registers no words; see :meth:`remark`)."""
        self.ledger.notes.append(text)
