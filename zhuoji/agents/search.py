"""The ``search`` bot: the expert's top options rolled out to the end of the round on
sampled deals, chosen by the money they bring this seat (issue 28 item 5; ``docs/agents.md``).

At its own turn, when the expert (:class:`zhuoji.agents.expert.ExpertAgent`, its public
``score_discards`` and ``kong_value``) sees more than one sensible option, the bot

1. takes the expert's top ``k`` options (the expert's own choice always among them) and
   searches nothing when only one is legal or the expert's best beats the next by more
   than ``clear`` points;
2. samples the hidden state from what its seat has seen
   (:func:`zhuoji.agents.search_world.sample_hidden`): the unseen
   tiles (the wall's copies less its own hand, every meld, the discards left on the table,
   the 宝牌 indicator and revealed chicken tiles) dealt at random to the other seats'
   concealed tiles (their counts are public) and to the wall's undrawn positions; the
   random numbers come from the bot's seed, its seat and the public move count, never from
   the round's hidden state or global state;
3. plays each candidate on each sample to the end of the round with the ``policy`` bot
   (``greedy`` by default, or ``expert``) in every seat, the same samples for every
   candidate (common random numbers), and reads this seat's total from the variant's own
   settlement (the rollout's ledger);
4. plays the candidate with the highest mean gain over the expert's choice, if that gain is
   more than ``z`` standard errors of the paired differences above 0; else the expert's
   choice.

Claims on a discard are searched too (pass, 碰, 吃, 点杠: the expert's answer and the others,
``k`` at most; the other seats' options asked again of their sampled hands).  换三张, 定缺,
robbing a kong and wins are the expert's; so is any decision while an opponent is declared
(报听: a frozen hand, which a uniform sample would seldom leave ready).

Parameters, as agent names (``zhuoji simulate --agents search:budget=48/k=4``):
``budget`` rollouts per decision (48), ``ms`` milliseconds per decision (0: no time limit;
with a limit the search stops at whichever comes first, and the answer then depends on the
machine's speed), ``k`` candidates (3), ``policy`` (``greedy``), ``clear`` (2.0 points),
``z`` (2.0), ``tilt`` (1: each other hand dealt uniformly; above 1, the closest to a win
of that many draws, as a seat that has played on holds a worked hand) and ``safe`` (−1:
off; else no candidate discard the expert reckons costlier to deal in with than its own
choice by more than that many expected points — the rollouts' bots barely defend, so
they cannot be trusted to price that risk).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields

from zhuoji.actions import Action, ActionKind
from zhuoji.agents.analysis import TableView
from zhuoji.agents.base import Agent, make_agent, play_round, register_agent
from zhuoji.agents.expert import ExpertAgent
from zhuoji.agents.expert_memo import memo_analyzer
from zhuoji.agents.expert_value import Evaluator
from zhuoji.agents.search_world import clone_round, determinized
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.observation import Observation
from zhuoji.tiles import suit_of

_KONGS = (ActionKind.GANG_CONCEALED, ActionKind.GANG_ADDED)
_MASK = (1 << 64) - 1


@dataclass(frozen=True)
class SearchParams:
    """The search's knobs (agent name parameters, ``search:budget=48/k=4``)."""

    #: rollouts per decision (shared among the candidates; at least 2 samples each)
    budget: int = 48
    #: milliseconds per decision (0: none); the search stops at the first limit reached
    ms: float = 0.0
    #: candidates searched: the expert's top k
    k: int = 3
    #: the bot that plays every seat in the rollouts: greedy or expert
    policy: str = "greedy"
    #: no search when the expert's best option beats the next by more than this (points)
    clear: float = 2.0
    #: a candidate replaces the expert's choice only when its mean gain is this many
    #: standard errors above 0
    z: float = 2.0
    #: each other seat's sampled hand is the closest to a win of this many draws (1: the
    #: unseen tiles dealt uniformly; ``search_world.sample_hidden``)
    tilt: int = 1
    #: a discard the expert reckons costlier to deal in with (expected points,
    #: ``deal_in``) than its own choice by more than this is no candidate (below 0: none
    #: left out)
    safe: float = -1.0

    @classmethod
    def parse(cls, text: str) -> SearchParams:
        """``budget=48/k=4`` (any order, ``/`` between); an unknown or bad one is an error."""
        known = {f.name: f.type for f in fields(cls)}
        values: dict[str, object] = {}
        for part in filter(None, text.split("/")):
            key, eq, raw = part.partition("=")
            key = key.strip()
            if not eq or key not in known:
                raise ZhuojiError(
                    f"search agent parameter {part!r}: expected one of "
                    f"{', '.join(f'{k}=…' for k in known)}, separated by '/'"
                )
            try:
                values[key] = (
                    raw.strip()
                    if key == "policy"
                    else int(raw)
                    if key in ("budget", "k", "tilt")
                    else float(raw)
                )
            except ValueError:
                raise ZhuojiError(f"search agent parameter {part!r}: not a number") from None
        p = cls(**values)  # type: ignore[arg-type]
        p.check()
        return p

    def check(self) -> None:
        if self.budget < 1:
            raise ZhuojiError(f"search agent: budget={self.budget}: at least 1 rollout")
        if self.ms < 0:
            raise ZhuojiError(f"search agent: ms={self.ms}: not below 0")
        if self.k < 2:
            raise ZhuojiError(f"search agent: k={self.k}: at least 2 candidates")
        if self.tilt < 1:
            raise ZhuojiError(f"search agent: tilt={self.tilt}: at least 1 draw")
        if self.policy not in ("greedy", "expert"):
            raise ZhuojiError(f"search agent: policy={self.policy!r}: greedy or expert")


