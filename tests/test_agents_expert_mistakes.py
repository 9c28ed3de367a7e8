"""The expert's mistakes found in issue 28, each pinned: a position where it went wrong and,
where the mistake is common, a small scan of expert play that finds it no more."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from zhuoji.actions import Action, ActionKind
from zhuoji.agents.analysis import TableView
from zhuoji.agents.base import play_round
from zhuoji.agents.expert import ExpertAgent
from zhuoji.agents.expert_value import WIN_DISCARD, WIN_SELF, Evaluator, Valued
from zhuoji.engine import Round
from zhuoji.match import Match, round_seed
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.variant_io import load_variant


def _moves(text: str) -> list[str]:
    """Actions written one after another, separated by ``|``."""
    return [a.strip() for a in text.split("|")]


def _replayed(variant: str, seed: int, actions: Sequence[str]) -> Round:
    """The round of ``seed`` after ``actions`` (in the order the engine took them)."""
    r = Round(load_variant(variant), seed=seed)
    for a in actions:
        r.apply(Action.parse(a))
    return r


# ---------------------------------------------------------------------------------------
# 1. dead waits: a wait with no live copy left is worth no win
# ---------------------------------------------------------------------------------------

#: guiyang, seed 7, four experts seeded 7 + seat: seat 2 then held 1123567m1223789p and a
#: draw, ready after 1m or 2p; it threw 1m, keeping a wait with 0 live copies, where 2p kept
#: one with 3 (the dead wait arrived at the value model with no waits, which then priced it
#: at typical ready-hand rates)
_DEAD_WAIT = _moves(
    "3 discard 1p|0 discard 1s|1 discard 1p|2 discard 9m|3 discard 9p|0 discard 9m|"
    "1 discard 3s|2 discard 6m|3 discard 1s|0 discard 1m|1 discard 4p|2 discard 7m|"
    "3 discard 1m|0 discard 7p|1 discard 5s|2 discard 3p|3 discard 8p|0 discard 8m|"
    "3 peng 8m|3 discard 9m|0 discard 9m|1 discard 8s|2 discard 4s|3 discard 8p|"
    "0 discard 2s|1 discard 4p|2 discard 6s|0 pass|3 discard 9s|0 peng 9s|0 discard 6s|"
    "1 discard 1p|2 discard 4s|3 discard 6p|1 peng 6p|1 discard 7p|2 discard 2s|"
    "3 discard 5m|0 discard 7s|1 discard 3m|2 discard 9p|3 discard 7p|0 discard 3p|"
    "1 discard 1s|2 discard 2p|3 discard 4p|0 discard 2p|1 bugang 6p|1 discard 2m|"
    "2 discard 5s|3 discard 9p|0 discard 5m|1 discard 1s|2 discard 3m|3 discard 5p|"
    "0 discard 4m|1 pass|1 discard 8s"
)


def _dead_wait_choices(view_obs: Observation, chosen: Action) -> tuple[int, int] | None:
    """(live waits kept, best live waits available) when ``chosen`` keeps a ready hand whose
    waits are all dead while another discard keeps it ready with live waits; else None."""
    if view_obs.phase != "turn" or chosen.kind is not ActionKind.DISCARD:
        return None
    view = TableView(view_obs)
    tiles = sorted({a.tile for a in view_obs.legal if a.kind is ActionKind.DISCARD})
    opts = {o.tile: o for o in view.analyzer.options(view.hand, tiles, view.live)}
    kept = opts[chosen.tile]
    if kept.shanten != 0 or kept.ukeire > 0:
        return None
    best = max((o.ukeire for o in opts.values() if o.shanten == 0), default=0)
    return (kept.ukeire, best) if best > 0 else None


def test_a_dead_wait_is_not_kept_over_a_live_one() -> None:
    r = _replayed("guiyang", 7, _DEAD_WAIT)
    obs = r.observe(2)
    choice = ExpertAgent(9).act(obs)
    assert choice.kind is ActionKind.DISCARD
    assert _dead_wait_choices(obs, choice) is None, f"kept a dead wait: {choice}"
    assert str(choice) == "2 discard 2p"


#: guiyang, seed 12: seat 3 is offered 6p to pung while its hand is ready on dead waits
_DEAD_WAIT_CLAIM = _moves(
    "3 discard 1s|0 discard 1s|1 discard 2m|2 discard 1m|3 peng 1m|3 discard 8m|1 pass|"
    "0 discard 9p|1 discard 4m|0 pass|2 discard 9m|3 discard 1p|0 discard 8s|1 discard 9s|"
    "2 discard 1p|3 discard 9s|0 discard 8s|1 discard 8m|2 discard 9s|3 discard 9p|"
    "0 discard 1s|1 discard 2m|2 discard 1p|3 discard 5s|0 discard 9m|1 discard 4p|"
    "2 discard 1s|3 discard 3m|0 discard 1p|1 discard 4s|2 discard 7s|3 discard 3s|"
    "0 discard 8p|1 discard 2m|2 discard 3s|3 discard 8s|0 discard 2s|1 discard 9m|"
    "2 discard 2s|3 discard 8m|0 discard 8s|1 discard 7s|2 discard 4m|0 peng 4m|"
    "0 discard 2m|1 discard 2p|3 peng 2p|3 discard 4p|0 discard 1m|1 discard 3p|"
    "2 discard 2s|3 discard 3p|1 pass|0 discard 6s|1 discard 5p|0 pass|2 discard 7m|"
    "3 discard 6s|0 discard 7s|1 discard 6p"
)


def test_a_claim_values_passing_on_dead_waits_as_no_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a claim window the hand kept by passing is ready on dead waits: it arrives at the
    value model with its waits and is worth no win."""
    obs = _replayed("guiyang", 12, _DEAD_WAIT_CLAIM).observe(3)
    assert obs.phase == "claim"
    hand = tuple(TableView(obs).hand)
    # spied through the bot's own methods, which both builds look up on the class (the
    # compiled bot calls the compiled Evaluator.value directly, past a patched attribute)
    waits_asked: list[tuple[int, ...]] = []
    passing: list[Valued] = []
    real_waits = ExpertAgent._waits
    real_zeren = ExpertAgent._zeren_claim

    def spy_waits(view: TableView, c: Sequence[int]) -> tuple[int, ...]:
        got = real_waits(view, c)
        if tuple(c) == hand:
            waits_asked.append(got)
        return got

    def spy_zeren(self: ExpertAgent, view: TableView, ev: Evaluator, now: Valued) -> float:
        passing.append(now)  # the value of passing: the hand as it is
        return real_zeren(self, view, ev, now)

    monkeypatch.setattr(ExpertAgent, "_waits", staticmethod(spy_waits))
    monkeypatch.setattr(ExpertAgent, "_zeren_claim", spy_zeren)
    ExpertAgent(10).act(obs)
    assert len(waits_asked) == 1 and waits_asked[0]  # its waits, dead ones included
    (val,) = passing
    assert val.probs[WIN_SELF] == 0 and val.probs[WIN_DISCARD] == 0


