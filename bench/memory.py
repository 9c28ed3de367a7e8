"""Memory of ``zhuoji simulate``: peak resident memory by rounds played and by backend.

Issue 15, goal 5: a long run holds flat memory (the statistics are streamed: per-block
counters, ``zhuoji.sim.stats.Accumulator``; the workers' records are merged as they come and
dropped), and the Ray backend's footprint is documented against the process pool's.

Each run is ``zhuoji simulate`` in a fresh process (``--no-progress``, random bots by
default, ``--workers`` as given); its whole process tree (the driver, the pool's workers,
and with Ray its raylet, GCS and workers) is sampled every 0.1 s with psutil, and the
largest sum of resident set sizes seen is printed, with the driver's own peak
(``ru_maxrss``-like, sampled) beside it::

    python bench/memory.py                               # 10^4 and 10^5 rounds, local pool
    python bench/memory.py --rounds 10000 --backends local ray
    python bench/memory.py --rounds 1000000 --agents random --workers 2

Flat memory shows as about the same peak at 10^4 and 10^5 rounds (and beyond).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import subprocess
import sys
import time
from typing import Any

import psutil

from zhuoji.cli import at_least, loadable_variant

SAMPLE_S = 0.1


def tree_rss(root: psutil.Process) -> tuple[int, int]:
    """(resident bytes of ``root`` and every descendant, of ``root`` alone)."""
    total = own = 0
    with contextlib.suppress(psutil.Error):  # the run ended between two readings
        own = root.memory_info().rss
        total = own
        for child in root.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                total += child.memory_info().rss
    return total, own


def measure(rounds: int, backend: str, workers: int, agents: str, variant: str) -> dict[str, Any]:
    exe = shutil.which("zhuoji")
    if exe is None:
        raise SystemExit("bench/memory.py: the zhuoji command is not installed")
    cmd = [
        exe,
        "simulate",
        "--variant",
        variant,
        "--rounds",
        str(rounds),
        "--agents",
        agents,
        "--workers",
        str(workers),
        "--backend",
        backend,
        "--no-progress",
        "--json",
    ]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    root = psutil.Process(proc.pid)
    peak_tree = peak_driver = 0
    while proc.poll() is None:
        total, own = tree_rss(root)
        peak_tree = max(peak_tree, total)
        peak_driver = max(peak_driver, own)
        time.sleep(SAMPLE_S)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"bench/memory.py: {' '.join(cmd)} failed:\n{err}")
    played = json.loads(out)["rounds"]
    return {
        "rounds": rounds,
        "played": played,
        "backend": backend,
        "workers": workers,
        "peak_tree_mb": round(peak_tree / 2**20, 1),
        "peak_driver_mb": round(peak_driver / 2**20, 1),
        "wall_s": round(time.perf_counter() - start, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rounds", type=at_least(1), nargs="+", default=[10_000, 100_000])
    ap.add_argument("--backends", nargs="+", default=["local"], choices=["local", "ray"])
    ap.add_argument("--workers", type=at_least(1), default=1)
    ap.add_argument("--agents", default="random")
    ap.add_argument("--variant", type=loadable_variant, default="guiyang")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [
        measure(n, b, args.workers, args.agents, args.variant)
        for b in args.backends
        for n in args.rounds
    ]
    if args.json:
        json.dump(rows, sys.stdout, indent=2)
        print()
        return 0
    print(f"zhuoji simulate, {args.variant}, {args.agents} bots, --workers {args.workers}")
    print(
        f"{'backend':8} {'rounds':>9} {'peak RSS, all processes':>24} {'driver':>9} {'wall s':>8}"
    )
    for r in rows:
        print(
            f"{r['backend']:8} {r['rounds']:>9} {r['peak_tree_mb']:>21.1f} MB "
            f"{r['peak_driver_mb']:>6.1f} MB {r['wall_s']:>8.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
