"""The resolved rules as a hook sees them: the variant and its bound hooks.

:class:`zhuoji.ruleset.Ruleset` is the one implementation; hooks and the contract name this
protocol instead, so they need not import the ruleset (which imports every hook module to
bind them).
"""

from __future__ import annotations

from typing import Protocol

from zhuoji.hand import HandRules
from zhuoji.rules.registry import BoundHook
from zhuoji.variant import Variant


class BoundRules(Protocol):
    """A variant with its hooks resolved (:class:`zhuoji.ruleset.Ruleset`); hashable, as
    caches are kept per ruleset."""

    def __hash__(self) -> int: ...

    @property
    def variant(self) -> Variant: ...

    @property
    def name(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def stake(self) -> int: ...

    @property
    def stages(self) -> tuple[BoundHook, ...]:
        """The settlement stages, in the order they run."""
        ...

    @property
    def may_win(self) -> tuple[BoundHook, ...]:
        """The ``may_win`` hooks: all must allow a win."""
        ...

    def hand_rules(self, wild: int | None = None) -> HandRules:
        """The hand analyser for a round whose wild kind is ``wild``."""
        ...
