"""The ``search`` bot (``zhuoji/agents/search.py``, ``search_world.py``; issue 28 item 5):
"samples hidden hands and walls consistent with what its seat has seen", "rolls each
candidate action out with the expert or greedy policy, and chooses by expected money under
the variant's settlement", "its budget is in decisions or milliseconds and is
configurable", "it is deterministic for a seed", and it "scales across workers and Ray like
the other bots" (picklable, made from its name)."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import pytest

from zhuoji import load_variant
from zhuoji.actions import Action, ActionKind
from zhuoji.agents.base import make_agent, play_round
from zhuoji.agents.search import SearchAgent, SearchParams
from zhuoji.agents.search_world import (
    ROUND_FIELDS,
    clone_round,
    determinized,
    sample_hidden,
)
from zhuoji.cli import main
from zhuoji.engine import Phase, Round
from zhuoji.errors import ZhuojiError
from zhuoji.observation import Observation

SMALL = "search:budget=6/k=2"


def _play_until(r: Round, agents: Sequence[object], seat: int, turns: int) -> None:
    """Play on with ``agents`` until ``seat``'s ``turns``-th own turn with a choice."""
    seen = 0
    while r.phase is not Phase.END:
        if r.phase is Phase.TURN:
            s = r.current
            if s == seat and len(r.legal_actions(s)) > 1:
                seen += 1
                if seen == turns:
                    return
            r.apply(agents[s].act(Observation(r, s)))  # type: ignore[attr-defined]
            continue
        for s in r.to_act():
            r.apply(agents[s].act(Observation(r, s)))  # type: ignore[attr-defined]
            if r.is_terminal():
                break
    raise AssertionError("the round ended first")


def _greedy(n: int) -> list[object]:
    return [make_agent("greedy", s) for s in range(n)]


def _hidden_twin(r: Round, seat: int, rng: random.Random) -> Round:
    """A copy of ``r`` differing only in what ``seat`` cannot see: a tile of another seat's
    hand swapped with a different undrawn wall tile, a few times."""
    twin = clone_round(r)
    wall = twin.wall
    free = [i for i in range(len(wall.tiles)) if not wall.taken[i] and i != wall.stop]
    others = [s for s in range(twin.players) if s != seat]
    swaps = 0
    while swaps < 4:
        st = twin.seats[rng.choice(others)]
        held = [k for k in range(34) if st.hand[k]]
        k = rng.choice(held)
        i = rng.choice(free)
        w = wall.tiles[i]
        if w == k:
            continue
        st.hand[k] -= 1
        st.hand[w] += 1
        wall.tiles[i] = k
        swaps += 1
    return twin


# ---------------------------------------------------------------------------------------
# the worlds
# ---------------------------------------------------------------------------------------


def test_round_fields_are_all_copied() -> None:
    """clone_round copies the attributes it lists: they must be all a round has."""
    r = Round(load_variant("guiyang"), seed=3)
    if not hasattr(r, "__dict__"):
        pytest.skip("compiled engine: no attribute dictionary to compare with")
    assert set(vars(r)) == set(ROUND_FIELDS)


@pytest.mark.parametrize("variant", ["guiyang", "liupanshui", "luan", "guiyang-dingque"])
def test_clone_plays_on_like_the_round(variant: str) -> None:
    """A clone of a round in play, played on by the same bots, ends exactly as the round
    does, and playing it leaves the round untouched."""
    rs = load_variant(variant)
    r = Round(rs, seed=11)
    _play_until(r, _greedy(r.players), 0, 4)
    before = (len(r.log), [list(st.hand) for st in r.seats], r.wall.taken[:], r.phase)
    c = clone_round(r)
    play_round(c, _greedy(r.players))
    assert (len(r.log), [list(st.hand) for st in r.seats], r.wall.taken[:], r.phase) == before
    play_round(r, _greedy(r.players))
    assert r.ledger is not None and c.ledger is not None
    assert c.ledger.totals() == r.ledger.totals()
    assert r.end is not None and c.end is not None
    assert [w.seat for w in r.end.wins] == [w.seat for w in c.end.wins]


