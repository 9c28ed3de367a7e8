"""The bot ladder: points per round with 95 % intervals, and how each bot plays.

Each *mix* ``A:B`` plays every deal several times with the same match seed — the same
walls, dice and first dealer — in each of its **seatings**, so each kind holds every hand
of the deal and the luck of the cards largely cancels.  ``--seating one`` (the default:
issue 28's ladder, "one expert against three of the other bot, with the seats rotated")
puts one A among B's and plays the deal once per seat, A moving round the table;
``--seating half`` seats the kinds alternately and plays the deal twice, ``A B A B`` and
``B A B A`` (**duplicate**).  Rounds are played as matches (``Match``:
dealer rotation and 连庄); match ``i`` of a mix uses seed ``--seed + i`` in every seating
and its bots are seeded from it, so a run replays exactly.  Matches are spread over
``--workers`` processes.

Reported per mix, for kind A (the ladder puts ``expert`` there):

* **points/round** — A's mean ledger total per seat-round with a 95 % interval (1.96
  standard errors over matches, each played in every seating: the independent unit); the
  table is zero-sum, so B's mean is A's times −(A's seats)/(B's seats);
* per kind: **wins %**, **self-draw %**, **deal-in %** (seat-rounds whose discard was won
  on), **报听 %** (seat-rounds declared), **kongs** (per seat-round) and **dealt-in** (points
  paid as the discarder of a winning discard: ``hu.*``, ``baoting``, ``shabao``, per
  seat-round).

``--paired A:B`` (**paired**, or duplicate, measurement: ``--paired search:expert``) plays
each deal once with four B's and once more per seat ``s`` with seat ``s`` replaced by A —
the same walls, dice and bot seeds, so an arm is the baseline's play until A first decides
otherwise.  The unit is the deal (one round a match unless ``--match-rounds`` says
otherwise, each with its own seed): A's points in seat ``s`` less B's in the baseline,
averaged over the seats; reported with its 95 % interval over deals, how many seat-arms
differ from the baseline at all, and, for the ``search`` bot, how often it overruled the
expert.  A deal A plays exactly as B scores 0 exactly, so the luck of the cards cancels.

``--seat-speed A:B`` times A's own decisions only (A in seat 0 against B's, match seed
999): decisions per CPU second of a bot slower than its table.

Then each bot is timed alone, each family's check in a process forked for it (``--speed-rounds``,
the same bot in every seat, CPU time, engine included), and ``--budgets`` plays expert with several search budgets
against cautious (strength against budget).

Usage::

    python bench/agents.py                                  # the ladder: 7 families × 3 mixes
    python bench/agents.py --family guiyang --rounds 4000   # one family
    python bench/agents.py --mix cautious:greedy --family guiyang-weile --json
    python bench/agents.py --budgets 0,8,24,64 --family guiyang --rounds 2000 --speed-rounds 0
    python bench/agents.py --speed-only --mix expert:greedy   # the speed check alone (seven families)
    python bench/agents.py --paired search:expert --family guiyang --rounds 200
    python bench/agents.py --seat-speed search:expert --speed-rounds 4   # one bot's decisions timed
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

from zhuoji.agents.base import agent_names, make_agent, play_round, register_agent
from zhuoji.agents.expert import ExpertAgent
from zhuoji.cli import at_least, loadable_variant
from zhuoji.engine import Round
from zhuoji.match import Match
from zhuoji.outcome import WinHow
from zhuoji.sim.behaviour import seat_behaviour
from zhuoji.variant_io import load_variant

#: the ladder's families: those of issue 28's ladder table
FAMILIES = ("guiyang", "guiyang-weile", "liupanshui", "luan", "jinyou", "zunyi", "dushan")
#: the speed check's families (``--speed-only`` without ``--family``)
SPEED_FAMILIES = FAMILIES
#: how a mix seats its two kinds (``--seating``)
SEATINGS = ("one", "half")
#: rounds per CPU second the speed check asks of four of a bot, in every family (issue 28:
#: expert ≥ 80, luan included; greedy ≥ 500 in luan, the slowest family for it)
SPEED_TARGETS = {"expert": 80.0, "greedy": 500.0}
LADDER = ("expert:cautious", "expert:greedy", "expert:random")
#: deals per mix unless ``--rounds`` says otherwise
DEALS = 2000
#: ``--paired``: the families issue 28 item 5 names, and deals unless ``--rounds`` says
PAIRED_FAMILIES = ("guiyang", "liupanshui")
PAIRED_DEALS = 200
#: mixes whose edge is too small for 2,000 deals to tell from 0, given more (docs/agents.md,
#: the ladder): in jinyou every round ends in a win worth 1–3 points a payer, and expert's
#: edge over cautious is about 0.03 points a round against an interval of ±0.05 at 2,000
#: deals; in guiyang-weile expert's edge over greedy is about 0.2 against ±0.3 at 2,000
#: deals and ±0.15 at 8,000
DEALS_FOR = {("jinyou", "expert:cautious"): 12000, ("guiyang-weile", "expert:greedy"): 8000}
DEAL_IN_ITEMS = ("baoting", "shabao")
COLUMNS = ("wins", "self_draws", "dealins", "declared", "kongs", "dealt_in")


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
    """Sums for one bot kind (over seats, rounds and matches)."""

    seat_rounds: int = 0
    points: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLUMNS, 0))

    def merge(self, other: KindStats) -> None:
        self.seat_rounds += other.seat_rounds
        self.points += other.points
        for k, v in other.counts.items():
            self.counts[k] += v


def budget_factory(budget: int) -> type[ExpertAgent]:
    """An expert with another search budget (registered as ``expert@N``)."""
    return type(
        f"ExpertAgent{budget}",
        (ExpertAgent,),
        {"search_budget": budget, "name": f"expert@{budget}"},
    )


def _register(kinds: Sequence[str]) -> None:
    for k in kinds:
        if k.startswith("expert@"):
            register_agent(k, budget_factory(int(k.split("@", 1)[1])))


def seatings(a: str, b: str, players: int, seating: str) -> list[list[str]]:
    """The kinds round the table in each seating of a match: ``one`` A among B's, once per
    seat (A in seat 0, then 1, …); ``half`` alternately, ``A B A B`` then ``B A B A``."""
    if seating == "one":
        return [[a if s == at else b for s in range(players)] for at in range(players)]
    return [[a if (s + swap) % 2 == 0 else b for s in range(players)] for swap in (0, 1)]


def play_match(
    job: tuple[str, str, str, int, int, str],
) -> tuple[dict[str, KindStats], int, float]:
    """Play one match in every seating; per-kind sums, rounds and CPU seconds."""
    variant, a, b, seed, rounds, seating = job
    _register((a, b))
    start = time.process_time()
    ruleset = load_variant(variant)
    n = ruleset.players
    stats = {a: KindStats(), b: KindStats()}
    played = 0
    for kinds in seatings(a, b, n, seating):
        agents = [make_agent(k, seed * 16 + s) for s, k in enumerate(kinds)]
        for r in Match(ruleset, seed=seed, rounds=rounds).rounds():
            play_round(r, agents)
            assert r.end is not None and r.ledger is not None
            played += 1
            totals = r.ledger.totals()
            lost = dealt_in(r)
            beh = seat_behaviour(r.end)
            for s, k in enumerate(kinds):
                st = stats[k]
                st.seat_rounds += 1
                st.points += totals[s]
                st.counts["dealt_in"] += lost[s]
                for key, v in beh[s].items():
                    st.counts[key] += v
    return stats, played, time.process_time() - start


def run_mix(
    variant: str,
    mix: str,
    rounds: int,
    seed: int,
    workers: int,
    per_match: int,
    seating: str = "one",
) -> dict[str, Any]:
    """Play ``rounds`` deals of a mix, each in every seating; A's points per round with its
    interval."""
    a, b = split_mix(mix)
    matches = math.ceil(rounds / per_match)
    jobs = []
    left = rounds
    for i in range(matches):
        jobs.append((variant, a, b, seed + i, min(per_match, left), seating))
        left -= per_match
    merged = {a: KindStats(), b: KindStats()}
    match_means: list[float] = []
    wall = time.perf_counter()
    cpu = 0.0
    played = 0
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = list(pool.imap(play_match, jobs, chunksize=2))
    else:
        results = [play_match(job) for job in jobs]
    for stats, n, secs in results:
        played += n
        cpu += secs
        match_means.append(stats[a].points / stats[a].seat_rounds)
        for k, st in stats.items():
            merged[k].merge(st)
    wall = time.perf_counter() - wall
    mean = merged[a].points / merged[a].seat_rounds
    half = 1.96 * _se(match_means)
    per_deal = len(seatings(a, b, load_variant(variant).players, seating))
    rows = []
    for k in (a, b):
        st = merged[k]
        sr = st.seat_rounds
        rows.append(
            {
                "agent": k,
                "seat_rounds": sr,
                "points_per_round": st.points / sr,
                **{f"{c}_rate": st.counts[c] / sr for c in COLUMNS if c != "dealt_in"},
                "dealt_in_per_round": st.counts["dealt_in"] / sr,
            }
        )
    return {
        "mix": mix,
        "variant": variant,
        "seating": seating,
        "rounds": played,
        "deals": played // per_deal,
        "seatings": per_deal,
        "matches": matches,
        "points_per_round": mean,
        "ci95": [mean - half, mean + half],
        "seconds": wall,
        "cpu_seconds": cpu,
        "rounds_per_cpu_second": played / cpu if cpu else 0.0,
        "rows": rows,
    }


#: the counters a ``search`` bot keeps (:attr:`SearchAgent.stats`), summed by ``--paired``
SEARCH_COUNTERS = ("decisions", "searched", "rollouts", "changed")


@dataclass
class PairedMatch:
    """One match of a paired measurement: per seat, A's points there less B's in the
    baseline (all B), whether that arm's ledgers differ from the baseline's at all, and
    A's own counters (a ``search`` bot's :attr:`stats`), summed over its arms."""

    rounds: int
    diffs: list[int]
    differ: list[bool]
    counters: dict[str, int]
    cpu: float


def _match_totals(
    ruleset: Any, kinds: Sequence[str], seed: int, rounds: int
) -> tuple[list[list[int]], list[Any]]:
    """Play one match with ``kinds`` round the table (seeded as :func:`play_match` seeds
    them); each round's ledger totals, and the agents."""
    agents = [make_agent(k, seed * 16 + s) for s, k in enumerate(kinds)]
    out = []
    for r in Match(ruleset, seed=seed, rounds=rounds).rounds():
        play_round(r, agents)
        assert r.ledger is not None
        out.append(list(r.ledger.totals()))
    return out, agents


