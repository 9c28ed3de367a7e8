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
* 包鸡 (``unready_pays``) — what an unready player pays for, to whom;
* 首圈鸡 (``chongfeng.shouquan``, ``zeren.shouquan``, FW idx 14) — a 冲锋 discarded, or a
  责任 claimed, in the first go-round (the stage's ``go_round_length``) at its own
  multipliers (``chongfeng_multipliers``);
* 横鸡 (``hengji``, DS §7.3) — the statuses of the discards so far and of this seat's next
  one from the stage's own walk of the table (``DiscardWalk``, with its rounds), a 横鸡
  discard worth ``status_value`` to its discarder (by ``scope``), in 包鸡, and in DS's 责任
  premium;
* a 冲锋 taken over by its claimer (``chongfeng.claimed: claimer``) — the claimer's when he
  ends ready, else still the discarder's: what a claim of it earns, what a claimed one of
  this seat's is still worth, what a punged one costs.

:class:`ChickenSeat` prices one decision: what the seat owns and owes so far (its melds, its
unclaimed discards by ``scope``, its 冲锋), the chicken payers and 包鸡 payees from the bot's
readiness estimates, and then each option's ends (:meth:`ChickenSeat.held`), a discard's
冲锋 and 责任 risk, a claim's 责任.

Not priced (the bot then under- or over-values those chickens; it never breaks): 站鸡,
捉炮鸡, 吹风鸡, pairwise netting, which winner holds a won-on chicken, what a claimed plain
discard stops earning its discarder (内外鸡), the statuses of the tiles 定缺 throws away.

The expert asks these prices for every option it values, so this module is compiled with
:mod:`zhuoji.contract.pricing` (the ``pricing`` group of :mod:`zhuoji.compiled`).  It reads
the stage's functions when the pricer is built, not when it is imported: the group's check
imports its compiled build before the chickens package has finished loading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from zhuoji.contract.pricing import CHICKENS, Decision, Ends, Pricer, TableRow
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
#: the stage's first go-round of discards given as rows: ``go_round_length(rows, players)``
GoRoundOf = Callable[[Sequence[tuple[Any, ...]], int], int]


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
        # the same as columns of machine integers (every decision of a seat reads them)
        self._value_floats = [float(v) for v in value]
        self._reveal_columns = _columns(by_reveal)
        self._thrown_floats = [float(v) for v in thrown]
        self._thrown_columns = _columns(thrown_by_reveal)
        #: 包鸡: one owned copy's value per kind (held, thrown), by the pricer's rule, once
        #: its first seat works it out (:meth:`ChickenSeat._baoji_value`)
        self.baoji: list[float] | None = None

    def expected(self, weights: Sequence[float] | None) -> list[float]:
        """Expected value of one owned tile of each kind, from each payer; ``weights``: the
        chance of each after-win reveal (None: there is none)."""
        return _expected(self._value_floats, self._reveal_columns, weights)

    def expected_thrown(self, weights: Sequence[float] | None) -> list[float]:
        """The same for a discarded copy nobody took (内外鸡, 包鸡)."""
        if not self.thrown:
            return self.expected(weights)
        return _expected(self._thrown_floats, self._thrown_columns, weights)

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


#: a ``by_reveal`` table by kind: where each kind's rows start (one more entry: the end),
#: and the rows' after-win reveals and values added, each kind's in the table's order
Columns = tuple[list[int], list[int], list[int]]


def _columns(by_reveal: tuple[tuple[int, int, int], ...]) -> Columns:
    order = sorted([(k, i) for i, (_r, k, _x) in enumerate(by_reveal)])  # by kind, then row
    starts = [0] * (NUM_KINDS + 1)
    for k, _i in order:
        starts[k + 1] += 1
    for k in range(NUM_KINDS):
        starts[k + 1] += starts[k]
    return starts, [by_reveal[i][0] for _k, i in order], [by_reveal[i][2] for _k, i in order]


def _expected(
    value: list[float], by_reveal: Columns, weights: Sequence[float] | None
) -> list[float]:
    """Per kind, ``value`` plus each after-win reveal's addition times its chance, added in
    the order of the reveal table: kind by kind, each kind's additions in the table's order,
    so the same floats as adding the table's rows one by one."""
    out = list(value)
    if weights is not None:
        w: list[float] = weights if isinstance(weights, list) else list(weights)  # natively
        starts, reveals, extras = by_reveal
        for k in range(NUM_KINDS):
            lo, hi = starts[k], starts[k + 1]
            if lo == hi:
                continue
            acc: float = out[k]
            for i in range(lo, hi):
                acc = acc + extras[i] * w[reveals[i]]
            out[k] = acc
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
        from zhuoji.rules.chickens.discards import (
            DiscardWalk,
            Status,
            chongfeng_multipliers,
            go_round_length,
            named_kinds,
            status_value,
            tiles_of,
        )
        from zhuoji.rules.chickens.values import chicken_table

        self.table_of: TableOf = chicken_table
        self.tiles_of: TilesOf = tiles_of
        self.go_round: GoRoundOf = go_round_length
        self.walk_of: Callable[[Mapping[int, Chicken], Any], Any] = DiscardWalk
        self.status_value: Callable[[Any, Chicken, Any], int] = status_value
        self.CHONGFENG: Any = Status.CHONGFENG
        self.HENGJI: Any = Status.HENGJI
        self.params = p
        self.players = rules.players
        cf, zr, up = p.chongfeng, p.zeren, p.unready_pays

        def named(choice: Any) -> frozenset[int] | None:
            """A tile list as kinds; None for ``any`` (every chicken known during play,
            which ``tiles_of`` reads from the round's table)."""
            return None if choice == "any" else named_kinds(choice)

        self.cf_tiles: frozenset[int] | None = named(cf.tiles) if cf is not None else frozenset()
        #: the 冲锋 multipliers, plain and golden, as the stage reads them (0: no 冲锋鸡)
        self.cf_mult, self.cf_golden_mult = (
            chongfeng_multipliers(p, False) if cf is not None else (0, 0)
        )
        #: the round's first discard of the kind (else: a player's own first)
        self.cf_round_first = cf is None or cf.first == "round"
        #: one 冲锋 a round, shared by its tiles: the first discard of any of them
        self.cf_round_any = cf is not None and cf.first == "round_any"
        self.cf_also_discard = cf is not None and cf.also_discard
        #: 首圈冲锋鸡: a 冲锋 discarded in the first go-round at these multipliers
        self.cf_first: tuple[int, int] | None = None
        if cf is not None and cf.shouquan is not None:
            self.cf_first = chongfeng_multipliers(p, True)
        #: a claimed 冲锋 becomes its claimer's when he ends ready (else stays the discarder's)
        self.cf_to_claimer = cf is not None and cf.claimed == "claimer"
        #: 横鸡 (DS §7.3): the statuses come from the stage's walk of the discards
        self.hengji = p.hengji is not None
        self.zeren_tiles: frozenset[int] | None = named(zr.tiles) if zr is not None else frozenset()
        #: the tile's value × this, to the claimer
        self.zeren_extra = zr.extra if zr is not None and not zr.premium else 0
        #: DS: the claimed discard's 冲锋 value less its plain value
        self.zeren_premium = zr is not None and zr.premium
        self.zeren_first_only = zr is None or zr.claims == "first"
        #: 首圈责任鸡: a claim in the first go-round pays the tile's value × this (0: off)
        self.zeren_first_mult = (
            zr.shouquan.multiplier if zr is not None and zr.shouquan is not None else 0
        )
        #: an unready claimer pays the 责任 back: none, reversed (to a collecting discarder,
        #: GA), reversed_to_any (to the discarder, DS §11.2)
        self.zeren_reversed = zr.claimer_unready if zr is not None else "none"
        #: DS §11.2: the unready claimer pays the claimed chicken's face value on top
        self.zeren_back_face = zr is not None and zr.claimer_pays_back == "face_and_amount"
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
        #: the last table walked (横鸡): its round's prices, the table, the walk past it and
        #: each discard's status
        self._walked: tuple[RoundChickens, tuple[TableRow, ...], Any, list[Any]] | None = None

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

    def walked(self, prices: RoundChickens, table: tuple[TableRow, ...]) -> tuple[Any, list[Any]]:
        """The stage's walk of the discards ``table`` (横鸡 rounds, DS §7.3), and each one's
        status: walked on from the last table asked about where this one continues it (a
        round's table only grows, and every seat's decision asks)."""
        last = self._walked
        start = 0
        if last is not None and last[0] is prices and table[: len(last[1])] == last[1]:
            walk, statuses, start = last[2].copy(), list(last[3]), len(last[1])
        else:
            walk, statuses = self.walk_of(prices.table, self.params), []
        for who, tile, _claimed in table[start:]:
            statuses.append(walk.push(who, tile))
        self._walked = (prices, table, walk, statuses)
        return walk, statuses

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
    the day, the after-win reveal weighted by the unseen tiles), the 冲锋 and 横鸡 discards
    so far, whether the next discard is in the first go-round, and what this seat owns and
    owes."""

    burnt_as = CHICKENS

    def __init__(self, rule: ChickenPricer, d: Decision) -> None:
        self.rule = rule
        self.seat = seat = d.seat
        n = d.players
        self.others = n - 1
        self.table = table = d.table
        self.p_ready = d.p_ready
        self.claim_source = d.claim_source
        #: the bot's estimate of a claimer's chance to end ready: the opponents' mean
        self.claimer_ready = d.ready_opponents / max(1, n - 1)
        self.reveal: list[float] | None = None
        if rule.after_win_reveal:
            self.reveal = [x / d.unseen for x in d.live]
        self.prices = prices = rule.round(tuple(d.reveals), d.weekday)
        self.chicken_ev = ev = prices.expected(self.reveal)
        # 金鸡 on held copies only (DS); where a discarded copy is worth a held one
        # (``thrown`` empty), the values just worked out
        self.thrown_ev = prices.expected_thrown(self.reveal) if prices.thrown else list(ev)
        cf_tiles, zeren_tiles = rule.cf_tiles, rule.zeren_tiles
        self.cf_tiles: frozenset[int] = (
            cf_tiles if cf_tiles is not None else rule.tiles_of("any", prices.table)
        )
        self.zeren_tiles: frozenset[int] = (
            zeren_tiles if zeren_tiles is not None else rule.tiles_of("any", prices.table)
        )
        #: the first go-round (首圈): its discards so far, and whether the next is in it
        self.firsts = rule.go_round(table, n)
        self.next_first = rule.go_round([*table, (seat, 0, None)], n) > len(table)
        seen: set[int] = set()
        started: set[int] = set()
        cf: set[int] = set()
        hj: set[int] = set()
        cf_taken = False  # a discard of a 冲锋 tile was made (``first: round_any``)
        #: the stage's walk of the discards (横鸡 rounds), where there are 横鸡
        self.walk: Any = None
        if rule.hengji:
            self.walk, statuses = rule.walked(prices, table)
            for i, (who, tile, _claimed) in enumerate(table):
                status = statuses[i]
                if status is rule.CHONGFENG and rule.cf_mult and prices.base[tile]:
                    cf.add(i)
                elif status is rule.HENGJI:
                    hj.add(i)
                seen.add(tile)
                started.add(who)
        else:
            for i, (who, tile, _claimed) in enumerate(table):
                if rule.cf_round_any:
                    first = not cf_taken
                elif rule.cf_round_first:
                    first = tile not in seen
                else:
                    first = who not in started
                if rule.cf_mult and tile in self.cf_tiles and prices.base[tile] and first:
                    cf.add(i)
                seen.add(tile)
                started.add(who)
                cf_taken = cf_taken or tile in self.cf_tiles
        self.cf_indexes: frozenset[int] = frozenset(cf)
        self.hj_indexes: frozenset[int] = frozenset(hj)
        self._seen_kinds = frozenset(seen)
        self._started = seat in started
        self._cf_taken = cf_taken
        # this seat's 冲锋 so far: unclaimed, or claimed by a claimer who may end unready
        self.cf_mine = sum(
            self.chongfeng_value(tile, i < self.firsts) * self._kept(claimed)
            for i, (who, tile, claimed) in enumerate(table)
            if i in cf and who == seat and (claimed is None or rule.cf_to_claimer)
        )
        # the 冲锋 this seat claimed: its own where it ends ready
        self.cf_claimed = 0.0
        if rule.cf_to_claimer:
            self.cf_claimed = sum(
                self.chongfeng_value(tile, i < self.firsts)
                for i, (who, tile, claimed) in enumerate(table)
                if i in cf and claimed == seat and who != seat
            )
        self.chicken_payers = float(n - 1)
        if rule.payers_unready:  # ready players do not pay each other
            self.chicken_payers = max(0.0, n - 1 - d.ready_opponents)
        self.baoji_payees = 0.0
        if rule.unready_pays:
            self.baoji_payees = d.ready_opponents if rule.unready_payees_ready else n - 1.0
        self.melds_now = d.own_melds
        self._melds_now = len(d.own_melds)
        self._next: dict[int, Any] = {}  # the next discard's status, by kind
        self._chk_fixed = self._chickens_fixed()
        self._owed_fixed = self._owed_fixed_now()

    def _kept(self, claimer: int | None) -> float:
        """The chance a 冲锋 discard of this seat's is still its own: 1 unclaimed; claimed
        (``claimed: claimer``), the chance its claimer ends unready."""
        return 1.0 if claimer is None else 1.0 - self.p_ready[claimer]

    # --- a discard ----------------------------------------------------------------------

    def _next_status(self, tile: int) -> Any:
        """The stage's status of this seat's discard of ``tile`` if it came next (横鸡
        variants: :class:`~zhuoji.rules.chickens.discards.DiscardWalk`)."""
        got = self._next.get(tile)
        if got is None:
            got = self._next[tile] = self.walk.next_status(self.seat, tile)
        return got

    def is_chongfeng(self, tile: int) -> bool:
        """Whether discarding ``tile`` now makes a 冲锋鸡 (the round's first of its kind, the
        round's first of any 冲锋 tile, or this seat's own first discard, by
        ``chongfeng.first``)."""
        rule = self.rule
        if not rule.cf_mult or tile not in self.cf_tiles or not self.prices.base[tile]:
            return False
        if self.walk is not None:
            return bool(self._next_status(tile) is rule.CHONGFENG)
        if rule.cf_round_any:
            return not self._cf_taken
        return tile not in self._seen_kinds if rule.cf_round_first else not self._started

    def is_hengji(self, tile: int) -> bool:
        """Whether discarding ``tile`` now makes a 横鸡 (DS §7.3)."""
        return self.walk is not None and self._next_status(tile) is self.rule.HENGJI

    def chongfeng_value(self, tile: int, first_round: bool | None = None) -> float:
        """The 冲锋 value of ``tile`` from each other player (its after-win 金鸡 expected),
        discarded in the first go-round (首圈) or not (None: if it were discarded now)."""
        rule = self.rule
        if first_round is None:
            first_round = self.next_first
        if first_round and rule.cf_first is not None:
            mult, golden = rule.cf_first
            return self.prices.chongfeng_value(mult, golden, tile, self.reveal)
        return self.prices.chongfeng_value(rule.cf_mult, rule.cf_golden_mult, tile, self.reveal)

    def hengji_value(self, tile: int) -> float:
        """A 横鸡's value from each payer (the stage's ``status_value``, DS §7.3 "+2")."""
        rule = self.rule
        return float(rule.status_value(rule.HENGJI, self.prices.table[tile], rule.params))

    def _zeren(self, tile: int, status: Any, first_round: bool) -> float:
        """The 责任 a claimed discard of ``tile`` of this status costs its discarder, as the
        stage's ``zeren`` pays it: 首圈 in the first go-round, else the premium (DS: the
        claimed discard's value less its plain value) or the extra."""
        rule = self.rule
        base = self.prices.base[tile]
        if first_round and rule.zeren_first_mult:
            return float(rule.zeren_first_mult * base)
        if rule.zeren_premium:  # a claimed 冲锋 (横鸡) pays its value less its plain value
            if status is None:
                return 0.0
            chicken = self.prices.table[tile]
            return float(rule.status_value(status, chicken, rule.params) - chicken.base)
        return float(rule.zeren_extra * base)

    def zeren_cost(self, tile: int) -> float:
        """责任鸡: what discarding ``tile`` costs its discarder, to the claimer, if punged."""
        rule = self.rule
        if tile not in self.zeren_tiles:
            return 0.0
        if rule.zeren_first_only and tile in self._seen_kinds:
            return 0.0
        status = (
            rule.CHONGFENG
            if self.is_chongfeng(tile)
            else rule.HENGJI
            if self.is_hengji(tile)
            else None
        )
        return self._zeren(tile, status, self.next_first)

    def zeren_claim_tile(self) -> int:
        """The discard now answered when claiming it makes a 责任鸡 (a 责任 tile, the first of
        its kind where only that counts); -1 when it does not."""
        if not self.table:
            return -1
        _who, tile, _claimed = self.table[-1]
        if tile not in self.zeren_tiles:
            return -1
        if self.rule.zeren_first_only and sum(1 for _w, t, _c in self.table if t == tile) > 1:
            return -1
        return tile

    def zeren_claimed(self) -> float:
        """责任鸡 from the claimer's side: what the discarder of the discard now answered owes
        its claimer if it is punged (the extra, 首圈, or DS's premium on a claimed 冲锋 or
        横鸡); 0 when the discard is not a 责任 tile or not the first of its kind where only
        that counts."""
        rule = self.rule
        tile = self.zeren_claim_tile()
        if tile < 0:
            return 0.0
        last = len(self.table) - 1
        status = (
            rule.CHONGFENG
            if last in self.cf_indexes
            else rule.HENGJI
            if last in self.hj_indexes
            else None
        )
        return self._zeren(tile, status, last < self.firsts)

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
        unclaimed discards (a 横鸡 at its own value)."""
        total = self._meld_chickens(self.melds_now, self.chicken_ev)
        thrown = self.thrown_ev
        for i, (who, tile, claimed) in enumerate(self.table):
            if who != self.seat or claimed is not None:
                continue
            if i in self.hj_indexes:
                if self.discard_counts(tile):
                    total += self.hengji_value(tile)
            elif thrown[tile] and self.discard_counts(tile, i in self.cf_indexes):
                total += thrown[tile]
        return total

    def _baoji_value(self, tile: int, thrown: bool = False) -> float:
        """包鸡: one owned copy's value (``thrown``: a discarded one, 金鸡 apart on held
        copies only)."""
        if not self.rule.unready_tiles_all and tile not in self.prices.fixed:
            return 0.0
        prices = self.prices
        return float(prices.thrown[tile] if thrown and prices.thrown else prices.value[tile])

    def _baoji_hengji(self, tile: int) -> float:
        """包鸡 for a 横鸡 discard: its value (the stage's ``shown``)."""
        if not self.rule.unready_tiles_all and tile not in self.prices.fixed:
            return 0.0
        return self.hengji_value(tile)

    def _owed_fixed_now(self) -> float:
        """包鸡 this seat owes each payee if another wins while it is not ready, for what
        ``unready_pays.of`` names: its discarded (横鸡 at their value) and melded chickens,
        its 冲锋 (seed 001 二(5))."""
        rule = self.rule
        if not rule.unready_pays:
            return 0.0
        owed = 0.0
        if "discards" in rule.unready_of:
            for i, (who, tile, claimed) in enumerate(self.table):
                if who != self.seat or claimed is not None:
                    continue
                if i in self.hj_indexes:
                    owed += self._baoji_hengji(tile)
                elif i not in self.cf_indexes or rule.cf_also_discard:
                    owed += self._baoji_value(tile, thrown=True)
        if "melds" in rule.unready_of and self.melds_now:
            values = self.prices.baoji
            if values is None:  # the round's prices and the rule decide them: kept there
                values = self.prices.baoji = [self._baoji_value(k) for k in range(NUM_KINDS)]
            owed += self._meld_chickens(self.melds_now, values)
        if "chongfeng" in rule.unready_of:
            owed += self.cf_mine
        return owed

    def chickens_owned(
        self,
        concealed: Sequence[int],
        melds: tuple[Meld, ...],
        discarded: int,
        chongfeng: bool,
        hengji: bool = False,
    ) -> float:
        """Expected chicken value (from each payer) an option owns, 冲锋 apart."""
        ev = self.chicken_ev
        # Σ value × count in kind order (a zero count adds nothing: skipped), over a list
        # (the expert's hands are lists: read natively, where a Sequence is read generically)
        counts: list[int] = concealed if isinstance(concealed, list) else list(concealed)
        held = 0.0
        for k in range(NUM_KINDS):
            n = counts[k]
            if n:
                held += ev[k] * n
        total: float = self._chk_fixed + held
        if len(melds) > self._melds_now:
            total += self._meld_chickens(melds[self._melds_now :], ev)
        d = discarded
        if hengji:
            if self.discard_counts(d):
                total += self.hengji_value(d)
        elif d >= 0 and self.thrown_ev[d] and self.discard_counts(d, chongfeng):
            total += self.thrown_ev[d]
        return total

    # --- the pricing questions ------------------------------------------------------------

    def held(self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int) -> Ends:
        """A win, or another's win while ready: the chickens owned × their payers (冲锋 ×
        every other player, those it claimed included); another's win while not ready: 包鸡
        for what ``unready_pays.of`` names × its payees (and the chickens, where every
        holder collects); nothing at a draw (no chickens then)."""
        rule = self.rule
        chongfeng = discarded >= 0 and self.is_chongfeng(discarded)
        hengji = discarded >= 0 and not chongfeng and self.is_hengji(discarded)
        cf = self.cf_mine
        if chongfeng:
            cf += self.chongfeng_value(discarded)
        # 冲锋 is paid by every other player, the other chickens by the payers
        owned = self.chickens_owned(concealed, melds, discarded, chongfeng, hengji)
        collect = owned * self.chicken_payers + cf * self.others
        unready = 0.0
        if not rule.collectors_ready:
            unready += collect
        if rule.unready_pays:
            owed = self._owed_fixed
            if chongfeng and "chongfeng" in rule.unready_of:
                owed += self.chongfeng_value(discarded)
            if discarded >= 0 and "discards" in rule.unready_of:
                if hengji:
                    owed += self._baoji_hengji(discarded)
                elif not chongfeng or rule.cf_also_discard:
                    owed += self._baoji_value(discarded, thrown=True)
            unready -= owed * self.baoji_payees
        if self.cf_claimed:  # a claimed 冲锋 is its claimer's when he ends ready
            ready = collect + self.cf_claimed * self.others
            return ready, ready, unready, 0.0, 0.0
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
        return self.is_chongfeng(tile) or self.is_hengji(tile)

    def claimed_loss(self, tile: int, p_collect: float) -> float:
        """A punged 冲锋 is no 冲锋 (seed 000 ②), or (``claimed: claimer``) becomes its
        claimer's when he ends ready: its value is lost where this seat would collect; a
        punged 横鸡 earns its discarder nothing; and the 责任 is paid to the claimer."""
        rule = self.rule
        lost = 0.0
        if self.is_chongfeng(tile):
            lost = self.chongfeng_value(tile) * self.others * p_collect
            if rule.cf_to_claimer:
                lost *= self.claimer_ready
        elif self.is_hengji(tile) and self.discard_counts(tile):
            lost = self.hengji_value(tile) * self.chicken_payers * p_collect
        return lost + self.zeren_cost(tile)

    def claim_gain(self, p_collect: float, p_unready: float) -> float:
        """责任鸡 earned by claiming the discard (any claim, as settlement counts it): paid by
        the discarder when this seat collects; where ``claimer_unready`` reverses it, paid
        back by this seat when it is not ready (to a collecting discarder, or to any, DS
        §11.2; with the chicken's face value on top where ``claimer_pays_back`` says so).
        And (``claimed: claimer``) a claimed 冲锋, this seat's if it ends ready."""
        rule = self.rule
        gain = 0.0
        amount = self.zeren_claimed()
        back = amount  # what an unready claimer pays back where it is reversed
        if rule.zeren_back_face:  # DS §11.2 「面值 + 溢价」
            tile = self.zeren_claim_tile()
            if tile >= 0:
                back = amount + self.prices.base[tile]
        if amount or back:
            gain = amount * (p_collect if rule.collectors_ready else p_collect + p_unready)
            if rule.zeren_reversed != "none" and rule.collectors_ready:
                src = self.claim_source
                p_src = 1.0 if rule.zeren_reversed == "reversed_to_any" else self.p_ready[src]
                gain -= back * p_unready * p_src
        last = len(self.table) - 1
        if rule.cf_to_claimer and last in self.cf_indexes:
            tile = self.table[last][1]
            gain += self.chongfeng_value(tile, last < self.firsts) * self.others * p_collect
        return gain