#: guiyang, match seed 24, round 1 (dealer seat 1), four experts seeded 7 + seat: seat 2
#: holds 6788m6s234789p with a 5s pung.  Throwing 8m keeps it ready on 6s alone, whose
#: four copies are all out (its own and seat 3's pung); throwing 6s keeps 5m/8m live, into
#: seat 3's two 条 pungs (清一色 shown).  The value model prices the dead 单吊 above both
#: (ready for 叫嘴 and 查叫, no deal-in); it kept it three turns running
_DEAD_SINGLE = _moves(
    "1 discard 1m|2 discard 2m|3 discard 3p|0 discard 9p|1 discard 1s|0 peng 1s|0 discard 3m|"
    "1 discard 1s|2 discard 6s|3 peng 6s|3 discard 5s|2 peng 5s|2 discard 1p|0 peng 1p|"
    "0 discard 9m|1 discard 9m|2 discard 2p|3 discard 1m|0 bugang 1p|0 discard 4p|"
    "1 discard 2p|2 discard 9m|3 discard 2m|0 discard 8s|3 peng 8s|3 discard 8m|2 pass|"
    "0 discard 6p|1 discard 8s|2 discard 3p|3 discard 1m|0 discard 7m|1 discard 3m"
)


def test_a_dead_single_wait_is_not_kept_against_a_shown_qingyise() -> None:
    """Where a live wait is one discard away, a hand ready on dead waits only is not kept:
    the bot breaks the hand (9p) rather than keep a 单吊 that can never win or feed the
    清一色 its 6s."""
    r = Round(load_variant("guiyang"), seed=round_seed(24, 1), dealer=1)
    for a in _DEAD_SINGLE:
        r.apply(Action.parse(a))
    obs = r.observe(2)
    choice = ExpertAgent(9).act(obs)
    assert _dead_wait_choices(obs, choice) is None, f"kept a dead wait: {choice}"
    assert str(choice) == "2 discard 9p"


