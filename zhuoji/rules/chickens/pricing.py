"""What chickens are worth to a seat deciding: the chicken stage's own prices, in expectation.

The stage (:mod:`zhuoji.rules.chickens.stage`) decides at the round's end which kinds are
chickens and who collects what; a bot deciding mid-round needs the same prices in
expectation (:mod:`zhuoji.contract.pricing`).  The round's chicken table comes from the
stage's own :func:`~zhuoji.rules.chickens.values.chicken_table`, with the reveals made so
far and the day, once per possible after-win reveal — so every 翻鸡 direction, 银鸡, 金鸡
and 翻倍鸡 is priced as settlement pays it — and the after-win reveal is weighted by the
tiles the seat has not seen.  The 冲锋 and 责任 tiles are the stage's
(:func:`~zhuoji.rules.chickens.discards.tiles_of`).

:class:`ChickenPricer` reads the parameters once per ruleset (seed 000 2) ①–④, seed 001
进阶规则 一/二, CITIES.md "Reveal and chicken mechanisms"):

* 冲锋鸡/英雄鸡 — which tiles (a list, or ``any`` chicken known during play), whose first
  discard (the round's first of the kind, or a player's own first), the multipliers, and
  whether the tile also counts as an ordinary discarded chicken;
* 责任鸡 — which tiles, the extra (or DS's premium: a claimed 冲锋 costs its 冲锋 value
  less its plain value), first copy only or every claimed copy, reversed for an unready
  claimer;
* 手上鸡 / 内外鸡 (``scope``), who collects (叫嘴), who pays (every other player or the
  unready ones), what a kong counts as;
* 包鸡 (``unready_pays``) — what an unready player pays for, to whom.

:class:`ChickenSeat` prices one decision: what the seat owns and owes so far (its melds, its
unclaimed discards by ``scope``, its 冲锋), the chicken payers and 包鸡 payees from the bot's
readiness estimates, and then each option's ends (:meth:`ChickenSeat.held`), a discard's
冲锋 and 责任 risk, a claim's 责任.

Not priced (the bot then under- or over-values those chickens; it never breaks): 站鸡,
捉炮鸡, 吹风鸡, pairwise netting, which winner holds a won-on chicken; nor, yet, 横鸡, 首圈鸡
and a 冲锋 taken over by a ready claimer.

The expert asks these prices for every option it values, so this module is compiled with
:mod:`zhuoji.contract.pricing` (the ``pricing`` group of :mod:`zhuoji.compiled`).  It reads
the stage's functions when the pricer is built, not when it is imported: the group's check
imports its compiled build before the chickens package has finished loading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from zhuoji.contract.pricing import CHICKENS, Decision, Ends, Pricer
from zhuoji.outcome import Meld, Reveal, RevealAt
from zhuoji.tiles import NUM_KINDS

if TYPE_CHECKING:
    from zhuoji.contract.bound import BoundRules
    from zhuoji.rules.chickens.params import ChickenParams
    from zhuoji.rules.chickens.values import Chicken

#: round tables a pricer keeps (by in-play reveals and weekday) before it forgets them
_ROUNDS_KEPT = 256

#: the stage's table of a round: ``chicken_table(params, reveals, weekday)``
TableOf = Callable[[Any, Iterable[Reveal], int], dict[int, "Chicken"]]
#: the kinds a 冲锋/横鸡/责任 rule names in a table: ``tiles_of(choice, table)``
TilesOf = Callable[[Any, Mapping[int, "Chicken"]], frozenset[int]]


class RoundChickens:
    """One round's chicken prices, given the reveals made during play and the day: per kind
    without an after-win reveal, and what each possible after-win reveal adds."""

    def __init__(
        self,
        table: dict[int, Chicken],
        value: tuple[int, ...],
        base: tuple[int, ...],
        fixed: frozenset[int],
        by_reveal: tuple[tuple[int, int, int], ...],
        golden_by: tuple[tuple[int, int], ...],
        golden: frozenset[int],
        thrown: tuple[int, ...],
        thrown_by_reveal: tuple[tuple[int, int, int], ...],
    ) -> None:
        self.table = table  # the stage's table without an after-win reveal
        self.value = value  # per kind: one tile's value, from each payer
        self.base = base  # per kind: what 冲锋 and 责任 multiply (0: no chicken)
        self.fixed = fixed  # chickens known during play (permanent, in-play reveals)
        self.by_reveal = by_reveal  # (after-win reveal, kind, value added)
        self.golden_by = golden_by  # (after-win reveal, kind it makes golden)
        self.golden = golden  # golden already (a reveal during play)
        #: per kind: a discarded copy's value where it differs from a held one (金鸡 on
        #: held chickens only, ``golden.discards: false``; empty: the same), and by
        #: after-win reveal
        self.thrown = thrown
        self.thrown_by_reveal = thrown_by_reveal

    def expected(self, weights: Sequence[float] | None) -> list[float]:
        """Expected value of one owned tile of each kind, from each payer; ``weights``: the
        chance of each after-win reveal (None: there is none)."""
        return _expected(self.value, self.by_reveal, weights)

    def expected_thrown(self, weights: Sequence[float] | None) -> list[float]:
        """The same for a discarded copy nobody took (内外鸡, 包鸡)."""
        if not self.thrown:
            return self.expected(weights)
        return _expected(self.thrown, self.thrown_by_reveal, weights)

    def chongfeng_value(
        self, multiplier: int, golden_multiplier: int, kind: int, weights: Sequence[float] | None
    ) -> float:
        """Expected 冲锋 value of a discarded ``kind`` at these multipliers, from each other
        player (golden when a reveal during play, or after the win, makes it so)."""
        base = self.base[kind]
        if not multiplier or not base:
            return 0.0
        if kind in self.golden:
            return float(golden_multiplier * base)
        p = 0.0
        if weights is not None:
            p = sum(weights[r] for r, k in self.golden_by if k == kind)
        return base * (multiplier * (1.0 - p) + golden_multiplier * p)


def _expected(
    value: Sequence[int], by_reveal: Sequence[tuple[int, int, int]], weights: Sequence[float] | None
) -> list[float]:
    out = [float(v) for v in value]
    if weights is not None:
        for r, k, extra in by_reveal:
            out[k] = out[k] + extra * weights[r]
    return out


def _vectors(table: dict[int, Chicken]) -> tuple[list[int], list[int], list[int]]:
    """Per kind: a held copy's value, the base 冲锋/责任 multiply, a discarded copy's value."""
    value = [0] * NUM_KINDS
    base = [0] * NUM_KINDS
    thrown = [0] * NUM_KINDS
    for k, c in table.items():
        value[k] = c.value
        base[k] = c.base
        thrown[k] = c.discarded().value
    return value, base, thrown


class ChickenPricer(Pricer):
    """``settle.chickens`` to a seat deciding (see the module docstring): its parameters,
    read once, and the round tables it has priced."""

    burnt_as = CHICKENS

    def __init__(self, p: ChickenParams, rules: BoundRules) -> None:
        # the stage's own functions (imported here: see the module docstring)
        from zhuoji.rules.chickens.discards import named_kinds, tiles_of
        from zhuoji.rules.chickens.values import chicken_table

        self.table_of: TableOf = chicken_table
        self.tiles_of: TilesOf = tiles_of
        self.params = p
        self.players = rules.players
        cf, zr, up = p.chongfeng, p.zeren, p.unready_pays

        def named(choice: Any) -> frozenset[int] | None:
            """A tile list as kinds; None for ``any`` (every chicken known during play,
            which ``tiles_of`` reads from the round's table)."""
            return None if choice == "any" else named_kinds(choice)

        self.cf_tiles: frozenset[int] | None = named(cf.tiles) if cf is not None else frozenset()
        self.cf_mult = cf.multiplier if cf is not None else 0  # 0: no 冲锋鸡
        self.cf_golden_mult = cf.golden_multiplier if cf is not None else 0
        #: the round's first discard of the kind (else: a player's own first)
        self.cf_round_first = cf is None or cf.first == "round"
        self.cf_also_discard = cf is not None and cf.also_discard
        self.zeren_tiles: frozenset[int] | None = named(zr.tiles) if zr is not None else frozenset()
        #: the tile's value × this, to the claimer
        self.zeren_extra = zr.extra if zr is not None and not zr.premium else 0
        #: DS: the claimed discard's 冲锋 value less its plain value
        self.zeren_premium = zr is not None and zr.premium
        self.zeren_first_only = zr is None or zr.claims == "first"
        #: an unready claimer pays the 责任 back: none, reversed (to a collecting discarder,
        #: GA), reversed_to_any (to the discarder, DS §11.2)
        self.zeren_reversed = zr.claimer_unready if zr is not None else "none"
        self.scope = p.scope  # hand / permanent / all: which unclaimed discards still count
        self.collectors_ready = p.collectors == "ready"  # only ready players collect (叫嘴)
        self.payers_unready = p.payers == "unready"  # only unready players pay a collector
        self.kong_counts = p.kong_counts
        self.unready_pays = up is not None  # 包鸡
        self.unready_tiles_all = up is not None and up.tiles == "all"
        self.unready_of: frozenset[str] = frozenset(up.of) if up is not None else frozenset()
        self.unready_payees_ready = up is None or up.payees == "ready"
        #: a tile is revealed after the win (翻鸡)
        self.after_win_reveal = rules.variant.deal.reveal != "none"
        self._rounds: dict[tuple[tuple[int, ...], int], RoundChickens] = {}

    def round(self, in_play: tuple[int, ...], weekday: int) -> RoundChickens:
        """The chicken prices of a round whose reveals during play are ``in_play`` (in
        order), on ``weekday``: the stage's own table, once without and once with each
        possible after-win reveal (kept: rounds of one table see few reveals)."""
        key = (in_play, weekday)
        got = self._rounds.get(key)
        if got is None:
            if len(self._rounds) >= _ROUNDS_KEPT:
                self._rounds.clear()
            got = self._rounds[key] = self._price_round(in_play, weekday)
        return got

    def _price_round(self, in_play: tuple[int, ...], weekday: int) -> RoundChickens:
        p = self.params
        chicken_table = self.table_of
        shown = [Reveal(t, RevealAt.START) for t in in_play]
        table = chicken_table(p, shown, weekday)
        value, base, thrown = _vectors(table)
        by_reveal: list[tuple[int, int, int]] = []
        thrown_by: list[tuple[int, int, int]] = []
        golden_by: list[tuple[int, int]] = []
        if self.after_win_reveal:
            for r in range(NUM_KINDS):
                after = chicken_table(p, [*shown, Reveal(r, RevealAt.WIN)], weekday)
                v, _, th = _vectors(after)
                for k in range(NUM_KINDS):
                    if v[k] != value[k]:
                        by_reveal.append((r, k, v[k] - value[k]))
                    if th[k] != thrown[k]:
                        thrown_by.append((r, k, th[k] - thrown[k]))
                    if k in after and after[k].golden and not (k in table and table[k].golden):
                        golden_by.append((r, k))
        return RoundChickens(
            table,
            tuple(value),
            tuple(base),
            frozenset(k for k, c in table.items() if c.fixed),
            tuple(by_reveal),
            tuple(golden_by),
            frozenset(k for k, c in table.items() if c.golden),
            tuple(thrown) if thrown != value or thrown_by != by_reveal else (),
            tuple(thrown_by),
        )

    def deal_chickens(self) -> dict[int, int]:
        """The permanent chickens (常鸡), at their own value (翻倍鸡 included)."""
        table = self.table_of(self.params, (), 1)
        return {k: c.base for k, c in sorted(table.items()) if c.permanent}

    def deal_chongfeng(self) -> frozenset[int]:
        """The 冲锋 tiles the variant lists; for ``any``, the chickens known at the deal."""
        cf = self.params.chongfeng
        if cf is None:
            return frozenset()
        return self.tiles_of(cf.tiles, self.table_of(self.params, (), 1))

    def decide(self, d: Decision) -> Pricer:
        return ChickenSeat(self, d)


class ChickenSeat(Pricer):
    """:class:`ChickenPricer` for one decision: the round's chicken prices (reveals so far,
    the day, the after-win reveal weighted by the unseen tiles), the 冲锋 discards so far,
    and what this seat owns and owes."""

    burnt_as = CHICKENS

    def __init__(self, rule: ChickenPricer, d: Decision) -> None:
        self.rule = rule
        self.seat = d.seat
        n = d.players
        self.others = n - 1
        self.table = d.table
        self.p_ready = d.p_ready
        self.claim_source = d.claim_source
        self.reveal: list[float] | None = None
        if rule.after_win_reveal:
            self.reveal = [x / d.unseen for x in d.live]
        self.prices = prices = rule.round(tuple(d.reveals), d.weekday)
        self.chicken_ev = prices.expected(self.reveal)
        self.thrown_ev = prices.expected_thrown(self.reveal)  # 金鸡 on held copies only (DS)
        cf_tiles, zeren_tiles = rule.cf_tiles, rule.zeren_tiles
        self.cf_tiles: frozenset[int] = (
            cf_tiles if cf_tiles is not None else rule.tiles_of("any", prices.table)
        )
        self.zeren_tiles: frozenset[int] = (
            zeren_tiles if zeren_tiles is not None else rule.tiles_of("any", prices.table)
        )
        seen: set[int] = set()
        started: set[int] = set()
        cf: set[int] = set()
        for i, (who, tile, _claimed) in enumerate(self.table):
            first = tile not in seen if rule.cf_round_first else who not in started
            if rule.cf_mult and tile in self.cf_tiles and prices.base[tile] and first:
                cf.add(i)
            seen.add(tile)
            started.add(who)
        self.cf_indexes: frozenset[int] = frozenset(cf)
        self._seen_kinds = frozenset(seen)
        self._started = self.seat in started
        self.cf_mine = sum(
            self.chongfeng_value(tile)
            for i, (who, tile, claimed) in enumerate(self.table)
            if i in cf and who == self.seat and claimed is None
        )
        self.chicken_payers = float(n - 1)
        if rule.payers_unready:  # ready players do not pay each other
            self.chicken_payers = max(0.0, n - 1 - d.ready_opponents)
        self.baoji_payees = 0.0
        if rule.unready_pays:
            self.baoji_payees = d.ready_opponents if rule.unready_payees_ready else n - 1.0
        self.melds_now = d.own_melds
        self._melds_now = len(d.own_melds)
        self._chk_fixed = self._chickens_fixed()
        self._owed_fixed = self._owed_fixed_now()

    # --- a discard ----------------------------------------------------------------------

    def is_chongfeng(self, tile: int) -> bool:
        """Whether discarding ``tile`` now makes a 冲锋鸡 (the round's first of its kind, or
        this seat's own first discard, by ``chongfeng.first``)."""
        rule = self.rule
        if not rule.cf_mult or tile not in self.cf_tiles or not self.prices.base[tile]:
            return False
        return tile not in self._seen_kinds if rule.cf_round_first else not self._started

    def chongfeng_value(self, tile: int) -> float:
        """The 冲锋 value of ``tile`` from each other player (its after-win 金鸡 expected)."""
        rule = self.rule
        return self.prices.chongfeng_value(rule.cf_mult, rule.cf_golden_mult, tile, self.reveal)

    def zeren_cost(self, tile: int) -> float:
        """责任鸡: what discarding ``tile`` costs its discarder, to the claimer, if punged."""
        rule = self.rule
        if tile not in self.zeren_tiles:
            return 0.0
        if rule.zeren_first_only and tile in self._seen_kinds:
            return 0.0
        if rule.zeren_premium:  # a claimed 冲锋 pays its 冲锋 value less its plain value
            base = self.prices.base[tile]
            return float((rule.cf_mult - 1) * base) if self.is_chongfeng(tile) else 0.0
        return float(rule.zeren_extra * self.prices.base[tile])

    def zeren_claimed(self) -> float:
        """责任鸡 from the claimer's side: what the discarder of the discard now answered owes
        its claimer if it is punged (the extra, or DS's premium on a claimed 冲锋); 0 when
        the discard is not a 责任 tile or not the first of its kind where only that counts."""
        rule = self.rule
        if not self.table:
            return 0.0
        _who, tile, _claimed = self.table[-1]
        if tile not in self.zeren_tiles:
            return 0.0
        if rule.zeren_first_only and sum(1 for _w, t, _c in self.table if t == tile) > 1:
            return 0.0
        base = self.prices.base[tile]
        if rule.zeren_premium:
            last = len(self.table) - 1
            return float((rule.cf_mult - 1) * base) if last in self.cf_indexes else 0.0
        return float(rule.zeren_extra * base)

    def discard_counts(self, tile: int, chongfeng: bool = False) -> bool:
        """Whether an unclaimed discard of ``tile`` still counts for its discarder (手上鸡 /
        内外鸡 by ``scope``; a 冲锋 tile only where it also counts as a discard)."""
        rule = self.rule
        if chongfeng and not rule.cf_also_discard:
            return False
        return rule.scope == "all" or (rule.scope == "permanent" and tile in self.prices.fixed)

    # --- what this seat owns and owes ------------------------------------------------------

    def _meld_chickens(self, melds: Sequence[Meld], values: Sequence[float]) -> float:
        kong = self.rule.kong_counts
        total = 0.0
        for m in melds:
            for k in set(m.tiles):
                if values[k]:
                    total += values[k] * (kong if m.kind.is_kong else m.tiles.count(k))
        return total

    def _chickens_fixed(self) -> float:
        """Chicken value (from each payer) of this seat's melds and, by ``scope``, its
        unclaimed discards."""
        total = self._meld_chickens(self.melds_now, self.chicken_ev)
        thrown = self.thrown_ev
        for i, (who, tile, claimed) in enumerate(self.table):
            mine = who == self.seat and claimed is None and thrown[tile]
            if mine and self.discard_counts(tile, i in self.cf_indexes):
                total += thrown[tile]
        return total

    def _baoji_value(self, tile: int, thrown: bool = False) -> float:
        """包鸡: one owned copy's value (``thrown``: a discarded one, 金鸡 apart on held
        copies only)."""
        if not self.rule.unready_tiles_all and tile not in self.prices.fixed:
            return 0.0
        prices = self.prices
        return float(prices.thrown[tile] if thrown and prices.thrown else prices.value[tile])

    def _owed_fixed_now(self) -> float:
        """包鸡 this seat owes each payee if another wins while it is not ready, for what
        ``unready_pays.of`` names: its discarded and melded chickens, its 冲锋 (seed 001
        二(5))."""
        rule = self.rule
        if not rule.unready_pays:
            return 0.0
        owed = 0.0
        if "discards" in rule.unready_of:
            for i, (who, tile, claimed) in enumerate(self.table):
                plain = i not in self.cf_indexes or rule.cf_also_discard
                if who == self.seat and claimed is None and plain:
                    owed += self._baoji_value(tile, thrown=True)
        if "melds" in rule.unready_of:
            values = [self._baoji_value(k) for k in range(NUM_KINDS)]
            owed += self._meld_chickens(self.melds_now, values)
        if "chongfeng" in rule.unready_of:
            owed += self.cf_mine
        return owed

    def chickens_owned(
        self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int, chongfeng: bool
    ) -> float:
        """Expected chicken value (from each payer) an option owns, 冲锋 apart."""
        ev = self.chicken_ev
        # Σ value × count in kind order (a zero count adds nothing: skipped)
        held = 0.0
        for k in range(NUM_KINDS):
            n = concealed[k]
            if n:
                held += ev[k] * n
        total: float = self._chk_fixed + held
        if len(melds) > self._melds_now:
            total += self._meld_chickens(melds[self._melds_now :], ev)
        d = discarded
        if d >= 0 and self.thrown_ev[d] and self.discard_counts(d, chongfeng):
            total += self.thrown_ev[d]
        return total

    # --- the pricing questions ------------------------------------------------------------

    def held(self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int) -> Ends:
        """A win, or another's win while ready: the chickens owned × their payers (冲锋 ×
        every other player); another's win while not ready: 包鸡 for what ``unready_pays.of``
        names × its payees (and the chickens, where every holder collects); nothing at a
        draw (no chickens then)."""
        rule = self.rule
        chongfeng = discarded >= 0 and self.is_chongfeng(discarded)
        cf = self.cf_mine
        if chongfeng:
            cf += self.chongfeng_value(discarded)
        # 冲锋 is paid by every other player, the other chickens by the payers
        owned = self.chickens_owned(concealed, melds, discarded, chongfeng)
        collect = owned * self.chicken_payers + cf * self.others
        unready = 0.0
        if not rule.collectors_ready:
            unready += collect
        if rule.unready_pays:
            owed = self._owed_fixed
            if chongfeng and "chongfeng" in rule.unready_of:
                owed += self.chongfeng_value(discarded)
            if (
                discarded >= 0
                and "discards" in rule.unready_of
                and (not chongfeng or rule.cf_also_discard)
            ):
                owed += self._baoji_value(discarded, thrown=True)
            unready -= owed * self.baoji_payees
        return collect, collect, unready, 0.0, 0.0

    def hold_values(self) -> Sequence[float]:
        return self.chicken_ev

    def discards_worth(self, tiles: Sequence[tuple[int, int]]) -> float:
        """Discarded chickens that still count for their discarder (内外鸡 by ``scope``),
        × the payers."""
        worth = self.thrown_ev
        kept = sum(worth[k] * n for k, n in tiles if worth[k] and self.discard_counts(k))
        return kept * self.chicken_payers

    def prices_discard(self, tile: int) -> bool:
        return self.is_chongfeng(tile)

    def claimed_loss(self, tile: int, p_collect: float) -> float:
        """A punged 冲锋 is no 冲锋 (seed 000 ②): its value is lost where this seat would
        collect; and the 责任 is paid to the claimer."""
        lost = 0.0
        if self.is_chongfeng(tile):
            lost = self.chongfeng_value(tile) * self.others * p_collect
        return lost + self.zeren_cost(tile)

    def claim_gain(self, p_collect: float, p_unready: float) -> float:
        """责任鸡 earned by claiming the discard (any claim, as settlement counts it): paid by
        the discarder when this seat collects; where ``claimer_unready`` reverses it, paid
        back by this seat when it is not ready (to a collecting discarder, or to any, DS
        §11.2)."""
        rule = self.rule
        amount = self.zeren_claimed()
        if not amount:
            return 0.0
        gain = amount * (p_collect if rule.collectors_ready else p_collect + p_unready)
        if rule.zeren_reversed != "none" and rule.collectors_ready:
            src = self.claim_source
            p_src = 1.0 if rule.zeren_reversed == "reversed_to_any" else self.p_ready[src]
            gain -= amount * p_unready * p_src
        return gain
