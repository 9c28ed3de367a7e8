"""Every probe an attacker tried is refused with a 4xx and changes nothing: oversized and
unauthenticated bodies (refused before they are read), oversized or deeply nested
overrides, odd digits in actions, non-string WebSocket tokens, binary frames, over-long
names, unknown database URL schemes; the action-parse cache stays bounded.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from zhuoji.actions import make
from zhuoji.server.app import create_app
from zhuoji.server.guard import MAX_BODY
from zhuoji.server.process import ServerProcess
from zhuoji.server.store import Store, StoreError

OP = "limits-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
ONE_HUMAN = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'l.db'}", OP)) as c:
        yield c


def table(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/tables", json={"seats": ONE_HUMAN, "seed": 9}, headers=OPH)
    assert r.status_code == 201
    client.post(f"/api/tables/{r.json()['id']}/rounds", headers=OPH)
    return dict(r.json())


def test_bodies_need_a_token_before_they_are_read(client: TestClient) -> None:
    read = 0

    def body() -> Iterator[bytes]:
        nonlocal read
        for _ in range(100):
            read += 1
            yield b"x" * 1_000_000

    r = client.post("/api/tables", content=body(), headers={"content-type": "application/json"})
    assert r.status_code == 401
    assert read <= 1  # refused before the body was read


def test_bodies_are_capped(client: TestClient) -> None:
    big = json.dumps({"name": "x" * (MAX_BODY + 10)})
    r = client.post("/api/tables", content=big, headers={**OPH, "content-type": "application/json"})
    assert r.status_code == 413

    def stream() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"name": "'
        for _ in range(50):
            yield b"y" * 1000
        yield b'"}'

    r = client.post(
        "/api/tables", content=stream(), headers={**OPH, "content-type": "application/json"}
    )
    assert r.status_code == 413
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({f"k{i}": i for i in range(70)}, "keys"),
        ({"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}}, "levels"),
        ({"settle.x": "z" * 5000}, "bytes"),
    ],
)
def test_overrides_are_bounded(client: TestClient, overrides: dict[str, Any], needle: str) -> None:
    r = client.post("/api/tables", json={"seats": ONE_HUMAN, "overrides": overrides}, headers=OPH)
    assert r.status_code == 422 and needle in r.text


def test_deep_json_is_a_400(client: TestClient) -> None:
    deep = '{"overrides": ' + "[" * 5000 + "]" * 5000 + "}"
    r = client.post(
        "/api/tables", content=deep, headers={**OPH, "content-type": "application/json"}
    )
    assert 400 <= r.status_code < 500


def test_malformed_actions_are_4xx(client: TestClient) -> None:
    t = table(client)
    tid, tok = t["id"], t["tokens"]["0"]
    h = {"Authorization": f"Bearer {tok}"}
    for action, status in [
        ("² discard 5m", 422),  # a digit that int() would read
        ("0\u0660 discard 5m", 422),
        ("99 discard 5m", 422),  # no such seat: checked before anything is made of it
        ("3 discard 5m", 403),
        ("discard 5m5m5m5m", 422),
        ("x" * 41, 422),
    ]:
        r = client.post(f"/api/tables/{tid}/actions", json={"action": action}, headers=h)
        assert r.status_code == status, (action, r.text)
    before = make.cache_info().currsize
    for seat in range(10, 99):
        client.post(f"/api/tables/{tid}/actions", json={"action": f"{seat} pass"}, headers=h)
    assert make.cache_info().currsize == before  # the parse cache does not grow


def test_over_long_names_are_422(client: TestClient) -> None:
    for body in (
        {"name": "n" * 201},
        {"seats": [{"kind": "human", "name": "n" * 101}, *ONE_HUMAN[1:]]},
        {"seats": [{"kind": "bot", "bot": "b" * 41}, *ONE_HUMAN[1:]]},
        {"variant": "v" * 81},
    ):
        r = client.post("/api/tables", json=body, headers=OPH)
        assert r.status_code == 422, body
    assert client.get("/api/tables/" + "t" * 5000).status_code == 404


def test_websocket_probes(client: TestClient) -> None:
    t = table(client)
    tid, tok = t["id"], t["tokens"]["0"]
    for bad in (123, ["x"], {"a": 1}, None, "x" * 500):
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "auth", "token": bad})
            m = ws.receive_json()
            assert m["type"] == "error" and m["status"] == 401
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_bytes(b"\x00\x01binary")
        assert ws.receive_json()["status"] == 401
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "auth", "token": tok})
        assert ws.receive_json()["type"] == "hello"
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b"\x00binary")
        m = ws.receive_json()
        assert m["type"] == "error" and m["status"] == 400 and "binary" in m["error"]
        ws.send_text("[" * 3000 + "]" * 3000)
        assert ws.receive_json()["status"] == 400
        ws.send_json({"type": "action", "action": "² discard 5m", "id": [1]})
        m = ws.receive_json()
        assert m["status"] == 422 and m["id"] is None
        ws.send_json({"type": "ping", "id": 5})
        assert ws.receive_json() == {"type": "pong", "id": 5}


@pytest.mark.parametrize(
    "url", ["mysql://u:p@h/db", "redis://h", "oracle+cx://x", "postgresql://u:p@h:notaport/db"]
)
def test_unknown_database_urls_are_refused(url: str) -> None:
    with pytest.raises(StoreError) as exc:
        Store(url)
    assert "p@" not in str(exc.value)


def test_serve_refuses_an_unknown_scheme_cleanly(tmp_path: Path) -> None:
    srv = ServerProcess("mysql://u:secret@127.0.0.1/db", OP, cwd=tmp_path)
    with pytest.raises(RuntimeError) as exc:
        srv.start()
    out = str(exc.value)
    assert "unknown database URL scheme" in out and "Traceback" not in out and "secret" not in out
    assert srv.proc is not None and srv.proc.returncode == 2


def test_raw_100mb_post_is_cut_short(tmp_path: Path) -> None:
    """On the real server: an unauthenticated 100 MB POST is answered at once (401) and the
    connection closes; memory is not filled."""
    with ServerProcess(f"sqlite:///{tmp_path / 'r.db'}", OP, cwd=tmp_path) as srv:
        host, port = srv.url[len("http://") :].split(":")
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100000000\r\n\r\n" + b"x" * 65536
            )
            reply = s.recv(4096).decode("latin-1")
        assert reply.startswith("HTTP/1.1 401")


def test_websocket_probes_on_the_real_server(tmp_path: Path) -> None:
    """The probes above over a real socket, where the server reads a seat's whole text
    frames itself (``ws_protocol.RECEIVE_TEXT``, not the ASGI queue the test client uses):
    each is answered as through ASGI, and an action after them is applied and acked."""
    import httpx
    from websockets.sync.client import connect

    with ServerProcess(f"sqlite:///{tmp_path / 'w.db'}", OP, cwd=tmp_path) as srv:
        r = httpx.post(srv.url + "/api/tables", json={"seats": ONE_HUMAN, "seed": 9}, headers=OPH)
        assert r.status_code == 201
        tid, tok = r.json()["id"], r.json()["tokens"]["0"]
        assert httpx.post(f"{srv.url}/api/tables/{tid}/rounds", headers=OPH).status_code < 300
        with connect("ws" + srv.url[len("http") :] + f"/ws/tables/{tid}") as ws:
            ws.send(json.dumps({"type": "auth", "token": tok}))
            assert json.loads(ws.recv())["type"] == "hello"
            view = json.loads(ws.recv())["view"]
            ws.send(b"\x00binary")
            m = json.loads(ws.recv())
            assert m["type"] == "error" and m["status"] == 400 and "binary" in m["error"]
            ws.send("x" * 4097)  # one whole frame: read by the server's own path
            m = json.loads(ws.recv())
            assert m["status"] == 400 and "at most 4096 characters" in m["error"]
            ws.send("[" * 2000 + "]" * 2000)
            assert json.loads(ws.recv())["status"] == 400
            ws.send("[1]")
            m = json.loads(ws.recv())
            assert m["status"] == 400 and m["error"] == "messages must be JSON objects"
            ws.send(json.dumps({"type": "action", "action": "² discard 5m", "id": [1]}))
            m = json.loads(ws.recv())
            assert m["status"] == 422 and m["id"] is None
            ws.send(json.dumps({"type": "auth", "token": tok, "id": 3}))
            assert json.loads(ws.recv()) == {
                "type": "error", "id": 3, "status": 409, "error": "already authenticated"
            }  # fmt: skip
            ws.send(json.dumps({"type": "ping", "id": 5}))
            assert json.loads(ws.recv()) == {"type": "pong", "id": 5}
            act = view["legal_actions"][0]  # seat 0 deals: it discards first
            ws.send(json.dumps({"type": "action", "action": act, "seq": view["seq"] - 1, "id": 6}))
            m = json.loads(ws.recv())
            assert m["type"] == "error" and m["status"] == 409 and "stale" in m["error"]
            ws.send(json.dumps({"type": "action", "action": act, "seq": view["seq"], "id": 7}))
            m = json.loads(ws.recv())
            assert m["type"] == "state" and m["ack"] == 7 and m["view"]["seq"] > view["seq"]
