"""Fast hand and table analysis for bots: shanten, ukeire, live tiles, the 通行证 check.

Bots decide dozens of times a round and a simulation plays 10^4–10^6 rounds, so the hot
question — *after each possible discard, how far is the hand from ready and how many live
tiles improve it (ukeire)?* — is answered here from the per-suit class tables of
:mod:`zhuoji.hand_tables` (the same tables :mod:`zhuoji.hand` uses).  A hand's distance is
``product(class(万), class(条), class(筒), class(字))``; when one tile is added to one suit,
only that suit's class changes, so the product of the other three is computed once per
discard and every candidate draw costs three table look-ups.  Seven pairs is counted
incrementally from the count histogram.  For a plain hand (no wild tiles, no 十三烂) this
runs compiled, in :mod:`zhuoji.discard_kernel`.

Exactness: :meth:`HandAnalyzer.distance` equals :meth:`zhuoji.hand.HandRules.distance`
for every hand that holds no four-of-a-kind (a test compares them on random hands of every
shipped variant).  With a four-of-a-kind the raw tables may count a fifth copy of it (they
read ``1111m`` as a pung and a pair missing one tile), so the distance can be one too low;
``HandRules`` recomputes such suits exactly, at a cost of milliseconds a pattern, which a
bot cannot pay on every decision.  The error never touches ukeire (the kind held four
times has no live copy) nor completeness (a complete hand needs no added tile), and the
bots ask ``HandRules`` itself where it matters (kong decisions).  Wild tiles with a 红中配
stand-in held and 十三烂 go through the public :mod:`zhuoji.hand` functions.

:class:`TableView` is what a bot knows of the table, from its :class:`Observation` only:
tiles visible to it (own hand, every meld, discards left on the table, the 宝牌 indicator),
hence the live (unseen) count of every kind, and per-seat histories.

:func:`may_win_on_discard` asks the variant's own ``may_win`` hooks (the 通行证 rule, seed
000 特殊玩法规则 1): without a dou, 报听 or a pattern above 平胡 a player cannot win on a
discard, only by self-draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final, NamedTuple

from mypy_extensions import mypyc_attr

from zhuoji import hand as H
from zhuoji import tiles as T
from zhuoji.outcome import Meld, MeldKind, WinHow
from zhuoji.rules.screen import PatternScreen as PatternScreen
from zhuoji.rules.screen import pattern_fan, screen_for
from zhuoji.rules.win import WinCheck, void_suit_clear
from zhuoji.ruleset import Ruleset  # at run time: SeatFacts' compiled build reads its fields' types

if TYPE_CHECKING:
    from zhuoji.observation import Observation

from zhuoji.agents import discards as _discards
from zhuoji.agents.discards import DiscardOption as DiscardOption

_FAR = H.FAR
_ON_DISCARD = WinHow.DISCARD  # (an enum member read once: reading it off the class is slow)
_lan_distance = H.shisanlan_distance


@mypyc_attr(allow_interpreted_subclasses=True)  # the expert's MemoAnalyzer
class HandAnalyzer:
    """Shanten and ukeire for one :class:`~zhuoji.hand.HandRules` (forms, wild tiles)."""

    def __init__(self, rules: H.HandRules) -> None:
        self.rules = rules
        self._rules_distance = rules.distance_function()
        self._wild_ukeire = rules.ukeire_function()
        self._wild_discards = rules.discard_distances_function()
        forms = rules.forms
        self.standard = H.Form.STANDARD in forms
        self.pairs = H.Form.SEVEN_PAIRS in forms
        self.lan = H.Form.SHISANLAN in forms
        self.yao = H.Form.SHISANYAO in forms  # 十三幺
        self.strict_lan = rules.strict_lan
        self.quads_as_two = rules.quads_as_two_pairs
        w = rules.wild
        self.wild = w.kind if w is not None else -1
        self.stand_in = (
            w.stand_in if w is not None and w.stand_in is not None and w.stand_in != w.kind else -1
        )
        #: every form switch of the kernel's ``*_wild`` functions (the rules' own)
        self.wild_switches: int = rules._switches
        #: :meth:`options` works out every discard's improving kinds in one kernel call
        #: (wild tiles) unless a subclass answers :meth:`ukeire` its own way (the expert's
        #: remembering analyzer), which it then asks discard by discard
        self.batch_wild = self.wild >= 0 and type(self).ukeire is _UKEIRE
        #: the incremental fast path applies (no wild tiles, no 十三烂)
        self.plain = self.wild < 0 and not self.lan and self.standard
        #: the other forms, as zhuoji.discard_kernel.discard_options reads them
        self.switches = (
            (_discards.SEVEN_PAIRS if self.pairs else 0)
            | (_discards.SHISANYAO if self.yao else 0)
            | (_discards.QUADS_AS_TWO_PAIRS if self.quads_as_two else 0)
        )

    # --- single hands ----------------------------------------------------------------

    def standard_distance(self, c: Sequence[int]) -> int:
        """The standard form's distance alone (no wild tiles; raw tables, see the module
        docstring)."""
        return H.hand_vector(c)[2 * (sum(c) // 3) + 1]

    def distance(self, c: Sequence[int]) -> int:
        """Fewest tiles to add for a complete hand (0: complete), as ``HandRules.distance``."""
        if self.wild >= 0:  # jokers and 红中配 readings: one compiled kernel call
            return self._rules_distance(c)
        best = _FAR
        n = sum(c)
        if self.standard:
            best = self.standard_distance(c)
        if self.pairs and n >= 13:
            best = min(best, H.seven_pairs_distance(list(c), quads_as_two_pairs=self.quads_as_two))
        if self.lan and n >= 13 and 14 - (T.NUM_KINDS - list(c).count(0)) < best:
            best = min(best, _lan_distance(c, 0, self.strict_lan))
        if self.yao and n >= 13:
            best = min(best, H.shisanyao_distance(c))
        return best

    def shanten(self, c: Sequence[int]) -> int:
        """Tiles from ready (0 ready, -1 complete)."""
        return self.distance(c) - 1

    def ukeire(self, c: Sequence[int], live: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
        """(shanten, live improving tiles, improving kinds) of a hand between turns."""
        if self._wild_ukeire is not None:  # wild tiles: the whole loop in the kernel
            shanten, live_count, improving = self._wild_ukeire(c, live)
            return shanten, live_count, tuple(improving)
        cc = list(c)
        s = self.shanten(cc)
        count = 0
        kinds: list[int] = []
        for t in range(T.NUM_KINDS):
            if live[t] <= 0 or cc[t] >= 4:
                continue
            cc[t] = cc[t] + 1
            if self.distance(cc) - 1 < s:
                count += live[t]
                kinds.append(t)
            cc[t] = cc[t] - 1
        return s, count, tuple(kinds)

    # --- every discard at once ---------------------------------------------------------

    def discard_shanten(self, c: Sequence[int], discards: Iterable[int]) -> dict[int, int]:
        """Shanten after each discard (the hand holds 14 − 3k tiles; each discard held)."""
        cc = list(c)
        if self.plain:
            kinds = list(discards)
            return dict(
                zip(kinds, _discards.discard_shanten(cc, kinds, self.switches), strict=True)
            )
        if self._wild_discards is not None:  # wild tiles: every discard in one kernel call
            kinds = list(discards)
            return {d: n - 1 for d, n in zip(kinds, self._wild_discards(cc, kinds), strict=True)}
        out = {}
        for d in discards:
            cc[d] = cc[d] - 1
            out[d] = self.distance(cc) - 1
            cc[d] = cc[d] + 1
        return out

    def options(
        self,
        c: Sequence[int],
        discards: Iterable[int],
        live: Sequence[int],
        *,
        only_best: bool = True,
    ) -> list[DiscardOption]:
        """Each discard with its shanten and ukeire; with ``only_best`` the ukeire is counted
        only for the discards of the lowest shanten (the others get ``ukeire=-1``)."""
        kinds = _ascending_kinds(discards)
        if self.plain:  # (the kernel only reads the counts)
            return self._plain_options(c if type(c) is list else list(c), kinds, live, only_best)
        if self.batch_wild:  # every discard and its improving kinds in one kernel call
            return _discards.wild_discard_options(
                c if type(c) is list else list(c),
                kinds,
                live if type(live) is list else list(live),
                self.wild,
                self.stand_in,
                self.wild_switches,
                only_best,
            )
        cc = list(c)
        shanten = self.discard_shanten(cc, kinds)
        best = min(shanten.values(), default=_FAR)
        out = []
        for d in kinds:
            s = shanten[d]
            if only_best and s > best:
                out.append(DiscardOption(d, s, -1, ()))
                continue
            cc[d] = cc[d] - 1
            _, count, imp = self.ukeire(cc, live)
            cc[d] = cc[d] + 1
            out.append(DiscardOption(d, s, count, imp))
        return out

    def _plain_options(
        self, c: list[int], kinds: list[int], live: Sequence[int], only_best: bool
    ) -> list[DiscardOption]:
        """:meth:`options` for a plain hand (no wild tiles, no 十三烂): every discard at once
        from the per-suit tables, in :func:`zhuoji.discard_kernel.discard_options`
        (compiled)."""
        lv = live if type(live) is list else list(live)
        return _discards.discard_options(c, kinds, lv, self.switches, only_best)


#: the analyzer's own :meth:`HandAnalyzer.ukeire` (a subclass may answer it its own way)
_UKEIRE = HandAnalyzer.ukeire


def _ascending_kinds(discards: Iterable[int]) -> list[int]:
    """The distinct kinds of ``discards``, ascending (the engine offers a turn's discards
    in that order already, which one pass confirms without sorting)."""
    kinds = list(discards)
    for i in range(1, len(kinds)):
        if kinds[i - 1] >= kinds[i]:
            return sorted(set(kinds))
    return kinds


def analyzer(rules: H.HandRules) -> HandAnalyzer:
    """One analyzer per hand rules (they are frozen, hashable values).  A bot asks at every
    decision with the object its ruleset keeps (``Ruleset.hand_rules``), so that object is
    looked up by identity first, without hashing its fields."""
    known = _BY_IDENTITY.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if len(_BY_IDENTITY) >= 64:
        _BY_IDENTITY.clear()
    found = _analyzer(rules)
    _BY_IDENTITY[id(rules)] = (rules, found)  # holding ``rules`` keeps its id unique
    return found


@lru_cache(maxsize=64)
def _analyzer(rules: H.HandRules) -> HandAnalyzer:
    return HandAnalyzer(rules)


_BY_IDENTITY: dict[int, tuple[H.HandRules, HandAnalyzer]] = {}


# ---------------------------------------------------------------------------------------
# what a seat knows of the table
# ---------------------------------------------------------------------------------------


class TableView:
    """A bot's picture of the table, built from its observation alone.

    The hand is read at once; every seat's melds and declarations, and what needs a pass
    over the discards (visible and live counts, per-seat discard histories), on first use."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.seat = obs.seat
        self.ruleset: Ruleset = obs.ruleset
        self.players = obs.players
        self.hand = list(obs.hand)
        self.wild = obs.wild
        self.rules = self.ruleset.hand_rules(self.wild)
        self.analyzer = analyzer(self.rules)
        self.dealer = obs.dealer
        self._melds: list[tuple[Meld, ...]] | None = None
        self._own_melds: tuple[Meld, ...] | None = None
        self._declared: list[bool] | None = None
        self._live: list[int] | None = None
        self._visible: list[int] | None = None
        self._discards_by: list[list[int]] | None = None
        self._passed: list[list[int]] | None = None
        self._rows: tuple[tuple[int, int, int | None], ...] | None = None
        self._seat_facts: SeatFacts | None = None
        self._plain_chickens: frozenset[int] | None = None
        #: per-decision scratch space for bots (e.g. a threat model computed once)
        self.cache: dict[str, object] = {}

    @property
    def melds(self) -> list[tuple[Meld, ...]]:
        """Each seat's melds (read once)."""
        if self._melds is None:
            self._melds = [self.obs.melds(s) for s in range(self.players)]
        return self._melds

    @property
    def declared(self) -> list[bool]:
        """Whether each seat has declared 报听 (read once)."""
        if self._declared is None:
            self._declared = [self.obs.declared(s) for s in range(self.players)]
        return self._declared

    @property
    def claim_tile(self) -> int:
        """The discard (or kong tile) being answered, -1 outside a claim window."""
        return self.obs.claim_tile

    @property
    def _table(self) -> tuple[tuple[int, int, int | None], ...]:
        """(seat, tile, claimed_by) of every discard in table order, read once."""
        if self._rows is None:
            self._rows = self.obs.discards
        return self._rows

    @property
    def table(self) -> tuple[tuple[int, int, int | None], ...]:
        """(seat, tile, claimed_by) of every discard in table order, read once (the
        observation builds the tuple anew each time it is asked)."""
        return self._table

    @property
    def live(self) -> list[int]:
        """Copies of each kind this seat has not seen (in the wall or others' hands): the
        wall's copies less :attr:`visible`, never below 0."""
        live = self._live
        if live is None:
            live = self._live = self.obs.live_counts(_caps(self.ruleset))
            if self.wild is not None:  # the revealed 宝牌 indicator is seen too
                k = _PREV_IN_CYCLE[self.wild]
                live[k] = max(live[k] - 1, 0)
        return live

    @property
    def visible(self) -> list[int]:
        """Copies of each kind this seat has seen: own hand, melds, table discards (and the
        宝牌 indicator)."""
        visible = self._visible
        if visible is None:
            visible = self._visible = self.obs.seen_counts()
            if self.wild is not None:
                k = _PREV_IN_CYCLE[self.wild]
                visible[k] = visible[k] + 1
        return visible

    @property
    def discards_by(self) -> list[list[int]]:
        """Each seat's discards in order (claimed ones included)."""
        if self._discards_by is None:
            discards_by: list[list[int]] = [[] for _ in range(self.players)]
            for who, tile, _claimed in self._table:
                discards_by[who].append(tile)
            self._discards_by = discards_by
        return self._discards_by

    @property
    def passed(self) -> list[list[int]]:
        """For each seat, the unclaimed discards of others made after its own first discard
        (tiles it let go by)."""
        if self._passed is None:
            n = self.players
            passed: list[list[int]] = [[] for _ in range(n)]
            started = [False] * n
            for who, tile, claimed in self._table:
                if claimed is None:
                    for s in range(n):
                        if s != who and started[s]:
                            passed[s].append(tile)
                started[who] = True
            self._passed = passed
        return self._passed

    @property
    def has_discarded(self) -> bool:
        """Whether this seat has made a discard (claimed or not) this round."""
        return self.obs.discard_count(self.seat) > 0

    @property
    def wall_left(self) -> int:
        return self.obs.wall_left

    @property
    def fan_known(self) -> bool:
        """Whether :func:`pattern_fan` is cheap here (no wild tiles, a screenable table)."""
        return self.wild is None and screen_for(self.ruleset) is not None

    @property
    def plain_chickens(self) -> frozenset[int]:
        """The table's plain permanent chickens: those of the least value among the kinds
        that are chickens in every round (幺鸡 in every shipped 捉鸡 variant; not 乌骨鸡,
        worth two), as the rules' pricers name them (:mod:`zhuoji.contract.pricing`); read
        once a view."""
        plain = self._plain_chickens
        if plain is None:
            plain = self._plain_chickens = _plain_chickens(self.ruleset)
        return plain

    def own_melds(self) -> tuple[Meld, ...]:
        """This seat's melds (read once, without reading the other seats')."""
        own = self._own_melds
        if own is None:
            own = self._own_melds = (
                self.obs.melds(self.seat) if self._melds is None else self._melds[self.seat]
            )
        return own

    @property
    def seat_facts(self) -> SeatFacts:
        """This seat's facts for the 通行证 check and pattern values (:func:`wait_values`)."""
        if self._seat_facts is None:
            own = self.own_melds()
            seat = self.seat
            self._seat_facts = SeatFacts(
                ruleset=self.ruleset,
                wild=self.wild,
                seat=seat,
                dealer=seat == self.dealer,
                declared=(
                    self.obs.declared(seat) if self._declared is None else self._declared[seat]
                ),
                melds=own,
                void_suit=self.obs.void_suit(seat),
                first_turn=not own and not self.has_discarded,
            )
        return self._seat_facts

    def has_kong(self, seat: int | None = None) -> bool:
        return any(m.kind.is_kong for m in self.melds[self.seat if seat is None else seat])


