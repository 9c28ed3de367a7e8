"""The variant store: operators upload YAML that extends a shipped or stored variant; each
version is checked like ``zhuoji variants validate``, recorded (who, when, SHA-256, the
differences from its parent in words) and pinned by the tables that use it.  Run on SQLite
and on a real PostgreSQL server.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
from plugin_support import installed_plugin
from server_support import backend, db_url, postgres  # noqa: F401

from zhuoji.server.app import create_app
from zhuoji.server.variants import VariantLibrary
from zhuoji.variant_io import load_variant
from zhuoji.variants_cmd import diff

OP = "variants-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
BOTS = [{"kind": "bot"}] * 4

ANSHUN = """\
# 安顺 club rules: a city variant of its own on the 贵阳 rules (test fixture)
name: anshun-club
title: 安顺捉鸡
extends: guiyang
settle:
  chickens:
    chongfeng:
      multiplier: 3
"""


@pytest.fixture()
def client(db_url: str) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(db_url, OP)) as c:
        yield c


def upload(client: TestClient, text: str, **extra: Any) -> Any:
    return client.post("/api/variants", json={"source": text, **extra}, headers=OPH)


def test_upload_is_versioned_and_described(client: TestClient) -> None:
    r = upload(client, ANSHUN, author="王经理")
    assert r.status_code == 201, r.text
    v1 = r.json()
    revision = load_variant("guiyang").variant.revision  # the parent is pinned when saved
    assert (v1["name"], v1["version"], v1["ref"], v1["parent"]) == (
        "anshun-club",
        1,
        "anshun-club@1",
        f"guiyang@{revision}",
    )
    assert v1["author"] == "王经理" and v1["created_at"]
    assert v1["sha256"] == hashlib.sha256(ANSHUN.encode()).hexdigest()
    # the differences in words are those `zhuoji variants diff` finds
    rows = diff(
        load_variant("guiyang"),
        load_variant("guiyang", {"settle.chickens.chongfeng.multiplier": 3}),
    )
    assert len(v1["differences"]) == len(rows) == 1
    assert v1["differences"][0].startswith(rows[0]["label"]) and v1["differences"][0].endswith(
        "2 → 3"
    )
    v2 = upload(client, ANSHUN.replace("multiplier: 3", "multiplier: 4")).json()
    assert v2["ref"] == "anshun-club@2" and v2["author"] == "operator"
    listed = {v["name"]: v for v in client.get("/api/variants").json()}
    assert (
        listed["anshun-club"]["kind"] == "stored"
        and listed["anshun-club"]["latest"] == "anshun-club@2"
    )
    assert listed["guiyang"]["kind"] == "shipped"
    versions = client.get("/api/variants/anshun-club/versions").json()
    assert [v["version"] for v in versions] == [1, 2]
    assert client.get("/api/variants/anshun-club@1/source").text == ANSHUN


def test_a_table_keeps_its_version(client: TestClient) -> None:
    assert upload(client, ANSHUN).status_code == 201
    t = client.post(
        "/api/tables", json={"variant": "anshun-club", "seats": BOTS, "seed": 3}, headers=OPH
    ).json()
    assert t["variant"] == "anshun-club@1" and t["title"] == "安顺捉鸡"
    assert upload(client, ANSHUN.replace("multiplier: 3", "multiplier: 5")).status_code == 201
    assert client.post(f"/api/tables/{t['id']}/rounds", headers=OPH).status_code == 201
    log = client.get(f"/api/tables/{t['id']}/rounds/1/log", headers=OPH).json()["events"]
    assert log[-1]["type"] == "end"
    row = client.get(f"/api/tables/{t['id']}/rounds/1").json()
    assert row["variant"] == "anshun-club@1"
    again = client.get(f"/api/tables/{t['id']}").json()
    assert again["variant"] == "anshun-club@1"
    t2 = client.post(
        "/api/tables", json={"variant": "anshun-club", "seats": BOTS}, headers=OPH
    ).json()
    assert t2["variant"] == "anshun-club@2"


def test_stored_variants_survive_a_restart(db_url: str) -> None:  # noqa: F811
    with TestClient(create_app(db_url, OP)) as c:
        assert upload(c, ANSHUN).status_code == 201
        t = c.post(
            "/api/tables", json={"variant": "anshun-club@1", "seats": BOTS, "seed": 5}, headers=OPH
        ).json()
        c.post(f"/api/tables/{t['id']}/rounds", headers=OPH)
    with TestClient(create_app(db_url, OP)) as c:
        assert c.get("/api/health").json()["broken_tables"] == {}
        assert c.get(f"/api/tables/{t['id']}").json()["variant"] == "anshun-club@1"
        child = "name: anshun-club-east\ntitle: 安顺东\nextends: anshun-club\nmatch: {rounds: 2}\n"
        v = upload(c, child).json()
        assert v["parent"] == "anshun-club@1"


def test_problems_are_located_at_their_line(client: TestClient) -> None:
    bad = ANSHUN.replace("multiplier: 3", "multiplier: three")
    r = upload(client, bad)
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert problems and problems[0].startswith(
        "anshun-club@1:8: settle.chickens.chongfeng.multiplier"
    )
    assert "/" not in problems[0].split(":")[0]  # the label is the version, not a server path
    checked = client.post("/api/variants/check", json={"source": bad}, headers=OPH).json()
    assert checked["ok"] is False and checked["problems"] == problems
    assert client.get("/api/variants").json()[-1]["name"] != "anshun-club"  # nothing stored
    for text, needle in [
        ("name: guiyang\nextends: guiyang\n", "is a shipped variant"),
        ("name: x1\ntitle: t\nextends: nowhere\n", "neither a shipped variant"),
        ("title: t\nextends: guiyang\n", "name:"),
        ("name: x2\ntitle: t\n", "extends:"),
        ("name: x3\nextends: guiyang\ntiles: [\n", "not valid YAML"),
        ("name: x4\nextends: ../../etc/passwd\n", "neither a shipped variant"),
    ]:
        r = upload(client, text)
        assert r.status_code == 422 and needle in r.text, (text, r.text)


def test_the_working_directory_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file ./evil is no variant for the server (the CLI keeps reading paths)."""
    (tmp_path / "evil").write_text("name: evil\ntitle: evil\nsource: x\nextends: guiyang\n")
    monkeypatch.chdir(tmp_path)
    lib = VariantLibrary()
    with pytest.raises(Exception, match="no such variant"):
        lib.pin("evil")
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}", OP)) as c:
        r = c.post("/api/tables", json={"variant": "evil", "seats": BOTS}, headers=OPH)
        assert r.status_code == 422 and "no such variant" in r.text
        r = upload(c, "name: e2\ntitle: t\nextends: evil\n")
        assert r.status_code == 422
        r = c.post("/api/tables", json={"variant": "./evil", "seats": BOTS}, headers=OPH)
        assert r.status_code == 422
    assert load_variant(tmp_path / "evil").name == "evil"  # the CLI's path behaviour stays


