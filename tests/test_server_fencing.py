"""One writer per store, fenced (issue 26, item 3).

SQLite: the lock is the database file's own (device and inode), so a symlink, a hard link,
a relative path or a ``file:`` URI of one file cannot start a second server on it.

PostgreSQL: a server writes only through the session that holds the store's advisory lock.
When that session goes (``pg_terminate_backend``, a restarted cluster) the server stops
writing at once; it takes the lock again if nobody else has, and exits (status 3) if
another server took the store meanwhile.  The issue's findings: a terminated backend or a
``pg_ctl stop/start`` let a second server start on the same schema, and the first went on
writing.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

sys.path.insert(0, str(Path(__file__).parent))
from server_support import PgCluster, pg_cluster  # noqa: E402, F401

from zhuoji.server.fence import lock_key, sqlite_file  # noqa: E402
from zhuoji.server.process import ServerProcess  # noqa: E402
from zhuoji.server.store import Store, StoreError  # noqa: E402

OP = "fencing-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
TABLE = {"seats": [{"kind": "human"}] * 4}


# -- SQLite ----------------------------------------------------------------------------------


def test_sqlite_lock_is_the_files_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "real" / "x.db"
    first = Store(f"sqlite:///{db}")
    (tmp_path / "link.db").symlink_to(db)
    os.link(db, tmp_path / "hard.db")
    monkeypatch.chdir(tmp_path)
    others = [
        f"sqlite:///{tmp_path / 'link.db'}",  # a symlink
        f"sqlite:///{tmp_path / 'hard.db'}",  # a hard link: another name, the same inode
        "sqlite:///real/x.db",  # relative
        str(tmp_path / "real" / ".." / "real" / "x.db"),  # a plain path, not normalised
        f"sqlite:///file:{db}?uri=true",  # SQLite's URI forms
        f"sqlite:///file://{db}?uri=true",
        f"sqlite:///file://localhost{db}?mode=rw&uri=true",
        f"sqlite:///file:{str(db).replace('x.db', '%78.db')}?uri=true",
    ]
    for url in others:
        with pytest.raises(StoreError, match="one store, one server") as exc:
            Store(url)
        assert "inode" in str(exc.value), url
    first.close()
    for url in others:  # free once the first has gone, and every form opens the same file
        s = Store(url)
        s.close()
    assert not (tmp_path / "file:").exists()  # the URI form made no folder named after it


def test_sqlite_memory_takes_no_lock() -> None:
    assert sqlite_file("file:mem1?mode=memory", {"uri": "true"}) is None
    assert sqlite_file("file:mem1", {"uri": "true", "mode": "memory"}) is None
    assert sqlite_file("file:a%20b.db", {"uri": "true"}) == Path("a b.db")
    assert sqlite_file("file:a.db", {}) == Path("file:a.db")  # without uri=true: a file name
    a, b = Store("sqlite://"), Store("sqlite://")
    a.close()
    b.close()


# -- PostgreSQL ----------------------------------------------------------------------------


def lock_holders(cluster: PgCluster, schema: str) -> list[int]:
    """The backends holding the store's advisory lock."""
    key = lock_key(schema) & 0xFFFF_FFFF_FFFF_FFFF
    rows = cluster.sql(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND classid = %(hi)s AND objid = %(lo)s AND objsubid = 1",
        {"hi": key >> 32, "lo": key & 0xFFFF_FFFF},
    )
    return [int(r[0]) for r in rows]  # type: ignore[call-overload]


def tables_in(cluster: PgCluster, schema: str) -> int:
    return int(cluster.sql(f"SELECT count(*) FROM {schema}.zj_tables")[0][0])  # type: ignore[call-overload]


def create(url: str) -> int:
    return httpx.post(url + "/api/tables", json=TABLE, headers=OPH, timeout=10).status_code


