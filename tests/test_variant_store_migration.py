"""The server's stored variants across upgrades (issue 25, item 1): a parent is pinned when
a version is saved, and at start a variant whose latest version is written in an older
format (or whose shipped parent is not pinned) gets a migrated next version, the old text
kept as the version it was; tables pinned to the old version keep playing it.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
from server_support import backend, db_url, postgres  # noqa: F401

from zhuoji.server import store as S
from zhuoji.server.app import create_app
from zhuoji.server.variants import MIGRATION_AUTHOR, VariantLibrary, digest
from zhuoji.variant_io import load_variant
from zhuoji.variants_cmd import effective

OP = "migration-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
BOTS = [{"kind": "bot"}] * 4

#: stored by a server of before versioning: old spellings, its parent not pinned
LEGACY = """\
# 老牌桌 house rules (stored before formats; the comments cite the seeds)
name: old-table
title: 老牌桌
extends: guiyang
settle:
  burn:
    on_repao: false       # 000 15) the table does not burn on 热炮
    on_rob_kong: true     # 001 (四)(2) "手中的雞和豆全部燒掉"
  chickens:
    flip: {mode: updown}  # FW 上下鸡
"""


def _legacy_row() -> dict[str, Any]:
    return {
        "name": "old-table", "version": 1, "parent": "guiyang", "title": "老牌桌",
        "source": LEGACY, "sha256": digest(LEGACY), "author": "王经理",
        "created_at": "2026-11-30T12:00:00.000+00:00", "differences": "[]",
    }  # fmt: skip


@pytest.fixture()
def legacy_store(db_url: str) -> Iterator[str]:  # noqa: F811
    store = S.Store(db_url)
    store.write_now([S.insert_variant(_legacy_row())])
    store.close()
    yield db_url


def test_upload_pins_a_shipped_parent_at_its_revision() -> None:
    lib = VariantLibrary()
    revision = load_variant("guiyang").variant.revision
    name, version, parent, _rules = lib.check_upload("name: mine\ntitle: 我的\nextends: guiyang\n")
    assert (name, version, parent) == ("mine", 1, f"guiyang@{revision}")
    _, _, parent, rules = lib.check_upload("name: mine\ntitle: 我的\nextends: guiyang@1\n")
    assert parent == "guiyang@1" and rules.variant.repao.scope == "after_kong"
    assert lib.pin("guiyang") == "guiyang" and lib.pin("guiyang@2") == "guiyang@2"
    with pytest.raises(Exception, match="guiyang has revisions 1-"):
        lib.pin("guiyang@99")


def test_start_migrates_the_latest_version_and_keeps_the_old(legacy_store: str) -> None:
    with TestClient(create_app(legacy_store, OP)) as c:
        versions = c.get("/api/variants/old-table/versions").json()
        assert [v["version"] for v in versions] == [1, 2]
        v1, v2 = versions
        revision = load_variant("guiyang").variant.revision
        assert v1["parent"] == "guiyang" and v1["author"] == "王经理"
        assert v2["parent"] == f"guiyang@{revision}" and v2["author"] == MIGRATION_AUTHOR
        assert c.get("/api/variants/old-table@1/source").text == LEGACY
        text = c.get("/api/variants/old-table@2/source").text
        for comment in ("# 老牌桌 house rules", "# 000 15) the table does not burn on 热炮",
                        '# 001 (四)(2) "手中的雞和豆全部燒掉"', "# FW 上下鸡"):  # fmt: skip
            assert comment in text
        assert "format: 2" in text and "on_repao" not in text and "mode:" not in text
        old = c.post(
            "/api/tables", json={"variant": "old-table@1", "seats": BOTS, "seed": 4}, headers=OPH
        ).json()
        new = c.post(
            "/api/tables", json={"variant": "old-table", "seats": BOTS, "seed": 4}, headers=OPH
        ).json()
        assert (old["variant"], new["variant"]) == ("old-table@1", "old-table@2")
        for t in (old, new):
            assert c.post(f"/api/tables/{t['id']}/rounds", headers=OPH).status_code == 201
        totals = [c.get(f"/api/tables/{t['id']}/rounds/1").json().get("totals") for t in (old, new)]
        assert totals[0] is not None and totals[0] == totals[1]  # same seed, bots and rules
    with TestClient(create_app(legacy_store, OP)) as c:  # a second start migrates nothing
        assert [v["version"] for v in c.get("/api/variants/old-table/versions").json()] == [1, 2]
        assert c.get("/api/health").json()["broken_tables"] == {}
        assert c.get(f"/api/tables/{old['id']}").json()["variant"] == "old-table@1"


def test_the_migrated_version_reads_the_same_rules(legacy_store: str) -> None:
    rows = S.migrated_variants([_legacy_row()])
    assert [(r["name"], r["version"]) for r in rows] == [("old-table", 2)]
    lib = VariantLibrary()
    from zhuoji.server.variants import StoredVariant

    for r in [_legacy_row(), *rows]:
        lib.add(
            StoredVariant(
                r["name"], r["version"], r["parent"], r["title"], r["source"], r["sha256"],
                r["author"], r["created_at"], [],
            )
        )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert effective(lib.ruleset("old-table@1")) == effective(lib.ruleset("old-table@2"))
    assert lib.ruleset("old-table@2").stage("burn").params.repao is None


def test_a_current_version_with_a_pinned_parent_is_left_alone() -> None:
    text = "name: fine\ntitle: t\nextends: guiyang\nmatch: {rounds: 4}\n"
    row = {**_legacy_row(), "name": "fine", "source": text, "sha256": digest(text)}
    revision = load_variant("guiyang").variant.revision
    assert S.migrated_variants([{**row, "parent": f"guiyang@{revision}"}]) == []
    moved = S.migrated_variants([row])  # the parent alone was not pinned
    assert [r["parent"] for r in moved] == [f"guiyang@{revision}"]
