"""The tables' records in the store: reading them at start-up, committing each change, and
healing a table after a failed write.

Every change to a table is committed before anyone hears of it (:meth:`TableRecords.commit`:
the new events and the round's end in one write, then every connected seat gets its new
view), so after a crash every client's last view is in the database.  At start-up each
table's latest round is rebuilt by re-applying its logged actions
(:func:`zhuoji.server.rounds.rebuild_round`); a table that cannot be read or rebuilt is
left out and listed as broken, and the others are served.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
from collections.abc import Awaitable, Callable

from zhuoji.agents.base import agent_names
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.server import store as S
from zhuoji.server.leases import LeaseLost
from zhuoji.server.rounds import normalized, rebuild_round, settlement_of
from zhuoji.server.rulebook import RuleBook
from zhuoji.server.tables import NextRound, SeatKind, Table, TableError, now

log = logging.getLogger("zhuoji.server")


class TableRecords:
    """Reads and writes the tables of ``tables`` (the tables served, by id)."""

    def __init__(self, store: S.Store, rules: RuleBook, tables: dict[str, Table]) -> None:
        self.store = store
        self.rules = rules
        self.tables = tables
        self.broken: dict[str, str] = {}  # table id → why it could not be resumed
        #: table id → why it waits for the store (a write failed and it could not reload)
        self.unavailable: dict[str, str] = {}
        #: called under the table's lock when a waiting table is back (play goes on)
        self.on_resumed: Callable[[Table], Awaitable[None]] | None = None
        #: called when a write finds that another process took the table (scale-out)
        self.on_lease_lost: Callable[[Table], None] | None = None
        self._healing: dict[str, asyncio.Task[None]] = {}
        self._before: dict[str, Round | None] = {}  # see new_round

    # -- start-up ----------------------------------------------------------------------------

    def load(self, *, thorough: bool = False) -> tuple[list[Table], int]:
        """Every table that can be served, each with its latest round rebuilt, and how many
        of those rounds are live.  A table whose records are damaged in any way (rows that
        do not read or do not fit together, a variant that no longer loads, an event that
        does not parse, a log that does not replay, a page the database cannot read) is
        quarantined: left out and listed in :attr:`broken` with the reason; the others are
        served.  Nothing one table holds stops the others.  ``thorough``
        (``zhuoji serve --check``): replay every round, not just the latest."""
        try:
            rows, broken = self.store.load()
        except Exception as exc:  # the table list itself cannot be read (a damaged page)
            self.broken["*"] = f"the list of tables cannot be read: {_why(exc)}"
            log.error("no table is served: %s", self.broken["*"])
            return [], 0
        for table_id, why in broken.items():
            self.broken[table_id] = why
            log.error("table %s is quarantined: %s", table_id, why)
        tables, live_rounds = [], 0
        for row in rows:
            try:
                check_row(row)
                table = Table(row)
                live = self._rebuild(table, thorough)
                self._try_views(table)
            except Exception as exc:
                self.broken[row.id] = _why(exc)
                log.error("table %s is quarantined: %s", row.id, self.broken[row.id])
                continue
            live_rounds += live
            tables.append(table)
        return tables, live_rounds

    def load_one(self, table_id: str) -> Table:
        """One table read and rebuilt as :meth:`load` does (a table this process has just
        taken over; any failure is the caller's to quarantine)."""
        row = self.store.load_table(table_id)
        check_row(row)
        table = Table(row)
        self._rebuild(table)
        self._try_views(table)
        return table

    def _rebuild(self, table: Table, thorough: bool = False) -> int:
        """Load the table's rules, read every round's events and rebuild its latest round;
        1 if that round is live."""
        for rule in table.rules:
            self.rules.ruleset(rule.variant, rule.overrides)
        if not table.rounds:
            return 0
        r: Round | None = None
        events: list[dict[str, object]] = []
        for row in table.rounds:
            events = self.store.read_events(table.id, row.number)
            label = f"table {table.id} round {row.number}"
            if row is table.rounds[-1] or thorough:
                r = rebuild_round(self.rules.ruleset(row.variant, row.overrides), events, label)
                check_round(row, r, label)
        assert r is not None
        last = table.rounds[-1]
        table.current = r
        table.persisted = len(events)
        table.note_decisions()
        table.sync_window()
        if last.status != "live":
            if not table.current.is_terminal():
                raise S.StoreError(
                    f"table {table.id} round {last.number}: ended, but its log is not"
                )
            return 0
        if table.current.is_terminal():  # cannot happen (one transaction); heal it
            close_row(table, last)
            if not self.store.check_only:
                self.store.write_now([*self.store.guard(table.id), S.end_round(table.id, last)])
            return 0
        return 1

    def _try_views(self, table: Table) -> None:
        """Everything the server shows of the table can be made (a damaged value that
        loads but cannot be shown quarantines the table here, not a request later)."""
        table.scores()
        _ = table.public_phase
        for rule in table.rules:
            self.rules.describe(rule.variant, rule.overrides)
        for seat in range(table.players):
            table.view(seat, self.rules)

    # -- changes -----------------------------------------------------------------------------

    async def commit(self, table: Table, *first: S.Op) -> None:
        """Persist the new events (and the round's end, after the operations ``first``),
        then tell every seat.  A failed write makes the table what the store says it is
        again and is refused (503): nothing was changed."""
        r = table.current
        assert r is not None
        row = table.rounds[-1]
        events = r.log[table.persisted :]
        ops = [*first, S.append_events(table.id, row.number, table.persisted, events)]
        closed: S.RoundRow | None = None
        if r.is_terminal() and row.status == "live":
            closed = dataclasses.replace(row)
            close_row(table, closed)
            ops.append(S.end_round(table.id, closed))
        try:
            await self.store.write_table(table.id, *ops)
        except LeaseLost as exc:  # another process owns the table now: its truth, not ours
            self._roll_back(table)
            if self.on_lease_lost is not None:
                self.on_lease_lost(table)
            raise TableError(
                503, f"{exc}; ask again", zh="这张牌桌换到了另一台服务器，请再试一次"
            ) from exc
        except Exception as exc:
            log.warning(
                "table %s: storing round %d failed (%s); reloading it",
                table.id, row.number, _why(exc),
            )  # fmt: skip
            await self.reload(table)
            raise TableError(
                503,
                f"the store failed ({exc.__class__.__name__}); nothing was changed",
                zh="存储出错，什么都没有改",
            ) from exc
        self._before.pop(table.id, None)
        table.persisted = len(r.log)
        if closed is not None:
            table.rounds[-1] = closed
        table.note_decisions()
        table.sync_window()
        table.broadcast(self.rules)

    # -- outages -----------------------------------------------------------------------------

    def new_round(self, table: Table) -> None:
        """A round is about to replace the table's current one: keep that one until the
        new round is committed (a failed first commit puts it back)."""
        self._before[table.id] = table.current

    def check_available(self, table: Table) -> None:
        """Refuse a change (503) while the table waits for the store to come back."""
        why = self.unavailable.get(table.id)
        if why is not None:
            raise TableError(
                503,
                f"table {table.id} waits for the store ({why}); it resumes by itself when the "
                "store answers; nothing was changed",
                zh=f"牌桌 {table.id} 在等存储恢复，恢复后自动继续；什么都没有改",
            )

    async def reload(self, table: Table) -> None:
        """Make the table what the store says it is (after a failed write).  While the
        store cannot give it back (an outage), the table stays served as it was last
        committed, refuses changes (:meth:`check_available`: 503), and is reloaded by
        itself once the store answers again (then :attr:`on_resumed` lets play go on)."""
        try:
            await self._reload(table)
        except Exception as exc:
            self._roll_back(table)
            if table.id not in self.unavailable:
                log.warning("table %s waits for the store: %s", table.id, _why(exc))
            self.unavailable[table.id] = _why(exc)
            if table.id not in self._healing:
                self._healing[table.id] = asyncio.create_task(self._heal(table))
        else:
            self.unavailable.pop(table.id, None)

    async def _reload(self, table: Table) -> None:
        fresh = await asyncio.to_thread(self.store.load_table, table.id)
        current = None
        persisted = 0
        if fresh.rounds:
            last = fresh.rounds[-1]
            events = await asyncio.to_thread(self.store.read_events, table.id, last.number)
            current = rebuild_round(self.rules.ruleset(last.variant, last.overrides), events)
            persisted = len(events)
        table.rules = list(fresh.rules)
        table.rounds = list(fresh.rounds)
        table.current = current
        table.persisted = persisted
        self._before.pop(table.id, None)
        self._settle(table)

    def _roll_back(self, table: Table) -> None:
        """The table as it was last committed, from what is in memory: a round whose
        first commit failed is taken back, and a round's uncommitted events undone."""
        r = table.current
        if r is not None and table.persisted == 0 and table.id in self._before:
            table.rounds.pop()
            table.current = self._before.pop(table.id)
            table.persisted = len(table.current.log) if table.current is not None else 0
        elif r is not None and len(r.log) > table.persisted:
            last = table.rounds[-1]
            events = [normalized(e) for e in r.log[: table.persisted]]
            table.current = rebuild_round(self.rules.ruleset(last.variant, last.overrides), events)
        self._settle(table)

    def _settle(self, table: Table) -> None:
        table.shared_parts.clear()
        table.close_window()
        table.decisions.clear()
        table.note_decisions()
        table.sync_window()

    async def _heal(self, table: Table) -> None:
        """Reload the table until the store gives it back, then let it go on."""
        delay = 0.1
        try:
            while self.tables.get(table.id) is table:
                await asyncio.sleep(delay)
                delay = min(1.0, delay * 2)
                async with table.lock:
                    try:
                        await self._reload(table)
                    except Exception:
                        continue
                    self.unavailable.pop(table.id, None)
                    self._healing.pop(table.id, None)  # a new failure from here heals anew
                    log.info("table %s: the store answers again; resumed", table.id)
                    table.broadcast(self.rules)
                    if self.on_resumed is not None:
                        await self.on_resumed(table)
                    return
        finally:
            if self._healing.get(table.id) is asyncio.current_task():
                self._healing.pop(table.id, None)

    async def close(self) -> None:
        for task in list(self._healing.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _why(exc: BaseException) -> str:
    text = str(exc) if isinstance(exc, ZhuojiError) else f"{exc.__class__.__name__}: {exc}"
    return text.splitlines()[0][:500] if text else exc.__class__.__name__


_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
_DIGEST = re.compile(r"^[0-9a-f]{64}$")


def _int(value: object, what: str, low: int | None = None, high: int | None = None) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise S.StoreError(f"{what}: {value!r} is not a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise S.StoreError(f"{what}: {value} is out of range")


def _when(value: object, what: str) -> None:
    if not isinstance(value, str) or not _ISO.match(value):
        raise S.StoreError(f"{what}: {value!r} is not a time")


def check_row(row: S.TableRow) -> None:
    """The table's rows hold values of the right kinds, in range, that fit together
    (StoreError naming the first that does not)."""
    where = f"table {row.id}"
    if not isinstance(row.name, str):
        raise S.StoreError(f"{where}: its name is not text")
    _when(row.created_at, f"{where}: created_at")
    _int(row.seed, f"{where}: seed")
    _int(row.rounds_total, f"{where}: rounds_total", 1)
    if row.next_round not in {n.value for n in NextRound}:
        raise S.StoreError(f"{where}: next_round {row.next_round!r} is unknown")
    _int(row.bot_delay_ms, f"{where}: bot_delay_ms", 0)
    _int(row.claim_window_ms, f"{where}: claim_window_ms", 0)
    if row.turn_seconds is not None:
        _int(row.turn_seconds, f"{where}: turn_seconds", 1)
    players = len(row.seats)
    bots = set(agent_names())
    for seat in row.seats:
        at = f"{where} seat {seat.seat}"
        if seat.kind not in {k.value for k in SeatKind}:
            raise S.StoreError(f"{at}: kind {seat.kind!r} is unknown")
        if seat.kind == SeatKind.BOT.value and seat.bot not in bots:
            raise S.StoreError(f"{at}: bot {seat.bot!r} is unknown")
        if not isinstance(seat.name, str):
            raise S.StoreError(f"{at}: its name is not text")
        if seat.token_hash is not None and not (
            isinstance(seat.token_hash, str) and _DIGEST.match(seat.token_hash)
        ):
            raise S.StoreError(f"{at}: its token hash is damaged")
    if not row.rules:
        raise S.StoreError(f"{where} has no rules")
    for i, rule in enumerate(row.rules):
        at = f"{where} rule change {rule.seq}"
        _int(rule.seq, f"{at}: seq", i + 1, i + 1)
        _int(rule.from_round, f"{at}: from_round", 1)
        if i == 0 and rule.from_round != 1:
            raise S.StoreError(f"{at}: the first rules do not start at round 1")
        if not isinstance(rule.variant, str):
            raise S.StoreError(f"{at}: its variant is not text")
        _when(rule.changed_at, f"{at}: changed_at")
    for rnd in row.rounds:
        at = f"{where} round {rnd.number}"
        if rnd.status not in ("live", "ended"):
            raise S.StoreError(f"{at}: status {rnd.status!r} is unknown")
        if rnd.status == "live" and rnd is not row.rounds[-1]:
            raise S.StoreError(f"{at}: live, but not the latest round")
        _int(rnd.seed, f"{at}: seed")
        _int(rnd.dealer, f"{at}: dealer", 0, players - 1)
        _int(rnd.streak, f"{at}: streak", 0)
        _int(rnd.round_wind, f"{at}: round_wind", 0, 3)
        _when(rnd.started_at, f"{at}: started_at")
        if not isinstance(rnd.variant, str):
            raise S.StoreError(f"{at}: its variant is not text")
        if rnd.status == "ended":
            _when(rnd.ended_at, f"{at}: ended_at")
            totals = rnd.totals
            if not isinstance(totals, list) or len(totals) != players:
                raise S.StoreError(f"{at}: its totals are not one number per seat")
            for t in totals:
                _int(t, f"{at}: a total")
            _int(rnd.next_dealer, f"{at}: next_dealer", 0, players - 1)
            _int(rnd.next_streak, f"{at}: next_streak", 0)
            if not isinstance(rnd.settlement, dict):
                raise S.StoreError(f"{at}: its settlement is damaged")
    if len(row.rounds) > row.rounds_total:
        raise S.StoreError(f"{where}: {len(row.rounds)} rounds of a {row.rounds_total}-round match")


def check_round(row: S.RoundRow, r: Round, label: str) -> None:
    """A round row agrees with the round its log rebuilds."""
    if r.dealer != row.dealer or r.streak != row.streak:
        raise S.StoreError(f"{label}: its row's dealer or streak differs from its log")
    if row.status == "ended" and r.ledger is not None and r.ledger.totals() != row.totals:
        raise S.StoreError(f"{label}: its row's totals differ from its log's settlement")


def close_row(table: Table, row: S.RoundRow) -> None:
    """Fill in ``row`` (the table's latest round, which has ended): its end, totals, the
    next dealer and the itemized settlement."""
    r = table.current
    assert r is not None and r.ledger is not None
    row.status = "ended"
    row.ended_at = now()
    row.totals = r.ledger.totals()
    row.next_dealer = r.ledger.next_dealer
    row.next_streak = r.ledger.next_streak
    row.settlement = settlement_of(r)
