"""Bounded load on loopback: 20 tables at once, every seat a WebSocket client, two rounds
each, against the real ``zhuoji serve`` process on SQLite; and five tables of HTTP clients.

Checks: no client got an error, every round finished, every round's stored event log
replays through the engine to the recorded totals, and every client saw each round's last
event (no lost events).  Prints rounds/s and the action latency percentiles (the same
figures as ``bench/server_load.py``).  Bounded: 45 s for the play, under 60 s in all.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("aiohttp")
pytest.importorskip("websockets")

from bench_support import bench_module
from server_support import postgres  # noqa: F401  (the fixture, asked for by name)

from zhuoji.server.loadgen import run_load
from zhuoji.server.process import ServerProcess

OP = "load-operator-token-0123456789"
TABLES, ROUNDS = 20, 2


def test_twenty_tables_over_websocket(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'load.db'}", OP, cwd=tmp_path) as srv:
        report = asyncio.run(
            run_load(srv.url, OP, tables=TABLES, rounds=ROUNDS, ws_seats=4, timeout=45)
        )
    print("\n" + report.text())
    (tmp_path / "load.json").write_text(json.dumps(report.as_dict(), indent=2))
    assert report.errors == []
    assert report.rounds == TABLES * ROUNDS
    assert report.logs_replayed == TABLES * ROUNDS
    assert report.actions > 0 and 0 < len(report.latencies) <= report.actions
    assert report.rounds_per_s > 0
    assert report.percentile(99) < 5.0, report.text()  # seconds; far above what loopback gives


def test_five_tables_over_http(tmp_path: Path) -> None:
    """The HTTP clients (long poll, post): the same checks on a smaller load."""
    with ServerProcess(f"sqlite:///{tmp_path / 'load.db'}", OP, cwd=tmp_path) as srv:
        report = asyncio.run(
            run_load(srv.url, OP, tables=5, rounds=1, ws_seats=4, timeout=45, transport="http")
        )
    print("\n" + report.text())
    assert report.errors == []
    assert report.rounds == report.logs_replayed == 5
    assert 0 < len(report.latencies) <= report.actions


def _bench() -> Any:
    """``bench/server_load.py`` as a module."""
    return bench_module("server_load")


def test_the_bench_plays_one_install_against_another(capsys: pytest.CaptureFixture[str]) -> None:
    """``bench/server_load.py --against``: two servers at once, each one's figures."""
    bench = _bench()
    args = ["--tables", "4", "--transport", "ws", "--rounds", "1", "--timeout", "45"]
    assert bench.main([*args, "--against", sys.executable, "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [r["server_python"] for r in results] == [sys.executable, sys.executable]
    for r in results:
        assert r["tables"] == 2 and r["rounds"] == 2 and r["errors"] == 0
        assert r["logs_replayed"] == 2 and r["cpu_us_per_engine_action"]["server"] > 0


def test_the_bench_runs_two_servers_on_one_postgresql(
    request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--workers 2 --db postgresql://…``: two processes on one database, a schema each
    (docs/server.md, "Several servers on one PostgreSQL"), the tables dealt out between
    them; the figures add up."""
    args = ["--tables", "4", "--transport", "ws", "--rounds", "1", "--timeout", "45"]
    db = request.getfixturevalue("postgres")
    assert _bench().main([*args, "--workers", "2", "--db", db, "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert result["workers"] == 2 and result["tables"] == 4
    assert result["rounds"] == result["logs_replayed"] == 4 and result["errors"] == 0


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--db", "sqlite:///x.db"], "a SQLite file has one server"),
        (["--db", "postgresql://h/db?schema=a"], "leave ?schema= out"),
        (["--url", "http://127.0.0.1:1"], "not with --url"),
    ],
)
def test_the_bench_refuses_workers_it_cannot_place(
    extra: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        _bench().main(["--workers", "2", *extra])
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--tables", "0"], "--tables: must be at least 1, not 0"),
        (["--tables", "x"], "--tables: 'x' is not a whole number"),
        (["--rounds", "-1"], "--rounds: must be at least 1, not -1"),
        (["--workers", "0"], "--workers: must be at least 1, not 0"),
        (["--timeout", "-3"], "--timeout must be a positive number of seconds"),
        (["--timeout", "nan"], "--timeout must be a positive number of seconds"),
    ],
)
def test_the_bench_refuses_a_bad_number_before_starting_a_server(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rounds -1`` ended in an HTTP 422 traceback and ``--tables 0`` printed empty runs."""
    with pytest.raises(SystemExit) as exit_:
        _bench().main(args)
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err