def _mix(*xs: int) -> int:
    """A stable 64-bit mix of integers (splitmix64 steps): the samples' seed."""
    h = 0x9E3779B97F4A7C15
    for x in xs:
        h = (h ^ (x & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        h ^= h >> 31
        h = h * 0x94D049BB133111EB & _MASK
        h ^= h >> 29
    return h


# ---------------------------------------------------------------------------------------
# the agent
# ---------------------------------------------------------------------------------------


class SearchAgent:
    """Rolls the expert's top options out on sampled deals; see the module docstring."""

    name = "search"
    payout_aware = True
    #: the decisions searched: own turns and claims on a discard
    phases = ("turn", "claim")

    def __init__(self, seed: int | None = None, settings: SearchParams | None = None) -> None:
        self.seed = 0 if seed is None else seed
        self.settings = settings or SearchParams()
        self.expert = ExpertAgent(seed)
        #: decisions made, searched, rollouts played, expert choices replaced (counters)
        self.stats = {"decisions": 0, "searched": 0, "rollouts": 0, "changed": 0}

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (SearchAgent, (self.seed, self.settings))

    def act(self, obs: Observation) -> Action:
        self.stats["decisions"] += 1
        base = self.expert.act(obs)  # the expert keeps its own state (热炮 after a kong)
        phase = obs.phase
        if phase not in self.phases or base.kind is ActionKind.HU or len(obs.legal) == 1:
            return base
        if any(obs.declared(s) for s in range(obs.players) if s != obs.seat):
            return base
        if phase == "turn":
            cands = self.candidates(obs, base)
        else:  # a claim: pass, 碰, 吃, 点杠 (a win is always taken)
            others = [a for a in obs.legal if a != base and a.kind is not ActionKind.HU]
            cands = [base, *others[: self.settings.k - 1]]
        if len(cands) < 2:
            return base
        choice = self.search(obs, cands)
        if choice is not base:
            self.stats["changed"] += 1
            self.expert.note_played(choice)  # its 热炮 reading follows the action played
        return choice

    # --- which options -------------------------------------------------------------------

    def candidates(self, obs: Observation, base: Action) -> list[Action]:
        """The expert's choice and its next best options (by the expert's own values), at
        most ``k``; only the choice when it beats the next by more than ``clear``."""
        view = TableView(obs)
        view.analyzer = memo_analyzer(view.rules)
        ev = Evaluator(view)
        me = view.seat
        hand = view.hand
        legal = obs.legal
        plain = {a.tile: a for a in legal if a.kind is ActionKind.DISCARD and not a.declare}
        void = obs.void_suit(me)
        if void is not None:
            plain = {t: a for t, a in plain.items() if suit_of(t) == void} or plain
        values: dict[Action, float] = {}
        if plain:
            opts = view.analyzer.options(hand, plain, view.live)
            scored = self.expert.score_discards(
                view, ev, hand, view.own_melds(), view.declared[me], opts
            )
            values = {plain[t]: v for t, v in scored.items()}
        for a in legal:
            if a.kind in _KONGS:
                values[a] = self.expert.kong_value(view, ev, a)
        if not values:
            return [base]
        if self.settings.safe >= 0 and base.kind is ActionKind.DISCARD and base in values:
            limit = self.expert.deal_in(view, ev, base.tile)[1] + self.settings.safe
            values = {
                a: v
                for a, v in values.items()
                if a.kind is not ActionKind.DISCARD
                or self.expert.deal_in(view, ev, a.tile)[1] <= limit
            }
        top = max(values.values())
        ranked = sorted(
            (a for a in values if a != base), key=lambda a: (-values[a], a.kind, a.tile)
        )
        if not ranked or top - values[ranked[0]] > self.settings.clear:
            return [base]
        return [base, *ranked[: self.settings.k - 1]]

    # --- the rollouts ----------------------------------------------------------------------

    def _rng(self, obs: Observation) -> random.Random:
        """The samples' generator: from the bot's seed, its seat and the public move count
        (the same position in a replay gives the same samples)."""
        state = obs._state
        return random.Random(_mix(self.seed, obs.seat, state.public_seq(), len(state.discards)))

    def _policies(self, n: int, seed: int) -> list[Agent]:
        """Fresh rollout bots, one a seat (an expert remembers its last kong)."""
        return [make_agent(self.settings.policy, _mix(seed, s) & 0xFFFFFFFF) for s in range(n)]

    def search(self, obs: Observation, cands: Sequence[Action]) -> Action:
        """The candidate with the best mean money over shared samples, if its gain over the
        expert's choice (``cands[0]``) is more than ``z`` standard errors above 0."""
        p = self.settings
        self.stats["searched"] += 1
        state = obs._state  # copied, then every hidden part replaced (determinized)
        rng = self._rng(obs)
        samples = max(2, p.budget // len(cands))
        start = time.perf_counter()
        diffs: list[list[float]] = [[] for _ in cands]
        for i in range(samples):
            if p.ms and i >= 2 and (time.perf_counter() - start) * 1000.0 >= p.ms:
                break
            world = determinized(obs, state, rng, p.tilt)
            pol_seed = rng.getrandbits(32)
            money = [self._rollout(world, a, obs.seat, pol_seed) for a in cands]
            for j, m in enumerate(money):
                diffs[j].append(m - money[0])
        return cands[self._pick(diffs)]

    def _rollout(self, world: Round, action: Action, seat: int, pol_seed: int) -> float:
        r = clone_round(world)
        r.apply(action)
        play_round(r, self._policies(r.players, pol_seed))
        self.stats["rollouts"] += 1
        assert r.ledger is not None
        return float(r.ledger.totals()[seat])

    def _pick(self, diffs: Sequence[Sequence[float]]) -> int:
        best, best_gain = 0, 0.0
        for j in range(1, len(diffs)):
            d = diffs[j]
            n = len(d)
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
            se = math.sqrt(var / n)
            if mean > best_gain and mean > self.settings.z * se:
                best, best_gain = j, mean
        return best


def make_search(seed: int | None = None, text: str = "") -> SearchAgent:
    """The registry's factory for ``search:budget=48/k=4`` (the text after the colon)."""
    return SearchAgent(seed, SearchParams.parse(text))


register_agent("search", SearchAgent, make_search)
