"""The expert bot: its value model, legality and determinism on every shipped variant, and
play that moves with the payouts.  What each rule is worth to it is its hook's pricer's
answer, tested with the hooks (``tests/test_pricing_*.py``)."""

from __future__ import annotations

import random
import types
from typing import Any

import pytest

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.agents.analysis import TableView
from zhuoji.agents.base import make_agent, play_round
from zhuoji.agents.expert import ExpertAgent
from zhuoji.agents.expert_value import (
    READY_FIT,
    READY_FIT_OPEN,
    Evaluator,
    HandState,
    Valued,
    outlook,
    ready_chance,
    typical_rates,
)
from zhuoji.engine import Round
from zhuoji.match import Match
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.variant_io import builtin_names, load_variant

VARIANTS = ["guiyang", "guiyang-weile", "guiyang-shoushang", "liupanshui", "luan", "jinyou"]
#: every shipped variant, from the catalog
SHIPPED = builtin_names()


def _after_first_yaoji(overrides: list[str]) -> Evaluator:
    """Seat 1's evaluator after the dealer's first discard, a 幺鸡 nobody claims."""
    from conformance.walls import stack

    rs = load_variant("guiyang", overrides)
    hands = ["1s456789m5678p68s9s", "123m1479p234667s", "456m23p23557889s", "789m2368p115799s"]
    r = Round(rs, wall=stack(rs, hands), dealer=0)
    r.apply(Action.parse("0 discard 1s"))
    while r.phase.value == "claim":
        for seat in r.to_act():
            r.apply(make(seat, ActionKind.PASS))
    return Evaluator(TableView(Observation(r, 1)))


# ---------------------------------------------------------------------------------------
# the value model
# ---------------------------------------------------------------------------------------


def test_every_pattern_fact_has_a_neutral_value() -> None:
    """The bot values shapes through the variant's own pattern rows with every other fact
    neutral; a fact added to zhuoji.rules.facts needs a neutral value there too
    (``tile_copies`` is read from ``held`` by the row itself)."""
    from zhuoji.agents.expert_value import _NEUTRAL
    from zhuoji.rules.facts import Requires

    missing = set(Requires.model_fields) - set(_NEUTRAL) - {"tile_copies"}
    assert not missing, f"no neutral value for {sorted(missing)} in expert_value._NEUTRAL"


def test_outlook_probabilities_add_up() -> None:
    rates = typical_rates("standard", 80)
    for d in (1, 2, 3, 5):
        for cycles in (0, 1, 7, 15):
            probs = outlook(cycles, d, 0.3, 4, (3, 0, 0, 100, 160, READY_FIT), 0.07, 0.05, rates)
            assert sum(probs) == pytest.approx(1.0)
            assert min(probs) >= 0.0


def test_a_closer_hand_is_worth_more() -> None:
    """Same table, two hands one step apart: the nearer one wins more often."""
    rates = typical_rates("standard", 80)
    far = outlook(10, 4, 0.3, 4, (3, 0, 0, 100, 160, READY_FIT), 0.07, 0.0, rates)
    near = outlook(10, 2, 0.3, 4, (3, 0, 0, 100, 160, READY_FIT), 0.07, 0.0, rates)
    assert near[0] > far[0]


def test_readiness_follows_who_may_win_on_a_discard() -> None:
    """Where any ready hand may win on a discard (jinyou) a seat still playing is seldom
    ready; where a 通行证 limits those wins (guiyang) ready hands live on."""
    assert ready_chance(8, 1, READY_FIT_OPEN) < ready_chance(8, 1, READY_FIT) / 2
    assert ready_chance(8, 3, READY_FIT_OPEN) > ready_chance(8, 0, READY_FIT_OPEN) + 0.4
    for variant, fit in (("jinyou", READY_FIT_OPEN), ("guiyang", READY_FIT), ("luan", READY_FIT)):
        r = Round(load_variant(variant), seed=3)
        assert Evaluator(TableView(Observation(r, r.current))).ready_fit == fit


