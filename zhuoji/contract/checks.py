"""Round-end checks: what a rule forbids, stated by the rule's owner.

Part of the hook contract (:mod:`zhuoji.contract`).  A round end (:class:`~zhuoji.outcome.
RoundEnd`) that the variant could not have produced is refused before anything is settled.
Each rule states what it forbids once, where the rule lives — a hook module registers its
checks with the hook (``register(..., checks=(fn, ...))``), a variant section's model
(:mod:`zhuoji.variant`) has them as methods — and both the round engine and the round-end
checker (:mod:`zhuoji.roundend`) ask the same functions.

A check returns :class:`Problem` values, each naming where in the round-end file the
problem is (the file's field paths, ``docs/round-end.md``, which mirror the round end's own
fields: ``seats[1].melds[0]``, ``result.wins[0]``, ``discards[4]``, ``reveals[2]``), the
rule (its key in the variant file with the value that forbids it, or the hook), the rule's
source, and what is wrong.  A hook's check is called as ``fn(end, rules, params)`` with the
round end, the resolved rules (:class:`~zhuoji.contract.bound.BoundRules`) and the hook's
own parameters (:data:`RoundCheck`); it returns an iterable of problems, empty when the
round end is possible.

This module imports nothing of the package, so the variant's models, the hooks and the
checker can all use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Problem:
    """Why a round end is impossible under the rules.

    * ``where`` — the field path in the round-end file (``seats[2].melds[0]``);
    * ``rule`` — the rule that forbids it: a variant key with its value
      (``claims.chi: false``) or a hook (``may_win.pass``);
    * ``source`` — where the rule comes from: the variant's source (filled in by
      :meth:`cited` for rules the variant states) or the text that defines the term
      (seed 002 「只有庄家独占的权柄」 for 天和);
    * ``message`` — what is wrong, in words.
    """

    where: str
    rule: str
    message: str
    source: str = ""

    def cited(self, source: str) -> Problem:
        """The problem with ``source`` as its source, unless it names its own."""
        return self if self.source else replace(self, source=source)

    def line(self) -> str:
        """One line: where, what, and the rule with its source in parentheses."""
        cite = "; ".join(part for part in (self.rule, self.source) if part)
        return f"{self.where}: {self.message}" + (f" ({cite})" if cite else "")


#: a hook's round-end check: ``fn(end, rules, params) -> Iterable[Problem]``
RoundCheck = Callable[..., Iterable[Problem]]


def flag(value: Any) -> str:
    """A variant value as its file writes it (``false``, ``move``, ``[added]``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(flag(v) for v in value) + "]"
    return str(value)


def rule(key: str, value: Any) -> str:
    """A rule as ``key: value`` (``claims.chi: false``)."""
    return f"{key}: {flag(value)}"
