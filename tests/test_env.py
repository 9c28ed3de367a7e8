"""The PettingZoo environment: PettingZoo's own conformance tests, the action encoding,
masks, rewards and the order of claim windows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from zhuoji.actions import ActionKind
from zhuoji.engine import Phase
from zhuoji.env import NUM_ACTIONS, decode, encode, env, raw_env
from zhuoji.errors import IllegalActionError
from zhuoji.variant_io import load_variant

#: 三丁拐 with 换三张 and 定缺 (a test-only table: no shipped variant has 换三张)
START_CHOICES = str(Path(__file__).parent / "variants" / "dingque-3p.yaml")


@pytest.mark.parametrize("variant", ["guiyang", "luan", "jinyou", "sandingguai", START_CHOICES])
def test_pettingzoo_api(variant: str) -> None:
    api_test(env(variant), num_cycles=400)


@pytest.mark.parametrize("variant", ["guiyang-weile", "jinyou"])
def test_pettingzoo_seed(variant: str) -> None:
    seed_test(lambda: env(variant), num_cycles=400)


def test_three_players_from_a_ruleset() -> None:
    e = env(load_variant("guiyang-weile", ["tiles.players=3"]))
    api_test(e, num_cycles=200)
    assert e.unwrapped.possible_agents == ["player_0", "player_1", "player_2"]
    obs, *_ = e.last()
    assert obs["observation"].shape == (12 + 5 * 3, 34)


def test_action_encoding_round_trips() -> None:
    seen = set()
    for i in range(NUM_ACTIONS):
        a = decode(i, 2, tile=5)
        assert a.seat == 2
        assert encode(a) == i
        seen.add((a.kind, a.tile, a.declare))
    assert len(seen) == NUM_ACTIONS
    assert decode(225, 0, tile=7).kind is ActionKind.HU
    assert decode(226, 0).kind is ActionKind.PASS
    assert (decode(229, 0).kind, decode(229, 0).tile) == (ActionKind.QUE, 2)  # 定缺 筒
    assert (decode(230 + 9, 0).kind, decode(230 + 9, 0).tile) == (ActionKind.EXCHANGE, 9)
    assert (decode(68 + 7 + 6, 0).kind, decode(68 + 7 + 6, 0).tile) == (
        ActionKind.CHI,
        9 + 6,
    )  # 789s
    with pytest.raises(IllegalActionError):
        decode(NUM_ACTIONS, 0)


def _play(e: raw_env, rng: np.random.Generator, check: bool = True) -> dict[str, float]:
    """Random legal play to the end; checks masks against the engine on the way."""
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(100_000):
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        if check:
            r = e.round
            assert r is not None
            seat = e.possible_agents.index(agent)
            assert seat in r.to_act()
            legal = {encode(a) for a in r.legal_actions(seat)}
            assert set(np.flatnonzero(mask)) == legal
        e.step(int(rng.choice(np.flatnonzero(mask))))
    return total


@pytest.mark.parametrize("variant", ["guiyang", "jinyou", "luan", START_CHOICES])
def test_rewards_are_the_ledger_totals(variant: str) -> None:
    e = raw_env(variant)
    rng = np.random.default_rng(3)
    for seed in range(3):
        e.reset(seed=seed)
        r = e.round
        total = _play(e, rng)
        assert r is not None and r.ledger is not None
        assert [total[a] for a in e.possible_agents] == [float(t) for t in r.ledger.totals()]
        assert sum(total.values()) == 0
        assert not e.agents  # every agent was removed after its final step


def test_claim_windows_are_serialized_after_the_discarder() -> None:
    """In a window with several seats to answer, agent_selection walks them one at a time
    in seat order from the discarder's right, and the window stays open until all have
    (金游 has 吃 as well as 碰, so such windows are common)."""
    e = raw_env("jinyou")
    rng = np.random.default_rng(0)
    windows = 0
    for seed in range(30):
        e.reset(seed=seed)
        window: tuple[int, list[int], list[int]] | None = None  # (discard no., expected, asked)
        while e.agents:
            agent = e.agent_selection
            obs, _, term, _, _ = e.last()
            if term:
                e.step(None)
                continue
            r = e.round
            assert r is not None
            seat = e.possible_agents.index(agent)
            if r.phase is Phase.CLAIM:
                key = len(r.discards)
                if window is None or window[0] != key:
                    discarder = r.discards[-1].seat
                    expected = sorted(r.to_act(), key=lambda s: (s - discarder - 1) % 4)
                    window = (key, expected, [])
                window[2].append(seat)
                assert window[2] == window[1][: len(window[2])]
                if len(window[1]) > 1 and len(window[2]) == len(window[1]):
                    windows += 1
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert windows > 0


def test_observation_hides_other_hands() -> None:
    """An agent's planes are the same whatever the other seats hold: swap two seats'
    concealed tiles of the same count and nothing the observer sees changes."""
    e = raw_env("guiyang")
    e.reset(seed=9)
    r = e.round
    assert r is not None
    before = e.observe("player_0")["observation"].copy()
    h2, h3 = list(r.seats[2].hand), list(r.seats[3].hand)
    r.seats[2].hand, r.seats[3].hand = h3, h2
    after = e.observe("player_0")["observation"]
    assert np.array_equal(before, after)
    assert before[0].sum() == sum(r.seats[0].hand)


def test_start_of_round_choices_are_encoded() -> None:
    """换三张 then 定缺: every seat in seat order, its phase row set while it chooses; the
    tiles it passed and received in their rows; another seat's void suit stays hidden until
    every seat has chosen, then shows as that suit's nine kinds."""
    e = raw_env(START_CHOICES)
    n = e.players
    e.reset(seed=2)
    r = e.round
    assert r is not None and r.phase is Phase.EXCHANGE
    asked = []
    while r.phase is Phase.EXCHANGE:
        agent = e.agent_selection
        obs = e.observe(agent)["observation"]
        assert obs[8 + 4 * n].all() and not obs[5 + 4 * n].any()
        asked.append(agent)
        mask = e.observe(agent)["action_mask"]
        assert all(230 <= i < 264 for i in np.flatnonzero(mask))
        e.step(int(np.flatnonzero(mask)[0]))
    assert asked[:3] == ["player_0", "player_0", "player_0"]
    mine = e.observe("player_0")["observation"]
    assert mine[10 + 5 * n].sum() == 3 and mine[11 + 5 * n].sum() == 3
    assert r.phase is Phase.DINGQUE
    e.step(227)  # player_0: 万 void
    seen = e.observe("player_1")["observation"]
    assert not seen[10 + 4 * n : 10 + 5 * n].any()  # seat 0's choice is hidden so far
    own = e.observe("player_0")["observation"]
    assert own[10 + 4 * n, :9].all() and not own[10 + 4 * n, 9:].any()
    e.step(228)
    e.step(229)
    assert r.phase is Phase.TURN
    seen = e.observe("player_1")["observation"]
    assert seen[10 + 4 * n + 2, :9].all()  # seat 0, two places after seat 1: 万
    assert seen[10 + 4 * n, 9:18].all()  # seat 1 itself: 条


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env("guiyang")
    e.reset(seed=4)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    r = e.round
    assert r is not None
    log = len(r.log)
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert len(r.log) == log


