"""Variant file formats and their migrations (issue 25, item 1; ``zhuoji.migrations``).

Each rename, move or changed default main made since the first commit is written here once
in its old spelling: the file loads with one warning per old key naming the old key, the
new key and the line, and reads exactly as the same file in the new spelling.  A file that
mixes the two spellings of a key is refused naming both lines; ``variants migrate``
rewrites a file keeping its comments.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from zhuoji import cli, migrations
from zhuoji.errors import VariantError
from zhuoji.variant_io import FormatWarning, load_variant
from zhuoji.variants_cmd import effective

SCHEMAS = Path(__file__).resolve().parents[1] / "zhuoji" / "schemas"
HEAD = "name: t\ntitle: 测试\nsource: test\nextends: guiyang\n"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _load(path: Path | str, overrides: Any = None) -> tuple[Any, list[str]]:
    """The rules, and the old-spelling warnings loading them gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ruleset = load_variant(path, overrides)
    return ruleset, [str(w.message) for w in caught if w.category is FormatWarning]


def _same_rules(old: Path, new: Path) -> None:
    a, warned = _load(old)
    b, clean = _load(new)
    assert warned and not clean
    assert effective(a) == effective(b)


# ---------------------------------------------------------------------------------------
# each change: old spelling → one warning per key, same rules as the new spelling
# ---------------------------------------------------------------------------------------

OLD_AND_NEW = [
    (
        "stake",
        "settle:\n  hu:\n    stake: 3\n",
        "stake: 3\n",
        [
            "{f}:7: settle.hu.stake: the format-1 spelling of stake (moved in 6954015): the old "
            "key scaled the win payment only; stake scales every payment (chickens, dou and "
            "penalties too)"
        ],
    ),
    (
        "burn",
        "settle:\n  burn:\n    on_repao: false\n    on_rob_kong: true\n",
        "settle:\n  burn:\n    repao: null\n    rob_kong: {chickens: true, dou: all}\n",
        [
            "{f}:7: settle.burn.on_repao: the format-1 spelling of settle.burn.repao (renamed "
            "in 1c0f168): on_repao: false is null",
            "{f}:8: settle.burn.on_rob_kong: the format-1 spelling of settle.burn.rob_kong "
            "(renamed in 1c0f168): on_rob_kong: true is {chickens: true, dou: all}",
        ],
    ),
    (
        "flip updown",
        "settle:\n  chickens:\n    flip: {mode: updown, value: 2}\n",
        "settle:\n  chickens:\n    flip: {makes: [prev, next], value: 2}\n",
        [
            "{f}:7: settle.chickens.flip.mode: the format-1 spelling of "
            "settle.chickens.flip.makes (renamed in a6c2e8b): mode: updown is makes: [prev, next]"
        ],
    ),
    (
        "flip none",
        "settle:\n  chickens:\n    flip:\n      mode: none\n",
        "settle:\n  chickens:\n    flip:\n      makes: []\n",
        [
            "{f}:8: settle.chickens.flip.mode: the format-1 spelling of "
            "settle.chickens.flip.makes (renamed in a6c2e8b): mode: none is makes: []"
        ],
    ),
    (
        "flip weekday",
        "settle:\n  chickens:\n    flip: {mode: weekday, value: 2}\n",
        "settle:\n  chickens:\n    flip: {makes: [], value: 2}\n"
        "    weekday: {value: 2, on_top: false}\n",
        [
            "{f}:7: settle.chickens.flip.mode: the format-1 spelling of "
            "settle.chickens.flip.makes (renamed in a6c2e8b): mode: weekday is makes: [] and "
            "weekday: {value: 2, on_top: false}",
        ],
    ),
    (
        "冲锋 and 责任 tiles",
        "settle:\n  chickens:\n    chongfeng: null\n    zeren: null\n---\n"
        "settle:\n  chickens:\n    chongfeng: {multiplier: 3}\n    zeren: {extra: 2}\n",
        "settle:\n  chickens:\n    chongfeng: {multiplier: 3, tiles: [1s]}\n"
        "    zeren: {extra: 2, tiles: [1s]}\n",
        [
            "{f}:7: settle.chickens.chongfeng: relied on the default before a6c2e8b; now "
            "written as settle.chickens.chongfeng.tiles: [1s]",
            "{f}:8: settle.chickens.zeren: relied on the default before a6c2e8b; now written as "
            "settle.chickens.zeren.tiles: [1s]",
        ],
    ),
]