#: :func:`zhuoji.tiles.prev_in_cycle` of each kind, looked up once here (the view asks it of
#: the wild kind for the 宝牌 indicator; a call into the tiles module costs a Python call)
_PREV_IN_CYCLE: Final[tuple[int, ...]] = tuple(T.prev_in_cycle(k) for k in range(T.NUM_KINDS))

#: copies of each kind in a tile set's wall
_CAPS = {
    ts: [T.COPIES if k in set(T.kinds_in(ts)) else 0 for k in range(T.NUM_KINDS)]
    for ts in T.TileSet
}


#: :func:`_caps` by ruleset (a ruleset hashes by identity; emptied past 64 rulesets)
_CAPS_OF: Final[dict[Ruleset, list[int]]] = {}


def _caps(ruleset: Ruleset) -> list[int]:
    """:data:`_CAPS` of the ruleset's tile set (looked up once per ruleset; a dictionary,
    where an ``lru_cache`` cost each view a call through its wrapper)."""
    got = _CAPS_OF.get(ruleset)
    if got is None:
        if len(_CAPS_OF) >= 64:
            _CAPS_OF.clear()
        got = _CAPS_OF[ruleset] = _CAPS[ruleset.variant.tiles.set]
    return got


# ---------------------------------------------------------------------------------------
# the 通行证 rule
# ---------------------------------------------------------------------------------------


