"""The optional turn timer of a table (``turn_seconds``, set when the table is created).

When a human seat's decision first appears (a turn, a claim, …) it gets a deadline
``turn_seconds`` later.  The deadline is in the views: in a turn, every seat sees the acting
seat's deadline (the turn is public); in a claim window only a seat that must answer sees
its own (who else may claim is hidden).  When the deadline passes and the decision is still
open, the server plays for the seat, as online tables do (托管): it passes a claim, discards
the tile just drawn (摸打), or — when neither is possible — takes the greedy bot's choice.
What a seat is shown comes from the round it is shown (:meth:`TurnClock.shown_to`): a seat
that a claim window hides sees the round before the discard, so it sees the deadline the
discarder had then, whether or not anybody can claim, and not the live round's (which
would tell it: no deadline while somebody decides on the discard, a new one when nobody
can).  The table's play waits for each deadline (:meth:`zhuoji.server.play.Play.after_commit`)
and sends the action through :meth:`zhuoji.server.play.Play.act` with the decision's
``seq``, so it is refused (and nothing happens) if the seat has acted in the meantime, and
it is logged like any other action: rounds replay exactly.  This module is the clock and
the choice (:class:`TurnClock`, :func:`timeout_action`); it knows nothing of tables.

Deadlines are kept in memory: after a restart every open decision gets a fresh one.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from zhuoji.actions import Action, ActionKind
from zhuoji.agents.base import make_agent
from zhuoji.engine import Phase, Round
from zhuoji.observation import Observation

#: the bounds a table's turn_seconds must keep (API validation uses them)
MIN_SECONDS = 3
MAX_SECONDS = 600
#: deadlines remembered by (seat, seq) for frozen views (a few turns' worth)
ISSUED_KEPT = 64


@dataclass
class TurnClock:
    """One table's deadlines: seat → (seq its decision appeared at, deadline in epoch
    seconds); ``issued`` keeps the recent ones by (seat, seq), answered or not, for the
    views of a round as it stood before (a claim window's frozen views)."""

    seconds: int | None = None
    deadlines: dict[int, tuple[int, float]] = field(default_factory=dict)
    tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    issued: dict[tuple[int, int], float] = field(default_factory=dict)

    def note(self, decisions: Mapping[int, tuple[int, object]], humans: AbstractSet[int]) -> None:
        """After the table noted its seats' decisions: new ones get a deadline, answered ones
        lose theirs."""
        if not self.seconds:
            self.deadlines.clear()
            return
        for s in list(self.deadlines):
            if s not in decisions or decisions[s][0] != self.deadlines[s][0]:
                del self.deadlines[s]
        now = time.time()
        for s, (seq, _legal) in decisions.items():
            if s in humans and s not in self.deadlines:
                self.deadlines[s] = (seq, now + self.seconds)
                if len(self.issued) >= ISSUED_KEPT:  # a frozen round is one turn old at most
                    del self.issued[next(iter(self.issued))]
                self.issued[(s, seq)] = now + self.seconds

    def shown_to(self, viewer: int, r: Round | None, live: bool = True) -> float | None:
        """The deadline ``viewer`` may see (epoch seconds) in the round ``r`` it is shown,
        or None.  ``live``: ``r`` is the table's current round; else it is the round as it
        stood before a claim window opened (always a turn), and the acting seat's deadline
        is the one it had then."""
        if r is None or r.is_terminal() or not self.seconds:
            return None
        if r.phase is Phase.TURN:
            acting = r.to_act()
            if live:
                found = [self.deadlines[s][1] for s in acting if s in self.deadlines]
            else:
                seq = r.public_seq()
                found = [self.issued[(s, seq)] for s in acting if (s, seq) in self.issued]
            return min(found) if found else None
        if not live:
            return None
        own = self.deadlines.get(viewer)
        return own[1] if own is not None else None


def timeout_action(r: Round, seat: int, bot_seed: int) -> Action:
    """What the server plays for a seat whose time ran out (see the module docstring)."""
    legal = r.legal_actions(seat)
    for a in legal:
        if a.kind is ActionKind.PASS:
            return a
    drawn = r.seats[seat].drawn
    for a in legal:
        if a.kind is ActionKind.DISCARD and not a.declare and a.tile == drawn:
            return a
    return make_agent("greedy", bot_seed).act(Observation(r, seat))