@pytest.mark.parametrize("variant", ["guiyang", "liupanshui", "luan"])
def test_samples_use_no_hidden_information(variant: str) -> None:
    """Two rounds differing only in tiles seat 0 cannot see (other hands, the wall) give
    the same samples, the same worlds and the same decision for the same seed."""
    rs = load_variant(variant)
    for turns in (1, 5):
        r = Round(rs, seed=21)
        _play_until(r, _greedy(r.players), 0, turns)
        twin = _hidden_twin(r, 0, random.Random(turns))
        hidden = lambda x: ([x.seats[s].hand for s in range(1, x.players)], x.wall.tiles)  # noqa: E731
        assert hidden(r) != hidden(twin)  # the test can fail
        o1, o2 = Observation(r, 0), Observation(twin, 0)
        assert o1.to_dict() == o2.to_dict()
        s1 = sample_hidden(o1, r, random.Random(5))
        s2 = sample_hidden(o2, twin, random.Random(5))
        assert s1 == s2
        assert s1[0][1] and s1[1]
        w1 = determinized(o1, r, random.Random(5))
        w2 = determinized(o2, twin, random.Random(5))
        assert hidden(w1)[0] == hidden(w2)[0]
        undrawn = [i for i in range(len(w1.wall.tiles)) if not w1.wall.taken[i]]
        assert [w1.wall.tiles[i] for i in undrawn] == [w2.wall.tiles[i] for i in undrawn]
        a1 = SearchAgent(9, SearchParams(budget=6, k=3, clear=100.0)).act(o1)
        a2 = SearchAgent(9, SearchParams(budget=6, k=3, clear=100.0)).act(o2)
        assert a1 == a2


def _play_until_claim(r: Round, agents: Sequence[object], seat: int) -> None:
    """Play on until ``seat`` may claim a discard (pass and at least one claim, no win)."""
    while r.phase is not Phase.END:
        for s in r.to_act():
            legal = r.legal_actions(s)
            if (
                s == seat
                and r.phase is Phase.CLAIM
                and len(legal) > 1
                and all(a.kind.value != "hu" for a in legal)
            ):
                return
            r.apply(agents[s].act(Observation(r, s)))  # type: ignore[attr-defined]
            if r.is_terminal():
                break
    raise AssertionError("the round ended first")


def test_claim_windows_use_no_hidden_information() -> None:
    """In a claim window the sampled world asks the other seats again with their sampled
    hands; two rounds differing only in hidden tiles decide alike."""
    rs = load_variant("guiyang")
    for seed in range(1, 40):
        r = Round(rs, seed=seed)
        try:
            _play_until_claim(r, _greedy(4), 0)
        except AssertionError:
            continue
        twin = _hidden_twin(r, 0, random.Random(seed))
        o1, o2 = Observation(r, 0), Observation(twin, 0)
        w1 = determinized(o1, r, random.Random(3))
        w2 = determinized(o2, twin, random.Random(3))
        assert w1.pending == w2.pending and w1.responses == w2.responses == {}
        assert w1.pending[0] == r.pending[0]
        for s, acts in w1.pending.items():  # the others' options are their sampled hands'
            if s != 0:
                assert any(a.kind.value != "pass" for a in acts)
        bot = SearchAgent(4, SearchParams(budget=6, k=3))
        assert bot.act(o1) == SearchAgent(4, SearchParams(budget=6, k=3)).act(o2)
        assert bot.stats["searched"] == 1
        return
    raise AssertionError("no claim window found")


def test_samples_deal_exactly_the_unseen_tiles() -> None:
    """The sampled hands and wall hold, as a multiset, the tiles the real other hands and
    undrawn wall hold (every copy accounted for), in the real counts per seat."""
    r = Round(load_variant("guiyang"), seed=4)
    _play_until(r, _greedy(4), 0, 6)
    hands, wall = sample_hidden(Observation(r, 0), r, random.Random(1))
    real_hands = [sorted(k for k in range(34) for _ in range(st.hand[k])) for st in r.seats]
    real_wall = [r.wall.tiles[i] for i in range(len(r.wall.tiles)) if not r.wall.taken[i]]
    assert [len(h) for h in hands[1:]] == [len(h) for h in real_hands[1:]]
    assert hands[0] == []
    assert sorted([t for h in hands for t in h] + wall) == sorted(
        [t for h in real_hands[1:] for t in h] + real_wall
    )
    assert hands[1:] != real_hands[1:]  # a sample, not the real deal


# ---------------------------------------------------------------------------------------
# the agent
# ---------------------------------------------------------------------------------------


class _Checked:
    """Asserts that the wrapped bot answers with one of the legal actions."""

    def __init__(self, agent: object) -> None:
        self.agent = agent
        self.name = "checked"

    def act(self, obs: Observation) -> Action:
        a = self.agent.act(obs)  # type: ignore[attr-defined]
        assert a in obs.legal
        return a


def _round_with_search(variant: str, spec: str, seed: int) -> tuple[Round, SearchAgent]:
    rs = load_variant(variant)
    n = rs.players
    bot = make_agent(spec, seed)
    assert isinstance(bot, SearchAgent)
    agents = [_Checked(bot)] + [_Checked(make_agent("expert", seed + s)) for s in range(1, n)]
    return play_round(Round(rs, seed=seed), agents), bot


