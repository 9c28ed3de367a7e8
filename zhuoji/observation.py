"""What one seat may see of a round: its own hand, every meld and discard, counts.

:class:`Observation` is a read-only view used by in-process bots (no copying on the hot
path); :meth:`Observation.to_dict` is the serializable form the terminal, the server and
logs use.  Neither exposes another seat's concealed tiles or the wall order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from zhuoji.actions import Action
from zhuoji.outcome import Meld, RoundEnd

if TYPE_CHECKING:
    from zhuoji.engine import Round
    from zhuoji.ruleset import Ruleset


class Observation:
    __slots__ = ("_round", "seat")

    def __init__(self, round_: Round, seat: int) -> None:
        self._round = round_
        self.seat = seat

    @property
    def ruleset(self) -> Ruleset:
        return self._round.ruleset

    @property
    def players(self) -> int:
        return self._round.players

    @property
    def phase(self) -> str:
        # a StrEnum's str() is its value, without the enum's (slow) ``value`` property
        return str(self._round.phase)

    @property
    def legal(self) -> Sequence[Action]:
        r = self._round
        if r.is_terminal() or self.seat in r.responses:  # (not phase.value: a Python call)
            return ()
        return r.pending.get(self.seat, ())

    @property
    def hand(self) -> tuple[int, ...]:
        """Own concealed tiles as 34 counts."""
        return tuple(self._round.seats[self.seat].hand)

    @property
    def drawn(self) -> int:
        return self._round.seats[self.seat].drawn

    @property
    def waits(self) -> frozenset[int]:
        """Own waits as of the last discard (the hand between turns)."""
        return self._round.seats[self.seat].waits

    def melds(self, seat: int) -> tuple[Meld, ...]:
        return tuple(self._round.seats[seat].melds)

    @property
    def discards(self) -> tuple[tuple[int, int, int | None], ...]:
        """(seat, tile, claimed_by) for every discard in table order."""
        return tuple((d.seat, d.tile, d.claimed_by) for d in self._round.discards)

    def seen_counts(self) -> list[int]:
        """Copies of each kind among own concealed tiles, every meld (``melds``) and the
        discards left on the table (a claimed discard is counted in its meld): what
        :class:`zhuoji.agents.analysis.TableView` counts as seen: the hand plus the table's
        counts, which the engine keeps as melds and discards change (``Round.table_seen``)."""
        r = self._round
        hand = r.seats[self.seat].hand
        table = r.table_seen
        return [hand[k] + table[k] for k in range(len(hand))]

    def live_counts(self, copies: list[int]) -> list[int]:
        """Per kind, the wall's ``copies`` less what :meth:`seen_counts` says this seat has
        seen, never below 0: the live counts a bot weighs improving tiles by (one pass)."""
        r = self._round
        hand = r.seats[self.seat].hand
        table = r.table_seen
        out = [0] * len(hand)
        for k in range(len(hand)):
            x = copies[k] - hand[k] - table[k]
            if x > 0:
                out[k] = x
        return out

    def discard_count(self, seat: int) -> int:
        """How many discards ``seat`` has made this round (claimed ones included)."""
        return self._round.seats[seat].discards

    def declared(self, seat: int) -> bool:
        return self._round.seats[seat].declared is not None

    def void_suit(self, seat: int) -> int | None:
        """定缺: the suit ``seat`` declared void (0 万, 1 条, 2 筒), or None: none declared
        yet, or another seat's choice while the 定缺 window is still open (all choose unseen)."""
        r = self._round
        void = r.seats[seat].void_suit
        if void >= 0:
            return void
        if seat == self.seat and seat in r.responses and r.phase == "dingque":
            return r.responses[seat].tile
        return None

    @property
    def exchange_given(self) -> tuple[int, ...]:
        """换三张: the tiles this seat picked to pass on (so far)."""
        return tuple(self._round.seats[self.seat].given)

    @property
    def exchange_direction(self) -> str | None:
        """换三张: next, previous or opposite once the tiles have been passed on."""
        return self._round.exchange_direction

    @property
    def exchange_received(self) -> tuple[int, ...]:
        """换三张: the tiles passed to this seat (empty until every seat has picked)."""
        return tuple(self._round.seats[self.seat].received)

    @property
    def reveals(self) -> list[int]:
        """Revealed tiles that make chickens now, in reveal order (Round.open_reveals)."""
        return self._round.open_reveals()

    @property
    def weekday(self) -> int:
        """The round's day (星期鸡): 1 Monday … 7 Sunday."""
        return self._round.weekday

    @property
    def round_end(self) -> RoundEnd | None:
        """What the round left behind, once it is over (every hand is shown then)."""
        return self._round.end

    def concealed_count(self, seat: int) -> int:
        return sum(self._round.seats[seat].hand)

    @property
    def wall_left(self) -> int:
        return self._round.wall.live()

    @property
    def wild(self) -> int | None:
        return self._round.wild

    @property
    def wild_indicator(self) -> int | None:
        """The revealed 宝牌 indicator (六安)."""
        return self._round.wild_indicator

    @property
    def streak(self) -> int:
        """The dealer's 连庄 count."""
        return self._round.streak

    @property
    def claim_source(self) -> int:
        """Who discarded the tile being answered, or who is adding the kong that may be
        robbed; -1 outside a claim window."""
        r = self._round
        if r.phase == "claim":  # (a StrEnum member equals its value)
            return r.discards[-1].seat
        if r.phase == "rob":
            return r.rob_seat
        return -1

    @property
    def claim_tile(self) -> int:
        """The discard (or kong tile) being answered, -1 outside a claim window."""
        return self._round.claim_tile if self._round.phase in ("claim", "rob") else -1

    @property
    def dealer(self) -> int:
        return self._round.dealer

    def to_dict(self) -> dict[str, Any]:
        return self._round.observation(self.seat)
