"""Persistence for the table server: SQLAlchemy Core over SQLite (default) or PostgreSQL.

Everything a table is lives in five tables: ``zj_tables`` (settings), ``zj_seats`` (who sits
where, hashed seat tokens), ``zj_rule_changes`` (each rules change with the round it
applies from), ``zj_rounds`` (one row per round: seed, dealer, status, settlement) and
``zj_events`` (every engine event of every round, in order).  Events are the truth: a live
round is rebuilt after a restart by re-applying its logged actions (see
:func:`zhuoji.server.rounds.rebuild_round`).

Writes go through :meth:`Store.write`, which returns only once the transaction has
committed; the table manager sends nothing to a client before that (commit before send).
Writes from many tables are *group-committed*: while one transaction is being written,
new requests queue up and the next transaction takes all of them, so a busy server makes
one fsync per batch instead of one per action.  A batch that fails is retried one request
at a time, so one table's bad write never fails another's.

URLs: ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``, a plain file path
(read as SQLite), or ``postgresql://user:password@host/db`` (driven by psycopg 3, the
``postgres`` extra: ``pip install 'zhuoji[postgres]'``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from zhuoji.errors import ZhuojiError
from zhuoji.server import wire
from zhuoji.server.fence import (
    Fence,
    FenceError,
    PostgresFence,
    SharedPostgresFence,
    SqliteFence,
    sqlite_file,
)

#: a unit of work: runs inside the writer's transaction
Op = Callable[[Connection], None]

DEFAULT_URL = "sqlite:///zhuoji-server.db"

metadata = sa.MetaData()

tables_t = sa.Table(
    "zj_tables",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("rounds_total", sa.Integer, nullable=False),
    sa.Column("next_round", sa.String(20), nullable=False),
    sa.Column("bot_delay_ms", sa.Integer, nullable=False),
    sa.Column("claim_window_ms", sa.Integer, nullable=False, server_default="0"),
    sa.Column("turn_seconds", sa.Integer, nullable=True),  # the turn timer; NULL: none
)

seats_t = sa.Table(
    "zj_seats",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("zj_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(10), nullable=False),
    sa.Column("bot", sa.String(40), nullable=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True, index=True),
)

rule_changes_t = sa.Table(
    "zj_rule_changes",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("zj_tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("from_round", sa.Integer, nullable=False),
    sa.Column("variant", sa.String(100), nullable=False),
    sa.Column("overrides", sa.Text, nullable=False),
    sa.Column("changed_at", sa.String(40), nullable=False),
)

rounds_t = sa.Table(
    "zj_rounds",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("zj_tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("variant", sa.String(100), nullable=False),
    sa.Column("overrides", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("dealer", sa.Integer, nullable=False),
    sa.Column("streak", sa.Integer, nullable=False),
    sa.Column("round_wind", sa.Integer, nullable=False),
    sa.Column("started_at", sa.String(40), nullable=False),
    sa.Column("ended_at", sa.String(40), nullable=True),
    sa.Column("totals", sa.Text, nullable=True),
    sa.Column("next_dealer", sa.Integer, nullable=True),
    sa.Column("next_streak", sa.Integer, nullable=True),
    sa.Column("settlement", sa.Text, nullable=True),
)

variants_t = sa.Table(
    "zj_variants",
    metadata,
    sa.Column("name", sa.String(60), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("parent", sa.String(80), nullable=False),
    sa.Column("title", sa.String(200), nullable=False),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("sha256", sa.String(64), nullable=False),
    sa.Column("author", sa.String(100), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("differences", sa.Text, nullable=False),
)

#: stored variants the operator archived: new tables cannot take them; their versions stay
#: (tables pinned to one keep playing it).  Created on the first start that knows it.
variant_archive_t = sa.Table(
    "zj_variant_archive",
    metadata,
    sa.Column("name", sa.String(60), primary_key=True),
    sa.Column("archived_at", sa.String(40), nullable=False),
    sa.Column("author", sa.String(100), nullable=False),
)

events_t = sa.Table(
    "zj_events",
    metadata,
    sa.Column("table_id", sa.String(40), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("event", sa.Text, nullable=False),
)


class StoreError(ZhuojiError):
    """The database cannot be opened, or holds something that does not replay."""


class StoreUnavailable(StoreError):
    """A write that could not reach the database, or that this server may no longer make
    (its lock was lost): nothing was written; the API answers 503."""


#: how often (seconds) the idle writer checks that it still holds the store
HEARTBEAT_S = 1.0

#: errors of the database connection itself (an outage, a terminated backend), not of a query
_CONNECTION_ERRORS = (FenceError, sa.exc.OperationalError, sa.exc.InterfaceError)


def dumps(value: Any) -> str:
    """Stored JSON: compact UTF-8 text with sorted keys (:func:`zhuoji.server.wire.stored`)."""
    return wire.stored(value)


SCHEMES = ("sqlite", "postgresql")
SCHEMA_PATTERN = r"^[a-z][a-z0-9_]{0,40}$"


def normalize_url(url: str) -> str:
    """A database URL from ``--db``: ``sqlite:///PATH`` or ``postgresql://…`` (pointed at
    psycopg 3); anything without ``://`` is a SQLite file path.  Any other scheme is refused
    (StoreError): the server supports exactly these two stores."""
    if "://" not in url:
        return f"sqlite:///{url}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    scheme = url.split("://", 1)[0]
    if scheme.split("+", 1)[0] not in SCHEMES:
        raise StoreError(
            f"unknown database URL scheme {scheme!r}: use sqlite:///PATH.db or "
            "postgresql://user:password@host/db"
        )
    return url


def display_url(url: str) -> str:
    """The URL with any password masked, for logs."""
    try:
        return sa.make_url(url).render_as_string(hide_password=True)
    except Exception:
        return re.sub(r"//([^:/@]*):[^@]*@", r"//\1:***@", url)


def split_schema(url: str) -> tuple[str, str | None]:
    """``postgresql://…/db?schema=room1``: the URL without ``schema``, and the schema (the
    namespace one server process owns in a shared PostgreSQL database)."""
    try:
        parsed = sa.make_url(url)
    except Exception as exc:  # ArgumentError, or ValueError for a port that is not a number
        raise StoreError(f"bad database URL {display_url(url)!r}: {exc}") from exc
    schema = parsed.query.get("schema")
    if schema is None:
        return url, None
    if not isinstance(schema, str) or not re.fullmatch(SCHEMA_PATTERN, schema):
        raise StoreError(f"schema {schema!r}: lower-case letters, digits and _, up to 41")
    if parsed.get_backend_name() != "postgresql":
        raise StoreError("?schema= is for PostgreSQL stores (a SQLite store is its file)")
    return parsed.difference_update_query(["schema"]).render_as_string(hide_password=False), schema


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError as exc:
        raise StoreError(f"bad database URL {display_url(url)!r}: {exc}") from exc
    except Exception as exc:  # e.g. a port that is not a number
        raise StoreError(f"bad database URL {display_url(url)!r}: {exc}") from exc
    if parsed.get_backend_name() == "sqlite":
        try:
            file = sqlite_file(parsed.database, {k: str(v) for k, v in parsed.query.items()})
        except FenceError as exc:
            raise StoreError(f"bad database URL {display_url(url)!r}: {exc}") from exc
        if file is not None:
            folder = file.parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except FileExistsError as exc:  # a file where the folder should be
                raise StoreError(
                    f"cannot open {display_url(url)}: {exc.filename or folder} is not a folder"
                ) from exc
            except OSError as exc:
                raise StoreError(
                    f"cannot open {display_url(url)}: cannot make the folder {folder}: "
                    f"{exc.strerror or exc}"
                ) from exc
        try:
            engine = sa.create_engine(
                parsed, connect_args={"check_same_thread": False, "timeout": 30}
            )
        except Exception as exc:
            raise StoreError(f"cannot open {display_url(url)}: {exc}") from exc

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL: readers never block the writer; FULL: a commit is on disk when it returns
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    if parsed.get_backend_name() == "postgresql":
        try:
            # connect_timeout: an unreachable database fails a write (503) in seconds
            return sa.create_engine(parsed, pool_pre_ping=True, connect_args={"connect_timeout": 5})
        except ModuleNotFoundError as exc:
            raise StoreError(
                f"{display_url(url)}: PostgreSQL needs the psycopg driver "
                f"(missing module {exc.name!r}); install it with: pip install 'zhuoji[postgres]'"
            ) from exc
    raise StoreError(
        f"unknown database {parsed.get_backend_name()!r}: use sqlite:///PATH.db or postgresql://…"
    )


#: zj_tables columns added since the first release → their SQL type and default
_ADDED_COLUMNS = {
    "claim_window_ms": "INTEGER NOT NULL DEFAULT 0",
    "turn_seconds": "INTEGER NULL",
}


def _upgrade(engine: Engine, schema: str | None) -> None:
    """Columns added since the first release, added to stores made before them."""
    have = {c["name"] for c in sa.inspect(engine).get_columns("zj_tables", schema=schema)}
    table = f'"{schema}".zj_tables' if schema else "zj_tables"
    for column, kind in _ADDED_COLUMNS.items():
        if column not in have:
            with engine.begin() as c:
                c.execute(sa.text(f"ALTER TABLE {table} ADD COLUMN {column} {kind}"))


def make_fence(engine: Engine, url: str, schema: str | None, scale_out: bool = False) -> Fence:
    """The store's writer fence (:mod:`zhuoji.server.fence`): SQLite's file lock, or
    PostgreSQL's advisory lock and lease (``scale_out``: the lock shared by the processes
    of a scale-out, which lease the tables one by one: :mod:`zhuoji.server.leases`)."""
    parsed = sa.make_url(url)
    if engine.dialect.name == "sqlite":
        query = {k: str(v) for k, v in parsed.query.items()}
        try:
            path = sqlite_file(parsed.database, query)
        except FenceError as exc:
            raise StoreError(str(exc)) from exc
        if scale_out:
            raise StoreError(
                "a scale-out (--advertise) needs a PostgreSQL store; a SQLite store is "
                "served by one process"
            )
        return SqliteFence(engine, path, display_url(url))
    if scale_out:
        return SharedPostgresFence(engine, schema, display_url(url))
    return PostgresFence(engine, schema, display_url(url))


# ---------------------------------------------------------------------------------------
# what is read back at start
# ---------------------------------------------------------------------------------------


@dataclass
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None


@dataclass
class RuleRow:
    seq: int
    from_round: int
    variant: str
    overrides: dict[str, Any]
    changed_at: str


@dataclass
class RoundRow:
    number: int
    status: str
    variant: str
    overrides: dict[str, Any]
    seed: int
    dealer: int
    streak: int
    round_wind: int
    started_at: str
    ended_at: str | None = None
    totals: list[int] | None = None
    next_dealer: int | None = None
    next_streak: int | None = None
    settlement: dict[str, Any] | None = None


@dataclass
class TableRow:
    id: str
    name: str
    created_at: str
    seed: int
    rounds_total: int
    next_round: str
    bot_delay_ms: int
    claim_window_ms: int = 0
    turn_seconds: int | None = None
    seats: list[SeatRow] = field(default_factory=list)
    rules: list[RuleRow] = field(default_factory=list)
    rounds: list[RoundRow] = field(default_factory=list)


def _round_row(r: Any) -> RoundRow:
    return RoundRow(
        number=r.number,
        status=r.status,
        variant=r.variant,
        overrides=json.loads(r.overrides),
        seed=r.seed,
        dealer=r.dealer,
        streak=r.streak,
        round_wind=r.round_wind,
        started_at=r.started_at,
        ended_at=r.ended_at,
        totals=json.loads(r.totals) if r.totals is not None else None,
        next_dealer=r.next_dealer,
        next_streak=r.next_streak,
        settlement=json.loads(r.settlement) if r.settlement is not None else None,
    )


# ---------------------------------------------------------------------------------------
# units of work
# ---------------------------------------------------------------------------------------


def insert_table(row: TableRow) -> Op:
    def op(c: Connection) -> None:
        c.execute(
            tables_t.insert().values(
                id=row.id,
                name=row.name,
                created_at=row.created_at,
                seed=row.seed,
                rounds_total=row.rounds_total,
                next_round=row.next_round,
                bot_delay_ms=row.bot_delay_ms,
                claim_window_ms=row.claim_window_ms,
                turn_seconds=row.turn_seconds,
            )
        )
        c.execute(
            seats_t.insert(),
            [
                {
                    "table_id": row.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "token_hash": s.token_hash,
                }
                for s in row.seats
            ],
        )

    return op


def insert_rule_change(table_id: str, rule: RuleRow) -> Op:
    def op(c: Connection) -> None:
        c.execute(
            rule_changes_t.insert().values(
                table_id=table_id,
                seq=rule.seq,
                from_round=rule.from_round,
                variant=rule.variant,
                overrides=dumps(rule.overrides),
                changed_at=rule.changed_at,
            )
        )

    return op


def set_seat_token(table_id: str, seat: int, token_hash: str) -> Op:
    def op(c: Connection) -> None:
        c.execute(
            seats_t.update()
            .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            .values(token_hash=token_hash)
        )

    return op


def insert_variant(row: dict[str, Any]) -> Op:
    """A stored variant version (see zhuoji.server.variants)."""

    def op(c: Connection) -> None:
        c.execute(variants_t.insert().values(**row))

    return op


def archive_variant(name: str, archived_at: str, author: str) -> Op:
    """Archive a stored variant (every version stays)."""

    def op(c: Connection) -> None:
        c.execute(
            variant_archive_t.insert().values(name=name, archived_at=archived_at, author=author)
        )

    return op


def unarchive_variant(name: str) -> Op:
    """A stored variant offered again (a new version of it was stored)."""

    def op(c: Connection) -> None:
        c.execute(variant_archive_t.delete().where(variant_archive_t.c.name == name))

    return op


def migrated_variants(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The versions migrating ``rows`` (every stored version) adds, as rows: one per
    variant whose latest version is in an older file format or has an unpinned shipped
    parent (issue 25; :meth:`zhuoji.server.variants.VariantLibrary.migrate_stored`)."""
    from datetime import UTC, datetime

    from zhuoji.server.variants import StoredVariant, VariantLibrary

    library = VariantLibrary()
    for r in rows:
        library.add(
            StoredVariant(
                r["name"], r["version"], r["parent"], r["title"], r["source"], r["sha256"],
                r["author"], r["created_at"], json.loads(r["differences"]),
            )
        )  # fmt: skip
    when = datetime.now(UTC).isoformat(timespec="milliseconds")
    return [
        {
            "name": v.name, "version": v.version, "parent": v.parent, "title": v.title,
            "source": v.source, "sha256": v.sha256, "author": v.author,
            "created_at": v.created_at, "differences": dumps(v.differences),
        }
        for v in library.migrate_stored(when)
    ]  # fmt: skip