#: guiyang, match seed 11, round 7 (dealer seat 3, 南 round), four experts seeded 7 + seat:
#: seat 0, with four pungs (6m 5m 3s 4s) and 35m, draws the wall's last tile.  3m keeps it
#: ready on 5m, whose four copies are its own; 5m keeps it ready on 3m, three unseen
_LAST_DISCARD = _moves(
    "3 discard 1s|0 discard 1s|1 discard 1m|2 discard 1p|3 discard 9p|0 discard 1p|"
    "1 discard 9m|2 discard 9p|3 discard 8s|0 discard 7p|1 discard 2s|3 gang 2s|"
    "3 discard 7m|0 discard 5p|1 discard 9p|2 discard 6p|3 discard 6p|0 discard 5p|"
    "1 discard 3s|0 pass|2 discard 5p|3 discard 6m|0 peng 6m|0 discard 9s|1 angang 4p|"
    "1 discard 9m|2 discard 5m|0 peng 5m|0 discard 7s|1 pass|1 discard 8p|2 discard 2p|"
    "3 discard 8s|0 discard 7p|1 discard 9s|2 discard 1s|3 discard 8s|0 discard 7p|"
    "1 discard 3p|2 discard 9s|3 discard 6p|0 discard 1p|1 discard 8p|2 discard 3s|"
    "0 peng 3s|0 discard 5s|2 peng 5s|2 discard 7m|3 discard 9p|0 discard 8m|2 peng 8m|"
    "2 discard 7s|1 pass|3 discard 7m|0 discard 7m|1 discard 9m|2 discard 2m|"
    "3 discard 2p|0 discard 1s|1 discard 2p|2 discard 4s|0 peng 4s|0 discard 2m|2 pass|"
    "1 discard 6m|2 bugang 8m|2 discard 7p|3 discard 6p|0 discard 9m|1 discard 3p|"
    "2 discard 5p|3 discard 3p"
)


def test_the_last_discard_keeps_the_live_wait() -> None:
    """With the wall empty neither wait can be won any more and both hands are worth the
    same; the model preferred 3m, the tile likelier to be won on (a win by another pays its
    chickens, 叫嘴, where a draw pays it almost nothing).  A live wait is kept all the same."""
    rs = load_variant("guiyang")
    r = Round(rs, seed=round_seed(11, 7), dealer=3, round_wind=1)
    for a in _LAST_DISCARD:
        r.apply(Action.parse(a))
    obs = r.observe(0)
    assert obs.wall_left == 0
    choice = ExpertAgent(7).act(obs)
    assert _dead_wait_choices(obs, choice) is None, f"kept a dead wait: {choice}"
    assert str(choice) == "0 discard 5m"