def may_win_on_discard(
    view: TableView,
    concealed: Sequence[int],
    tile: int,
    *,
    melds: tuple[Meld, ...] | None = None,
    declared: bool | None = None,
    source: int | None = None,
    fan: int | None = None,
) -> bool:
    """Whether this seat, holding ``concealed`` (13 − 3k tiles) and ``melds``, could win on
    another player's discard of ``tile`` — the variant's ``may_win`` hooks decide (通行证:
    a dou, 报听, or a pattern above the threshold; seed 000 特殊玩法规则 1).  ``fan``, when
    known, is the hand's pattern value with ``tile``."""
    own = view.own_melds() if melds is None else melds
    seat = SeatFacts(
        ruleset=view.ruleset,
        wild=view.wild,
        seat=view.seat,
        dealer=view.seat == view.dealer,
        declared=view.declared[view.seat] if declared is None else declared,
        melds=own,
        void_suit=view.obs.void_suit(view.seat),
        first_turn=not own and not view.has_discarded,
    )
    source_declared = source is not None and view.declared[source]
    return _may_win(seat, concealed, tile, source_declared, fan)


class SeatFacts(NamedTuple):
    """What a seat's 通行证 check and pattern value depend on besides the hand and the tile
    (the fields of :class:`~zhuoji.rules.win.WinCheck` that are the seat's own)."""

    ruleset: Ruleset
    wild: int | None  # the hand rules are ``ruleset.hand_rules(wild)``
    seat: int
    dealer: bool
    declared: bool
    melds: tuple[Meld, ...]
    void_suit: int | None
    first_turn: bool  # neither discarded nor melded yet


