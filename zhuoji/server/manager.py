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

In a scale-out (``ownership``: several processes on one PostgreSQL store) the manager
holds only the tables this process leases: it takes the free ones at start, keeps their
leases, takes over those whose lease expires (:meth:`adopt`), and lets go at once of any
another process has taken (:meth:`release`; :mod:`zhuoji.server.leases`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zhuoji.agents.base import agent_names
from zhuoji.server import store as S
from zhuoji.server.auth import Authority
from zhuoji.server.leases import Ownership
from zhuoji.server.play import Play
from zhuoji.server.records import TableRecords
from zhuoji.server.rulebook import RuleBook
from zhuoji.server.seats import SeatTokens, new_seat_token
from zhuoji.server.tables import Listener, NextRound, SeatKind, Table, TableError, now

log = logging.getLogger("zhuoji.server")

#: the close code of a client whose table moved to another process (reconnect: routed anew)
MOVED_CODE = 1012


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

    def __init__(
        self, store: S.Store, authority: Authority, ownership: Ownership | None = None
    ) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self.rules = RuleBook(store)
        self.records = TableRecords(store, self.rules, self.tables)
        self.play = Play(self.tables, self.records, self.rules)
        self.tokens = SeatTokens(store, authority)
        self.ownership = ownership
        self._adopting: dict[str, asyncio.Future[bool]] = {}
        self._leases: asyncio.Task[None] | None = None
        if ownership is not None:
            store.guard = ownership.guard
            self.records.on_lease_lost = lambda table: self.release(table.id)

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
        if t is None and self.ownership is not None and table_id in self._adopting:
            raise TableError(
                503,
                f"table {table_id[:60]!r} is being taken over; ask again",
                zh=f"牌桌 {table_id[:60]!r} 正在交接，请稍后再试",
            )
        if t is None:
            raise TableError(404, f"no table {table_id[:60]!r}", zh=f"没有牌桌 {table_id[:60]!r}")
        return t

    # -- start-up and shut-down --------------------------------------------------------------

    def load(self) -> dict[str, int]:
        """Read the stored variants and every table, and rebuild each table's latest round.
        A table that cannot be read or rebuilt is left out and listed in :attr:`broken`;
        the others are served."""
        self.rules.load()
        if self.ownership is not None:
            return self._load_leased()
        tables, live_rounds = self.records.load()
        for table in tables:
            self.tokens.register(table)
            self.tables[table.id] = table
        return {"tables": len(tables), "live_rounds": live_rounds, "broken": len(self.broken)}

    def _load_leased(self) -> dict[str, int]:
        """A scale-out's start: take every table nobody holds and load those."""
        assert self.ownership is not None
        live = 0
        for table_id in self.ownership.claimable():
            if self.ownership.claim(table_id) is None:
                continue
            try:
                table = self._load_one(table_id)
            except Exception as exc:
                self.records.broken[table_id] = _why(exc)
                log.error("table %s is quarantined: %s", table_id, _why(exc))
                continue
            self.tokens.register(table)
            self.tables[table_id] = table
            live += table.live
        return {"tables": len(self.tables), "live_rounds": live, "broken": len(self.broken)}

    async def resume_all(self) -> None:
        """After start-up: let bots act and bot-only tables go on where they stopped (and,
        in a scale-out, start keeping the leases)."""
        await self.play.resume_all()
        if self.ownership is not None and self._leases is None:
            self._leases = asyncio.create_task(self._keep_leases())

    async def close(self) -> None:
        if self._leases is not None:
            self._leases.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._leases
        await self.play.close()

    # -- scale-out: leases -------------------------------------------------------------------

    async def _keep_leases(self) -> None:
        """Renew this process's leases, let go of the tables lost, take over the tables
        whose lease expired (a process that died), about four times per lease length."""
        own = self.ownership
        assert own is not None
        while True:
            await asyncio.sleep(own.renew_every)
            try:
                for table_id in await asyncio.to_thread(own.renew):
                    self.release(table_id)
                free = await asyncio.to_thread(own.claimable)
                for failed in await asyncio.gather(
                    *(self.adopt(t) for t in free), return_exceptions=True
                ):
                    if isinstance(failed, Exception):
                        log.warning("leases: a take-over failed: %s", _why(failed))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is out: writes are fenced meanwhile
                log.warning("leases: %s", _why(exc))

    async def adopt(self, table_id: str) -> bool:
        """Take the table if nobody holds it, and serve it from the store (True: it is
        served here now, or quarantined here)."""
        if table_id in self.tables or table_id in self.records.broken:
            return True
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = done
        ok = False
        try:
            ok = await self._adopt(table_id)
        finally:
            self._adopting.pop(table_id, None)
            done.set_result(ok)
        return ok

    async def _adopt(self, table_id: str) -> bool:
        own = self.ownership
        assert own is not None
        epoch = await asyncio.to_thread(own.claim, table_id)
        if epoch is None:
            return False
        try:
            table = await asyncio.to_thread(self._load_one, table_id)
        except Exception as exc:
            self.records.broken[table_id] = _why(exc)
            log.error("table %s is quarantined: %s", table_id, _why(exc))
            return True
        if own.held.get(table_id) != epoch:  # lost again while it was read
            return False
        self.tokens.register(table)
        self.tables[table_id] = table
        async with table.lock:
            await self.play.resume(table)
        log.info("table %s: taken over (lease epoch %d)", table_id, epoch)
        return True

    def _load_one(self, table_id: str) -> Table:
        """A table taken over, read from the store (its variant may be one another process
        stored after this one read the variants: they are read again, once)."""
        try:
            return self.records.load_one(table_id)
        except Exception:
            self.rules.refresh()
            return self.records.load_one(table_id)

    def release(self, table_id: str) -> None:
        """Another process holds the table now: stop serving it at once (its tasks end,
        its tokens are forgotten here, its clients are closed with :data:`MOVED_CODE` and
        reconnect to be routed to the owner)."""
        if self.ownership is not None:
            self.ownership.drop(table_id)
        self.records.broken.pop(table_id, None)
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        log.warning(
            "table %s: its lease was taken by another server; no longer served here", table_id
        )
        for task in list(table.tasks):
            task.cancel()
        self.records.unavailable.pop(table_id, None)
        for st in table.seats:
            if st.token_hash:
                self.tokens.auth.remove_seat(st.token_hash)
            for listener in list(st.listeners):
                listener.close(MOVED_CODE, "the table moved to another server; reconnect")
            st.listeners.clear()

    # -- tables ------------------------------------------------------------------------------

    async def create_table(self, spec: TableSpec) -> tuple[Table, dict[int, str]]:
        """Validate, persist, and return the table with the new seat tokens (shown once)."""
        variant = await self._pin(spec.variant)
        ruleset = await self.rules.checked_ruleset(variant, spec.overrides)
        players = ruleset.players
        seats = spec.seats if spec.seats is not None else [SeatSpec() for _ in range(players)]
        if len(seats) != players:
            raise TableError(
                422,
                f"variant {variant} is played by {players} players; {len(seats)} seats were given",
                zh=f"玩法 {variant} 是 {players} 人玩的，给了 {len(seats)} 个座位",
            )
        known = agent_names()
        for i, s in enumerate(seats):
            if s.kind is SeatKind.BOT and s.bot not in known:
                raise TableError(
                    422,
                    f"seat {i}: unknown bot {s.bot!r}; known: {', '.join(known)}",
                    zh=f"座位 {i}：没有叫 {s.bot!r} 的电脑；有：{'、'.join(known)}",
                )
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
        ops = [S.insert_table(row), S.insert_rule_change(table_id, row.rules[0])]
        if self.ownership is not None:
            ops.append(self.ownership.new_table(table_id))
        await self.store.write(*ops)
        if self.ownership is not None:
            self.ownership.created(table_id)
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
        name = await self._pin(variant) if variant else table.rule.variant
        ruleset = await self.rules.checked_ruleset(name, overrides)
        async with table.lock:
            self.records.check_available(table)
            if table.live:
                raise TableError(
                    409,
                    f"round {table.round_number} is in progress: rules change only between rounds",
                    zh=f"第 {table.round_number} 局正在进行：规则只能在两局之间改",
                )
            if ruleset.players != table.players:
                raise TableError(
                    422,
                    f"variant {name} is played by {ruleset.players} players; this table has {table.players} seats",
                    zh=f"玩法 {name} 是 {ruleset.players} 人玩的，这张牌桌有 {table.players} 个座位",
                )
            rule = S.RuleRow(
                table.rule.seq + 1, len(table.rounds) + 1, name, dict(overrides), now()
            )
            await self.store.write_table(table.id, S.insert_rule_change(table.id, rule))
            table.rules.append(rule)
            table.broadcast(self.rules)
            return rule

    async def _pin(self, variant: str) -> str:
        """:meth:`RuleBook.pin`; in a scale-out, after reading the stored variants again
        when the reference is not known here (another process may have stored it)."""
        try:
            return self.rules.pin(variant)
        except TableError:
            if self.ownership is None:
                raise
        await asyncio.to_thread(self.rules.refresh)
        return self.rules.pin(variant)

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
            raise TableError(
                422,
                f"unknown bot {bot!r}; known: {', '.join(agent_names())}",
                zh=f"没有叫 {bot!r} 的电脑；有：{'、'.join(agent_names())}",
            )
        async with table.lock:
            self.records.check_available(table)
            st = table.seat_of(seat)
            if st.kind is not SeatKind.HUMAN:
                raise TableError(
                    409, f"seat {seat} is a bot seat already", zh=f"座位 {seat} 已经是电脑了"
                )
            if st.presence() or st.listeners:
                raise TableError(
                    409, f"seat {seat} is taken: someone is at it", zh=f"座位 {seat} 有人坐着"
                )
            name = f"{bot} bot {seat}"  # as a bot seat is named at creation
            await self.store.write_table(table.id, S.set_seat_bot(table.id, seat, bot, name))
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
        if table_id not in self.tables:  # released meanwhile: another process has it now
            raise TableError(
                503,
                f"table {table_id[:60]!r} moved to another server; ask again",
                zh=f"牌桌 {table_id[:60]!r} 换到了另一台服务器，请再试一次",
            )
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


def _why(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return (f"{exc.__class__.__name__}: {text}" if text else exc.__class__.__name__)[:500]
