"""Bots: the protocol, legality over many random states of every shipped variant, wins
always taken, the cautious bot's defence, and the analysis primitives they rest on."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.agents.analysis import (
    DiscardOption,
    HandAnalyzer,
    TableView,
    analyzer,
    may_win_on_discard,
    wait_values,
)
from zhuoji.agents.base import Agent, RandomAgent, agent_names, make_agent, play_round
from zhuoji.agents.cautious import CautiousAgent
from zhuoji.agents.greedy import GreedyAgent
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.hand import HandRules
from zhuoji.match import Match
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.rules.screen import pattern_fan
from zhuoji.variant_io import load_variant

VARIANTS = ["guiyang", "guiyang-weile", "guiyang-shoushang", "liupanshui", "luan", "jinyou"]
BOTS = ["greedy", "cautious"]


def test_registry_and_protocol() -> None:
    assert {"random", "greedy", "cautious"} <= set(agent_names())
    for name in agent_names():
        a = make_agent(name, 1)
        assert isinstance(a, Agent)
        assert a.name == name
    with pytest.raises(ZhuojiError, match="unknown agent 'nobody'"):
        make_agent("nobody")


# ---------------------------------------------------------------------------------------
# legality across random states
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_return_legal_actions_in_random_states(variant: str) -> None:
    """Random play visits every kind of state (claims, kongs, declarations, robbing); at
    every decision of every seat both bots are asked too and must answer legally, and
    must take a win whenever one is legal."""
    ruleset = load_variant(variant)
    rounds = 2 if variant == "luan" else 4
    bots = [make_agent(b, 7) for b in BOTS]
    asked = wins = 0
    for seed in range(rounds):
        r = Round(ruleset, seed=1000 + seed)
        rng = random.Random(seed)
        while not r.is_terminal():
            for seat in r.to_act():
                obs = Observation(r, seat)
                legal = obs.legal
                for bot in bots:
                    a = bot.act(obs)
                    asked += 1
                    assert a in legal, f"{bot.name} chose {a} not in {legal}"
                    if any(x.kind is ActionKind.HU for x in legal):
                        wins += 1
                        assert a.kind is ActionKind.HU, f"{bot.name} passed a win: {a}"
                r.apply(rng.choice(legal))
                if r.is_terminal():
                    break
    assert asked > 100 * rounds


@pytest.mark.parametrize("variant", VARIANTS)
def test_bot_matches_play_to_the_end(variant: str) -> None:
    """Bots against each other (their own choices drive the round): whole rounds, a
    zero-sum settlement each, no illegal action (the engine would raise)."""
    ruleset = load_variant(variant)
    rounds = 2 if variant == "luan" else 4
    agents = [make_agent(k, i) for i, k in enumerate(["greedy", "cautious", "greedy", "random"])]
    result = Match(ruleset, seed=3, rounds=rounds).play(_checked(agents))
    assert len(result.rounds) == rounds
    for r in result.rounds:
        assert r.ledger is not None
        assert sum(r.ledger.totals()) == 0


def test_three_player_table() -> None:
    ruleset = load_variant("guiyang-weile", ["tiles.players=3"])
    agents = _checked([make_agent(k, i) for i, k in enumerate(["greedy", "cautious", "greedy"])])
    result = Match(ruleset, seed=5, rounds=3).play(agents)
    assert sum(result.totals) == 0


class _Checked:
    """Wraps an agent and asserts every answer is legal (before the engine sees it)."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.name = inner.name

    def act(self, obs: Observation) -> Action:
        a = self.inner.act(obs)
        assert a in obs.legal
        return a


def _checked(agents: Sequence[Agent]) -> list[Agent]:
    return [_Checked(a) for a in agents]


def test_random_agent_is_seeded() -> None:
    ruleset = load_variant("guiyang")
    totals = []
    for _ in range(2):
        r = Round(ruleset, seed=11)
        play_round(r, [RandomAgent(i) for i in range(4)])
        totals.append(r.returns())
    assert totals[0] == totals[1]


