"""A bot that writes down every action it takes, for the tests that pin a bot's play
(``tests/test_agents_greedy.py``, ``tests/test_agents_expert_pinned.py``)."""

from __future__ import annotations

from zhuoji.actions import Action
from zhuoji.agents.base import make_agent
from zhuoji.observation import Observation


class Recording:
    """The built-in bot ``kind`` at ``seat`` (seeded ``7 + seat``), appending
    ``"<seat>:<action>"`` to ``out`` for each action it takes."""

    def __init__(self, kind: str, seat: int, out: list[str]) -> None:
        self.agent = make_agent(kind, 7 + seat)
        self.name = self.agent.name
        self.out = out

    def act(self, obs: Observation) -> Action:
        choice = self.agent.act(obs)
        self.out.append(f"{obs.seat}:{choice}")
        return choice
