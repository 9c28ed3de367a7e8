"""The operator's new-table form as the server makes it (zhuoji/server/rule_form.py) and
the rules in words one language at a time (zhuoji/server/rule_words.py): every field of
every shipped variant named in Chinese and in English, the common payouts first, no field
that is not a rule, presets that the variant can take, errors at their field in words,
house rules said in each language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from zhuoji.schema import variant_schema
from zhuoji.server.app import create_app
from zhuoji.server.rule_form import NOT_HOUSE_RULES, PRESETS, form_fields, rule_form
from zhuoji.server.rule_words import FIELD_WORDS, house_rule_words, one_language
from zhuoji.variant_io import builtin_names, load_variant
from zhuoji.variants_cmd import diff, effective

OP = "rule-form-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'f.db'}", OP)) as c:
        yield c


def forms() -> Iterator[tuple[str, dict[str, Any]]]:
    schema = variant_schema()
    for name in builtin_names():
        yield name, rule_form(effective(load_variant(name)), schema)


def test_every_field_of_every_shipped_variant_has_words_in_each_language() -> None:
    missing, mixed = set(), []
    for name, form in forms():
        for key, f in form_fields(form).items():
            if key not in FIELD_WORDS:
                missing.add(key)
            for lang in ("zh", "en"):
                if not one_language(f[lang], lang):
                    mixed.append(f"{name} {key} {lang}: {f[lang]}")
                for c in f.get("choices", []):
                    if not one_language(c[lang], lang):
                        mixed.append(f"{name} {key} choice {c['value']} {lang}: {c[lang]}")
        for s in form["sections"]:
            assert one_language(s["zh"], "zh") and one_language(s["en"], "en"), s["id"]
    assert not missing, f"fields without words in zhuoji/server/rule_words.py: {sorted(missing)}"
    assert not mixed, "\n".join(mixed)


def test_the_stake_and_the_common_payouts_come_first_and_nothing_else_is_a_rule() -> None:
    for name, form in forms():
        keys = set(form_fields(form))
        assert not {k for k in keys if k.split(".")[0] in NOT_HOUSE_RULES or k.endswith(".id")}
        if name != "guiyang":
            continue
        first = form["sections"][0]
        assert first["id"] == "common"
        common = [f["key"] for f in first["fields"]]
        assert common[0] == "stake"  # 底注 first
        for key in (
            "settle.chickens.chongfeng.multiplier", "settle.chickens.zeren.extra",
            "settle.dou.values.concealed", "settle.shabao.value", "settle.hu.baoting.hard",
            "baoting.hard",
        ):  # fmt: skip
            assert key in common
        rest = [f["key"] for s in form["sections"][1:] for f in s["fields"]]
        assert not set(common) & set(rest) and len(rest) > 3 * len(common)
        assert {p["id"] for p in form["presets"]} == {p.id for p in PRESETS}


def test_presets_hold_on_their_variant_and_change_what_they_say(client: TestClient) -> None:
    form = client.get("/api/variants/guiyang/form").json()
    assert form["title"] and form["title_en"] and form["sections"][0]["id"] == "common"
    for p in form["presets"]:
        assert one_language(p["zh"] + p["line_zh"], "zh"), p
        assert one_language(p["en"] + p["line_en"], "en"), p
        r = client.post(
            "/api/rules/check",
            json={"variant": "guiyang", "overrides": p["overrides"]},
            headers=OPH,
        ).json()
        assert r["ok"], (p["id"], r)
        assert len(r["house_rules_words"]) == len(p["overrides"])  # each value differs
    # a variant without the fields of a preset is not offered it
    luan = client.get("/api/variants/luan/form").json()
    assert "weile" not in {p["id"] for p in luan["presets"]}


@pytest.mark.parametrize(
    ("overrides", "key", "zh", "en"),
    [
        ({"stake": 0}, "stake", "至少为 1", "at least 1"),
        ({"settle.chickens.zeren.extra": 1.5}, "settle.chickens.zeren.extra", "须为整数", "whole number"),
        ({"settle.chickens.payment": "bogus"}, "settle.chickens.payment", "选项", "choices"),
        ({"claims.peng": 3}, "claims.peng", "是或否", "yes or no"),
        ({"family": "x"}, "family", "不是规则", "not a rule"),
        ({"settle.nothing": 1}, "settle.nothing", "没有这一项", "no such rule"),
        ({"tiles.players": 7}, "tiles.players", "最多为 4", "at most 4"),
    ],
)  # fmt: skip
def test_errors_are_said_in_words_at_their_field(
    client: TestClient, overrides: dict[str, Any], key: str, zh: str, en: str
) -> None:
    r = client.post(
        "/api/rules/check", json={"variant": "guiyang", "overrides": overrides}, headers=OPH
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] is False and body["house_rules_words"] == []
    (p,) = body["problems"]
    assert p["key"] == key and zh in p["zh"] and en in p["en"]
    assert one_language(p["zh"], "zh") and one_language(p["en"], "en")
    assert "--set" not in p["en"]


def test_the_check_needs_the_operator(client: TestClient) -> None:
    r = client.post("/api/rules/check", json={"variant": "guiyang", "overrides": {"stake": 2}})
    assert r.status_code == 401


def test_house_rules_are_said_one_language_at_a_time(client: TestClient) -> None:
    over = {
        "settle.chickens.zeren.extra": 3,
        "settle.chickens.payment": "pairwise",
        "claims.chi": True,
    }
    t = client.post(
        "/api/tables", json={"seats": [{"kind": "bot"}] * 4, "overrides": over}, headers=OPH
    ).json()
    words = t["house_rules_words"]
    assert {w["zh"] for w in words} == {
        "责任鸡加付：1 → 3",
        "鸡分怎么付：各付 → 两两结算",
        "可以吃：否 → 是",
    }
    assert {w["en"] for w in words} == {
        "responsibility chicken: extra: 1 → 3", "how chickens are paid: each pays → pairwise",
        "chow allowed: no → yes",
    }  # fmt: skip
    listed = next(x for x in client.get("/api/tables").json() if x["id"] == t["id"])
    assert listed["house_rules_words"] == words
    rows = diff(load_variant("guiyang"), load_variant("guiyang", overrides=over))
    assert house_rule_words(rows) == words
