"""Imports the built-in bot modules, which register themselves: ``greedy`` and ``cautious``
(``random`` lives in :mod:`zhuoji.agents.base`)."""

from __future__ import annotations

from zhuoji.agents import cautious, greedy  # noqa: F401
