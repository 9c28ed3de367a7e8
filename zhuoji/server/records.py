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
import dataclasses
import logging

from zhuoji.errors import ZhuojiError
from zhuoji.server import store as S
from zhuoji.server.rounds import rebuild_round, settlement_of
from zhuoji.server.rulebook import RuleBook
from zhuoji.server.tables import Table, TableError, now

log = logging.getLogger("zhuoji.server")


class TableRecords:
    """Reads and writes the tables of ``tables`` (the tables served, by id)."""

    def __init__(self, store: S.Store, rules: RuleBook, tables: dict[str, Table]) -> None:
        self.store = store
        self.rules = rules
        self.tables = tables
        self.broken: dict[str, str] = {}  # table id → why it could not be resumed

    # -- start-up ----------------------------------------------------------------------------

    def load(self) -> tuple[list[Table], int]:
        """Every table that can be served, each with its latest round rebuilt, and how many
        of those rounds are live.  A table that cannot be read or rebuilt (damaged rows, a
        variant that no longer loads, a log that no longer replays) is left out and listed
        in :attr:`broken`."""
        rows, broken = self.store.load()
        for table_id, why in broken.items():
            self.broken[table_id] = why
            log.error("table %s cannot be resumed and is not served: %s", table_id, why)
        tables, live_rounds = [], 0
        for row in rows:
            table = Table(row)
            try:
                live = self._rebuild(table)
            except ZhuojiError as exc:
                self.broken[table.id] = str(exc)
                log.error("table %s cannot be resumed and is not served: %s", table.id, exc)
                continue
            live_rounds += live
            tables.append(table)
        return tables, live_rounds

    def _rebuild(self, table: Table) -> int:
        """Load the table's rules and rebuild its latest round; 1 if that round is live."""
        if not table.rules:
            raise S.StoreError(f"table {table.id} has no rules")
        self.rules.ruleset(table.rule.variant, table.rule.overrides)
        if not table.rounds:
            return 0
        last = table.rounds[-1]
        events = self.store.read_events(table.id, last.number)
        ruleset = self.rules.ruleset(last.variant, last.overrides)
        table.current = rebuild_round(ruleset, events, f"table {table.id} round {last.number}")
        table.persisted = len(events)
        table.note_decisions()
        table.sync_window()
        if last.status != "live":
            return 0
        if table.current.is_terminal():  # cannot happen (one transaction); heal it
            close_row(table, last)
            self.store.write_now([S.end_round(table.id, last)])
            return 0
        return 1

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
            await self.store.write(*ops)
        except Exception as exc:
            log.exception("table %s: storing round %d failed; reloading it", table.id, row.number)
            await self.reload(table)
            raise TableError(
                503, f"the store failed ({exc.__class__.__name__}); nothing was changed"
            ) from exc
        table.persisted = len(r.log)
        if closed is not None:
            table.rounds[-1] = closed
        table.note_decisions()
        table.sync_window()
        table.broadcast(self.rules)

    async def reload(self, table: Table) -> None:
        """Make the table what the store says it is (after a failed write); a table the
        store cannot give back is no longer served."""
        try:
            fresh = await asyncio.to_thread(self.store.load_table, table.id)
        except Exception:
            del self.tables[table.id]
            return
        table.rules = list(fresh.rules)
        table.rounds = list(fresh.rounds)
        table.shared_parts.clear()
        table.current = None
        table.persisted = 0
        table.close_window()
        if table.rounds:
            last = table.rounds[-1]
            events = await asyncio.to_thread(self.store.read_events, table.id, last.number)
            table.current = rebuild_round(self.rules.ruleset(last.variant, last.overrides), events)
            table.persisted = len(events)
        table.decisions.clear()
        table.note_decisions()
        table.sync_window()


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
