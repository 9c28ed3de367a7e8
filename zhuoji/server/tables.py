"""Tables: rounds in play, seats, rule history and match scores, persisted event by event.

A :class:`Table` holds its seats (human or bot), the rule changes made to it (each with
the round it applies from), one row per round played and the latest round itself.  All
changes go through :class:`TableManager`, which holds the table's lock while it

1. checks and applies the change (the engine refuses illegal actions and changes nothing),
2. lets the table's bots answer until a human must act (or the round ends),
3. commits the new events (and round rows) to the store, and only then
4. sends every connected seat its new view.

Nothing is sent before it is committed, so after a crash every client's last view is in
the database; a live round is rebuilt by re-applying its logged actions
(:func:`rebuild_round`), and it goes on exactly where it stopped — including the random
generator, because rounds are built so that their first event determines everything
(:func:`new_round`).

A seat sees :meth:`zhuoji.engine.Round.observation` of itself, with one thing taken away:
in a claim window a seat learns only whether it must answer itself, not which other seats
have a claim (that would tell what they hold).  Once a round is over, its settlement and
every hand (摊牌) are shown to all.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind
from zhuoji.actions import make as make_action
from zhuoji.agents.base import agent_names, make_agent
from zhuoji.engine import Phase, Round
from zhuoji.errors import IllegalActionError, VariantError, ZhuojiError
from zhuoji.match import round_seed, today_weekday
from zhuoji.observation import Observation
from zhuoji.report import describe_end, settlement_json
from zhuoji.ruleset import Ruleset
from zhuoji.server import store as S
from zhuoji.server import turn_timer
from zhuoji.server.auth import SEAT_PREFIX, Authority, new_token, token_hash
from zhuoji.server.client_view import SharedExtras, client_extras, common_extras, seat_extras
from zhuoji.server.variants import StoredVariant, VariantLibrary, digest, in_words
from zhuoji.variants_cmd import diff

log = logging.getLogger("zhuoji.server")


class SeatKind(StrEnum):
    HUMAN = "human"
    BOT = "bot"


class NextRound(StrEnum):
    """Who starts the next round: the operator (``POST …/rounds``), or the players, when
    every human seat has said it is ready (a table of bots only goes on by itself)."""

    OPERATOR = "operator"
    READY = "ready"


class TableError(ZhuojiError):
    """A request the table refuses; ``status`` is the HTTP status that fits."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Listener(Protocol):
    """A connected client of one seat (a WebSocket); ``push`` must not block."""

    seat: int

    def push(self, message: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection after what is queued (must not block)."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# ---------------------------------------------------------------------------------------
# rounds that rebuild exactly from their log
# ---------------------------------------------------------------------------------------


def new_round(
    ruleset: Ruleset, seed: int, dealer: int | None, streak: int, round_wind: int, weekday: int = 1
) -> Round:
    """A round whose ``round`` event determines it completely.

    The engine picks the first dealer and breaks the wall with the seeded generator; the
    round actually played is then built from that wall and dealer with the same seed, so
    :func:`rebuild_round` constructs the very same object (same generator state, hence the
    same later dice) from the logged ``round`` event alone.
    """
    probe = Round(
        ruleset, seed=seed, dealer=dealer, streak=streak, round_wind=round_wind, weekday=weekday
    )
    head = probe.log[0]
    return Round(
        ruleset,
        seed=seed,
        wall=head["wall"],
        dealer=head["dealer"],
        streak=streak,
        round_wind=round_wind,
        weekday=weekday,
    )


def _norm(event: Mapping[str, Any]) -> Any:
    return json.loads(S.dumps(event))


def rebuild_round(ruleset: Ruleset, events: list[dict[str, Any]], label: str = "round") -> Round:
    """The round as it stood after ``events`` (a prefix of a log written by a round made
    with :func:`new_round`): every action is re-applied through the engine's checks and
    every event the engine writes must equal the stored one."""
    if not events or events[0].get("type") != "round":
        raise S.StoreError(f"{label}: the log does not start with a round event")
    head = events[0]
    try:
        r = Round(
            ruleset,
            seed=head.get("seed"),
            wall=head["wall"],
            dealer=head["dealer"],
            streak=head["streak"],
            round_wind=head.get("round_wind", 0),
            weekday=head.get("weekday", 1),
        )
        checked = 0
        for i, event in enumerate(events):
            if event.get("type") != "action":
                continue
            while checked < i:
                if checked >= len(r.log) or _norm(r.log[checked]) != events[checked]:
                    raise S.StoreError(f"{label}: event {checked} does not match the replay")
                checked += 1
            if len(r.log) != i:
                raise S.StoreError(
                    f"{label}: event {i} is an action where the replay has more events"
                )
            r.apply(Action.parse(event["action"]))
    except ZhuojiError as exc:
        if isinstance(exc, S.StoreError):
            raise
        raise S.StoreError(f"{label}: cannot replay: {exc}") from exc
    if len(r.log) != len(events) or any(_norm(a) != b for a, b in zip(r.log, events, strict=True)):
        raise S.StoreError(f"{label}: the stored events do not match the replay")
    return r


def settlement_of(r: Round) -> dict[str, Any]:
    """The itemized settlement with every hand shown (摊牌), for the end of a round."""
    assert r.end is not None and r.ledger is not None
    end = r.end
    out = settlement_json(r.ledger, end)
    out["result"]["reveal_name"] = T.name(end.reveal) if end.reveal is not None else None
    out["result"]["tile_name"] = T.name(end.win_tile) if end.win_tile is not None else None
    out["showdown"] = [
        {
            "seat": s,
            "concealed": T.format(sorted(seat.concealed)),
            "concealed_names": T.names(sorted(seat.concealed)),
            "melds": [f"{m.kind.value} {T.format(m.tiles)}" for m in seat.melds],
            "declared": seat.declared.value if seat.declared else None,
        }
        for s, seat in enumerate(end.seats)
    ]
    out["lines"] = describe_end(end)
    return out


# ---------------------------------------------------------------------------------------
# tables
# ---------------------------------------------------------------------------------------


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


def round_view(r: Round, seat: int) -> dict[str, Any]:
    """The round part of ``seat``'s view of ``r`` as the engine shows it, with names."""
    obs = r.observation(seat)  # in a window, its to_act names only this seat
    obs["seq"] = r.public_seq()
    own = r.seats[seat]
    obs["hand_names"] = _hand_names(obs["hand"], own.hand)
    obs["drawn_name"] = _NAMES[own.drawn] if obs["drawn"] else None
    obs["legal"] = [_menu_entry(a) for a in r.legal_actions(seat)]
    return obs


_NAMES = [T.name(k) for k in range(T.NUM_KINDS)]


#: kind → copies → that many of its name, spaced ("九筒 九筒")
_NAME_RUNS = [[" ".join([name] * n) for n in range(T.COPIES + 1)] for name in _NAMES]
_HAND_NAMES: dict[str, str] = {}  # a hand's notation → its names (bounded: see below)


def _hand_names(notation: str, hand: Sequence[int]) -> str:
    """The names of a hand's tiles (``hand`` a count array, ``notation`` its sorted
    notation, which the view already has) in sorted order; remembered by the notation, as a
    seat's hand stays the same from one of its turns to the next."""
    found = _HAND_NAMES.get(notation)
    if found is None:
        if len(_HAND_NAMES) >= 8192:
            _HAND_NAMES.clear()
        found = " ".join([_NAME_RUNS[k][n] for k, n in enumerate(hand) if n])
        _HAND_NAMES[notation] = found
    return found


@functools.lru_cache(maxsize=4096)
def _menu_entry(action: Action) -> dict[str, str]:
    """A legal action with its label (cached: a table has a few hundred distinct actions).
    Views share these dicts: they are serialized, never changed."""
    return {"action": str(action), "label": action.label()}


def _quiet(view: dict[str, Any]) -> dict[str, Any]:
    """A view whose seat may not act (it has acted, or answers are held)."""
    return {**view, "legal": [], "legal_actions": [], "to_act": []}


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
        self.shared_part: tuple[tuple[Any, ...], dict[str, Any]] | None = None
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
        self.clock.note(self.decisions, {s.seat for s in self.humans()})

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
        out = [0] * self.players
        for r in self.rounds:
            for s, t in enumerate(r.totals or ()):
                out[s] += t
        return out

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.kind is SeatKind.HUMAN]

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
                events = [_norm(e) for e in self.current.log[: w.opener_index]]
                w.before = rebuild_round(ruleset, events, f"table {self.id}")
            found = round_view(w.before, seat)
            if seat == w.opener:  # it has acted: it waits like everyone else
                found = _quiet(found)
            w.frozen[seat] = found
        return found

    # -- what a seat sees ------------------------------------------------------------------

    def _shared_part(self, rules: RulesInfo) -> dict[str, Any]:
        """The table facts every seat's view shows alike (names, scores, match, ready flags,
        rules), built again only when one of them changes: a round starts or ends, a seat
        says it is ready, the rules change (:meth:`TableManager._reload` forgets it)."""
        last = self.rounds[-1] if self.rounds else None
        key = (
            len(self.rounds), last.status if last else None, self.live, len(self.rules),
            [s.ready for s in self.seats],
        )  # fmt: skip
        if self.shared_part is not None and self.shared_part[0] == key:
            return self.shared_part[1]
        number = self.round_number
        rule = self.rule_for(number) if number else self.rule
        part: dict[str, Any] = {
            "table": self.id,
            "table_name": self.name,
            "round": number,
            "names": [s.name for s in self.seats],
            "kinds": [s.kind.value for s in self.seats],
            "scores": self.scores(),
            "match": {
                "rounds_played": sum(1 for x in self.rounds if x.status == "ended"),
                "rounds_total": self.rounds_total,
                "over": self.match_over,
                "next_round": self.next_round.value,
            },
            "ready": [s.ready for s in self.seats],
            "rules": rules.describe(rule.variant, rule.overrides),
            "claim_window_ms": self.claim_window_ms,
        }
        self.shared_part = (key, part)
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
                part = round_view(r, seat)
                if w is not None and seat in w.held:
                    part = _quiet(part)
                out.update(part)
                out["settlement"] = settlement
                out.update(common)
                out.update(seat_extras(self, seat, out, r, shared))
            out_views.append(out)
        return out_views


