"""Imports the built-in bot modules, which register themselves."""

from __future__ import annotations

from zhuoji.agents import greedy  # noqa: F401
