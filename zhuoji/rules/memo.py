"""Work that depends only on a variant's rules, done once per rules object.

Settlement reads the same parameters every round (a pattern table, a chickens stage's
tile lists): what follows from them alone is worked out once per parameter object and
kept.  Parameter models are frozen, so an object's derived values never go stale; they are
keyed by the object itself (its identity: hashing a pydantic model hashes every field, and
models holding lists cannot be hashed at all).  An entry keeps its object alive, so an id is
never reused while its entry stands, and a store holds at most ``maxsize`` objects (it is
emptied when full: a process meets few rule sets).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Identity(Generic[K]):
    """``obj`` as a dict or lru_cache key by identity, kept alive while the key is stored."""

    __slots__ = ("obj",)

    def __init__(self, obj: K) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Identity) and other.obj is self.obj


class PerObject(Generic[K, V]):
    """``fn(obj)`` computed once per object (by identity), at most ``maxsize`` kept."""

    __slots__ = ("_store", "fn", "maxsize")

    def __init__(self, fn: Callable[[K], V], maxsize: int = 64) -> None:
        self.fn = fn
        self.maxsize = maxsize
        self._store: dict[int, tuple[K, V]] = {}

    def __call__(self, obj: K) -> V:
        got = self._store.get(id(obj))
        if got is not None and got[0] is obj:
            return got[1]
        value = self.fn(obj)
        if len(self._store) >= self.maxsize:
            self._store.clear()
        self._store[id(obj)] = (obj, value)
        return value

    def __len__(self) -> int:
        return len(self._store)

    def clear(self) -> None:
        self._store.clear()


def per_object(maxsize: int = 64) -> Callable[[Callable[[K], V]], PerObject[K, V]]:
    """Decorator: :class:`PerObject` over the function."""

    def wrap(fn: Callable[[K], V]) -> PerObject[K, V]:
        return PerObject(fn, maxsize)

    return wrap
