"""A hand's pattern value without decomposing it, where the variant's table allows: the
value the 通行证 check asks for (``WinCheck.base_fan``, seed 000 特殊玩法规则 1: "如果玩家做到了
平胡以上的牌,也可以胡其他人的牌").

:func:`zhuoji.rules.patterns.evaluate` enumerates every decomposition of the hand; the 通行证
check only needs the table's best non-additive row (``HandValue.base``).  For a ``combine:
highest`` table whose pattern rows require only facts read off the counts (the 捉鸡 tables of
seeds 000/001/004: 平胡, 大对子, 七对, 龙七对, 清一色 …) :class:`PatternScreen` finds it from
the counts alone.  :func:`pattern_fan` is the one entry point: the engine's 通行证 check and
the bots call it, so both read the same value; for other tables (and with wild tiles) it
calls ``evaluate``.  Both ways are cached, keyed by everything the value depends on.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from zhuoji import hand as H
from zhuoji.outcome import Meld, MeldKind
from zhuoji.rules.facts import EVENT_FACTS, WinContext
from zhuoji.rules.patterns import evaluate

if TYPE_CHECKING:
    from zhuoji.contract.bound import BoundRules


def pattern_fan(
    ruleset: BoundRules,
    rules: H.HandRules,
    full: Sequence[int],
    melds: tuple[Meld, ...],
    tile: int,
    *,
    dealer: bool = False,
    declared: bool = False,
) -> int:
    """The pattern value (``HandValue.base``) of a complete hand won on a discard, as
    ``evaluate`` gives it with ``WinContext(dealer=dealer, declared=declared)``; 0 when the
    hand does not win.  From :class:`PatternScreen` when the variant's table allows it (no
    wild tiles), else from ``evaluate``; cached."""
    screen = screen_for(ruleset)
    counts = full if type(full) is tuple else tuple(full)
    if screen is not None and rules.wild is None:
        return screen.cached_fan(rules, counts, melds, dealer, declared)
    return _evaluated_fan(ruleset, rules, counts, melds, tile, dealer, declared)


@lru_cache(maxsize=65536)
def _evaluated_fan(
    ruleset: BoundRules,
    rules: H.HandRules,
    full: tuple[int, ...],
    melds: tuple[Meld, ...],
    tile: int,
    dealer: bool,
    declared: bool,
) -> int:
    ctx = WinContext(dealer=dealer, declared=declared)
    value = evaluate(ruleset.variant.patterns, rules, full, melds, tile, ctx, waits=None)
    return value.base if value else 0


_CHI = MeldKind.CHI  # (an enum member read once: reading it off the class is slow)

#: facts :class:`PatternScreen` computes without decomposing the hand (context facts are
#: those of a win on an ordinary discard)
_CHEAP_FACTS = frozenset(
    {
        "form",
        "all_pungs",
        "one_suit",
        "mixed_one_suit",
        "quads",
        "concealed",
        "dealer",
        "declared",
        *EVENT_FACTS,
    }
)


#: what a screened value depends on: standard form, seven pairs, 十三烂, all pungs, kinds held
#: four times, one suit, honors held, concealed, dealer, declared
_Facts = tuple[bool, bool, bool, bool, int, bool, bool, bool, bool, bool]


class PatternScreen:
    """Exact base value of a complete hand (no wild tiles) for ``combine: highest`` tables
    whose pattern rows require only cheap facts.  A row matches when some realization has
    all its facts, and for these facts that is decided from the counts: all pungs ⇔ every
    kind held 0, 2 or 3 times with one pair and no chow meld; seven pairs ⇔ fourteen
    concealed tiles in pairs; four-of-a-kinds ⇔ kinds held four times."""

    #: most hands :meth:`cached_fan` remembers (then it starts afresh)
    memo_limit = 65536

    def __init__(self, rows: list[tuple[int, dict[str, object]]]) -> None:
        self.rows = rows  # (fan, requirements) of the non-additive rows, best first
        #: the best row's fan by the facts it depends on (few combinations occur)
        self._fans: dict[_Facts, int] = {}
        #: :meth:`cached_fan`'s answers, by (hand rules' id, counts, melds, dealer, declared)
        self._memo: dict[tuple[int, tuple[int, ...], tuple[Meld, ...], bool, bool], int] = {}
        #: the hand rules of the memo's keys, by id (held, so that no id is reused)
        self._rules: dict[int, tuple[H.HandRules, bool, bool, bool]] = {}

    def cached_fan(
        self,
        rules: H.HandRules,
        full: tuple[int, ...],
        melds: tuple[Meld, ...],
        dealer: bool,
        declared: bool,
    ) -> int:
        """:meth:`base_fan`, remembered by everything it reads: the hand rules (by identity:
        a ruleset keeps one object per wild kind), the counts, the melds and the context."""
        key = (id(rules), full, melds, dealer, declared)
        fan = self._memo.get(key)
        if fan is None:
            if len(self._memo) >= self.memo_limit:
                self._memo.clear()
            fan = self._memo[key] = self.base_fan(
                rules, full, melds, dealer=dealer, declared=declared
            )
        return fan

    def _forms_of(self, rules: H.HandRules) -> tuple[H.HandRules, bool, bool, bool]:
        """(rules, standard, seven pairs, 十三烂) allowed by ``rules``, looked up by identity."""
        known = self._rules.get(id(rules))
        if known is None or known[0] is not rules:
            if len(self._rules) >= 64:  # hand rules made afresh again and again: start over
                self._rules.clear()
                self._memo.clear()
            forms = rules.forms
            known = self._rules[id(rules)] = (
                rules,
                H.Form.STANDARD in forms,
                H.Form.SEVEN_PAIRS in forms,
                H.Form.SHISANLAN in forms,
            )
        return known

    @staticmethod
    def build(ruleset: BoundRules) -> PatternScreen | None:
        """The screen of a variant's pattern table, or None when the table needs more than
        the cheap facts."""
        table = ruleset.variant.patterns
        if table.combine != "highest":
            return None
        rows = []
        for row in table.rows.values():
            if row.additive:
                continue
            req = {k: v for k, v in row.requires if v is not None}
            cheap = set(req) <= _CHEAP_FACTS and not row.exclusive
            if row.per is not None or row.excludes or not cheap:
                return None
            if req.get("all_pungs") is False:
                return None
            rows.append((row.fan, req))
        rows.sort(key=lambda r: -r[0])
        return PatternScreen(rows)

    def base_fan(
        self,
        rules: H.HandRules,
        full: Sequence[int],
        melds: tuple[Meld, ...],
        *,
        dealer: bool = False,
        declared: bool = False,
    ) -> int:
        """The best row's fan for the complete hand ``full`` (concealed tiles with the
        winning one, at most four of a kind) with ``melds``; 0 when it does not win."""
        c = list(full)
        _, std_form, pairs_form, lan_form = self._forms_of(rules)
        # one pass: the tiles, how many kinds are held 0, 2, 3 and 4 times, and which of
        # the three suits and the honors (3) are held
        n = zeros = twos = threes = fours = 0
        held = [False, False, False, False]
        for k in range(len(c)):
            x = c[k]
            n += x
            if x == 0:
                zeros += 1
                continue
            held[min(k // 9, 3)] = True
            if x == 2:
                twos += 1
            elif x == 3:
                threes += 1
            elif x == 4:
                fours += 1
        std = std_form and H.hand_vector(c)[2 * (n // 3) + 1] == 0
        paired = zeros + twos + (fours if rules.quads_as_two_pairs else 0) == len(c)
        pairs = pairs_form and n == 14 and not melds and paired
        lan = lan_form and not melds and H.is_shisanlan(c, rules.strict_lan)
        if not (std or pairs or lan):
            return 0
        chi = claimed = False
        for m in melds:
            held[min(m.tile // 9, 3)] = True  # a meld's tiles are of one suit (3: honors)
            chi = chi or m.kind is _CHI
            claimed = claimed or m.kind.claimed
        suits = held[0] + held[1] + held[2]
        all_pungs = std and not chi and zeros + twos + threes == len(c) and twos == 1
        key = (
            std,
            pairs,
            lan,
            all_pungs,
            fours,
            suits == 1,
            held[3],
            not claimed,
            dealer,
            declared,
        )
        fan = self._fans.get(key)
        if fan is None:
            fan = self._fans[key] = self._best(key)
        return fan

    def _best(self, key: _Facts) -> int:
        """The fan of the best row whose requirements these facts meet (0: none)."""
        std, pairs, lan, all_pungs, quads, one_suit, honors, concealed, dealer, declared = key
        facts: dict[str, object] = {
            "one_suit": one_suit and not honors,
            "mixed_one_suit": one_suit and honors,
            "concealed": concealed,
            "dealer": dealer,
            "declared": declared,
            **dict.fromkeys(EVENT_FACTS, False),
        }
        for fan, req in self.rows:
            if self._matches(req, facts, std, pairs, lan, all_pungs, quads):
                return fan
        return 0

    @staticmethod
    def _matches(
        req: dict[str, object],
        facts: dict[str, object],
        std: bool,
        pairs: bool,
        lan: bool,
        all_pungs: bool,
        quads: int,
    ) -> bool:
        form = req.get("form")
        need_pairs = form is H.Form.SEVEN_PAIRS or "quads" in req
        if need_pairs and not pairs:
            return False
        if form is H.Form.STANDARD and not std:
            return False
        if form is H.Form.SHISANLAN and not lan:
            return False
        if req.get("all_pungs") and not all_pungs:
            return False
        if "quads" in req and quads < req["quads"]:  # type: ignore[operator]
            return False
        for k, want in req.items():
            if k in ("form", "all_pungs", "quads"):
                continue
            if facts[k] != want:
                return False
        return True


@lru_cache(maxsize=64)
def screen_for(ruleset: BoundRules) -> PatternScreen | None:
    """The variant's :class:`PatternScreen`, or None (one per ruleset)."""
    return PatternScreen.build(ruleset)