def play_paired(job: tuple[str, str, str, int, int]) -> PairedMatch:
    """One match with four B's, then once per seat with that seat's B replaced by A."""
    variant, a, b, seed, rounds = job
    _register((a, b))
    start = time.process_time()
    ruleset = load_variant(variant)
    n = ruleset.players
    base, _ = _match_totals(ruleset, [b] * n, seed, rounds)
    diffs, differ = [], []
    counters = dict.fromkeys(SEARCH_COUNTERS, 0)
    for s in range(n):
        arm, agents = _match_totals(ruleset, [a if i == s else b for i in range(n)], seed, rounds)
        diffs.append(sum(t[s] for t in arm) - sum(t[s] for t in base))
        differ.append(arm != base)
        for k, v in getattr(agents[s], "stats", {}).items():
            if k in counters:
                counters[k] += v
    return PairedMatch(rounds, diffs, differ, counters, time.process_time() - start)


def run_paired(
    variant: str, mix: str, deals: int, seed: int, workers: int, per_match: int
) -> dict[str, Any]:
    """A's gain over B per seat-round, paired deal by deal (``--paired``), with its 95 %
    interval over matches (the independent unit)."""
    a, b = split_mix(mix)
    matches = math.ceil(deals / per_match)
    jobs = [
        (variant, a, b, seed + i, min(per_match, deals - i * per_match)) for i in range(matches)
    ]
    wall = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = list(pool.imap(play_paired, jobs, chunksize=1))
    else:
        results = [play_paired(job) for job in jobs]
    wall = time.perf_counter() - wall
    units = [sum(m.diffs) / (len(m.diffs) * m.rounds) for m in results]
    mean = sum(units) / len(units)
    half = 1.96 * _se(units)
    counters = {k: sum(m.counters[k] for m in results) for k in SEARCH_COUNTERS}
    cpu = sum(m.cpu for m in results)
    return {
        "paired": mix,
        "variant": variant,
        "deals": sum(m.rounds for m in results),
        "matches": matches,
        "arms": sum(len(m.diffs) for m in results),
        "arms_differing": sum(sum(m.differ) for m in results),
        "matches_differing": sum(1 for m in results if any(m.differ)),
        "points_per_round": mean,
        "ci95": [mean - half, mean + half],
        "counters": counters,
        "overrule_rate": counters["changed"] / counters["decisions"]
        if counters["decisions"]
        else 0.0,
        "seconds": wall,
        "cpu_seconds": cpu,
        "deals_per_cpu_hour": 3600 * sum(m.rounds for m in results) / cpu if cpu else 0.0,
        "units": units,
    }


