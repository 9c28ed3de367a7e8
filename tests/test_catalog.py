"""The catalog of shipped variants (issue 12, "The catalog"): the ``family`` key, ``zhuoji
variants list`` grouped by family (text and ``--json``), the generated catalog table in
``docs/variants.md`` (kept current by ``tests/test_variant.py``), and every shipped file
copied out of the package, as a rules author would, and played from there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from zhuoji import cli, docgen
from zhuoji.agents.base import make_agent
from zhuoji.errors import VariantError
from zhuoji.match import Match
from zhuoji.schema import SCHEMA_DIR
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variant_io import builtin_names, load_variant, read_chain

#: issue 12 "Done when": 「`zhuoji variants list` shows at least 18 variants」: the six seed
#: variants, qianxi, jinsha, sandingguai, erdingguai, guiyang-dingque, guiyang-qq, and
#: zunyi, anshun, bijie, duyun, kaili, dushan, tongren.
LEAST_SHIPPED = 18


def _list_json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert cli.main(["variants", "list", "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


# --- family -------------------------------------------------------------------------------


def test_every_shipped_variant_names_a_family() -> None:
    families = {name: load_variant(name).variant.family for name in builtin_names()}
    assert all(families.values()), [n for n, f in families.items() if not f]
    assert families["guiyang"] == families["guiyang-weile"] == families["liupanshui"] == "guizhou"
    assert (families["luan"], families["jinyou"]) == ("luan", "jinyou")


def test_family_is_inherited_through_extends(tmp_path: Path) -> None:
    """guiyang-shoushang says nothing about its family: it is guiyang's."""
    assert "family" not in read_chain("guiyang-shoushang")[-1].data
    assert load_variant("guiyang-shoushang").variant.family == "guizhou"
    child = tmp_path / "child.yaml"
    child.write_text("name: child\ntitle: 子\nsource: t\nextends: luan\n", encoding="utf-8")
    assert load_variant(child).variant.family == "luan"
    other = tmp_path / "other.yaml"
    other.write_text(
        "name: other\ntitle: 别\nsource: t\nextends: luan\nfamily: anhui\n", encoding="utf-8"
    )
    assert load_variant(other).variant.family == "anhui"


def test_family_must_be_a_short_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ntitle: 坏\nsource: t\nextends: guiyang\nfamily: 贵州\n", "utf-8")
    with pytest.raises(VariantError) as err:
        load_variant(bad)
    assert "family" in str(err.value) and "does not match" in str(err.value)


# --- variants list ------------------------------------------------------------------------


def test_list_json_groups_by_family(capsys: pytest.CaptureFixture[str]) -> None:
    data = _list_json(capsys)
    jsonschema.validate(data, json.loads((SCHEMA_DIR / "list.output.schema.json").read_text()))
    families = data["families"]
    assert isinstance(families, list)
    names = [f["family"] for f in families]
    assert names == sorted(names) and len(set(names)) == len(names)
    listed = [v["name"] for f in families for v in f["variants"]]
    assert sorted(listed) == builtin_names() and data["count"] == len(listed)
    for fam in families:
        for v in fam["variants"]:
            assert v["family"] == fam["family"] == load_variant(v["name"]).variant.family
    rows = {v["name"]: v for f in families for v in f["variants"]}
    assert rows["guiyang-shoushang"]["extends"] == "guiyang"
    assert rows["guiyang"]["extends"] is None


def test_list_text_has_a_heading_per_family(capsys: pytest.CaptureFixture[str]) -> None:
    families = _list_json(capsys)["families"]
    assert isinstance(families, list)
    assert cli.main(["variants", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["name", "seats", "tiles", "extends", "title", "source"]
    at = 1
    for fam in families:
        n = len(fam["variants"])
        assert lines[at] == f"{fam['family']} — {n} variant{'s' if n != 1 else ''}"
        assert [line.split()[0] for line in lines[at + 1 : at + 1 + n]] == [
            v["name"] for v in fam["variants"]
        ]
        at += n + 1
    assert at == len(lines)


def test_list_shows_the_catalog(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 12: at least 18 shipped variants (see LEAST_SHIPPED)."""
    assert _list_json(capsys)["count"] >= LEAST_SHIPPED


# --- the generated catalog table ----------------------------------------------------------


def test_docs_catalog_names_every_variant_and_its_changes() -> None:
    text = docgen.catalog()
    for name in builtin_names():
        assert f"| `{name}` |" in text
    # a variant that extends another lists, in words, what it changes (variants diff)
    row = next(line for line in text.splitlines() if line.startswith("| `guiyang-shoushang` |"))
    assert "Differs from `guiyang`: scope: all → hand; won tile: every_win → self_draw." in row
    assert docgen.catalog() in Path(docgen.DOC).read_text(encoding="utf-8")


# --- a rules author's copy ----------------------------------------------------------------


def _copy_chain(name: str, folder: Path) -> Path:
    """Copy a shipped file and every file its ``extends`` chain names into ``folder``."""
    src: str | None = name
    while src is not None:
        path = VARIANTS_DIR / f"{src}.yaml"
        shutil.copy(path, folder / path.name)
        src = yaml.safe_load(path.read_text(encoding="utf-8")).get("extends")
    return folder / f"{name}.yaml"


@pytest.mark.parametrize("name", builtin_names())
def test_a_copied_city_file_plays_from_its_folder(name: str, tmp_path: Path) -> None:
    """Issue 12: 「A test copies each city file into a temporary folder outside the package,
    as a rules author would, and plays 3 rounds from it」."""
    path = _copy_chain(name, tmp_path)
    chain = read_chain(path)
    assert not any(layer.shipped for layer in chain), "a layer was read from the package"
    assert all(Path(layer.label).resolve().parent == tmp_path.resolve() for layer in chain)
    rs = load_variant(path)
    assert rs.name == name
    players = rs.variant.tiles.players
    result = Match(rs, seed=12, rounds=3).play([make_agent("greedy", s) for s in range(players)])
    assert len(result.rounds) == 3 and sum(result.totals) == 0
    for r in result.rounds:
        assert r.ledger is not None and sum(r.ledger.totals()) == 0
