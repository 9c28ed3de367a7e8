"""A PettingZoo AEC environment: one round of any zhuoji variant per episode.

Needs the ``env`` extra (``pip install zhuoji[env]``: pettingzoo, gymnasium, numpy).

>>> from zhuoji.env import env
>>> e = env("guiyang")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((32, 34), (264,))

Construction
    ``env(variant="guiyang", overrides=None, render_mode=None)`` — ``variant`` is a shipped
    variant name, a variant file path or a :class:`~zhuoji.ruleset.Ruleset`; ``overrides``
    are per-table rule overrides (``{"settle.shabao.value": 15}`` or ``["KEY=VALUE"]``).
    :func:`env` adds PettingZoo's order-enforcing and bounds-checking wrappers to
    :class:`raw_env`.  ``reset(seed=S)`` deals a round from seed ``S``; ``reset()`` without a
    seed draws the next round seed from the environment's generator.  ``options`` may give
    ``{"dealer": k}``.

Agents
    ``player_0`` … ``player_{n-1}``, one per seat (n = the variant's players).  The seat
    that must act is ``agent_selection``.  When several seats may answer a discard (a claim
    window, or a 抢杠 window on an added kong) they are asked one at a time, in seat order
    starting after the discarder; no seat sees another's answer before the window closes,
    as the engine keeps answers hidden and resolves the window (win > kong/pung > chow)
    once every seat has answered.

Action space — ``Discrete(264)``, the same for every seat and variant:

=========  ========================================================================
index      action
=========  ========================================================================
0–33       打 discard tile ``i`` (kinds: 0–8 万 1–9m, 9–17 条 1–9s, 18–26 筒 1–9p,
           27–33 东南西北中发白 1–7z)
34–67      报听 declare ready with the discard of tile ``i − 34``
68–88      吃 chow: suit ``(i − 68) // 7`` (万, 条, 筒), lowest rank ``(i − 68) % 7 + 1``
89–122     碰 pung the discard (tile ``i − 89``)
123–156    点杠 / 明杠 kong on the discard (tile ``i − 123``)
157–190    暗杠 / 闷豆 concealed kong of tile ``i − 157``
191–224    补杠 / 转弯豆 added kong of tile ``i − 191``
225        胡 win (self-draw, on the discard, or robbing the kong)
226        过 pass (in a claim or rob window)
227–229    定缺 declare suit ``i − 227`` void (0 万, 1 条, 2 筒)
230–263    换三张 pass on tile ``i − 230`` (one action per tile passed)
=========  ========================================================================

Actions a variant never allows are simply never in the mask.

Observation space — ``Dict(observation=Box(0, high, (12 + 5n, 34), uint8),
action_mask=Box(0, 1, (264,), int8))``.  Rows are planes over the 34 tile kinds; "seat
``r``" means the seat ``r`` places after the observer (0 = the observer, 1 = next to
play after it, …):

=====================  ==================================================================
rows                   content
=====================  ==================================================================
0                      own concealed hand: copies of each kind (0–4)
1                      own drawn tile this turn (one-hot; empty after a claim)
2 … 1+n                melds of seat ``r``: copies of each kind in its melds (0–4)
2+n … 1+2n             discards of seat ``r``: copies it has discarded (0–4, claimed ones
                       included)
2+2n … 1+3n            seat ``r`` has declared 报听 (whole row 1 or 0)
2+3n … 1+4n            seat ``r`` is the dealer (whole row 1 or 0)
2+4n                   tile being answered: the discard in a claim window, the kong tile
                       in a rob window (one-hot)
3+4n                   the 宝牌 wild tile (one-hot; empty in variants without one)
4+4n                   tiles left in the live wall (whole row, 0–136)
5+4n … 7+4n            phase: own turn / claim window / rob window (whole rows 1 or 0)
8+4n, 9+4n             phase: 换三张 / 定缺 window (whole rows 1 or 0)
10+4n … 9+5n           定缺 suit of seat ``r``: the nine kinds of its void suit set to 1
                       (empty before it is known: another seat's choice shows once all
                       have chosen)
10+5n                  换三张: the tiles this seat passed on (counts)
11+5n                  换三张: the tiles passed to it (counts, once every seat has picked)
=====================  ==================================================================

Every row is set only as far as the seat may know it (the start-of-round rows stay empty
in variants without 换三张 or 定缺).  For four players that is 32 × 34.  ``action_mask``
marks the legal actions of the observed seat (all zero when it has nothing to decide).
Nothing hidden is exposed: other seats' concealed tiles and the wall order never appear.

Rewards
    0 during play; at the end of the round each agent receives its total of the itemized
    settlement (the ledger's per-seat totals, zero-sum), and every agent is terminated.
    ``infos[agent]`` is ``{}`` during play; at the end it also holds ``"totals"`` and the
    ``"wins"`` (seat, how, from).

Illegal actions raise :class:`~zhuoji.errors.IllegalActionError` and change nothing; wrap
with ``pettingzoo.utils.wrappers.TerminateIllegalWrapper`` to end the episode instead.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.engine import Phase, Round
from zhuoji.errors import IllegalActionError, ZhuojiError
from zhuoji.observation import Observation
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import load_variant

NUM_KINDS = T.NUM_KINDS
DISCARD = 0
DECLARE = 34
CHI = 68
PENG = 89
GANG_EXPOSED = 123
GANG_CONCEALED = 157
GANG_ADDED = 191
HU = 225
PASS = 226
QUE = 227
EXCHANGE = 230
NUM_ACTIONS = 264

_KIND_BASE = {
    ActionKind.PENG: PENG,
    ActionKind.GANG_EXPOSED: GANG_EXPOSED,
    ActionKind.GANG_CONCEALED: GANG_CONCEALED,
    ActionKind.GANG_ADDED: GANG_ADDED,
}


def encode(action: Action) -> int:
    """The action-space index of an engine action (the seat is implied by the agent)."""
    k = action.kind
    if k is ActionKind.DISCARD:
        return (DECLARE if action.declare else DISCARD) + action.tile
    if k is ActionKind.CHI:
        return CHI + (action.tile // 9) * 7 + action.tile % 9
    if k is ActionKind.HU:
        return HU
    if k is ActionKind.PASS:
        return PASS
    if k is ActionKind.QUE:
        return QUE + action.tile
    if k is ActionKind.EXCHANGE:
        return EXCHANGE + action.tile
    return _KIND_BASE[k] + action.tile


def action_index(action: Any) -> int:
    """``action`` as an index, or :class:`IllegalActionError` when it is not an integer."""
    if not isinstance(action, bool | np.bool_):
        if isinstance(action, numbers.Integral):
            return int(action)
        if (
            isinstance(action, np.ndarray)
            and action.shape == ()
            and np.issubdtype(action.dtype, np.integer)
        ):
            return int(action)
    shown = repr(action) if len(repr(action)) <= 40 else repr(action)[:40] + "…"
    raise IllegalActionError(
        f"action {shown} is not an action index (an integer 0-{NUM_ACTIONS - 1})"
    )


def decode(index: int, seat: int, tile: int = -1) -> Action:
    """The engine action for an index; ``tile`` is the winning tile for :data:`HU` (the
    engine's win action names it).  ``index`` is an integer (Python's or numpy's, or a
    0-d integer array, as ``action_space.sample()`` gives): text, floats and booleans are
    refused, not read as the index they would round to."""
    i = action_index(index)
    if not 0 <= i < NUM_ACTIONS:
        raise IllegalActionError(f"action index {i} is outside 0-{NUM_ACTIONS - 1}")
    if i < DECLARE:
        return make(seat, ActionKind.DISCARD, i)
    if i < CHI:
        return make(seat, ActionKind.DISCARD, i - DECLARE, True)
    if i < PENG:
        j = i - CHI
        return make(seat, ActionKind.CHI, (j // 7) * 9 + j % 7)
    for kind, base in (
        (ActionKind.PENG, PENG),
        (ActionKind.GANG_EXPOSED, GANG_EXPOSED),
        (ActionKind.GANG_CONCEALED, GANG_CONCEALED),
        (ActionKind.GANG_ADDED, GANG_ADDED),
    ):
        if base <= i < base + NUM_KINDS:
            return make(seat, kind, i - base)
    if i == HU:
        return make(seat, ActionKind.HU, tile)
    if i == PASS:
        return make(seat, ActionKind.PASS)
    if i < EXCHANGE:
        return make(seat, ActionKind.QUE, i - QUE)
    return make(seat, ActionKind.EXCHANGE, i - EXCHANGE)


def encode_observation(obs: Observation) -> dict[str, np.ndarray[Any, Any]]:
    """The environment's observation of one seat (see the module docstring), built from
    the public :class:`~zhuoji.observation.Observation` alone: the same planes whether a
    policy plays inside the environment or is seated as an agent (:class:`PolicyAgent`)."""
    n = obs.players
    seat = obs.seat
    planes = np.zeros((12 + 5 * n, NUM_KINDS), dtype=np.uint8)
    planes[0] = obs.hand
    legal = obs.legal
    phase = obs.phase
    if phase == "turn" and legal and obs.drawn >= 0:
        planes[1, obs.drawn] = 1
    for rel in range(n):
        s = (seat + rel) % n
        for m in obs.melds(s):
            for t in m.tiles:
                planes[2 + rel, t] += 1
        if obs.declared(s):
            planes[2 + 2 * n + rel] = 1
        if s == obs.dealer:
            planes[2 + 3 * n + rel] = 1
    for who, tile, _claimed in obs.discards:
        planes[2 + n + (who - seat) % n, tile] += 1
    if obs.claim_tile >= 0:
        planes[2 + 4 * n, obs.claim_tile] = 1
    if obs.wild is not None:
        planes[3 + 4 * n, obs.wild] = 1
    planes[4 + 4 * n] = min(obs.wall_left, 136)
    row = {"turn": 5, "claim": 6, "rob": 7, "exchange": 8, "dingque": 9}.get(phase)
    if row is not None and legal:
        planes[row + 4 * n] = 1
    for rel in range(n):
        void = obs.void_suit((seat + rel) % n)
        if void is not None:
            planes[10 + 4 * n + rel, 9 * void : 9 * void + 9] = 1
    for t in obs.exchange_given:
        planes[10 + 5 * n, t] += 1
    for t in obs.exchange_received:
        planes[11 + 5 * n, t] += 1
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in legal:
        mask[encode(a)] = 1
    return {"observation": planes, "action_mask": mask}


class PolicyAgent:
    """Seats a policy trained on this environment as a zhuoji agent (simulator, server,
    ``zhuoji play``): ``policy(observation, action_mask) -> index`` gets the environment's
    arrays for the seat and returns an action index; a masked-out index is an error."""

    def __init__(self, policy: Any, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def act(self, obs: Observation) -> Action:
        enc = encode_observation(obs)
        index = int(self.policy(enc["observation"], enc["action_mask"]))
        if not 0 <= index < NUM_ACTIONS or not enc["action_mask"][index]:
            raise IllegalActionError(f"policy {self.name!r} chose masked action {index}")
        tile = next((a.tile for a in obs.legal if a.kind is ActionKind.HU), -1)
        return decode(index, obs.seat, tile)


def env(
    variant: str | Ruleset = "guiyang",
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
    render_mode: str | None = None,
) -> Any:
    """:class:`raw_env` with PettingZoo's bounds-checking and order-enforcing wrappers."""
    e = raw_env(variant, overrides, render_mode)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's naming: env() wraps raw_env
    """The unwrapped environment; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "zhuoji_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Ruleset = "guiyang",
        overrides: Mapping[str, Any] | Iterable[str] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(variant, Ruleset):
            if overrides:
                raise ZhuojiError("give overrides with a variant name, not with a Ruleset")
            self.ruleset = variant
        else:
            self.ruleset = load_variant(variant, overrides)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ZhuojiError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        self.render_mode = render_mode
        self.players = n = self.ruleset.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.planes = 12 + 5 * n
        high = np.ones((self.planes, NUM_KINDS), dtype=np.uint8)
        high[0] = T.COPIES
        high[2 : 2 + 2 * n] = T.COPIES
        high[4 + 4 * n] = 136
        high[10 + 5 * n :] = T.COPIES
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, high, (self.planes, NUM_KINDS), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.round: Round | None = None
        self._np_random, _ = seeding.np_random(None)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    # --- spaces ------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same object on every call (PettingZoo seeds spaces by identity)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- episode -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        round_seed = int(self._np_random.integers(0, 2**62))
        dealer = (options or {}).get("dealer")
        self.round = Round(self.ruleset, seed=round_seed, dealer=dealer)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _order(self) -> list[int]:
        """Seats to act, in seat order after the discarder (or the konger) in a window."""
        r = self.round
        assert r is not None
        acting = r.to_act()
        if r.phase in (Phase.TURN, Phase.EXCHANGE, Phase.DINGQUE) or not acting:
            return acting  # start-of-round choices: every seat, in seat order
        after = r.discards[-1].seat if r.phase is Phase.CLAIM and r.discards else r.rob_seat
        return sorted(acting, key=lambda s: (s - after - 1) % self.players)

    def _select(self) -> None:
        order = self._order()
        if order:
            self.agent_selection = self.possible_agents[order[0]]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        r = self.round
        assert r is not None
        seat = self._seat[agent]
        legal = r.legal_actions(seat)
        tile = next((a.tile for a in legal if a.kind is ActionKind.HU), -1)
        move = decode(action, seat, tile)
        r.apply(move)  # raises IllegalActionError, changing nothing, on an illegal action
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if r.is_terminal():
            assert r.ledger is not None and r.end is not None
            totals = r.ledger.totals()
            wins = [(w.seat, w.how.value, w.source) for w in r.end.wins]
            for a in self.agents:
                self.rewards[a] = float(totals[self._seat[a]])
                self.terminations[a] = True
                self.infos[a] = {"totals": list(totals), "wins": wins}
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- observations ------------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        r = self.round
        assert r is not None, "call reset() first"
        return encode_observation(Observation(r, self._seat[agent]))

    def agent_observation(self, agent: str) -> Observation:
        """The seat's :class:`~zhuoji.observation.Observation`, for zhuoji bots playing some
        seats of the environment (``ExpertAgent(0).act(e.agent_observation(agent))``)."""
        assert self.round is not None, "call reset() first"
        return Observation(self.round, self._seat[agent])

    def legal_actions(self, agent: str) -> list[Action]:
        """The engine's legal actions for an agent (for bots that speak :class:`Action`)."""
        r = self.round
        assert r is not None
        return list(r.legal_actions(self._seat[agent]))

    # --- display -----------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        r = self.round
        if r is None:
            return None
        lines = [
            f"{self.ruleset.name}: phase {r.phase.value}, wall {r.wall.live()}, to act {r.to_act()}"
        ]
        for s, st in enumerate(r.seats):
            melds = " ".join(f"[{T.format(m.tiles)}]" for m in st.melds)
            lines.append(
                f"  seat {s}{' 庄' if s == r.dealer else ''}: {T.format_counts(st.hand)} {melds}"
            )
        if r.ledger is not None:
            lines.append(f"  totals {r.ledger.totals()}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.round = None
