"""Variant files: shipped files, the bad-file table (exact messages), merges, overrides, diff."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from zhuoji import docgen, schema
from zhuoji.agents.base import RandomAgent, make_agent
from zhuoji.errors import VariantError
from zhuoji.match import Match
from zhuoji.ruleset import Ruleset
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variant_io import builtin_names, load_variant, merge
from zhuoji.variants_cmd import diff, effective

SHIPPED = [
    "anshun",
    "bijie",
    "dushan",
    "duyun",
    "erdingguai",
    "guiyang",
    "guiyang-dingque",
    "guiyang-qq",
    "guiyang-shoushang",
    "guiyang-weile",
    "jinsha",
    "jinyou",
    "kaili",
    "liupanshui",
    "luan",
    "qianxi",
    "sandingguai",
    "tongren",
    "zunyi",
]


def test_shipped_list() -> None:
    assert builtin_names() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_file_builds_a_ruleset(name: str) -> None:
    r = load_variant(name)
    assert isinstance(r, Ruleset)
    assert r.name == name
    assert r.stages, "every shipped variant settles something"
    text = (VARIANTS_DIR / f"{name}.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schemas/variant.schema.json\n")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_scoring_value_cites_its_source(name: str) -> None:
    """Project rule: every scoring value carries a comment naming its source."""
    lines = (VARIANTS_DIR / f"{name}.yaml").read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        body = line.split("#")[0]
        if any(
            k in body for k in ("fan:", "value:", "multiplier:", "extra:", "_bonus:", "values:")
        ):
            context = "\n".join(lines[max(0, i - 3) : i + 1])
            assert "#" in line or "# " in context, (
                f"{name}.yaml:{i + 1} has no source comment: {line}"
            )


def test_schema_file_is_current() -> None:
    assert schema.main(["--check"]) == 0


def test_docs_reference_is_current() -> None:
    assert docgen.main(["--check"]) == 0


def test_diff_lists_seed_differences() -> None:
    rows = {
        row["path"]: (row["label"], row["a"], row["b"])
        for row in diff(load_variant("guiyang"), load_variant("guiyang-weile"))
    }
    assert rows["settle.chickens.chongfeng.multiplier"] == (
        "冲锋鸡 multiplier",
        2,
        3,
    )  # 000 ① vs 001 二(1)
    assert rows["settle.chickens.chongfeng.golden_multiplier"][1:] == (4, 6)
    assert rows["settle.chickens.zeren.extra"] == ("责任鸡 extra", 1, 2)
    assert rows["patterns.rows.qidui.fan"] == ("七对 fan", 8, 10)
    assert rows["patterns.rows.longqidui.fan"][1:] == (10, 20)
    assert rows["patterns.rows.gangkai.fan"][1:] == (1, 3)
    assert rows["settle.dou.values.concealed"] == ("闷豆 value", 2, 3)
    assert rows["settle.dou.values.added"] == ("转弯豆 value", 1, 3)
    assert rows["settle.hu.baoting.mode"] == ("报听 value mode", "floor", "add")
    assert "settle.xianggong" in rows and "patterns.rows.zimo" in rows


def test_override_diff_in_words() -> None:
    a = load_variant("guiyang")
    b = load_variant("guiyang", ["settle.chickens.chongfeng.multiplier=3"])
    assert [(r["label"], r["a"], r["b"]) for r in diff(a, b)] == [("冲锋鸡 multiplier", 2, 3)]


def test_overrides_as_mapping_dotted_or_nested() -> None:
    a = load_variant("guiyang", {"settle.dou.values.added": 3})
    b = load_variant("guiyang", {"settle": {"dou": {"values": {"added": 3}}}})
    assert effective(a) == effective(b)
    assert a.stage("dou").params.values.added == 3  # type: ignore[union-attr]
    assert a.overrides == {"settle": {"dou": {"values": {"added": 3}}}}


def test_merge_semantics() -> None:
    base = {"a": {"x": 1, "y": [1, 2]}, "b": 2, "c": {"z": 1}}
    over = {"a": {"y": [3]}, "b": None, "c": {"w": None}}
    assert merge(base, over) == {"a": {"x": 1, "y": [3]}, "c": {"z": 1}}


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / f"{name}.yaml"
    p.write_text(text, encoding="utf-8")
    return p


HEAD = "name: t\ntitle: 测试\nsource: test\nextends: guiyang\n"

BAD_FILES = [
    (
        "unknown key",
        HEAD + "colour: red\n",
        [
            "{f}:5: colour: unknown key 'colour' (known: format, revision, name, title, title_en, "
            "source, description, "
            "family, extends, tiles, wild, deal, claims, baoting, repao, exchange, dingque, forms, patterns, "
            "may_win, dealer, settle, match, stake)"
        ],
    ),
    (
        "wrong type",
        HEAD + "tiles:\n  players: four\n",
        ["{f}:6: tiles.players: 'four' is not of type 'integer'"],
    ),
    (
        "bad tile",
        HEAD + "wild:\n  stand_in: 8z\n",
        ["{f}:6: wild.stand_in: '8z' is not a tile (write it like 5m, 1s, 9p or 7z)"],
    ),
    (
        "unknown hook id",
        HEAD + "dealer:\n  id: winner\n",
        ["{f}:6: dealer.id: 'winner' is not one of: 'rotate', 'winner_deals'"],
    ),
    (
        "unknown stage name",
        HEAD + "settle:\n  chikens: {scope: hand}\n",
        [
            "{f}:6: settle.chikens: 'chikens' is not a hook id, so the entry needs an id (one of: "
            "baopai, burn, chajiao, chickens, chuifeng, dajiao, dou, flowers, genzhuang, hu, huazhu, "
            "kong_feeder, manji, papo, peng_sets, reng_bao, shabao, twelve_down, xianggong)"
        ],
    ),
    (
        "bad enum",
        HEAD + "settle:\n  chickens:\n    scope: everywhere\n",
        ["{f}:7: settle.chickens.scope: 'everywhere' is not one of: 'hand', 'permanent', 'all'"],
    ),
    (
        "negative payout",
        HEAD + "settle:\n  dou:\n    values: {added: -1}\n",
        ["{f}:7: settle.dou.values.added: -1 is less than the minimum of 0"],
    ),
    (
        "unknown parameter",
        HEAD + "settle:\n  shabao: {amount: 10}\n",
        [
            "{f}:6: settle.shabao.amount: unknown key 'amount' (known: value, on_discard, "
            "on_self_draw, others_on_discard, id)"
        ],
    ),
    (
        "a tile outside the tile set (issue 12 §5)",
        HEAD + "wild:\n  indicator: fixed\n  tile: 5z\n  stand_in: 7z\n",
        [
            "{f}:7: wild.tile: 5z (红中) is not in the suits tile set (万条筒, 108 tiles)",
            "{f}:8: wild.stand_in: 7z (白板) is not in the suits tile set (万条筒, 108 tiles)",
        ],
    ),
    (
        "a pattern row counting a tile outside the set",
        HEAD
        + "patterns:\n  rows:\n    hongzhong: {name: 红中, fan: 2, per: tile_copies, tile: 5z}\n",
        [
            "{f}:7: patterns.rows.hongzhong.tile: 5z (红中) is not in the suits tile set "
            "(万条筒, 108 tiles)"
        ],
    ),
    (
        "a 72-tile table naming 万",
        HEAD + "tiles: {set: two-suit}\nwild: {indicator: fixed, tile: 5m}\n",
        ["{f}:6: wild.tile: 5m (五万) is not in the two-suit tile set (条筒, 72 tiles)"],
    ),
    (
        "定缺 on two suits",
        HEAD + "tiles: {set: two-suit}\ndingque: {meld_void: false}\n",
        ["{f}:6: dingque: 定缺 needs three suits; the two-suit set has only 条 and 筒"],
    ),
    (
        "换三张 opposite at three seats",
        HEAD + "tiles: {players: 3}\nexchange:\n  direction: opposite\n",
        ["{f}:7: exchange.direction: opposite needs four players; the table has 3"],
    ),
    (
        "换四张 from a short hand",
        HEAD + "tiles: {hand_size: 7}\nexchange:\n  tiles: 4\n",
        [
            "{f}:7: exchange.tiles: 4 tiles of one suit need a hand of at least 10 tiles (tiles.hand_size is 7)"
        ],
    ),
    (
        "several problems at once",
        HEAD + "tiles: {players: 9}\npatterns:\n  rows:\n    pinghu: {fan: -1}\n",
        [
            "{f}:8: patterns.rows.pinghu.fan: -1 is less than the minimum of 0",
            "{f}:5: tiles.players: 9 is greater than the maximum of 4",
        ],
    ),
]


@pytest.mark.parametrize(("case", "text", "messages"), BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_bad_file_messages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, text: str, messages: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "t", text)
    with pytest.raises(VariantError) as err:
        load_variant("t.yaml")
    assert err.value.problems == [m.format(f="t.yaml") for m in messages]


def test_extends_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "a", "name: a\ntitle: A\nsource: t\nextends: b\n")
    _write(tmp_path, "b", "name: b\ntitle: B\nsource: t\nextends: a\n")
    with pytest.raises(VariantError) as err:
        load_variant("a.yaml")
    assert err.value.problems == ["b.yaml:4: extends: cycle: a.yaml -> b.yaml -> a.yaml"]


def test_missing_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "a", "name: a\ntitle: A\nsource: t\nextends: nowhere\n")
    with pytest.raises(VariantError) as err:
        load_variant("a.yaml")
    assert err.value.problems == [
        "a.yaml:4: extends: parent 'nowhere' not found (looked beside the file and among the shipped variants)"
    ]


def test_three_level_chain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(
        tmp_path,
        "mid",
        "name: mid\ntitle: M\nsource: t\nextends: guiyang-shoushang\nsettle:\n  shabao: {value: 12}\n",
    )
    _write(
        tmp_path,
        "leaf",
        "name: leaf\ntitle: L\nsource: t\nextends: mid\nsettle:\n  dou: {late_value: 3}\n",
    )
    r = load_variant("leaf.yaml")
    assert r.stage("chickens").params.scope == "hand"  # type: ignore[union-attr]  (from guiyang-shoushang)
    assert r.stage("shabao").params.value == 12  # type: ignore[union-attr]
    assert r.stage("dou").params.late_value == 3  # type: ignore[union-attr]
    assert r.stage("dou").params.values.concealed == 2  # type: ignore[union-attr]  (from guiyang)


def test_invalid_override() -> None:
    with pytest.raises(VariantError) as err:
        load_variant("guiyang", ["settle.chickens.chongfeng.multiplier=-1", "tiles.colour=red"])
    assert err.value.problems == [
        "--set settle.chickens.chongfeng.multiplier: settle.chickens.chongfeng.multiplier: "
        "-1 is less than the minimum of 1",
        "--set tiles.colour: tiles.colour: unknown key 'colour' (known: set, players, hand_size, flowers)",
    ]


def test_override_without_equals() -> None:
    with pytest.raises(VariantError) as err:
        load_variant("guiyang", ["settle.dou"])
    assert err.value.problems == ["--set settle.dou: expected KEY=VALUE"]


def test_null_switches_a_feature_off() -> None:
    r = load_variant("guiyang", {"settle.chickens.chongfeng": None, "settle.shabao": None})
    assert r.stage("chickens").params.chongfeng is None  # type: ignore[union-attr]
    assert r.stage("shabao") is None


def test_unknown_variant_name() -> None:
    with pytest.raises(VariantError) as err:
        load_variant("nocity")
    assert err.value.problems == [
        "nocity: no such variant file or shipped variant (shipped: " + ", ".join(SHIPPED) + ")"
    ]


NEW_CITY = """\
# yaml-language-server: $schema=../schemas/variant.schema.json
name: testcity
title: 测试城
source: "a test: a brand-new variant written without code"
extends: guiyang-weile
tiles: {players: 3}
patterns:
  rows:
    qidui: {fan: 12}
    sanlong: {name: 三龙七对, fan: 40, requires: {form: seven_pairs, quads: 3}}
