"""A WebSocket load generator for the table server (``bench/server_load.py``, the load test).

It creates ``tables`` tables of ``ws_seats`` WebSocket-driven seats (the rest are server
bots) whose rounds start when every human seat is ready, connects one client per seat, and
plays ``rounds`` rounds at every table at once.  Each client answers its own view: it wins
when it can, takes kongs, passes other claims, declares when offered, and otherwise
discards the tile that leaves the fewest tiles from ready.

Measured: rounds per second over the whole run, and the latency of each action (sent →
the server's ``ack``, which comes after the action and the bots' answers are committed and
every seat's new view is queued: in the state message that shows the action, or on its
own).  Checked: no client received an error; every round's
stored event log replays through the engine (:func:`zhuoji.eventlog.replay`) to the totals
the server recorded; every client saw the final event of every round (no lost events).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import httpx
import orjson

from zhuoji import eventlog, hand, tiles
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import load_variant

_PREFERRED = ("hu", "angang", "bugang", "gang")
_KIND = {tiles.TILE_TEXT[k]: k for k in range(tiles.NUM_KINDS)}  # "5m" → its kind


def choose(view: dict[str, Any]) -> str:
    """A quick client-side choice from a view's legal actions."""
    legal: list[str] = [a["action"] for a in view["legal"]]
    by_word: dict[str, list[str]] = {}
    for a in legal:
        by_word.setdefault(a.split()[1], []).append(a)
    for word in (*_PREFERRED, "pass", "declare"):
        if word in by_word:
            return by_word[word][0]
    counts = tiles.counts(view["hand"])
    best: tuple[int, int] | None = None
    choice = legal[0]
    for a in by_word.get("discard", legal):
        text = a.split()[2]
        k = _KIND.get(text)
        if k is None:
            k = tiles.parse_one(text)
        counts[k] -= 1
        key = (hand.shanten(counts), -counts[k])
        counts[k] += 1
        if best is None or key < best:
            best, choice = key, a
    return choice


@dataclass
class LoadReport:
    tables: int
    rounds_per_table: int
    ws_seats: int
    seconds: float = 0.0
    transport: str = "ws"
    engine_actions: int = 0  # actions the server applied (clients' and bots') during the play
    rounds: int = 0
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    logs_replayed: int = 0
    events: int = 0
    server: dict[str, Any] = field(default_factory=dict)
    #: CPU seconds over the play (table creation to the last client done; not the checks
    #: after it): the server process's (when the caller can read it) and this process's
    server_cpu: float | None = None
    loadgen_cpu: float = 0.0
    #: WebSocket seats' reconnections (a scale-out: the owner killed, a table moved)
    reconnects: int = 0
    #: WebSocket seats sent to a table's owner by the process they reached (close 4307)
    redirects: int = 0
    #: every acknowledged client action: (table, round, seat, action)
    acked: list[tuple[str, int, int, str]] = field(default_factory=list)
    #: acknowledged actions missing from the stored logs (must stay empty)
    lost: list[str] = field(default_factory=list)

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return 0.0
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]

    def as_dict(self) -> dict[str, Any]:
        return {
            "tables": self.tables,
            "rounds_per_table": self.rounds_per_table,
            "ws_seats_per_table": self.ws_seats,
            "rounds": self.rounds,
            "seconds": round(self.seconds, 3),
            "rounds_per_s": round(self.rounds_per_s, 2),
            "transport": self.transport,
            "client_actions": self.actions,
            "actions_per_s": round(self.actions / self.seconds, 1) if self.seconds else 0.0,
            "engine_actions": self.engine_actions,
            "engine_actions_per_s": round(self.engine_actions / self.seconds, 1)
            if self.seconds
            else 0.0,
            "latency_ms": {
                "p50": round(self.percentile(50) * 1000, 2),
                "p90": round(self.percentile(90) * 1000, 2),
                "p99": round(self.percentile(99) * 1000, 2),
                "max": round(max(self.latencies, default=0.0) * 1000, 2),
            },
            "cpu_s": {
                "server": round(self.server_cpu, 2) if self.server_cpu is not None else None,
                "loadgen": round(self.loadgen_cpu, 2),
            },
            "cpu_us_per_engine_action": {
                "server": round(1e6 * self.server_cpu / self.engine_actions)
                if self.server_cpu is not None and self.engine_actions
                else None,
                "loadgen": round(1e6 * self.loadgen_cpu / self.engine_actions)
                if self.engine_actions
                else None,
            },
            "errors": len(self.errors),
            "logs_replayed": self.logs_replayed,
            "events": self.events,
            "server": self.server,
        }

    def text(self) -> str:
        d = self.as_dict()
        lat = d["latency_ms"]
        lines = [
            f"tables {self.tables} × {self.rounds_per_table} rounds, {self.ws_seats} {self.transport} seats per table",
            f"rounds {self.rounds} in {d['seconds']} s: {d['rounds_per_s']} rounds/s",
            f"engine actions {self.engine_actions}: {d['engine_actions_per_s']}/s; "
            f"client actions {self.actions}: {d['actions_per_s']}/s; latency p50 {lat['p50']} ms, "
            f"p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms",
            f"CPU over the play: server {d['cpu_s']['server']} s, load generator "
            f"{d['cpu_s']['loadgen']} s ({d['cpu_us_per_engine_action']['server']} / "
            f"{d['cpu_us_per_engine_action']['loadgen']} us per engine action)",
            f"errors {len(self.errors)}; event logs replayed {self.logs_replayed} ({self.events} events)",
            f"server: {self.server.get('actions', '?')} actions in {self.server.get('commits', '?')} commits "
            f"of {self.server.get('writes', '?')} writes ({self.server.get('backend', '?')})",
        ]
        lines += [f"  error: {e}" for e in self.errors[:10]]
        return "\n".join(lines)


