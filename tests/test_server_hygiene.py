"""Connection hygiene (issue 26, *Connections*): a deadline for each request's head and an
idle timeout, a cap on one seat's connections, a WebSocket Origin allow-list (same origin by
default), a back-off on wrong tokens per client address, and no token in a logged URL.

The timeouts need a real server (uvicorn's protocol): they run ``zhuoji serve`` with short
ones.  The rest runs in process.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import httpx
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from zhuoji.server.app import create_app
from zhuoji.server.auth import Attempts, RedactTokens
from zhuoji.server.process import ServerProcess
from zhuoji.server.routes.seats import MAX_SEAT_POLLS
from zhuoji.server.routes.socket import MAX_SEAT_SOCKETS

OP = "hygiene-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}


def _table(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/tables", json={"seed": 2, "claim_window_ms": 0}, headers=OPH)
    assert r.status_code == 201
    return dict(r.json())


def _closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed ``sock`` (reading b""), or None if it did not."""
    sock.settimeout(0.2)
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - start
    return None


# -- timeouts (a real server) ----------------------------------------------------------------


def test_silent_and_slow_heads_are_cut_off(tmp_path: Path) -> None:
    """A connection that says nothing, or sends its headers a byte at a time, stayed open
    for two minutes and more; now it is closed once the head deadline passes, and a silent
    keep-alive connection after its idle timeout.  Requests that come in time are served."""
    args = ["--header-timeout", "1", "--idle-timeout", "1"]
    with ServerProcess(f"sqlite:///{tmp_path / 'h.db'}", OP, extra_args=args) as srv:
        parts = urlsplit(srv.url)
        address = (parts.hostname or "127.0.0.1", parts.port or 80)
        with socket.create_connection(address) as silent:
            took = _closed_within(silent, 8)
            assert took is not None and took < 6, took
        with socket.create_connection(address) as slow:
            slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            start, closed = time.monotonic(), False
            while time.monotonic() - start < 8 and not closed:
                try:
                    slow.sendall(b"X")  # a header a byte every 0.2 s: never complete
                except OSError:
                    closed = True
                    break
                closed = _closed_within(slow, 0.2) is not None
            assert closed and time.monotonic() - start < 6
        with socket.create_connection(address) as idle:
            idle.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            idle.settimeout(5)
            assert idle.recv(4096).startswith(b"HTTP/1.1 200")
            took = _closed_within(idle, 8)  # kept alive, then silent
            assert took is not None and took < 6, took
        assert httpx.get(srv.url + "/api/health").status_code == 200


def test_no_token_in_the_access_log(tmp_path: Path) -> None:
    """``?token=`` landed in the access log; it is still accepted from old clients, but
    every logged URL shows ``token=REDACTED``."""
    with ServerProcess(
        f"sqlite:///{tmp_path / 'l.db'}", OP, log_level="info", access_log=True
    ) as srv:
        with httpx.Client(base_url=srv.url, headers=OPH) as http:
            t = http.post("/api/tables", json={"seed": 1}).json()
            token = t["tokens"]["0"]
            r = http.get(
                f"/api/tables/{t['id']}/view?token={token}&wait=0",
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 200  # the header speaks; the query token is only logged
            time.sleep(0.5)
        log = "\n".join(srv.output)
    assert "token=REDACTED" in log, log[-2000:]
    assert token not in log


def test_the_log_filter_redacts_query_tokens() -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/ws/tables/t1?token=seat_SECRET&x=1", "1.1", 200), None,
    )  # fmt: skip
    assert RedactTokens().filter(record)
    line = record.getMessage()
    assert "SECRET" not in line and "token=REDACTED&x=1" in line


# -- one seat's connections ------------------------------------------------------------------


