"""When does a rule key matter?  Conditions over a variant's effective settings, as data.

A hook declares, beside its parameters, what each of them needs to have any effect
(``register(..., needs={"discard_paid_by": WINS_ON_DISCARD})``); :mod:`zhuoji.deadkeys`
reads these declarations (and its own table for the variant's sections) to warn about keys
a variant sets to no effect (issue 11, item 12).  A condition is a small frozen value, not
code: it names settings by path and compares them.

Paths name the effective variant (every default filled in): ``claims.win_on_discard``, or
``settle:hu.streak_bonus`` — that parameter in every settle stage using the hook ``hu``
(``may_win:…`` and ``dealer:…`` likewise).  A path that names nothing has no values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: a setting's values by path (several where several stages use one hook)
Lookup = Callable[[str], list[Any]]


@dataclass(frozen=True)
class Condition:
    """True when the rule key it guards can have an effect.  ``why`` says what fails."""

    def holds(self, look: Lookup) -> bool:
        raise NotImplementedError

    def why(self) -> str:
        raise NotImplementedError

    def failure(self, look: Lookup) -> str | None:
        """None when the condition holds, else why not."""
        return None if self.holds(look) else self.why()


@dataclass(frozen=True)
class Set(Condition):
    """Some value at ``path`` is set: true, non-zero, non-empty (and not null)."""

    path: str

    def holds(self, look: Lookup) -> bool:
        return any(bool(v) for v in look(self.path))

    def why(self) -> str:
        return f"{self.path} is not set"


@dataclass(frozen=True)
class Is(Condition):
    """Some value at ``path`` equals ``value``."""

    path: str
    value: Any

    def holds(self, look: Lookup) -> bool:
        return any(v == self.value for v in look(self.path))

    def why(self) -> str:
        return f"{self.path} is not {self.value!r}"


@dataclass(frozen=True)
class IsNot(Condition):
    """Some value at ``path`` differs from ``value``."""

    path: str
    value: Any

    def holds(self, look: Lookup) -> bool:
        return any(v != self.value for v in look(self.path))

    def why(self) -> str:
        return f"{self.path} is {self.value!r}"


@dataclass(frozen=True)
class Has(Condition):
    """Some list at ``path`` holds ``value``."""

    path: str
    value: Any

    def holds(self, look: Lookup) -> bool:
        return any(isinstance(v, list) and self.value in v for v in look(self.path))

    def why(self) -> str:
        return f"{self.path} does not list {self.value!r}"


@dataclass(frozen=True)
class AtLeast(Condition):
    """Some number at ``path`` is at least ``value``."""

    path: str
    value: int

    def holds(self, look: Lookup) -> bool:
        return any(isinstance(v, int) and v >= self.value for v in look(self.path))

    def why(self) -> str:
        return f"{self.path} is below {self.value}"


@dataclass(frozen=True)
class AnyOf(Condition):
    """At least one of the conditions holds."""

    conditions: tuple[Condition, ...]
    reason: str = ""

    def holds(self, look: Lookup) -> bool:
        return any(c.holds(look) for c in self.conditions)

    def why(self) -> str:
        return self.reason or " and ".join(c.why() for c in self.conditions)


@dataclass(frozen=True)
class AllOf(Condition):
    """Every one of the conditions holds."""

    conditions: tuple[Condition, ...]

    def holds(self, look: Lookup) -> bool:
        return all(c.holds(look) for c in self.conditions)

    def why(self) -> str:
        return "; ".join(c.why() for c in self.conditions)

    def failure(self, look: Lookup) -> str | None:
        return next((f for c in self.conditions if (f := c.failure(look)) is not None), None)


@dataclass(frozen=True)
class Because(Condition):
    """A condition with the reason worded for the rules author."""

    condition: Condition
    reason: str

    def holds(self, look: Lookup) -> bool:
        return self.condition.holds(look)

    def why(self) -> str:
        return self.reason


def any_of(*conditions: Condition, reason: str = "") -> AnyOf:
    return AnyOf(tuple(conditions), reason)


def all_of(*conditions: Condition) -> AllOf:
    return AllOf(tuple(conditions))


#: conditions shared by several hooks
WINS_ON_DISCARD = Because(
    Set("claims.win_on_discard"), "the variant has no wins on a discard (claims.win_on_discard)"
)
ROBBING = Because(Set("claims.rob_kong"), "no kong can be robbed (claims.rob_kong is empty)")
WINS_ON_ANOTHERS_TILE = any_of(
    WINS_ON_DISCARD,
    ROBBING,
    reason="nobody wins on another player's tile (no discard wins, no robbing)",
)
DECLARING = Because(Set("baoting"), "nobody can declare 报听 (baoting is null)")
KONGS = any_of(
    Set("claims.kongs.concealed"),
    Set("claims.kongs.exposed"),
    Set("claims.kongs.added"),
    reason="the variant has no kongs (claims.kongs)",
)
STREAK_PAID = any_of(
    Set("settle:hu.streak_bonus"),
    Set("settle:chajiao.streak_extra"),
    reason="no stage pays the 连庄 streak (settle.hu.streak_bonus is 0, no chajiao.streak_extra)",
)

#: param path (dotted, "" for the whole entry) → the condition it needs
Needs = Mapping[str, Condition]


def check(needs: Needs, look: Lookup, keys: Iterable[str]) -> dict[str, str]:
    """For each written ``key`` (dotted param path) that has a declared need (on itself or a
    parent) which fails, the reason; keys whose parent is already reported are left out."""
    out: dict[str, str] = {}
    for key in keys:
        parts = key.split(".") if key else []
        if any(".".join(parts[:i]) in out for i in range(len(parts))):
            continue
        for cut in range(len(parts) + 1):
            need = needs.get(".".join(parts[:cut]))
            failure = need.failure(look) if need is not None else None
            if failure is not None:
                out[key] = failure
                break
    return out
