"""Simulation throughput: rounds/s for random and greedy bots, one worker and all cores.

For each agent kind the same run (variant, rounds, seed) is played with ``--workers 1`` and
with every available CPU (``zhuoji.sim.runner.simulate``, the local process-pool backend,
timing from before the pool starts to the last merged round, so pool start-up counts).
Printed per kind: rounds/s for both, the speed-up (all-core rounds/s ÷ single rounds/s)
and the parallel efficiency (speed-up ÷ workers).  Both runs must give identical
statistics (checked).  The target for ``zhuoji simulate`` is a speed-up of at least 1.8 on
2 cores.

The load average before and after is printed: on a shared machine other processes take
cores from the pool and the speed-up falls for reasons that are not the simulator's.  The
last columns help there: rounds per CPU-second of all processes (this one and its joined
workers) for both runs — about equal values mean the pool adds no work of its own — and
the cores the all-core run actually got (CPU seconds per wall second).  With the kernel's
autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``), CPU time is shared
fairly between *sessions*: while another session keeps one core busy, all of this
benchmark's processes together get about one core, and no worker count can speed it up.

Then the cost of simulating over playing (issue 28): in one process, alternating in slices,
``simulate(..., workers=1)`` with random bots — what ``zhuoji simulate --agents random``
runs between start-up and the summary: matches (dealer rotation), the agents made per match,
each round's :class:`~zhuoji.sim.records.RoundRecord` and its sums — against the bare loop
of ``bench/engine.py`` (a ``Round`` played to the end by four random agents with
``play_round``, nothing kept), both in rounds per CPU second of this process.  Target: the
simulator at ≥ 90 % of the bare loop's rate.

Usage::

    python bench/simulate.py                          # guiyang, 3000 random / 1200 greedy rounds
    python bench/simulate.py --variant guiyang-weile --greedy-rounds 4000 --json
    python bench/simulate.py --bare-only              # the simulator against the bare loop alone
    python bench/simulate.py --bare-only --instructions   # …and its instructions a round (callgrind)

``--instructions`` runs the comparison once more under ``valgrind --tool=callgrind``: three
slices a side of ``--instruction-rounds`` rounds, alternating, after a warm-up; a call of
``os.getppid()`` after each slice makes callgrind write that slice's count to a file of its
own (``--dump-after=os_getppid``).  It prints instructions a round of each side and their
ratio, which a busy machine does not change (the CPU ratio above moves by a few hundredths
between runs on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from zhuoji.agents.base import make_agent, play_round
from zhuoji.cli import at_least, loadable_variant
from zhuoji.engine import Round
from zhuoji.ruleset import Ruleset
from zhuoji.sim.backends import available_cpus
from zhuoji.sim.records import SimSpec
from zhuoji.sim.runner import simulate
from zhuoji.variant_io import load_variant

TIMING = ("elapsed_s", "rounds_per_s", "workers", "backend", "run_id")
#: the simulator's rate with random bots as a share of the bare loop's (issue 28), at least
BARE_TARGET = 0.90
#: slices each side of the simulator-against-bare-loop timing is split into, alternating
BARE_SLICES = 6


def cpu_seconds() -> float:
    """User + system CPU time of this process and its finished (joined) children."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def bench(
    variant: str, agent: str, rounds: int, seed: int, workers: int, repeat: int
) -> dict[str, Any]:
    spec = SimSpec(variant, agents=(agent,), rounds=rounds, seed=seed)
    best: dict[int, float] = {}
    per_cpu: dict[int, float] = {}
    cores: dict[int, float] = {}
    summaries = {}
    for _ in range(repeat):
        for w in (1, workers):
            cpu = cpu_seconds()
            r = simulate(spec, workers=w)
            cpu = cpu_seconds() - cpu
            if r.rounds_per_s > best.get(w, 0.0):
                best[w] = r.rounds_per_s
                cores[w] = cpu / r.elapsed_s
            per_cpu[w] = max(per_cpu.get(w, 0.0), rounds / cpu if cpu > 0 else 0.0)
            summaries[w] = {k: v for k, v in r.summary().items() if k not in TIMING}
    if summaries[1] != summaries[workers]:
        raise SystemExit(f"{agent}: results differ between 1 and {workers} workers")
    speedup = best[workers] / best[1]
    return {
        "agent": agent,
        "rounds": rounds,
        "single_rounds_per_s": round(best[1], 1),
        "all_rounds_per_s": round(best[workers], 1),
        "workers": workers,
        "speedup": round(speedup, 3),
        "efficiency": round(speedup / workers, 3),
        # rounds per CPU-second (all processes): equal values mean the pool adds no work,
        # so a speed-up short of the worker count comes from cores taken by others
        "single_rounds_per_cpu_s": round(per_cpu[1], 1),
        "all_rounds_per_cpu_s": round(per_cpu[workers], 1),
        # CPU seconds per wall second of the all-core run: how many cores it actually got
        "all_cores_used": round(cores[workers], 2),
    }


