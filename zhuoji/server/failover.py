"""The failover run of a scale-out (issue 26, item 7): processes sharing nothing but one
PostgreSQL database, behind a TCP load balancer, under load, and the owner of the most
tables killed with SIGKILL (``bench/server_load.py --failover``, ``tests/test_server_scale.py``).

:func:`run_failover`

1. starts ``processes`` servers (``zhuoji serve --advertise``), each on its own port and
   in its own empty working folder, all on one PostgreSQL schema;
2. puts :class:`TcpBalancer` in front of them (round robin over plain TCP, skipping a
   backend that refuses connections: any TCP load balancer does as much);
3. creates ``tables`` tables through the balancer (each is owned by the process that
   created it) and plays them with WebSocket seats (:mod:`zhuoji.server.loadgen`) that
   reconnect by themselves, and follow the redirections to a table's owner;
4. once every table plays its second round (or ``kill_after`` seconds in, whichever comes
   first: the kill lands mid-match however fast the machine), SIGKILLs the process owning
   the most tables and measures
   how long until every one of them is leased by another process (*leased*) and answers
   there (*serving*: ``GET /api/tables/{id}`` through the balancer, redirects followed);
5. when every match is over, checks that every acknowledged action is in the stored log
   of its round, in order, for its seat (*acked* against *lost*), that every round ended
   and that every round's log replays to its stored totals.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from zhuoji import eventlog
from zhuoji.server import loadgen
from zhuoji.server.process import ServerProcess
from zhuoji.server.store import normalize_url, split_schema
from zhuoji.variant_io import load_variant


class TcpBalancer:
    """A round-robin TCP proxy on a free loopback port: each connection goes to the next
    backend that accepts it."""

    def __init__(self, backends: list[tuple[str, int]]) -> None:
        self.backends = list(backends)
        self.port = 0
        self._next = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for _ in range(len(self.backends)):
            host, port = self.backends[self._next % len(self.backends)]
            self._next += 1
            try:
                up_reader, up_writer = await asyncio.open_connection(host, port)
                break
            except OSError:
                continue
        else:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


@dataclass
class FailoverReport:
    processes: int
    tables: int
    rounds: int
    killed: str = ""  # the address of the process killed
    killed_tables: int = 0  # the tables it owned
    # the round each of them was in at the kill (its latest acknowledged action's)
    killed_rounds: list[int] = field(default_factory=list)
    leased_s: float | None = None  # kill → every one of its tables leased by another
    serving_s: float | None = None  # kill → every one of them answers at its new owner
    acked: int = 0
    lost: int = 0
    reconnects: int = 0
    redirects: int = 0
    rounds_ended: int = 0
    logs_replayed: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)
    owners_before: dict[str, int] = field(default_factory=dict)
    owners_after: dict[str, int] = field(default_factory=dict)

    def text(self) -> str:
        lines = [
            f"{self.processes} processes on one PostgreSQL store, {self.tables} tables × "
            f"{self.rounds} rounds, 4 WebSocket seats each, through a TCP balancer",
            f"tables per process before: {sorted(self.owners_before.values(), reverse=True)}; "
            f"after: {sorted(self.owners_after.values(), reverse=True)}",
            f"SIGKILL of {self.killed} (owner of {self.killed_tables} tables, in rounds "
            f"{self.killed_rounds} of {self.rounds}): "
            f"leased by others in {_s(self.leased_s)}, serving in {_s(self.serving_s)}",
            f"acked actions {self.acked}, lost {self.lost}; seats sent to the owner "
            f"{self.redirects} times, reconnected after a drop {self.reconnects} times; "
            f"rounds ended {self.rounds_ended} of "
            f"{self.tables * self.rounds}; logs replayed {self.logs_replayed}; "
            f"{self.seconds:.1f} s",
            f"errors {len(self.errors)}",
        ]
        return "\n".join(lines + [f"  error: {e}" for e in self.errors[:10]])


def _s(x: float | None) -> str:
    return "never" if x is None else f"{x:.2f} s"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_failover(
    pg_url: str,
    *,
    processes: int = 3,
    tables: int = 12,
    rounds: int = 2,
    kill_after: float = 3.0,
    lease_s: float = 3.0,
    timeout: float = 240.0,
    python: str | None = None,
) -> FailoverReport:
    """The run above on the PostgreSQL store ``pg_url`` (a fresh ``?schema=`` of it)."""
    schema = f"failover_{secrets.token_hex(4)}"
    sep = "&" if "?" in pg_url else "?"
    url = f"{pg_url}{sep}schema={schema}"
    token = "operator-" + secrets.token_hex(12)
    servers: list[ServerProcess] = []
    folders = [Path(tempfile.mkdtemp(prefix=f"zhuoji-node{i}-")) for i in range(processes)]
    try:
        for folder in folders:
            port = _free_port()
            extra = ["--advertise", f"http://127.0.0.1:{port}", "--lease-seconds", str(lease_s)]
            kw: dict[str, Any] = {"python": python} if python else {}
            servers.append(
                ServerProcess(url, token, port=port, cwd=folder, extra_args=extra, **kw).start()
            )
        return asyncio.run(_run(url, schema, token, servers, tables, rounds, kill_after, timeout))
    finally:
        for srv in servers:
            srv.stop()


def _engine(url: str) -> tuple[sa.Engine, str]:
    base, schema = split_schema(normalize_url(url))
    return sa.create_engine(base), f'"{schema}".' if schema else ""


def _owners(engine: sa.Engine, q: str) -> dict[str, str]:
    with engine.connect() as c:
        rows = c.execute(sa.text(f"SELECT table_id, address FROM {q}zj_table_lease"))
        return {r[0]: r[1] for r in rows}


async def _run(
    url: str,
    schema: str,
    token: str,
    servers: list[ServerProcess],
    tables: int,
    rounds: int,
    kill_after: float,
    timeout: float,
) -> FailoverReport:
    report = FailoverReport(len(servers), tables, rounds)
    engine, q = _engine(url)
    lb = TcpBalancer([("127.0.0.1", int(s.url.rsplit(":", 1)[1])) for s in servers])
    await lb.start()
    base = f"http://127.0.0.1:{lb.port}"
    load = loadgen.LoadReport(tables, rounds, 4)
    t0 = time.perf_counter()
    deadline = time.monotonic() + timeout
    try:
        op = {"Authorization": f"Bearer {token}"}
        # a connection per request, so the balancer deals the tables out among the processes
        no_keepalive = httpx.Limits(max_keepalive_connections=0)
        async with httpx.AsyncClient(
            base_url=base, headers=op, timeout=60, limits=no_keepalive
        ) as http:
            created = await loadgen._create_tables(http, tables, rounds, 4, "guiyang", 7)
        by_address = {s.url: s for s in servers}
        play = asyncio.create_task(loadgen._play(base, created, "ws", load, deadline, True))
        await _until_mid_match(load, [t["id"] for t in created], rounds, kill_after)
        owners = await asyncio.to_thread(_owners, engine, q)
        report.owners_before = dict(Counter(owners.values()))
        latest = _latest_rounds(load)
        victim = _victim(owners, latest, rounds)
        theirs = [t for t, a in owners.items() if a == victim]
        report.killed, report.killed_tables = victim, len(theirs)
        report.killed_rounds = sorted(latest.get(t, 0) for t in theirs)
        by_address[victim].kill()
        killed_at = time.perf_counter()
        await _take_over(engine, q, base, theirs, victim, killed_at, deadline, report)
        await play
        report.seconds = time.perf_counter() - t0
        report.owners_after = dict(Counter((await asyncio.to_thread(_owners, engine, q)).values()))
        report.errors += load.errors
        report.reconnects, report.redirects = load.reconnects, load.redirects
        await asyncio.to_thread(_check, engine, q, created, rounds, load, report)
    finally:
        await lb.close()
        engine.dispose()
    return report


def _latest_rounds(load: loadgen.LoadReport) -> dict[str, int]:
    """Each table's round as its latest acknowledged action says (tables without one left out)."""
    latest: dict[str, int] = {}
    for t, number, _seat, _action in load.acked:
        if number > latest.get(t, 0):
            latest[t] = number
    return latest