def test_a_set_back_discard_is_valued_only_as_a_defence(monkeypatch: pytest.MonkeyPatch) -> None:
    """A discard raising the shanten is valued when it is safer than every discard keeping
    the hand, not when it is no safer (a 冲锋 tile, the wild, a 清一色 or 大对子 target apart)."""
    r = Round(load_variant("jinyou"), seed=4)
    view = TableView(Observation(r, r.current))
    hand = view.hand
    opts = view.analyzer.options(hand, [k for k in range(T.NUM_KINDS) if hand[k]], view.live)
    best = min(o.shanten for o in opts)
    worse = [o.tile for o in opts if o.shanten > best]
    assert worse
    bot = ExpertAgent(0)
    ev = Evaluator(view)
    monkeypatch.setattr(ExpertAgent, "deal_in", lambda self, view, ev, tile: (0.1, 0.1))
    flat = bot.score_discards(view, ev, hand, view.own_melds(), False, opts)
    skipped = [t for t in worse if t not in flat]
    assert skipped  # no safer than the rest: not valued
    safe = skipped[0]

    def danger(self: ExpertAgent, view: TableView, ev: Evaluator, tile: int) -> tuple[float, float]:
        return (0.0, 0.0) if tile == safe else (0.1, 0.1)

    monkeypatch.setattr(ExpertAgent, "deal_in", danger)
    view.cache.clear()
    guarded = bot.score_discards(view, Evaluator(view), hand, view.own_melds(), False, opts)
    assert safe in guarded


# ---------------------------------------------------------------------------------------
# legality, wins, determinism
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_expert_answers_legally_in_random_states(variant: str) -> None:
    """Random play visits claims, kongs, declarations and robbing; the expert answers every
    decision legally and takes every win."""
    ruleset = load_variant(variant)
    bot = ExpertAgent(3)
    asked = 0
    for seed in range(2):
        r = Round(ruleset, seed=2000 + seed)
        rng = random.Random(seed)
        while not r.is_terminal():
            for seat in r.to_act():
                obs = Observation(r, seat)
                a = bot.act(obs)
                asked += 1
                assert a in obs.legal, f"expert chose {a} not in {obs.legal}"
                if any(x.kind is ActionKind.HU for x in obs.legal):
                    assert a.kind is ActionKind.HU
                r.apply(rng.choice(obs.legal))
                if r.is_terminal():
                    break
    assert asked > 60


@pytest.mark.parametrize("variant", VARIANTS)
def test_experts_play_rounds_to_the_end(variant: str) -> None:
    ruleset = load_variant(variant)
    rounds = 1 if variant == "luan" else 2
    agents = [make_agent(k, i) for i, k in enumerate(["expert", "cautious", "expert", "greedy"])]
    result = Match(ruleset, seed=7, rounds=rounds).play(agents)
    assert len(result.rounds) == rounds
    assert sum(result.totals) == 0


@pytest.mark.parametrize("variant", SHIPPED)
def test_experts_play_every_shipped_variant(variant: str) -> None:
    """A table of experts plays two rounds of every shipped variant (换三张, 定缺, three and
    two players included), every decision legal, the ledger zero-sum."""
    rs = load_variant(variant)
    result = Match(rs, seed=5, rounds=2).play(_checked_experts(rs.players, 5))
    assert len(result.rounds) == 2
    assert sum(result.totals) == 0


def test_expert_is_deterministic_and_registered() -> None:
    ruleset = load_variant("guiyang")
    totals = []
    for _ in range(2):
        r = Round(ruleset, seed=31)
        play_round(r, [make_agent("expert", i) for i in range(4)])
        totals.append((r.returns(), r.actions))
    assert totals[0] == totals[1]
    assert getattr(make_agent("expert"), "payout_aware", False)


# ---------------------------------------------------------------------------------------
# play that follows the payouts
# ---------------------------------------------------------------------------------------


def _dealer_obs(overrides: list[str], seed: int) -> tuple[Round, Observation]:
    r = Round(load_variant("guiyang", overrides), seed=seed)
    return r, Observation(r, r.current)


def test_chongfeng_multiplier_moves_the_first_yaoji() -> None:
    """On first turns holding a lone 幺鸡, the value of discarding it first grows with the
    冲锋鸡 multiplier (it pays its discarder when ready, seed 000 ①), so the expert lets it
    go at least as often at ×6 as at ×2, and on some hands only at ×6."""
    moved = 0
    for seed in range(60):
        _, o2 = _dealer_obs([], seed)
        hand = o2.hand
        if hand[T.YAOJI] != 1:
            continue
        _, o6 = _dealer_obs(["settle.chickens.chongfeng.multiplier=6"], seed)
        a2 = ExpertAgent(0).act(o2)
        a6 = ExpertAgent(0).act(o6)
        if a2.tile == T.YAOJI:
            assert a6.tile == T.YAOJI, f"seed {seed}: discarded 1s at ×2 but kept it at ×6"
        elif a6.tile == T.YAOJI:
            moved += 1
    assert moved >= 3