def bare_loop(ruleset: Ruleset, seed: int) -> Any:
    """``bench/engine.py``'s bare loop: ``play(n)`` plays ``n`` fresh rounds of the
    ruleset, four seeded random agents, nothing kept."""
    agents = [make_agent("random", seed * 10 + s) for s in range(ruleset.players)]
    counter = iter(range(seed * 1_000_000, sys.maxsize))

    def play(n: int) -> None:
        for _ in range(n):
            r = Round(ruleset, seed=next(counter))
            play_round(r, agents)
            if r.ledger is None:
                raise RuntimeError("a round ended without a ledger")

    return play


def against_bare(variant: str, rounds: int, seed: int) -> dict[str, Any]:
    """Rounds per CPU second of ``simulate(..., workers=1)`` with random bots and of the bare
    loop, each ``rounds`` rounds in :data:`BARE_SLICES` alternating slices (a change in the
    machine's load slows both alike), and the ratio.  The variant is loaded once for both,
    as ``zhuoji simulate`` loads it once and hands it to ``simulate`` (``ruleset=``): read
    again for each slice, its YAML alone cost about 40 K instructions a round of a
    500-round slice, a cost the command does not have."""
    ruleset = load_variant(variant)
    play = bare_loop(ruleset, seed)
    play(20)  # warm up: imports, tables, first-call caches
    simulate(SimSpec(variant, agents=("random",), rounds=20, seed=seed), workers=1, ruleset=ruleset)
    chunk = max(1, rounds // BARE_SLICES)
    cpu = {"bare": 0.0, "simulate": 0.0}
    done = 0
    for i in range(BARE_SLICES):
        n = chunk if i < BARE_SLICES - 1 else rounds - done
        t = time.process_time()
        play(n)
        cpu["bare"] += time.process_time() - t
        t = time.process_time()
        spec = SimSpec(variant, agents=("random",), rounds=n, seed=seed + 1 + i)
        simulate(spec, workers=1, ruleset=ruleset)
        cpu["simulate"] += time.process_time() - t
        done += n
    bare, sim = done / cpu["bare"], done / cpu["simulate"]
    return {
        "rounds": done,
        "bare_rounds_per_cpu_s": round(bare, 1),
        "simulate_rounds_per_cpu_s": round(sim, 1),
        "ratio": round(sim / bare, 3),
        "target": BARE_TARGET,
        "met": sim / bare >= BARE_TARGET,
    }


#: called after each counted slice: callgrind writes the slice's count to a file of its own
DUMP_SYMBOL = "os_getppid"
#: counted slices a side (alternating, bare loop first)
COUNTED_SLICES = 3
TOTALS = re.compile(r"^totals:\s+(\d+)", re.MULTILINE)


def count_child(variant: str, rounds: int, seed: int) -> None:
    """Under callgrind: a warm-up of both sides, then :data:`COUNTED_SLICES` slices a side
    of ``rounds`` rounds, alternating, each followed by a dump (``os.getppid()``)."""
    ruleset = load_variant(variant)
    play = bare_loop(ruleset, seed)
    play(20)
    simulate(SimSpec(variant, agents=("random",), rounds=20, seed=seed), workers=1, ruleset=ruleset)
    os.getppid()  # the warm-up's count, not used
    for i in range(COUNTED_SLICES):
        play(rounds)
        os.getppid()
        spec = SimSpec(variant, agents=("random",), rounds=rounds, seed=seed + 1 + i)
        simulate(spec, workers=1, ruleset=ruleset)
        os.getppid()


def count_instructions(variant: str, rounds: int, seed: int) -> dict[str, Any] | None:
    """Instructions a round of the bare loop and of ``simulate`` (:func:`count_child` under
    callgrind), and their ratio; ``None`` without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            f"--dump-after={DUMP_SYMBOL}",
            sys.executable,
            os.path.abspath(__file__),
            "--variant",
            variant,
            "--seed",
            str(seed),
            "--instruction-rounds",
            str(rounds),
            "--count-instructions",
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        dumps = [Path(f"{out}.{part}") for part in range(2, 2 + 2 * COUNTED_SLICES)]
        found = [TOTALS.search(d.read_text()) if d.exists() else None for d in dumps]
        if done.returncode or not all(found):
            raise RuntimeError(f"callgrind run failed: {' '.join(command)}\n{done.stderr[-3000:]}")
    counts = [int(m.group(1)) / rounds for m in found if m is not None]
    bare, sim = sum(counts[0::2]) / COUNTED_SLICES, sum(counts[1::2]) / COUNTED_SLICES
    return {
        "rounds": rounds * COUNTED_SLICES,
        "bare_instructions_per_round": round(bare),
        "simulate_instructions_per_round": round(sim),
        "ratio": round(bare / sim, 3),
        "target": BARE_TARGET,
        "met": bare / sim >= BARE_TARGET,
    }


def _autogroup() -> bool:
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled", encoding="ascii") as f:
            return f.read().strip() == "1"
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", type=loadable_variant, default="guiyang")
    ap.add_argument("--random-rounds", type=at_least(1), default=3000)
    ap.add_argument("--greedy-rounds", type=at_least(1), default=1200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--workers",
        type=at_least(1),
        default=available_cpus(),
        help="all-core run (default: every CPU)",
    )
    ap.add_argument("--repeat", type=at_least(1), default=1, help="best of N runs each")
    ap.add_argument(
        "--bare-rounds",
        type=at_least(0),
        default=3000,
        help="random rounds each for the simulator against the bare loop (0: skip; default 3000)",
    )
    ap.add_argument(
        "--bare-only",
        action="store_true",
        help="only the simulator against the bare loop (no worker runs)",
    )
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="also count the comparison's instructions a round under callgrind (valgrind)",
    )
    ap.add_argument(
        "--instruction-rounds",
        type=at_least(1),
        default=300,
        help="rounds a counted slice (3 a side; default 300)",
    )
    ap.add_argument("--count-instructions", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.count_instructions:  # the child under callgrind
        count_child(args.variant, args.instruction_rounds, args.seed)
        return 0
    if args.bare_only and not args.bare_rounds:
        ap.error("--bare-only: the comparison needs --bare-rounds of at least 1")
    load_before = os.getloadavg()
    rows = (
        []
        if args.bare_only
        else [
            bench(args.variant, "random", args.random_rounds, args.seed, args.workers, args.repeat),
            bench(args.variant, "greedy", args.greedy_rounds, args.seed, args.workers, args.repeat),
        ]
    )
    bare = against_bare(args.variant, args.bare_rounds, args.seed) if args.bare_rounds else None
    counted = (
        count_instructions(args.variant, args.instruction_rounds, args.seed)
        if args.instructions
        else None
    )
    load_after = os.getloadavg()
    target = 1.8 if args.workers == 2 else None
    if args.json:
        print(
            json.dumps(
                {
                    "variant": args.variant,
                    "cpus": available_cpus(),
                    "load_before": load_before,
                    "load_after": load_after,
                    "results": rows,
                    "against_bare_loop": bare,
                    "instructions": counted,
                },
                indent=2,
            )
        )
        return 0
    if args.bare_only:
        print(f"zhuoji simulate against the bare loop: {args.variant}, random agents")
        print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
        _print_bare(bare)
        _print_counted(args.instructions, counted)
        return 0
    print(
        f"zhuoji simulate throughput: {args.variant}, {args.workers} workers on {available_cpus()} CPUs"
    )
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
    many = f"{args.workers} workers"
    head = (
        f"{'agents':8} {'rounds':>7} {'1 worker':>12} {many:>12} {'speed-up':>9} {'efficiency':>11}"
    )
    print(head + f"   {'per CPU-s: 1 worker':>19} {many:>10}   cores used")
    for r in rows:
        print(
            f"{r['agent']:8} {r['rounds']:>7} {r['single_rounds_per_s']:>8.1f} r/s {r['all_rounds_per_s']:>8.1f} r/s "
            f"{r['speedup']:>8.2f}× {100 * r['efficiency']:>10.1f}%"
            f"   {r['single_rounds_per_cpu_s']:>15.1f} r/s {r['all_rounds_per_cpu_s']:>6.1f} r/s"
            f"   {r['all_cores_used']:.2f} of {r['workers']}"
        )
    if _autogroup():
        print(
            "note: the kernel groups CPU time by session (sched_autogroup): while another session "
            "keeps a core busy, this benchmark's processes share what is left, whatever their number"
        )
    if target is not None:
        ok = all(r["speedup"] >= target for r in rows)
        print(f"target: all-core ≥ {target}× single on 2 cores: {'met' if ok else 'NOT met'}")
    _print_bare(bare)
    _print_counted(args.instructions, counted)
    return 0


def _print_counted(asked: bool, counted: dict[str, Any] | None) -> None:
    if not asked:
        return
    if counted is None:
        print("instructions: valgrind is not installed (apt-get install valgrind)")
        return
    print(
        f"instructions a round (callgrind, {counted['rounds']} rounds a side in "
        f"{COUNTED_SLICES} alternating slices): simulate "
        f"{counted['simulate_instructions_per_round']:,}, the bare loop "
        f"{counted['bare_instructions_per_round']:,}: {counted['ratio']:.3f}× the bare loop's "
        f"rate; target ≥ {BARE_TARGET:.2f}×: {'met' if counted['met'] else 'NOT met'}"
    )


def _print_bare(bare: dict[str, Any] | None) -> None:
    if bare is None:
        return
    print(
        f"simulate --agents random, one process: {bare['simulate_rounds_per_cpu_s']:.0f} rounds per "
        f"CPU second against the bare loop's {bare['bare_rounds_per_cpu_s']:.0f} "
        f"({bare['rounds']} rounds each, {BARE_SLICES} alternating slices): "
        f"{bare['ratio']:.2f}× the bare loop; target ≥ {BARE_TARGET:.2f}×: "
        f"{'met' if bare['met'] else 'NOT met'}"
    )


if __name__ == "__main__":
    sys.exit(main())