@pytest.mark.parametrize("variant", ["guiyang", "liupanshui", "luan", "jinyou", "guiyang-dingque"])
def test_plays_full_rounds_with_legal_actions(variant: str) -> None:
    """Full rounds in several variants (luan: 宝牌 wilds), legal actions only, and it does
    search."""
    searched = 0
    for seed in (1, 2):
        r, bot = _round_with_search(variant, SMALL, seed)
        assert r.phase is Phase.END and r.ledger is not None
        assert sum(r.ledger.totals()) == 0
        searched += bot.stats["searched"]
    assert searched > 0


def test_deterministic_for_a_seed() -> None:
    r1, b1 = _round_with_search("guiyang", SMALL, 3)
    r2, b2 = _round_with_search("guiyang", SMALL, 3)
    assert [e for e in r1.log if e["type"] == "action"] == [
        e for e in r2.log if e["type"] == "action"
    ]
    assert r1.ledger is not None and r2.ledger is not None
    assert r1.ledger.totals() == r2.ledger.totals()
    assert b1.stats == b2.stats and b1.stats["rollouts"] > 0


def test_budget_in_rollouts_is_respected() -> None:
    for budget, k in ((6, 2), (12, 3)):
        _, bot = _round_with_search("guiyang", f"search:budget={budget}/k={k}", 5)
        s = bot.stats
        assert s["searched"] > 0
        assert s["rollouts"] <= s["searched"] * budget
        assert s["rollouts"] >= s["searched"] * 2 * 2  # two samples of two candidates at least


def test_budget_in_milliseconds_is_respected() -> None:
    """With 1 ms a decision the search stops after its first two samples, far below the
    rollout budget."""
    _, bot = _round_with_search("guiyang", "search:budget=300/k=3/ms=1", 5)
    s = bot.stats
    assert s["searched"] > 0
    assert s["rollouts"] <= s["searched"] * 3 * 3


def test_it_can_depart_from_the_expert() -> None:
    """Over a few rounds the rollouts overrule the expert sometimes (not a wrapper)."""
    changed = 0
    for seed in range(1, 5):
        _, bot = _round_with_search("guiyang", "search:budget=12/k=3/z=0", seed)
        changed += bot.stats["changed"]
    assert changed > 0


def test_picklable_and_made_from_its_name() -> None:
    bot = make_agent(SMALL, 7)
    assert isinstance(bot, SearchAgent)
    assert bot.settings == SearchParams(budget=6, k=2)
    copy = pickle.loads(pickle.dumps(bot))
    assert isinstance(copy, SearchAgent) and copy.settings == bot.settings and copy.seed == 7
    rs = load_variant("guiyang")
    r = Round(rs, seed=8)
    _play_until(r, _greedy(4), 0, 3)
    assert bot.act(Observation(r, 0)) == copy.act(Observation(r, 0))


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("search:budget=0", "budget=0"),
        ("search:depth=3", "'depth=3'"),
        ("search:k=x", "not a number"),
        ("search:policy=random", "greedy or expert"),
        ("search:tilt=0", "tilt=0"),
        ("greedy:budget=3", "takes no parameters"),
    ],
)
def test_bad_parameters_are_one_clear_error(name: str, says: str) -> None:
    with pytest.raises(ZhuojiError, match=says):
        make_agent(name, 0)