class RulesInfo(Protocol):
    """What a view says of the rules (the manager's variant library)."""

    def describe(self, variant: str, overrides: Mapping[str, Any]) -> dict[str, Any]: ...


# ---------------------------------------------------------------------------------------
# the manager
# ---------------------------------------------------------------------------------------


@dataclass
class SeatSpec:
    kind: SeatKind = SeatKind.HUMAN
    bot: str = "greedy"
    name: str | None = None


@dataclass
class TableSpec:
    name: str | None = None
    variant: str = "guiyang"
    overrides: dict[str, Any] = field(default_factory=dict)
    seats: list[SeatSpec] | None = None
    seed: int | None = None
    rounds: int | None = None
    next_round: NextRound = NextRound.OPERATOR
    bot_delay_ms: int = 0
    turn_seconds: int | None = None
    claim_window_ms: int = 0


def _bot_seed(table: Table, number: int, seq: int, seat: int) -> int:
    """Bots are re-made for every decision from the state, so a restart changes nothing."""
    return (table.seed * 1_000_003 + number * 7_919 + seq * 31 + seat) % (2**63)


#: turn actions after which a fixed-length window is shown (whether or not anyone may answer)
_OPENERS = frozenset({ActionKind.DISCARD, ActionKind.GANG_CONCEALED, ActionKind.GANG_ADDED})


