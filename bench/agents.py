"""Rank the built-in bots by simulation: points per round and points lost by dealing in.

Each *mix* seats two bot kinds alternately round the table (``A B A B``); every other match
swaps them (``B A B A``) so each kind sits in every seat equally often.  Rounds are played
as matches (``Match``, dealer rotation and 连庄 included) with fixed seeds: match ``i`` of a
mix uses seed ``--seed + i`` and its bots are seeded from it, so a run replays exactly.
Matches are spread over ``--workers`` processes.  Last, one process times each bot alone
(``--speed-rounds``, CPU time, engine included).

Reported per mix and bot kind (per seat-round, i.e. one seat for one round):

* **points/round** — mean ledger total, with its standard error over matches;
* **dealt-in/round** — points lost by dealing in: the ``hu.*``, ``baoting`` and ``shabao``
  ledger entries a seat paid as the discarder of a winning discard (点炮), per round, with
  its standard error over matches;
* **deal-ins %** — share of seat-rounds in which the seat dealt in;
* **wins %** / **self-draw %** — share of seat-rounds the seat won / won by self-draw.

Usage::

    python bench/agents.py                      # 10,000 rounds per mix, 2 workers
    python bench/agents.py --rounds 2000 --variant guiyang-weile
    python bench/agents.py --mix greedy:random --mix cautious:greedy --json
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.match import Match
from zhuoji.outcome import WinHow
from zhuoji.variant import load_variant

DEFAULT_MIXES = ("greedy:random", "cautious:greedy")
DEAL_IN_ITEMS = ("baoting", "shabao")


def dealt_in(r: Round) -> list[int]:
    """Per seat: points paid as the discarder of a winning discard (hu.*, baoting, shabao)."""
    assert r.end is not None and r.ledger is not None
    out = [0] * r.players
    for w in r.end.wins:
        if w.how is not WinHow.DISCARD or w.source is None:
            continue
        for e in r.ledger.entries:
            if (
                e.payer == w.source
                and e.payee == w.seat
                and (e.item.startswith("hu.") or e.item in DEAL_IN_ITEMS)
            ):
                out[w.source] += e.amount
    return out


@dataclass
class KindStats:
    """Sums for one bot kind in one match (or merged over matches)."""

    seat_rounds: int = 0
    points: int = 0
    dealt_in: int = 0
    deal_ins: int = 0
    wins: int = 0
    self_draws: int = 0
    match_means: list[float] = field(default_factory=list)  # points per seat-round, per match
    match_dealt: list[float] = field(default_factory=list)  # dealt-in per seat-round, per match

    def merge(self, other: KindStats) -> None:
        self.seat_rounds += other.seat_rounds
        self.points += other.points
        self.dealt_in += other.dealt_in
        self.deal_ins += other.deal_ins
        self.wins += other.wins
        self.self_draws += other.self_draws
        self.match_means.extend(other.match_means)
        self.match_dealt.extend(other.match_dealt)


def play_match(job: tuple[str, str, str, int, int]) -> tuple[dict[str, KindStats], int, float]:
    """Play one match; returns per-kind stats, rounds played and CPU seconds."""
    variant, a, b, seed, rounds = job
    start = time.process_time()
    ruleset = load_variant(variant)
    n = ruleset.players
    kinds = [(a if (s + seed) % 2 == 0 else b) for s in range(n)]
    agents = [make_agent(k, seed * 16 + s) for s, k in enumerate(kinds)]
    match = Match(ruleset, seed=seed, rounds=rounds)
    stats = {k: KindStats() for k in set(kinds)}
    played = 0
    for r in match.rounds():
        play_round(r, agents)
        assert r.end is not None and r.ledger is not None
        played += 1
        totals = r.ledger.totals()
        lost = dealt_in(r)
        winners = {w.seat: w.how for w in r.end.wins}
        for s, k in enumerate(kinds):
            st = stats[k]
            st.seat_rounds += 1
            st.points += totals[s]
            st.dealt_in += lost[s]
            st.deal_ins += lost[s] > 0
            if s in winners:
                st.wins += 1
                st.self_draws += winners[s] is WinHow.SELF_DRAW
    for st in stats.values():
        st.match_means.append(st.points / st.seat_rounds)
        st.match_dealt.append(st.dealt_in / st.seat_rounds)
    return stats, played, time.process_time() - start


def run_mix(
    variant: str, mix: str, rounds: int, seed: int, workers: int, per_match: int
) -> dict[str, Any]:
    a, b = mix.split(":")
    matches = math.ceil(rounds / per_match)
    jobs = []
    left = rounds
    for i in range(matches):
        jobs.append((variant, a, b, seed + i, min(per_match, left)))
        left -= per_match
    merged: dict[str, KindStats] = {k: KindStats() for k in (a, b)}
    wall = time.perf_counter()
    cpu = 0.0
    played = 0
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.imap_unordered(play_match, jobs, chunksize=4)
            for stats, n, secs in results:
                played += n
                cpu += secs
                for k, st in stats.items():
                    merged[k].merge(st)
    else:
        for job in jobs:
            stats, n, secs = play_match(job)
            played += n
            cpu += secs
            for k, st in stats.items():
                merged[k].merge(st)
    wall = time.perf_counter() - wall
    rows = []
    for k in dict.fromkeys((a, b)):
        st = merged[k]
        sr = st.seat_rounds
        rows.append(
            {
                "agent": k,
                "seat_rounds": sr,
                "points_per_round": st.points / sr,
                "points_se": _se(st.match_means),
                "dealt_in_per_round": st.dealt_in / sr,
                "dealt_in_se": _se(st.match_dealt),
                "deal_in_rate": st.deal_ins / sr,
                "win_rate": st.wins / sr,
                "self_draw_rate": st.self_draws / sr,
            }
        )
    return {
        "mix": mix,
        "variant": variant,
        "rounds": played,
        "matches": matches,
        "seconds": wall,
        "cpu_seconds": cpu,
        "rounds_per_cpu_second": played / cpu if cpu else 0.0,
        "rows": rows,
    }


def _se(xs: Sequence[float]) -> float:
    """Standard error of the mean of per-match values (matches are independent)."""
    n = len(xs)
    if n < 2:
        return 0.0
    mu = sum(xs) / n
    return math.sqrt(sum((x - mu) ** 2 for x in xs) / (n - 1) / n)


def speed(variant: str, kind: str, rounds: int) -> float:
    """Rounds per CPU second of one process with ``kind`` in every seat (engine included)."""
    ruleset = load_variant(variant)
    agents = [make_agent(kind, s) for s in range(ruleset.players)]
    start = time.process_time()
    Match(ruleset, seed=999, rounds=rounds).play(agents)
    return rounds / (time.process_time() - start)


def render(results: Sequence[dict[str, Any]]) -> str:
    head = (
        f"{'mix (A:B, seats ABAB)':<22} {'agent':<9} {'seat-rounds':>11} {'points/round':>15} "
        f"{'dealt-in/round':>15} {'deal-ins %':>10} {'wins %':>7} {'self-draw %':>11}"
    )
    lines = [head, "-" * len(head)]
    for res in results:
        for i, row in enumerate(res["rows"]):
            label = res["mix"] if i == 0 else ""
            pts = f"{row['points_per_round']:+.3f} ±{row['points_se']:.3f}"
            dealt = f"{row['dealt_in_per_round']:.3f} ±{row['dealt_in_se']:.3f}"
            lines.append(
                f"{label:<22} {row['agent']:<9} {row['seat_rounds']:>11} {pts:>15} "
                f"{dealt:>15} {100 * row['deal_in_rate']:>10.2f} "
                f"{100 * row['win_rate']:>7.2f} {100 * row['self_draw_rate']:>11.2f}"
            )
        lines.append(
            f"{'':<22} ({res['rounds']} rounds in {res['matches']} matches, {res['seconds']:.1f} s wall, "
            f"{res['rounds_per_cpu_second']:.0f} rounds per CPU second)"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--variant", default="guiyang")
    p.add_argument("--rounds", type=int, default=10_000, help="rounds per mix")
    p.add_argument(
        "--mix",
        action="append",
        help="A:B bot kinds (repeatable); default: " + ", ".join(DEFAULT_MIXES),
    )
    p.add_argument("--seed", type=int, default=1, help="first match seed")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument(
        "--match-rounds", type=int, default=None, help="rounds per match (default: the variant's)"
    )
    p.add_argument(
        "--speed-rounds",
        type=int,
        default=300,
        help="rounds for the one-process speed check of each bot (0: skip)",
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    per_match = args.match_rounds or load_variant(args.variant).variant.match.rounds
    mixes = args.mix or list(DEFAULT_MIXES)
    results = []
    if not args.json:
        print(
            f"bench/agents.py: {args.variant}, {args.rounds} rounds per mix, {per_match}-round matches, "
            f"seeds from {args.seed}, {args.workers} workers"
        )
    for mix in mixes:
        results.append(run_mix(args.variant, mix, args.rounds, args.seed, args.workers, per_match))
    speeds = {}
    if args.speed_rounds:
        for kind in ("random", "greedy", "cautious"):
            speeds[kind] = speed(args.variant, kind, args.speed_rounds)
    if args.json:
        print(json.dumps({"mixes": results, "rounds_per_cpu_second": speeds}, indent=2))
    else:
        print(render(results))
        if speeds:
            print(
                f"one process, {args.speed_rounds} rounds, the same bot in every seat (CPU time): "
                + ", ".join(f"{k} {v:.0f} rounds/s" for k, v in speeds.items())
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