@pytest.mark.parametrize("action", ["{legal}", "{legal}.0", 0.9, True, None, [0], "x"])
def test_an_action_that_is_not_an_integer_is_refused(action: object) -> None:
    """Issue 25: ``step('5')`` and ``step(5.9)`` were read as index 5; now anything but an
    integer (Python's, numpy's or a 0-d integer array) is refused and changes nothing."""
    e = raw_env("guiyang")
    e.reset(seed=4)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    if isinstance(action, str):
        action = action.format(legal=legal)
    elif isinstance(action, float):
        action = legal + action
    r = e.round
    assert r is not None
    log = len(r.log)
    with pytest.raises(IllegalActionError, match="is not an action index"):
        e.step(action)
    assert len(r.log) == log and e.round is r


@pytest.mark.parametrize("kind", [int, np.int64, np.int8, lambda i: np.array(i)])
def test_integer_actions_of_every_kind_are_taken(kind: object) -> None:
    e = raw_env("guiyang")
    e.reset(seed=4)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    r = e.round
    assert r is not None
    log = len(r.log)
    e.step(kind(legal))  # type: ignore[operator]
    assert len(r.log) > log


# ---------------------------------------------------------------------------------------
# a trained policy at the table (the docs/agents.md recipe, briefly)
# ---------------------------------------------------------------------------------------


