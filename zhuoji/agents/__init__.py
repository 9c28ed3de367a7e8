"""Bots behind one :class:`Agent` protocol (observation → action)."""

from __future__ import annotations

from zhuoji.agents.base import Agent, RandomAgent, make_agent, play_round

__all__ = ["Agent", "RandomAgent", "make_agent", "play_round"]
