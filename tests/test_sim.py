"""Simulation: determinism across worker counts, statistics against the ledgers, compare,
SQLite round trip (``zhuoji.sim``; docs/simulation.md)."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.match import Match
from zhuoji.sim.records import RoundRecord, SimSpec
from zhuoji.sim.runner import agent_seed, derive_seed, match_seed, simulate
from zhuoji.sim.stats import Accumulator, compare, summarize
from zhuoji.sim.storage import ResultStore, load_result
from zhuoji.variant_io import load_variant

TIMING = ("elapsed_s", "rounds_per_s", "workers", "backend", "run_id")


def strip_timing(summary: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in summary.items() if k not in TIMING}


def run_records(spec: SimSpec, **kw: object) -> tuple[list[RoundRecord], dict[str, object]]:
    got: list[RoundRecord] = []
    result = simulate(spec, on_records=got.extend, **kw)  # type: ignore[arg-type]
    return got, result.summary()


# --- seeds and determinism -------------------------------------------------------------


def test_seeds_are_stable_hashes() -> None:
    # regression values: a change here changes every stored run's meaning
    assert derive_seed("x", 1) == derive_seed("x", 1)
    assert derive_seed("x", 1) != derive_seed("x", 2)
    assert 0 <= match_seed(0, 0) < 2**63
    assert match_seed(7, 3) == derive_seed("zhuoji.sim.match", 7, 3)
    assert len({agent_seed(match_seed(1, 0), s) for s in range(4)}) == 4


def test_identical_results_whatever_the_worker_count() -> None:
    # 50 rounds = 6 matches of 8 and one cut to 2; mixed agents per seat
    spec = SimSpec("guiyang", agents=("greedy", "greedy", "random", "greedy"), rounds=50, seed=11)
    rec1, sum1 = run_records(spec, workers=1)
    rec2, sum2 = run_records(spec, workers=2)
    rec3, sum3 = run_records(spec, workers=3)
    assert [r.index for r in rec1] == list(range(50))
    assert [r.match for r in rec1][-2:] == [6, 6]
    assert rec1 == rec2 == rec3
    assert strip_timing(sum1) == strip_timing(sum2) == strip_timing(sum3)
    assert sum1["agents"] == ["greedy", "greedy", "random", "greedy"]
    other, _ = run_records(SimSpec("guiyang", agents=spec.agents, rounds=50, seed=12), workers=1)
    assert other != rec1


def test_bad_specs_are_refused() -> None:
    from zhuoji.errors import ZhuojiError

    with pytest.raises(ZhuojiError, match="3 agents"):
        SimSpec("guiyang", agents=("greedy", "random", "greedy")).resolve()
    with pytest.raises(ZhuojiError, match="unknown agent"):
        SimSpec("guiyang", agents=("nobody",)).resolve()
    with pytest.raises(ZhuojiError, match="rounds"):
        SimSpec("guiyang", rounds=0).resolve()


# --- statistics against the ledgers ---------------------------------------------------------


def test_records_and_statistics_match_the_ledgers() -> None:
    """A tiny run (2 matches × 3 rounds) replayed by hand with Match and the same seeds."""
    spec = SimSpec("guiyang", rounds=6, seed=5, match_rounds=3)
    records, summary = run_records(spec, workers=1)
    rs = load_variant("guiyang")
    ledgers = []
    for m in range(2):
        ms = match_seed(5, m)
        agents = [make_agent("greedy", agent_seed(ms, s)) for s in range(4)]
        for r in Match(rs, seed=ms, rounds=3).rounds():
            play_round(r, agents)
            assert r.ledger is not None and r.end is not None
            ledgers.append((r.ledger, r.end))
    assert len(records) == len(ledgers) == 6
    item_points: Counter[str] = Counter()
    for rec, (ledger, end) in zip(records, ledgers, strict=True):
        assert list(rec.totals) == ledger.totals()
        assert dict(rec.items) == ledger.by_item()
        assert rec.gross == sum(e.amount for e in ledger.entries)
        assert rec.max_payout == max((e.amount for e in ledger.entries), default=0)
        assert [w[0] for w in rec.wins] == [w.seat for w in end.wins]
        assert rec.swing == max(abs(t) for t in ledger.totals())
        item_points.update(ledger.by_item())
    gross = sum(item_points.values())
    items = summary["items"]
    assert isinstance(items, dict)
    assert {i: v["points"] for i, v in items.items()} == dict(item_points)
    assert math.isclose(sum(v["share"] for v in items.values()), 1.0)
    for i, v in items.items():
        assert math.isclose(v["share"], item_points[i] / gross)
        assert math.isclose(v["per_round"], item_points[i] / 6)
    seats = summary["seats"]
    assert isinstance(seats, list)
    for s, seat in enumerate(seats):
        xs = np.array([ledger.totals()[s] for ledger, _ in ledgers], dtype=float)
        assert seat["total"] == int(xs.sum())
        assert math.isclose(seat["mean"], xs.mean())
        assert math.isclose(seat["std"], xs.std(ddof=1))
    outcomes = summary["outcomes"]
    assert isinstance(outcomes, dict)
    assert math.isclose(sum(o["rate"] for o in outcomes.values()), 1.0)
    assert sum(o["count"] for o in outcomes.values()) == 6
    patterns = summary["patterns"]
    assert isinstance(patterns, dict)
    assert (
        sum(p["count"] for p in patterns.values())
        == summary["wins"]
        == sum(len(e.wins) for _, e in ledgers)
    )


def _rec(
    index: int, match: int, totals: tuple[int, ...], items: dict[str, int], **kw: object
) -> RoundRecord:
    return RoundRecord(
        index=index, match=match, round=0, dealer=0, streak=0, totals=totals,
        items=tuple(sorted(items.items())), **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def test_statistics_of_hand_made_rounds() -> None:
    """Four rounds whose every statistic can be checked by hand."""
    hu = "hu.pattern"
    recs = [
        _rec(0, 0, (3, -1, -1, -1), {hu: 3}, wins=((0, "self_draw", None),), patterns=("pinghu",), max_payout=1),
        _rec(1, 0, (-5, 5, 0, 0), {hu: 5}, wins=((1, "discard", 0),), patterns=("daduizi",), max_payout=5),
        _rec(2, 1, (0, 0, 0, 0), {}),
        _rec(
            3, 1, (-12, -2, 6, 8), {"ji.yaoji": 6, hu: 16},
            wins=((2, "discard", 0), (3, "discard", 0)), patterns=("pinghu", "qidui"), max_payout=8, max_item=hu,
        ),
    ]  # fmt: skip
    acc = Accumulator(4, 2)
    acc.extend(recs)
    s = summarize(acc, agents=["greedy"] * 4)
    assert s["rounds"] == 4
    assert s["outcomes"]["draw"]["rate"] == 0.25
    assert s["outcomes"]["self_draw"]["rate"] == 0.25
    assert s["outcomes"]["discard"]["rate"] == 0.25
    assert s["outcomes"]["multi"]["rate"] == 0.25
    assert s["wins"] == 4
    assert s["patterns"]["pinghu"]["share"] == 0.5
    assert s["items"]["hu.pattern"]["points"] == 24 and s["items"]["hu.pattern"]["share"] == 0.8
    assert s["items"]["ji.yaoji"]["share"] == 0.2
    assert s["points_moved"]["total"] == 30
    assert s["points_moved"]["net_per_round"] == (3 + 5 + 0 + 14) / 4
    # swings 3, 5, 0, 12: nearest-rank p50 = 3 (2 of 4 rounds ≤ 3), p90 = p99 = 12
    assert s["swing"]["mean"] == 5.0
    assert s["swing"]["p50"] == 3 and s["swing"]["p90"] == 12 and s["swing"]["max"] == 12
    assert s["max_payout"]["amount"] == 8 and s["max_payout"]["round"] == 3
    assert s["seats"][0]["mean"] == -3.5
    assert math.isclose(s["seats"][0]["std"], float(np.std([3, -5, 0, -12], ddof=1)))
    assert s["seats"][0]["dealin_rate"] == 0.75
    assert s["seats"][2]["win_rate"] == 0.25


def test_compare_of_a_run_with_itself_is_zero() -> None:
    acc = Accumulator(4, 2)
    acc.extend(
        [
            _rec(0, 0, (3, -1, -1, -1), {"hu.pattern": 3}),
            _rec(1, 1, (-5, 5, 0, 0), {"hu.pattern": 5}),
        ]
    )
    cmp = compare(acc, acc, reps=50, seed=1)
    assert cmp.paired
    for row in cmp.rows:
        if not math.isnan(row.a):
            assert row.diff == 0
            assert not row.significant


# --- compare: a one-parameter override shows the expected direction -------------------------


def test_chongfeng_multiplier_raises_its_share() -> None:
    spec_a = SimSpec("guiyang", rounds=64, seed=3)
    spec_b = SimSpec(
        "guiyang", overrides=("settle.chickens.chongfeng.multiplier=3",), rounds=64, seed=3
    )
    a = simulate(spec_a, workers=2)
    b = simulate(spec_b, workers=2)
    cmp = compare(a.acc, b.acc, reps=300, seed=0)
    assert cmp.paired
    share = cmp.row("share.ji.chongfeng")
    assert share.b > share.a
    assert share.lo > 0, "the paired interval should exclude 0 for ×2 → ×3"
    per_round = cmp.row("per_round.ji.chongfeng")
    assert per_round.diff > 0 and per_round.significant


# --- storage --------------------------------------------------------------------------------


def test_sqlite_round_trip(tmp_path: Path) -> None:
    from zhuoji.sim.runner import pattern_names

    spec = SimSpec("guiyang-weile", rounds=20, seed=9).resolve()
    rs = spec.ruleset()
    db = tmp_path / "runs.sqlite"
    got: list[RoundRecord] = []
    with ResultStore(db) as store:
        run_id = store.start_run(
            spec,
            players=4,
            pattern_names=pattern_names(rs),
            workers=1,
            backend="local",
            name="weile",
        )

        def keep(recs: list[RoundRecord]) -> None:
            got.extend(recs)
            store.add_rounds(run_id, recs)

        result = simulate(spec, workers=1, on_records=keep)
        store.finish_run(run_id, result.elapsed_s)
    with ResultStore(db) as store:
        info = store.run("weile")
        assert info.id == run_id and info.status == "complete" and info.stored_rounds == 20
        assert info.spec == spec
        assert list(store.records(run_id)) == got
        loaded = load_result(store, run_id)
    assert strip_timing(loaded.summary()) == strip_timing(result.summary())
    assert loaded.summary()["run_id"] == run_id


# --- behaviour -----------------------------------------------------------------------------


def test_behaviour_counts_of_a_hand_made_round() -> None:
    from zhuoji import tiles as T
    from zhuoji.outcome import Declaration, Discard, Meld, MeldKind, RoundEnd, SeatEnd, Win, WinHow
    from zhuoji.sim.behaviour import round_behaviour

    yaoji = T.parse_one("1s")
    end = RoundEnd(
        players=4,
        dealer=0,
        streak=0,
        seats=(
            SeatEnd((), (Meld(MeldKind.GANG_CONCEALED, 0), Meld(MeldKind.GANG_EXPOSED, 5, 2))),
            SeatEnd((), declared=Declaration.SOFT),
            SeatEnd((), (Meld(MeldKind.GANG_ADDED, 7, 3),)),
            SeatEnd(()),
        ),
        discards=tuple(Discard(s % 4, t) for s, t in enumerate([3, 4, yaoji, 6, yaoji, 8])),
        wins=(Win(1, WinHow.DISCARD, 3), Win(2, WinHow.DISCARD, 3)),
        win_tile=8,
    )
    got = dict(round_behaviour(end, load_variant("guiyang")))
    assert got == {
        "first_chicken.rounds": 1,
        "first_chicken.position": 3,  # the third discard of the round
        "first_chicken.early": 1,
        "dealins": 1,  # one discarder, two winners
        "dealins.declared": 1,  # winner 1 had declared 报听
        "declared": 1,
        "kongs": 3,
        "kongs.concealed": 1,
        "kongs.exposed": 1,
        "kongs.added": 1,
    }


def test_behaviour_statistics_from_records() -> None:
    early = (("first_chicken.early", 1), ("first_chicken.position", 4), ("first_chicken.rounds", 1))
    late = (("first_chicken.position", 20), ("first_chicken.rounds", 1))
    recs = [
        _rec(0, 0, (0, 0, 0, 0), {}, behaviour=(*early, ("kongs", 2))),
        _rec(1, 0, (0, 0, 0, 0), {}, behaviour=(("declared", 1), *late)),
        _rec(2, 1, (0, 0, 0, 0), {}, behaviour=(("dealins", 1),)),
        _rec(3, 1, (0, 0, 0, 0), {}),
    ]  # fmt: skip
    acc = Accumulator(4, 2)
    acc.extend(recs)
    b = summarize(acc)["behaviour"]
    assert b["first_chicken_position"]["value"] == 12.0  # (4 + 20) / 2 rounds with one
    assert b["first_chicken_early"]["value"] == 0.25
    assert b["first_chicken_kept"]["value"] == 0.5
    assert b["kong_rate"]["value"] == 2 / 16  # per seat-round
    assert b["declare_rate"]["value"] == 1 / 16
    assert b["dealin_rate"]["value"] == 1 / 16


def test_awareness_note() -> None:
    from zhuoji.sim.behaviour import awareness_note

    note = awareness_note(["greedy", "cautious"])
    assert note is not None and "do not price settlement payouts" in note
    assert awareness_note(["expert", "greedy"]) is None


def test_compare_text_puts_the_note_by_the_outcomes(capsys: pytest.CaptureFixture[str]) -> None:
    """With bots that ignore payouts, ``compare`` says so under the outcome rows when it
    lists them (``--all``), and on its own line when it does not."""
    from zhuoji.cli import main

    argv = ["compare", "guiyang", "guiyang", "--set-b", "settle.chickens.chongfeng.multiplier=6"]
    argv += ["--agents", "greedy", "--rounds", "8", "--workers", "1", "--bootstrap", "50"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    notes = [i for i, line in enumerate(lines) if "do not price settlement payouts" in line]
    assert len(notes) == 1 and lines[notes[0]].startswith("note:")
    assert main([*argv, "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    notes = [i for i, line in enumerate(lines) if "do not price settlement payouts" in line]
    assert len(notes) == 1
    assert lines[notes[0] - 1].strip().startswith("outcomes")


def test_a_results_file_from_before_behaviour_opens(tmp_path: Path) -> None:
    import sqlite3

    from zhuoji.sim.storage import SCHEMA

    db = tmp_path / "old.sqlite"
    old = SCHEMA.replace("    behaviour TEXT NOT NULL DEFAULT '{}',\n", "")
    con = sqlite3.connect(db)
    con.executescript(old)
    con.close()
    spec = SimSpec("guiyang", rounds=8, seed=2).resolve()
    with ResultStore(db) as store:
        run_id = store.start_run(
            spec, players=4, pattern_names={}, workers=1, backend="local", name="old"
        )
        result = simulate(spec, workers=1, on_records=lambda r: store.add_rounds(run_id, r))
        store.finish_run(run_id, result.elapsed_s)
        assert len(list(store.records(run_id))) == 8


# --- statistics read from the ledger's fields (issue 24 item 2) ------------------------------

#: pattern counts of 300-round runs (seed 3; greedy, random, greedy, random) taken before the
#: main pattern was read from the ledger's fields, when it was found by settling the hand again
BEFORE_FIELDS = {
    "guiyang": {"pinghu": 220, "qidui": 14, "daduizi": 2},
    "luan": {
        "kaipai": 188,
        "shisanlan": 49,
        "qidui": 11,
        "wubaoduzi": 9,
        "hongzhong": 5,
        "ganghouhua": 3,
        "qifengquan": 2,
        "tongtian": 1,
    },
    # revision 2, as taken: revision 3's automatic 报叫 changes the random agents' play
    "dushan@2": {"hu": 224, "qidui": 12, "longqidui": 2, "daduizi": 1},
}


@pytest.mark.parametrize("variant", sorted(BEFORE_FIELDS))
def test_pattern_statistics_from_fields_agree_with_the_old_numbers(variant: str) -> None:
    spec = SimSpec(variant, agents=("greedy", "random", "greedy", "random"), rounds=300, seed=3)
    summary = simulate(spec, workers=1).summary()
    patterns = summary["patterns"]
    assert isinstance(patterns, dict)
    assert {p: v["count"] for p, v in patterns.items()} == BEFORE_FIELDS[variant]


def _main_pattern_by_settling_again(r: Round) -> tuple[str, ...]:
    """The old way (an oracle here): settle each winner's hand again, take its highest
    non-bonus component."""
    from zhuoji.contract.context import SettleContext
    from zhuoji.rules.hu import main_component

    assert r.end is not None
    hu = r.ruleset.stage("hu")
    rk = bool(getattr(hu.params, "rob_kong_as_self_draw", False)) if hu is not None else False
    ctx = SettleContext(r.ruleset, r.end)
    out = []
    for w in r.end.wins:
        best = main_component(ctx.win_value(w, rob_kong_as_self_draw=rk))
        out.append(best.pattern if best is not None else "none")
    return tuple(out)


@pytest.mark.parametrize("variant", ["guiyang", "guiyang-dingque", "jinyou", "liupanshui", "luan"])
def test_main_patterns_from_fields_are_the_hands_main_patterns(variant: str) -> None:
    """Each round's main patterns, read from its ledger entries (``record_round``), are what
    settling the hands again finds — 包牌 wins (paid by the winner) included."""
    rs = load_variant(variant)
    agents = tuple(("greedy", "random")[s % 2] for s in range(rs.players))
    spec = SimSpec(variant, agents=agents, rounds=40, seed=9).resolve(rs)
    records, _ = run_records(spec, workers=1)
    replayed: list[tuple[str, ...]] = []
    for m in range(spec.matches):
        ms = match_seed(spec.seed, m)
        agents = [make_agent(n, agent_seed(ms, s)) for s, n in enumerate(spec.agents)]
        for r in Match(rs, seed=ms, rounds=spec.match_length(m)).rounds():
            play_round(r, agents)
            replayed.append(_main_pattern_by_settling_again(r))
    assert [rec.patterns for rec in records] == replayed
    assert sum(len(p) for p in replayed) > 10