def _victim(owners: dict[str, str], latest: dict[str, int], rounds: int) -> str:
    """The process to kill: the one owning the most tables short of their last round, then
    the most tables.  Processes do not run their tables at one pace: a process whose tables
    had all played their last round when the slowest table reached its second was killed
    with nothing left to take over (its seats never dropped), and the run tested no
    failover (1 run in about 30 on a free machine)."""
    owned = Counter(owners.values())
    short = Counter(a for t, a in owners.items() if latest.get(t, 0) < rounds)
    return max(owned, key=lambda a: (short[a], owned[a]))


async def _until_mid_match(
    load: loadgen.LoadReport, table_ids: list[str], rounds: int, at_most: float
) -> None:
    """Wait until every table has an acknowledged action in its second round (the matches
    are under way and none is over), or ``at_most`` seconds; one-round matches wait the
    seconds."""
    end = time.monotonic() + at_most
    want = set(table_ids)
    while time.monotonic() < end:
        if rounds >= 2 and want <= {t for t, number, _seat, _a in load.acked if number >= 2}:
            return
        await asyncio.sleep(0.05)


async def _take_over(
    engine: sa.Engine,
    q: str,
    base: str,
    theirs: list[str],
    victim: str,
    killed_at: float,
    deadline: float,
    report: FailoverReport,
) -> None:
    """Wait until every table of the killed process is leased by another, then until each
    answers at its new owner (through the balancer, redirects followed)."""
    while time.monotonic() < deadline:
        owners = await asyncio.to_thread(_owners, engine, q)
        if all(owners.get(t) not in (None, victim) for t in theirs):
            report.leased_s = time.perf_counter() - killed_at
            break
        await asyncio.sleep(0.05)
    waiting = set(theirs)

    async def answers(http: httpx.AsyncClient, t: str) -> None:
        try:
            r = await http.get(f"/api/tables/{t}")
        except httpx.HTTPError:
            return
        if r.status_code == 200:
            waiting.discard(t)

    async with httpx.AsyncClient(base_url=base, timeout=10, follow_redirects=True) as http:
        while waiting and time.monotonic() < deadline:
            await asyncio.gather(*(answers(http, t) for t in list(waiting)))  # all at once
            if waiting:
                await asyncio.sleep(0.05)
    if not waiting:
        report.serving_s = time.perf_counter() - killed_at


