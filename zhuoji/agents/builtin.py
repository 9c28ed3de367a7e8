"""Imports the built-in bot modules, which register themselves: ``greedy``, ``cautious`` and
``expert`` (``random`` lives in :mod:`zhuoji.agents.base`)."""

from __future__ import annotations

from zhuoji.agents import cautious, expert, greedy  # noqa: F401
