"""Scale-out on PostgreSQL: each table owned by one process through a lease in the database
(issue 26, item 7; docs/server.md, *Several processes, one population of tables*).

Several ``zhuoji serve --advertise URL`` processes share one PostgreSQL store and nothing
else.  Each table has one row in ``zj_table_lease``: the process that owns it (``owner``,
a name unique to the process), the address it advertises to clients (``address``), a
fencing ``epoch`` that goes up by one with every take-over, and an expiry
(``expires_at``, the database's own clock, so the hosts' clocks never matter).

* **Writing is fenced in the database.**  Every write of a table carries
  :meth:`Ownership.guard`: an ``UPDATE`` of the table's lease row *in the same
  transaction*, matching this process and the epoch it took the table under (and renewing
  the expiry).  If it matches no row the transaction is rolled back (:class:`LeaseLost`),
  so nothing is written.  The update holds the row's lock until the commit, and a take-over
  is an update of the same row, so a write and a take-over never interleave: two processes
  never write one table, and a process that has lost a table's lease writes nothing more
  of it from that moment.
* **Leases are kept alive** by those writes and by :meth:`Ownership.renew` (about four times
  per lease length, for every table the process holds; rows being written at that moment
  are skipped, ``SKIP LOCKED``, so the renewal never waits for, nor deadlocks with, the
  writer).  A renewal that finds a table taken (another owner or epoch) drops it: its
  clients are told where it went.
* **A lease that expires is taken over** (:meth:`Ownership.claim`: one ``INSERT … ON
  CONFLICT DO UPDATE … WHERE expires_at < now``, the epoch one higher), by the scan every
  process runs (:meth:`Ownership.claimable`) or at once by the process a client of that
  table reaches.  The new owner reads the table from the store: everything acknowledged
  was committed first, so nothing acknowledged is lost.
* A clean shutdown releases the process's leases (:meth:`Ownership.release_all`), so
  others take its tables at once rather than after the expiry.

The store-wide advisory lock (:mod:`zhuoji.server.fence`) is then taken *shared* by every
process of the scale-out, so a single-process server (without ``--advertise``), which takes
it exclusively, can never write beside them, nor they beside it.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from zhuoji.errors import ZhuojiError

#: seconds a lease lasts without renewal (``zhuoji serve --lease-seconds``)
DEFAULT_LEASE_S = 3.0


class LeaseLost(ZhuojiError):
    """This process no longer holds the table's lease: the write was rolled back."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"this server no longer holds table {table_id}; nothing was changed")
        self.table_id = table_id


@dataclass(frozen=True)
class Owner:
    """Who holds a table another process owns: its advertised address, whether the lease
    is still running, and how long ago it was last renewed (seconds)."""

    address: str
    live: bool
    silent_s: float