def _check(
    engine: sa.Engine,
    q: str,
    created: list[dict[str, Any]],
    rounds: int,
    load: loadgen.LoadReport,
    report: FailoverReport,
) -> None:
    """Every acknowledged action in the stored log (per table, round and seat, in order);
    every round ended; every round's log replays to its stored totals."""
    logged: dict[tuple[str, int, int], list[str]] = {}
    with engine.connect() as c:
        for t in created:
            rows = c.execute(
                sa.text(
                    f"SELECT number, status, variant, overrides, totals FROM {q}zj_rounds"
                    " WHERE table_id = :t ORDER BY number"
                ),
                {"t": t["id"]},
            ).all()
            report.rounds_ended += sum(r.status == "ended" for r in rows)
            if len(rows) != rounds or any(r.status != "ended" for r in rows):
                report.errors.append(f"table {t['id']}: {len(rows)} rounds, not all ended")
            for r in rows:
                events = [
                    json.loads(e[0])
                    for e in c.execute(
                        sa.text(
                            f"SELECT event FROM {q}zj_events WHERE table_id = :t AND number = :n"
                            " ORDER BY seq"
                        ),
                        {"t": t["id"], "n": r.number},
                    )
                ]
                for e in events:
                    if e.get("type") == "action":
                        text = str(e["action"])
                        logged.setdefault((t["id"], r.number, int(text.split()[0])), []).append(
                            text
                        )
                if r.status != "ended":
                    continue
                try:
                    ruleset = load_variant(r.variant, json.loads(r.overrides) or None)
                    parsed = eventlog.parse(eventlog.dumps(events), f"{t['id']}#{r.number}")
                    replayed = eventlog.replay(parsed, ruleset)
                except Exception as exc:
                    report.errors.append(f"table {t['id']} round {r.number}: {exc}")
                    continue
                report.logs_replayed += 1
                if replayed.returns() != json.loads(r.totals):
                    report.errors.append(f"table {t['id']} round {r.number}: totals differ")
    acked: dict[tuple[str, int, int], list[str]] = {}
    for table_id, number, seat, action in load.acked:
        acked.setdefault((table_id, number, seat), []).append(action)
    for key, actions in acked.items():
        log = logged.get(key, [])
        at = 0
        for a in actions:  # in order: a subsequence of the seat's logged actions
            report.acked += 1
            found = next((j for j in range(at, len(log)) if log[j] == a), None)
            if found is None:
                report.lost += 1
                load.lost.append(f"table {key[0]} round {key[1]} seat {key[2]}: {a}")
            else:
                at = found + 1