# ---------------------------------------------------------------------------------------
# constructed situations (stacked walls: the deal is seat order from the dealer, 13 tiles
# each, then the dealer's 14th, then draws from the head)
# ---------------------------------------------------------------------------------------


def stacked_wall(
    hands: Sequence[str], dealer_14th: str, draws: str, tile_set: T.TileSet = T.TileSet.SUITS
) -> list[int]:
    """A full wall: ``hands`` (13 tiles each, seats in deal order from the dealer), the
    dealer's 14th tile, the next draws, then every remaining tile in order."""
    head: list[int] = []
    for h in hands:
        tiles = T.parse(h)
        assert len(tiles) == 13, h
        head += tiles
    head += T.parse(dealer_14th) + T.parse(draws)
    rest = T.counts(head)
    tail = [k for k in T.kinds_in(tile_set) for _ in range(T.COPIES - rest[k])]
    assert min(T.COPIES - x for x in rest) >= 0
    return head + tail


def _discard(seat: int, tile: str, declare: bool = False) -> Action:
    return make(seat, ActionKind.DISCARD, T.parse_one(tile), declare)


def _pass_claims(r: Round) -> None:
    """Everyone answering a discard passes."""
    while r.phase.value == "claim":
        for s in r.to_act():
            r.apply(make(s, ActionKind.PASS))


def declared_opponent_round() -> Round:
    """Seat 1 declares 报听 waiting on 9s alone (123m456m789m111p9s, 单吊); seat 2 then
    discards 5m, which seat 1 lets go; seat 0 draws 5m and holds 9s: discarding either
    leaves it ready, on 5m (two live) or on 9s (two live)."""
    ruleset = load_variant("guiyang")
    hands = [
        "123m456p789p234s9s",  # seat 0, the dealer (13), 14th below
        "123m456m789m111p9s",  # seat 1
        "5m79m1357s2356p88p",  # seat 2
        "468m2468s13p47p5s6s",  # seat 3
    ]
    wall = stacked_wall(hands, "9s", "9p" + "3s" + "2m" + "5m")
    r = Round(ruleset, wall=wall, dealer=0)
    r.apply(_discard(0, "9s"))
    _pass_claims(r)
    assert r.to_act() == [1] and r.seats[1].drawn == T.parse_one("9p")
    assert _discard(1, "9p", True) in r.legal_actions(1)
    r.apply(_discard(1, "9p", True))
    _pass_claims(r)
    r.apply(_discard(2, "5m"))
    _pass_claims(r)
    r.apply(_discard(3, "2m"))
    _pass_claims(r)
    assert r.to_act() == [0] and r.seats[0].drawn == T.parse_one("5m")
    return r


def test_cautious_avoids_the_declared_players_wait() -> None:
    r = declared_opponent_round()
    assert r.seats[1].waits == frozenset({T.parse_one("9s")})
    obs = Observation(r, 0)
    greedy = GreedyAgent(0).act(obs)
    cautious = CautiousAgent(0).act(obs)
    assert greedy == _discard(0, "9s"), "greedy keeps 5m: it has neighbours"
    assert cautious == _discard(0, "5m"), "5m went by the declared seat: 现物, safe"
    # the engine agrees that 9s would have dealt in
    r.apply(greedy)
    assert 1 in r.to_act() and make(1, ActionKind.HU, T.parse_one("9s")) in r.legal_actions(1)


def test_greedy_wins_on_a_discard_when_it_may() -> None:
    r = declared_opponent_round()
    r.apply(_discard(0, "9s"))
    obs = Observation(r, 1)
    for bot in (GreedyAgent(1), CautiousAgent(1)):
        assert bot.act(obs) == make(1, ActionKind.HU, T.parse_one("9s"))
    r.apply(make(1, ActionKind.HU, T.parse_one("9s")))
    assert r.end is not None and [w.seat for w in r.end.wins] == [1]