def clear_seat_token(table_id: str, seat: int) -> Op:
    """Revoke a seat's token: no token opens the seat until the operator issues one."""

    def op(c: Connection) -> None:
        c.execute(
            seats_t.update()
            .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            .values(token_hash=None)
        )

    return op


def set_seat_bot(table_id: str, seat: int, bot: str, name: str) -> Op:
    """A human seat given to a bot (its token gone): ``bot`` plays it from now on."""

    def op(c: Connection) -> None:
        c.execute(
            seats_t.update()
            .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            .values(kind="bot", bot=bot, name=name, token_hash=None)
        )

    return op


#: the statements the write path runs every round, built once: ``insert().values(…)`` made
#: and cache-keyed a new statement object on every call (about 1 % of a loaded server's CPU)
_INSERT_ROUND = rounds_t.insert()
_END_ROUND = (
    rounds_t.update()
    .where(rounds_t.c.table_id == sa.bindparam("k_table_id"),
           rounds_t.c.number == sa.bindparam("k_number"))
    .values({c: sa.bindparam(f"v_{c}") for c in (
        "status", "ended_at", "totals", "next_dealer", "next_streak", "settlement")})
)  # fmt: skip


def insert_round(table_id: str, row: RoundRow) -> Op:
    def op(c: Connection) -> None:
        c.execute(
            _INSERT_ROUND,
            {
                "table_id": table_id,
                "number": row.number,
                "status": row.status,
                "variant": row.variant,
                "overrides": dumps(row.overrides),
                "seed": row.seed,
                "dealer": row.dealer,
                "streak": row.streak,
                "round_wind": row.round_wind,
                "started_at": row.started_at,
            },
        )

    return op


