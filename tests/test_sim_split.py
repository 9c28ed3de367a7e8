"""``compare``'s split of an effect into the rule at fixed play and the players adapting
(``zhuoji.sim.split``; docs/simulation.md, "The split of an effect"; issue 28 §6)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from zhuoji.actions import Action
from zhuoji.agents.base import make_agent, play_round
from zhuoji.match import Match
from zhuoji.sim.records import SimSpec
from zhuoji.sim.runner import SimResult, derive_seed, record_round, simulate
from zhuoji.sim.split import EffectSplit, SplitRun, _Taped, effect_split, replay, simulate_split
from zhuoji.sim.stats import Comparison, compare
from zhuoji.variant_io import load_variant

CHONGFENG6 = ("settle.chickens.chongfeng.multiplier=6",)


def _split(
    agents: tuple[str, ...], b_overrides: tuple[str, ...], rounds: int, b: str = "guiyang"
) -> tuple[SplitRun, SimResult, Comparison, EffectSplit]:
    """A (guiyang) played with its rounds also settled by B, B played, their comparison
    and its split (no greedy reference)."""
    sa = SimSpec("guiyang", (), agents, rounds=rounds, seed=3)
    sb = SimSpec(b, b_overrides, agents, rounds=rounds, seed=3)
    run = simulate_split(sa, sb)
    rb = simulate(sb)
    seed = derive_seed("zhuoji.sim.bootstrap", 3, 3)
    cmp = compare(run.result.acc, rb.acc, reps=200, seed=seed)
    split = effect_split(
        cmp,
        run.result.acc,
        run.fixed,
        rb.acc,
        None,
        unreplayed=run.unreplayed,
        reps=200,
        level=0.95,
        seed=seed,
    )
    return run, rb, cmp, split


def test_a_round_replayed_under_its_own_rules_is_the_same_round() -> None:
    """The replay is built as the match built the round (seed, the dealer as given — None
    for a match's first round, drawn from the seed — streak, wind, weekday): under the same
    rules it deals the same wall and settles to the same record."""
    rs = load_variant("guiyang")
    tape: list[Action] = []
    agents = [_Taped(make_agent("cautious", s), tape) for s in range(4)]
    match = Match(rs, seed=11, rounds=3)
    for i, r in enumerate(match.rounds()):
        dealer = match.dealer
        tape.clear()
        play_round(r, agents)
        again = replay(r, list(tape), rs, dealer)
        assert again is not None
        assert record_round(again, rs, index=i, match=0, round_in_match=i) == record_round(
            r, rs, index=i, match=0, round_in_match=i
        )


def test_payout_blind_bots_do_not_adapt() -> None:
    """Greedy bots ignore a payout change: A's rounds settled by B are B's rounds, so the
    whole difference is the rule's at fixed play and the adapting part is exactly 0."""
    run, rb, _, split = _split(("greedy",), CHONGFENG6, 48)
    assert run.unreplayed == 0 and run.fixed is not None
    assert run.fixed.blocks == rb.acc.blocks
    row = next(sr for sr in split.rows if sr.stat.key == "per_round.ji.chongfeng")
    assert row.total.diff > 0 and row.fixed is not None and row.adapting is not None
    assert row.fixed.diff == pytest.approx(row.total.diff)
    for sr in split.rows:
        assert sr.adapting is not None
        assert (sr.adapting.diff, sr.adapting.lo, sr.adapting.hi) == (0.0, 0.0, 0.0)


def test_an_expert_adapts_and_the_two_parts_add_up() -> None:
    """With payout-aware bots the play under B differs from A's; A's play settled by B
    moves the 冲锋 money by the rule alone, the rest is the bots' adapting, and the parts
    add up to B − A for every money row.  Fixed play is A's play: its behaviour rows (what
    was discarded when, who dealt in) are A's."""
    run, rb, cmp, split = _split(("expert",), CHONGFENG6, 16)
    assert run.fixed is not None
    assert run.fixed.blocks != rb.acc.blocks  # the experts played otherwise under B
    fixed_vs_a = {r.stat.key: r for r in compare(run.result.acc, run.fixed, reps=10).rows}
    for k, r in fixed_vs_a.items():
        if r.stat.group == "behaviour":
            assert r.diff == 0 or math.isnan(r.diff), k
    assert split.rows and all(sr.fixed is not None for sr in split.rows)
    for sr in split.rows:
        assert sr.fixed is not None and sr.adapting is not None
        assert sr.fixed.diff + sr.adapting.diff == pytest.approx(sr.total.diff, abs=1e-9)
    row = next(sr for sr in split.rows if sr.stat.key == "per_round.ji.chongfeng")
    assert row.fixed is not None and row.fixed.diff > 0
    assert cmp.row("per_round.ji.chongfeng").diff == row.total.diff


def test_rules_that_change_play_leave_no_fixed_play_arm() -> None:
    """liupanshui's rules refuse some of guiyang's plays: the rounds that replay would be
    a chosen subset, so there is no fixed-play arm, and the count says why."""
    run, _, _, split = _split(("greedy",), (), 64, b="liupanshui")
    assert run.unreplayed > 0 and run.fixed is None
    assert not split.replayed
    assert all(sr.fixed is None and sr.adapting is None for sr in split.rows)


def test_another_table_replays_nothing() -> None:
    """A's rounds do not replay on a table of other seats or tiles (二丁拐: two players)."""
    run = simulate_split(
        SimSpec("guiyang", rounds=8, seed=1), SimSpec("erdingguai", rounds=8, seed=1)
    )
    assert run.unreplayed == 8 and run.fixed is None


def _cli(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    from zhuoji.cli import main

    assert main(argv) == 0
    return capsys.readouterr().out


def test_compare_reports_the_split_with_a_greedy_reference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``compare`` prints the split after the comparison; with bots other than greedy both
    arms are also played by greedy bots for the reference column; JSON and the HTML report
    carry it."""
    argv = ["compare", "guiyang", "guiyang", "--set-b", CHONGFENG6[0], "--agents", "cautious"]
    argv += ["--rounds", "16", "--workers", "1", "--bootstrap", "100"]
    text = _cli(capsys, [*argv, "--report", str(tmp_path)])
    assert "split of the money changes: B − A = rule at fixed play + players adapting" in text
    assert "greedy: B − A with greedy bots in both arms" in text
    assert "ji.chongfeng" in text.split("split of the money changes")[1]
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "Split: the rule at fixed play and the players adapting" in page
    assert "greedy B − A" in page
    data: dict[str, Any] = json.loads(_cli(capsys, [*argv, "--json"]))
    split = data["split"]
    assert split["unreplayed"] == 0 and split["rounds"] == 16
    row = next(r for r in split["rows"] if r["key"] == "per_round.ji.chongfeng")
    assert row["fixed"]["diff"] + row["adapting"]["diff"] == pytest.approx(row["diff"])
    assert row["greedy"]["diff"] > 0
    assert json.loads(_cli(capsys, [*argv, "--json", "--no-split"]))["split"] is None


def test_compare_says_when_b_changes_play(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "guiyang", "liupanshui", "--rounds", "64", "--workers", "1"]
    text = _cli(capsys, [*argv, "--bootstrap", "50", "--all"])
    assert "fixed play, adapting: n/a —" in text
    assert "of 64 rounds of A's play are not legal under B" in text
