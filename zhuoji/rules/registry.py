"""The hook registry: rule mechanics registered by id, each with its own parameter model.

A hook is a plain function plus a pydantic model of its parameters (yamllint-style: ``ID``,
parameters, defaults, a pure function).  Variant files name hooks by id; unknown ids and
unknown parameters are errors that name the known choices.  A separately installed package
adds hooks by exposing a module under the entry-point group ``zhuoji.rules``; importing that
module registers its hooks.

Points:

* ``settle`` — a settlement stage; stages run by ascending ``phase``;
* ``may_win`` — decides whether a seat may win on a tile now (all must agree);
* ``dealer`` — decides the next dealer and streak after a round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from importlib.metadata import entry_points
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict

ENTRY_POINT_GROUP = "zhuoji.rules"


class Point(StrEnum):
    SETTLE = "settle"
    MAY_WIN = "may_win"
    DEALER = "dealer"


class Params(BaseModel):
    """Base of every hook's parameter model: unknown keys are errors; values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


P = TypeVar("P", bound=Params)
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Hook:
    point: Point
    id: str
    params: type[Params]
    fn: Callable[..., Any]
    phase: int = 0
    title: str = ""

    @property
    def doc(self) -> str:
        return (self.fn.__doc__ or "").strip()


_REGISTRY: dict[Point, dict[str, Hook]] = {p: {} for p in Point}
_plugins_loaded = False
_generation = 0  # bumped by every registration, so cached schemas know they are stale


def register(
    point: Point, hook_id: str, params: type[Params], *, phase: int = 0, title: str = ""
) -> Callable[[F], F]:
    """Decorator: register ``fn`` as hook ``hook_id`` at ``point``."""

    def deco(fn: F) -> F:
        known = _REGISTRY[point]
        if hook_id in known and known[hook_id].fn is not fn:
            raise ValueError(f"hook id {hook_id!r} is already registered at {point.value}")
        global _generation
        known[hook_id] = Hook(point, hook_id, params, fn, phase, title)
        _generation += 1
        return fn

    return deco


def load_plugins() -> None:
    """Import every module under the ``zhuoji.rules`` entry-point group (once)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        ep.load()


def snapshot() -> dict[Point, dict[str, Hook]]:
    """A copy of the registry (tests that install plug-ins restore it afterwards)."""
    hooks(Point.SETTLE, builtin_only=True)
    return {p: dict(h) for p, h in _REGISTRY.items()}


def restore(saved: dict[Point, dict[str, Hook]]) -> None:
    global _generation
    for p in Point:
        _REGISTRY[p] = dict(saved[p])
    _generation += 1


def reload_plugins() -> None:
    """Look for plug-ins again (after installing one in a running process)."""
    global _plugins_loaded
    _plugins_loaded = False
    load_plugins()


def generation() -> int:
    """Changes whenever a hook is registered (built-in or plug-in)."""
    hooks(Point.SETTLE)
    return _generation


def hooks(point: Point, *, builtin_only: bool = False) -> dict[str, Hook]:
    """Registered hooks at a point, by id (sorted)."""
    import zhuoji.rules.builtin  # noqa: F401  (registers the built-in hooks)

    if not builtin_only:
        load_plugins()
    found = _REGISTRY[point]
    if builtin_only:
        found = {k: h for k, h in found.items() if h.fn.__module__.startswith("zhuoji.")}
    return dict(sorted(found.items()))


def get(point: Point, hook_id: str) -> Hook:
    known = hooks(point)
    if hook_id not in known:
        raise KeyError(hook_id)
    return known[hook_id]