def test_greedy_takes_a_heavenly_win() -> None:
    """The dealer's fourteen tiles are complete (天和): the win beats any discard."""
    ruleset = load_variant("guiyang")
    hands = ["123m456m789m123p5p", "111m222p333s444s5s", "666s777s888s999s1s", "222m333m444m666p7p"]
    wall = stacked_wall(hands, "5p", "")
    r = Round(ruleset, wall=wall, dealer=0)
    obs = Observation(r, 0)
    assert len(obs.legal) > 1
    for bot in (GreedyAgent(0), CautiousAgent(0)):
        assert bot.act(obs).kind is ActionKind.HU


def test_greedy_declares_a_concealed_kong() -> None:
    """Four of a kind in a dealt hand is declared at once (闷豆): the hand is no further
    from ready after it, and the dou is a 通行证."""
    ruleset = load_variant("guiyang")
    hands = [
        "1111m456p789p23s7p",  # seat 0 (dealer) holds 1111m
        "55m29m19s159p2468s",  # seat 1
        "3579m2468p35789s",  # seat 2
        "2468m13579p1357s",  # seat 3
    ]
    wall = stacked_wall(hands, "9p", "")
    r = Round(ruleset, wall=wall, dealer=0)
    greedy = GreedyAgent(0)
    a = greedy.act(Observation(r, 0))
    assert a == make(0, ActionKind.GANG_CONCEALED, T.parse_one("1m"))


# ---------------------------------------------------------------------------------------
# analysis primitives against zhuoji.hand
# ---------------------------------------------------------------------------------------


def _random_hand(rng: random.Random, kinds: Sequence[int], n: int, suit_bias: bool) -> list[int]:
    c = [0] * T.NUM_KINDS
    pool = [k for k in kinds for _ in range(T.COPIES)]
    if suit_bias:
        s = rng.choice([0, 9, 18])
        pool = [k for k in range(s, s + 9) for _ in range(3)] + pool
    rng.shuffle(pool)
    for t in pool:
        if sum(c) == n:
            break
        if c[t] < T.COPIES:
            c[t] += 1
    return c


@pytest.mark.parametrize(
    "variant, wild",
    [("guiyang", None), ("jinyou", None), ("luan", None), ("luan", 22), ("luan", 31)],
)
def test_analyzer_distance_matches_hand_rules(variant: str, wild: int | None) -> None:
    """Exact on hands without a four-of-a-kind; with one, at most one too low (the raw
    tables may count a fifth copy, see zhuoji.agents.analysis)."""
    ruleset = load_variant(variant)
    rules = ruleset.hand_rules(wild)
    an = analyzer(rules)
    kinds = T.kinds_in(ruleset.variant.tiles.set)
    rng = random.Random(17)
    for _ in range(600):
        c = _random_hand(rng, kinds, rng.choice([14, 13, 11, 8, 5, 2]), rng.random() < 0.5)
        want = rules.distance(c)
        got = an.distance(c)
        if 4 in c:
            assert want - 1 <= got <= want, T.format_counts(c)
        else:
            assert got == want, T.format_counts(c)


def _after_discard(
    rules: HandRules, c: list[int], tile: int, live: list[int]
) -> tuple[int, tuple[int, ...]]:
    """Brute force: the shanten after discarding ``tile`` and the live kinds that lower it."""
    h = list(c)
    h[tile] -= 1
    s = rules.shanten(h)
    imp = []
    for t in range(T.NUM_KINDS):
        if live[t] and h[t] < T.COPIES:
            h[t] += 1
            if rules.shanten(h) < s:
                imp.append(t)
            h[t] -= 1
    return s, tuple(imp)


@pytest.mark.parametrize("variant", ["guiyang", "jinyou", "luan"])
def test_discard_options_match_brute_force(variant: str) -> None:
    """Shanten after each discard and the live improving tiles, against HandRules."""
    ruleset = load_variant(variant)
    rules = ruleset.hand_rules()
    an = analyzer(rules)
    kinds = T.kinds_in(ruleset.variant.tiles.set)
    rng = random.Random(5)
    checked = 0
    for _ in range(120 if variant != "luan" else 40):
        c = _random_hand(rng, kinds, rng.choice([14, 11, 8]), rng.random() < 0.5)
        if 4 in c:
            continue
        live = [0] * T.NUM_KINDS
        for k in kinds:
            live[k] = max(0, T.COPIES - c[k] - rng.randint(0, 2))
        for o in an.options(c, [k for k in range(T.NUM_KINDS) if c[k]], live, only_best=False):
            s, imp = _after_discard(rules, c, o.tile, live)
            assert (o.shanten, o.improving, o.ukeire) == (s, imp, sum(live[t] for t in imp))
            checked += 1
    assert checked > 100