def _features(planes: np.ndarray) -> np.ndarray:
    return np.append(np.minimum(planes, 4).astype(np.float64).ravel() / 4.0, 1.0)


def _softmax(w: np.ndarray, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = w @ x
    z = np.where(mask > 0, z - z[mask > 0].max(), -np.inf)
    p = np.exp(z)
    return p / p.sum()


def test_reinforce_against_expert_opponents_runs() -> None:
    """The docs/agents.md training loop: seat 0 learns, the expert plays the other seats
    inside the environment, the policy moves with the rewards."""
    from zhuoji.agents.expert import ExpertAgent

    e = raw_env("guiyang")
    learner = e.possible_agents[0]
    bots = {a: ExpertAgent(i) for i, a in enumerate(e.possible_agents) if a != learner}
    rng = np.random.default_rng(0)
    w = np.zeros((NUM_ACTIONS, e.planes * 34 + 1))
    start = w.copy()
    for episode in range(2):
        e.reset(seed=episode)
        grads, reward = [], 0.0
        for agent in e.agent_iter(10_000):
            obs, r, term, trunc, _ = e.last()
            if agent == learner:
                reward += r
            if term or trunc:
                e.step(None)
                continue
            if agent == learner:
                x, mask = _features(obs["observation"]), obs["action_mask"]
                p = _softmax(w, x, mask)
                a = int(rng.choice(len(p), p=p))
                g = -np.outer(p, x)
                g[a] += x
                grads.append(g)
                e.step(a)
            else:
                e.step(encode(bots[agent].act(e.agent_observation(agent))))
        for g in grads:
            w += 0.01 * reward * g
    assert e.round is not None and e.round.is_terminal()
    assert not np.array_equal(w, start) or reward == 0.0


def test_a_trained_policy_plays_as_an_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    """A linear softmax policy fitted for a moment to the expert's choices (behaviour
    cloning on the environment's own observations) is seated with PolicyAgent next to
    zhuoji bots: it plays whole rounds legally and picks up the expert's play."""
    from zhuoji.agents import base
    from zhuoji.agents.base import make_agent, play_round
    from zhuoji.agents.expert import ExpertAgent
    from zhuoji.engine import Round
    from zhuoji.env import PolicyAgent, encode_observation
    from zhuoji.observation import Observation

    ruleset = load_variant("guiyang")
    teacher = ExpertAgent(1)
    xs, ys, masks = [], [], []
    for seed in range(3):
        r = Round(ruleset, seed=seed)
        while not r.is_terminal():
            for seat in r.to_act():
                obs = Observation(r, seat)
                a = teacher.act(obs)
                if len(obs.legal) > 1:
                    enc = encode_observation(obs)
                    xs.append(_features(enc["observation"]))
                    masks.append(enc["action_mask"])
                    ys.append(encode(a))
                r.apply(a)
                if r.is_terminal():
                    break
    w = np.zeros((NUM_ACTIONS, len(xs[0])))
    for _ in range(30):  # a few epochs of softmax regression
        for x, y, m in zip(xs, ys, masks, strict=True):
            p = _softmax(w, x, m)
            p[y] -= 1.0
            w -= 0.5 * np.outer(p, x)
    hits = sum(
        int(np.argmax(np.where(m > 0, w @ x, -np.inf)) == y)
        for x, y, m in zip(xs, ys, masks, strict=True)
    )
    assert hits > 0.5 * len(ys)  # chance is about one in ten

    def policy(planes: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(np.where(mask > 0, w @ _features(planes), -np.inf)))

    # registered for this test only (the registry is global)
    monkeypatch.setitem(base._FACTORIES, "cloned", lambda seed: PolicyAgent(policy, "cloned"))
    agents = [make_agent(k, i) for i, k in enumerate(["cloned", "expert", "cautious", "expert"])]
    for seed in (11, 12):
        r = play_round(Round(ruleset, seed=seed), agents)
        assert r.ledger is not None and sum(r.ledger.totals()) == 0


def test_policy_agent_refuses_a_masked_action() -> None:
    from zhuoji.engine import Round
    from zhuoji.env import PolicyAgent
    from zhuoji.observation import Observation

    r = Round(load_variant("guiyang"), seed=1)
    bad = PolicyAgent(lambda planes, mask: int(np.flatnonzero(mask == 0)[0]), "bad")
    with pytest.raises(IllegalActionError, match="masked action"):
        bad.act(Observation(r, r.current))
