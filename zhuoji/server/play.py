"""Play at a table: starting rounds, seats' actions, the bots, claim windows of a fixed
length and the turn timer — everything that changes a round, and what goes on by itself.

Every change holds the table's lock while it

1. checks and applies the change (the engine refuses illegal actions and changes nothing),
2. lets the table's bots answer until a human must act (or the round ends),
3. commits the new events (and round rows) to the store, and only then sends every
   connected seat its new view (:meth:`zhuoji.server.records.TableRecords.commit`),
4. schedules what goes on by itself (:meth:`Play.after_commit`): slow bots, a fixed
   window's end, the turn timer's deadlines (:mod:`zhuoji.server.turn_timer`), and the
   next round of a table whose players are all ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any

from zhuoji.actions import ActionKind
from zhuoji.actions import make as make_action
from zhuoji.agents.base import make_agent
from zhuoji.engine import Phase
from zhuoji.errors import IllegalActionError, ZhuojiError
from zhuoji.match import round_seed, today_weekday
from zhuoji.observation import Observation
from zhuoji.server import store as S
from zhuoji.server.action_text import parse_action
from zhuoji.server.records import TableRecords
from zhuoji.server.rounds import new_round
from zhuoji.server.rulebook import RuleBook
from zhuoji.server.tables import NextRound, SeatKind, Table, TableError, now
from zhuoji.server.turn_timer import timeout_action

log = logging.getLogger("zhuoji.server")

#: turn actions after which a fixed-length window is shown (whether or not anyone may answer)
_OPENERS = frozenset({ActionKind.DISCARD, ActionKind.GANG_CONCEALED, ActionKind.GANG_ADDED})


def _bot_seed(table: Table, number: int, seq: int, seat: int) -> int:
    """Bots are re-made for every decision from the state, so a restart changes nothing."""
    return (table.seed * 1_000_003 + number * 7_919 + seq * 31 + seat) % (2**63)


class Play:
    """Changes the rounds of the tables of ``tables`` (the tables served, by id)."""

    def __init__(self, tables: dict[str, Table], records: TableRecords, rules: RuleBook) -> None:
        self.tables = tables
        self.records = records
        self.rules = rules
        self.actions = 0  # actions applied (human and bot), for /api/health
        #: table id → the event loop's time of its last committed change (bots are paced
        #: from it: :meth:`_bot_loop`)
        self._moved: dict[str, float] = {}
        records.on_resumed = self.resume

    # -- what seats and the operator do ------------------------------------------------------

    async def start_round(self, table: Table) -> S.RoundRow:
        async with table.lock:
            return await self._start_round(table)

    async def ready(self, table: Table, seat: int) -> None:
        """A human seat is ready for the next round (tables whose players start rounds)."""
        async with table.lock:
            self.records.check_available(table)
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
                table.broadcast(self.rules)

    async def act(self, table: Table, seat: int, text: str, expect_seq: int | None = None) -> None:
        """Apply a seat's action (``"discard 5m"`` or ``"2 discard 5m"``), let bots answer,
        commit, and send every seat its view."""
        action = parse_action(text, seat, table.players)
        async with table.lock:
            self.records.check_available(table)
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
                table.broadcast(self.rules)
                return
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

    async def seat_became_bot(self, table: Table) -> None:
        """A human seat was given to a bot (stored, under the table's lock): it acts where
        it must now, and a table whose other players are all ready starts its round."""
        r = table.current
        if r is not None and not r.is_terminal() and self._run_bots_inline(table):
            await self._commit(table)
            return
        self.after_commit(table)
        table.broadcast(self.rules)

    # -- start-up and shut-down --------------------------------------------------------------

    async def resume_all(self) -> None:
        """After start-up: let bots act and bot-only tables go on where they stopped."""
        for table in list(self.tables.values()):
            async with table.lock:
                await self.resume(table)

    async def resume(self, table: Table) -> None:
        """Let the table go on where it stopped (after start-up, or after an outage of
        the store; under its lock)."""
        with contextlib.suppress(TableError):  # the store failed again: it waits again
            if table.live and table.bot_delay_ms == 0 and self._run_bots_inline(table):
                await self._commit(table)
        self.after_commit(table)

    async def close(self) -> None:
        await self.records.close()
        for table in self.tables.values():
            for task in list(table.tasks):
                task.cancel()
            for task in list(table.tasks):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    # -- inside the lock ---------------------------------------------------------------------

    async def _commit(self, table: Table, *first: S.Op) -> None:
        """Persist and tell every seat (:meth:`TableRecords.commit`), then schedule what
        goes on by itself."""
        await self.records.commit(table, *first)
        self.after_commit(table)

    async def _start_round(self, table: Table) -> S.RoundRow:
        self.records.check_available(table)
        if table.live:
            raise TableError(
                409,
                f"round {table.round_number} is in progress",
                zh=f"第 {table.round_number} 局正在进行",
            )
        if table.match_over:
            raise TableError(
                409,
                f"the match is over: {table.rounds_total} of {table.rounds_total} rounds played",
                zh=f"这场已经打完：{table.rounds_total} 局都打了",
            )
        number = len(table.rounds) + 1
        rule = table.rule_for(number)
        ruleset = self.rules.ruleset(rule.variant, rule.overrides)
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
        self.records.new_round(table)
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

    # -- what goes on by itself --------------------------------------------------------------

    def after_commit(self, table: Table) -> None:
        """Schedule what goes on by itself: the turn timer's deadlines, slow bots, a fixed
        window's end, and bot-only tables' next round."""
        self._schedule_deadlines(table)
        self._moved[table.id] = asyncio.get_running_loop().time()
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

    def _spawn(self, table: Table, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
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
                    self.after_commit(table)
                return

    async def _bot_loop(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(table.bot_delay_ms / 1000)
            # a person moved while this slept: the bot's pause counts from that move
            while (
                wait := self._moved.get(table.id, 0.0) + table.bot_delay_ms / 1000 - loop.time()
            ) > 0:
                await asyncio.sleep(wait)
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

    # -- the turn timer ----------------------------------------------------------------------

    def _schedule_deadlines(self, table: Table) -> None:
        """Start a waiting task for every deadline of the table's turn timer that has none
        (:class:`zhuoji.server.turn_timer.TurnClock`)."""
        clock = table.clock
        for s, task in list(clock.tasks.items()):
            if task.done() or s not in clock.deadlines:
                task.cancel()
                del clock.tasks[s]
        for s, (seq, at) in clock.deadlines.items():
            if s not in clock.tasks:
                clock.tasks[s] = self._spawn(table, self._expire(table, s, seq, at))

    async def _expire(self, table: Table, seat: int, seq: int, at: float) -> None:
        """At a deadline, the server plays for a seat that has not answered
        (:func:`zhuoji.server.turn_timer.timeout_action`), through :meth:`act` with the
        decision's ``seq``: refused, changing nothing, if the seat has acted meanwhile."""
        await asyncio.sleep(max(0.0, at - time.time()))
        r = table.current
        if r is None or r.is_terminal() or not r.legal_actions(seat):
            return
        if table.clock.deadlines.get(seat, (None, 0.0))[0] != seq:
            return  # the seat answered and has a new decision
        action = timeout_action(r, seat, (table.seed * 1_000_003 + seq * 31 + seat) % (2**63))
        table.clock.tasks.pop(seat, None)
        if self.tables.get(table.id) is not table:
            return  # no longer served (the store could not give it back)
        with contextlib.suppress(ZhuojiError):  # TableError: the seat acted meanwhile
            await self.act(table, seat, str(action), seq)