@dataclass(frozen=True)
class AppendEvents:
    """An op: events ``first_seq …`` of round ``number`` (seq is the index in the round's
    log).  The writer inserts the events of every request in a batch with one statement
    (:meth:`Store._commit`); called on its own, it inserts just these."""

    table_id: str
    number: int
    first_seq: int
    events: Sequence[dict[str, Any]]

    def rows(self) -> list[dict[str, Any]]:
        return [
            {"table_id": self.table_id, "number": self.number, "seq": self.first_seq + i,
             "event": dumps(e)}
            for i, e in enumerate(self.events)
        ]  # fmt: skip

    def values(self) -> list[tuple[str, int, int, str]]:
        """The rows as ``(table_id, number, seq, event)``, for :class:`EventInsert`."""
        t, n, first = self.table_id, self.number, self.first_seq
        return [(t, n, first + i, dumps(e)) for i, e in enumerate(self.events)]

    def __call__(self, c: Connection) -> None:
        if self.events:
            c.execute(events_t.insert(), self.rows())


class EventInsert:
    """The writer's insert of a batch's events, as one prepared statement run by the
    driver's ``executemany`` on the writer's own connection (so inside its transaction,
    behind its fence).  Every action of a loaded server makes this insert; through
    SQLAlchemy Core each one built a dict per row, bound and processed every parameter and
    wrapped the result, under the GIL the event loop needs (a third of the writer thread's
    Python).  A driver error is raised as SQLAlchemy's own class for it
    (``OperationalError`` for a lost connection), as a Core statement would raise it, so a
    failed write is told and healed the same way."""

    def __init__(self, engine: Engine, schema: str | None) -> None:
        dbapi = engine.dialect.loaded_dbapi
        mark = {"qmark": "?", "format": "%s", "pyformat": "%s"}.get(dbapi.paramstyle)
        table = f'"{schema}".zj_events' if schema else "zj_events"
        #: None: a driver with another parameter style (the Core insert is used instead)
        self.sql = (
            f"INSERT INTO {table} (table_id, number, seq, event) VALUES "
            f"({mark}, {mark}, {mark}, {mark})"
            if mark is not None
            else None
        )
        self._error = dbapi.Error

    def __call__(self, c: Connection, ops: Sequence[AppendEvents]) -> None:
        if self.sql is None:
            rows = [row for op in ops for row in op.rows()]
            if rows:
                c.execute(events_t.insert(), rows)
            return
        values = [v for op in ops for v in op.values()]
        if not values:
            return
        cursor = c.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.executemany(self.sql, values)
        except self._error as exc:
            raise sa.exc.DBAPIError.instance(
                self.sql, values[:1], exc, self._error, ismulti=True
            ) from exc
        finally:
            cursor.close()