def _files(tmp_path: Path, old: str, new: str) -> tuple[Path, Path]:
    """The old and new spellings as children of guiyang; ``A---B``: a parent file with
    ``A`` (new format) between guiyang and a child with ``B``."""
    if "---\n" in old:
        base, old = old.split("---\n")
        _write(tmp_path, "base", "format: 2\n" + HEAD.replace("name: t", "name: base") + base)
        head = HEAD.replace("extends: guiyang", "extends: base.yaml")
    else:
        head = HEAD
    return _write(tmp_path, "old", head + old), _write(tmp_path, "new", head + new)


@pytest.mark.parametrize(
    ("what", "old", "new", "messages"), OLD_AND_NEW, ids=[c[0] for c in OLD_AND_NEW]
)
def test_old_spelling_reads_as_the_new_with_one_warning_per_key(
    tmp_path: Path, what: str, old: str, new: str, messages: list[str]
) -> None:
    old_file, new_file = _files(tmp_path, old, new)
    a, warned = _load(old_file)
    b, clean = _load(new_file)
    assert clean == []
    label = (
        str(old_file.relative_to(Path.cwd()))
        if old_file.is_relative_to(Path.cwd())
        else str(old_file)
    )
    hint = f" (zhuoji variants migrate {label} --write)"
    assert warned == [m.replace("{f}", label) + hint for m in messages]
    assert effective(a) == effective(b)


def test_each_warning_names_the_line_of_the_old_key(tmp_path: Path) -> None:
    old = _write(
        tmp_path,
        "old",
        HEAD + "settle:\n  hu:\n    stake: 2\n  burn:\n    on_repao: true\n"
        "  chickens:\n    flip: {mode: same}\n",
    )
    _, warned = _load(old)
    lines = old.read_text(encoding="utf-8").splitlines()
    assert len(warned) == 3
    for message in warned:
        m = re.match(r"^.+?:(\d+): (\S+): the format-1 spelling of (\S+) ", message)
        assert m is not None, message
        old_key, new_key = m.group(2), m.group(3)
        assert old_key.rsplit(".", 1)[-1] + ":" in lines[int(m.group(1)) - 1]
        assert old_key != new_key


def test_old_stake_other_than_one_says_what_it_scales_now(tmp_path: Path) -> None:
    _, warned = _load(_write(tmp_path, "old", HEAD + "settle:\n  hu: {stake: 5}\n"))
    assert (
        warned[0]
        .split(" (zhuoji")[0]
        .endswith(
            "(moved in 6954015): the old key scaled the win payment only; stake scales every "
            "payment (chickens, dou and penalties too)"
        )
    )


def test_a_burn_stage_an_old_file_introduces_burns_both_parts(tmp_path: Path) -> None:
    """Before 1c0f168 a burn stage burned on 热炮 and on 抢杠 unless told not to; a file of
    that time (it writes on_repao) that left on_rob_kong out still burns on 抢杠."""
    base = "name: b\ntitle: b\nsource: test\nextends: guiyang\nsettle:\n  burn: null\n"
    _write(tmp_path, "b", "format: 2\n" + base)
    head = HEAD.replace("extends: guiyang", "extends: b.yaml")
    old = _write(tmp_path, "old", head + "settle:\n  burn:\n    on_repao: false\n")
    rules, warned = _load(old)
    params = rules.stage("burn").params
    assert params.repao is None
    assert params.rob_kong is not None and params.rob_kong.chickens and params.rob_kong.dou == "all"
    assert any("relied on the default before 1c0f168" in w for w in warned)


