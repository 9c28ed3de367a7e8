"""The table's turn timer (``turn_seconds``): the deadline in the views, and the server
playing for a seat whose time ran out — logged like any action, so the round replays."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from zhuoji.engine import Phase, Round
from zhuoji.server.app import create_app
from zhuoji.server.turn_timer import TurnClock, timeout_action
from zhuoji.variant_io import load_variant

OP = "timer-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}


def test_a_seat_out_of_time_discards_its_drawn_tile(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", OP)
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    with TestClient(app) as c:
        r = c.post("/api/tables", json={"seats": seats, "seed": 4, "turn_seconds": 1}, headers=OPH)
        assert r.status_code == 422  # below the 3 s minimum
        r = c.post("/api/tables", json={"seats": seats, "seed": 4, "turn_seconds": 3}, headers=OPH)
        assert r.status_code == 201 and r.json()["turn_seconds"] == 3
        tid, token = r.json()["id"], r.json()["tokens"]["0"]
        seat = {"Authorization": f"Bearer {token}"}
        c.post(f"/api/tables/{tid}/rounds", headers=OPH)
        for _ in range(40):  # wait for the human seat's first decision
            view = c.get(f"/api/tables/{tid}/view", headers=seat).json()
            if view["legal"]:
                break
            time.sleep(0.05)
        assert view["turn_seconds"] == 3
        left = view["deadline_ms"] / 1000 - time.time()
        assert 1.5 < left <= 3.1
        first = view["seq"]
        time.sleep(left + 1.0)
        later = c.get(f"/api/tables/{tid}/view", headers=seat).json()
        assert later["seq"] > first  # the server acted for the seat
        log = c.get(f"/api/tables/{tid}/rounds/1/log", headers=OPH).json()["events"]
        mine = [
            e for e in log[first:] if e.get("type") == "action" and e["action"].startswith("0 ")
        ]
        assert mine, log[first:]
        if view["phase"] == "turn" and view.get("drawn"):
            assert mine[0]["action"] in (f"0 discard {view['drawn']}", "0 pass")
        # tables without a timer show none
        r = c.post("/api/tables", json={"seats": seats, "seed": 4}, headers=OPH)
        assert r.json()["turn_seconds"] is None
    # the setting is stored: a restarted server keeps it
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", OP)) as c:
        assert c.get(f"/api/tables/{tid}").json()["turn_seconds"] == 3


def test_who_sees_which_deadline() -> None:
    """In a turn every seat sees the acting seat's deadline; in a claim window only a seat
    that must answer sees its own (who else may claim is hidden)."""
    r = Round(load_variant("guiyang"), seed=2)
    clock = TurnClock(10)
    while r.phase is not Phase.CLAIM or len(r.to_act()) < 1:
        s = r.to_act()[0]
        r.apply(timeout_action(r, s, 1))
    claimers = set(r.to_act())
    clock.note({s: (len(r.log), ()) for s in claimers}, set(range(4)))
    for viewer in range(4):
        shown = clock.shown_to(viewer, r)
        assert (shown is not None) == (viewer in claimers)
    turn = Round(load_variant("guiyang"), seed=2)
    clock = TurnClock(10)
    clock.note({turn.to_act()[0]: (0, ())}, set(range(4)))
    assert all(clock.shown_to(v, turn) is not None for v in range(4))
    assert TurnClock(None).shown_to(0, turn) is None


def test_a_store_made_before_the_timer_is_upgraded(tmp_path: Path) -> None:
    """A database whose zj_tables has no turn_seconds column gets it at start; its tables
    load with no timer."""
    import sqlite3

    db = tmp_path / "old.db"
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    with TestClient(create_app(f"sqlite:///{db}", OP)) as c:
        tid = c.post("/api/tables", json={"seats": seats}, headers=OPH).json()["id"]
    with sqlite3.connect(db) as con:
        con.execute("ALTER TABLE zj_tables DROP COLUMN turn_seconds")
    with TestClient(create_app(f"sqlite:///{db}", OP)) as c:
        assert c.get(f"/api/tables/{tid}").json()["turn_seconds"] is None
        r = c.post("/api/tables", json={"seats": seats, "turn_seconds": 30}, headers=OPH)
        assert r.status_code == 201 and r.json()["turn_seconds"] == 30