@dataclass
class _Seen:
    """What one client saw: the last seq of every round."""

    last_seq: dict[int, int] = field(default_factory=dict)


async def _seat_client(
    session: aiohttp.ClientSession,
    ws_url: str,
    token: str,
    report: LoadReport,
    seen: _Seen,
    deadline: float,
    follow: bool = False,
) -> None:
    """One seat over its WebSocket (latency: the action sent → its ack).  ``follow``: a
    seat of a scale-out, which reconnects by itself (see :func:`_play_seat`)."""
    try:
        async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
            await _play_seat(session, ws_url, token, report, seen, follow)
    except TimeoutError:
        report.errors.append(f"{ws_url}: timed out")


@dataclass
class _Seat:
    """A seat client's state, kept across its connections."""

    table_id: str
    seat: int
    acted: tuple[int, int] | None = None
    retries: int = 0  # 409s answered by a sync, in a row
    readied: int | None = -1  # the round after which this seat said ready
    over: bool = False
    #: message id → (sent at, round, action) of the actions not yet acknowledged
    sent: dict[int, tuple[float, int, str]] = field(default_factory=dict)
    next_id: int = 1


async def _play_seat(
    session: aiohttp.ClientSession,
    ws_url: str,
    token: str,
    report: LoadReport,
    seen: _Seen,
    follow: bool = False,
) -> None:
    """One seat's client until its match is over (the caller bounds it in time).  aiohttp's
    WebSocket client reads frames in compiled code (websockets' client, used before, cost
    about as much CPU per frame as the server's own framing): the load generator shares
    the machine with the server it measures.

    ``follow`` (a scale-out, docs/server.md): the seat goes where the server sends it (the
    close code 4307 with the owner's address) and, when its connection drops or is closed
    (the owner killed, the table moved), reconnects by itself to ``ws_url`` (the load
    balancer), which routes it to the table's owner of the moment, as the browser client
    does.  Every acknowledged action is recorded (``report.acked``) for the check that none
    is lost; an action whose acknowledgement was cut off is not counted either way."""
    parts = ws_url.split("/ws/", 1)
    table_id = parts[1].rsplit("/", 1)[-1]
    st = _Seat(table_id, -1)
    url = ws_url
    pause = 0.05
    while True:
        try:
            async with session.ws_connect(url, max_msg_size=2**23) as ws:
                await ws.send_str(_text({"type": "auth", "token": token}))
                outcome = await _seat_connection(ws, url, st, report, seen, follow)
        except (aiohttp.ClientError, OSError) as exc:
            if not follow:
                raise
            outcome = f"failed: {exc.__class__.__name__}"
        if outcome == "done":
            return
        if outcome.startswith("moved "):
            report.redirects += 1
        else:
            report.reconnects += 1
        st.readied = -1  # ready flags are not kept by a table taken over: say it again
        st.sent.clear()  # their acknowledgements will not come: their fate is unknown
        st.acted = None
        if outcome.startswith("moved "):
            url = "ws" + outcome[len("moved http") :] + "/ws/" + parts[1]
            pause = 0.05
        else:
            url = ws_url
            await asyncio.sleep(pause)
            pause = min(1.0, pause * 2)