def append_events(
    table_id: str, number: int, first_seq: int, events: Sequence[dict[str, Any]]
) -> Op:
    """Events ``first_seq …`` of round ``number`` (seq is the index in the round's log)."""
    return AppendEvents(table_id, number, first_seq, events)


def end_round(table_id: str, row: RoundRow) -> Op:
    def op(c: Connection) -> None:
        c.execute(
            _END_ROUND,
            {
                "k_table_id": table_id,
                "k_number": row.number,
                "v_status": row.status,
                "v_ended_at": row.ended_at,
                "v_totals": dumps(row.totals),
                "v_next_dealer": row.next_dealer,
                "v_next_streak": row.next_streak,
                "v_settlement": dumps(row.settlement),
            },
        )

    return op


# ---------------------------------------------------------------------------------------
# the store
# ---------------------------------------------------------------------------------------


@dataclass
class _Request:
    ops: tuple[Op, ...]
    future: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop


class Store:
    """The database, with a group-committing writer thread (start it in the event loop)."""

    def __init__(
        self, url: str = DEFAULT_URL, *, check_only: bool = False, scale_out: bool = False
    ) -> None:
        """Open the store and take its lock (one server per store).  ``check_only``
        (``zhuoji serve --check``): read it, take no lock, create and change nothing.
        ``scale_out``: one of several processes on this PostgreSQL store, each writing the
        tables it leases (:mod:`zhuoji.server.leases`; :attr:`guard`)."""
        self.url, self.schema = split_schema(normalize_url(url))
        base = make_engine(self.url)
        self.engine: Engine = (
            base.execution_options(schema_translate_map={None: self.schema})
            if self.schema is not None
            else base
        )
        self.fence: Fence = make_fence(self.engine, self.url, self.schema, scale_out)
        #: the steps every write of a table begins with (:meth:`write_table`): none for
        #: one process per store; the lease check of a scale-out
        self.guard: Callable[[str], Sequence[Op]] = _unguarded
        self.check_only = check_only
        if not check_only:
            try:
                self.fence.acquire()  # refuses a second server
            except FenceError as exc:
                base.dispose()
                raise StoreError(str(exc)) from None
            try:
                if self.schema is not None:
                    with base.begin() as c:
                        c.execute(sa.text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
                metadata.create_all(self.engine)
                _upgrade(self.engine, self.schema)
                self.fence.prepared()
            except (sa.exc.SQLAlchemyError, FenceError) as exc:
                self.fence.release()
                base.dispose()
                raise StoreError(f"cannot prepare {display_url(self.url)}: {exc}") from exc
        self._base = base
        self._queue: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._events = EventInsert(self.engine, self.schema)
        self.commits = 0  # transactions committed (a group commit counts once)
        self.requests = 0  # write requests served

    def on_lost(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(why)`` (from the writer thread) if another server takes the
        store: this one may never write again (:mod:`zhuoji.server.fence`)."""
        if isinstance(self.fence, PostgresFence):
            self.fence.on_lost = callback

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    # -- reading (at start, and for logs) ------------------------------------------------

    def load(self) -> tuple[list[TableRow], dict[str, str]]:
        """Every table with its seats, rule history and round rows, oldest first, and the
        tables whose rows cannot be read (id → why): one damaged table does not keep the
        others from being served."""
        with self.engine.connect() as c:
            ids = [
                r.id
                for r in c.execute(
                    sa.select(tables_t.c.id).order_by(tables_t.c.created_at, tables_t.c.id)
                )
            ]
        out: list[TableRow] = []
        broken: dict[str, str] = {}
        for table_id in ids:
            try:
                out.append(self.load_table(table_id))
            except (sa.exc.SQLAlchemyError, ValueError, TypeError, KeyError) as exc:
                broken[table_id] = f"its rows cannot be read: {exc.__class__.__name__}: {exc}"[:500]
        return out, broken

    def load_table(self, table_id: str) -> TableRow:
        """One table with its seats, rule history and round rows."""
        with self.engine.connect() as c:
            r = c.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).one()
            row = TableRow(
                r.id, r.name, r.created_at, r.seed, r.rounds_total, r.next_round, r.bot_delay_ms,
                r.claim_window_ms, r.turn_seconds,
            )  # fmt: skip
            q = sa.select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            for r in c.execute(q):
                row.seats.append(SeatRow(r.seat, r.kind, r.bot, r.name, r.token_hash))
            q = (
                sa.select(rule_changes_t)
                .where(rule_changes_t.c.table_id == table_id)
                .order_by(rule_changes_t.c.seq)
            )
            for r in c.execute(q):
                overrides = json.loads(r.overrides)
                if not isinstance(overrides, dict):
                    raise ValueError(f"rule change {r.seq}: overrides are not a mapping")
                row.rules.append(RuleRow(r.seq, r.from_round, r.variant, overrides, r.changed_at))
            q = (
                sa.select(rounds_t)
                .where(rounds_t.c.table_id == table_id)
                .order_by(rounds_t.c.number)
            )
            for r in c.execute(q):
                row.rounds.append(_round_row(r))
            q = sa.select(sa.func.max(events_t.c.number)).where(events_t.c.table_id == table_id)
            logged = c.execute(q).scalar()
        if [s.seat for s in row.seats] != list(range(len(row.seats))) or not row.seats:
            raise ValueError("its seats are not numbered 0, 1, …")
        if [r.number for r in row.rounds] != list(range(1, len(row.rounds) + 1)):
            raise ValueError("its rounds are not numbered 1, 2, …")
        if logged is not None and logged != len(row.rounds):
            raise ValueError(f"events are logged for round {logged}; {len(row.rounds)} rounds are")
        return row

    def read_variants(self) -> list[dict[str, Any]]:
        """Every stored variant version as its row, by name and version."""
        with self.engine.connect() as c:
            q = sa.select(variants_t).order_by(variants_t.c.name, variants_t.c.version)
            return [dict(r._mapping) for r in c.execute(q)]

    def migrate_variants(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The versions that bring each variant of ``rows`` (sound stored versions) to the
        current file format with its parent pinned, written here in one transaction
        (:meth:`zhuoji.server.variants.VariantLibrary.migrate_stored`; the server reads
        its variants once, at start).  The old versions stay as they were.  A migration
        that fails is logged and skipped: it never keeps the server from its tables."""
        try:
            made = migrated_variants(rows)
            if made:
                self.write_now(insert_variant(row) for row in made)
        except Exception:
            logging.getLogger("zhuoji.server").exception("stored variants were not migrated")
            return []
        for row in made:
            logging.getLogger("zhuoji.server").info(
                "variant %s@%s: migrated to the current format (parent %s)",
                row["name"], row["version"], row["parent"],
            )  # fmt: skip
        return made

    def load_variants(self) -> list[dict[str, Any]]:
        """Every stored variant version (:meth:`read_variants`) with the migrated versions
        :meth:`migrate_variants` adds."""
        rows = self.read_variants()
        made = self.migrate_variants(rows)
        return sorted([*rows, *made], key=lambda r: (r["name"], r["version"]))

    def load_archived(self) -> dict[str, str]:
        """Archived stored variants: name → when."""
        with self.engine.connect() as c:
            q = sa.select(variant_archive_t.c.name, variant_archive_t.c.archived_at)
            return {r.name: r.archived_at for r in c.execute(q)}

    def read_events(self, table_id: str, number: int) -> list[dict[str, Any]]:
        """One round's events in order."""
        q = (
            sa.select(events_t.c.seq, events_t.c.event)
            .where(events_t.c.table_id == table_id, events_t.c.number == number)
            .order_by(events_t.c.seq)
        )
        with self.engine.connect() as c:
            rows = list(c.execute(q))
        events = []
        for i, r in enumerate(rows):
            if r.seq != i:
                raise StoreError(f"table {table_id} round {number}: event {i} is missing")
            try:
                event = json.loads(r.event)
            except (TypeError, ValueError):
                event = None
            if not isinstance(event, dict):
                raise StoreError(f"table {table_id} round {number}: event {i} is damaged")
            events.append(event)
        return events

    # -- writing ---------------------------------------------------------------------------

    def write_now(self, ops: Iterable[Op]) -> None:
        """Run ops in one transaction from the calling thread (start-up, tests, tools),
        through the writer's fence like every write."""
        if self.check_only:
            raise StoreError("the store is open for checking only")
        try:
            with self.fence.transaction() as c:
                for op in ops:
                    op(c)
        except _CONNECTION_ERRORS as exc:
            raise _unavailable(exc) from exc

    async def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._writer, name="zhuoji-store-writer", daemon=True
            )
            self._thread.start()

    async def stop(self) -> None:
        """Finish queued writes, then stop the writer and close the pool."""
        if self._thread is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._thread.join)
            self._thread = None
        self.close()

    def close(self) -> None:
        """Close the pool and let another server open the store."""
        self.fence.release()
        self._base.dispose()

    async def write_table(self, table_id: str, *ops: Op) -> None:
        """:meth:`write` of one table's changes, behind its :attr:`guard`."""
        await self.write(*self.guard(table_id), *ops)

    async def write(self, *ops: Op) -> None:
        """Commit ``ops`` in one transaction; returns once they are durable."""
        if self._thread is None:
            raise StoreError("the store's writer is not running")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.put(_Request(ops, fut, loop))
        try:
            await fut
        except _CONNECTION_ERRORS as exc:
            raise _unavailable(exc) from exc

    def _writer(self) -> None:
        """The writer thread: take every waiting request, commit them together, answer."""
        try:
            self._serve_writes()
        finally:
            self.fence.release()

    def _serve_writes(self) -> None:
        stopping = False
        while not stopping:
            try:
                first = self._queue.get(timeout=HEARTBEAT_S)
            except queue.Empty:
                self.fence.heartbeat()  # notice a lost lock while idle, and take it again
                continue
            batch: list[_Request] = []
            if first is None:
                stopping = True
            else:
                batch.append(first)
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                else:
                    batch.append(item)
            if not batch:
                continue
            try:
                self._commit(batch)
            except Exception:
                # one bad request must not fail the others: retry each on its own
                for req in batch:
                    try:
                        self._commit([req])
                    except Exception as exc:
                        _answer([(req, exc)])
                    else:
                        _answer([(req, None)])
            else:
                _answer([(req, None) for req in batch])

    def _commit(self, batch: list[_Request]) -> None:
        """One transaction for the batch; the events of all its requests go in with one
        multi-row insert (after the other ops: no other op reads or refers to events).

        On the writer's own fenced connection (:meth:`Fence.transaction`), kept open
        between batches: taking one from the pool and handing it back (with its reset)
        for every commit cost about as much CPU as the commit itself, under the GIL the
        event loop needs.  A failed commit drops the connection; the next one opens a
        fresh one (on PostgreSQL: taking the lock again, or finding the store lost)."""
        appends: list[AppendEvents] = []
        with self.fence.transaction() as c:
            for req in batch:
                for op in req.ops:
                    if isinstance(op, AppendEvents):
                        appends.append(op)
                    else:
                        op(c)
            if appends:
                self._events(c, appends)
        self.commits += 1
        self.requests += len(batch)


def _unguarded(_table_id: str) -> Sequence[Op]:
    return ()


def _unavailable(exc: BaseException) -> StoreUnavailable:
    if isinstance(exc, FenceError):
        return StoreUnavailable(f"the store cannot be written: {exc}")
    return StoreUnavailable(f"the database is unreachable ({exc.__class__.__name__})")


def _answer(results: list[tuple[_Request, BaseException | None]]) -> None:
    """Tell the waiting coroutines how their requests went: one wake-up of each event loop
    for the whole batch (every request of a server comes from its one loop)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Request, BaseException | None]]] = {}
    for req, exc in results:
        by_loop.setdefault(req.loop, []).append((req, exc))

    def done(answers: list[tuple[_Request, BaseException | None]]) -> None:
        for req, exc in answers:
            if req.future.done():
                continue
            if exc is None:
                req.future.set_result(None)
            else:
                req.future.set_exception(exc)

    for loop, answers in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
            loop.call_soon_threadsafe(done, answers)