def render_paired(res: dict[str, Any]) -> str:
    """Two lines: A's paired gain with its interval, then how much of the play differed."""
    lo, hi = res["ci95"]
    a, b = split_mix(res["paired"])
    c = res["counters"]
    return (
        f"{res['variant']:<14} paired {a} for {b}: {res['points_per_round']:+.3f} "
        f"[{lo:+.3f}, {hi:+.3f}] points per seat-round over {res['deals']} deals "
        f"({res['matches']} matches)\n"
        f"{'':<14} {res['arms_differing']} of {res['arms']} seat-arms differ from the baseline "
        f"({res['matches_differing']} matches); {a}: {c['decisions']} decisions, "
        f"{c['searched']} searched, {c['changed']} overruled ({100 * res['overrule_rate']:.2f} %); "
        f"{res['seconds']:.0f} s wall, {res['cpu_seconds']:.0f} CPU s, "
        f"{res['deals_per_cpu_hour']:.0f} deals per CPU hour"
    )


def split_mix(mix: str) -> list[str]:
    """A mix's two bots: ``expert:cautious``; a bot's parameters follow its name after a
    colon, ``/`` between them (``search:budget=48/k=4:expert``)."""
    kinds: list[str] = []
    for part in mix.split(":"):
        if "=" in part and kinds:
            kinds[-1] += ":" + part
        else:
            kinds.append(part)
    return kinds