def test_a_burn_stage_of_an_unversioned_file_with_no_old_key_is_read_as_today(
    tmp_path: Path,
) -> None:
    """No old spelling, no way to date the file: it reads as the format before versioning
    (a burn stage without parts burns nothing)."""
    base = "name: b\ntitle: b\nsource: test\nextends: guiyang\nsettle:\n  burn: null\n"
    _write(tmp_path, "b", "format: 2\n" + base)
    head = HEAD.replace("extends: guiyang", "extends: b.yaml")
    rules, warned = _load(_write(tmp_path, "old", head + "settle:\n  burn: {}\n"))
    assert warned == []
    assert rules.stage("burn").params.repao is None


def test_a_chickens_stage_an_old_file_introduces_keeps_its_yaoji(tmp_path: Path) -> None:
    """Before a6c2e8b an old file's chickens stage had 幺鸡 by default: permanent (worth 1,
    paid as ji.yaoji) and golden on 九条.  (``flip.mode`` dates the file.)"""
    text = (
        "name: t\ntitle: t\nsource: test\nsettle:\n  hu: {}\n"
        "  chickens:\n    flip: {mode: next}\n    permanent:\n      - {tile: 8p, value: 2}\n"
    )
    rules, warned = _load(_write(tmp_path, "old", text))
    p = rules.stage("chickens").params
    assert [(c.tile, c.value, c.item, c.label) for c in p.permanent] == [
        ("8p", 2, "ji.yaoji", "幺鸡")
    ]
    assert [(g.flip, g.tile, g.multiplier) for g in p.golden] == [("9s", "1s", 2)]
    assert len(warned) == 3  # mode; golden; the row's item and label


def test_red_dragons_counts_hong_zhong_copies(tmp_path: Path) -> None:
    old = _write(
        tmp_path,
        "old",
        HEAD.replace("guiyang", "luan")
        + "patterns:\n  rows:\n    hongzhong: {name: 红中, fan: 2, item: zui.hongzhong, "
        "per: red_dragons, values_by_count: [0, 2, 4, 6, 10]}\n"
        "    sihong: {name: 四红, fan: 9, requires: {red_dragons: 4}}\n",
    )
    new = _write(
        tmp_path,
        "new",
        HEAD.replace("guiyang", "luan")
        + "patterns:\n  rows:\n    hongzhong: {name: 红中, fan: 2, item: zui.hongzhong, "
        "per: tile_copies, tile: 5z, values_by_count: [0, 2, 4, 6, 10]}\n"
        "    sihong: {name: 四红, fan: 9, requires: {tile_copies: 4}, tile: 5z}\n",
    )
    _same_rules(old, new)


def test_overrides_with_old_spellings_are_migrated_like_files() -> None:
    """Old event logs carry their overrides in the spelling of their time."""
    rules, warned = _load(
        "guiyang", ["settle.burn.on_repao=false", "settle.chickens.flip.mode=same"]
    )
    assert rules.stage("burn").params.repao is None
    assert rules.stage("chickens").params.flip.makes == ["same"]
    assert warned[0].startswith(
        "--set settle.burn.on_repao: settle.burn.on_repao: the format-1 spelling of "
        "settle.burn.repao (renamed in 1c0f168): on_repao: false is null"
    )


# ---------------------------------------------------------------------------------------
# refusals
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "settle:\n  burn:\n    on_repao: true\n    repao: null\n",
            "{f}:7: settle.burn.on_repao: the old spelling of settle.burn.repao, which line 8 "
            "gives too: write only settle.burn.repao (lines 7 and 8 of {f})",
        ),
        (
            "settle:\n  chickens:\n    flip:\n      makes: [same]\n      mode: same\n",
            "{f}:9: settle.chickens.flip.mode: the old spelling of settle.chickens.flip.makes, "
            "which line 8 gives too: write only settle.chickens.flip.makes (lines 9 and 8 of {f})",
        ),
        (
            "stake: 2\nsettle:\n  hu: {stake: 2}\n",
            "{f}:7: settle.hu.stake: the old spelling of stake, which line 5 gives too: write "
            "only stake (lines 7 and 5 of {f})",
        ),
    ],
    ids=["burn", "flip", "stake"],
)
def test_a_key_in_both_spellings_is_refused_naming_both_lines(
    tmp_path: Path, body: str, message: str
) -> None:
    path = _write(tmp_path, "mixed", HEAD + body)
    with pytest.raises(VariantError) as err:
        load_variant(path)
    label = str(path)
    assert err.value.problems == [message.format(f=label)]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("3", "format 3 is newer than this zhuoji reads (formats 1 to 2): upgrade zhuoji"),
        ("two", "'two' is not a format number (1 to 2)"),
        ("0", "0 is not a format number (1 to 2)"),
    ],
)
def test_a_format_this_zhuoji_cannot_read_is_refused(
    tmp_path: Path, value: str, message: str
) -> None:
    path = _write(tmp_path, "f", f"format: {value}\n" + HEAD)
    with pytest.raises(VariantError) as err:
        load_variant(path)
    assert err.value.problems == [f"{path}:1: format: {message}"]