async def _seat_connection(
    ws: aiohttp.ClientWebSocketResponse,
    ws_url: str,
    st: _Seat,
    report: LoadReport,
    seen: _Seen,
    follow: bool,
) -> str:
    """One connection of a seat: ``done`` (its match is over), ``moved ADDRESS`` or
    ``dropped`` (``follow``: reconnect)."""
    while True:
        frame = await ws.receive()
        if frame.type is not aiohttp.WSMsgType.TEXT:
            if frame.type in _WS_CLOSED:
                code = ws.close_code
                if follow and code == MOVED_WS and isinstance(frame.extra, str):
                    return f"moved {frame.extra}"
                if follow and code not in (4401, 4403, 4404, 4429):
                    return "dropped"
                report.errors.append(f"{ws_url}: closed by the server ({code})")
                return "done"
            continue
        m = orjson.loads(frame.data)
        kind = m.get("type")
        if kind == "hello":
            st.seat = m["seat"]
            continue
        if kind == "ack" or "ack" in m:  # on its own, or in the state showing the action
            one = st.sent.pop(m.get("id") if kind == "ack" else m["ack"], None)
            if one is not None:
                report.latencies.append(time.perf_counter() - one[0])
                report.acked.append((st.table_id, one[1], st.seat, one[2]))
            if kind == "ack":
                if st.over and not st.sent:
                    return "done"
                continue
        if kind == "error":
            st.sent.pop(m.get("id"), None)
            if m.get("status") in (409, 503) and st.retries < 3:
                # benign: the action answered a state that had moved on (or the window
                # closed; or the table is moving): ask for the current view, decide again
                st.retries += 1
                st.acted = None
                await ws.send_str(_text({"type": "sync"}))
                continue
            report.errors.append(f"{ws_url}: {m.get('error')}")
            if st.over and not st.sent:
                return "done"
            continue
        if kind != "state":
            continue
        v = m["view"]
        rnd = v["round"]
        if rnd is not None:
            prev = seen.last_seq.get(rnd, -1)
            if v["seq"] < prev:
                report.errors.append(
                    f"{ws_url}: round {rnd} went back from seq {prev} to {v['seq']}"
                )
            seen.last_seq[rnd] = max(prev, v["seq"])
        if v["match"]["over"]:
            st.over = True
            if not st.sent:
                return "done"
            continue
        if v["can_ready"] and st.readied != rnd:
            st.readied = rnd
            await ws.send_str(_text({"type": "ready", "id": 0}))
            continue
        if v["legal"] and (rnd, v["seq"]) != st.acted:
            if st.acted is not None:
                st.retries = 0
            st.acted = (rnd, v["seq"])
            action = choose(v)
            st.sent[st.next_id] = (time.perf_counter(), rnd, action)
            await ws.send_str(
                _text({"type": "action", "action": action, "seq": v["seq"], "id": st.next_id})
            )
            st.next_id += 1
            report.actions += 1


#: the close code of a table served elsewhere (zhuoji.server.routing.MOVED_WS)
MOVED_WS = 4307

_WS_CLOSED = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED)


def _text(message: dict[str, Any]) -> str:
    """A message as JSON text (the server reads text frames only)."""
    return orjson.dumps(message).decode()


