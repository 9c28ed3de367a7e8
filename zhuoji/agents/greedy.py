"""Greedy bot: always wins, declares 报听, takes kongs, and discards toward the fewest
tiles from ready (shanten), preferring to keep tiles with more neighbours."""

from __future__ import annotations

import random

from zhuoji.actions import Action, ActionKind
from zhuoji.agents.base import register_agent
from zhuoji.observation import Observation
from zhuoji.tiles import NUM_KINDS


def _connectivity(hand: list[int], k: int) -> int:
    """How useful tile ``k`` is to keep: copies and neighbours within two ranks."""
    score = 3 * (hand[k] - 1)
    if k < 27:
        base = k - k % 9
        for d in (-2, -1, 1, 2):
            j = k + d
            if base <= j < base + 9 and hand[j]:
                score += 2 if abs(d) == 1 else 1
    return score


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        kinds = {a.kind for a in legal}
        if ActionKind.HU in kinds:
            return next(a for a in legal if a.kind is ActionKind.HU)
        rules = obs.ruleset.hand_rules(obs.wild)
        hand = list(obs.hand)
        for kind in (ActionKind.GANG_CONCEALED, ActionKind.GANG_ADDED, ActionKind.GANG_EXPOSED):
            if kind in kinds:
                return next(a for a in legal if a.kind is kind)
        if ActionKind.PENG in kinds:
            a = next(a for a in legal if a.kind is ActionKind.PENG)
            before = rules.shanten(hand)
            hand[a.tile] -= 2
            after = min(self._best_after_discard(rules, hand))
            hand[a.tile] += 2
            return a if after < before else next(x for x in legal if x.kind is ActionKind.PASS)
        if ActionKind.PASS in kinds:
            return next(a for a in legal if a.kind is ActionKind.PASS)
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        declares = [a for a in discards if a.declare]
        if declares:
            return declares[0]
        best: tuple[int, int] | None = None
        choice = discards[0]
        for a in discards:
            hand[a.tile] -= 1
            s = rules.shanten(hand)
            hand[a.tile] += 1
            key = (s, _connectivity(hand, a.tile))
            if best is None or key < best:
                best, choice = key, a
        return choice

    @staticmethod
    def _best_after_discard(rules: object, hand: list[int]) -> list[int]:
        from zhuoji.hand import HandRules

        assert isinstance(rules, HandRules)
        out = []
        for k in range(NUM_KINDS):
            if hand[k]:
                hand[k] -= 1
                out.append(rules.shanten(hand))
                hand[k] += 1
        return out or [99]


register_agent("greedy", GreedyAgent)
