"""The table manager: every table the server holds, and the one way to change them.

:class:`TableManager` is what the routes call, by table id (an unknown one is
:class:`TableError` 404).  It creates tables and changes their rules itself and hands the
rest to its parts, each with one job:

* :class:`zhuoji.server.rulebook.RuleBook` — the variants and rulesets, the rules in words;
* :class:`zhuoji.server.records.TableRecords` — reading the tables at start-up, committing
  each change before anyone hears of it, healing a table after a failed write;
* :class:`zhuoji.server.play.Play` — rounds, actions, bots, claim windows, the turn timer;
* :class:`zhuoji.server.seats.SeatTokens` — the seat tokens.

Clients of a seat (a WebSocket, a long poll) are registered here (:meth:`attach`) and
hear every committed change (:meth:`zhuoji.server.tables.Table.broadcast`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zhuoji.agents.base import agent_names
from zhuoji.server import store as S
from zhuoji.server.auth import Authority
from zhuoji.server.play import Play
from zhuoji.server.records import TableRecords
from zhuoji.server.rulebook import RuleBook
from zhuoji.server.seats import SeatTokens, new_seat_token
from zhuoji.server.tables import Listener, NextRound, SeatKind, Table, TableError, now


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


class TableManager:
    """Owns every table; the one place that changes them."""

    def __init__(self, store: S.Store, authority: Authority) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self.rules = RuleBook(store)
        self.records = TableRecords(store, self.rules, self.tables)
        self.play = Play(self.tables, self.records, self.rules)
        self.tokens = SeatTokens(store, authority)

    @property
    def actions(self) -> int:
        """Actions applied (human and bot), for /api/health."""
        return self.play.actions

    @property
    def broken(self) -> dict[str, str]:
        """Table id → why it could not be resumed at start."""
        return self.records.broken

    def get(self, table_id: str) -> Table:
        t = self.tables.get(table_id) if isinstance(table_id, str) else None
        if t is None:
            raise TableError(404, f"no table {table_id[:60]!r}")
        return t

    # -- start-up and shut-down --------------------------------------------------------------

    def load(self) -> dict[str, int]:
        """Read the stored variants and every table, and rebuild each table's latest round.
        A table that cannot be read or rebuilt is left out and listed in :attr:`broken`;
        the others are served."""
        self.rules.load()
        tables, live_rounds = self.records.load()
        for table in tables:
            self.tokens.register(table)
            self.tables[table.id] = table
        return {"tables": len(tables), "live_rounds": live_rounds, "broken": len(self.broken)}

    async def resume_all(self) -> None:
        """After start-up: let bots act and bot-only tables go on where they stopped."""
        await self.play.resume_all()

    async def close(self) -> None:
        await self.play.close()

    # -- tables ------------------------------------------------------------------------------

    async def create_table(self, spec: TableSpec) -> tuple[Table, dict[int, str]]:
        """Validate, persist, and return the table with the new seat tokens (shown once)."""
        variant = self.rules.pin(spec.variant)
        ruleset = await self.rules.checked_ruleset(variant, spec.overrides)
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
                tokens[i], digest_ = new_seat_token()
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
        self.tokens.register(table)
        async with table.lock:
            self.play.after_commit(table)
        return table, tokens

    async def change_rules(
        self, table_id: str, variant: str | None, overrides: dict[str, Any]
    ) -> S.RuleRow:
        """Record new rules (variant and the complete set of overrides) from the next round
        on; refused while a round is in play."""
        table = self.get(table_id)
        name = self.rules.pin(variant) if variant else table.rule.variant
        ruleset = await self.rules.checked_ruleset(name, overrides)
        async with table.lock:
            self.records.check_available(table)
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
            table.broadcast(self.rules)
            return rule

    async def issue_token(self, table_id: str, seat: int) -> str:
        """A new token for a human seat; the old one stops working."""
        return await self.tokens.issue(self.get(table_id), seat)

    async def revoke_token(self, table_id: str, seat: int) -> None:
        """Revoke a human seat's token: nobody holds the seat until a new one is issued."""
        await self.tokens.revoke(self.get(table_id), seat)

    async def seat_to_bot(self, table_id: str, seat: int, bot: str) -> None:
        """Give an empty human seat to a bot of the ladder (a friend who did not come): its
        token stops working, the bot plays it from now on, in the round in play too.
        Refused (409) while someone is at the seat, or for a bot seat."""
        table = self.get(table_id)
        if bot not in agent_names():
            raise TableError(422, f"unknown bot {bot!r}; known: {', '.join(agent_names())}")
        async with table.lock:
            self.records.check_available(table)
            st = table.seat_of(seat)
            if st.kind is not SeatKind.HUMAN:
                raise TableError(409, f"seat {seat} is a bot seat already")
            if st.presence() or st.listeners:
                raise TableError(409, f"seat {seat} is taken: someone is at it")
            name = f"{bot} bot {seat}"  # as a bot seat is named at creation
            await self.store.write(S.set_seat_bot(table.id, seat, bot, name))
            self.tokens.drop(st, "the seat was given to a bot")
            st.kind, st.bot, st.name, st.token_hash, st.ready = SeatKind.BOT, bot, name, None, False
            table.shared_parts.clear()
            await self.play.seat_became_bot(table)

    # -- play --------------------------------------------------------------------------------

    async def start_round(self, table_id: str) -> S.RoundRow:
        return await self.play.start_round(self.get(table_id))

    async def ready(self, table_id: str, seat: int) -> None:
        """A human seat is ready for the next round (tables whose players start rounds)."""
        await self.play.ready(self.get(table_id), seat)

    async def act(
        self, table_id: str, seat: int, text: str, expect_seq: int | None = None
    ) -> dict[str, Any]:
        """Apply a seat's action (``"discard 5m"`` or ``"2 discard 5m"``), let bots answer,
        commit, send every seat its view, and return the actor's view."""
        table = await self.act_only(table_id, seat, text, expect_seq)
        async with table.lock:
            return table.view(seat, self.rules)

    async def act_only(
        self, table_id: str, seat: int, text: str, expect_seq: int | None = None
    ) -> Table:
        """:meth:`act` without building the actor's view (a WebSocket is sent it anyway)."""
        table = self.get(table_id)
        await self.play.act(table, seat, text, expect_seq)
        return table

    # -- what seats see ----------------------------------------------------------------------

    async def view(self, table_id: str, seat: int) -> dict[str, Any]:
        table = self.get(table_id)
        async with table.lock:
            return table.view(seat, self.rules)

    async def attach(self, table_id: str, listener: Listener, initial: bool = True) -> None:
        """Register a client and send it the seat's current view (``initial``)."""
        table = self.get(table_id)
        async with table.lock:
            st = table.seats[listener.seat]
            view = table.view(listener.seat, self.rules)
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
            view = table.view(seat, self.rules)
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
