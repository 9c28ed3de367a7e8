"""Expert bot: every option valued in points with the table's own payouts.

Where ``greedy`` chases the fastest win and ``cautious`` folds by fixed weights, ``expert``
prices each legal action as the points it expects this seat to end the round with
(:class:`~zhuoji.agents.expert_value.Evaluator`), all read from the variant:

* **the hand** — the best of its target shapes (standard, 大对子, 七对, 清一色 …), each with
  its distance, live improving tiles and the pattern table's value of the finished hand;
  the 通行证 (seed 000 特殊玩法规则 1) decides whether it may win on discards;
* **chickens** — the chickens it owns (held, melded and, with 内外鸡, discarded) are
  collected only if it is ready when someone wins (叫嘴); 冲锋/英雄鸡 goes to the round's
  first discarded 幺鸡 and 责任鸡 costs its discarder when it is punged (seed 000 2),
  seed 001 二), weighed by the chance an opponent holds a pair of it; 包鸡 where an unready
  seat pays;
* **dou** — a kong's value from each payer, its 通行证, the replacement draw, and for an
  added kong the chance it is robbed (抢杠: the robbed player pays all, seed 000 16);
* **报听 and 杀报** — a declared hand counts the 报听 value and may win on discards, but is
  frozen and pays 杀报 when another wins (seed 000 10, 11);
* **查叫** — at a draw a ready hand collects, an unready one pays (seed 000 17));
* **deal-in danger** — per tile, for every opponent: the chance it is ready and waits on
  that tile (the cautious bot's reading of the table) times what this seat would pay:
  the opponent's likely pattern value as the discarder pays it, 杀报 if declared, the
  chickens and dou lost to 烧 after its own kong (热炮), and the round ending now;
* **扔宝 and 碰N对** (六安) — the 15-嘴 gamble of throwing the wild first, the liability of a
  third claimed set.

**Search.**  Static values use the hand's own improving tiles for the next draw and
typical rates after it.  For the best ``search_width`` discards of a hand one step from
ready, the next draw is searched: every improving tile (weighted by its live copies) is
drawn, the best discard of the fourteen is chosen by its exact ready value (its waits'
live copies, pattern values and 通行证), and the results are averaged — a one-ply
expectimax over unseen tiles.  It expands at most :attr:`ExpertAgent.search_budget` hands
per decision (a count, not a time, so play stays deterministic).

**Decisions** — discards, 报听, kongs of every kind, 碰/吃/点杠 on a discard, wins (always
taken: no 包牌 risk), robbing a kong, and 换三张 and 定缺 where the engine offers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

from zhuoji import hand as H
from zhuoji.actions import Action, ActionKind
from zhuoji.agents.analysis import DiscardOption, TableView
from zhuoji.agents.base import register_agent, suit_weakness, tile_use
from zhuoji.agents.expert_danger import DangerModel, _plain_fan, _Threats
from zhuoji.agents.expert_memo import memo_analyzer
from zhuoji.agents.expert_value import (
    OTHER_READY,
    OTHER_UNREADY,
    WIN_DISCARD,
    WIN_SELF,
    Evaluator,
    HandState,
    Valued,
)
from zhuoji.agents.greedy import GreedyAgent, _suit_lean
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.tiles import NUM_KINDS, suit_of

_KONGS = (ActionKind.GANG_CONCEALED, ActionKind.GANG_ADDED)


# compiled (group "expert"), as a Python class: its methods run compiled, while subclasses
# (``expert@N`` of bench/agents.py, the search bot), their tuning constants and
# monkeypatched methods behave as they do in Python
@mypyc_attr(native_class=False)
class ExpertAgent(DangerModel):
    """Payout-aware bot; see the module docstring."""

    name = "expert"
    #: this bot's play follows the table's payouts (``zhuoji compare`` reports it)
    payout_aware = True
    #: hands expanded by the next-draw search per decision (0: no search)
    search_budget = 4
    #: discards searched (the best by static value)
    search_width = 2
    #: the search runs only when the searched discards' static values lie this close
    #: (points): further apart, one more draw's detail would not reorder them
    search_window = 0.3
    #: least value gain (points) for which a kong breaking nothing is still declined
    kong_margin = 0.0
    #: points per unit of the greedy bot's keep value (pairs, neighbours, middle ranks,
    #: the suit leaned to): the shape after the next draws, which the next draw's
    #: improving tiles alone do not see; it breaks near-ties between discards
    shape_weight = 0.03
    #: points by which an option must beat the efficient choice (the greedy bot's order:
    #: shanten, live improving tiles, shape) to be played instead: below it the value
    #: model's estimates are noise, and efficiency is what wins hands
    deviation_margin = 0.25
    #: never play a discard that leaves the hand ready on dead waits only while another
    #: leaves it ready on a live one (:func:`_dead_ready`, issue 28 §1)
    keep_live_waits = True

    def __init__(self, seed: int | None = None) -> None:
        self._threats = _Threats(seed)
        self._shape = GreedyAgent(seed)
        self._konged = False  # the current turn began with this seat's kong (热炮 next)
        self._kong_tile = -1

    # --- the protocol ------------------------------------------------------------------

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) == 1:
            return self.note_played(legal[0])
        if obs.phase == "exchange":
            return self.note_played(self.choose_exchange(TableView(obs), legal))
        for a in legal:
            if a.kind is ActionKind.HU:
                return self.note_played(a)
        view = TableView(obs)
        view.analyzer = memo_analyzer(view.rules)
        if obs.phase == "dingque":
            return self.note_played(self.choose_que(view, legal))
        if obs.phase == "turn":
            return self.note_played(self.turn(view, legal))
        return self.note_played(self.claim(view, legal))

    def note_played(self, a: Action) -> Action:
        """Remember whether this seat just made a kong: its next discard is a 热炮 risk.
        After a kong the seat acts again before anyone else (replacement draw).  A bot
        that plays another action than the expert chose (the search bot) notes it here,
        so the expert's reading of its own 热炮 risk follows what was played."""
        self._konged = a.kind in _KONGS or a.kind is ActionKind.GANG_EXPOSED
        self._kong_tile = a.tile if self._konged else -1
        return a

    # --- 定缺 ---------------------------------------------------------------------------

    def choose_que(self, view: TableView, options: Sequence[Action]) -> Action:
        """定缺 (``"<seat> que <m|s|p>"``): give up the suit whose loss leaves the hand worth
        most.  Each choice is valued like any hand (:meth:`Evaluator.value`): the other
        suits' tiles, their distance to a win counting the void tiles as draws still to
        come (they are thrown first), their live improving tiles, targets such as 清一色;
        plus the chickens among the thrown tiles that still count for their discarder
        (内外鸡).  Ties: the suit with fewer, less useful tiles (:func:`suit_weakness`)."""
        ev = Evaluator(view)
        return options[_first_best([self._void_value(view, ev, a.tile) for a in options])]

    def _void_value(self, view: TableView, ev: Evaluator, s: int) -> tuple[float, float]:
        """The hand's value with suit ``s`` given up (see :meth:`choose_que`), then the
        shared tie-break."""
        hand = view.hand
        live = view.live
        c = list(hand)
        thrown = [(k, c[k]) for k in range(9 * s, 9 * s + 9) if c[k]]
        for k, _ in thrown:
            c[k] = 0
        d = H.hand_vector(c)[9]
        uke = 0
        for k in range(NUM_KINDS):
            if k // 9 == s or not live[k] or c[k] >= 4:
                continue
            c[k] += 1
            if H.hand_vector(c)[9] < d:
                uke += live[k]
            c[k] -= 1
        val = ev.value(HandState(c, (), shanten=d - 1, ukeire=uke))
        p_collect = val.probs[WIN_SELF] + val.probs[WIN_DISCARD] + val.probs[OTHER_READY]
        bonus = ev.prices.discards_worth(thrown) * p_collect
        weak = suit_weakness(hand, s)
        return val.value + bonus, -(weak[0] + weak[1] / 100.0)

    # --- 换三张 ---------------------------------------------------------------------------

    def choose_exchange(self, view: TableView, legal: Sequence[Action]) -> Action:
        """换三张 / 换四张 (one ``exchange`` action per tile passed on): pass tiles of the suit
        whose loss leaves the hand worth most — the suit it would give up at 定缺, valued as
        :meth:`choose_que` values it — keeping chickens (they pay their holder), then the
        least useful tiles first (:func:`zhuoji.agents.base.tile_use`).  Once a tile is
        passed the same suit goes on, where the table allows only one (``same_suit``)."""
        given = view.obs.exchange_given
        suits = {suit_of(a.tile) for a in legal}
        ev = Evaluator(view)
        if given and suit_of(given[0]) in suits:
            suit = suit_of(given[0])
        else:
            ordered = sorted(suits)
            suit = ordered[_first_best([self._void_value(view, ev, s) for s in ordered])]
        mine = [a for a in legal if suit_of(a.tile) == suit]
        hand = view.hand
        worth = ev.prices.hold_values  # chickens (they pay their holder), and the like
        keys = [(worth[a.tile] > 0, tile_use(hand, a.tile), a.tile) for a in mine]
        return mine[_first_least(keys)]

    # --- own turn ----------------------------------------------------------------------

    def turn(self, view: TableView, legal: Sequence[Action]) -> Action:
        ev = Evaluator(view)
        me = view.seat
        hand = view.hand
        melds = view.own_melds()
        declared = view.declared[me]
        plain = {a.tile: a for a in legal if a.kind is ActionKind.DISCARD and not a.declare}
        void = view.obs.void_suit(me)
        if void is not None:  # 定缺: the void suit goes first (no win while it is held)
            plain = {t: a for t, a in plain.items() if suit_of(t) == void} or plain
        opts = view.analyzer.options(hand, plain, view.live)
        scored = self.score_discards(view, ev, hand, melds, declared, opts)
        dead = _dead_ready(opts) if self.keep_live_waits else frozenset()
        for t in dead:
            scored.pop(t, None)
        items = list(scored.items())
        best_tile, best_value = items[_first_best([v for _, v in items])]
        efficient = self._shape.choose_discard(view, opts)
        if efficient in scored and best_value - scored[efficient] < self.deviation_margin:
            best_tile, best_value = efficient, scored[efficient]
        choice: Action = plain[best_tile]
        for a in legal:
            if a.kind in _KONGS:
                v = self.kong_value(view, ev, a)
                if v > best_value + self.kong_margin:
                    choice, best_value = a, v
        declares = [a for a in legal if a.declare]
        if declares:
            by_tile = {o.tile: o for o in opts}
            for a in declares:
                o = by_tile.get(a.tile)
                if o is None or a.tile in dead:
                    continue
                c = list(hand)
                c[a.tile] -= 1
                waits = tuple(view.rules.waits(c))
                state = HandState(c, melds, True, a.tile, 0, -1, waits)
                v = self._with_danger(view, ev, a.tile, ev.value(state))
                if v > best_value:
                    choice, best_value = a, v
        return choice

    def score_discards(
        self,
        view: TableView,
        ev: Evaluator,
        hand: Sequence[int],
        melds: tuple[Meld, ...],
        declared: bool,
        opts: Sequence[DiscardOption],
        cycles_off: int = 0,
        search: bool = True,
    ) -> dict[int, float]:
        """Each discard's value: the hand it leaves, its danger, then (``search``) the
        next-draw search."""
        static: dict[int, float] = {}
        states: dict[int, HandState] = {}
        valued: dict[int, Valued] = {}
        best = min(o.shanten for o in opts)
        lean = _suit_lean(view) if self.shape_weight else -1
        # a discard that sets the hand back is worth valuing only as a defence (safer than
        # every discard that keeps it), as a 冲锋 tile or the wild, or for a target the
        # standard shanten does not see (清一色: a tile off the suit; 大对子: a single)
        safest = min(
            (self.deal_in(view, ev, o.tile)[0] for o in opts if o.shanten == best),
            default=0.0,
        )
        suit = Evaluator.lean_suit(hand, melds)
        pungs = not any(m.kind is MeldKind.CHI for m in melds) and sum(
            1 for x in hand if x >= 2
        ) >= 4 - len(melds)
        for o in opts:
            if (
                o.shanten > best
                and self.deal_in(view, ev, o.tile)[0] >= safest
                and not ev.prices.prices_discard(o.tile)
                and o.tile != view.wild
                and not (
                    o.shanten == best + 1
                    and ((suit >= 0 and o.tile // 9 != suit) or (pungs and hand[o.tile] == 1))
                )
            ):
                continue
            c = list(hand)
            c[o.tile] -= 1
            state = HandState(
                c,
                melds,
                declared,
                o.tile,
                o.shanten,
                o.ukeire,
                self._waits(view, c) if o.shanten == 0 else (),
                cycles_off,
                quick=o.shanten > best + 1,
            )
            states[o.tile] = state
            valued[o.tile] = val = ev.value(state)
            static[o.tile] = self._with_danger(view, ev, o.tile, val)
            if self.shape_weight:
                static[o.tile] -= self.shape_weight * self._shape.keep_value(view, o.tile, lean)
        if search and self.search_budget > 0 and best == 1 and not declared and len(static) > 1:
            self._search(view, ev, states, valued, static, opts)
        return static

    @staticmethod
    def _waits(view: TableView, c: Sequence[int]) -> tuple[int, ...]:
        """Every wait of a ready hand, dead ones included: the value model counts each
        wait's live copies (:meth:`Evaluator._ready_rates`), so a hand whose waits are all
        dead is worth no win, where passing only the live waits (``DiscardOption.improving``)
        left such a hand with none and valued it at typical ready-hand rates; and the
        pattern facts of a wait (``one_wait``) read the hand's waits, live or not."""
        return tuple(view.rules.waits(c))

    def _search(
        self,
        view: TableView,
        ev: Evaluator,
        states: dict[int, HandState],
        valued: dict[int, Valued],
        scores: dict[int, float],
        opts: Sequence[DiscardOption],
    ) -> None:
        """Next-draw expectimax for the best discards one step from ready (in place);
        ``valued`` holds each state's static value."""
        by_tile = {o.tile: o for o in opts}
        near = [t for t in scores if by_tile[t].shanten == 1 and by_tile[t].ukeire > 0]
        top = _ordered(near, [-scores[t] for t in near])[: self.search_width]
        if len(top) < 2 or scores[top[0]] - scores[top[-1]] > self.search_window:
            return
        per = max(1, self.search_budget // len(top))
        live = view.live
        unseen = ev.unseen
        h = ev.hazard
        shift = 0.0
        for t in top:
            state = states[t]
            o = by_tile[t]
            draws = _ordered(list(o.improving), [-live[k] for k in o.improving])
            values = [(live[k], self._ready_after(view, ev, state, k)) for k in draws[:per]]
            got = sum(n for n, _ in values)
            if not got:
                continue
            mean = sum(n * v for n, v in values) / got
            p_up = o.ukeire / unseen
            static = valued[t]
            stay = ev.value(HandState(state.c, state.melds, False, -1, 1, o.ukeire, (), 1)).value
            refined = h * static.end_now + (1 - h) * (p_up * mean + (1 - p_up) * stay)
            shift += refined - static.value
            scores[t] += refined - static.value
        # the options not searched move by the searched ones' mean change, so that
        # searched and static values compare like with like
        mean_shift = shift / len(top)
        for t in scores:
            if t not in top:
                scores[t] += mean_shift

    def _ready_after(self, view: TableView, ev: Evaluator, state: HandState, draw: int) -> float:
        """Best value after drawing ``draw`` to a hand one step from ready and discarding:
        the two ready discards with the most live waits are valued exactly.  Fourteen-tile
        hands repeat between options (discard a, draw b = discard b, draw a): cached."""
        c = list(state.c)
        c[draw] += 1
        key = tuple(c)
        cache = ev.scratch.setdefault("ready_after", {})
        got = cache.get(key)
        if got is not None:
            return got
        live = list(view.live)
        live[draw] = max(0, live[draw] - 1)
        kinds = [k for k in range(NUM_KINDS) if c[k]]
        ready = [o for o in view.analyzer.options(c, kinds, live) if o.shanten == 0]
        ready = _ordered(ready, [-o.ukeire for o in ready])
        best = -1e18
        for o in ready[:2]:
            after = list(c)
            after[o.tile] -= 1
            waits = self._waits(view, after)
            s = HandState(after, state.melds, False, -1, 0, o.ukeire, waits, 1)
            best = max(best, ev.value(s).value)
        if best <= -1e18:
            best = ev.value(state).value
        cache[key] = best
        return best

    # --- kongs ---------------------------------------------------------------------------

    def kong_value(self, view: TableView, ev: Evaluator, a: Action) -> float:
        """A kong's value: the hand after it (one more draw: the replacement), what the
        rules make the kong worth (its dou: the pricers read it from the melds), its 通行证,
        for an added kong the chance it is robbed (抢杠, 烧), and the 热炮 it exposes this
        seat to (:meth:`repao_exposure`)."""
        hand = list(view.hand)
        melds = list(view.own_melds())
        if a.kind is ActionKind.GANG_CONCEALED:
            hand[a.tile] -= 4
            melds.append(Meld(MeldKind.GANG_CONCEALED, a.tile))
        else:
            hand[a.tile] -= 1
            i = next(i for i, m in enumerate(melds) if m.kind is MeldKind.PENG and m.tile == a.tile)
            melds[i] = Meld(MeldKind.GANG_ADDED, a.tile, melds[i].source)
        rules = view.rules
        shanten = rules.shanten(hand)
        waits = tuple(rules.waits(hand)) if shanten == 0 else ()
        uke = _ukeire(view, hand) if shanten > 0 else -1
        state = HandState(hand, tuple(melds), view.declared[view.seat], -1, shanten, uke, waits, -1)
        val = ev.value(state)
        v = val.value
        if a.kind is ActionKind.GANG_ADDED and "added" in view.ruleset.variant.claims.rob_kong:
            v -= self._rob_risk(view, ev, a.tile, val)
        kong = next(m for m in melds if m.is_kong and m.tile == a.tile)
        v -= self.repao_exposure(view, ev, hand, tuple(melds), kong)
        return v

    def repao_exposure(
        self,
        view: TableView,
        ev: Evaluator,
        hand: Sequence[int],
        melds: tuple[Meld, ...],
        kong: Meld,
    ) -> float:
        """热炮: what a kong adds to the price of this seat's later deal-ins, by the
        variant's ``repao`` section — the first discard after it (``after_kong``), or every
        discard once it owns a dou (``after_dou``, seed 000 15: none added where a counting
        kong is already owned).  Each such discard deals in with the chances of the tiles
        held (their mean: the replacement draw decides what is thrown), and a 热炮 costs
        its row, the pricers' 热炮 multiplier and the 烧 of what the seat then holds, the
        new kong's dou included, over an ordinary deal-in (:meth:`loss_to`)."""
        section = view.ruleset.variant.repao
        if not ev.win_on_discard or not section.applies(melds, after_kong=True, kong=kong):
            return 0.0
        if section.scope == "after_kong":
            discards = 1.0
        else:
            if section.applies(view.own_melds(), after_kong=False, kong=None):
                return 0.0  # already exposed: this kong adds its dou to the burn only
            # the discards it still makes: one a cycle while nobody has ended the round
            keep = 1.0 - ev.hazard
            discards = sum(keep**k for k in range(ev.cycles))
        held = [(t, n) for t, n in enumerate(hand) if n]
        total = sum(n for _, n in held)
        if not total:
            return 0.0
        holding = (hand, melds)
        extra = 0.0
        for t, n in held:
            for th, p in self.chances(view, ev, t):
                hot = self.loss_to(view, ev, th, repao=True, holding=holding)
                cold = self.loss_to(view, ev, th, repao=False, holding=holding)
                extra += n * p * (hot - cold)
        return discards * extra / total

    def _rob_risk(self, view: TableView, ev: Evaluator, tile: int, val: Valued) -> float:
        """抢杠: a ready opponent waiting on the added tile wins, paid by this seat for all
        (seed 000 16), and 烧 voids this seat's chickens and dou where the variant says so."""
        threats = self._threats.threats(view)
        p_total = 0.0
        for th in threats:
            if not th.weights:
                self._threats._weigh(view, th)
            if th.total <= 0:
                continue
            p = ev.p_ready[th.seat] * min(
                1.0, self._threats.waits_per_hand * th.weights[tile] / th.total
            )
            p_total += p * self.scale_of(ev, th)
        if p_total <= 0:
            return 0.0
        cost = ev.pricing.rob_cost(_plain_fan(ev), payer_dealer=ev.dealer, streak=ev.streak)
        if ev.pricing.burns("rob_kong"):
            cost += max(0.0, val.end_now)
        return min(1.0, p_total) * (cost + max(0.0, val.value - val.end_now))

    # --- claims on a discard ---------------------------------------------------------------

    def claim(self, view: TableView, legal: Sequence[Action]) -> Action:
        ev = Evaluator(view)
        hand = view.hand
        melds = view.own_melds()
        declared = view.declared[view.seat]
        pass_ = next(a for a in legal if a.kind is ActionKind.PASS)
        tile = view.claim_tile
        an = view.analyzer
        s, uke, _ = an.ukeire(hand, view.live)
        waits = self._waits(view, hand) if s == 0 else ()
        state = HandState(list(hand), melds, declared, -1, s, uke, waits)
        now = ev.value(state)
        values = {pass_: now.value}
        zeren = self._zeren_claim(view, ev, now)
        for a in legal:
            if a.kind is ActionKind.PENG:
                values[a] = self._after_claim(view, ev, a, [tile, tile], MeldKind.PENG) + zeren
            elif a.kind is ActionKind.CHI:
                need = [t for t in (a.tile, a.tile + 1, a.tile + 2) if t != tile]
                values[a] = self._after_claim(view, ev, a, need, MeldKind.CHI) + zeren
            elif a.kind is ActionKind.GANG_EXPOSED:
                values[a] = self._exposed_kong(view, ev, a) + zeren
        best = max(values, key=values.__getitem__)
        efficient = self._shape.claim(view, legal)
        if efficient in values and values[best] - values[efficient] < self.deviation_margin:
            return efficient
        return best

    def _zeren_claim(self, view: TableView, ev: Evaluator, now: Valued) -> float:
        """What claiming the discard earns by the rules besides the hand (责任鸡 from its
        discarder, any claim as settlement counts it: :meth:`~zhuoji.contract.pricing.Pricer.claim_gain`),
        at the chances of the hand before the claim."""
        p = now.probs
        p_collect = p[WIN_SELF] + p[WIN_DISCARD] + p[OTHER_READY]
        return ev.prices.claim_gain(p_collect, p[OTHER_UNREADY])

    def _after_claim(
        self, view: TableView, ev: Evaluator, a: Action, used: list[int], kind: MeldKind
    ) -> float:
        """Value of claiming (pung or chow) and then making the best discard."""
        hand = list(view.hand)
        for t in used:
            hand[t] -= 1
        src = view.obs.claim_source
        meld = Meld(kind, a.tile, src, view.claim_tile if kind is MeldKind.CHI else None)
        melds = (*view.own_melds(), meld)
        kinds = [k for k in range(NUM_KINDS) if hand[k]]
        if not kinds:
            return -1e18
        opts = view.analyzer.options(hand, kinds, view.live)
        # static values, as passing is valued: a searched claim would not compare like with
        # like (and would cost a search per claim option)
        scored = self.score_discards(
            view, ev, hand, melds, view.declared[view.seat], opts, search=False
        )
        for t in _dead_ready(opts) if self.keep_live_waits else ():
            scored.pop(t, None)
        return max(scored.values())

    def _exposed_kong(self, view: TableView, ev: Evaluator, a: Action) -> float:
        """点豆: the kong on the discard, its dou (from the feeder), the replacement draw,
        and the 热炮 it exposes this seat to (:meth:`repao_exposure`)."""
        hand = list(view.hand)
        hand[a.tile] -= 3
        src = view.obs.claim_source
        kong = Meld(MeldKind.GANG_EXPOSED, a.tile, src)
        melds = (*view.own_melds(), kong)
        rules = view.rules
        shanten = rules.shanten(hand)
        waits = tuple(rules.waits(hand)) if shanten == 0 else ()
        uke = _ukeire(view, hand) if shanten > 0 else -1
        state = HandState(hand, melds, view.declared[view.seat], -1, shanten, uke, waits, -1)
        return ev.value(state).value - self.repao_exposure(view, ev, hand, melds, kong)


def _dead_ready(opts: Sequence[DiscardOption]) -> frozenset[int]:
    """The discards that leave the hand ready on dead waits only (no live copy of any wait
    left) where another discard leaves it ready on a live one: those are not played
    (issue 28 §1, "a 200-round scan finds 0 such choices").

    The value model already prices a dead wait at no win (:meth:`ExpertAgent._waits`); what
    it still credits such a hand with is being ready — 叫嘴 for the chickens when another
    seat wins, 查叫 at a draw.  Against a dangerous live-wait discard (a shown 清一色 in the
    suit of the tile that must go) that credit made it keep a dead 单吊 turn after turn
    (guiyang, match seed 24, round 1: 0.7–0.9 points above breaking the hand, in the model's
    own prices).  The bot now breaks the hand or keeps the live wait instead: a ready hand
    that can never win is not a choice a player being priced with makes while a live wait
    is one discard away.  Played out over redealt hidden tiles the rule cost 0.68 points
    in that position and gained 0.67 in the other the scan found (the last discard of a
    round): about as much either way, 0.004 points per seat-round at most in 200 rounds.
    ``docs/agents.md`` lists the cases (:attr:`ExpertAgent.keep_live_waits` turns it off)."""
    if not any(o.shanten == 0 and o.ukeire > 0 for o in opts):
        return frozenset()
    return frozenset(o.tile for o in opts if o.shanten == 0 and o.ukeire == 0)


def _ukeire(view: TableView, hand: Sequence[int]) -> int:
    return view.analyzer.ukeire(hand, view.live)[1]


# no lambdas: a closure in a method of a non-native class stops mypyc (internal error)
_T = TypeVar("_T")


def _ordered(items: list[_T], keys: Sequence[float]) -> list[_T]:
    """``sorted(items, key=...)`` with the keys given: stable, ties in the items' order."""
    return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__)]


def _first_best(keys: Sequence[Any]) -> int:
    """The index ``max(..., key=...)`` picks: the first of the greatest keys."""
    best = 0
    for i in range(1, len(keys)):
        if keys[i] > keys[best]:
            best = i
    return best


def _first_least(keys: Sequence[Any]) -> int:
    """The index ``min(..., key=...)`` picks: the first of the least keys."""
    best = 0
    for i in range(1, len(keys)):
        if keys[i] < keys[best]:
            best = i
    return best


register_agent("expert", ExpertAgent)