def test_qingyise_value_moves_the_target() -> None:
    """A hand leaning to one suit: its one-suit target is worth more when 清一色 pays 20."""
    values = []
    for fan in (10, 40):
        rs = load_variant("guiyang", [f"patterns.rows.qingyise.fan={fan}"])
        r = Round(rs, seed=4)
        obs = Observation(r, r.current)
        ev = Evaluator(TableView(obs))
        hand = T.counts("1123455678m9m3p")
        state = HandState(hand, (), shanten=1, ukeire=10)
        values.append(ev.value(state))
    assert values[1].value > values[0].value
    assert values[1].target == "suit"


def test_kong_is_declared_when_it_pays() -> None:
    """The greedy bot's 闷豆 situation: four of a kind in the dealt hand is declared."""
    from test_agents import stacked_wall

    ruleset = load_variant("guiyang")
    hands = ["1111m456p789p23s7p", "55m29m19s159p2468s", "3579m2468p35789s", "2468m13579p1357s"]
    r = Round(ruleset, wall=stacked_wall(hands, "9p", ""), dealer=0)
    a = ExpertAgent(0).act(Observation(r, 0))
    assert a == make(0, ActionKind.GANG_CONCEALED, T.parse_one("1m"))


def _dingque_round() -> Round:
    """A 定缺 table (guiyang with ``dingque``); seat 1 holds 123m, 1479p and 234667s."""
    from conformance.walls import stack

    rs = load_variant("guiyang", {"dingque": {}})
    hands = ["456789m5678p568s9s", "123m1479p234667s", "456m23p23557889s", "789m2368p115799s"]
    return Round(rs, wall=stack(rs, hands), dealer=0)


def test_que_values_what_each_choice_leaves() -> None:
    """定缺 by value: giving up 万 (three tiles, the fewest) would break the set 123m and keep
    the scattered 1479p; the expert gives up 筒, where the shared heuristic gives up 万."""
    from zhuoji.agents.base import choose_start

    r = _dingque_round()
    obs = Observation(r, 1)
    assert obs.phase == "dingque"
    assert str(choose_start(obs)) == "1 que m"
    assert str(ExpertAgent(1).act(obs)) == "1 que p"


def test_exchange_passes_the_suit_it_would_give_up() -> None:
    """换三张 (``exchange``, CITIES.md 捉鸡 with 定缺): seat 1 passes three 筒 — the suit its 定缺
    gives up by value — where the shared heuristic passes the fewest-tile suit, 万 (breaking
    its set 123m); a 幺鸡 is never passed while the suit has other tiles."""
    from conformance.walls import stack

    from zhuoji.agents.base import choose_start

    rs = load_variant("guiyang", {"dingque": {}, "exchange": {"direction": "next"}})
    hands = ["456789m5678p568s9s", "123m1479p234667s", "456m23p23557889s", "789m2368p115799s"]
    r = Round(rs, wall=stack(rs, hands), dealer=0)
    assert Observation(r, 1).phase == "exchange"
    assert T.suit_of(choose_start(Observation(r, 1)).tile) == 0
    bot = ExpertAgent(1)
    for _ in range(3):
        obs = Observation(r, 1)
        a = bot.act(obs)
        assert a in obs.legal and a.kind is ActionKind.EXCHANGE
        r.apply(a)
    assert sorted(Observation(r, 1).exchange_given) == sorted(T.parse("147p"))


def test_expert_throws_its_void_suit_first() -> None:
    r = _dingque_round()
    for seat, suit in enumerate("msps"):
        r.apply(Action.parse(f"{seat} que {suit}"))
    obs = Observation(r, 0)
    assert obs.phase == "turn"
    a = ExpertAgent(0).act(obs)
    assert a.kind is ActionKind.DISCARD and T.suit_of(a.tile) == 0