def test_a_seat_holds_a_few_connections_at_most(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.db'}", OP)) as c:
        t = _table(c)
        tid, token = t["id"], t["tokens"]["0"]
        opened = []
        for _ in range(MAX_SEAT_SOCKETS):
            cm = c.websocket_connect(f"/ws/tables/{tid}")
            ws = cm.__enter__()
            ws.send_json({"type": "auth", "token": token})
            assert ws.receive_json()["type"] == "hello"
            opened.append(cm)
        with c.websocket_connect(f"/ws/tables/{tid}") as extra:
            extra.send_json({"type": "auth", "token": token})
            m = extra.receive_json()
            assert m["type"] == "error" and m["status"] == 429, m
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 4429
        listed = c.get(f"/api/tables/{tid}").json()["seats"][0]["connected"]
        assert listed == MAX_SEAT_SOCKETS
        opened.pop().__exit__(None, None, None)  # one closes: another may come
        time.sleep(0.2)
        with c.websocket_connect(f"/ws/tables/{tid}") as again:
            again.send_json({"type": "auth", "token": token})
            assert again.receive_json()["type"] == "hello"
        for cm in opened:
            cm.__exit__(None, None, None)

        # long polls: a few may wait at once, the next is 429
        h = {"Authorization": f"Bearer {token}"}
        etag = c.get(f"/api/tables/{tid}/view", headers=h).headers["etag"]
        statuses: list[int] = []

        def poll() -> None:
            r = c.get(
                f"/api/tables/{tid}/view",
                params={"changed_from": etag, "wait": 2},
                headers=h,
            )
            statuses.append(r.status_code)

        waiting = [threading.Thread(target=poll) for _ in range(MAX_SEAT_POLLS)]
        for th in waiting:
            th.start()
        time.sleep(0.7)
        r = c.get(f"/api/tables/{tid}/view", params={"changed_from": etag, "wait": 2}, headers=h)
        assert r.status_code == 429, r.text
        for th in waiting:
            th.join()
        assert statuses == [200] * MAX_SEAT_POLLS


# -- the Origin of a WebSocket ---------------------------------------------------------------


def _origin_refused(c: TestClient, tid: str, origin: str) -> bool:
    try:
        with c.websocket_connect(f"/ws/tables/{tid}", headers={"origin": origin}) as ws:
            ws.send_json({"type": "ping", "id": 1})
            return False
    except WebSocketDisconnect as exc:
        assert exc.code == 4403
        return True


def test_websocket_origin_same_origin_by_default(tmp_path: Path) -> None:
    """Any web page could open a table's socket (no Origin check); now only the server's
    own pages, the origins the operator allows, and clients that are no page (no
    ``Origin``) may."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'o.db'}", OP)) as c:
        tid = _table(c)["id"]
        assert _origin_refused(c, tid, "https://evil.example")
        assert _origin_refused(c, tid, "http://testserver.evil.example")
        assert not _origin_refused(c, tid, "http://testserver")  # the TestClient's Host
    app = create_app(
        f"sqlite:///{tmp_path / 'o2.db'}", OP, allowed_origins=["https://play.example.com/"]
    )
    with TestClient(app) as c:
        tid = _table(c)["id"]
        assert not _origin_refused(c, tid, "https://play.example.com")
        assert _origin_refused(c, tid, "https://evil.example")


# -- wrong tokens ----------------------------------------------------------------------------


def test_wrong_tokens_earn_a_back_off(tmp_path: Path) -> None:
    """1,000 guesses took 2.2 s; after a few wrong tokens an address waits, doubling with
    each further failure, over HTTP (guard and routes) and the WebSocket alike, and its
    right token waits too (a guess must not be confirmed early)."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", OP)) as c:
        t = _table(c)
        tid, token = t["id"], t["tokens"]["0"]
        wrong = {"Authorization": "Bearer seat_wrong-wrong-wrong-wrong"}
        for _ in range(Attempts.FREE):
            assert c.get(f"/api/tables/{tid}/view", headers=wrong).status_code == 401
        assert c.post(f"/api/tables/{tid}/ready", headers=wrong).status_code == 401
        r = c.get(f"/api/tables/{tid}/view", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1, r.text
        r = c.post(f"/api/tables/{tid}/actions", json={"action": "pass"}, headers=wrong)
        assert r.status_code == 429
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "auth", "token": token})
            m = ws.receive_json()
            assert m["type"] == "error" and m["status"] == 429
        assert c.get("/api/health").status_code == 200  # no token, no wait


def test_the_back_off_doubles_and_is_forgotten() -> None:
    a = Attempts()
    for _ in range(Attempts.FREE):
        a.failed("10.0.0.1")
    assert a.wait("10.0.0.1") == 0
    a.failed("10.0.0.1")
    first = a.wait("10.0.0.1")
    a.failed("10.0.0.1")
    second = a.wait("10.0.0.1")
    assert 0 < first <= Attempts.FIRST and second > 1.5 * first
    assert a.wait("10.0.0.2") == 0  # per address
    for _ in range(40):
        a.failed("10.0.0.1")
    assert a.wait("10.0.0.1") <= Attempts.LONGEST


# -- archiving a stored variant --------------------------------------------------------------

HOUSE = "name: archive-house\nextends: guiyang\nmatch:\n  rounds: {rounds}\n"


def test_archiving_a_variant_keeps_the_tables_on_it(tmp_path: Path) -> None:
    """There was no way to retire a stored variant.  Archived, no new table takes it (in any
    version), while a table pinned to one of its versions keeps playing it, across a
    restart; a new version offers it again."""
    db = f"sqlite:///{tmp_path / 'v.db'}"
    with TestClient(create_app(db, OP)) as c:
        up = c.post("/api/variants", json={"source": HOUSE.format(rounds=2)}, headers=OPH)
        assert up.status_code == 201
        body = {"variant": "archive-house", "seed": 3, "claim_window_ms": 0}
        t = c.post("/api/tables", json=body, headers=OPH).json()
        assert t["variant"] == "archive-house@1"
        assert c.delete("/api/variants/archive-house").status_code == 401
        r = c.delete("/api/variants/archive-house", headers=OPH)
        assert r.status_code == 200 and r.json()["versions"] == 1, r.text
        assert c.delete("/api/variants/guiyang", headers=OPH).status_code == 404
        kinds = {v["name"]: v["kind"] for v in c.get("/api/variants").json()}
        assert kinds["archive-house"] == "archived"
        for ref in ("archive-house", "archive-house@1"):
            r = c.post("/api/tables", json={**body, "variant": ref}, headers=OPH)
            assert r.status_code == 409 and "archived" in r.json()["detail"], r.text
        assert c.post(f"/api/tables/{t['id']}/rounds", headers=OPH).status_code == 201
        assert c.get("/api/variants/archive-house@1/source").status_code == 200
    with TestClient(create_app(db, OP)) as c:  # kept across a restart, table and all
        assert c.get(f"/api/tables/{t['id']}").json()["current_round"] == 1
        view = c.get(f"/api/tables/{t['id']}/seats/0/view", headers=OPH)
        assert view.status_code == 200 and view.json()["phase"] != "waiting"
        kinds = {v["name"]: v["kind"] for v in c.get("/api/variants").json()}
        assert kinds["archive-house"] == "archived"
        assert c.post("/api/tables", json=body, headers=OPH).status_code == 409
        up = c.post("/api/variants", json={"source": HOUSE.format(rounds=3)}, headers=OPH)
        assert up.status_code == 201 and up.json()["ref"] == "archive-house@2"
        r = c.post("/api/tables", json=body, headers=OPH)
        assert r.status_code == 201 and r.json()["variant"] == "archive-house@2"