def test_a_current_format_file_using_an_old_spelling_is_refused_by_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "f", "format: 2\n" + HEAD + "settle:\n  burn: {on_repao: true}\n")
    with pytest.raises(VariantError) as err:
        load_variant(path)
    assert err.value.problems == [
        f"{path}:7: settle.burn.on_repao: the format-1 spelling of settle.burn.repao; this "
        "file declares format 2: write settle.burn.repao (or run zhuoji variants migrate on "
        "the file without its format line)"
    ]


def test_format_and_revision_are_not_overrides() -> None:
    with pytest.raises(VariantError) as err:
        load_variant("guiyang", ["format=1"])
    assert err.value.problems == [
        "--set format: format belongs to a variant file, not to an override"
    ]


# ---------------------------------------------------------------------------------------
# chains of mixed formats
# ---------------------------------------------------------------------------------------


def test_an_old_parent_under_a_current_child(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "base",
        HEAD.replace("name: t", "name: base") + "settle:\n  burn: {on_repao: false}\n",
    )
    child = _write(
        tmp_path,
        "child",
        "format: 2\n" + HEAD.replace("extends: guiyang", "extends: base") + "stake: 2\n",
    )
    rules, warned = _load(child)
    assert rules.stage("burn").params.repao is None and rules.stake == 2
    assert len(warned) == 1 and "base.yaml:6: settle.burn.on_repao" in warned[0]


def test_an_old_child_under_a_current_parent(tmp_path: Path) -> None:
    _write(tmp_path, "base", "format: 2\n" + HEAD.replace("name: t", "name: base") + "stake: 2\n")
    child = _write(
        tmp_path,
        "child",
        HEAD.replace("extends: guiyang", "extends: base")
        + "settle:\n  chickens:\n    flip: {mode: same}\n",
    )
    rules, warned = _load(child)
    assert rules.stage("chickens").params.flip.makes == ["same"] and rules.stake == 2
    assert len(warned) == 1 and "child.yaml:7: settle.chickens.flip.mode" in warned[0]


def test_a_stage_renamed_by_id_is_found_through_the_parent(tmp_path: Path) -> None:
    """``settle.shao: {id: burn}`` in a parent: a child's ``shao.on_repao`` is the burn
    stage's old key."""
    _write(
        tmp_path,
        "base",
        "format: 2\n"
        + HEAD.replace("name: t", "name: base")
        + "settle:\n  burn: null\n  shao: {id: burn, repao: {chickens: true, dou: all}}\n",
    )
    child = _write(
        tmp_path,
        "child",
        HEAD.replace("extends: guiyang", "extends: base") + "settle:\n  shao: {on_repao: false}\n",
    )
    rules, warned = _load(child)
    assert rules.stage("shao").params.repao is None
    assert "settle.shao.on_repao: the format-1 spelling of settle.shao.repao" in warned[0]


# ---------------------------------------------------------------------------------------
# the steps are data
# ---------------------------------------------------------------------------------------