settle:
  chickens:
    permanent:
      - {tile: 1s, value: 1, item: ji.yaoji, label: 幺鸡}
      - {tile: 8p, value: 2, item: ji.wugu, label: 乌骨鸡}
  dou: {jiandousan: true}
  shabao: {value: 15}
"""


def test_brand_new_variant_plays_and_settles(tmp_path: Path) -> None:
    """Issue 3: a new file in a temporary folder plays and settles rounds, no code change."""
    path = _write(tmp_path, "testcity", NEW_CITY)
    ruleset = load_variant(path)
    assert ruleset.players == 3
    match = Match(ruleset, seed=5, rounds=6)
    result = match.play([make_agent("greedy", 1), make_agent("greedy", 2), RandomAgent(3)])
    assert len(result.rounds) == 6
    items: set[str] = set()
    for r in result.rounds:
        assert r.ledger is not None and sum(r.ledger.totals()) == 0
        items |= set(r.ledger.by_item())
    assert sum(result.totals) == 0
    assert items & {"hu.pattern", "chajiao"}, "rounds were settled"
    assert random.Random(0).random() < 1  # the match above is deterministic for its seed


def test_every_schema_property_is_described() -> None:
    """Issue 3: the schema is the rules author's reference, so every property says what it is."""
    from zhuoji.schema import variant_schema

    missing: list[str] = []

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                if isinstance(sub, dict) and key != "id" and not sub.get("description"):
                    missing.append(f"{path}.{key}")
            for key, sub in node.items():
                if key == "properties":
                    for name, prop in sub.items():
                        walk(prop, f"{path}.{name}")
                elif isinstance(sub, dict):
                    walk(sub, f"{path}/{key}")

    walk(variant_schema(builtin_only=True), "")
    assert missing == []