def _se(xs: Sequence[float]) -> float:
    """Standard error of the mean of per-match values (matches are independent)."""
    n = len(xs)
    if n < 2:
        return 0.0
    mu = sum(xs) / n
    return math.sqrt(sum((x - mu) ** 2 for x in xs) / (n - 1) / n)


def speed(variant: str, kind: str, rounds: int) -> tuple[float, float]:
    """(rounds per CPU second, milliseconds per decision) of one process with ``kind`` in
    every seat (engine included)."""
    _register((kind,))
    ruleset = load_variant(variant)
    agents = [_Counting(make_agent(kind, s)) for s in range(ruleset.players)]
    start = time.process_time()
    Match(ruleset, seed=999, rounds=rounds).play(agents)
    secs = time.process_time() - start
    decisions = sum(a.calls for a in agents)
    return rounds / secs, 1000 * sum(a.secs for a in agents) / max(1, decisions)


def speed_apart(variant: str, kind: str, rounds: int) -> tuple[float, float]:
    """:func:`speed` in a process of its own, forked for it: what the bots kept in earlier
    checks of this process (the expert's stores of other families) is not there for the
    collector to walk during this one.  Run in one process one after the other, greedy's
    rate in the last families fell to a third (334-417 rounds per CPU second against
    1,074-1,514 with the collector's state reset before each check), because a full
    collection during its rounds walked what the experts of four families had kept
    (docs/agents.md, the issue's speed check after the seventh and eighth passes)."""
    with multiprocessing.get_context("fork").Pool(1) as pool:
        return pool.apply(speed, (variant, kind, rounds))


def seat_speed(variant: str, a: str, b: str, rounds: int) -> dict[str, Any]:
    """``--seat-speed A:B``: A alone in seat 0 against B's, match seed 999; A's decisions,
    the CPU time of its own ``act`` (the engine and the B's not counted) and, for
    ``search``, its counters."""
    _register((a, b))
    ruleset = load_variant(variant)
    bot = _Counting(make_agent(a, 999 * 16))
    agents = [bot] + [make_agent(b, 999 * 16 + s) for s in range(1, ruleset.players)]
    Match(ruleset, seed=999, rounds=rounds).play(agents)
    return {
        "variant": variant,
        "seat_speed": f"{a}:{b}",
        "rounds": rounds,
        "decisions": bot.calls,
        "cpu_seconds": bot.secs,
        "decisions_per_cpu_second": bot.calls / bot.secs if bot.secs else 0.0,
        "counters": dict(getattr(bot.inner, "stats", {})),
    }