def _scan(variant: str, seeds: range) -> list[tuple[str, tuple[int, int]]]:
    """Four experts (seeded 7 + seat) play 8-round matches of ``seeds``; every discard that
    keeps a ready hand on dead waits only where another kept a live wait."""
    found: list[tuple[str, tuple[int, int]]] = []

    class Scan:
        name = "expert"

        def __init__(self, seat: int) -> None:
            self.agent = ExpertAgent(7 + seat)

        def act(self, obs: Observation) -> Action:
            a = self.agent.act(obs)
            bad = _dead_wait_choices(obs, a)
            if bad is not None:
                found.append((str(a), bad))
            return a

    rs = load_variant(variant)
    for seed in seeds:
        for r in Match(rs, seed=seed, rounds=8).rounds():
            play_round(r, [Scan(s) for s in range(rs.players)])
    return found


def test_a_200_round_scan_of_expert_play_keeps_no_dead_wait() -> None:
    """200 rounds of four experts in guiyang keep no ready hand on dead waits where a live
    one was available (issue 28 §1: 53 such choices before the value model counted dead
    waits, then 4 — three turns of the dead 单吊 above, and the last discard of match 11's
    eighth round, where 3m kept a dead 5m and 5m a live 3m with the wall empty and the model
    chose the tile likelier to be won on, its chickens paying more if another wins than at a
    draw; both are now played with the live wait or a broken hand)."""
    assert _scan("guiyang", range(1, 26)) == []


def test_a_scan_of_liupanshui_expert_play_keeps_no_dead_wait() -> None:
    """16 rounds of four experts in liupanshui (before the value model counted dead waits,
    its scan had such choices)."""
    assert _scan("liupanshui", range(1, 3)) == []


# ---------------------------------------------------------------------------------------
# 2. reading each opponent: an obvious 清一色
# ---------------------------------------------------------------------------------------

#: guiyang, match seed 7012, round 1, four experts seeded by seat: seat 0 shows three 万
#: pungs (3m 1m 7m) and has thrown one 万 in seven discards; seat 2, ready after 4m, 8m or
#: 3p, threw 8m into its 清一色 and paid 10, where 3p kept it ready and was safe
_QINGYISE = _moves(
    "1 discard 3m|0 peng 3m|0 discard 5p|1 discard 2s|2 discard 1m|0 peng 1m|0 discard 8p|"
    "1 discard 1s|2 discard 1p|3 discard 2m|0 discard 9p|1 discard 3p|2 discard 2p|"
    "3 discard 9p|0 discard 2p|1 discard 2m|2 discard 6p|3 discard 1m|0 discard 1s|"
    "2 peng 1s|2 discard 3s|3 peng 3s|3 discard 9m|1 peng 9m|1 discard 7m|0 peng 7m|"
    "0 discard 7p|1 discard 2m|2 discard 7s|3 pass|3 discard 9m|0 discard 5m|3 pass|"
    "1 discard 6p"
)


def _qingyise_round(overrides: Sequence[str] = ()) -> Round:
    rs = load_variant("guiyang", list(overrides))
    r = next(iter(Match(rs, seed=7012, rounds=1).rounds()))
    for a in _QINGYISE:
        r.apply(Action.parse(a))
    return r


def test_a_shown_qingyise_is_not_fed() -> None:
    obs = _qingyise_round().observe(2)
    choice = ExpertAgent(2).act(obs)
    assert str(choice) == "2 discard 3p"


def _reading_of(overrides: Sequence[str], seat: int) -> tuple[ExpertAgent, TableView, Evaluator]:
    obs = _qingyise_round(overrides).observe(2)
    view = TableView(obs)
    agent = ExpertAgent(2)
    return agent, view, Evaluator(view)