async def _http_seat_client(
    http: aiohttp.ClientSession,
    tid: str,
    token: str,
    report: LoadReport,
    seen: _Seen,
    deadline: float,
) -> None:
    """One seat over plain HTTP: long-poll the view (``changed_from``), act when it may
    (latency: the POST).  Its own aiohttp session (one keep-alive connection): this client
    costs a fifth of httpx's CPU per request, and the load generator shares the machine
    with the server it measures."""
    h = {"Authorization": f"Bearer {token}"}
    acted: tuple[int, int] | None = None
    readied: int | None = -1
    tag: str | None = None
    while time.monotonic() < deadline:
        params: dict[str, str | int] = {"changed_from": tag, "wait": 20} if tag else {}
        async with http.get(f"/api/tables/{tid}/view", headers=h, params=params) as r:
            tag = r.headers.get("etag")
            v = orjson.loads(await r.read())
        rnd = v["round"]
        if rnd is not None:
            seen.last_seq[rnd] = max(seen.last_seq.get(rnd, -1), v["seq"])
        if v["match"]["over"]:
            return
        if v["can_ready"] and readied != rnd:
            readied = rnd
            async with http.post(f"/api/tables/{tid}/ready", headers=h) as r:
                await r.read()
            tag = None
            continue
        if v["legal"] and (rnd, v["seq"]) != acted:
            acted = (rnd, v["seq"])
            t0 = time.perf_counter()
            async with http.post(
                f"/api/tables/{tid}/actions",
                data=orjson.dumps({"action": choose(v), "seq": v["seq"]}),
                headers={**h, "Content-Type": "application/json"},
            ) as r:
                body = await r.read()
                status = r.status
            report.actions += 1
            if status == 200:
                report.latencies.append(time.perf_counter() - t0)
                out = orjson.loads(body)["view"]
                seen.last_seq[rnd] = max(seen.last_seq.get(rnd, -1), out["seq"])
            elif status == 409:
                acted = None  # benign: the state moved on; look again
            else:
                report.errors.append(f"{tid}: {status} {body[:200]!r}")
            tag = None
            continue
    report.errors.append(f"{tid}: timed out")


async def run_load(
    base_url: str,
    operator_token: str,
    *,
    tables: int = 20,
    rounds: int = 2,
    ws_seats: int = 4,
    variant: str = "guiyang",
    seed: int = 1,
    timeout: float = 120.0,
    verify: bool = True,
    transport: str = "ws",
    server_cpu: Callable[[], float] | None = None,
) -> LoadReport:
    """Play the load and check it (see the module docstring).  ``transport``: ``ws`` (one
    WebSocket per seat) or ``http`` (each seat polls its view and posts its actions).
    ``server_cpu``: reads the server process's CPU seconds so far (a local server), for
    its CPU over the play."""
    report = LoadReport(tables, rounds, ws_seats)
    report.transport = transport
    op = {"Authorization": f"Bearer {operator_token}"}
    async with httpx.AsyncClient(base_url=base_url, headers=op, timeout=60) as http:
        before = (await http.get("/api/health")).json()
        cpu0 = server_cpu() if server_cpu is not None else 0.0
        own0 = time.process_time()
        t0 = time.perf_counter()  # bot-only tables start playing as soon as they exist
        deadline = time.monotonic() + timeout
        created = await _create_tables(http, tables, rounds, ws_seats, variant, seed)
        seen = await _play(base_url, created, transport, report, deadline)
        await _matches_over(http, created, rounds, deadline)
        report.seconds = time.perf_counter() - t0
        report.loadgen_cpu = time.process_time() - own0
        if server_cpu is not None:
            report.server_cpu = server_cpu() - cpu0
        report.server = (await http.get("/api/health")).json()
        report.engine_actions = report.server["actions"] - before["actions"]
        await _check(http, created, rounds, verify, seen, report)
    return report


async def _create_tables(
    http: httpx.AsyncClient, tables: int, rounds: int, ws_seats: int, variant: str, seed: int
) -> list[dict[str, Any]]:
    """``tables`` tables of ``ws_seats`` client seats (the rest greedy server bots) whose
    rounds start when every client seat is ready; the API's answers (with the tokens)."""
    created = []
    for i in range(tables):
        players = 4
        seats = [
            {"kind": "human"} if s < ws_seats else {"kind": "bot", "bot": "greedy"}
            for s in range(players)
        ]
        r = await http.post(
            "/api/tables",
            json={
                "name": f"load {i}",
                "variant": variant,
                "seats": seats,
                "seed": seed * 1000 + i,
                "rounds": rounds,
                "next_round": "ready",
                # answers as they come (the window a table of people takes by default
                # pauses every discard for seconds: the points would measure that clock)
                "claim_window_ms": 0,
            },
        )
        r.raise_for_status()
        created.append(r.json())
    return created


