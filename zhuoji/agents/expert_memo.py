"""The hand analysis the expert bot asks, with each hand's distance and improving tiles
remembered.

The expert asks :meth:`~zhuoji.agents.analysis.HandAnalyzer.ukeire` of the same thirteen
tiles again and again: each discard of its turn, the hands its search draws to, the hand it
holds when a claim is offered — and the next decision often meets a hand of the last.  The
answer's costly part does not depend on the live counts: a kind improves the hand when one
more copy lowers its shanten (:mod:`zhuoji.agents.analysis`), and the live counts only
drop the kinds with no copy left and add up the rest.  So each hand's shanten and improving
kinds (every kind counted live) are kept, and a question with live counts is answered from
them: exactly the analysis's own answer, at the cost of a look-up.  With wild tiles
(六安) one such hand costs a kernel call of 35 wild distances, so every discard of a hand
is asked in one kernel call instead (:meth:`HandAnalyzer.options`, ``batch_wild``): few of
those hands repeat (a third, callgrind on six luan rounds), and each was a call of its own.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from mypy_extensions import mypyc_attr

from zhuoji import hand as H
from zhuoji import tiles as T
from zhuoji.agents.analysis import HandAnalyzer

#: live counts under which every kind not held four times is tried
_EVERY_KIND_LIVE = [T.COPIES] * T.NUM_KINDS


# compiled (group "expert") as a Python class: its methods run compiled, while its class
# attributes (the store's size, tests lower it) and its weak references behave as Python's
@mypyc_attr(native_class=False)
class MemoAnalyzer(HandAnalyzer):
    """:class:`HandAnalyzer` whose :meth:`ukeire` remembers each hand's improving kinds."""

    #: answers kept by all analyzers together (luan has one a wild kind) before every
    #: store is emptied (about 500 bytes each)
    kept = 100_000
    _kept_now = 0
    _every: ClassVar[weakref.WeakSet[MemoAnalyzer]] = weakref.WeakSet()

    def __init__(self, rules: H.HandRules) -> None:
        HandAnalyzer.__init__(self, rules)
        # every discard of a hand with wild tiles is still answered in one kernel call
        # (:meth:`HandAnalyzer.options`: the same answers as asking :meth:`ukeire` of each
        # discard, which cost a kernel call of its own for most hands, few repeating)
        self.batch_wild = self.wild >= 0
        self._improving: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
        self._distance: dict[tuple[int, ...], int] = {}
        MemoAnalyzer._every.add(self)

    @classmethod
    def _keep_one(cls) -> None:
        """Count one more kept answer, emptying every store when they are too many."""
        if cls._kept_now >= cls.kept:
            for analyzer in list(cls._every):
                analyzer._improving.clear()
                analyzer._distance.clear()
            cls._kept_now = 0
        cls._kept_now += 1

    def distance(self, c: Sequence[int]) -> int:
        """:meth:`HandAnalyzer.distance`, remembered where it is a kernel call (wild tiles,
        十三烂: each discard of a turn asks it); a hand whose improving tiles are known has
        it already (its shanten + 1)."""
        if self.plain:  # the per-suit tables: a look-up costs as much as the answer
            return super().distance(c)
        key = tuple(c)
        got = self._distance.get(key)
        if got is None:
            known = self._improving.get(key)
            got = known[0] + 1 if known is not None else HandAnalyzer.distance(self, c)
            self._keep_one()
            self._distance[key] = got
        return got

    def ukeire(self, c: Sequence[int], live: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
        """(shanten, live improving tiles, improving kinds with a live copy), as
        :meth:`HandAnalyzer.ukeire` answers it."""
        key = tuple(c)
        got = self._improving.get(key)
        if got is None:
            shanten, _, kinds = HandAnalyzer.ukeire(self, c, _EVERY_KIND_LIVE)
            self._keep_one()
            got = self._improving[key] = (shanten, kinds)
        shanten, kinds = got
        improving: list[int] = []
        total = 0
        for k in kinds:
            n = live[k]
            if n > 0:
                improving.append(k)
                total += n
        return shanten, total, tuple(improving)


@lru_cache(maxsize=64)
def memo_analyzer(rules: H.HandRules) -> MemoAnalyzer:
    """One remembering analyzer per hand rules (as :func:`zhuoji.agents.analysis.analyzer`)."""
    return MemoAnalyzer(rules)
