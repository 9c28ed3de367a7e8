"""The loop that plays a round with agents, and the random agent: the self-play hot path.

Compiled with the engine (``zhuoji.compiled.GROUPS``, ``docs/build.md``), so the loop calls
``Round.apply`` natively and only the agents' own ``act`` runs as Python.  Both are
re-exported by :mod:`zhuoji.agents.base`, where the agent protocol and the registry live.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from zhuoji.actions import Action
from zhuoji.engine import Phase, Round
from zhuoji.errors import ZhuojiError
from zhuoji.observation import Observation


class Acting(Protocol):
    """What the loop needs of an agent (:class:`zhuoji.agents.base.Agent` is one)."""

    def act(self, obs: Observation) -> Action: ...


class RandomAgent:
    """Uniformly random legal actions (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)
        self._random: Callable[[], float] = self.rng.random

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        return legal[int(self._random() * len(legal))]  # uniform; random() is C-level


def play_round(r: Round, agents: Sequence[Acting]) -> Round:
    """Ask the agents for actions until the round ends."""
    if len(agents) != r.players:
        raise ZhuojiError(f"{len(agents)} agents for {r.players} seats")
    views = [Observation(r, seat) for seat in range(r.players)]  # views: reused every step
    acts = [agent.act for agent in agents]
    while r.phase is not Phase.END:
        if r.phase is Phase.TURN:  # one seat acts (the common case)
            seat = r.current
            r.apply(acts[seat](views[seat]))
            continue
        for seat in r.to_act():
            r.apply(acts[seat](views[seat]))
            if r.is_terminal():
                break
    return r
