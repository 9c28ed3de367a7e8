"""Cautious bot: the greedy bot's offence, plus defence against ready opponents.

Before each discard it estimates, for every opponent, how likely that opponent is ready and
able to win on this discard, which tiles the opponent may wait on, and what dealing in
would cost (点炮: the discarder pays the winner alone, seed 001 结算规则); then it trades the
expected loss against how much the discard sets its own hand back.

* **Who is ready.**  A declared (报听) opponent certainly is.  Otherwise the chance grows
  with the opponent's discards and melds — a logistic fit to greedy play on ``guiyang``
  (400 rounds: about 16 % after 4 discards, 54 % after 8, 82 % after 12 with no meld; each
  meld adds about as much as one more discard and a half).
* **Who may win on a discard at all (通行证, seed 000 特殊玩法规则 1).**  Read from the
  variant's ``pass`` hook: an opponent with a dou, a declared one, or (``from_declared``)
  anyone when this seat is declared may win on any discard; others only with a pattern
  above 平胡, which is likelier with pungs or a one-suit table.  Where no discard can be
  won on (六安) there is nothing to defend.
* **Which tiles they wait on.**  A tile's weight counts the ready shapes that wait on it —
  单吊/对倒 (copies of it still unseen), 两面 on either side, 嵌张, 边张 — each only if the
  tiles it needs are still unseen (visible counts).  A declared hand is frozen, so every
  tile it let go since declaring is a certain non-wait (现物: it drew and discarded it, or
  passed it while holding a 通行证), and the 两面 shapes through such a tile are ruled out
  (筋, suji).  An undeclared opponent's own discards are only less likely.
* **What it costs.**  A declared winner's hand counts 10 more (seed 000 10) and 杀报 adds
  10 when this seat is declared (seed 000 11); otherwise a pattern above 平胡 or a dou-owner's
  ordinary win.

The discard minimizes ``expected loss + shanten_cost × (shanten − best shanten) −
offence bonus``; ``shanten_cost`` is large when this seat is ready (push) and small when
it is far (fold).  It also declares 报听 only when no opponent threatens, and does not add
a kong (转弯豆) onto a tile an opponent is likely to rob (抢杠: the robbed player pays for
all three, seed 000 16).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from zhuoji.actions import Action, ActionKind
from zhuoji.agents.analysis import DiscardOption, TableView, meld_counts
from zhuoji.agents.base import register_agent
from zhuoji.agents.greedy import GreedyAgent
from zhuoji.contract.pricing import Pricing
from zhuoji.outcome import Meld
from zhuoji.tiles import NUM_KINDS


class Threat:
    """One opponent as seen by the cautious bot."""

    __slots__ = (
        "focus",
        "loss",
        "p",
        "reading",
        "safe",
        "seat",
        "shape",
        "total",
        "weak",
        "weights",
    )

    def __init__(self, seat: int, p: float, loss: float, safe: set[int], weak: set[int]) -> None:
        self.focus = -1  # the suit of a one-suit (清一色) hand under way, or -1
        self.shape = ""  # "pairs": only 大对子 / 七对 shapes (no 通行证)
        #: what its melds and discards say it is making (the expert's reading, which
        #: prices and calibrates each kind apart): "declared", "suit" (清一色), "pungs"
        #: (大对子), "pairs" (七对 or 大对子 without a 通行证) or "plain"
        self.reading = ""
        self.seat = seat
        self.p = p  # chance the opponent is ready and may win on this seat's discard
        self.loss = loss  # cost of dealing in to it
        self.safe = safe  # certain non-waits
        self.weak = weak  # less likely waits
        self.weights: list[float] = []
        self.total = 0.0

    @property
    def level(self) -> float:
        return self.p * self.loss


# compiled (group "cautious") as a Python class: its methods run compiled, while its
# subclasses (the expert's reading of the opponents) and tuning constants behave as Python's
@mypyc_attr(native_class=False)
class CautiousAgent(GreedyAgent):
    """Greedy offence; folds against ready opponents; see the module docstring."""

    name = "cautious"
    declare_min_live = 4
    #: expected loss below which the bot plays like greedy
    quiet_level = 0.6
    #: average number of kinds a ready hand waits on
    waits_per_hand = 1.8
    #: shanten cost of a discard that sets the hand back, by own best shanten (0, 1, 2+):
    #: breaking a ready hand is dear in 捉鸡, where only ready hands collect chickens and
    #: 查叫 makes unready ones pay after a draw (RULES.md readings)
    push = (8.0, 1.0, 0.3)
    #: worth of the best same-shanten discard over one whose offence (ukeire, or the value
    #: of the waits when ready) is nil, by own best shanten
    offence = (2.0, 0.25, 0.075)
    #: what dealing in costs: to a declared hand (10 fan, seed 000 10; doubled by 杀报 when
    #: this seat is declared), to a hand needing a pattern above 平胡, to a plain hand with a
    #: dou (mean deal-in values measured with greedy play on guiyang: 10, 7.8, 1.1)
    declared_loss = 10.5
    pattern_loss = 8.0
    plain_loss = 1.1
    #: weight of a tile outside the suit an opponent keeps (清一色 under way), relative
    #: to one in it
    off_suit = 0.1
    #: chance that a ready hand without a 通行证 (and no sign of 大对子 or 清一色) holds a
    #: pattern above 平胡
    pattern_pass = 0.1

    def choose_declare(
        self, view: TableView, declares: Sequence[Action], opts: Sequence[DiscardOption]
    ) -> Action | None:
        if any(t.level > self.quiet_level for t in self.threats(view)):
            return None
        return super().choose_declare(view, declares, opts)

    def wants_kong(self, view: TableView, action: Action, best_shanten: int) -> bool:
        if action.kind is ActionKind.GANG_ADDED and "added" in view.ruleset.variant.claims.rob_kong:
            threats = self.threats(view)
            if threats and self.expected_loss(view, threats, action.tile) * 3 > self.quiet_level:
                return False
        return super().wants_kong(view, action, best_shanten)

    def choose_discard(self, view: TableView, opts: Sequence[DiscardOption]) -> int:
        threats = self.threats(view)
        if not threats or max(t.level for t in threats) < self.quiet_level:
            return super().choose_discard(view, opts)
        best = min(o.shanten for o in opts)
        ranked = self.rank_discards(view, opts)  # the lowest-shanten discards, by offence
        top = max(r[0][0] for r in ranked)
        offence = {tile: (score[0] / top if top > 0 else 0.0) for score, tile in ranked}
        cost_per_step = self.push[min(best, 2)]
        choice, choice_cost = -1, math.inf
        for o in opts:
            el = self.expected_loss(view, threats, o.tile)
            cost = (
                el
                + cost_per_step * (o.shanten - best)
                - self.offence[min(best, 2)] * offence.get(o.tile, 0.0)
            )
            if cost < choice_cost - 1e-9:
                choice, choice_cost = o.tile, cost
        return choice

    # --- the threat model ----------------------------------------------------------------

    def threats(self, view: TableView) -> list[Threat]:
        """Opponents that might win on this seat's discard."""
        cached = view.cache.get("threats")
        if isinstance(cached, list):
            return cached
        rs = view.ruleset
        out: list[Threat] = []
        if rs.variant.claims.win_on_discard:
            pricing = rs.pricing
            me_declared = view.declared[view.seat]
            for o in range(view.players):
                if o == view.seat:
                    continue
                out.append(self._threat(view, o, pricing, me_declared))
        view.cache["threats"] = out
        return out

    def _threat(self, view: TableView, o: int, pricing: Pricing, me_declared: bool) -> Threat:
        melds = view.melds[o]
        pungs, chows = meld_counts(melds)
        mine = view.discards_by[o]
        declared = view.declared[o]
        if declared:
            p_ready = 1.0
        else:
            x = 0.45 * (len(mine) - 7.6) + 0.6 * len(melds)
            p_ready = 1.0 / (1.0 + math.exp(-x))
        has_kong = any(m.kind.is_kong for m in melds)
        focus = _suit_focus(mine, melds)
        shape = ""
        if pricing.exempt(declared, has_kong, me_declared):
            p_pass, loss = 1.0, self.plain_loss
        else:
            # no 通行证: only a pattern above 平胡 wins on a discard (seed 000 特殊玩法规则 1);
            # 大对子 and 七对 wait on pairs and singles, 清一色 on its suit
            p_pass, loss, shape = self.pattern_pass, self.pattern_loss, "pairs"
            if pungs >= 2 and not chows:
                p_pass = 0.7  # 大对子 under way
            if focus >= 0:
                p_pass, shape = 0.7, ""  # 清一色 under way
        if declared:
            loss = self.declared_loss + (self.declared_loss if me_declared else 0.0)
            known = pricing.exempt(True, False)  # a declared hand wins on any discard
            safe = set(mine[1:]) | (set(view.passed[o]) if known else set())
            weak = {mine[0]} if mine else set()
        else:
            safe = set()
            weak = set(mine)
        th = Threat(o, p_ready * p_pass, loss, safe, weak)
        th.focus = focus
        th.shape = shape
        return th

    def expected_loss(self, view: TableView, threats: list[Threat], tile: int) -> float:
        total = 0.0
        for th in threats:
            if th.level <= 0:
                continue
            if not th.weights:
                self._weigh(view, th)
            if th.total <= 0:
                continue
            p_wait = min(1.0, self.waits_per_hand * th.weights[tile] / th.total)
            total += th.p * p_wait * th.loss
        return total

    def off_suit_weight(self, th: Threat) -> float:
        """The weight of a tile outside the suit ``th``'s seat keeps (:attr:`off_suit`)."""
        return self.off_suit

    def _weigh(self, view: TableView, th: Threat) -> None:
        """Weights of every kind as a wait of ``th``'s seat (see the module docstring)."""
        # the threat's fields read once (every decision of the expert weighs each opponent)
        unseen = view.live
        # the safe and weak kinds as marks by kind (a list read natively, where each
        # membership test of a set boxed the kind)
        safe = [False] * NUM_KINDS
        for t in th.safe:
            if 0 <= t < NUM_KINDS:
                safe[t] = True
        weak = [False] * NUM_KINDS
        for t in th.weak:
            if 0 <= t < NUM_KINDS:
                weak[t] = True
        pairs = th.shape == "pairs"
        focus = th.focus
        off_suit = self.off_suit_weight(th)
        weights = [0.0] * NUM_KINDS
        for t in range(NUM_KINDS):
            if safe[t]:
                continue
            w = 0.0
            u = unseen[t]
            if u >= 1:
                w += 0.6  # 单吊
            if u >= 2:
                w += 1.0  # 对倒
            if pairs:
                w *= 2.0  # 大对子 / 七对 wait on pairs and singles only
            elif t < 27:
                r = t % 9
                if r <= 5 and unseen[t + 1] and unseen[t + 2]:
                    w += 0.0 if safe[t + 3] else 2.0  # 两面 (r+1, r+2), suji of t+3
                if r == 6 and unseen[t + 1] and unseen[t + 2]:
                    w += 1.0  # 边张 89 → 7
                if r >= 3 and unseen[t - 1] and unseen[t - 2]:
                    w += 0.0 if safe[t - 3] else 2.0  # 两面 (r-2, r-1)
                if r == 2 and unseen[t - 1] and unseen[t - 2]:
                    w += 1.0  # 边张 12 → 3
                if 1 <= r <= 7 and unseen[t - 1] and unseen[t + 1]:
                    w += 1.0  # 嵌张
            if weak[t]:
                w *= 0.35
            if focus >= 0 and (t >= 27 or t // 9 != focus):
                w *= off_suit  # a one-suit hand waits in its suit
            weights[t] = w
        th.weights = weights
        th.total = sum(weights)


def _suit_focus(discards: Sequence[int], melds: Sequence[Meld]) -> int:
    """The suit an opponent keeps (清一色 under way), or -1: after six discards at most one
    of them in that suit, no honor meld, and every meld in it."""
    if len(discards) < 6:
        return -1
    c0 = c1 = c2 = 0
    for t in discards:
        if t < 9:
            c0 += 1
        elif t < 18:
            c1 += 1
        elif t < 27:
            c2 += 1
    suits = 0  # bit s: a meld in suit s (bit 3: an honor meld)
    for m in melds:
        suits |= 1 << (m.tile // 9 if m.tile < 27 else 3)
    for s, n in ((0, c0), (1, c1), (2, c2)):
        if n <= 1 and not suits & ~(1 << s):
            return s
    return -1


register_agent("cautious", CautiousAgent)
