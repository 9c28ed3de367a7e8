"""Load benchmark for the table server: many tables at once over WebSocket, on loopback.

    python bench/server_load.py                       # 20 tables × 3 rounds, 4 WS seats each
    python bench/server_load.py --tables 40 --rounds 2 --ws-seats 2 --json
    python bench/server_load.py --url http://127.0.0.1:8000 --operator-token TOKEN

Without ``--url`` it starts ``zhuoji serve`` on a free loopback port with a fresh SQLite
database in a temporary directory, and stops it at the end.  Prints rounds/s, WebSocket
action latency (p50/p90/p99: sent → ack, i.e. applied, committed and broadcast) and the
checks: no errors, and every round's event log replays to the recorded totals.  Exits 1 if
a check fails.  Traffic goes to loopback only; the run is bounded by ``--timeout``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

from zhuoji.server.loadgen import run_load
from zhuoji.server.process import ServerProcess


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--rounds", type=int, default=3, help="rounds per table")
    p.add_argument(
        "--ws-seats",
        type=int,
        default=4,
        choices=range(0, 5),
        help="WebSocket seats per table (rest: server bots)",
    )
    p.add_argument("--variant", default="guiyang")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=300.0, help="give up after this many seconds")
    p.add_argument("--url", help="use a running server (loopback) instead of starting one")
    p.add_argument("--operator-token", help="the running server's operator token (with --url)")
    p.add_argument(
        "--db", help="database URL for the started server (default: SQLite in a temp dir)"
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    async def go(url: str, token: str) -> int:
        report = await run_load(
            url, token, tables=args.tables, rounds=args.rounds, ws_seats=args.ws_seats,
            variant=args.variant, seed=args.seed, timeout=args.timeout,
        )  # fmt: skip
        if args.json:
            print(json.dumps(report.as_dict(), indent=2))
        else:
            print(report.text())
        return 0 if not report.errors else 1

    if args.url:
        if not args.operator_token:
            p.error("--url needs --operator-token")
        return asyncio.run(go(args.url.rstrip("/"), args.operator_token))
    with tempfile.TemporaryDirectory(prefix="zhuoji-load-") as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.db'}"
        token = "bench-operator-token-0000"
        with ServerProcess(db, token, cwd=tmp) as srv:
            return asyncio.run(go(srv.url, token))


if __name__ == "__main__":
    sys.exit(main())