def test_every_change_cites_its_commit_and_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "variants.md").read_text(
        encoding="utf-8"
    )
    section = docs.split("## Format versions", 1)[1]
    for change in migrations.all_changes():
        assert re.fullmatch(r"[0-9a-f]{7}", change.commit)
        assert change.why and change.issue
        assert f"`{change.name}`" in section and change.commit in section, change.name
    for unmigrated in migrations.CHANGES_WITHOUT_MIGRATION:
        assert unmigrated.commit in section, unmigrated.key
    assert migrations.STEPS[-1].source + 1 == migrations.CURRENT_FORMAT


# ---------------------------------------------------------------------------------------
# zhuoji variants migrate
# ---------------------------------------------------------------------------------------

OLD_FILE = """\
# yaml-language-server: $schema=../schemas/variant.schema.json
# A city (seed 000).
name: t
title: 测试
source: test
extends: guiyang

settle:
  hu:
    stake: 1                        # the table's stake (seed 003)
    streak_bonus: 1                 # 000 连庄规则
  burn:
    on_repao: true                  # 000 15) 热炮 burns
    on_rob_kong: false              # 000 16) only the kong
  chickens:
    flip: {mode: updown, value: 1}  # FW 上下鸡
    # a comment line of its own, between keys
    chongfeng: {multiplier: 2}      # 000 ① 冲锋鸡
"""


def _run(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _comments(text: str) -> list[str]:
    return [line[line.index("#") :] for line in text.splitlines() if "#" in line]


def test_migrate_prints_the_file_in_the_current_format_keeping_comments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "t", OLD_FILE)
    status, out, _ = _run("variants", "migrate", str(path), capsys=capsys)
    assert status == 0
    assert path.read_text(encoding="utf-8") == OLD_FILE  # not written
    for comment in _comments(OLD_FILE):
        assert comment in out, comment
    assert "format: 2\n" in out and "mode:" not in out and "on_repao" not in out
    assert (
        "    streak_bonus: 1                 # 000 连庄规则\n" in out
    )  # untouched lines as they were
    migrated = _write(tmp_path, "m", out)
    _same_rules(path, migrated)


def test_migrate_write_rewrites_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "t", OLD_FILE)
    status, out, _ = _run("variants", "migrate", str(path), "--write", capsys=capsys)
    assert status == 0 and "rewritten (format 1 → 2, 4 changes)" in out
    assert "t.yaml:10: settle.hu.stake: the format-1 spelling of stake" in out
    text = path.read_text(encoding="utf-8")
    _, warned = _load(path)
    assert warned == []
    status, out, _ = _run("variants", "migrate", str(path), "--write", capsys=capsys)
    assert "already current (format 2 → 2, 0 changes)" in out
    assert path.read_text(encoding="utf-8") == text


def test_migrate_json_matches_its_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "t", OLD_FILE)
    status, out, _ = _run("variants", "migrate", str(path), "--json", capsys=capsys)
    assert status == 0
    data = json.loads(out)
    schema = json.loads((SCHEMAS / "migrate.output.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    assert data["from_format"] == 1 and data["to_format"] == 2 and not data["written"]
    assert [c["old"] for c in data["changes"]] == [
        "settle.hu.stake",
        "settle.burn.on_repao",
        "settle.burn.on_rob_kong",
        "settle.chickens.flip.mode",
    ]
    assert data["changes"][1]["line"] == 13 and data["changes"][1]["commit"] == "1c0f168"


def test_migrate_diff_and_a_mixed_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "t", OLD_FILE)
    status, out, _ = _run("variants", "migrate", str(path), "--diff", capsys=capsys)
    assert status == 0 and "-    on_repao: true" in out and "+format: 2" in out
    bad = _write(tmp_path, "bad", OLD_FILE.replace("  burn:\n", "  burn:\n    repao: null\n"))
    status, _, err = _run("variants", "migrate", str(bad), capsys=capsys)
    assert status == 2 and "settle.burn.on_repao: the old spelling of settle.burn.repao" in err
    assert bad.read_text(encoding="utf-8").count("on_repao") == 1


def test_migrate_pin_pins_a_shipped_parent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "t", OLD_FILE)
    _, out, _ = _run("variants", "migrate", str(path), "--pin", capsys=capsys)
    revision = load_variant("guiyang").variant.revision
    assert f"extends: guiyang@{revision}\n" in out