PLUGIN = '''
from pydantic import Field
from zhuoji.rules.registry import Params, Phase, Point, register

class P(Params):
    value: int = Field(2, ge=0, description="per 八筒")

@register(Point.SETTLE, "wugu_bonus_srv", P, phase=Phase.CHICKENS, title="乌骨鸡 bonus")
def wugu(ctx, p):
    """Nothing to pay in this fixture."""
'''

USES_PLUGIN = "name: wugu\ntitle: 乌骨鸡\nextends: guiyang\nsettle:\n  wugu:\n    id: wugu_bonus_srv\n    value: 3\n"


def test_plugin_hooks_only_when_installed(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'p.db'}"
    with TestClient(create_app(db, OP)) as c:
        r = upload(c, USES_PLUGIN)
        assert r.status_code == 422 and "wugu_bonus_srv" in r.text
    with (
        installed_plugin(tmp_path / "site", "zhuoji_wugu_srv", PLUGIN),
        TestClient(create_app(db, OP)) as c,
    ):
        r = upload(c, USES_PLUGIN)
        assert r.status_code == 201, r.text
        t = c.post("/api/tables", json={"variant": "wugu", "seats": BOTS, "seed": 1}, headers=OPH)
        assert t.status_code == 201


def test_house_rules_in_words(client: TestClient) -> None:
    over = {"settle.chickens.chongfeng.multiplier": 3}
    t = client.post("/api/tables", json={"seats": BOTS, "overrides": over}, headers=OPH).json()
    assert t["house_rules"] and t["house_rules"][0].endswith("2 → 3")
    said = client.post(
        "/api/rules/describe", json={"variant": "guiyang", "overrides": over}, headers=OPH
    )
    assert said.json()["house_rules"] == t["house_rules"]
    eff = client.get("/api/variants/guiyang/effective").json()
    assert eff["rules"]["settle"]["chickens"]["chongfeng"]["multiplier"] == 2
    assert "properties" in client.get("/api/schema/variant").json()
