"""Greedy bot: plays for the fastest, most valuable win and never defends.

Decisions, in order (RULES.md glossary names):

* **胡** — a legal win is always taken (self-draw, discard or 抢杠).  Never passing a win
  also keeps it clear of 包牌 (seed 000 胡牌算番规则 18: winning on a discard after passing
  one).
* **杠** — a kong (闷豆, 转弯豆, 点豆) is declared at once when the hand is no further from
  ready after it: a dou pays (seed 000 12–14), it is a 通行证 (seed 000 特殊玩法规则 1) and
  a late kong is a 憨包豆 that scores nothing (seed 001 豆 4).
* **碰 / 吃** — claimed when it brings the hand closer to ready (lower shanten after the
  best discard).
* **报听** — declared when allowed and the declared hand waits on at least
  :attr:`GreedyAgent.declare_min_live` live tiles: the declaration is a 通行证 and is worth
  10 fan (seed 000 10), against 杀报 if someone else wins (seed 000 11).
* **换三张 / 定缺** — pass on, then declare void, the suit with the fewest and least useful
  tiles (:func:`zhuoji.agents.base.choose_start`); while the hand holds its void suit it
  discards those tiles first (no win is possible before, GA ``Table_GY_TWO``).
* **打** — the discard that leaves the lowest shanten, then the most live improving tiles
  (ukeire, counting only tiles this seat has not seen).  When it leaves the hand ready,
  each wait is weighted by its pattern value and by whether the hand may win on another
  player's discard at all: without a dou, 报听 or a pattern above 平胡 it can only
  self-draw (通行证), so big patterns and kongs are worth more.  Ties keep the table's
  plain permanent chicken (幺鸡: it earns from every other player; the rules' pricers name
  it, :attr:`~zhuoji.agents.analysis.TableView.plain_chickens`), pairs and connected
  tiles, and lean towards the suit the hand already has most of (清一色 is a 通行证 worth
  10).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from mypy_extensions import mypyc_attr

from zhuoji.actions import Action, ActionKind
from zhuoji.agents import discards as _discards
from zhuoji.agents.analysis import DiscardOption, TableView, wait_values
from zhuoji.agents.base import choose_start, register_agent
from zhuoji.observation import Observation
from zhuoji.tiles import NUM_KINDS, suit_of

_CLAIMS = (ActionKind.PENG, ActionKind.CHI)
# the kinds as module constants: reading a member off an enum class is slow, on every action
_DISCARD = ActionKind.DISCARD
_PENG = ActionKind.PENG
_GANG_EXPOSED = ActionKind.GANG_EXPOSED
_GANG_CONCEALED = ActionKind.GANG_CONCEALED
_GANG_ADDED = ActionKind.GANG_ADDED
_HU = ActionKind.HU
_PASS = ActionKind.PASS


@mypyc_attr(allow_interpreted_subclasses=True)  # cautious, expert and tests build on it
class GreedyAgent:
    """Shanten, then ukeire, then value; always wins; see the module docstring."""

    name: ClassVar[str] = "greedy"
    #: least number of live waiting tiles for which 报听 is declared
    declare_min_live: ClassVar[int] = 3
    #: how much more a wait is worth when the hand may also win on others' discards
    pass_bonus: ClassVar[float] = 1.0
    #: added to a wait's pattern fan (chickens and dou come with any win)
    win_base: ClassVar[float] = 2.0

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # --- the protocol ------------------------------------------------------------------

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        phase = obs.phase
        if phase in ("exchange", "dingque"):
            return choose_start(obs)
        for a in legal:
            if a.kind is _HU:
                return a
        view = TableView(obs)
        if phase == "turn":
            return self.turn(view, legal)
        return self.claim(view, legal)

    # --- own turn ----------------------------------------------------------------------

    def turn(self, view: TableView, legal: Sequence[Action]) -> Action:
        plain: dict[int, Action] = {}  # plain discards by tile
        kongs: list[Action] = []
        declares: list[Action] = []  # 报听 discards
        for a in legal:  # one pass, in legal's order
            kind = a.kind
            if a.declare:
                declares.append(a)
            elif kind is _DISCARD:
                plain[a.tile] = a
            if kind is _GANG_CONCEALED or kind is _GANG_ADDED:
                kongs.append(a)
        void = view.obs.void_suit(view.seat)
        if void is not None:  # 定缺: the void suit must go before any win is possible
            voids = {t: a for t, a in plain.items() if suit_of(t) == void}
            plain = voids or plain
        opts = view.analyzer.options(view.hand, plain, view.live)
        if kongs:
            best = _least_shanten(opts)
            for a in kongs:
                if self.wants_kong(view, a, best):
                    return a
        if declares:
            chosen = self.choose_declare(view, declares, opts)
            if chosen is not None:
                return chosen
        return plain[self.choose_discard(view, opts)]

    def wants_kong(self, view: TableView, action: Action, best_shanten: int) -> bool:
        """Kong when the hand is no further from ready after it than after the best discard
        (exact shanten: the hand holds a four-of-a-kind, see :mod:`.analysis`).

        The exact shanten costs much more than the analyzer's, which is never above it (it
        can be one too low with a four-of-a-kind): a discard whose analyzer shanten is
        already no lower than the kong's cannot beat the kong, so only the others are
        worked out exactly."""
        hand = list(view.hand)
        rules = view.rules
        held = [d for d in range(NUM_KINDS) if hand[d]]
        after = list(hand)
        after[action.tile] = after[action.tile] - (4 if action.kind is _GANG_CONCEALED else 1)
        kong = rules.shanten(after)
        if not held:
            return kong <= best_shanten
        bounds = view.analyzer.discard_shanten(hand, held)
        for d in held:
            if bounds[d] < kong:
                hand[d] = hand[d] - 1
                exact = rules.shanten(hand)
                hand[d] = hand[d] + 1
                if exact < kong:
                    return False
        return True

    def choose_declare(
        self, view: TableView, declares: Sequence[Action], opts: Sequence[DiscardOption]
    ) -> Action | None:
        """The 报听 discard with the most live waits, if there are enough of them."""
        by_tile = {o.tile: o for o in opts}
        best: tuple[int, Action] | None = None
        for a in declares:
            o = by_tile.get(a.tile)
            live = o.ukeire if o is not None and o.shanten == 0 else 0
            if best is None or live > best[0]:
                best = (live, a)
        if best is not None and best[0] >= self.declare_min_live:
            return best[1]
        return None

    def choose_discard(self, view: TableView, opts: Sequence[DiscardOption]) -> int:
        """The best of :meth:`rank_discards`; the keep values are only worked out for the
        discards tied on offence (the first of the best wins, as in ``max``)."""
        best = _least_shanten(opts)
        top = 0.0
        tied: list[int] = []  # the discards of the highest worth, in order
        for o in opts:
            if o.shanten == best:
                v = self.discard_worth(view, o, best)
                if not tied or v > top:
                    top = v
                    tied = [o.tile]
                elif v == top:
                    tied.append(o.tile)
        if len(tied) == 1:
            return tied[0]
        lean = _suit_lean(view)
        chosen = tied[0]
        least = self.keep_value(view, chosen, lean)
        for t in tied[1:]:  # the first of the least keep values
            k = self.keep_value(view, t, lean)
            if k < least:
                chosen, least = t, k
        return chosen

    def rank_discards(
        self, view: TableView, opts: Sequence[DiscardOption]
    ) -> list[tuple[tuple[float, float], int]]:
        """((offence, −keep value), tile) for the discards of the lowest shanten; higher
        is better."""
        best = _least_shanten(opts)
        lean = _suit_lean(view)
        return [
            ((self.discard_worth(view, o, best), -self.keep_value(view, o.tile, lean)), o.tile)
            for o in opts
            if o.shanten == best
        ]

    def discard_worth(self, view: TableView, o: DiscardOption, best: int) -> float:
        """What a discard of the lowest shanten ``best`` leaves: the worth of its waits when
        it leaves the hand ready (:meth:`ready_value`), else its live improving tiles."""
        return self.ready_value(view, o) if best == 0 else float(o.ukeire)

    def ready_value(self, view: TableView, o: DiscardOption) -> float:
        """Expected worth of the waits left by discard ``o``: live copies × (pattern fan +
        :attr:`win_base`) × (1 + :attr:`pass_bonus` when others' discards may be won on),
        from :func:`~zhuoji.agents.analysis.wait_values`."""
        hand = list(view.hand)
        hand[o.tile] = hand[o.tile] - 1
        waits = o.improving
        total = 0.0
        live = view.live
        for t, (fan, ok) in zip(waits, wait_values(view, hand, waits), strict=True):
            total += live[t] * (fan + self.win_base) * (1.0 + self.pass_bonus * ok)
        return total

    def keep_value(self, view: TableView, tile: int, lean: int) -> float:
        """How much a tile is worth keeping when shanten and ukeire tie."""
        hand = view.hand
        score = 2.0 * (hand[tile] - 1)  # pairs and pungs: 大对子, dou
        if tile < 27:
            base = tile - tile % 9
            for d in (-2, -1, 1, 2):
                j = tile + d
                if base <= j < base + 9 and hand[j]:
                    score += 1.0 if abs(d) == 1 else 0.5
            r = tile % 9
            score += 0.3 if 2 <= r <= 6 else 0.0
            if lean >= 0:
                score += 1.5 if tile // 9 == lean else -1.5
        if tile in view.plain_chickens:
            score += 1.0
        return score

    # --- claims on a discard -------------------------------------------------------------

    def claim(self, view: TableView, legal: Sequence[Action]) -> Action:
        hand = view.hand
        an = view.analyzer
        pass_ = next(a for a in legal if a.kind is _PASS)
        before = an.shanten(hand)
        for a in legal:
            if a.kind is _GANG_EXPOSED:
                h = list(hand)
                h[a.tile] = h[a.tile] - 3
                if an.shanten(h) <= before:
                    return a
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.kind not in _CLAIMS:
                continue
            after = self.shanten_after_claim(view, a)
            if after < before and (best is None or after < best[0]):
                best = (after, a)
        return best[1] if best is not None else pass_

    @staticmethod
    def shanten_after_claim(view: TableView, a: Action) -> int:
        """Shanten after a pung or chow and the best discard that follows."""
        h = list(view.hand)
        tile = view.claim_tile
        if a.kind is _PENG:
            h[tile] = h[tile] - 2
        else:
            for t in (a.tile, a.tile + 1, a.tile + 2):
                if t != tile:
                    h[t] = h[t] - 1
        kinds = [k for k in range(NUM_KINDS) if h[k]]
        return min(view.analyzer.discard_shanten(h, kinds).values(), default=99)


def _least_shanten(opts: Sequence[DiscardOption]) -> int:
    """The lowest shanten among the options (each option's attribute read once; a list, as
    the analyzer gives, by the discard kernel, where the attribute is native)."""
    if type(opts) is list:
        return _discards.least_shanten(opts)
    best = 99
    for o in opts:
        s = o.shanten
        if s < best:
            best = s
    return best


def _suit_lean(view: TableView) -> int:
    """The suit a hand leans to (清一色 / 混一色 chance), or -1: at least 9 of its tiles,
    melds counted, in one suit."""
    hand = view.hand
    counts = [0, 0, 0]
    for s in range(3):  # (a loop over the counts: ``sum`` of a slice is two generic calls)
        n = 0
        for t in range(9 * s, 9 * s + 9):
            n += hand[t]
        counts[s] = n
    for m in view.own_melds():
        if m.tile < 27:
            counts[m.tile // 9] = counts[m.tile // 9] + 3
    top = 0  # the first of the largest
    for s in (1, 2):
        if counts[s] > counts[top]:
            top = s
    return top if counts[top] >= 9 else -1


register_agent("greedy", GreedyAgent)
