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
(六安) one such hand costs a kernel call of 35 wild distances.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from zhuoji import hand as H
from zhuoji import tiles as T
from zhuoji.agents.analysis import HandAnalyzer

#: live counts under which every kind not held four times is tried
_EVERY_KIND_LIVE = [T.COPIES] * T.NUM_KINDS


class MemoAnalyzer(HandAnalyzer):
    """:class:`HandAnalyzer` whose :meth:`ukeire` remembers each hand's improving kinds."""

    #: answers kept by all analyzers together (luan has one a wild kind) before every
    #: store is emptied (about 500 bytes each)
    kept = 100_000
    _kept_now = 0
    _every: ClassVar[weakref.WeakSet[MemoAnalyzer]] = weakref.WeakSet()

    def __init__(self, rules: H.HandRules) -> None:
        super().__init__(rules)
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
            got = known[0] + 1 if known is not None else super().distance(c)
            self._keep_one()
            self._distance[key] = got
        return got

    def ukeire(self, c: Sequence[int], live: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
        """(shanten, live improving tiles, improving kinds with a live copy), as
        :meth:`HandAnalyzer.ukeire` answers it."""
        key = tuple(c)
        got = self._improving.get(key)
        if got is None:
            shanten, _, kinds = super().ukeire(c, _EVERY_KIND_LIVE)
            self._keep_one()
            got = self._improving[key] = (shanten, kinds)
        shanten, kinds = got
        improving = tuple(k for k in kinds if live[k] > 0)
        return shanten, sum(live[k] for k in improving), improving


@lru_cache(maxsize=64)
def memo_analyzer(rules: H.HandRules) -> MemoAnalyzer:
    """One remembering analyzer per hand rules (as :func:`zhuoji.agents.analysis.analyzer`)."""
    return MemoAnalyzer(rules)
