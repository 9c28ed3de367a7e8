"""Load benchmark for the table server on loopback: actions/s and latency percentiles at
10, 50 and 150 tables, over WebSocket and over HTTP.

    python bench/server_load.py                          # the sweep: 10/50/150 tables × ws/http
    python bench/server_load.py --tables 100 --transport ws --rounds 2
    python bench/server_load.py --tables 100 --transport ws --workers 2   # two server processes
    python bench/server_load.py --tables 100 --transport ws --workers 2 --db postgresql://…
    python bench/server_load.py --tables 100 --transport ws --against ../main/.venv/bin/python
    python bench/server_load.py --url http://127.0.0.1:8000 --operator-token TOKEN --tables 20
    python bench/server_load.py --failover 3 --db postgresql://… --tables 30 --rounds 4

Each point starts ``zhuoji serve`` on a free loopback port with a fresh SQLite database in
a temporary directory (or ``--db URL``), plays ``--rounds`` rounds at every table at once
with four client seats per table (``--seats``; the rest server bots), and stops it.
``--workers N`` starts N servers, each on its own store (a SQLite file each, or with a
PostgreSQL ``--db`` a schema each of that database), deals the tables out among them and
plays them all at once (the deployment of several processes, each owning its tables);
the figures are the sums (server CPU summed over the processes).  ``--against PYTHON``
plays half the tables on a server of another install at the same time and prints each
server's figures (their load generator CPU is the one process's, for both).
Printed per point: engine actions/s (every action the server applied, the clients' and its
bots', over the play), client actions/s, action latency p50/p99 (sent → ack over
WebSocket; the POST over HTTP), and the CPU seconds the server process and this load
generator used over the play (table creation to the last client done; not the checks
after it), also per engine action — the machine is shared, so compare CPU time as well as
wall time.  Checks:
no errors, every round's event log replays to the recorded totals.  Exits 1 if a check
fails.  Traffic goes to loopback only; every run is bounded by ``--timeout``.

``--failover N`` (with a PostgreSQL ``--db``) is the scale-out's failover run
(:mod:`zhuoji.server.failover`): N ``zhuoji serve --advertise`` processes on one schema,
each on its own port and in its own working folder, behind a TCP balancer; the tables are
created and played through the balancer by WebSocket seats that reconnect by themselves;
``--kill-after`` seconds in, the owner of the most tables is SIGKILLed.  Printed: the time
until its tables are leased by others and until they answer there, acknowledged actions
against those missing from the stored logs.  Exits 1 on an error, a lost action or a
take-over of 10 s or more.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from zhuoji.cli import at_least
from zhuoji.server.loadgen import LoadReport, run_load
from zhuoji.server.process import ServerProcess

try:  # the load generator shares the machine with the server: give it the fast loop too
    from uvloop import run as run_async
except ImportError:  # pragma: no cover - uvloop is in the server extra except on Windows
    run_async = asyncio.run

TOKEN = "bench-operator-token-0000"


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def point(args: argparse.Namespace, tables: int, transport: str) -> dict[str, Any]:
    """One point: ``--workers`` servers, each on its own store, the tables dealt out among
    them round-robin and played at once from this one load generator."""
    reports = play_point(args, tables, transport, [args.server_python] * args.workers)
    report = merged(reports)
    d = report.as_dict()
    d["workers"] = args.workers
    d["error_lines"] = report.errors[:5]
    return d


def play_point(
    args: argparse.Namespace, tables: int, transport: str, pythons: list[str]
) -> list[LoadReport]:
    """Start one server per interpreter in ``pythons``, each on its own store, deal the
    tables out among them and play them all at once; a report per server."""
    workers = len(pythons)
    shares = [tables // workers + (i < tables % workers) for i in range(workers)]
    with contextlib.ExitStack() as stack:
        servers = []
        for i, python in enumerate(pythons):
            tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix=f"zhuoji-load-{i}-"))
            db = worker_store(args.db, i, workers) or f"sqlite:///{Path(tmp) / 'load.db'}"
            servers.append(stack.enter_context(ServerProcess(db, TOKEN, cwd=tmp, python=python)))

        async def play() -> list[LoadReport]:
            runs = []
            for srv, share in zip(servers, shares, strict=True):
                assert srv.proc is not None
                pid = srv.proc.pid
                runs.append(
                    run_load(srv.url, TOKEN, tables=share, rounds=args.rounds, ws_seats=args.seats,
                             variant=args.variant, seed=args.seed, timeout=args.timeout,
                             transport=transport, verify=not args.no_verify,
                             server_cpu=lambda pid=pid: _cpu_of(pid))
                )  # fmt: skip
            return list(await asyncio.gather(*runs))

        return run_async(play())


def worker_store(db: str | None, worker: int, workers: int) -> str | None:
    """The store of server ``worker`` of ``workers``: ``--db`` itself for one server; for
    several on one PostgreSQL, a schema each (``?schema=load_wN``), the deployment of
    docs/server.md ("Several servers on one PostgreSQL")."""
    if db is None or workers == 1:
        return db
    return f"{db}{'&' if '?' in db else '?'}schema=load_w{worker}"


def paired(args: argparse.Namespace, tables: int, transport: str) -> list[dict[str, Any]]:
    """``--against``: half the tables on a server run by ``--server-python``, half on one
    run by the other interpreter, played at the same time by this load generator; each
    server's figures on their own.  Both see the same machine and the same load, so their
    ratio holds on a machine other jobs share, where runs one after the other do not."""
    out = []
    pythons = [args.server_python, args.against]
    for python, report in zip(pythons, play_point(args, tables, transport, pythons), strict=True):
        d = report.as_dict()
        d["server_python"] = python
        d["error_lines"] = report.errors[:5]
        out.append(d)
    return out


def merged(reports: list[LoadReport]) -> LoadReport:
    """One report for runs played at the same time against several servers: counts and
    server CPU add up, latencies pool, the wall time is the longest run's; the load
    generator's CPU is this process's, which every run measured over (nearly) the same
    span, so the largest is kept."""
    if len(reports) == 1:
        return reports[0]
    first = reports[0]
    out = LoadReport(sum(r.tables for r in reports), first.rounds_per_table, first.ws_seats)
    out.transport = first.transport
    out.seconds = max(r.seconds for r in reports)
    for r in reports:
        out.engine_actions += r.engine_actions
        out.rounds += r.rounds
        out.actions += r.actions
        out.latencies += r.latencies
        out.errors += r.errors
        out.logs_replayed += r.logs_replayed
        out.events += r.events
    cpus = [r.server_cpu for r in reports]
    out.server_cpu = None if None in cpus else sum(c for c in cpus if c is not None)
    out.loadgen_cpu = max(r.loadgen_cpu for r in reports)
    out.server = {
        k: sum(r.server.get(k, 0) for r in reports) for k in ("actions", "commits", "writes")
    }
    out.server["backend"] = first.server.get("backend")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=at_least(1), nargs="+", default=[10, 50, 150])
    p.add_argument("--transport", choices=["ws", "http", "both"], default="both")
    p.add_argument("--rounds", type=at_least(1), default=1, help="rounds per table")
    p.add_argument(
        "--seats", type=int, default=4, choices=range(0, 5), help="client seats per table"
    )
    p.add_argument("--variant", default="guiyang")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=300.0, help="give up after this many seconds")
    p.add_argument(
        "--db", help="database URL for the started server (default: SQLite in a temp dir)"
    )
    p.add_argument(
        "--workers",
        type=at_least(1),
        default=1,
        help="server processes to start, each on its own SQLite store, the tables dealt out "
        "among them (the deployment of several processes, docs/server.md)",
    )
    p.add_argument("--url", help="use a running server (loopback) instead of starting one")
    p.add_argument("--operator-token", help="the running server's operator token (with --url)")
    p.add_argument(
        "--server-python",
        default=sys.executable,
        help="the interpreter that runs the started server (another virtualenv's python: "
        "compare another install under the same load generator)",
    )
    p.add_argument(
        "--against",
        metavar="PYTHON",
        help="play half the tables on a server run by this interpreter and half on the "
        "--server-python one, at the same time, and print each (a before/after ratio under "
        "the same load and the same machine noise)",
    )
    p.add_argument("--no-verify", action="store_true", help="skip replaying every log afterwards")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--failover",
        type=at_least(2),
        metavar="N",
        help="the failover run: N scale-out processes on the PostgreSQL --db behind a TCP "
        "balancer, the owner of the most tables SIGKILLed under load",
    )
    p.add_argument(
        "--kill-after", type=float, default=3.0, help="--failover: seconds of play before the kill"
    )
    p.add_argument(
        "--lease-seconds", type=float, default=3.0, help="--failover: the processes' lease length"
    )
    args = p.parse_args(argv)
    if args.failover:
        return failover(p, args)
    if not args.timeout > 0:
        p.error(f"--timeout must be a positive number of seconds, not {args.timeout}")
    if args.against and (args.db or args.url):
        p.error(
            "--against starts two servers on SQLite stores of their own: not with --db or --url"
        )
    if args.workers > 1 and args.url:
        p.error("--workers starts its servers: not with --url")
    if args.workers > 1 and args.db and not args.db.startswith(("postgresql", "postgres:")):
        p.error(
            "--workers with --db: several servers share a PostgreSQL database, a schema each; "
            "a SQLite file has one server (leave --db out: each server gets a file of its own)"
        )
    if args.workers > 1 and args.db and "schema=" in args.db:
        p.error("--workers with --db: each server gets a schema of its own; leave ?schema= out")
    if args.workers > 1 and args.against:
        p.error("--against plays one server against another: not with --workers")
    transports = ["ws", "http"] if args.transport == "both" else [args.transport]
    results = []
    for transport in transports:
        for tables in args.tables:
            if args.url:
                if not args.operator_token:
                    p.error("--url needs --operator-token")
                report = run_async(
                    run_load(args.url.rstrip("/"), args.operator_token, tables=tables,
                             rounds=args.rounds, ws_seats=args.seats, timeout=args.timeout,
                             variant=args.variant, seed=args.seed, transport=transport,
                             verify=not args.no_verify)
                )  # fmt: skip
                results.append(report.as_dict())
            elif args.against:
                results += paired(args, tables, transport)
            else:
                results.append(point(args, tables, transport))
            for r in results[-2:] if args.against else results[-1:]:
                if args.json:
                    continue
                lat, cpu, per = r["latency_ms"], r["cpu_s"], r["cpu_us_per_engine_action"]
                workers_text = f" on {args.workers} servers" if args.workers > 1 else ""
                if args.against:
                    workers_text = f" of {tables} on {r['server_python']}"
                print(
                    f"{transport:<4} {r['tables']:>4} tables{workers_text}  "
                    f"{r['rounds']:>4} rounds in {r['seconds']:>6.1f} s  "
                    f"engine {r['engine_actions_per_s']:>7.1f} actions/s  clients {r['actions_per_s']:>6.1f}/s  "
                    f"p50 {lat['p50']:>7.1f} ms  p99 {lat['p99']:>7.1f} ms  "
                    f"CPU s server {cpu['server']} / loadgen {cpu['loadgen']} "
                    f"(us per engine action {per['server']} / {per['loadgen']})  "
                    f"errors {r['errors']}  commits {r['server'].get('commits', '?')}",
                    flush=True,
                )
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    return 0 if all(r["errors"] == 0 for r in results) else 1


def failover(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--failover N``: the scale-out's failover run (module docstring)."""
    if not (args.db and args.db.startswith(("postgresql", "postgres:"))):
        p.error("--failover needs a PostgreSQL --db (the processes share its database)")
    if "schema=" in args.db:
        p.error("--failover makes a schema of its own; leave ?schema= out")
    if args.transport == "http" or len(args.tables) != 1 or args.seats != 4:
        p.error("--failover plays one --tables point of four WebSocket seats per table")
    from zhuoji.server.failover import run_failover

    report = run_failover(
        args.db, processes=args.failover, tables=args.tables[0], rounds=args.rounds,
        kill_after=args.kill_after, lease_s=args.lease_seconds, timeout=args.timeout,
        python=args.server_python,
    )  # fmt: skip
    print(report.text(), flush=True)
    if args.json:
        print(json.dumps(report.__dict__, indent=2, ensure_ascii=False))
    slow = report.serving_s is None or report.serving_s >= 10
    return 1 if report.errors or report.lost or slow else 0


if __name__ == "__main__":
    sys.exit(main())
