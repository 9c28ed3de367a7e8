"""The benchmark scripts refuse a bad argument by name (exit 2) before measuring anything:
``bench/engine.py --variant-seconds -1`` ended in a ZeroDivisionError, ``bench/startup.py
--runs 0`` in a StatisticsError, ``--variant nope`` in a VariantError traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from bench_support import bench_module

CASES = [
    ("engine", ["--variant-seconds", "-1"], "--variant-seconds: must be a positive number"),
    ("engine", ["--greedy-seconds", "0"], "--greedy-seconds: must be a positive number"),
    ("engine", ["--seconds", "nan"], "--seconds: must be a positive number"),
    ("engine", ["--rounds", "0"], "--rounds: must be at least 1"),
    ("engine", ["--profile-rounds", "-5"], "--profile-rounds: must be at least 0"),
    ("engine", ["--variant", "nope"], "--variant: nope: no such variant"),
    ("hand", ["--hands", "0"], "--hands: must be at least 1"),
    ("hand", ["--repeat", "x"], "--repeat: 'x' is not a whole number"),
    ("simulate", ["--repeat", "0"], "--repeat: must be at least 1"),
    ("simulate", ["--workers", "0"], "--workers: must be at least 1"),
    ("simulate", ["--variant", "nope"], "--variant: nope: no such variant"),
    ("simulate", ["--bare-rounds", "-1"], "--bare-rounds: must be at least 0"),
    ("simulate", ["--bare-only", "--bare-rounds", "0"], "--bare-only: the comparison needs"),
    ("memory", ["--rounds", "0"], "--rounds: must be at least 1"),
    ("memory", ["--variant", "nope"], "--variant: nope: no such variant"),
    ("startup", ["--runs", "0"], "--runs: must be at least 1"),
    ("settle_share", ["--rounds", "0"], "--rounds: must be at least 1"),
    ("settle_share", ["--variant", "nope"], "--variant: nope: no such variant"),
    ("server_views", ["--rounds", "0"], "--rounds: must be at least 1"),
    ("server_views", ["--repeat", "-1"], "--repeat: must be at least 1"),
    ("server_views", ["--variant", "nope"], "--variant: nope: no such variant"),
]


@pytest.mark.parametrize(("script", "args", "says"), CASES)
def test_a_bad_argument_is_refused_by_name(
    script: str,
    args: list[str],
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    main = bench_module(script).main
    monkeypatch.setattr(sys, "argv", [f"{script}.py", *args])  # memory, startup read argv
    with pytest.raises(SystemExit) as exit_:
        if script in ("memory", "startup"):
            main()
        else:
            main(args)
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


def test_a_variant_file_error_names_the_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        bench_module("engine").main(["--variant", str(bad)])
    assert f"{bad}:1:" in capsys.readouterr().err
