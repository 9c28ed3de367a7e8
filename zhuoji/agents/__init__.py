"""Bots behind one :class:`Agent` protocol (observation → action); see ``docs/agents.md``.

Built in: ``random`` (:class:`RandomAgent`), ``greedy``
(:mod:`zhuoji.agents.greedy`) and ``cautious`` (:mod:`zhuoji.agents.cautious`), made by
name with :func:`make_agent`.
"""

from __future__ import annotations

from zhuoji.agents.base import (
    Agent,
    RandomAgent,
    agent_names,
    make_agent,
    play_round,
    register_agent,
)

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "play_round", "register_agent"]