def render_seat_speed(res: dict[str, Any]) -> str:
    """``guiyang search against expert: 40 decisions in 1.8 CPU s, 21.8 per CPU s …``."""
    a, b = split_mix(res["seat_speed"])
    c = res["counters"]
    line = (
        f"{res['variant']:<14} {a} in seat 0 against {b}, {res['rounds']} rounds: "
        f"{res['decisions']} decisions in {res['cpu_seconds']:.1f} CPU s, "
        f"{res['decisions_per_cpu_second']:.1f} per CPU s"
    )
    if c.get("searched"):
        ms = 1000 * res["cpu_seconds"] / c["searched"]
        line += f"; {c['searched']} searched ({ms:.0f} ms each), {c.get('changed', 0)} overruled"
    return line


class _Counting:
    """Counts an agent's decisions and their CPU time."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0
        self.secs = 0.0

    def act(self, obs: Any) -> Any:
        t = time.process_time()
        a = self.inner.act(obs)
        self.secs += time.process_time() - t
        self.calls += 1
        return a


def render(results: Sequence[dict[str, Any]]) -> str:
    head = (
        f"{'family':<14} {'mix (A:B)':<17} {'A points/round [95% CI]':>27} {'agent':<10} "
        f"{'wins %':>7} {'self-draw %':>11} {'deal-in %':>9} {'报听 %':>7} {'kongs':>6} {'dealt-in':>8}"
    )
    lines = [head, "-" * (len(head) + 1)]
    for res in results:
        lo, hi = res["ci95"]
        pts = f"{res['points_per_round']:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        for i, row in enumerate(res["rows"]):
            lines.append(
                f"{res['variant'] if i == 0 else '':<14} {res['mix'] if i == 0 else '':<17} "
                f"{pts if i == 0 else '':>27} {row['agent']:<10} "
                f"{100 * row['wins_rate']:>7.2f} {100 * row['self_draws_rate']:>11.2f} "
                f"{100 * row['dealins_rate']:>9.2f} {100 * row['declared_rate']:>7.2f} "
                f"{row['kongs_rate']:>6.3f} {row['dealt_in_per_round']:>8.3f}"
            )
        lines.append(
            f"{'':<14} ({res['deals']} deals × {res['seatings']} seatings ({res['seating']}) "
            f"in {res['matches']} matches, "
            f"{res['seconds']:.0f} s wall, {res['rounds_per_cpu_second']:.0f} rounds per CPU second)"
        )
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument(
        "--family",
        type=loadable_variant,
        action="append",
        help="variant (repeatable); default: " + ", ".join(FAMILIES),
    )
    p.add_argument(
        "--rounds",
        type=at_least(1),
        default=None,
        help=f"deals per mix, each played in every seating (default {DEALS}; "
        + ", ".join(f"{f} {m} {n}" for (f, m), n in DEALS_FOR.items())
        + ")",
    )
    p.add_argument(
        "--mix", action="append", help="A:B bot kinds (repeatable); default: " + ", ".join(LADDER)
    )
    p.add_argument(
        "--seating",
        choices=SEATINGS,
        default="one",
        help="one: one A among B's, A in each seat in turn (issue 28's ladder, the default); "
        "half: A B A B and B A B A",
    )
    p.add_argument("--seed", type=int, default=1, help="first match seed")
    p.add_argument("--workers", type=at_least(1), default=2)
    p.add_argument(
        "--match-rounds",
        type=at_least(1),
        default=None,
        help="rounds per match (default: the variant's)",
    )
    p.add_argument(
        "--speed-rounds",
        type=at_least(0),
        default=100,
        help="rounds for the one-process speed check of each bot on each family (0: skip)",
    )
    p.add_argument(
        "--budgets",
        help="comma-separated expert search budgets to play against cautious instead of the ladder",
    )
    p.add_argument(
        "--speed-only",
        action="store_true",
        help="play no ladder: only the speed check of the mixes' bots (--speed-rounds)",
    )
    p.add_argument(
        "--paired",
        action="append",
        help="A:B (repeatable): instead of the ladder, each deal played with B in every seat "
        "and again with A in each seat in turn; A's gain per seat-round, paired deal by deal "
        "(one round a match unless --match-rounds)",
    )
    p.add_argument(
        "--seat-speed",
        action="append",
        help="A:B (repeatable): only time A's own decisions, A in seat 0 against B's, match "
        "seed 999, --speed-rounds rounds (default 100)",
    )
    p.add_argument("--json", action="store_true")
    return p


def _check_mixes(p: argparse.ArgumentParser, flag: str, mixes: Sequence[str]) -> None:
    for mix in mixes:
        kinds = split_mix(mix)
        if len(kinds) != 2 or not all(
            k.split("@", 1)[0].split(":", 1)[0] in agent_names() for k in kinds
        ):
            p.error(f"{flag} {mix!r}: two bots as A:B, each one of {', '.join(agent_names())}")


def _main_paired(args: argparse.Namespace) -> int:
    """``--paired``: each mix on each family (default guiyang and liupanshui)."""
    results = []
    for fam in args.family or list(PAIRED_FAMILIES):
        for mix in args.paired:
            res = run_paired(
                fam, mix, args.rounds or PAIRED_DEALS, args.seed, args.workers,
                args.match_rounds or 1,
            )  # fmt: skip
            results.append(res)
            if not args.json:
                print(render_paired(res))
                sys.stdout.flush()
    if args.json:
        print(json.dumps({"paired": results}, indent=2))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = _parser()
    args = p.parse_args(argv)
    if args.paired:
        _check_mixes(p, "--paired", args.paired)
        return _main_paired(args)
    if args.seat_speed:
        _check_mixes(p, "--seat-speed", args.seat_speed)
        if not args.speed_rounds:
            p.error("--seat-speed: the speed check needs --speed-rounds of at least 1")
        timed = [
            seat_speed(fam, *split_mix(mix), args.speed_rounds)
            for fam in args.family or list(PAIRED_FAMILIES)
            for mix in args.seat_speed
        ]
        print(json.dumps({"seat_speed": timed}, indent=2) if args.json else
              "\n".join(render_seat_speed(t) for t in timed))  # fmt: skip
        return 0
    if args.speed_only and not args.speed_rounds:
        p.error("--speed-only: the speed check needs --speed-rounds of at least 1")
    families = args.family or list(SPEED_FAMILIES if args.speed_only else FAMILIES)
    mixes = args.mix or list(LADDER)
    if args.budgets:
        budgets = args.budgets.split(",")
        if not all(b.strip().isdigit() for b in budgets):
            p.error(f"--budgets: whole numbers separated by commas, not {args.budgets!r}")
        mixes = [f"expert@{int(b)}:cautious" for b in budgets]
    _check_mixes(p, "--mix", mixes)
    results = []
    if not args.json and not args.speed_only:
        print(
            f"bench/agents.py: {args.rounds or DEALS} deals per mix"
            + ("" if args.rounds else " unless said")
            + f", each played in every seating ({args.seating}), "
            f"seeds from {args.seed}, {args.workers} workers"
        )
    for fam in [] if args.speed_only else families:
        per_match = args.match_rounds or load_variant(fam).variant.match.rounds
        for mix in mixes:
            deals = args.rounds or DEALS_FOR.get((fam, mix), DEALS)
            res = run_mix(fam, mix, deals, args.seed, args.workers, per_match, args.seating)
            results.append(res)
            if not args.json:
                print(render([res]).split("\n", 2)[2] if results[:-1] else render([res]))
                sys.stdout.flush()
    speeds: dict[str, dict[str, list[float]]] = {}
    if args.speed_rounds:
        kinds = sorted({k for m in mixes for k in split_mix(m)})
        for fam in families:
            speeds[fam] = {k: list(speed_apart(fam, k, args.speed_rounds)) for k in kinds}
    if args.json:
        targets = {
            k: SPEED_TARGETS[k]
            for k in sorted({k for by in speeds.values() for k in by})
            if k in SPEED_TARGETS
        }
        print(json.dumps({"mixes": results, "speed": speeds, "speed_targets": targets}, indent=2))
    elif speeds:
        print(
            f"a process a check, {args.speed_rounds} rounds, the same bot in every seat "
            "(CPU time, engine included): rounds per CPU second, ms per decision, and the target"
        )
        for fam, by in speeds.items():
            print(f"  {fam:<14} " + ", ".join(_speed_cell(k, v) for k, v in by.items()))
    return 0


def _speed_cell(kind: str, rate: Sequence[float]) -> str:
    """``expert 45/s 0.52 ms (≥ 80: MISSED)``: a bot's rate, its time a decision and its
    target (:data:`SPEED_TARGETS`), where it has one."""
    cell = f"{kind} {rate[0]:.0f}/s {rate[1]:.2f} ms"
    target = SPEED_TARGETS.get(kind)
    if target is None:
        return cell
    return cell + f" (≥ {target:.0f}: {'ok' if rate[0] >= target else 'MISSED'})"


if __name__ == "__main__":
    sys.exit(main())
