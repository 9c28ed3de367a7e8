"""Stores for the server tests: SQLite files, and a real PostgreSQL server.

``postgres`` (session fixture) starts a throwaway PostgreSQL cluster from Debian's
``postgresql`` package (``/usr/lib/postgresql/*/bin``; ``.ci/run`` installs it): ``initdb``
and ``pg_ctl`` on a temporary directory, listening on a free loopback port, run as the
``postgres`` user when the tests run as root (PostgreSQL refuses to run as root).  It is
stopped at the end of the session.  Without the binaries the PostgreSQL cases are skipped,
saying so — unless ``ZHUOJI_REQUIRE_POSTGRES=1`` (CI), where that is a failure.

``pg_cluster`` (module fixture) is a cluster of the module's own, as a :class:`PgCluster`,
for the fault tests that stop, restart or cut it (``pg_terminate_backend``).

``store_url(backend, tmp_path)`` gives a fresh, empty store: a SQLite file, or a schema of
its own in the shared PostgreSQL database (``?schema=…``), so tests never see each other's
tables and the cluster starts once.

Import the fixtures into a test module: ``from server_support import postgres  # noqa``.
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BACKENDS = ["sqlite", "postgresql"]


def _bin_dir() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    return ["runuser", "-u", "postgres", "--", *cmd]


class PgCluster:
    """A throwaway PostgreSQL cluster in a temporary folder: start, stop (a real outage:
    every session ends), restart, and end one backend (``pg_terminate_backend``)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="zhuoji-pg-"))
        self.data, sock = self.root / "data", self.root / "sock"
        sock.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
            shutil.chown(sock, "postgres")
        self.port = _free_port()
        subprocess.run(
            _as_owner([str(bindir / "initdb"), "-D", str(self.data), "-U", "zhuoji", "-A",
                       "trust", "-E", "UTF8", "--no-sync"]),
            check=True, capture_output=True, cwd=self.root,
        )  # fmt: skip
        self.options = (
            f"-p {self.port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=200"
        )
        self.url = f"postgresql://zhuoji@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str, check: bool = True) -> None:
        subprocess.run(
            _as_owner([str(self.bindir / "pg_ctl"), "-D", str(self.data), *args]),
            check=check, capture_output=True, cwd=self.root,
        )  # fmt: skip

    def start(self) -> None:
        self._ctl("-o", self.options, "-l", str(self.root / "log"), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the cluster: every connection ends; nothing answers until :meth:`start`."""
        self._ctl("-m", mode, "-w", "-t", "60", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def sql(self, text: str, params: dict[str, object] | None = None) -> list[tuple[object, ...]]:
        """Run one statement on a session of its own (autocommit); its rows."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as c:
            cur = c.execute(text, params)  # type: ignore[arg-type]
            return list(cur.fetchall()) if cur.description else []

    def destroy(self) -> None:
        self._ctl("-m", "immediate", "stop", check=False)
        time.sleep(0.1)
        shutil.rmtree(self.root, ignore_errors=True)


def new_cluster() -> PgCluster:
    """A started cluster (skipped, or failed under ``ZHUOJI_REQUIRE_POSTGRES=1``, when
    PostgreSQL is not installed)."""
    bindir = _bin_dir()
    if bindir is None:
        message = (
            "PostgreSQL not installed (/usr/lib/postgresql/*/bin): "
            "apt-get install -y postgresql (.ci/run does)"
        )
        if os.environ.get("ZHUOJI_REQUIRE_POSTGRES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    pytest.importorskip("psycopg")
    cluster = PgCluster(bindir)
    cluster.start()
    return cluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The URL of a running throwaway PostgreSQL server (database ``postgres``)."""
    cluster = new_cluster()
    try:
        yield cluster.url
    finally:
        cluster.destroy()


@pytest.fixture(scope="module")
def pg_cluster() -> Iterator[PgCluster]:
    """A cluster of the module's own, for tests that stop, restart or cut it."""
    cluster = new_cluster()
    try:
        yield cluster
    finally:
        cluster.destroy()


def store_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A fresh store of ``backend``."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / f'zhuoji-{secrets.token_hex(3)}.db'}"
    base: str = request.getfixturevalue("postgres")
    return f"{base}?schema=t{secrets.token_hex(6)}"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A fresh store, once on SQLite and once on PostgreSQL."""
    return store_url(backend, tmp_path, request)
