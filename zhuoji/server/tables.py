"""A table in memory and what each seat of it sees.

A :class:`Table` holds its seats (human or bot), the rule changes made to it (each with
the round it applies from), one row per round played and the latest round itself.  It is
read freely and changed only by :class:`zhuoji.server.manager.TableManager` (under the
table's lock; see there how a change is applied, committed and sent).

A seat sees :meth:`zhuoji.engine.Round.observation` of itself, with one thing taken away:
in a claim window a seat learns only whether it must answer itself, not which other seats
have a claim (that would tell what they hold).  Once a round is over, its settlement and
every hand (摊牌) are shown to all.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

from zhuoji.actions import Action
from zhuoji.engine import Phase, Round
from zhuoji.errors import ZhuojiError
from zhuoji.ruleset import Ruleset
from zhuoji.server import store as S
from zhuoji.server import turn_timer
from zhuoji.server.client_view import (
    SharedExtras,
    client_extras,
    common_extras,
    live_view,
    quiet,
    round_view,
)
from zhuoji.server.rounds import normalized, rebuild_round


class SeatKind(StrEnum):
    HUMAN = "human"
    BOT = "bot"


class NextRound(StrEnum):
    """Who starts the next round: the operator (``POST …/rounds``), or the players, when
    every human seat has said it is ready (a table of bots only goes on by itself)."""

    OPERATOR = "operator"
    READY = "ready"


class TableError(ZhuojiError):
    """A request the table refuses; ``status`` is the HTTP status that fits.

    ``message`` is the English text (the API's ``detail``); ``zh`` the same in Chinese, for
    the pages that speak one language at a time (the response then carries
    ``words: {zh, en}``, issue 27).  A refusal without ``zh`` passes on another part's
    English (the engine's, the variant loader's), which the pages do not show in zh."""

    def __init__(self, status: int, message: str, zh: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.zh = zh


class Listener(Protocol):
    """A connected client of one seat (a WebSocket, or a long poll waiting for the next
    view); ``push`` must not block."""

    seat: int

    def push(self, message: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection after what is queued (must not block)."""


#: the claim window of a table where two or more people sit, unless the operator sets one
#: (``claim_window_ms``): every discard and kong is followed by this pause whether or not
#: anybody may claim, so no person learns from the others' timing that somebody holds a
#: pair of the tile (docs/server.md, *What a seat sees*); long enough for a person to see
#: the tile and press 碰 or 胡
DEFAULT_CLAIM_WINDOW_MS = 3000


def default_claim_window(kinds: Iterable[SeatKind]) -> int:
    """The claim window a table takes when the operator sets none: the fixed-length one
    where two or more people sit (one could read the other's pauses), else 0 (bots answer
    at once and learn nothing from timing)."""
    people = sum(1 for k in kinds if k is SeatKind.HUMAN)
    return DEFAULT_CLAIM_WINDOW_MS if people >= 2 else 0


#: a seat playing over HTTP counts as connected for this long after its last request (a long
#: poll waits at most 30 s; the rest is the time a person may take over a decision)
PRESENCE_SECONDS = 120.0


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class Seat:
    seat: int
    kind: SeatKind
    bot: str | None
    name: str
    token_hash: str | None
    listeners: set[Listener] = field(default_factory=set)
    ready: bool = False
    shown: dict[str, Any] | None = None  # the last view pushed to this seat's listeners
    http_seen: float = -PRESENCE_SECONDS  # time.monotonic() of its last seat-token request
    sockets: int = 0  # WebSockets of this seat open (admitted, not yet closed)
    polls: int = 0  # long polls of this seat waiting

    def presence(self) -> int:
        """How many clients the listing says the seat has: its WebSockets, else 1 if it
        made a seat-token request over HTTP in the last :data:`PRESENCE_SECONDS`.  Never
        whether a long poll is open now: a seat's poll ends when its view changes, so the
        seat without one would be the seat that is deciding (issue 26)."""
        if self.sockets:
            return self.sockets
        return 1 if time.monotonic() - self.http_seen < PRESENCE_SECONDS else 0


@dataclass
class Window:
    """A claim or rob window as the table shows it (see :meth:`Table.view`).

    ``opener_index`` is the log index of the action that opened it (a discard, or a kong
    that may be robbed); ``knows`` the seats that see it: those with an option in it and,
    without a fixed length, the opener.  Every other seat sees the round as it stood
    before that action, as it would had nobody been able to answer.  With a fixed length
    (``deadline`` set) every discard and kong opens one, answers are held until the
    deadline (``held``), and nobody but the seats with an option sees anything change
    before it.
    """

    opener: int
    opener_index: int
    knows: frozenset[int]
    deadline: float | None = None
    held: dict[int, Action] = field(default_factory=dict)
    frozen: dict[int, dict[str, Any]] = field(default_factory=dict)
    before: Round | None = None


def _scores(rounds: Sequence[S.RoundRow], players: int) -> list[int]:
    """Per-seat sums of the totals of ``rounds``."""
    out = [0] * players
    for r in rounds:
        for s, t in enumerate(r.totals or ()):
            out[s] = out[s] + t
    return out


class Table:
    """One table in memory.  Read it freely; change it only through the manager."""

    def __init__(self, row: S.TableRow) -> None:
        self.id = row.id
        self.name = row.name
        self.created_at = row.created_at
        self.seed = row.seed
        self.rounds_total = row.rounds_total
        self.next_round = NextRound(row.next_round)
        self.bot_delay_ms = row.bot_delay_ms
        self.claim_window_ms = row.claim_window_ms
        self.clock = turn_timer.TurnClock(row.turn_seconds)
        self.seats = [
            Seat(s.seat, SeatKind(s.kind), s.bot, s.name, s.token_hash) for s in row.seats
        ]
        #: the seats people hold (a seat's kind is set when the table is made)
        self.human_seats = frozenset(s.seat for s in self.seats if s.kind is SeatKind.HUMAN)
        self.rules: list[S.RuleRow] = list(row.rules)
        self.rounds: list[S.RoundRow] = list(row.rounds)
        self.current: Round | None = None  # the latest round, live or over
        self.persisted = 0  # events of ``current`` in the store
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.window: Window | None = None
        self.window_closed = asyncio.Event()
        self.shared_extras = SharedExtras()  # what every seat's view of a state shares
        #: before_end → (what it was built from, the table facts every view shows alike)
        self.shared_parts: dict[bool, tuple[tuple[Any, ...], dict[str, Any]]] = {}
        #: seat → (seq at which its current choice was first shown, that choice's actions)
        self.decisions: dict[int, tuple[int, tuple[Action, ...]]] = {}

    def note_decisions(self) -> None:
        """Remember when each seat's current choice appeared: an action answering any view
        since then is current (two seats answering one discard both are), older ones are stale."""
        r = self.current
        seq = r.public_seq() if r is not None else 0
        for s in range(self.players):
            legal = tuple(r.legal_actions(s)) if r is not None else ()
            if not legal:
                self.decisions.pop(s, None)
            elif s not in self.decisions or self.decisions[s][1] != legal:
                self.decisions[s] = (seq, legal)
        self.clock.note(self.decisions, self.human_seats)

    @property
    def rule(self) -> S.RuleRow:
        """The rules the next round will use."""
        return self.rules[-1]

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def live(self) -> bool:
        return self.current is not None and not self.current.is_terminal()

    @property
    def round_number(self) -> int | None:
        return self.rounds[-1].number if self.rounds else None

    @property
    def match_over(self) -> bool:
        return len(self.rounds) >= self.rounds_total and not self.live

    @property
    def public_phase(self) -> str | None:
        """The phase everyone may see: a window shows as the turn that opened it."""
        r = self.current
        if r is None:
            return None
        if self.window is not None or r.phase in (Phase.CLAIM, Phase.ROB):
            return Phase.TURN.value
        return r.phase.value

    def scores(self) -> list[int]:
        """Match totals over the rounds finished so far."""
        return _scores(self.rounds, self.players)

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.kind is SeatKind.HUMAN]

    def seat_of(self, seat: int) -> Seat:
        """Seat number ``seat`` (TableError 404 if the table has no such seat)."""
        if not 0 <= seat < self.players:
            raise TableError(
                404,
                f"table {self.id} has no seat {seat} (seats 0-{self.players - 1})",
                zh=f"牌桌 {self.id} 没有座位 {seat}（座位 0-{self.players - 1}）",
            )
        return self.seats[seat]

    def rule_for(self, number: int) -> S.RuleRow:
        """The rules in force for round ``number``: the last change applying from it or before."""
        return [r for r in self.rules if r.from_round <= number][-1]

    # -- windows -----------------------------------------------------------------------------

    def open_window(self, opener_index: int, deadline: float | None) -> None:
        """Start showing a window opened by the action at ``opener_index``."""
        r = self.current
        assert r is not None
        opener = int(r.log[opener_index]["action"].split()[0])
        options = frozenset(r.pending) if r.phase in (Phase.CLAIM, Phase.ROB) else frozenset[int]()
        knows = options if deadline is not None else options | {opener}
        self.window = Window(opener, opener_index, knows, deadline)
        self.window_closed = asyncio.Event()

    def sync_window(self) -> None:
        """After a change: open or close the window a variable-length claim window shows
        (a fixed-length one is opened and closed by the manager)."""
        r = self.current
        w = self.window
        if w is not None and w.deadline is not None:
            return
        in_window = r is not None and r.phase in (Phase.CLAIM, Phase.ROB)
        if in_window and r is not None:
            index = len(r.log) - 1 - len(r.responses)
            if w is None or w.opener_index != index:
                self.open_window(index, None)
        elif w is not None:
            self.close_window()

    def close_window(self) -> None:
        self.window = None
        self.window_closed.set()

    def hidden(self, seat: int) -> bool:
        """True if ``seat`` sees the round as it stood before the window opened."""
        w = self.window
        return w is not None and seat not in w.knows

    def _frozen(self, seat: int, ruleset: Ruleset) -> dict[str, Any]:
        """``seat``'s view before the window's opening action (rebuilt from the log)."""
        w = self.window
        assert w is not None and self.current is not None
        found = w.frozen.get(seat)
        if found is None:
            if w.before is None:
                events = [normalized(e) for e in self.current.log[: w.opener_index]]
                w.before = rebuild_round(ruleset, events, f"table {self.id}")
            found = round_view(w.before, seat)
            if seat == w.opener:  # it has acted: it waits like everyone else
                found = quiet(found)
            w.frozen[seat] = found
        return found

    # -- what a seat sees ------------------------------------------------------------------

    def _shared_part(self, rules: RulesInfo, before_end: bool = False) -> dict[str, Any]:
        """The table facts every seat's view shows alike (names, scores, match, ready flags,
        rules), built again only when one of them changes: a round starts or ends, a seat
        says it is ready, the rules change (a reload after a failed write forgets it:
        :meth:`zhuoji.server.records.TableRecords.reload`).

        ``before_end``: as a seat a fixed-length window hides sees them while the round's
        last discard has ended it: the round still in play, its totals not yet counted (the
        end would tell it that nobody could claim that discard)."""
        last = self.rounds[-1] if self.rounds else None
        live = self.live or before_end
        key = (
            len(self.rounds), last.status if last else None, live, len(self.rules),
            [s.ready for s in self.seats], before_end,
        )  # fmt: skip
        cached = self.shared_parts.get(before_end)
        if cached is not None and cached[0] == key:
            return cached[1]
        number = self.round_number
        rule = self.rule_for(number) if number else self.rule
        counted = self.rounds[:-1] if before_end else self.rounds
        part: dict[str, Any] = {
            "table": self.id,
            "table_name": self.name,
            "round": number,
            "names": [s.name for s in self.seats],
            "kinds": [s.kind.value for s in self.seats],
            "scores": _scores(counted, self.players),
            "match": {
                "rounds_played": sum(1 for x in counted if x.status == "ended"),
                "rounds_total": self.rounds_total,
                "over": len(self.rounds) >= self.rounds_total and not live,
                "next_round": self.next_round.value,
            },
            "ready": [s.ready for s in self.seats],
            "rules": rules.describe(rule.variant, rule.overrides),
            "claim_window_ms": self.claim_window_ms,
        }
        self.shared_parts[before_end] = (key, part)
        return part

    def view(self, seat: int, rules: RulesInfo) -> dict[str, Any]:
        """Everything ``seat`` may see now (as committed: call it under the table's lock).

        During a claim or rob window a seat that has no option in it sees exactly what it
        would see had nobody been able to answer: the round before the opening action, and
        the same ``seq`` (answers are not counted, :meth:`Round.public_seq`)."""
        return self.views((seat,), rules)[0]

    def views(self, seats: Iterable[int], rules: RulesInfo) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``seats``; what they have alike (the table facts, the
        round's shared extras, the settlement) is looked up once for all of them."""
        r = self.current
        shared_part = self._shared_part(rules)
        may_ready = self.next_round is NextRound.READY and not self.live and not self.match_over
        common, shared = common_extras(self, r)
        w = self.window
        settlement = self.rounds[-1].settlement if r is not None and r.is_terminal() else None
        out_views = []
        for seat in seats:
            st = self.seats[seat]
            if w is not None and seat not in w.knows and r is not None and r.is_terminal():
                # the window's discard ended the round: it is still in play for this seat
                out = {**self._shared_part(rules, before_end=True), "seat": seat}
                out["can_ready"] = False
            else:
                out = {
                    **shared_part,
                    "seat": seat,
                    "can_ready": may_ready and st.kind is SeatKind.HUMAN and not st.ready,
                }
            if r is None or shared is None:
                out.update(
                    seq=0, phase="waiting", to_act=[], legal=[], legal_actions=[], hand="",
                    hand_names="", result=None, settlement=None,
                )  # fmt: skip
                out.update(common)
            elif w is not None and seat not in w.knows:
                out.update(self._frozen(seat, r.ruleset))
                out["settlement"] = None
                out.update(client_extras(self, seat, out, w.before))  # from what it saw, too
            else:
                held = w is not None and seat in w.held
                out = live_view(self, seat, out, r, settlement, common, shared, held)
            out_views.append(out)
        return out_views

    def broadcast(self, rules: RulesInfo) -> None:
        """Send each connected seat its view if it changed (a seat that sees nothing new
        gets nothing, so a window it may not see does not show as traffic)."""
        seen = [
            s for s in self.seats
            if s.listeners and not (s.shown is not None and self.hidden(s.seat))
        ]  # fmt: skip
        if not seen:
            return
        for s, view in zip(seen, self.views([s.seat for s in seen], rules), strict=True):
            shown = s.shown
            # a new seq is a new view (the common case): no walk through two whole views
            if shown is not None and view["seq"] == shown.get("seq") and view == shown:
                continue
            s.shown = view
            msg = {"type": "state", "view": view}
            for listener in list(s.listeners):
                listener.push(msg)


class RulesInfo(Protocol):
    """What a view says of the rules (the manager's variant library)."""

    def describe(self, variant: str, overrides: Mapping[str, Any]) -> dict[str, Any]: ...