class TableManager:
    """Owns every table; the one place that changes them."""

    def __init__(self, store: S.Store, authority: Authority) -> None:
        self.store = store
        self.auth = authority
        self.library = VariantLibrary()
        self.tables: dict[str, Table] = {}
        self.actions = 0  # actions applied (human and bot), for /api/health
        self.broken: dict[str, str] = {}  # table id → why it could not be resumed
        self._words: dict[tuple[str, str], list[str]] = {}

    # -- rules -------------------------------------------------------------------------------

    def ruleset(self, variant: str, overrides: Mapping[str, Any] | None) -> Ruleset:
        """Load (cached) and validate a pinned reference; a bad variant or override raises
        TableError 422 with the loader's own message."""
        try:
            return self.library.ruleset(variant, overrides)
        except VariantError as exc:
            raise TableError(422, str(exc)) from exc

    def pin(self, variant: str) -> str:
        try:
            return self.library.pin(variant)
        except VariantError as exc:
            raise TableError(422, str(exc)) from exc

    async def checked_ruleset(self, variant: str, overrides: Mapping[str, Any]) -> Ruleset:
        """:meth:`ruleset`, off the event loop (a long check must not stall other tables)."""
        return await asyncio.to_thread(self.ruleset, variant, overrides)

    def house_rules(self, variant: str, overrides: Mapping[str, Any]) -> list[str]:
        """The overrides in words, as ``zhuoji variants diff`` says them (cached)."""
        if not overrides:
            return []
        key = (variant, S.dumps(dict(overrides)))
        found = self._words.get(key)
        if found is None:
            try:
                rows = diff(self.ruleset(variant, None), self.ruleset(variant, overrides))
            except TableError:
                rows = []
            found = in_words(rows)
            if len(self._words) > 1024:
                self._words.clear()
            self._words[key] = found
        return found

    def title(self, variant: str) -> str:
        return self.library.title(variant)

    def describe(self, variant: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """The rules of a table or round for people: variant, title, house rules in words."""
        return {
            "variant": variant,
            "title": self.title(variant),
            "overrides": dict(overrides),
            "house_rules": self.house_rules(variant, overrides),
        }

    # -- lookup ------------------------------------------------------------------------------

    def get(self, table_id: str) -> Table:
        t = self.tables.get(table_id) if isinstance(table_id, str) else None
        if t is None:
            raise TableError(404, f"no table {table_id[:60]!r}")
        return t

    def seat_of(self, table: Table, seat: int) -> Seat:
        if not 0 <= seat < table.players:
            raise TableError(
                404, f"table {table.id} has no seat {seat} (seats 0-{table.players - 1})"
            )
        return table.seats[seat]

    # -- start-up ----------------------------------------------------------------------------

    def load(self) -> dict[str, int]:
        """Read the stored variants and every table, and rebuild each table's latest round.
        A table that cannot be read or rebuilt (damaged rows, a variant that no longer
        loads, a log that no longer replays) is left out and listed in :attr:`broken`; the
        others are served."""
        for v in self.store.load_variants():
            self.library.add(
                StoredVariant(
                    v["name"], v["version"], v["parent"], v["title"], v["source"], v["sha256"],
                    v["author"], v["created_at"], json.loads(v["differences"]),
                )
            )  # fmt: skip
        counts = {"tables": 0, "live_rounds": 0, "broken": 0}
        rows, broken = self.store.load()
        for table_id, why in broken.items():
            self.broken[table_id] = why
            log.error("table %s cannot be resumed and is not served: %s", table_id, why)
        for row in rows:
            table = Table(row)
            try:
                live = self._rebuild(table)
            except ZhuojiError as exc:
                self.broken[table.id] = str(exc)
                log.error("table %s cannot be resumed and is not served: %s", table.id, exc)
                continue
            counts["live_rounds"] += live
            for s in table.seats:
                if s.token_hash:
                    self.auth.add_seat(s.token_hash, table.id, s.seat)
            self.tables[table.id] = table
            counts["tables"] += 1
        counts["broken"] = len(self.broken)
        return counts

    def _rebuild(self, table: Table) -> int:
        """Load the table's rules and rebuild its latest round; 1 if that round is live."""
        if not table.rules:
            raise S.StoreError(f"table {table.id} has no rules")
        self.ruleset(table.rule.variant, table.rule.overrides)
        if not table.rounds:
            return 0
        last = table.rounds[-1]
        events = self.store.read_events(table.id, last.number)
        ruleset = self.ruleset(last.variant, last.overrides)
        table.current = rebuild_round(ruleset, events, f"table {table.id} round {last.number}")
        table.persisted = len(events)
        table.note_decisions()
        table.sync_window()
        if last.status != "live":
            return 0
        if table.current.is_terminal():  # cannot happen (one transaction); heal it
            self._close_row(table, last)
            self.store.write_now([S.end_round(table.id, last)])
            return 0
        return 1

    async def resume_all(self) -> None:
        """After start-up: let bots act and bot-only tables go on where they stopped."""
        for table in list(self.tables.values()):
            async with table.lock:
                if table.live and table.bot_delay_ms == 0 and self._run_bots_inline(table):
                    await self._commit(table)
                self._after_commit(table)

    async def close(self) -> None:
        for table in self.tables.values():
            for task in list(table.tasks):
                task.cancel()
            for task in list(table.tasks):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # -- variants ----------------------------------------------------------------------------

    async def store_variant(self, text: str, author: str) -> StoredVariant:
        """Check an upload (off the event loop) and store it as the name's next version."""
        try:
            name, version, parent, ruleset = await asyncio.to_thread(
                self.library.check_upload, text
            )
            rows = await asyncio.to_thread(self.library.differences, parent, ruleset)
        except VariantError as exc:
            raise VariantRefused(exc.problems) from exc
        if len(self.library.stored.get(name, [])) + 1 != version:
            raise TableError(409, f"variant {name}: another version was stored meanwhile")
        v = StoredVariant(
            name, version, parent, ruleset.variant.title, text, digest(text), author, now(), rows
        )
        await self.store.write(
            S.insert_variant(
                {
                    "name": v.name, "version": v.version, "parent": v.parent, "title": v.title,
                    "source": v.source, "sha256": v.sha256, "author": v.author,
                    "created_at": v.created_at, "differences": S.dumps(v.differences),
                }
            )
        )  # fmt: skip
        self.library.add(v)
        return v

    # -- tables ------------------------------------------------------------------------------

    async def create_table(self, spec: TableSpec) -> tuple[Table, dict[int, str]]:
        """Validate, persist, and return the table with the new seat tokens (shown once)."""
        variant = self.pin(spec.variant)
        ruleset = await self.checked_ruleset(variant, spec.overrides)
        players = ruleset.players
        seats = spec.seats if spec.seats is not None else [SeatSpec() for _ in range(players)]
        if len(seats) != players:
            raise TableError(
                422,
                f"variant {variant} is played by {players} players; {len(seats)} seats were given",
            )
        known = agent_names()
        for i, s in enumerate(seats):
            if s.kind is SeatKind.BOT and s.bot not in known:
                raise TableError(422, f"seat {i}: unknown bot {s.bot!r}; known: {', '.join(known)}")
        rounds = spec.rounds if spec.rounds is not None else ruleset.variant.match.rounds
        table_id = "t" + secrets.token_hex(5)
        tokens: dict[int, str] = {}
        seat_rows = []
        for i, s in enumerate(seats):
            digest_ = None
            if s.kind is SeatKind.HUMAN:
                tokens[i] = new_token(SEAT_PREFIX)
                digest_ = token_hash(tokens[i])
            default = f"{s.bot} bot {i}" if s.kind is SeatKind.BOT else f"player {i}"
            seat_rows.append(
                S.SeatRow(
                    i,
                    s.kind.value,
                    s.bot if s.kind is SeatKind.BOT else None,
                    s.name or default,
                    digest_,
                )
            )
        created = now()
        row = S.TableRow(
            id=table_id,
            name=spec.name or f"table {table_id}",
            created_at=created,
            seed=spec.seed if spec.seed is not None else secrets.randbits(62),
            rounds_total=rounds,
            next_round=spec.next_round.value,
            bot_delay_ms=spec.bot_delay_ms,
            claim_window_ms=spec.claim_window_ms,
            turn_seconds=spec.turn_seconds,
            seats=seat_rows,
            rules=[S.RuleRow(1, 1, variant, dict(spec.overrides), created)],
        )
        await self.store.write(S.insert_table(row), S.insert_rule_change(table_id, row.rules[0]))
        table = Table(row)
        self.tables[table_id] = table
        for st in table.seats:
            if st.token_hash:
                self.auth.add_seat(st.token_hash, table_id, st.seat)
        async with table.lock:
            self._after_commit(table)
        return table, tokens

    async def issue_token(self, table_id: str, seat: int) -> str:
        """A new token for a human seat; the old one stops working."""
        table = self.get(table_id)
        async with table.lock:
            st = self.seat_of(table, seat)
            if st.kind is not SeatKind.HUMAN:
                raise TableError(409, f"seat {seat} is a bot seat; it has no token")
            token = new_token(SEAT_PREFIX)
            digest_ = token_hash(token)
            await self.store.write(S.set_seat_token(table_id, seat, digest_))
            self._drop_token(st, "the seat token was replaced")
            st.token_hash = digest_
            self.auth.add_seat(digest_, table_id, seat)
            return token

    async def revoke_token(self, table_id: str, seat: int) -> None:
        """Revoke a human seat's token (persisted): nobody holds the seat until the
        operator issues a new token."""
        table = self.get(table_id)
        async with table.lock:
            st = self.seat_of(table, seat)
            if st.kind is not SeatKind.HUMAN:
                raise TableError(409, f"seat {seat} is a bot seat; it has no token")
            await self.store.write(S.clear_seat_token(table_id, seat))
            self._drop_token(st, "the seat token was revoked")
            st.token_hash = None

    def _drop_token(self, st: Seat, reason: str) -> None:
        if st.token_hash:
            self.auth.remove_seat(st.token_hash)
        for listener in list(st.listeners):  # connections made with the old token end
            listener.close(4401, reason)
            st.listeners.discard(listener)

    async def change_rules(
        self, table_id: str, variant: str | None, overrides: dict[str, Any]
    ) -> S.RuleRow:
        """Record new rules (variant and the complete set of overrides) from the next round
        on; refused while a round is in play."""
        table = self.get(table_id)
        name = self.pin(variant) if variant else table.rule.variant
        ruleset = await self.checked_ruleset(name, overrides)
        async with table.lock:
            if table.live:
                raise TableError(
                    409,
                    f"round {table.round_number} is in progress: rules change only between rounds",
                )
            if ruleset.players != table.players:
                raise TableError(
                    422,
                    f"variant {name} is played by {ruleset.players} players; this table has {table.players} seats",
                )
            rule = S.RuleRow(
                table.rule.seq + 1, len(table.rounds) + 1, name, dict(overrides), now()
            )
            await self.store.write(S.insert_rule_change(table.id, rule))
            table.rules.append(rule)
            self._broadcast(table)
            return rule

    async def start_round(self, table_id: str) -> S.RoundRow:
        table = self.get(table_id)
        async with table.lock:
            return await self._start_round(table)

    async def ready(self, table_id: str, seat: int) -> None:
        """A human seat is ready for the next round (tables whose players start rounds)."""
        table = self.get(table_id)
        async with table.lock:
            if table.next_round is not NextRound.READY:
                raise TableError(409, "the operator starts this table's rounds")
            if table.live:
                raise TableError(409, f"round {table.round_number} is still in progress")
            if table.match_over:
                raise TableError(409, f"the match is over ({table.rounds_total} rounds)")
            table.seats[seat].ready = True
            if all(s.ready for s in table.humans()):
                await self._start_round(table)
            else:
                self._broadcast(table)

    async def view(self, table_id: str, seat: int) -> dict[str, Any]:
        table = self.get(table_id)
        async with table.lock:
            return table.view(seat, self)

    async def act(
        self, table_id: str, seat: int, text: str, expect_seq: int | None = None
    ) -> dict[str, Any]:
        """Apply a seat's action (``"discard 5m"`` or ``"2 discard 5m"``), let bots answer,
        commit, send every seat its view, and return the actor's view."""
        table = await self.act_only(table_id, seat, text, expect_seq)
        async with table.lock:
            return table.view(seat, self)

    async def act_only(
        self, table_id: str, seat: int, text: str, expect_seq: int | None = None
    ) -> Table:
        """:meth:`act` without building the actor's view (a WebSocket is sent it anyway)."""
        table = self.get(table_id)
        action = parse_action(text, seat, table.players)
        async with table.lock:
            r = table.current
            if r is None or r.is_terminal():
                raise TableError(409, "no round is in progress")
            w = table.window
            if (
                not r.legal_actions(seat)
                or table.hidden(seat)
                or (w is not None and seat in w.held)
            ):
                # said here, not by the engine, whose message names the seats still to act
                # (in a claim window that would tell who holds what)
                raise TableError(
                    409,
                    f"action {action} refused: seat {seat} is not to act now "
                    f"(phase {table.public_phase})",
                )
            since = table.decisions.get(seat, (r.public_seq(), ()))[0]
            if expect_seq is not None and not since <= expect_seq <= r.public_seq():
                raise TableError(
                    409,
                    f"stale action: it answers seq {expect_seq}, but this seat's decision is the one "
                    f"shown at seq {since} (the round is at seq {r.public_seq()})",
                )
            if action not in r.legal_actions(seat):
                try:
                    r.apply(action)  # the engine's own message (it refuses, changing nothing)
                except IllegalActionError as exc:
                    raise TableError(409, str(exc)) from exc
            if w is not None and w.deadline is not None:
                w.held[seat] = action  # a fixed window: answers count at its end
                self._broadcast(table)
                return table
            index = len(r.log)
            opens = r.phase is Phase.TURN and action.kind in _OPENERS
            try:
                r.apply(action)
            except IllegalActionError as exc:
                raise TableError(409, str(exc)) from exc
            self.actions += 1
            if opens and table.claim_window_ms > 0:  # even the last discard: it may not tell
                self._open_fixed(table, index)
            self._run_bots_inline(table)
            await self._commit(table)
            return table

    # -- listeners ---------------------------------------------------------------------------

    async def attach(self, table_id: str, listener: Listener, initial: bool = True) -> None:
        """Register a client and send it the seat's current view (``initial``)."""
        table = self.get(table_id)
        async with table.lock:
            st = table.seats[listener.seat]
            view = table.view(listener.seat, self)
            if not st.listeners:
                st.shown = view  # what every listener of the seat has from now on
            st.listeners.add(listener)
            if initial:
                listener.push({"type": "state", "view": view})

    async def wait_view(
        self,
        table_id: str,
        seat: int,
        etag: Callable[[dict[str, Any]], str],
        changed_from: str | None,
        wait: float,
    ) -> dict[str, Any]:
        """The seat's view; if its ``etag`` is ``changed_from``, the next one (a long poll),
        or the same after ``wait`` seconds.  Checked and registered under the table's lock,
        so no change can slip between the two."""
        table = self.get(table_id)
        waiter = _OnePush(seat)
        async with table.lock:
            view = table.view(seat, self)
            if not changed_from or wait <= 0 or etag(view) != changed_from:
                return view
            st = table.seats[seat]
            if not st.listeners:
                st.shown = view
            st.listeners.add(waiter)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter.arrived.wait(), wait)
        finally:
            self.detach(table_id, waiter)
        if waiter.view is not None:
            return waiter.view
        return await self.view(table_id, seat)

    def detach(self, table_id: str, listener: Listener) -> None:
        table = self.tables.get(table_id)
        if table is not None:
            table.seats[listener.seat].listeners.discard(listener)

    # -- inside the lock ---------------------------------------------------------------------

    async def _start_round(self, table: Table) -> S.RoundRow:
        if table.live:
            raise TableError(409, f"round {table.round_number} is in progress")
        if table.match_over:
            raise TableError(
                409,
                f"the match is over: {table.rounds_total} of {table.rounds_total} rounds played",
            )
        number = len(table.rounds) + 1
        rule = table.rule_for(number)
        ruleset = self.ruleset(rule.variant, rule.overrides)
        prev = table.rounds[-1] if table.rounds else None
        dealer = prev.next_dealer if prev else None
        streak = (prev.next_streak or 0) if prev else 0
        changes = sum(
            1 for x in table.rounds if x.next_dealer is not None and x.next_dealer != x.dealer
        )
        wind = (changes // table.players) % 4
        seed = round_seed(table.seed, number - 1)
        r = new_round(ruleset, seed, dealer, streak, wind, weekday=today_weekday())
        row = S.RoundRow(
            number, "live", rule.variant, rule.overrides, seed, r.dealer, streak, wind, now()
        )
        table.rounds.append(row)
        table.current = r
        table.persisted = 0
        table.close_window()
        for s in table.seats:
            s.ready = False
        self._run_bots_inline(table)
        await self._commit(table, S.insert_round(table.id, row))
        return row

    def _open_fixed(self, table: Table, index: int) -> None:
        """A fixed-length window after the action at ``index``: nothing else moves, and
        nobody without an option sees anything, until its deadline."""
        loop = asyncio.get_running_loop()
        table.open_window(index, loop.time() + table.claim_window_ms / 1000)

    def _run_bots_inline(self, table: Table) -> bool:
        """Bots answer at once (tables without a bot delay); True if any acted."""
        if table.bot_delay_ms > 0:
            return False
        acted = False
        while table.window is None or table.window.deadline is None:
            if not self._bot_step(table):
                break
            acted = True
        return acted

    def _bot_step(self, table: Table) -> bool:
        """Every bot that must act now acts once; False if none had to.  With a fixed
        window the step stops after an action that opens one."""
        r = table.current
        if r is None or r.is_terminal():
            return False
        bots = [s for s in r.to_act() if table.seats[s].kind is SeatKind.BOT]
        for s in bots:
            if r.is_terminal():
                break
            number = table.round_number or 0
            agent = make_agent(
                table.seats[s].bot or "greedy", _bot_seed(table, number, len(r.log), s)
            )
            index = len(r.log)
            opens = r.phase is Phase.TURN
            try:
                action = agent.act(Observation(r, s))
                r.apply(action)
            except IllegalActionError:
                log.exception("table %s: bot at seat %d chose an illegal action", table.id, s)
                action = r.legal_actions(s)[0]
                r.apply(action)
            self.actions += 1
            if opens and action.kind in _OPENERS and table.claim_window_ms > 0:
                self._open_fixed(table, index)
                return True
        return bool(bots)

    async def _end_fixed(self, table: Table) -> None:
        """At a fixed window's deadline: the held answers, passes for the seats that did
        not answer, the bots' answers; then play goes on."""
        w = table.window
        r = table.current
        if w is None or w.deadline is None or r is None:
            return
        table.close_window()
        if r.phase in (Phase.CLAIM, Phase.ROB):
            for seat in sorted(r.pending):
                if r.phase not in (Phase.CLAIM, Phase.ROB) or seat not in r.to_act():
                    continue
                if table.seats[seat].kind is SeatKind.BOT:
                    continue
                action = w.held.get(seat) or make_action(seat, ActionKind.PASS)
                r.apply(action)
                self.actions += 1
        self._run_bots_inline(table)
        await self._commit(table)

    def _close_row(self, table: Table, row: S.RoundRow) -> None:
        r = table.current
        assert r is not None and r.ledger is not None
        row.status = "ended"
        row.ended_at = now()
        row.totals = r.ledger.totals()
        row.next_dealer = r.ledger.next_dealer
        row.next_streak = r.ledger.next_streak
        row.settlement = settlement_of(r)

    async def _commit(self, table: Table, *first: S.Op) -> None:
        """Persist the new events (and the round's end), then tell every seat."""
        r = table.current
        assert r is not None
        row = table.rounds[-1]
        events = r.log[table.persisted :]
        ops = [*first, S.append_events(table.id, row.number, table.persisted, events)]
        closed: S.RoundRow | None = None
        if r.is_terminal() and row.status == "live":
            closed = dataclasses.replace(row)
            self._close_row(table, closed)
            ops.append(S.end_round(table.id, closed))
        try:
            await self.store.write(*ops)
        except Exception as exc:
            log.exception("table %s: storing round %d failed; reloading it", table.id, row.number)
            await self._reload(table)
            raise TableError(
                503, f"the store failed ({exc.__class__.__name__}); nothing was changed"
            ) from exc
        table.persisted = len(r.log)
        if closed is not None:
            table.rounds[-1] = closed
        table.note_decisions()
        table.sync_window()
        self._broadcast(table)
        self._after_commit(table)

    async def _reload(self, table: Table) -> None:
        """Make the table what the store says it is (after a failed write)."""
        try:
            fresh = await asyncio.to_thread(self.store.load_table, table.id)
        except Exception:
            del self.tables[table.id]
            return
        table.rules = list(fresh.rules)
        table.rounds = list(fresh.rounds)
        table.shared_part = None
        table.current = None
        table.persisted = 0
        table.close_window()
        if table.rounds:
            last = table.rounds[-1]
            events = await asyncio.to_thread(self.store.read_events, table.id, last.number)
            table.current = rebuild_round(self.ruleset(last.variant, last.overrides), events)
            table.persisted = len(events)
        table.decisions.clear()
        table.note_decisions()
        table.sync_window()

    def _broadcast(self, table: Table) -> None:
        """Send each connected seat its view if it changed (a seat that sees nothing new
        gets nothing, so a window it may not see does not show as traffic)."""
        seen = [
            s for s in table.seats
            if s.listeners and not (s.shown is not None and table.hidden(s.seat))
        ]  # fmt: skip
        if not seen:
            return
        for s, view in zip(seen, table.views([s.seat for s in seen], self), strict=True):
            if view == s.shown:
                continue
            s.shown = view
            msg = {"type": "state", "view": view}
            for listener in list(s.listeners):
                listener.push(msg)

    def _after_commit(self, table: Table) -> None:
        """Schedule what goes on by itself: the turn timer's deadlines, slow bots, a fixed
        window's end, and bot-only tables' next round."""
        turn_timer.schedule(self, table)
        r = table.current
        w = table.window
        if w is not None and w.deadline is not None:
            if table.bot_task is None or table.bot_task.done():
                table.bot_task = self._spawn(table, self._fixed_loop(table))
            return
        if (
            table.bot_delay_ms > 0
            and r is not None
            and not r.is_terminal()
            and (table.bot_task is None or table.bot_task.done())
            and any(table.seats[s].kind is SeatKind.BOT for s in r.to_act())
        ):
            table.bot_task = self._spawn(table, self._bot_loop(table))
        if (
            table.next_round is NextRound.READY
            and not table.live
            and not table.match_over
            and all(s.ready for s in table.humans())
        ):
            self._spawn(table, self._auto_start(table))

    def _spawn(self, table: Table, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        table.tasks.add(task)
        task.add_done_callback(table.tasks.discard)
        return task

    async def _auto_start(self, table: Table) -> None:
        async with table.lock:
            if (
                table.next_round is NextRound.READY
                and not table.live
                and not table.match_over
                and all(s.ready for s in table.humans())
            ):
                try:
                    await self._start_round(table)
                except TableError:
                    log.exception("table %s: could not start the next round", table.id)

    async def _fixed_loop(self, table: Table) -> None:
        """Close fixed windows at their deadlines, one after another."""
        loop = asyncio.get_running_loop()
        while True:
            w = table.window
            if w is None or w.deadline is None:
                return
            await asyncio.sleep(max(0.0, w.deadline - loop.time()))
            async with table.lock:
                if table.window is not w:
                    continue
                try:
                    await self._end_fixed(table)
                except TableError:
                    return
            if table.bot_delay_ms > 0:
                table.bot_task = None
                async with table.lock:
                    self._after_commit(table)
                return

    async def _bot_loop(self, table: Table) -> None:
        while True:
            await asyncio.sleep(table.bot_delay_ms / 1000)
            async with table.lock:
                if table.window is not None and table.window.deadline is not None:
                    return
                if not self._bot_step(table):
                    return
                try:
                    await self._commit(table)
                except TableError:
                    return
                if not table.live:
                    return


class _OnePush:
    """A long-polling request waiting for its seat's next view: it keeps the latest one
    pushed (built by the broadcast under the table's lock; every later change pushes again
    while it waits, so the last one is the seat's view when it wakes)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.arrived = asyncio.Event()
        self.view: dict[str, Any] | None = None

    def push(self, message: dict[str, Any]) -> None:
        if message.get("type") == "state":
            self.view = message["view"]
        self.arrived.set()

    def close(self, code: int, reason: str) -> None:
        self.arrived.set()


class VariantRefused(TableError):
    """An upload the variant loader refused: ``problems`` are its ``LABEL:LINE: …`` lines."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(422, "\n".join(problems))
        self.problems = problems


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


__all__ = [
    "Listener",
    "NextRound",
    "SeatKind",
    "SeatSpec",
    "Table",
    "TableError",
    "TableManager",
    "TableSpec",
    "VariantRefused",
    "new_round",
    "parse_action",
    "rebuild_round",
    "round_view",
    "settlement_of",
]