class _PerDiscardAnalyzer(HandAnalyzer):
    """An analyzer answering :meth:`ukeire` its own way (here: as the base does), which
    :meth:`HandAnalyzer.options` then asks discard by discard (the path before the
    wild-tile batch)."""

    def ukeire(self, c: Sequence[int], live: Sequence[int]) -> tuple[int, int, tuple[int, ...]]:
        return super().ukeire(c, live)


@pytest.mark.parametrize("wild", [4, 22, 27, 31])
def test_wild_options_in_one_call_match_each_discard(wild: int) -> None:
    """With wild tiles (六安: 红中配, the stand-in 红中 kind 31 unless it is the wild itself),
    :meth:`HandAnalyzer.options` answers every discard in one kernel call; it gives what
    asking :meth:`HandAnalyzer.ukeire` of each best discard gives, with and without
    ``only_best``."""
    ruleset = load_variant("luan")
    rules = ruleset.hand_rules(wild)
    an = HandAnalyzer(rules)
    each = _PerDiscardAnalyzer(rules)
    assert an.batch_wild and not each.batch_wild
    assert not HandAnalyzer(ruleset.hand_rules(None)).batch_wild
    kinds = T.kinds_in(ruleset.variant.tiles.set)
    rng = random.Random(wild)
    counted = 0
    for i in range(150):
        c = _random_hand(rng, kinds, rng.choice([14, 11, 8, 5]), rng.random() < 0.5)
        for _ in range(rng.randrange(3)):  # the wild and the stand-in held often
            k = rng.choice([wild, 31])
            held = [t for t in kinds if c[t] and t != k]
            if held and c[k] < 4:
                c[rng.choice(held)] -= 1
                c[k] += 1
        live = [0] * T.NUM_KINDS
        for k in kinds:
            live[k] = max(0, T.COPIES - c[k] - rng.randint(0, 2))
        held = [k for k in range(T.NUM_KINDS) if c[k]]
        only_best = i % 2 == 0
        got = an.options(c, held, live, only_best=only_best)
        assert got == each.options(c, held, live, only_best=only_best), (c, wild)
        counted += sum(o.ukeire > 0 for o in got)
    assert counted > 300


def test_table_view_counts_only_what_the_seat_sees() -> None:
    r = declared_opponent_round()
    view = TableView(Observation(r, 0))
    nine_s, five_m = T.parse_one("9s"), T.parse_one("5m")
    # 9s: one in seat 0's hand, one discarded by seat 0; seat 1's copy is unseen
    assert view.visible[nine_s] == 2 and view.live[nine_s] == 2
    assert view.visible[five_m] == 2  # own 5m and seat 2's discard
    assert all(x == 0 for x in view.live[27:])  # no honors in a 108-tile set
    assert five_m in view.passed[1] and nine_s not in view.passed[1]
    # 通行证: seat 0 (no dou, not declared) cannot win a plain hand on a discard
    hand = list(view.hand)
    hand[nine_s] -= 1
    assert not may_win_on_discard(view, hand, five_m)


def _direct_wait_values(
    view: TableView, hand: list[int], waits: Sequence[int]
) -> list[tuple[int, bool]]:
    """What :func:`wait_values` answers, worked out afresh (no cache)."""
    out = []
    for t in waits:
        full = list(hand)
        full[t] += 1
        if view.fan_known:
            declared = view.declared[view.seat]
            dealer = view.seat == view.dealer
            fan = pattern_fan(
                view.ruleset,
                view.rules,
                full,
                view.own_melds(),
                t,
                dealer=dealer,
                declared=declared,
            )
            out.append((fan, may_win_on_discard(view, hand, t, fan=fan)))
        else:
            out.append((1, may_win_on_discard(view, hand, t)))
    return out


