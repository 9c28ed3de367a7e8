"""The expert bot's danger model: what discarding a tile risks against each opponent.

Each opponent is read from its own melds and discards (:class:`_Threats`, the cautious bot's
reading: readiness, waits, a 清一色, 大对子 or 七对 in the making, a declared hand; tiles it let
go by are safe against it), and a deal-in is priced in money through the variant's own
settlement (:mod:`zhuoji.contract.pricing`: the pattern row it would win with, 热炮, 报听).
:class:`DangerModel` is the part of :class:`~zhuoji.agents.expert.ExpertAgent` that does this
(issue 28 §2); the calibrations are its class constants.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from mypy_extensions import mypyc_attr

from zhuoji.agents.analysis import TableView, meld_counts
from zhuoji.agents.cautious import CautiousAgent, Threat
from zhuoji.agents.expert_value import (
    FAR,
    OTHER_READY,
    OTHER_UNREADY,
    READY_FIT,
    READY_FIT_OPEN,
    WIN_DISCARD,
    WIN_SELF,
    Evaluator,
    Valued,
    ready_chance,
    table_fan,
)
from zhuoji.contract.pricing import Pricing
from zhuoji.hand import Form
from zhuoji.outcome import Meld
from zhuoji.tiles import NUM_KINDS


@mypyc_attr(native_class=False)  # its base, the cautious bot, is a Python class
class _Threats(CautiousAgent):
    """The cautious bot's reading of the opponents (who is ready, may win on this seat's
    discard, which tiles it waits on); the expert prices the losses itself, and reads an
    undeclared opponent's readiness with the fit of its table (:data:`READY_FIT_OPEN` where
    any ready hand may win on a discard: there a seat still playing is seldom ready)."""

    def _threat(self, view: TableView, o: int, pricing: Pricing, me_declared: bool) -> Threat:
        th = super()._threat(view, o, pricing, me_declared)
        declared = view.declared[o]
        if not pricing.limited and not declared:
            nd, nm = len(view.discards_by[o]), len(view.melds[o])
            th.p *= ready_chance(nd, nm, READY_FIT_OPEN) / ready_chance(nd, nm, READY_FIT)
        if not me_declared:
            # its hand has not changed since its last discard, and it let every tile
            # discarded since go by: none is a wait (a tile it may win on is won on, and
            # whether it may win on mine is the same question; when this seat is declared,
            # ``from_declared`` may let it win on mine where it could not on theirs)
            th.safe |= _passed_since_last_discard(view, o)
        th.reading = _reading(view, o, th)
        return th

    def off_suit_weight(self, th: Threat) -> float:
        """A hand showing 清一色 (two melds or more in the suit it keeps) waits in that suit
        only: with a tile of another suit it is not 清一色, and its melds alone pass no
        通行证."""
        return 0.0 if th.reading == "suit_shown" else self.off_suit


def _reading(view: TableView, o: int, th: Threat) -> str:
    """What seat ``o``'s melds and discards say it is making (:attr:`Threat.reading`): a
    declared hand; 清一色 (a suit it keeps, :func:`~zhuoji.agents.cautious._suit_focus`); 大对子
    (two pung melds or more and no chow); a hand that may win on a discard only with a
    pattern (七对 or 大对子 shapes); else a plain hand."""
    if view.declared[o]:
        return "declared"
    melds = view.melds[o]
    pungs, chows = meld_counts(melds)
    if th.focus >= 0:
        # two melds or more in the suit it keeps: 清一色 shown, not only guessed
        return "suit_shown" if len(melds) >= 2 else "suit"
    if pungs >= 2 and not chows:
        return "pungs"
    return "pairs" if th.shape == "pairs" else "plain"


def _passed_since_last_discard(view: TableView, o: int) -> set[int]:
    """The tiles others discarded after seat ``o``'s last discard (claimed or not: a win
    goes before a claim), which ``o`` let go by with the hand it still holds."""
    out: set[int] = set()
    for who, tile, _claimed in reversed(view.table):
        if who == o:
            break
        out.add(tile)
    else:
        return set()  # no discard yet: its hand is the dealt one, still changing
    return out


@mypyc_attr(native_class=False)  # the expert's base: see ExpertAgent
class DangerModel:
    """Deal-in chances and what they cost, for :class:`~zhuoji.agents.expert.ExpertAgent`."""

    _threats: _Threats
    #: the current turn began with this seat's kong (a discard now is a 热炮), and its tile
    _konged: bool
    _kong_tile: int
    #: calibration of the cautious bot's wait weights as probabilities: where a 通行证
    #: limits wins on discards (guiyang, 60 rounds of greedy play) they predicted 50
    #: deal-ins where 12 happened; where any ready hand may win on a discard, with the
    #: readiness of :data:`READY_FIT_OPEN`, the chosen discards of expert play against
    #: cautious (jinyou, 400 deals × 2) summed to 0.184 deal-ins per seat-round where 0.192
    #: happened (0.42 with the guiyang readiness fit, which overrated readiness twofold)
    danger_scale = 0.25
    danger_scale_open = 0.85
    #: the calibration by what an opponent's melds and discards say it is making
    #: (:attr:`~zhuoji.agents.cautious.Threat.reading`), where a 通行证 limits discard
    #: wins: deal-ins that happened over the weights' predicted deal-ins of the chosen
    #: discards, pooled over 400 rounds each of four experts in guiyang and liupanshui and
    #: of expert against greedy ×3 in both (issue 28): a declared hand 13/19.8, a plain
    #: hand with a 通行证 84/115, 大对子 melds 92/214, a pattern-only hand 38/140, a suit
    #: guessed from discards alone 35/337, 清一色 shown by two melds or more in it 5/1.8
    #: (four-expert rounds only; few deal-ins: the bot avoids them).  ``danger_scale``
    #: 0.25 was their mean: it shrank a shown 清一色 tenfold (seed 7012).  Where any ready
    #: hand may win on a discard ``danger_scale_open`` holds.
    reading_scale: ClassVar[dict[str, float]] = {
        "declared": 0.66,
        "plain": 0.73,
        "pungs": 0.43,
        "pairs": 0.27,
        "suit": 0.10,
        "suit_shown": 2.8,
    }
    #: opponents whose chance to be ready and able to win on a discard is below this
    #: (after calibration) are not weighed tile by tile
    danger_floor = 0.01

    def _with_danger(self, view: TableView, ev: Evaluator, tile: int, val: Valued) -> float:
        """An option's value once its discard of ``tile`` is priced: the chance it deals in
        (the round ends now, this seat pays), the chance it is punged (责任鸡: what the
        rules make a claimed discard cost, :meth:`~zhuoji.contract.pricing.Pricer.claimed_loss`)
        and what the discard itself earns (扔宝, :meth:`~zhuoji.contract.pricing.Pricer.discard_gain`)."""
        p_total, paid = self.deal_in(view, ev, tile)
        v = (1.0 - p_total) * val.value + p_total * val.end_now - paid
        probs = val.probs
        p_collect = probs[WIN_SELF] + probs[WIN_DISCARD] + probs[OTHER_READY]
        lost = ev.prices.claimed_loss(tile, p_collect)
        if lost:
            v -= self._claim_chance(view, ev, tile) * lost
        p_win = probs[WIN_SELF] + probs[WIN_DISCARD]
        p_lose = probs[OTHER_READY] + probs[OTHER_UNREADY]
        v += ev.prices.discard_gain(tile, p_win, p_lose)
        return v

    def deal_in(self, view: TableView, ev: Evaluator, tile: int) -> tuple[float, float]:
        """(chance that discarding ``tile`` deals in, expected points paid for it): the sum
        over :meth:`chances` of each chance, and of each chance times :meth:`loss_to`.

        A decision asks it of most tiles it holds, several times each (the safest discard,
        every option, every claim's discards): what does not depend on the tile — which
        opponents count, their calibrated chance, their wait weights and what dealing into
        each costs — is read once a decision (:meth:`_danger_table`), and each tile's answer
        is kept.  The arithmetic is :meth:`chances`' own, term for term, so the answers are
        the same floats."""
        if not ev.win_on_discard:
            return 0.0, 0.0
        table = view.cache.get("expert.danger")
        if not isinstance(table, _DangerTable):
            table = self._danger_table(view, ev)
            view.cache["expert.danger"] = table
        got = table.answers[tile]
        if got is not None:
            return got
        p_total = paid = 0.0
        wph = table.waits_per_hand
        for p_th, scale, weights, total, loss in table.active:
            p = p_th * min(1.0, wph * weights[tile] / total)
            p *= scale
            if p > 0:
                p_total += p
                paid += p * loss
        out = (min(p_total, 1.0), paid)
        table.answers[tile] = out
        return out

    def _danger_table(self, view: TableView, ev: Evaluator) -> _DangerTable:
        """What :meth:`deal_in` reads of each opponent for one decision: the opponents
        :meth:`chances` weighs (above :attr:`danger_floor`, with weights), in its order,
        each as (ready chance, calibration, wait weights, their total, :meth:`loss_to`)."""
        active: list[tuple[float, float, list[float], float, float]] = []
        for th, scale in self._weighed(view, ev):
            active.append((th.p, scale, th.weights, th.total, self.loss_to(view, ev, th)))
        return _DangerTable(active, self._threats.waits_per_hand)

    def _weighed(self, view: TableView, ev: Evaluator) -> list[tuple[Threat, float]]:
        """The opponents worth weighing, in order, with their calibration
        (:meth:`scale_of`): ready chance times calibration at least :attr:`danger_floor`,
        wait weights worked out, some weight left."""
        out: list[tuple[Threat, float]] = []
        for th in self._threats.threats(view):
            scale = self.scale_of(ev, th)
            if th.p * scale < self.danger_floor:
                continue
            if not th.weights:
                self._threats._weigh(view, th)
            if th.total > 0:
                out.append((th, scale))
        return out

    def chances(self, view: TableView, ev: Evaluator, tile: int) -> list[tuple[Threat, float]]:
        """Each opponent's chance to win on this seat's discard of ``tile`` (calibrated:
        :meth:`scale_of`), those below :attr:`danger_floor` left out."""
        out: list[tuple[Threat, float]] = []
        for th, scale in self._weighed(view, ev):
            p = th.p * min(1.0, self._threats.waits_per_hand * th.weights[tile] / th.total)
            p *= scale
            if p > 0:
                out.append((th, p))
        return out

    def scale_of(self, ev: Evaluator, th: Threat) -> float:
        """The calibration of ``th``'s wait weights as deal-in chances (:attr:`reading_scale`,
        ``danger_scale_open`` where any ready hand may win on a discard)."""
        if not ev.pricing.limited:
            return self.danger_scale_open
        return self.reading_scale.get(th.reading, self.danger_scale)

    def loss_to(
        self,
        view: TableView,
        ev: Evaluator,
        th: Threat,
        repao: bool | None = None,
        holding: tuple[Sequence[int], tuple[Meld, ...]] | None = None,
    ) -> float:
        """What this seat pays when ``th``'s seat wins on its discard: the likely pattern
        value as the discarder pays it, 杀报, and when the discard is a 热炮 (``repao``; by
        default whether its discard now would be one, :meth:`deals_repao`) the 热炮 row,
        its multiplier and the chickens and dou burnt (烧) of what it holds (``holding``:
        concealed counts and melds; by default its own now)."""
        default = repao is None and holding is None
        key = f"expert.loss.{th.seat}"
        if default:
            got = view.cache.get(key)
            if isinstance(got, float):
                return got
        pricing = ev.pricing
        o = th.seat
        fan = self.threat_fan(view, ev, th)
        if view.declared[o]:
            fan = pricing.declared_fan(fan, hard=o == view.dealer)
        if repao is None:
            repao = self.deals_repao(view)
        loss = pricing.share(
            fan,
            self_draw=False,
            winner_dealer=o == view.dealer,
            payer_dealer=ev.dealer,
            streak=ev.streak,
            repao=repao,
        )
        loss += pricing.dealt_in(view.declared[view.seat])
        if repao:
            plain = (("form", Form.STANDARD),)
            extra = table_fan(ev.ruleset, (*plain, ("repao", True))) - table_fan(ev.ruleset, plain)
            loss += max(0, extra)
            # 烧: what the burnt holdings (chickens, dou) were worth
            hand, melds = holding if holding is not None else (view.hand, view.own_melds())
            for part in ev.prices.burnt("repao", hand, melds):
                loss += part
        if default:
            view.cache[key] = loss
        return loss

    def threat_fan(self, view: TableView, ev: Evaluator, th: Threat) -> int:
        """The value of the hand ``th``'s seat likely wins with, by the variant's pattern
        table, as its melds and discards read (:attr:`Threat.reading`): 清一色 in the suit it
        keeps (清大对 with two pung melds or more and no chow), 大对子, a declared hand's
        shape; a hand that needs a pattern to win on a discard at least the cheapest
        passing one; else the plain value."""
        o = th.seat
        pungs, chows = meld_counts(view.melds[o])
        all_pungs = pungs >= 2 and not chows
        facts: list[tuple[str, object]] = [("form", Form.STANDARD)]
        if th.focus >= 0:
            facts.append(("one_suit", True))
        if all_pungs:
            facts.append(("all_pungs", True))
        fan = table_fan(ev.ruleset, tuple(facts))
        if not view.declared[o] and not ev.pricing.exempt(False, view.has_kong(o)):
            fan = max(fan, _pattern_fan(ev))  # it wins on a discard only with a pattern
        return fan

    def deals_repao(self, view: TableView) -> bool:
        """Whether this seat's discard now would deal a 热炮: the variant's ``repao`` section
        decides — the first discard after its own kong, or any once it owns a dou (seed 000
        15), and which kongs count (late ones, kong kinds)."""
        melds = view.own_melds()
        kong = None
        if self._konged:
            kong = next(
                (m for m in reversed(melds) if m.is_kong and m.tile == self._kong_tile), None
            )
        return view.ruleset.variant.repao.applies(melds, after_kong=self._konged, kong=kong)

    def _claim_chance(self, view: TableView, ev: Evaluator, tile: int) -> float:
        """The chance an opponent holds a pair of ``tile`` and pungs this seat's discard of it
        (责任鸡, seed 000 ②)."""
        live = view.live[tile]
        if live < 2:
            return 0.0
        unseen = max(1, ev.unseen)
        p_none = 1.0
        for o in range(view.players):
            if o == view.seat:
                continue
            rho = min(1.0, view.obs.concealed_count(o) / unseen)
            p0 = (1 - rho) ** live
            p1 = live * rho * (1 - rho) ** (live - 1)
            p_none *= p0 + p1
        return 1.0 - p_none


class _DangerTable:
    """One decision's deal-in reading (:meth:`DangerModel._danger_table`) and the answers
    :meth:`DangerModel.deal_in` gave so far, by tile."""

    __slots__ = ("active", "answers", "waits_per_hand")

    def __init__(
        self, active: list[tuple[float, float, list[float], float, float]], waits_per_hand: float
    ) -> None:
        self.active = active
        self.waits_per_hand = waits_per_hand
        self.answers: list[tuple[float, float] | None] = [None] * NUM_KINDS


def _plain_fan(ev: Evaluator) -> int:
    return table_fan(ev.ruleset, (("form", Form.STANDARD),))


def _pattern_fan(ev: Evaluator) -> int:
    """The cheapest pattern that lets a hand win on a discard without a dou (通行证), e.g.
    大对子 5 or 七对 8 in guiyang; the plain value where any hand may."""
    pricing = ev.pricing
    if not pricing.limited:
        return _plain_fan(ev)
    found = FAR
    for facts in (
        (("form", Form.STANDARD), ("all_pungs", True)),
        (("form", Form.SEVEN_PAIRS),),
        (("form", Form.STANDARD), ("one_suit", True)),
    ):
        f = table_fan(ev.ruleset, facts)
        if pricing.discard_fan <= f < found:
            found = f
    return found if found < FAR else _plain_fan(ev)
