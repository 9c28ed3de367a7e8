"""Dead keys (issue 11, item 12): ``zhuoji variants validate`` warns — exit status 0 — about
a key that has no effect under its variant, naming the file, the line and the key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zhuoji import cli
from zhuoji.deadkeys import dead_keys, warnings
from zhuoji.variant import VARIANTS_DIR as VARIANTS
from zhuoji.variant_io import builtin_names


@pytest.mark.parametrize("name", builtin_names())
def test_shipped_variants_write_no_dead_key(name: str) -> None:
    assert warnings(name) == []


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_discard_paid_by_without_discard_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """luan: nobody wins on a discard (seed 003 "胡牌只能自摸或抢杠")."""
    monkeypatch.chdir(tmp_path)
    _write(
        tmp_path,
        "t",
        "name: t\ntitle: 测试\nsource: test\nextends: luan\n"
        "settle:\n  hu:\n    discard_paid_by: all\n",
    )
    assert warnings("t.yaml") == [
        "t.yaml:7: settle.hu.discard_paid_by: has no effect: the variant has no wins on a "
        "discard (claims.win_on_discard)"
    ]


def test_streak_on_draw_without_a_streak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """jinyou: no stage pays the 连庄 streak (settle.hu.streak_bonus: 0)."""
    monkeypatch.chdir(tmp_path)
    text = "name: t\ntitle: 测试\nsource: test\nextends: jinyou\ndealer:\n  streak_on_draw: false\n"
    _write(tmp_path, "t", text)
    (dead,) = dead_keys("t.yaml")
    assert (dead.where, dead.key) == ("t.yaml:6", "dealer.streak_on_draw")
    assert "settle.hu.streak_bonus is 0" in dead.why
    _write(tmp_path, "t", text + "settle:\n  hu: {streak_bonus: 1}\n")
    assert warnings("t.yaml") == []  # paid now: the key matters


def test_a_whole_entry_and_nested_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage that cannot act is reported once, at its own line, not key by key; a nested
    parameter is reported at its line; a key set in a parent file is located there."""
    monkeypatch.chdir(tmp_path)
    _write(
        tmp_path,
        "t",
        "name: t\ntitle: 测试\nsource: test\nextends: guiyang\nbaoting: null\n"
        "claims:\n  kongs: {concealed: false, exposed: false, added: false}\n"
        "settle:\n  hu:\n    multipliers:\n      rob_kong: 2\n",
    )
    found = dead_keys("t.yaml")
    assert [d.key for d in found] == [
        "deal.replacement",
        "may_win.pass.dou",
        "may_win.pass.declared",
        "may_win.pass.from_declared",
        "settle.hu.baoting",
        "settle.shabao",  # the whole stage, once
        "settle.dou",  # the whole stage, once
        "settle.chajiao.baoting",
    ]
    for d in found:  # each located at the parent file's line that writes it
        file, line = d.where.rsplit(":", 1)
        assert file.endswith("guiyang.yaml")
        text = (VARIANTS / "guiyang.yaml").read_text(encoding="utf-8").splitlines()[int(line) - 1]
        assert text.lstrip().startswith(d.key.rsplit(".", 1)[-1] + ":"), (d, text)
    # baoting.allow_kong (written by guiyang.yaml) is gone with the child's baoting: null;
    # settle.hu.multipliers.rob_kong still matters (claims.rob_kong is on)


def test_validate_prints_warnings_and_exits_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _write(
        tmp_path,
        "t",
        "name: t\ntitle: 测试\nsource: test\nextends: luan\nsettle:\n  hu:\n    discard_paid_by: all\n",
    )
    assert cli.main(["variants", "validate", "t.yaml"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "t.yaml: ok",
        "  warning: t.yaml:7: settle.hu.discard_paid_by: has no effect: the variant has no "
        "wins on a discard (claims.win_on_discard)",
    ]
    assert cli.main(["variants", "validate", "t.yaml", "--json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)
    assert res["ok"] and len(res["warnings"]) == 1


def test_several_winner_rules_without_several_winners(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 seed audit: the next-dealer rules for two and three winners do nothing where
    one discard has one winner (claims.multiple_winners: false)."""
    monkeypatch.chdir(tmp_path)
    _write(
        tmp_path,
        "t",
        "name: t\ntitle: 测试\nsource: test\nextends: guiyang\n"
        "claims:\n  multiple_winners: false\n"
        "dealer:\n  two_winners: discarder\n  three_winners: first_after_discarder\n",
    )
    assert warnings("t.yaml") == [
        "t.yaml:8: dealer.two_winners: has no effect: one discard has one winner "
        "(claims.multiple_winners)",
        "t.yaml:9: dealer.three_winners: has no effect: one discard has one winner "
        "(claims.multiple_winners)",
    ]


def test_three_winners_at_three_seats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25 seed audit: three players leave a discard two possible winners at most; two
    players one (and no draw leaves one unready player among three ready)."""
    monkeypatch.chdir(tmp_path)
    text = (
        "name: t\ntitle: 测试\nsource: test\nextends: guiyang\ntiles:\n  players: {n}\n"
        "dealer:\n  two_winners: discarder\n  three_winners: first_after_discarder\n"
        "  draw_three_ready_unready_deals: false\n"
    )
    _write(tmp_path, "t", text.format(n=3))
    assert warnings("t.yaml") == [
        "t.yaml:9: dealer.three_winners: has no effect: fewer than four players: one discard "
        "has at most two winners (tiles.players)"
    ]
    _write(tmp_path, "t", text.format(n=2))
    assert [w.split(": has no effect")[0] for w in warnings("t.yaml")] == [
        "t.yaml:8: dealer.two_winners",
        "t.yaml:9: dealer.three_winners",
        "t.yaml:10: dealer.draw_three_ready_unready_deals",
    ]
    _write(tmp_path, "t", text.format(n=4))
    assert warnings("t.yaml") == []
