"""One store, one server: a second server on the same store refuses to start (SQLite lock
file, PostgreSQL advisory lock); servers share one PostgreSQL database, each in its own
schema; a table whose rows are damaged is listed in ``broken_tables`` while the others are
served; a revoked seat token stays revoked across a restart.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from server_support import backend, db_url, postgres  # noqa: E402, F401

from zhuoji.server import store as S  # noqa: E402
from zhuoji.server.app import create_app  # noqa: E402
from zhuoji.server.process import ServerProcess  # noqa: E402
from zhuoji.server.store import Store, StoreError, make_engine  # noqa: E402

OP = "store-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
ONE_HUMAN = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]


def test_a_second_server_on_the_same_store_refuses(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    with ServerProcess(db_url, OP, cwd=tmp_path) as first:
        second = ServerProcess(db_url, OP, cwd=tmp_path)
        with pytest.raises(RuntimeError) as exc:
            second.start()
        assert "one store, one server" in str(exc.value) and "Traceback" not in str(exc.value)
        assert second.proc is not None and second.proc.returncode == 2
        assert httpx.get(first.url + "/api/health").json()["ok"]
    with ServerProcess(db_url, OP, cwd=tmp_path):  # free again once the first has gone
        pass


def test_the_lock_goes_with_a_killed_server(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    srv = ServerProcess(db_url, OP, cwd=tmp_path).start()
    srv.kill()
    Store(db_url).close()


def test_two_servers_share_one_postgres(postgres: str, tmp_path: Path) -> None:  # noqa: F811
    """Two processes on one database, each owning the tables of its schema."""
    with (
        ServerProcess(f"{postgres}?schema=room_a", OP, cwd=tmp_path) as a,
        ServerProcess(f"{postgres}?schema=room_b", OP, cwd=tmp_path) as b,
    ):
        ids = {}
        for name, srv in (("a", a), ("b", b)):
            r = httpx.post(
                srv.url + "/api/tables",
                json={"name": name, "seats": [{"kind": "bot"}] * 4},
                headers=OPH,
            )
            assert r.status_code == 201
            ids[name] = r.json()["id"]
            assert (
                httpx.post(f"{srv.url}/api/tables/{ids[name]}/rounds", headers=OPH).status_code
                == 201
            )
        assert [t["id"] for t in httpx.get(a.url + "/api/tables").json()] == [ids["a"]]
        assert [t["id"] for t in httpx.get(b.url + "/api/tables").json()] == [ids["b"]]
        with pytest.raises(StoreError, match="one store, one server"):
            Store(f"{postgres}?schema=room_a")


def test_damaged_rows_break_one_table_only(db_url: str) -> None:  # noqa: F811
    with TestClient(create_app(db_url, OP)) as c:
        good, bad, worse = (
            c.post("/api/tables", json={"seats": ONE_HUMAN, "seed": s}, headers=OPH).json()
            for s in (1, 2, 3)
        )
        for t in (good, bad, worse):
            c.post(f"/api/tables/{t['id']}/rounds", headers=OPH)
    store = Store(db_url)
    with store.engine.begin() as conn:
        rc, seats = S.rule_changes_t, S.seats_t
        conn.execute(rc.update().where(rc.c.table_id == bad["id"]).values(overrides="not json{"))
        conn.execute(seats.delete().where(seats.c.table_id == worse["id"], seats.c.seat == 2))
    store.close()
    with TestClient(create_app(db_url, OP)) as c:
        health = c.get("/api/health").json()
        assert set(health["broken_tables"]) == {bad["id"], worse["id"]}
        assert health["tables"] == 1
        tok = {"Authorization": f"Bearer {good['tokens']['0']}"}
        assert c.get(f"/api/tables/{good['id']}/view", headers=tok).status_code == 200
        assert c.get(f"/api/tables/{bad['id']}").status_code == 404


def test_revoked_tokens_stay_revoked(db_url: str) -> None:  # noqa: F811
    with TestClient(create_app(db_url, OP)) as c:
        t = c.post("/api/tables", json={"seats": ONE_HUMAN, "seed": 4}, headers=OPH).json()
        tok = {"Authorization": f"Bearer {t['tokens']['0']}"}
        assert c.get(f"/api/tables/{t['id']}/view", headers=tok).status_code == 200
        assert c.delete(f"/api/tables/{t['id']}/seats/0/token", headers=OPH).status_code == 204
        assert c.get(f"/api/tables/{t['id']}/view", headers=tok).status_code == 401
        assert c.delete(f"/api/tables/{t['id']}/seats/1/token", headers=OPH).status_code == 409
        assert c.delete(f"/api/tables/{t['id']}/seats/0/token", headers=tok).status_code == 401
    with TestClient(create_app(db_url, OP)) as c:
        assert c.get(f"/api/tables/{t['id']}/view", headers=tok).status_code == 401
        new = c.post(f"/api/tables/{t['id']}/seats/0/token", headers=OPH).json()["token"]
        ok = c.get(f"/api/tables/{t['id']}/view", headers={"Authorization": f"Bearer {new}"})
        assert ok.status_code == 200


def test_sqlite_lock_in_process(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    first = Store(url)
    with pytest.raises(StoreError, match="one store, one server"):
        Store(url)
    first.close()
    Store(url).close()
    make_engine(url).dispose()
