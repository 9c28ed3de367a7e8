"""Crash recovery: the real ``zhuoji serve`` process is SIGKILLed mid-round and restarted on
the same store (SQLite, and PostgreSQL); every table and round must resume exactly where it was.

Tables at the moment of the kill: A (one human, three bots) and B (two humans, two bots)
mid-round; C between rounds after a rules change; D four slow bots playing on by
themselves (so the kill lands while the server is busy writing).  After the restart every
seat's view and every stored log must be what they were (D: a continuation of what was
seen), a reconnecting WebSocket gets the last view it had, and play goes on.  A and B are
then played to the end and compared with the same tables played on a server that was
never killed: the event logs must be identical, event for event.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
pytest.importorskip("websockets")

from websockets.sync.client import connect  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from server_support import backend, db_url, postgres  # noqa: E402, F401

from zhuoji import eventlog  # noqa: E402
from zhuoji.server.process import ServerProcess  # noqa: E402

OP = "restart-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
HUMAN, BOT, RANDOM = (
    {"kind": "human"},
    {"kind": "bot", "bot": "greedy"},
    {"kind": "bot", "bot": "random"},
)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def pick(view: dict[str, Any]) -> str:
    legal = [a["action"] for a in view["legal"]]
    for word in ("hu", "pass"):
        for a in legal:
            if a.split()[1] == word:
                return a
    return legal[len(legal) // 2]


def step(http: httpx.Client, table: dict[str, Any]) -> bool:
    """One action by the first human seat that has one; False once the round is over."""
    for token in table["tokens"].values():
        v = http.get(f"/api/tables/{table['id']}/view", headers=bearer(token)).json()
        if v["phase"] == "end":
            return False
        if v["legal"]:
            r = http.post(
                f"/api/tables/{table['id']}/actions",
                json={"action": pick(v), "seq": v["seq"]},
                headers=bearer(token),
            )
            assert r.status_code == 200, r.text
            return True
    raise AssertionError("no human seat can act")


def create(http: httpx.Client, **body: Any) -> dict[str, Any]:
    r = http.post("/api/tables", json={"claim_window_ms": 0, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def snapshot(http: httpx.Client, tid: str) -> dict[str, Any]:
    info = http.get(f"/api/tables/{tid}").json()
    for s in info["seats"]:
        s.pop("connected")
    views = [http.get(f"/api/tables/{tid}/seats/{s}/view").json() for s in range(info["players"])]
    logs = [
        http.get(f"/api/tables/{tid}/rounds/{n}/log").json()["events"]
        for n in range(1, len(http.get(f"/api/tables/{tid}/rounds").json()) + 1)
    ]
    return {
        "info": info,
        "views": views,
        "logs": logs,
        "rounds": http.get(f"/api/tables/{tid}/rounds").json(),
    }


def setup_ab(http: httpx.Client) -> tuple[dict[str, Any], dict[str, Any]]:
    a = create(http, name="A", seats=[HUMAN, BOT, BOT, BOT], seed=101)
    b = create(http, name="B", variant="guiyang-weile", seats=[HUMAN, HUMAN, BOT, RANDOM], seed=202,
               overrides={"settle.chickens.chongfeng.multiplier": 3})  # fmt: skip
    for t in (a, b):
        assert http.post(f"/api/tables/{t['id']}/rounds").status_code == 201
    for _ in range(5):
        assert step(http, a)
    for _ in range(9):
        assert step(http, b)
    return a, b


def finish(http: httpx.Client, table: dict[str, Any]) -> list[dict[str, Any]]:
    for _ in range(500):
        if not step(http, table):
            break
    log = http.get(f"/api/tables/{table['id']}/rounds/1/log").json()["events"]
    eventlog.replay(eventlog.parse(eventlog.dumps(log)))  # every action legal, every line matches
    return list(log)


def test_sigkill_and_restart_resume_exactly(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    """On SQLite and on PostgreSQL (``db_url``)."""
    db = db_url
    srv = ServerProcess(db, OP, cwd=tmp_path).start()
    try:
        with httpx.Client(base_url=srv.url, headers=OPH, timeout=30) as http:
            a, b = setup_ab(http)
            c = create(http, name="C", seats=[HUMAN, BOT, BOT, BOT], seed=303, rounds=3)
            assert http.post(f"/api/tables/{c['id']}/rounds").status_code == 201
            finish(http, c)
            r = http.put(
                f"/api/tables/{c['id']}/rules",
                json={"overrides": {"settle.chickens.chongfeng.multiplier": 4}},
            )
            assert r.status_code == 200 and r.json()["from_round"] == 2
            d = create(
                http,
                name="D",
                seats=[BOT, RANDOM, BOT, RANDOM],
                seed=404,
                rounds=500,
                next_round="ready",
                bot_delay_ms=3,
            )
            with connect(f"ws{srv.url[4:]}/ws/tables/{a['id']}") as ws:
                ws.send(json.dumps({"type": "auth", "token": a["tokens"]["0"]}))
                assert json.loads(ws.recv(10))["type"] == "hello"
                last_ws_view = json.loads(ws.recv(10))["view"]
                before = {t["id"]: snapshot(http, t["id"]) for t in (a, b, c)}
                d_before = snapshot(http, d["id"])
                time.sleep(0.3)  # D's bots are writing when the process dies
                srv.kill()
        assert srv.proc is not None and srv.proc.returncode == -9

        srv = ServerProcess(db, OP, cwd=tmp_path).start()
        with httpx.Client(base_url=srv.url, headers=OPH, timeout=30) as http:
            for tid, snap in before.items():
                assert snapshot(http, tid) == snap, f"table {tid} changed across the restart"
            # D: what was seen before is a prefix of what was stored, and it plays on
            d_after = snapshot(http, d["id"])
            n = len(d_before["logs"])
            assert (
                n >= 1
                and d_after["logs"][n - 1][: len(d_before["logs"][-1])] == d_before["logs"][-1]
            )
            played = d_after["info"]["rounds_played"]
            deadline = time.monotonic() + 20
            while http.get(f"/api/tables/{d['id']}").json()["rounds_played"] <= played:
                assert time.monotonic() < deadline, "table D did not play on after the restart"
                time.sleep(0.05)
            for log in snapshot(http, d["id"])["logs"][:-1]:
                eventlog.replay(eventlog.parse(eventlog.dumps(log)))
            # a reconnecting WebSocket gets the view it last had
            with connect(f"ws{srv.url[4:]}/ws/tables/{a['id']}") as ws:
                ws.send(json.dumps({"type": "auth", "token": a["tokens"]["0"]}))
                assert json.loads(ws.recv(10))["type"] == "hello"
                assert json.loads(ws.recv(10))["view"] == last_ws_view
            # C goes on with its new rules
            assert http.post(f"/api/tables/{c['id']}/rounds").status_code == 201
            head = http.get(f"/api/tables/{c['id']}/rounds/2/log").json()["events"][0]
            assert head["overrides"] == {"settle": {"chickens": {"chongfeng": {"multiplier": 4}}}}
            crashed = [finish(http, a), finish(http, b)]
    finally:
        srv.kill()

    # the same tables on a server that is never killed end with the very same logs
    with (
        ServerProcess(f"sqlite:///{tmp_path / 'reference.db'}", OP, cwd=tmp_path) as ref,
        httpx.Client(base_url=ref.url, headers=OPH, timeout=30) as http,
    ):
        a2, b2 = setup_ab(http)
        assert [finish(http, a2), finish(http, b2)] == crashed
