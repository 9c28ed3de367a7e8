"""Revisions of the shipped variants, and parents pinned at one (issue 25, item 1).

Each shipped file carries ``format:`` and ``revision:``; every revision's rules are kept in
``zhuoji/variants/history/NAME@N.yaml`` (generated from git history by
``tests/corpus/regenerate.py``), and ``extends: NAME@N`` reads them.  Changing a shipped
variant's rules without raising its revision (and writing the snapshot) fails here.
"""

from __future__ import annotations

import itertools
import json
import re
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from zhuoji import cli
from zhuoji.errors import VariantError
from zhuoji.migrations import CURRENT_FORMAT
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variant_io import HISTORY_DIR, builtin_names, load_variant, revisions
from zhuoji.variants_cmd import NOT_RULES, effective, parent_upgrade

SHIPPED = builtin_names()
SCHEMAS = Path(__file__).resolve().parents[1] / "zhuoji" / "schemas"


def rules(name_or_path: str | Path) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no old spelling in a shipped file or a snapshot
        data = effective(load_variant(name_or_path))
    return {k: v for k, v in data.items() if k not in NOT_RULES}


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_file_declares_its_format_and_revision(name: str) -> None:
    data = yaml.safe_load((VARIANTS_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    assert data["format"] == CURRENT_FORMAT
    assert isinstance(data["revision"], int) and data["revision"] >= 1
    assert load_variant(name).variant.revision == data["revision"]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_revision_is_kept_and_the_last_is_the_file(name: str) -> None:
    revision = load_variant(name).variant.revision
    assert revisions(name) == list(range(1, (revision or 0) + 1)), (
        f"{name}: history has {revisions(name)}, the file says revision {revision}: "
        "raise revision: when the rules change and run python tests/corpus/regenerate.py --history"
    )
    assert rules(f"{name}@{revision}") == rules(name), (
        f"{name}'s rules differ from its revision {revision} (zhuoji variants diff "
        f"{name}@{revision} {name}): raise its revision: and run python "
        "tests/corpus/regenerate.py --history"
    )


@pytest.mark.parametrize("name", SHIPPED)
def test_each_revision_changed_the_rules(name: str) -> None:
    kept = [rules(f"{name}@{n}") for n in revisions(name)]
    for n, (before, after) in enumerate(itertools.pairwise(kept), start=1):
        assert before != after, f"{name}@{n} and @{n + 1} have the same rules"


@pytest.mark.parametrize("path", sorted(HISTORY_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_snapshot_stands_alone(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    name, revision = path.stem.split("@")
    assert "extends" not in data and data["format"] == CURRENT_FORMAT
    assert data["name"] == name and data["revision"] == int(revision)
    assert path.read_text(encoding="utf-8").startswith(f"# {name}, revision {revision}: ")


def _child(tmp_path: Path, parent: str, extra: str = "") -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(
        f"format: 2\nname: mine\ntitle: 我的\nsource: test\nextends: {parent}\n{extra}",
        encoding="utf-8",
    )
    return path


def test_a_pinned_child_keeps_its_parents_reading(tmp_path: Path) -> None:
    """guiyang's 热炮 scope was after a kong until 1c0f168 made it after a dou (revision 2):
    a child pinned at revision 1 keeps after_kong; an unpinned one follows."""
    assert load_variant(_child(tmp_path, "guiyang@1")).variant.repao.scope == "after_kong"
    assert load_variant(_child(tmp_path, "guiyang")).variant.repao.scope == "after_dou"
    assert load_variant("guiyang@1").variant.repao.scope == "after_kong"


@pytest.mark.parametrize(
    ("parent", "message"),
    [
        ("guiyang@99", "'guiyang@99': guiyang has no revision 99 (revisions 1 to 3)"),
        (
            "nosuch@1",
            "'nosuch@1': only shipped variants have revisions (NAME@N); 'nosuch' is not one",
        ),
    ],
)
def test_a_pin_that_names_no_revision_is_refused(tmp_path: Path, parent: str, message: str) -> None:
    path = _child(tmp_path, parent)
    with pytest.raises(VariantError) as err:
        load_variant(path)
    assert err.value.problems == [f"{path}:5: extends: {message}"]


def test_diff_shows_what_moving_to_the_current_parent_changes(tmp_path: Path) -> None:
    pinned, current, rows = parent_upgrade(str(_child(tmp_path, "guiyang@1")))
    assert (pinned, current) == ("guiyang@1", "guiyang")
    assert [r["words"] for r in rows] == [
        "热炮 scope: after_kong → after_dou",
        "报听 value mode: none → floor",
    ]
    assert parent_upgrade(str(_child(tmp_path, "guiyang")))[2] == []


def test_diff_command_with_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _child(tmp_path, "guiyang@2", "settle:\n  chickens: {scope: hand}\n")
    assert cli.main(["variants", "diff", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f"{path}: moving extends guiyang@2 → guiyang changes 1 rule",
        "  报听 value mode: none → floor    (settle.chajiao.baoting.mode)",
    ]
    assert cli.main(["variants", "diff", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    schema = json.loads((SCHEMAS / "diff.output.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    assert [r["path"] for r in data["differences"]] == ["settle.chajiao.baoting.mode"]
    assert cli.main(["variants", "diff", str(_child(tmp_path, "guiyang"))]) == 0
    assert "nothing to move" in capsys.readouterr().out


def test_revision_is_the_files_own(tmp_path: Path) -> None:
    """A child does not inherit its parent's revision."""
    assert load_variant(_child(tmp_path, "guiyang")).variant.revision is None
    assert load_variant(_child(tmp_path, "guiyang", "revision: 7\n")).variant.revision == 7


def test_docs_list_the_revisions() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "variants.md").read_text(
        encoding="utf-8"
    )
    table = docs.split("### Revisions of the shipped variants", 1)[1].split("\n\n`zhuoji", 1)[0]
    for name in SHIPPED:
        last = revisions(name)[-1]
        if last > 1:
            row = next(line for line in table.splitlines() if line.startswith(f"| `{name}` |"))
            assert re.search(rf"\b{last}: [0-9a-f]{{7}}", row), row