def test_experts_play_whole_dingque_rounds() -> None:
    """三丁拐 with 换三张 and 定缺 (tests/variants/dingque-3p.yaml): every decision legal, no
    winner holds its void suit."""
    from pathlib import Path

    rs = load_variant(Path(__file__).parent / "variants" / "dingque-3p.yaml")
    for seed in range(2):
        r = Round(rs, seed=seed)
        play_round(r, _checked_experts(3, seed))
        assert r.end is not None
        for w in r.end.wins:
            assert not r.end.seats[w.seat].void_tiles()


def _checked_experts(n: int, seed: int) -> list[ExpertAgent]:
    class Checked(ExpertAgent):
        def act(self, obs: Observation) -> Action:
            a = super().act(obs)
            assert a in obs.legal
            return a

    return [Checked(seed * n + s) for s in range(n)]


def test_thirteen_orphans_is_a_target_where_allowed() -> None:
    """jinyou allows 十三幺 at 9 fan (its row): a hand heading there keeps that target, and a
    ready 十三幺 is worth far more than a plain ready hand."""
    r = Round(load_variant("jinyou"), seed=2)
    ev = Evaluator(TableView(Observation(r, r.current)))
    near = HandState(T.counts("19m19s1p123456z55m"), (), shanten=2, ukeire=10)
    assert any(dict(t.facts).get("form") == "shisanyao" for t in ev.targets(near))
    orphans = T.counts("19m19s19p1234567z")
    ready = ev.value(HandState(orphans, (), shanten=0, waits=tuple(T.parse("19m19s19p1234567z"))))
    plain = T.counts("123m456m789s23p55p")
    waits = tuple(T.parse("14p"))
    assert ready.value > 2 * ev.value(HandState(plain, (), shanten=0, waits=waits)).value


# ---------------------------------------------------------------------------------------
# the variant's 热炮 section, and a claim's 责任
# ---------------------------------------------------------------------------------------


def _repao_view(variant: str, melds: tuple[Meld, ...]) -> Any:
    return types.SimpleNamespace(ruleset=load_variant(variant), own_melds=lambda: melds)


def test_repao_follows_the_variant_section() -> None:
    """热炮 as the variant's ``repao`` section says: in guiyang any deal-in once the
    discarder owns a dou (seed 000 15) "所有成豆后打出的牌点炮都被称作是点热炮"); in 独山 only
    the first discard after his kong (DS §8.3 "玩家杠牌之后打出的第一张牌"); in 六盘水 a late
    kong makes none (seed 004 (6)(7) "算普通补张")."""
    kong = Meld(MeldKind.GANG_CONCEALED, T.parse_one("5m"))
    bot = ExpertAgent(0)
    assert bot.deals_repao(_repao_view("guiyang", (kong,)))
    assert not bot.deals_repao(_repao_view("guiyang", ()))
    assert not bot.deals_repao(_repao_view("dushan", (kong,)))
    bot.note_played(make(0, ActionKind.GANG_CONCEALED, T.parse_one("5m")))
    assert bot.deals_repao(_repao_view("dushan", (kong,)))
    late = Meld(MeldKind.GANG_CONCEALED, T.parse_one("5m"), late=True)
    assert not bot.deals_repao(_repao_view("liupanshui", (late,)))
    assert bot.deals_repao(_repao_view("guiyang-weile", (late,)))


def test_a_claim_earns_the_zeren_its_pricer_prices() -> None:
    """责任鸡 from the claimer's side, at the chances of the hand before the claim: claiming
    the round's first 幺鸡 earns the extra when this seat collects; with ``claimer_unready:
    reversed_to_any`` (DS §11.2) an unready claimer pays it back to the discarder."""
    ev = _after_first_yaoji([])
    view = ev.view
    unready = Valued(0.0, (0.0, 0.0, 0.0, 1.0, 0.0, 0.0), False, 0.0)
    ready = Valued(0.0, (0.0, 0.0, 1.0, 0.0, 0.0, 0.0), True, 0.0)
    bot = ExpertAgent(1)
    assert bot._zeren_claim(view, ev, ready) == 1.0
    assert bot._zeren_claim(view, ev, unready) == 0.0
    rev = _after_first_yaoji(["settle.chickens.zeren.claimer_unready=reversed_to_any"])
    assert bot._zeren_claim(rev.view, rev, unready) == -1.0
    assert bot._zeren_claim(rev.view, rev, ready) == 1.0
