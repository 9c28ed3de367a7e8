"""``bench/agents.py``'s command line: a value it cannot use is refused by name (exit 2)
before any deal is played; a tiny ladder runs."""

from __future__ import annotations

import json

import pytest
from bench_support import bench_module


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--rounds", "0"], "--rounds: must be at least 1"),
        (["--workers", "0"], "--workers: must be at least 1"),
        (["--family", "nope"], "--family: nope: no such variant"),
        (["--mix", "expert"], "--mix 'expert': two bots as A:B"),
        (["--mix", "expert:nobody"], "--mix 'expert:nobody'"),
        (["--budgets", "4,x"], "--budgets: whole numbers"),
        (["--speed-only", "--speed-rounds", "0"], "--speed-only: the speed check needs"),
    ],
)
def test_a_bad_argument_is_refused_by_name(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_module("agents").main(args)
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


def test_a_tiny_ladder_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = bench_module("agents")
    args = ["--family", "jinyou", "--mix", "expert:cautious", "--rounds", "2"]
    assert bench.main([*args, "--speed-rounds", "0", "--workers", "1", "--json"]) == 0
    (mix,) = json.loads(capsys.readouterr().out)["mixes"]
    assert mix["deals"] == 2 and mix["match_pairs"] == 1


def test_the_speed_check_runs_alone(capsys: pytest.CaptureFixture[str]) -> None:
    bench = bench_module("agents")
    args = ["--family", "jinyou", "--mix", "expert:random", "--speed-only", "--speed-rounds", "1"]
    assert bench.main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mixes"] == [] and sorted(out["speed"]["jinyou"]) == ["expert", "random"]


def test_jinyou_expert_cautious_gets_its_own_deal_count() -> None:
    """The one mix whose edge 2,000 deals cannot tell from 0 (docs/agents.md)."""
    bench = bench_module("agents")
    assert bench.DEALS_FOR[("jinyou", "expert:cautious")] > bench.DEALS


def test_the_speed_check_prints_each_target(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28's targets beside each bot's rate: expert ≥ 80, greedy ≥ 500 rounds per CPU
    second; the speed check alone covers seven families by default."""
    bench = bench_module("agents")
    assert bench.SPEED_TARGETS == {"expert": 80.0, "greedy": 500.0}
    assert {"luan", "zunyi", "dushan"} <= set(bench.SPEED_FAMILIES)
    args = ["--family", "jinyou", "--mix", "greedy:random", "--speed-only", "--speed-rounds", "1"]
    assert bench.main(args) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert "greedy" in line and "(≥ 500: " in line and "random" in line
    assert bench._speed_cell("expert", (79.6, 0.5)) == "expert 80/s 0.50 ms (≥ 80: MISSED)"
    assert bench._speed_cell("expert", (80.0, 0.5)).endswith("(≥ 80: ok)")