def check_advertise(url: str) -> str:
    """An advertised address: ``http(s)://host[:port]``, no path (ValueError otherwise)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--advertise {url!r}: give http://HOST:PORT or https://HOST:PORT")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"--advertise {url!r}: only a scheme, a host and a port, no path")
    try:
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise ValueError(f"--advertise {url!r}: {exc}") from None
    return f"{parts.scheme}://{parts.netloc}"


class Ownership:
    """The leases of one process over the tables of a shared PostgreSQL store."""

    def __init__(
        self, engine: Engine, schema: str | None, address: str, lease_s: float = DEFAULT_LEASE_S
    ) -> None:
        self.engine = engine  # the store's engine without a schema map: names are qualified
        self.address = check_advertise(address)
        self.lease_s = float(lease_s)
        self.renew_every = self.lease_s / 4
        #: this process (unique across restarts: a restarted process never writes under the
        #: leases of its previous life)
        self.node = f"{socket.gethostname()} pid {os.getpid()} {secrets.token_hex(4)}"[:200]
        self.held: dict[str, int] = {}  # table id → the epoch this process took it under
        self._mutex = threading.Lock()
        q = f'"{schema}".' if schema else ""
        self._lease = f"{q}zj_table_lease"
        self._tables = f"{q}zj_tables"

    # -- set-up -----------------------------------------------------------------------------

    def prepare(self) -> None:
        """Create the lease table (first start of a scale-out on this store)."""
        with self.engine.begin() as c:
            c.execute(
                sa.text(
                    f"CREATE TABLE IF NOT EXISTS {self._lease} ("
                    " table_id VARCHAR(40) PRIMARY KEY,"
                    " owner VARCHAR(200) NOT NULL,"
                    " address VARCHAR(300) NOT NULL,"
                    " epoch BIGINT NOT NULL,"
                    " expires_at TIMESTAMPTZ NOT NULL,"
                    " renewed_at TIMESTAMPTZ NOT NULL)"
                )
            )

    # -- in the writer's transaction ----------------------------------------------------------

    def guard(self, table_id: str) -> tuple[Callable[[Connection], None], ...]:
        """The fencing step of a write of ``table_id`` (runs first in its transaction)."""
        epoch = self.held.get(table_id)

        def op(c: Connection) -> None:
            if epoch is None:
                raise LeaseLost(table_id)
            r = c.execute(
                sa.text(
                    f"UPDATE {self._lease} SET"
                    " expires_at = clock_timestamp() + make_interval(secs => :s),"
                    " renewed_at = clock_timestamp()"
                    " WHERE table_id = :t AND owner = :n AND epoch = :e"
                ),
                {"s": self.lease_s, "t": table_id, "n": self.node, "e": epoch},
            )
            if r.rowcount != 1:
                raise LeaseLost(table_id)

        return (op,)

    def new_table(self, table_id: str) -> Callable[[Connection], None]:
        """The lease of a table this process creates (in the transaction that inserts it,
        after the table's row); :meth:`created` once committed."""

        def op(c: Connection) -> None:
            c.execute(
                sa.text(
                    f"INSERT INTO {self._lease} VALUES (:t, :n, :a, 1,"
                    " clock_timestamp() + make_interval(secs => :s), clock_timestamp())"
                ),
                {"t": table_id, "n": self.node, "a": self.address, "s": self.lease_s},
            )

        return op

    def created(self, table_id: str) -> None:
        self.held[table_id] = 1

    # -- the process's own sessions (call from a worker thread) ------------------------------

    def claimable(self) -> list[str]:
        """Tables nobody holds: no lease yet (a store served before the scale-out) or an
        expired one, oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.text(
                    f"SELECT z.id FROM {self._tables} z LEFT JOIN {self._lease} l"
                    " ON l.table_id = z.id"
                    " WHERE l.table_id IS NULL OR l.expires_at < clock_timestamp()"
                    " ORDER BY z.created_at, z.id"
                )
            )
            return [r[0] for r in rows if r[0] not in self.held]

    def claim(self, table_id: str) -> int | None:
        """Take the table if nobody holds it (its epoch), else None."""
        with self.engine.begin() as c:
            epoch = c.execute(
                sa.text(
                    f"INSERT INTO {self._lease} AS l"
                    " SELECT z.id, :n, :a, 1,"
                    "  clock_timestamp() + make_interval(secs => :s), clock_timestamp()"
                    f" FROM {self._tables} z WHERE z.id = :t"
                    " ON CONFLICT (table_id) DO UPDATE SET owner = :n, address = :a,"
                    "  epoch = l.epoch + 1, expires_at = EXCLUDED.expires_at,"
                    "  renewed_at = EXCLUDED.renewed_at"
                    " WHERE l.expires_at < clock_timestamp()"
                    " RETURNING l.epoch"
                ),
                {"t": table_id, "n": self.node, "a": self.address, "s": self.lease_s},
            ).scalar()
        if epoch is not None:
            self.held[table_id] = int(epoch)
        return None if epoch is None else int(epoch)

    def renew(self) -> list[str]:
        """Renew every lease this process holds; the tables it has lost (taken by another
        process, or released), which it must drop at once."""
        held = dict(self.held)
        if not held:
            return []
        with self.engine.begin() as c:
            renewed = {
                r[0]: r[1]
                for r in c.execute(
                    sa.text(
                        f"UPDATE {self._lease} SET"
                        " expires_at = clock_timestamp() + make_interval(secs => :s),"
                        " renewed_at = clock_timestamp()"
                        f" WHERE table_id IN (SELECT table_id FROM {self._lease}"
                        "  WHERE owner = :n FOR UPDATE SKIP LOCKED)"
                        " RETURNING table_id, epoch"
                    ),
                    {"s": self.lease_s, "n": self.node},
                )
            }
            rest = [t for t in held if t not in renewed]
            found = {}
            if rest:
                found = {
                    r[0]: (r[1], r[2])
                    for r in c.execute(
                        sa.text(
                            f"SELECT table_id, owner, epoch FROM {self._lease}"
                            " WHERE table_id = ANY(:ids)"
                        ),
                        {"ids": rest},
                    )
                }
        lost = [t for t, e in held.items() if t in renewed and renewed[t] != e]
        for t in rest:
            owner, epoch = found.get(t, (None, None))
            if owner != self.node or epoch != held[t]:  # else being written: renewed by it
                lost.append(t)
        for t in lost:
            if self.held.get(t) == held[t]:
                del self.held[t]
        return lost

    def locate(self, table_id: str) -> Owner | None:
        """Who holds ``table_id`` (None: no lease row, or it is this process's)."""
        with self.engine.connect() as c:
            r = c.execute(
                sa.text(
                    "SELECT owner, address, expires_at > clock_timestamp(),"
                    " EXTRACT(EPOCH FROM clock_timestamp() - renewed_at)"
                    f" FROM {self._lease} WHERE table_id = :t"
                ),
                {"t": table_id},
            ).one_or_none()
        if r is None or r[0] == self.node:
            return None
        return Owner(str(r[1]), bool(r[2]), float(r[3]))

    def peers(self) -> list[str]:
        """The addresses of the other processes holding tables now."""
        with self.engine.connect() as c:
            rows = c.execute(
                sa.text(
                    f"SELECT DISTINCT address FROM {self._lease}"
                    " WHERE owner <> :n AND owner <> '' AND expires_at > clock_timestamp()"
                ),
                {"n": self.node},
            )
            return sorted(str(r[0]) for r in rows if r[0] != self.address)

    def drop(self, table_id: str) -> None:
        self.held.pop(table_id, None)

    def release_all(self) -> None:
        """Give up every lease at once (a clean shutdown: the others take over now)."""
        self.held.clear()
        with self.engine.begin() as c:
            c.execute(
                sa.text(
                    f"UPDATE {self._lease} SET owner = '', expires_at = clock_timestamp()"
                    " - interval '1 second' WHERE owner = :n"
                ),
                {"n": self.node},
            )