def test_cli_prints_each_old_spelling_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "t", OLD_FILE)
    status, _, err = _run("variants", "show", str(path), capsys=capsys)
    assert status == 0
    lines = [line for line in err.splitlines() if line.startswith("zhuoji: warning: ")]
    assert len(lines) == len(set(lines)) == 4  # stake, on_repao, on_rob_kong, mode
    assert lines[0].startswith(
        f"zhuoji: warning: {path}:10: settle.hu.stake: the format-1 spelling of stake"
    )


def test_validate_lists_old_spellings_as_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "t", OLD_FILE)
    status, out, err = _run("variants", "validate", str(path), "--json", capsys=capsys)
    assert status == 0 and err == ""
    warned = json.loads(out)[0]["warnings"]
    assert {"file": str(path), "line": 13, "path": "settle.burn.on_repao"}.items() <= warned[
        1
    ].items()


# ---------------------------------------------------------------------------------------
# from now on: no key goes without a new format
# ---------------------------------------------------------------------------------------

KEYS_FILE = (
    Path(__file__).resolve().parent / "corpus" / f"format-{migrations.CURRENT_FORMAT}-keys.json"
)


def schema_keys() -> dict[str, dict[str, Any]]:
    """Every key path the variant schema allows (hook parameters as ``settle:ID.key``,
    ``*`` for a name, ``[]`` for a list item), with its default and allowed values."""
    schema = json.loads((SCHEMAS / "variant.schema.json").read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = defs[node["$ref"].split("/")[-1]]
        return node

    def values(node: dict[str, Any]) -> list[str]:
        node = resolve(node)
        out = [str(v) for v in node.get("enum", [])]
        out += [str(node["const"])] if "const" in node else []
        for sub in node.get("anyOf", []) + node.get("oneOf", []):
            out += values(sub)
        return sorted(set(out))

    out: dict[str, dict[str, Any]] = {}

    def walk(node: dict[str, Any], path: str, depth: int = 0) -> None:
        node = resolve(node)
        if depth > 12:
            return
        for sub in node.get("anyOf", []) + node.get("oneOf", []) + node.get("allOf", []):
            walk(sub, path, depth + 1)
        if isinstance(node.get("items"), dict):
            walk(node["items"], path + "[]", depth + 1)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], path + ".*", depth + 1)
        for key, prop in node.get("properties", {}).items():
            here = f"{path}.{key}" if path else key
            out[here] = {
                "default": prop.get("default", resolve(prop).get("default")),
                "values": values(prop),
            }
            walk(prop, here, depth + 1)

    walk(schema, "")
    for name, node in defs.items():
        point, _, hook = name.partition(".")
        if point in ("settle", "may_win", "dealer") and hook:
            walk(node, f"{point}:{hook}")
    return out


def test_no_key_or_default_changes_without_a_new_format() -> None:
    """A key (or an allowed value) the current format has may not disappear, nor may its
    default change, unless CURRENT_FORMAT is raised and a migration step says what becomes
    of it (docs/variants.md, Format versions).  New keys and values are free; after raising
    the format, write the new list with ``python tests/test_migrations.py``."""
    recorded = json.loads(KEYS_FILE.read_text(encoding="utf-8"))
    now = schema_keys()
    gone = sorted(k for k in recorded if k not in now)
    changed = sorted(
        k
        for k in recorded
        if k in now
        and (
            recorded[k]["default"] != now[k]["default"]
            or not set(recorded[k]["values"]) <= set(now[k]["values"])
        )
    )
    assert not gone and not changed, (
        f"keys gone: {gone}; default or allowed values changed: {changed}. Raise "
        "CURRENT_FORMAT in zhuoji/migrations.py with a Step migrating them, then record "
        "the new format's keys (python tests/test_migrations.py)"
    )


if __name__ == "__main__":
    KEYS_FILE.write_text(
        json.dumps(schema_keys(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    )
    print(f"wrote {KEYS_FILE}")
