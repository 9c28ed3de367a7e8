"""``bench/settle_share.py``'s child keeps every round it plays (the issue's count) unless
told ``--drop-rounds`` (as ``zhuoji simulate`` keeps a record of each round, not the round):
what it keeps decides how often the garbage collector runs, so the two are counted apart."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from bench_support import bench_module

import zhuoji.engine


def _child_kept(how: str, rounds: int) -> list[Any]:
    """The rounds the bench's child keeps after playing ``rounds`` rounds told ``how``."""
    bench = bench_module("settle_share")
    space: dict[str, Any] = {"__name__": "bench_child"}
    old = sys.argv
    sys.argv = ["-c", "guiyang", "greedy", str(rounds), how]
    try:
        exec(compile(bench._CHILD, "<settle_share child>", "exec"), space)
    finally:
        sys.argv = old
    kept: list[Any] = space["kept"]
    return kept


@pytest.mark.skipif(
    not zhuoji.engine.__name__.startswith("zhuoji._compiled"),
    reason="the child refuses to run without the compiled engine group",
)
def test_the_child_keeps_its_rounds_unless_told_to_drop_them() -> None:
    kept = _child_kept("keep", 2)
    assert [r.seed for r in kept] == [0, 1]
    assert all(r.ledger is not None for r in kept)
    assert _child_kept("drop", 2) == []


def test_drop_rounds_is_passed_to_both_counted_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = bench_module("settle_share")
    calls: list[list[str]] = []

    def fake_run(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, stdout="", stderr="")

    monkeypatch.setattr(bench.subprocess, "run", fake_run)
    bench.measure("guiyang", "greedy", 3, keep=False)
    bench.measure("guiyang", "greedy", 3)
    children = [c for c in calls if c[0] == "valgrind"]
    assert [c[-1] for c in children] == ["drop", "drop", "keep", "keep"]
    assert all(c[-2] == "3" for c in children)
