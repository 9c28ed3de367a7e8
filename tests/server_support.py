"""Stores for the server tests: SQLite files, and a real PostgreSQL server.

``postgres`` (session fixture) starts a throwaway PostgreSQL cluster from Debian's
``postgresql`` package (``/usr/lib/postgresql/*/bin``; ``.ci/run`` installs it): ``initdb``
and ``pg_ctl`` on a temporary directory, listening on a free loopback port, run as the
``postgres`` user when the tests run as root (PostgreSQL refuses to run as root).  It is
stopped at the end of the session.  Without the binaries the PostgreSQL cases are skipped,
saying so — unless ``ZHUOJI_REQUIRE_POSTGRES=1`` (CI), where that is a failure.

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


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The URL of a running throwaway PostgreSQL server (database ``postgres``)."""
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
    root = Path(tempfile.mkdtemp(prefix="zhuoji-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    port = _free_port()
    subprocess.run(
        _as_owner([str(bindir / "initdb"), "-D", str(data), "-U", "zhuoji", "-A", "trust",
                   "-E", "UTF8", "--no-sync"]),
        check=True, capture_output=True, cwd=root,
    )  # fmt: skip
    options = (
        f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    )
    subprocess.run(
        _as_owner([str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                   str(root / "log"), "-w", "-t", "60", "start"]),
        check=True, capture_output=True, cwd=root,
    )  # fmt: skip
    try:
        yield f"postgresql://zhuoji@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_owner([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True, cwd=root,
        )  # fmt: skip
        time.sleep(0.1)
        shutil.rmtree(root, ignore_errors=True)


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
