"""The round's event log as the engine keeps it: compact records, rendered on demand.

The engine appends a tuple per draw and action (the hot path) and a ready dict for the rare
events; reading the log (indexing, slicing, iterating, comparing) renders each record once
into the dict form of ``docs/event-log.md`` and keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from zhuoji.actions import Action
from zhuoji.tiles import TILE_TEXT

Event = dict[str, Any]
DRAW = 0
#: ``(FLOWER, seat)``: a drawn flower set aside (补花); the replacement is the next draw
FLOWER = 1


def _render(record: Any) -> Event:
    if isinstance(record, dict):
        return record
    if callable(record):  # a rare, larger event built only when read (round, deal)
        return record()  # type: ignore[no-any-return]
    if type(record) is Action:
        return {"type": "action", "action": str(record)}
    if record[0] == FLOWER:
        return {"type": "flower", "seat": record[1]}
    return {
        "type": "draw",
        "seat": record[1],
        "tile": TILE_TEXT[record[2]],
        "replacement": record[3],
    }


class EventLog(Sequence[Event]):
    __slots__ = ("_raw", "_rendered")

    def __init__(self) -> None:
        self._raw: list[Any] = []
        self._rendered: list[Event] = []

    def add(self, record: Any) -> None:
        """A dict event, a function returning one, an :class:`Action`,
        ``(DRAW, seat, tile, replacement)`` or ``(FLOWER, seat)``."""
        self._raw.append(record)

    def recorder(self) -> Callable[[Any], None]:
        """A fast :meth:`add` for the engine's hot path (the list's own append)."""
        return self._raw.append

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> list[Event]: ...

    def __getitem__(self, i: int | slice) -> Event | list[Event]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._raw)))]
        if i < 0:
            i += len(self._raw)
        if not 0 <= i < len(self._raw):
            raise IndexError("event index out of range")
        done = self._rendered
        while len(done) <= i:
            done.append(_render(self._raw[len(done)]))
        return done[i]

    def __iter__(self) -> Iterator[Event]:
        for i in range(len(self._raw)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EventLog({len(self)} events)"
