"""Settlement: ordered hook stages turn a :class:`RoundEnd` into an itemized :class:`Ledger`.

Every payment is a :class:`LedgerEntry` ``{payer, payee, amount, item, detail}`` (DESIGN.md,
"Ledger"); per-seat totals are derived, and the ledger sums to zero by construction.  The
stages come from the variant (``settle:``), run by :class:`~zhuoji.rules.registry.Phase`:
penalties, win payment, 杀报, burning, chickens, dou, liability, side payments, 查叫.  The
engine and ``zhuoji settle FILE`` both call :func:`settle`.

Stages pay in units (番, 分, 鸡, 嘴); the table's stake (the variant's top-level ``stake``,
a per-table override) is applied by the :class:`Ledger` alone, so every item scales with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property

from zhuoji.hand import HandRules
from zhuoji.outcome import Meld, RoundEnd, Win, WinHow
from zhuoji.rules import registry
from zhuoji.rules.facts import WinContext
from zhuoji.rules.patterns import HandValue, evaluate, waiting_value
from zhuoji.tiles import suit_of
from zhuoji.variant import Ruleset


def item_label(item: str) -> tuple[str, str]:
    """(Chinese, English) label of a ledger item code (registered by the hook that pays it:
    :func:`zhuoji.rules.registry.register_labels`)."""
    return registry.item_label(item)


@dataclass(frozen=True)
class LedgerEntry:
    """One payment: ``units`` of the rule's own unit (番, 分, 鸡 or 嘴) times the table's stake
    make ``amount``.  A ``void`` entry (its reason given) stays on record to explain the
    round but moves no money."""

    payer: int
    payee: int
    amount: int
    item: str
    detail: str
    units: int
    void: str | None = None

    def as_dict(self) -> dict[str, object]:
        zh, en = item_label(self.item)
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "units": self.units,
            "item": self.item,
            "label": zh,
            "label_en": en,
            "detail": self.detail,
            "void": self.void,
        }


def _entry(payer: int, payee: int, amount: int, item: str, detail: str, units: int) -> LedgerEntry:
    """A live :class:`LedgerEntry`, the same as ``LedgerEntry(...)``, built without the
    frozen dataclass's field-by-field ``object.__setattr__`` (a round pays a dozen)."""
    entry = _new_object(LedgerEntry)
    entry.__dict__.update(
        payer=payer, payee=payee, amount=amount, item=item, detail=detail, units=units, void=None
    )
    return entry


_new_object = object.__new__


@dataclass
class Ledger:
    """The itemized settlement of one round.  The stake lives here and only here: stages pay
    in units (:meth:`pay`), the ledger multiplies (STYLE.md "A cross-cutting quantity lives
    in one place")."""

    players: int
    stake: int = 1
    record: list[LedgerEntry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    next_dealer: int = 0
    next_streak: int = 0

    def pay(self, payer: int, payee: int, units: int, item: str, detail: str) -> int | None:
        """Record ``payer`` paying ``payee`` ``units`` × stake; a negative amount is paid the
        other way, nothing is recorded for zero or a seat paying itself.  Returns the new
        entry's index in :attr:`record` (None when nothing was recorded)."""
        if units < 0:
            payer, payee, units = payee, payer, -units
        if units == 0 or payer == payee:
            return None
        self.record.append(_entry(payer, payee, units * self.stake, item, detail, units))
        return len(self.record) - 1

    def void(self, indices: Iterable[int], why: str) -> list[LedgerEntry]:
        """Mark the live entries at ``indices`` void (reason ``why``): they stay on record to
        explain the round, excluded from totals.  Returns the entries voided."""
        voided = []
        for i in indices:
            e = self.record[i]
            if e.void is None:
                self.record[i] = replace(e, void=why)
                voided.append(e)
        return voided

    @property
    def entries(self) -> list[LedgerEntry]:
        """The entries that move money (void ones left out)."""
        return [e for e in self.record if e.void is None]

    def totals(self) -> list[int]:
        out = [0] * self.players
        for e in self.record:
            if e.void is None:
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
            "stake": self.stake,
            "entries": [e.as_dict() for e in self.record],
            "totals": self.totals(),
            "notes": list(self.notes),
            "next_dealer": self.next_dealer,
            "next_streak": self.next_streak,
        }


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

    def __init__(self, ruleset: Ruleset, end: RoundEnd) -> None:
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
        penalty stays owed (seed 001 (四)(1) "需倒賠的英雄雞、責任雞仍然生效")."""
        b = self._burns.setdefault(seat, _Burn())
        b.chickens = b.chickens or chickens
        if dou is DouBurn.ALL:
            b.dou = DouBurn.ALL
        elif dou is DouBurn.KONG and kong_tile is not None:
            if b.dou is DouBurn.NONE:
                b.dou = DouBurn.KONG
            b.kong_tiles.add(kong_tile)
        parts = [
            *(["chickens"] if chickens else []),
            *({DouBurn.ALL: ["every dou"], DouBurn.KONG: ["that kong"]}.get(dou, [])),
        ]
        if parts:
            self.note(f"seat {seat} burnt (烧, {why}): {' and '.join(parts)} void, penalties stay")

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

    def pay(self, payer: int, payee: int, units: int, item: str, detail: str) -> int | None:
        """Pay ``units`` (the rule's own unit); the ledger applies the table's stake.  Returns
        the entry's index in the ledger's record (None when nothing was paid)."""
        return self.ledger.pay(payer, payee, units, item, detail)

    def note(self, text: str) -> None:
        self.ledger.notes.append(text)


def settle(ruleset: Ruleset, end: RoundEnd) -> Ledger:
    """Run the variant's stages over a finished round; also decide the next dealer."""
    ctx = SettleContext(ruleset, end)
    for stage in ruleset.stages:
        stage(ctx)
    ctx.ledger.next_dealer, ctx.ledger.next_streak = ruleset.dealer(end, ctx.ready)
    return ctx.ledger