def test_wait_values_follow_the_seats_facts() -> None:
    """One ready hand valued for views that differ only in the seat's own facts (报听, a dou,
    the dealer): each gets its own answer, whatever was asked before (the cache's key)."""
    r = declared_opponent_round()
    hand = list(r.seats[0].hand)
    hand[T.parse_one("9s")] -= 1  # ready on 5m
    waits = (T.parse_one("5m"),)
    kong = (Meld(MeldKind.GANG_CONCEALED, T.parse_one("1m")),)
    answers = []
    for declared, melds, dealer in [
        (False, (), 0),
        (True, (), 0),
        (False, kong, 0),
        (False, (), 2),
        (False, (), 0),
    ]:
        view = TableView(Observation(r, 0))
        view.declared[0] = declared
        view.melds[0] = melds
        view.dealer = dealer
        got = wait_values(view, hand, waits)
        assert list(got) == _direct_wait_values(view, hand, waits)
        answers.append(got)
    assert not answers[0][0][1], "no dou, not declared, 平胡: self-draw only (通行证)"
    assert answers[1][0][1] and answers[2][0][1], "报听 and a dou are passes"
    assert answers[4] == answers[0]


class _CheckingGreedy(GreedyAgent):
    """A greedy bot that checks every ready-hand valuation against a fresh one."""

    checked = 0

    def ready_value(self, view: TableView, o: DiscardOption) -> float:
        hand = list(view.hand)
        hand[o.tile] -= 1
        assert list(wait_values(view, hand, o.improving)) == _direct_wait_values(
            view, hand, o.improving
        )
        _CheckingGreedy.checked += 1
        return super().ready_value(view, o)


@pytest.mark.parametrize("variant", ["guiyang", "guiyang-dingque", "dushan", "anshun", "luan"])
def test_wait_values_match_a_fresh_valuation_in_play(variant: str) -> None:
    """Every ready hand greedy bots value in whole rounds (kongs, 报听, 定缺, wild tiles)."""
    ruleset = load_variant(variant)
    _CheckingGreedy.checked = 0
    for seed in range(6):
        agents = [_CheckingGreedy(seat) for seat in range(ruleset.players)]
        play_round(Round(ruleset, seed=seed), agents)
    assert _CheckingGreedy.checked > 20


def test_discard_options_with_thirteen_orphans_match_brute_force() -> None:
    """Hands rich in 1s, 9s and honors, where 十三幺 (jinyou) is the nearest form."""
    ruleset = load_variant("jinyou")
    rules = ruleset.hand_rules()
    an = analyzer(rules)
    rng = random.Random(9)
    orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    checked = 0
    for _ in range(150):
        c = [0] * T.NUM_KINDS
        for k in rng.sample(orphans, rng.randint(9, 13)):
            c[k] += 1
        while sum(c) < 14:
            k = rng.choice(orphans if rng.random() < 0.6 else range(T.NUM_KINDS))
            if c[k] < 3:
                c[k] += 1
        live = [max(0, T.COPIES - c[k] - rng.randint(0, 2)) for k in range(T.NUM_KINDS)]
        for o in an.options(c, [k for k in range(T.NUM_KINDS) if c[k]], live, only_best=False):
            s, imp = _after_discard(rules, c, o.tile, live)
            assert (o.shanten, o.improving) == (s, imp), T.format_counts(c)
            checked += 1
    assert checked > 1000


def test_options_take_each_discard_kind_once_in_ascending_order() -> None:
    """``HandAnalyzer.options`` reads a turn's discards as distinct kinds, ascending: kept as
    they are when the engine's order already is, sorted otherwise."""
    from zhuoji.agents.analysis import _ascending_kinds

    assert _ascending_kinds([1, 4, 9]) == [1, 4, 9]
    assert _ascending_kinds(iter([9, 1, 4])) == [1, 4, 9]
    assert _ascending_kinds([1, 1, 4]) == [1, 4]
    assert _ascending_kinds([4, 1, 4]) == [1, 4]
    assert _ascending_kinds([]) == []
