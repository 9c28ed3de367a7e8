"""Reading a seat's action from its text (the API's ``action`` field)."""

from __future__ import annotations

import functools
import re

from zhuoji.actions import Action
from zhuoji.errors import IllegalActionError
from zhuoji.server.tables import TableError

_ACTION_TEXT = re.compile(
    r"^\s*(?:(?P<seat>[0-9]{1,2})\s+)?(?P<word>[A-Za-z]{1,12})(?:\s+(?P<tile>[!-~]{1,4}))?\s*$",
    re.ASCII,
)


def parse_action(text: str, seat: int, players: int) -> Action:
    """``"2 discard 5m"``, or ``"discard 5m"`` for the caller's own seat.  Only plain ASCII
    is read (a digit like 「²」 is refused, 422), and the seat is checked against the
    caller's before anything else is made of the text."""
    m = _ACTION_TEXT.match(text) if isinstance(text, str) and len(text) <= 40 else None
    if m is None:
        raise TableError(
            422, f"cannot read action {text[:40]!r}; expected [SEAT] WORD [TILE], e.g. 'discard 5m'"
        )
    given = int(m["seat"]) if m["seat"] is not None else seat
    if not 0 <= given < players:
        raise TableError(422, f"seat {given} is not a seat of this table (0-{players - 1})")
    if given != seat:
        raise TableError(403, f"your token is for seat {seat}; it cannot act for seat {given}")
    try:
        return _parsed(seat, m["word"], m["tile"])
    except IllegalActionError as exc:
        raise TableError(422, str(exc)) from exc


@functools.lru_cache(maxsize=2048)
def _parsed(seat: int, word: str, tile: str | None) -> Action:
    """An action read from checked parts (bounded: a few hundred distinct actions occur)."""
    return Action.parse(f"{seat} {word}" + (f" {tile}" if tile else ""))
