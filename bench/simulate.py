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

Usage::

    python bench/simulate.py                          # guiyang, 3000 random / 1200 greedy rounds
    python bench/simulate.py --variant guiyang-weile --greedy-rounds 4000 --json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from typing import Any

from zhuoji.cli import at_least, loadable_variant
from zhuoji.sim.backends import available_cpus
from zhuoji.sim.records import SimSpec
from zhuoji.sim.runner import simulate

TIMING = ("elapsed_s", "rounds_per_s", "workers", "backend", "run_id")


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
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()
    rows = [
        bench(args.variant, "random", args.random_rounds, args.seed, args.workers, args.repeat),
        bench(args.variant, "greedy", args.greedy_rounds, args.seed, args.workers, args.repeat),
    ]
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
                },
                indent=2,
            )
        )
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
