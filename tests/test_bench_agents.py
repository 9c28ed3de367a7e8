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
    assert mix["deals"] == 2 and mix["matches"] == 1 and mix["seatings"] == 4
    assert mix["rounds"] == 8 and mix["seating"] == "one"


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


def test_each_seating_puts_a_where_it_says() -> None:
    """``one``: a single A moving round the table (issue 28's ladder: one expert against
    three of the other bot, seats rotated); ``half``: duplicate, A B A B then B A B A."""
    bench = bench_module("agents")
    assert bench.seatings("e", "g", 4, "one") == [
        ["e", "g", "g", "g"],
        ["g", "e", "g", "g"],
        ["g", "g", "e", "g"],
        ["g", "g", "g", "e"],
    ]
    assert bench.seatings("e", "g", 4, "half") == [["e", "g", "e", "g"], ["g", "e", "g", "e"]]
    assert bench.seatings("e", "g", 3, "one")[2] == ["g", "g", "e"]


def test_a_half_seating_ladder_plays_each_deal_twice(capsys: pytest.CaptureFixture[str]) -> None:
    bench = bench_module("agents")
    args = ["--family", "jinyou", "--mix", "expert:greedy", "--rounds", "2", "--seating", "half"]
    assert bench.main([*args, "--speed-rounds", "0", "--workers", "1", "--json"]) == 0
    (mix,) = json.loads(capsys.readouterr().out)["mixes"]
    assert mix["rounds"] == 4 and mix["seatings"] == 2


def test_paired_arms_that_never_overrule_differ_by_exactly_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--paired``: a search bot that searches but never overrules the expert (``z`` out
    of reach) plays every seat-arm exactly as the all-expert baseline — the expert inside
    it is seeded alike and keeps no state the search disturbs — so every difference is 0;
    a bot that plays otherwise (greedy) differs."""
    bench = bench_module("agents")
    never = "search:budget=4/z=1e9/clear=100"
    args = ["--family", "guiyang", "--rounds", "2", "--workers", "1", "--json"]
    assert bench.main([*args, "--paired", f"{never}:expert", "--paired", "greedy:expert"]) == 0
    same, other = json.loads(capsys.readouterr().out)["paired"]
    assert same["deals"] == 2 and same["matches"] == 2 and same["arms"] == 8
    assert same["counters"]["searched"] > 0 and same["counters"]["changed"] == 0
    assert same["arms_differing"] == 0 and same["points_per_round"] == 0.0
    assert same["ci95"] == [0.0, 0.0] and same["overrule_rate"] == 0.0
    assert same["units"] == [0.0, 0.0]
    assert other["arms_differing"] > 0 and other["counters"]["decisions"] == 0


def test_paired_output_names_the_gain_and_the_overrules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = bench_module("agents")
    args = ["--family", "jinyou", "--rounds", "1", "--workers", "1", "--paired", "expert:expert"]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    assert "paired expert for expert: +0.000 [+0.000, +0.000] points per seat-round" in out
    assert "0 of 4 seat-arms differ from the baseline" in out


def test_a_bad_paired_mix_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench_module("agents").main(["--paired", "search"])
    assert exit_.value.code == 2
    assert "--paired 'search': two bots as A:B" in capsys.readouterr().err


def test_seat_speed_times_one_bot_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """``--seat-speed``: A's own decisions and their CPU time, A in seat 0 against B's,
    with a search bot's counters."""
    bench = bench_module("agents")
    args = ["--family", "jinyou", "--speed-rounds", "1", "--seat-speed", "search:budget=4:expert"]
    assert bench.main([*args, "--json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["seat_speed"]
    assert res["decisions"] > 0 and res["cpu_seconds"] > 0 and res["rounds"] == 1
    assert res["counters"]["decisions"] == res["decisions"]
    assert bench.main(args) == 0
    assert "search:budget=4 in seat 0 against expert, 1 rounds" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main(["--seat-speed", "search"])
