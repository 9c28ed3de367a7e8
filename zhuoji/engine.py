"""The round engine: one generic state machine that plays a round under any variant.

OpenSpiel-style API: :meth:`Round.to_act` names the seats that must act now (several in a
claim window), :meth:`Round.legal_actions` lists a seat's actions (sorted, stable),
:meth:`Round.apply` changes the state or raises :class:`IllegalActionError` leaving it
untouched, :meth:`Round.observation` is what one seat may see.  Randomness (shuffle, dice)
comes from a seeded generator or an explicit wall and dice list, so a seed (or a wall) and
an action list reproduce a round exactly; :attr:`Round.log` records it (see
``docs/event-log.md``).

Phases: ``exchange`` and ``dingque`` at the start where the variant has them (换三张: every
seat picks the tiles it passes on; 定缺: every seat declares a void suit; both answered by
all seats at once, unseen by the others), ``turn`` (a seat holding 14 − 3k tiles discards,
kongs, declares or wins), ``claim`` (other seats answer a discard: win > kong/pung > chow),
``rob`` (others may rob an added kong), ``end``.

A :class:`Round` is its state (:class:`zhuoji.round_state.RoundState`: seats, wall, discards,
log) and the phases that change it, a module each with its legal actions and its apply:
:mod:`zhuoji.round_deal` (the deal, 换三张, 定缺), :mod:`zhuoji.round_turn`,
:mod:`zhuoji.round_claims` (claim and rob windows), :mod:`zhuoji.round_finish` (the end and
its settlement).  This class checks each action and hands it to its phase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zhuoji.actions import Action, ActionKind
from zhuoji.errors import IllegalActionError
from zhuoji.observation import Observation, seat_view
from zhuoji.round_claims import (
    note_answer,
    offer_discard,
    offer_kong,
    resolve_claims,
    resolve_rob,
)
from zhuoji.round_deal import deal, pick_exchange, resolve_dingque
from zhuoji.round_state import Phase, RoundState, SeatState
from zhuoji.round_turn import declare_kong, discard, win_on_own_draw
from zhuoji.ruleset import Ruleset
from zhuoji.wall import Wall

__all__ = ["Phase", "Round", "SeatState", "Wall"]


class Round(RoundState):
    """One round.  Build with a ``seed`` (shuffled wall, dice) or a stacked ``wall`` (draw
    order) and optional ``dice`` (pairs consumed in order)."""

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        seed: int | None = None,
        wall: Sequence[int] | str | None = None,
        dealer: int | None = None,
        streak: int = 0,
        dice: Sequence[tuple[int, int]] | None = None,
        round_wind: int = 0,
        weekday: int = 1,
    ) -> None:
        super().__init__(
            ruleset, seed=seed, dice=dice, streak=streak, round_wind=round_wind, weekday=weekday
        )
        deal(self, wall, dealer)

    def apply(self, action: Action) -> None:
        """Apply one action; an illegal one raises and changes nothing."""
        if type(action) is not Action:
            raise IllegalActionError(
                f"not an action: {action!r} (use Action.parse or legal_actions)"
            )
        seat, kind, tile, declare = action
        phase = self.phase
        legal = self.pending.get(seat)
        if phase is Phase.END:
            raise IllegalActionError(f"action {action} refused: the round is over")
        if legal is None or seat in self.responses:
            raise IllegalActionError(
                f"action {action} refused: seat {seat} is not to act now (phase {phase.value})"
            )
        if not _listed(action, legal):
            shown = ", ".join(str(a) for a in legal[:12]) + (" …" if len(legal) > 12 else "")
            raise IllegalActionError(
                f"action {action} is not legal for seat {seat} in phase {phase.value}; legal: {shown}"
            )
        self.record(action)
        self.actions += 1
        if phase is Phase.TURN:
            if kind is ActionKind.DISCARD:
                discard(self, seat, tile, declare)
                offer_discard(self, seat, tile)
            elif kind is ActionKind.HU:
                win_on_own_draw(self, seat, tile)
            else:
                offer_kong(self, seat, tile, declare_kong(self, seat, kind, tile))
            return
        if phase is Phase.EXCHANGE:
            pick_exchange(self, action)
            return
        # a window (claim, rob, 定缺): every seat answers, then the answers are resolved
        answered = self.responses
        answered[seat] = action
        self.answers += 1
        note_answer(self, action)
        if len(answered) == len(self.pending):
            if phase is Phase.CLAIM:
                resolve_claims(self)
            elif phase is Phase.ROB:
                resolve_rob(self)
            else:
                resolve_dingque(self)
            self.answers -= self._answers_taken(phase, answered)

    def _answers_taken(self, phase: Phase, answered: dict[int, Action]) -> int:
        """How many of a resolved window's answers became public (claimed or won)."""
        if self.end is not None:
            winners = {w.seat for w in self.end.wins}
            return sum(1 for s in answered if s in winners)
        if phase is Phase.CLAIM and self.discards[-1].claimed_by is not None:
            return 1
        return 0

    def observe(self, seat: int) -> Observation:
        return Observation(self, seat)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, every meld and discard, counts; never another
        seat's concealed tiles or the wall order (:func:`zhuoji.observation.seat_view`)."""
        return seat_view(self, seat)


def _listed(action: Action, legal: Sequence[Action]) -> bool:
    """``action in legal``, by identity first: an agent answering with an element of
    ``legal`` (the common case) costs no tuple comparisons."""
    for a in legal:
        if a is action:
            return True
    return action in legal