async def _play(
    base_url: str,
    created: list[dict[str, Any]],
    transport: str,
    report: LoadReport,
    deadline: float,
    follow: bool = False,
) -> dict[tuple[str, int], _Seen]:
    """One client per seat of every table, all at once, until their matches are over;
    what each saw, by (table, seat).  ``follow``: WebSocket seats of a scale-out, which
    go where they are sent and reconnect by themselves (:func:`_play_seat`)."""
    ws_base = "ws" + base_url[len("http") :]
    seen: dict[tuple[str, int], _Seen] = {}
    clients = []
    seat_clients: list[aiohttp.ClientSession] = []  # one each: a shared pool scans all
    ws_session: aiohttp.ClientSession | None = None
    for t in created:
        for seat, token in t["tokens"].items():
            s = seen[(t["id"], int(seat))] = _Seen()
            if transport == "http":
                one = aiohttp.ClientSession(base_url, timeout=aiohttp.ClientTimeout(total=60))
                seat_clients.append(one)
                clients.append(_http_seat_client(one, t["id"], token, report, s, deadline))
            else:
                if ws_session is None:  # one for every WebSocket seat, any number at once
                    ws_session = aiohttp.ClientSession(
                        connector=aiohttp.TCPConnector(limit=0),
                        timeout=aiohttp.ClientTimeout(total=None, sock_connect=30),
                    )
                    seat_clients.append(ws_session)
                url = f"{ws_base}/ws/tables/{t['id']}"
                clients.append(_seat_client(ws_session, url, token, report, s, deadline, follow))
    results = await asyncio.gather(*clients, return_exceptions=True)
    for one in seat_clients:
        await one.close()
    for res in results:
        if isinstance(res, BaseException):
            report.errors.append(f"client failed: {res!r}")
    return seen


async def _matches_over(
    http: httpx.AsyncClient, created: list[dict[str, Any]], rounds: int, deadline: float
) -> None:
    """Bot-only tables (no client seats) play on by themselves: wait for their matches."""
    ids = {t["id"] for t in created}
    while time.monotonic() < deadline:
        listing = (await http.get("/api/tables")).json()
        if all(s["rounds_played"] >= rounds for s in listing if s["id"] in ids):
            break
        await asyncio.sleep(0.1)


async def _check(
    http: httpx.AsyncClient,
    created: list[dict[str, Any]],
    rounds: int,
    verify: bool,
    seen: dict[tuple[str, int], _Seen],
    report: LoadReport,
) -> None:
    """Count the rounds played; with ``verify``, replay every round's log to its totals
    and check every client saw the round's last state."""
    rulesets: dict[str, Ruleset] = {}
    for t in created:
        state = (await http.get(f"/api/tables/{t['id']}")).json()
        report.rounds += state["rounds_played"]
        if state["rounds_played"] != rounds:
            report.errors.append(
                f"table {t['id']}: {state['rounds_played']} of {rounds} rounds played"
            )
        if not verify:
            continue
        rows = (await http.get(f"/api/tables/{t['id']}/rounds")).json()
        for row in rows:
            log = (await http.get(f"/api/tables/{t['id']}/rounds/{row['number']}/log")).json()[
                "events"
            ]
            key = json.dumps([row["variant"], row["overrides"]], sort_keys=True)
            if key not in rulesets:
                rulesets[key] = load_variant(row["variant"], row["overrides"] or None)
            try:
                events = eventlog.parse(eventlog.dumps(log), f"{t['id']}#{row['number']}")
                replayed = eventlog.replay(events, rulesets[key])
            except Exception as exc:
                report.errors.append(
                    f"table {t['id']} round {row['number']}: does not replay: {exc}"
                )
                continue
            report.logs_replayed += 1
            report.events += len(log)
            if replayed.returns() != row["totals"]:
                report.errors.append(
                    f"table {t['id']} round {row['number']}: totals differ from the replay"
                )
            final = replayed.public_seq()  # answers in claim windows are not counted
            for seat in t["tokens"]:
                last = seen[(t["id"], int(seat))].last_seq.get(row["number"])
                if last != final:
                    report.errors.append(
                        f"table {t['id']} round {row['number']} seat {seat}: "
                        f"last seq seen {last}, the round ended at seq {final}"
                    )