def until(check: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_terminated_backend_lock_taken_by_another_stops_the_server(
    pg_cluster: PgCluster,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The lock's session is terminated and another session takes the lock before the
    server notices: the server writes nothing more (503) and exits with status 3."""
    import psycopg

    schema = "fence_taken"
    srv = ServerProcess(f"{pg_cluster.url}?schema={schema}", OP, cwd=tmp_path).start()
    try:
        assert create(srv.url) == 201
        [pid] = lock_holders(pg_cluster, schema)
        key = lock_key(schema)
        with psycopg.connect(pg_cluster.url, autocommit=True) as rival:
            rival.execute("SELECT pg_terminate_backend(%s)", (pid,))
            rival.execute("SELECT pg_advisory_lock(%s)", (key,))  # waits for the dying backend
            codes = []
            for _ in range(3):
                try:
                    codes.append(create(srv.url))
                except httpx.TransportError:  # it has stopped listening
                    codes.append(0)
            assert 201 not in codes, codes
            assert tables_in(pg_cluster, schema) == 1  # nothing written without the lock
            assert srv.proc is not None
            srv.proc.wait(15)
            assert srv.proc.returncode == 3, "\n".join(srv.output)
            assert any("lost" in line for line in srv.output)
        with ServerProcess(f"{pg_cluster.url}?schema={schema}", OP, cwd=tmp_path) as next_:
            assert len(httpx.get(next_.url + "/api/tables").json()) == 1
    finally:
        srv.kill()


def test_terminated_backend_is_taken_again(pg_cluster: PgCluster, tmp_path: Path) -> None:  # noqa: F811
    """Nobody else takes the lock: the server takes it again on a new session and writes
    on; a second server is still refused."""
    schema = "fence_again"
    url = f"{pg_cluster.url}?schema={schema}"
    with ServerProcess(url, OP, cwd=tmp_path) as srv:
        [pid] = lock_holders(pg_cluster, schema)
        pg_cluster.sql("SELECT pg_terminate_backend(%(p)s)", {"p": pid})
        codes: list[int] = []
        until(lambda: codes.append(create(srv.url)) or codes[-1] == 201)
        assert set(codes) <= {201, 503}, codes
        [again] = lock_holders(pg_cluster, schema)
        assert again != pid
        with pytest.raises(StoreError, match="one store, one server"):
            Store(url)
        assert create(srv.url) == 201
        assert srv.proc is not None and srv.proc.poll() is None


def test_another_server_between_two_holds_stops_the_first(
    pg_cluster: PgCluster,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The lock is lost, another holder takes the store, writes and lets go before the
    server comes back for it: the lease's epoch has moved on, so the server does not take
    the store again (what it holds in memory is stale) and exits."""
    import psycopg

    schema = "fence_epoch"
    srv = ServerProcess(f"{pg_cluster.url}?schema={schema}", OP, cwd=tmp_path).start()
    try:
        [pid] = lock_holders(pg_cluster, schema)
        with psycopg.connect(pg_cluster.url, autocommit=True) as rival:
            rival.execute("SELECT pg_terminate_backend(%s)", (pid,))
            rival.execute("SELECT pg_advisory_lock(%s)", (lock_key(schema),))
            rival.execute(f"UPDATE {schema}.zj_lease SET epoch = epoch + 1, holder = 'rival'")
            rival.execute("SELECT pg_advisory_unlock(%s)", (lock_key(schema),))
        assert srv.proc is not None
        srv.proc.wait(15)
        assert srv.proc.returncode == 3, "\n".join(srv.output)
    finally:
        srv.kill()


def test_cluster_restart_keeps_one_writer(pg_cluster: PgCluster, tmp_path: Path) -> None:  # noqa: F811
    """``pg_ctl stop`` / ``start``: the server takes its lock again by itself, its tables
    are all there, and a second server is refused."""
    schema = "fence_restart"
    url = f"{pg_cluster.url}?schema={schema}"
    with ServerProcess(url, OP, cwd=tmp_path) as srv:
        assert create(srv.url) == 201
        pg_cluster.restart()
        codes: list[int] = []
        until(lambda: codes.append(create(srv.url)) or codes[-1] == 201)
        assert set(codes) <= {201, 503}, codes
        until(lambda: len(lock_holders(pg_cluster, schema)) == 1)
        with pytest.raises(StoreError, match="one store, one server"):
            Store(url)
        assert len(httpx.get(srv.url + "/api/tables").json()) == 2
        assert tables_in(pg_cluster, schema) == 2