def _may_win(
    seat: SeatFacts,
    concealed: Sequence[int],
    tile: int,
    source_declared: bool,
    fan: int | None,
) -> bool:
    full = list(concealed)
    full[tile] = full[tile] + 1
    return _may_win_with(seat, tuple(full), tile, source_declared, fan)


def _may_win_with(
    seat: SeatFacts,
    full: tuple[int, ...],
    tile: int,
    source_declared: bool,
    fan: int | None,
) -> bool:
    """:func:`_may_win` for the complete hand ``full`` (the concealed tiles and ``tile``)."""
    rs = seat.ruleset
    if not rs.variant.claims.win_on_discard:
        return False
    hooks = rs.may_win
    if not hooks:
        return True
    own = seat.melds

    def base_fan() -> int:
        if fan is not None:
            return fan
        rules = rs.hand_rules(seat.wild)
        return pattern_fan(rs, rules, full, own, tile, dealer=seat.dealer, declared=seat.declared)

    check = WinCheck(
        seat=seat.seat,
        tile=tile,
        how=_ON_DISCARD,
        has_kong=bool(own) and any(m.kind.is_kong for m in own),
        declared=seat.declared,
        source_declared=source_declared,
        repao=False,
        base_fan=base_fan,
        counts=full,
        melds=own,
        void_suit=seat.void_suit,
        first_turn=seat.first_turn,
    )
    return void_suit_clear(check) and all(hook(check) for hook in hooks)