def test_the_qingyise_is_read_from_its_melds_and_priced_by_the_table() -> None:
    """Seat 0's threat reads 清一色 shown (three 万 melds), waits only in 万, and dealing in
    costs the variant's 清大对 (15, seed 000 3.7) as the discarder pays it; the price moves
    with the pattern row."""
    agent, view, ev = _reading_of([], 2)
    th = next(t for t in agent._threats.threats(view) if t.seat == 0)
    assert th.reading == "suit_shown"
    agent._threats._weigh(view, th)
    assert all(w == 0 for k, w in enumerate(th.weights) if k >= 9)
    assert agent.threat_fan(view, ev, th) == 15
    loss = agent.loss_to(view, ev, th)
    agent2, view2, ev2 = _reading_of(["patterns.rows.qingdadui.fan=30"], 2)
    th2 = next(t for t in agent2._threats.threats(view2) if t.seat == 0)
    assert agent2.threat_fan(view2, ev2, th2) == 30
    assert agent2.loss_to(view2, ev2, th2) > loss


def test_tiles_an_opponent_let_go_since_its_last_discard_are_safe_against_it() -> None:
    """After seat 3's last discard (9m) seat 0 threw 5m and seat 1 6p, and seat 3 won on
    neither with the hand it still holds: both are no waits of seat 3's; against seat 1,
    whose discard was the last, they are not."""
    agent, view, _ = _reading_of([], 2)
    threats = {t.seat: t for t in agent._threats.threats(view)}
    five_m, six_p = Action.parse("0 discard 5m").tile, Action.parse("1 discard 6p").tile
    assert {five_m, six_p} <= threats[3].safe
    assert five_m not in threats[1].safe
    agent._threats._weigh(view, threats[3])
    agent._threats._weigh(view, threats[1])
    assert threats[3].weights[five_m] == 0 < threats[1].weights[five_m]


# ---------------------------------------------------------------------------------------
# 3. kongs priced with their risks
# ---------------------------------------------------------------------------------------

#: liupanshui, seed 21, four experts seeded 7 + seat: seat 3 declared 报听 on its first
#: discard; seat 0's 3s may be konged by seat 1 (点杠), whose next discard is then a 热炮
#: (seed 004 (1), 烧光 (4)) into a declared hand
_KONG_INTO_DECLARED = _moves(
    "3 declare 4s|0 discard 2p|1 discard 8s|2 discard 1p|3 discard 5p|0 discard 5p|"
    "1 discard 5p|2 discard 4s|3 discard 3m|0 discard 3s"
)


def _kong_choice(overrides: Sequence[str]) -> tuple[Action, float]:
    rs = load_variant("liupanshui", list(overrides))
    r = Round(rs, seed=21)
    for a in _KONG_INTO_DECLARED:
        r.apply(Action.parse(a))
    obs = r.observe(1)
    agent = ExpertAgent(8)
    choice = agent.act(obs)
    view = TableView(obs)
    ev = Evaluator(view)
    kong = next(a for a in obs.legal if a.kind is ActionKind.GANG_EXPOSED)
    hand = list(view.hand)
    hand[kong.tile] -= 3
    melds = (*view.own_melds(), Meld(MeldKind.GANG_EXPOSED, kong.tile, obs.claim_source))
    return choice, agent.repao_exposure(view, ev, hand, melds, melds[-1])


def test_a_kong_carries_the_repao_it_exposes_its_owner_to() -> None:
    """The 热炮 a kong creates is priced through the pricers (its row, the 热炮 multiplier,
    the 烧 of chickens and dou): at the table's ×1 the kong is taken; at ×5 the exposure
    grows and the seat passes rather than feed a declared hand a 热炮."""
    plain, exposure = _kong_choice([])
    hot, exposure5 = _kong_choice(["settle.hu.multipliers.repao=5"])
    assert exposure > 0
    assert exposure5 > exposure
    assert plain.kind is ActionKind.GANG_EXPOSED
    assert hot.kind is ActionKind.PASS
