"""``bench/simulate.py``'s comparison of the simulator with the bare loop (issue 28): the
rates of both, their ratio and its target, from a tiny run."""

from __future__ import annotations

import json
import shutil

import pytest
from bench_support import bench_module


def test_the_simulator_is_compared_with_the_bare_loop(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = bench_module("simulate")
    assert bench.BARE_TARGET == 0.90
    assert bench.main(["--bare-only", "--bare-rounds", "12", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["against_bare_loop"]
    assert got["rounds"] == 12 and got["target"] == 0.90
    assert got["bare_rounds_per_cpu_s"] > 0 and got["simulate_rounds_per_cpu_s"] > 0
    ratio = got["simulate_rounds_per_cpu_s"] / got["bare_rounds_per_cpu_s"]
    assert got["ratio"] == pytest.approx(ratio, abs=0.01)
    assert got["met"] == (got["ratio"] >= 0.90)


def test_the_comparison_prints_its_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_module("simulate").main(["--bare-only", "--bare-rounds", "6"]) == 0
    out = capsys.readouterr().out
    assert "× the bare loop; target ≥ 0.90×: " in out


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instructions_are_counted_for_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--bare-only", "--bare-rounds", "6", "--instructions", "--instruction-rounds", "2"]
    assert bench_module("simulate").main([*args, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["instructions"]
    assert got["rounds"] == 6 and got["target"] == 0.90
    bare, sim = got["bare_instructions_per_round"], got["simulate_instructions_per_round"]
    assert 10**5 < bare < 10**8 and 10**5 < sim < 10**8
    assert got["ratio"] == pytest.approx(bare / sim, abs=0.001)
    assert got["met"] == (got["ratio"] >= 0.90)
