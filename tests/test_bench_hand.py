"""``bench/hand.py`` compares like with like and says so (issue 29): every row names the forms
each side checks, the rows with the same forms on both sides have them, every row prints its
target, the answers are compared before timing, and ``--instructions`` counts instructions
under callgrind on the same hands."""

from __future__ import annotations

import shutil

import pytest
from bench_support import bench_module

bench = bench_module("hand")


def test_rows_compare_the_same_forms() -> None:
    """Outside the all-forms rows (zhuoji's every form against each peer's own), every side
    of a row checks the same forms; each row names a target or says it has none."""
    rows = bench.rows()
    keys = [row.key for row in rows]
    assert len(keys) == len(set(keys))
    for row in rows:
        if "-all" not in row.key:
            assert {side.forms for side in row.sides} == {row.ours.forms}, row.key
        for name in row.targets:
            assert name in {peer.name for peer in row.peers} or name in bench.MISSING, row.key
    targets = {(row.key, name): goal for row in rows for name, goal in row.targets.items()}
    for key in ("shanten-random13", "shanten-ready13", "shanten-all-random13", "win-random14"):
        assert targets[(key, "riichienv")] == (1.0, 29), key
    assert targets[("shanten-all-ready13", "riichienv")] == (1.0, 29)


def test_a_set_of_hands_starts_the_same_whatever_its_size() -> None:
    """The instruction counts run the first M hands of each set: the same as the timing's."""
    small, large = bench.make_hands(10, 3), bench.make_hands(40, 3)
    for name in bench.HAND_SETS:
        assert small[name] == large[name][:10], name
        assert bench.make_hands(10, 3, only=name) == {name: small[name]}
    assert all(bench.zh.is_win(c) for c in large["win14"])
    assert all(bench.zh.waits(c) for c in large["ready13"])


def test_a_small_run_prints_every_row_with_forms_and_target(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench.main(["--hands", "40", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "UNEXPLAINED" not in out and "answers compared before timing:" in out
    lines = out.splitlines()
    for row in bench.rows():
        assert any(row.label in line and row.ours.forms in line for line in lines), row.key
        for peer in row.peers:
            goal = row.targets.get(peer.name)
            want = "—" if goal is None else f"≥{goal[0]:.1f}× #{goal[1]}"
            assert any(
                f" {peer.name} " in line and peer.forms in line and want in line for line in lines
            ), (row.key, peer.name)
    assert "load average" in lines[0]


def test_an_unknown_row_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--rows", "nope"])
    assert exit_.value.code == 2
    assert "--rows: no row key contains 'nope'" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instructions_are_counted_for_every_side(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--rows", "win-random14-all", "--hands", "20", "--repeat", "1"]
    assert bench.main([*args, "--instructions", "--instruction-hands", "5"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("instructions a call") :].splitlines()
    (row,) = [r for r in bench.rows() if r.key == "win-random14-all"]
    for side in row.sides:
        (line,) = [line for line in table if f" {side.name} " in line]
        count = float(line.split()[-1 if side is row.ours else -3].replace(",", ""))
        assert 100 < count < 10**7, line
    assert "the loop alone, calling len" in out
