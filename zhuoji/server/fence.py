"""One writer per store, fenced (issue 26, item 3).

A store is served by one process at a time, and a process writes only while it can prove
that it is that process:

* **SQLite** — an exclusive ``flock`` on the database file itself, so the lock is keyed by
  the file's device and inode: a symlink, a hard link, a relative path or a
  ``sqlite:///file:…?uri=true`` URL of the same file all meet the same lock.  It lasts as
  long as the process and cannot be lost.
* **PostgreSQL** — a session advisory lock keyed by the schema, held by the writer's own
  connection: every write goes through the session that holds the lock, so a write
  without the lock cannot happen (a terminated backend or a restarted cluster takes the
  session, the lock and the ability to write away together).  The writer checks its
  session once a second (:meth:`PostgresFence.heartbeat`); when it is gone it takes the
  lock again on a fresh session — unless another server has taken it, or had taken it
  meanwhile (the lease's ``epoch`` in ``zj_lease`` moved on): then the store is lost for
  good, :attr:`Fence.lost` says why, and the owner of the store is told
  (``on_lost``: ``zhuoji serve`` exits).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import socket
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from zhuoji.errors import ZhuojiError


def lease_table(schema: str | None) -> sa.Table:
    """The lease of a PostgreSQL store: one row, whose epoch counts the holds of the store."""
    return sa.Table(
        "zj_lease",
        sa.MetaData(),
        sa.Column("name", sa.String(20), primary_key=True),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("holder", sa.String(200), nullable=False),
        sa.Column("acquired_at", sa.String(40), nullable=False),
        schema=schema,
    )


class FenceError(ZhuojiError):
    """The store cannot be written now: another server holds it, or the database is
    unreachable (``lost`` False: it may come back)."""

    def __init__(self, message: str, *, lost: bool = False) -> None:
        super().__init__(message)
        self.lost = lost


def sqlite_file(database: str | None, query: dict[str, str]) -> Path | None:
    """The file a SQLite URL's database part names, with the URI forms SQLite reads under
    ``?uri=true`` (``file:x.db``, ``file:///abs/x.db``, ``file://localhost/abs/x.db``,
    percent-escapes, ``?mode=memory``) normalised; None for an in-memory database."""
    if not database or database == ":memory:":
        return None
    if str(query.get("uri", "")).lower() in ("true", "1", "yes", "on") and database.startswith(
        "file:"
    ):
        rest, _, params = database[len("file:") :].partition("?")
        rest = rest.partition("#")[0]
        if "mode=memory" in params.split("&") or query.get("mode") == "memory":
            return None
        if rest.startswith("//"):
            authority, slash, path = rest[2:].partition("/")
            if authority not in ("", "localhost"):
                raise FenceError(f"SQLite URI {database!r}: a remote host is not a local file")
            rest = slash + path
        database = unquote(rest)
        if not database or database == ":memory:":
            return None
    return Path(database).expanduser()


def lock_key(schema: str | None) -> int:
    """The advisory lock of a PostgreSQL store (its schema)."""
    digest = hashlib.sha256(f"zhuoji-server:{schema or 'public'}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def holder_name() -> str:
    return f"{socket.gethostname()} pid {os.getpid()}"[:200]


class Fence:
    """The writer's way into the store: :meth:`transaction` gives a transaction on a
    connection that may write, or raises :class:`FenceError`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.lost: str | None = None  # why the store was lost to another server, for good
        self._conn: Connection | None = None
        self._mutex = threading.Lock()

    def acquire(self) -> None:
        """Take the store at start (refused with a StoreError-like FenceError if held)."""

    def prepared(self) -> None:
        """The store's tables exist: record the lease (PostgreSQL)."""

    def heartbeat(self) -> None:
        """Called by the idle writer about once a second."""

    def release(self) -> None:
        with self._mutex:
            self._drop()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A transaction on the fenced connection, committed when the block ends.  A
        failure drops the connection (the next transaction opens, and fences, a new one)."""
        with self._mutex:
            c = self._connection()
            try:
                with c.begin():
                    yield c
            except BaseException:
                self._drop()
                raise

    def _connection(self) -> Connection:
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def _drop(self) -> None:
        c, self._conn = self._conn, None
        if c is not None:
            with contextlib.suppress(Exception):
                c.close()


class SqliteFence(Fence):
    """An exclusive ``flock`` on the database file (its device and inode)."""

    def __init__(self, engine: Engine, path: Path | None, shown: str) -> None:
        super().__init__(engine)
        self.path = path
        self.shown = shown
        self._fd: int | None = None

    def acquire(self) -> None:
        if self.path is None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise FenceError(
                f"cannot open {self.shown}: {self.path}: {exc.strerror or exc}"
            ) from exc
        st = os.fstat(fd)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise FenceError(
                f"another zhuoji server is serving {self.shown} (the file {self.path}, "
                f"device {st.st_dev} inode {st.st_ino}, is locked); one store, one server"
            ) from None
        self._fd = fd

    def release(self) -> None:
        super().release()
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the file drops the flock
            self._fd = None


class PostgresFence(Fence):
    """A session advisory lock held by the writer's connection, with a lease epoch."""

    def __init__(
        self,
        engine: Engine,
        schema: str | None,
        shown: str,
        on_lost: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(engine)
        self.schema = schema
        self.shown = shown
        self.key = lock_key(schema)
        self.lease = lease_table(schema)
        self.epoch: int | None = None  # the lease epoch this server holds the store under
        self.on_lost = on_lost

    def acquire(self) -> None:
        with self._mutex:
            try:
                self._conn = self._lock_session()
            except FenceError:
                raise
            except sa.exc.SQLAlchemyError as exc:
                raise FenceError(
                    f"cannot open {self.shown}: {exc.__class__.__name__}: "
                    f"{str(exc).splitlines()[0]}"
                ) from exc

    def prepared(self) -> None:
        with self._mutex:
            c = self._connection()
            with c.begin():
                self._bump(c, None)

    def heartbeat(self) -> None:
        with self._mutex:
            if self.lost is not None:
                return
            try:
                c = self._connection()
                c.execute(sa.text("SELECT 1"))
                c.rollback()
            except FenceError:
                pass
            except sa.exc.SQLAlchemyError:
                self._drop()

    def _connection(self) -> Connection:
        if self.lost is not None:
            raise FenceError(f"{self.shown}: {self.lost}", lost=True)
        if self._conn is None:
            try:
                c = self._lock_session()
                try:
                    with c.begin():
                        self._bump(c, self.epoch)
                except BaseException:
                    with contextlib.suppress(Exception):
                        c.close()
                    raise
            except FenceError as exc:
                if exc.lost:
                    self._lose(str(exc))
                raise
            except sa.exc.SQLAlchemyError as exc:
                raise FenceError(f"the database is unreachable ({exc.__class__.__name__})") from exc
            self._conn = c
        return self._conn

    #: how the store's advisory lock is taken: exclusively (one store, one server)
    _TRY_LOCK = sa.text("SELECT pg_try_advisory_lock(:k)")

    def _lock_session(self) -> Connection:
        """A new connection holding the store's advisory lock (FenceError, lost, if
        another session holds it in a way that excludes this one)."""
        c = self.engine.connect()
        try:
            got = c.execute(self._TRY_LOCK, {"k": self.key}).scalar()
            c.commit()
        except BaseException:
            c.close()
            raise
        if not got:
            c.close()
            raise FenceError(self._refusal(), lost=True)
        return c

    def _refusal(self) -> str:
        return (
            f"another zhuoji server is serving {self.shown} (schema "
            f"{self.schema or 'public'}); one store, one server"
        )

    def _bump(self, c: Connection, expect: int | None) -> None:
        """Record this server's hold of the store: the lease epoch goes up by one.  On a
        re-acquired lock (``expect``: the epoch held before) an epoch that moved on means
        another server held the store meanwhile: what this one knows is stale."""
        lease = self.lease
        lease.create(c, checkfirst=True)
        row = c.execute(
            sa.select(lease.c.epoch, lease.c.holder).where(lease.c.name == "store")
        ).one_or_none()
        if expect is not None and (row is None or row.epoch != expect):
            raise FenceError(
                f"another zhuoji server ({row.holder if row else '?'}) served {self.shown} "
                "while this one had lost its lock; one store, one server",
                lost=True,
            )
        epoch = (row.epoch if row is not None else 0) + 1
        values = {
            "epoch": epoch,
            "holder": holder_name(),
            "acquired_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
        }
        if row is None:
            c.execute(lease.insert().values(name="store", **values))
        else:
            c.execute(lease.update().where(lease.c.name == "store").values(**values))
        self.epoch = epoch

    def _lose(self, why: str) -> None:
        self.lost = why
        self._drop()
        if self.on_lost is not None:
            self.on_lost(why)


class SharedPostgresFence(PostgresFence):
    """The fence of one process of a scale-out (``zhuoji serve --advertise``): the store's
    advisory lock taken *shared*, on the writer's own connection as above, so the processes
    of the scale-out write side by side while a single-process server (which takes the
    lock exclusively) can write beside none of them.  Which process writes which table is
    fenced per table, in the database (:mod:`zhuoji.server.leases`), so there is no
    store-wide epoch: a re-taken shared lock is simply taken again."""

    _TRY_LOCK = sa.text("SELECT pg_try_advisory_lock_shared(:k)")

    def _refusal(self) -> str:
        return (
            f"a single-process zhuoji server is serving {self.shown} (schema "
            f"{self.schema or 'public'}); the processes of a scale-out (--advertise) "
            "share a store with no such server"
        )

    def _bump(self, c: Connection, expect: int | None) -> None:
        """No store-wide lease: tables are leased one by one."""