def test_simulate_takes_search_with_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "-v", "guiyang", "--rounds", "2", "--seed", "3", "--workers", "1"]
    assert main([*argv, "--agents", "search:budget=4/k=2,greedy,greedy,greedy"]) == 0
    capsys.readouterr()
    assert main([*argv, "--agents", "search:budget=0,greedy,greedy,greedy"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "budget=0" in err[0]


def test_rollout_policy_expert() -> None:
    r, bot = _round_with_search("liupanshui", "search:budget=4/k=2/policy=expert", 2)
    assert r.phase is Phase.END and bot.stats["rollouts"] > 0


def test_tilted_samples_deal_the_unseen_tiles_closer_to_a_win() -> None:
    """``tilt``: the same unseen tiles in the same counts, each other hand the closest to
    a win of ``tilt`` draws — over many samples nearer a win than the uniform deal's —
    and the same samples again from the same generator (and from a hidden twin)."""
    from zhuoji.agents.analysis import analyzer

    r = Round(load_variant("guiyang"), seed=4)
    _play_until(r, _greedy(4), 0, 6)
    obs = Observation(r, 0)
    dist = analyzer(r.ruleset.hand_rules()).distance

    def mean_distance(tilt: int) -> float:
        rng, total = random.Random(3), 0
        for _ in range(40):
            hands, wall = sample_hidden(obs, r, rng, tilt)
            uniform, _ = sample_hidden(obs, r, random.Random(0))
            assert sorted([t for h in hands for t in h] + wall) == sorted(
                [t for h in uniform for t in h] + sample_hidden(obs, r, random.Random(0))[1]
            )
            assert [len(h) for h in hands] == [len(h) for h in uniform]
            for h in hands[1:]:
                c = [0] * 34
                for t in h:
                    c[t] += 1
                total += dist(c)
        return total / 40

    assert mean_distance(6) < mean_distance(1) - 1.0
    assert sample_hidden(obs, r, random.Random(7), 4) == sample_hidden(obs, r, random.Random(7), 4)
    twin = _hidden_twin(r, 0, random.Random(2))
    assert sample_hidden(obs, r, random.Random(7), 4) == sample_hidden(
        Observation(twin, 0), twin, random.Random(7), 4
    )


def test_tilted_search_is_deterministic_for_a_seed() -> None:
    spec = "search:budget=6/k=2/tilt=3"
    r1, b1 = _round_with_search("liupanshui", spec, 3)
    r2, b2 = _round_with_search("liupanshui", spec, 3)
    assert [e for e in r1.log if e["type"] == "action"] == [
        e for e in r2.log if e["type"] == "action"
    ]
    assert b1.stats == b2.stats and b1.stats["rollouts"] > 0


def test_safe_leaves_out_discards_costlier_to_deal_in_with() -> None:
    """``safe=0``: no candidate discard whose expected deal-in cost (the expert's
    ``deal_in``) is above the expert's own choice's; without it such candidates occur."""
    from zhuoji.agents.analysis import TableView
    from zhuoji.agents.expert_value import Evaluator

    kept = dropped = 0
    for seed in range(1, 7):
        r = Round(load_variant("guiyang"), seed=seed)
        experts = [make_agent("expert", s) for s in range(4)]
        try:
            _play_until(r, experts, 0, 9)
        except AssertionError:
            continue
        obs = Observation(r, 0)
        if not obs.legal or obs.phase != "turn":
            continue
        for safe, spec in ((-1.0, "all"), (0.0, "safe")):
            bot = SearchAgent(1, SearchParams(safe=safe, clear=100.0, k=6))
            base = bot.expert.act(obs)
            cands = bot.candidates(obs, base)
            view = TableView(obs)
            ev = Evaluator(view)
            cost = {a: bot.expert.deal_in(view, ev, a.tile)[1] for a in cands}
            worse = [
                a
                for a in cands[1:]
                if a.kind is ActionKind.DISCARD and cost[a] > cost[base] + 1e-12
            ]
            if spec == "safe":
                assert not worse
                kept += len(cands) - 1
            else:
                dropped += len(worse)
    assert dropped > 0 and kept > 0


_KONG_KINDS = (ActionKind.GANG_CONCEALED, ActionKind.GANG_ADDED, ActionKind.GANG_EXPOSED)


class _KongFlipper(SearchAgent):
    """A search bot whose every search overrules the expert so that a kong becomes a
    discard and a discard a kong, where the legal actions allow: no rollouts, only the
    bookkeeping of :meth:`SearchAgent.act` under test."""

    def candidates(self, obs: Observation, base: Action) -> list[Action]:
        return [base, *(a for a in obs.legal if a != base)]

    def search(self, obs: Observation, cands: Sequence[Action]) -> Action:
        was_kong = cands[0].kind in _KONG_KINDS
        flipped = [a for a in cands[1:] if (a.kind in _KONG_KINDS) != was_kong]
        return flipped[0] if flipped else cands[0]


class _Watched:
    """Checks, after each of the bot's actions, that its expert's 热炮 reading follows the
    action played; counts the discards the search turned into kongs."""

    name = "watched"

    def __init__(self, bot: _KongFlipper) -> None:
        self.bot = bot
        self.kongs_chosen = 0

    def act(self, obs: Observation) -> Action:
        before = self.bot.stats["changed"]
        a = self.bot.act(obs)
        assert self.bot.expert._konged == (a.kind in _KONG_KINDS)
        if self.bot.stats["changed"] > before and a.kind in _KONG_KINDS:
            self.kongs_chosen += 1
        return a


def test_the_expert_inside_notes_the_action_played_not_its_own() -> None:
    """After the search overrules its expert, the expert's 热炮 reading (a discard right
    after this seat's own kong) follows the action the search played: a kong the search
    chose makes the next discard a 热炮 risk, a kong it declined does not."""
    rs = load_variant("guiyang")
    kongs_chosen = 0
    for seed in range(1, 9):
        watched = _Watched(_KongFlipper(seed))
        agents = [watched] + [make_agent("expert", seed + s) for s in range(1, rs.players)]
        play_round(Round(rs, seed=seed), agents)
        kongs_chosen += watched.kongs_chosen
    assert kongs_chosen > 0  # the rounds did overrule a discard with a kong
