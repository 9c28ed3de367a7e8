"""``zhuoji simulate``, ``compare`` and ``stats`` through the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from zhuoji.cli import main

SIM_KEYS = {"rounds", "elapsed_s", "rounds_per_s", "seats", "patterns", "items", "swing"}


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert main(argv) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_simulate_json_keys(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    data = run_json(
        capsys,
        [
            "simulate",
            "-v",
            "guiyang",
            "--rounds",
            "16",
            "--seed",
            "2",
            "--workers",
            "1",
            "--json",
            "--out",
            str(out),
        ],
    )
    assert set(data) >= SIM_KEYS
    assert data["rounds"] == 16
    seats = data["seats"]
    assert isinstance(seats, list) and len(seats) == 4
    assert {"mean", "std", "agent", "win_rate"} <= set(seats[0])
    swing = data["swing"]
    assert isinstance(swing, dict) and {
        "mean",
        "p50",
        "p90",
        "p95",
        "p99",
        "max",
        "definition",
    } <= set(swing)
    assert {"outcomes", "draw_rate", "max_payout", "round_length"} <= set(data)
    assert json.loads(out.read_text(encoding="utf-8"))["rounds"] == 16


def test_simulate_text_and_stats_from_sqlite(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "runs.sqlite")
    assert (
        main(
            [
                "simulate",
                "-v",
                "guiyang",
                "--rounds",
                "8",
                "--workers",
                "1",
                "--out",
                db,
                "--name",
                "base",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "per seat" in text and "stored as run 1" in text
    listing = run_json(capsys, ["stats", db, "--json"])
    runs = listing["runs"]
    assert isinstance(runs, list) and runs[0]["name"] == "base" and runs[0]["stored_rounds"] == 8
    stored = run_json(capsys, ["stats", db, "--run", "base", "--json"])
    fresh = run_json(
        capsys, ["simulate", "-v", "guiyang", "--rounds", "8", "--workers", "1", "--json"]
    )
    for k in ("elapsed_s", "rounds_per_s", "run_id"):
        stored.pop(k)
        fresh.pop(k)
    assert stored == fresh
    assert main(["stats", db]) == 0
    assert "base" in capsys.readouterr().out


def test_compare_from_db_and_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "runs.sqlite")
    argv = ["compare", "guiyang", "guiyang", "--set-b", "settle.chickens.chongfeng.multiplier=3"]
    argv += ["--rounds", "24", "--workers", "1", "--out", db, "--bootstrap", "200", "--json"]
    fresh = run_json(capsys, argv)
    assert fresh["paired"] is True
    rows = {r["key"]: r for r in fresh["rows"]}
    assert rows["share.ji.chongfeng"]["diff"] > 0
    report = tmp_path / "report"
    stored = run_json(
        capsys,
        [
            "compare",
            "--from-db",
            db,
            "1",
            "2",
            "--bootstrap",
            "200",
            "--json",
            "--report",
            str(report),
        ],
    )
    assert stored["rows"] == fresh["rows"]
    for name in ("index.html", "swing.png", "items.png", "patterns.png", "outcomes.png"):
        assert (report / name).stat().st_size > 1000
    assert "ji.chongfeng" in (report / "index.html").read_text(encoding="utf-8")


def test_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "-v", "guiyang", "--rounds", "4", "--agents", "greedy,random"]) == 2
    assert "2 agents" in capsys.readouterr().err
    assert main(["stats", str(tmp_path / "missing.sqlite")]) == 2
    assert main(["compare", "--from-db", str(tmp_path / "missing.sqlite"), "1", "2"]) == 2