def wait_values(
    view: TableView, concealed: Sequence[int], waits: Sequence[int]
) -> tuple[tuple[int, bool], ...]:
    """For each wait ``t`` of ``concealed`` (a ready hand of 13 − 3k tiles): the pattern
    value of the hand won on ``t`` (:func:`pattern_fan`; 1 where that is not cheap,
    :attr:`TableView.fan_known`) and whether this seat may win ``t`` on an ordinary discard
    (:func:`may_win_on_discard`).  A seat values the same ready hand again and again (every
    discard it weighs, every turn it keeps its waits), so the answers are cached, keyed by
    everything they depend on: :attr:`TableView.seat_facts`, the hand and the waits — but
    not with wild tiles, where a hand's waits and their values change with the wild and
    the cache missed 435 times in 445 (four greedy bots, 33 luan rounds)."""
    if view.wild is not None:
        return _wait_values.__wrapped__(view.seat_facts, tuple(concealed), tuple(waits))
    return _wait_values(view.seat_facts, tuple(concealed), tuple(waits))


@lru_cache(maxsize=8192)
def _wait_values(
    seat: SeatFacts, concealed: tuple[int, ...], waits: tuple[int, ...]
) -> tuple[tuple[int, bool], ...]:
    rs = seat.ruleset
    rules = rs.hand_rules(seat.wild)
    fan_known = seat.wild is None and screen_for(rs) is not None
    out = []
    full = list(concealed)
    for t in waits:
        full[t] = full[t] + 1
        counts = tuple(full)
        full[t] = full[t] - 1
        if fan_known:
            fan = pattern_fan(
                rs, rules, counts, seat.melds, t, dealer=seat.dealer, declared=seat.declared
            )
            out.append((fan, _may_win_with(seat, counts, t, False, fan)))
        else:
            out.append((1, _may_win_with(seat, counts, t, False, None)))
    return tuple(out)


@lru_cache(maxsize=64)
def _plain_chickens(ruleset: Ruleset) -> frozenset[int]:
    chickens = ruleset.pricing.deal_chickens()
    if not chickens:
        return frozenset()
    least = min(chickens.values())
    return frozenset(k for k, v in chickens.items() if v == least)


def meld_counts(melds: Iterable[Meld]) -> tuple[int, int]:
    """(pungs and kongs, chows) among melds."""
    p = c = 0
    for m in melds:
        if m.kind is MeldKind.CHI:
            c += 1
        else:
            p += 1
    return p, c
