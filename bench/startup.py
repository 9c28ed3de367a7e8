"""Start-up of the ``zhuoji`` command against a bare interpreter (issue 15, goal 4; issue 29).

Runs, alternating, ``python -c pass``, ``zhuoji --help``, ``zhuoji demo --help`` and
``zhuoji demo --rounds 1``, each as a fresh process, and prints medians of: the process's
CPU time when it writes its first line of output (``time.process_time``, interpreter
start-up included), the wall time to its end, and the CPU time of the child process
(``RUSAGE_CHILDREN``: this machine is shared, so CPU time is the fairer clock), with the
ratios to the bare interpreter and the targets beside them::

    python bench/startup.py [--runs 30]

Targets (issue 29): ``zhuoji --help`` within 2× the CPU of ``python -c pass``; ``zhuoji demo``
starts (prints its first line) within 250 ms of CPU.

The children run as an installed package runs: with its bytecode cached.  An environment
that sets ``PYTHONDONTWRITEBYTECODE`` (this machine's does) would otherwise compile every
module of the package from source in every run — 55 modules, about 60 ms of ``zhuoji demo``'s
start-up that no installed copy pays — so the children run without it, and the warm-up run
writes the caches.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

from zhuoji.cli import at_least

PY = sys.executable
#: the ``zhuoji`` console script, plus a note on stderr of the process CPU time (start-up
#: included) when the first line of output is written: that is when the demo has "started"
_CHILD = """
import sys, time
class FirstLine:
    def __init__(self, out):
        self.out, self.cpu = out, None
    def write(self, text):
        if self.cpu is None and text.strip():
            self.cpu = time.process_time()
        return self.out.write(text)
    def flush(self):
        self.out.flush()
sys.stdout = FirstLine(sys.stdout)
from zhuoji.cli import main
try:
    status = main()
finally:
    sys.stderr.write(f"first-line-cpu {sys.stdout.cpu or time.process_time()}\\n")
sys.exit(status)
"""
ZHUOJI = [PY, "-c", _CHILD]
#: the children's environment: this one, with bytecode caching allowed (see above)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
#: ``zhuoji --help``'s CPU over a bare interpreter's, at most
HELP_TARGET = 2.0
#: CPU seconds to ``zhuoji demo``'s first line, at most
DEMO_TARGET = 0.250
CASES: dict[str, list[str]] = {
    "python -c pass": [PY, "-c", "pass"],
    "zhuoji --help": [*ZHUOJI, "--help"],
    "zhuoji demo --help": [*ZHUOJI, "demo", "--help"],
    "zhuoji demo --rounds 1": [*ZHUOJI, "demo", "--rounds", "1"],
}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(cmd: list[str]) -> tuple[float, float, float]:
    """(CPU to the first line of output, wall to the end, CPU to the end) of one run."""
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=ENV)
    end = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited with {proc.returncode}: {proc.stderr}")
    notes = [ln for ln in proc.stderr.splitlines() if ln.startswith("first-line-cpu ")]
    first = float(notes[-1].split()[1]) if notes else cpu
    return first, end, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--runs", type=at_least(1), default=30, help="runs of each command (default 30)"
    )
    args = ap.parse_args()
    samples: dict[str, list[tuple[float, float, float]]] = {name: [] for name in CASES}
    for cmd in CASES.values():  # warm the file cache once
        run_once(cmd)
    for _ in range(args.runs):
        for name, cmd in CASES.items():
            samples[name].append(run_once(cmd))
    med = {
        name: tuple(statistics.median(s[i] for s in runs) for i in range(3))
        for name, runs in samples.items()
    }
    bare_wall, bare_cpu = med["python -c pass"][1], med["python -c pass"][2]
    print(f"{args.runs} runs each, alternating; medians")
    print(f"{'command':26} {'CPU@line 1':>10} {'wall':>9} {'CPU':>9} {'wall ×':>7} {'CPU ×':>7}")
    for name, (first, wall, cpu) in med.items():
        print(
            f"{name:26} {first * 1000:8.1f}ms {wall * 1000:7.1f}ms {cpu * 1000:7.1f}ms "
            f"{wall / bare_wall:6.2f}× {cpu / bare_cpu:6.2f}×"
        )
    help_cpu = med["zhuoji --help"][2] / bare_cpu
    help_wall = med["zhuoji --help"][1] / bare_wall
    demo_first = med["zhuoji demo --rounds 1"][0]
    print()
    print(
        f"zhuoji --help: {help_cpu:.2f}× CPU, {help_wall:.2f}× wall a bare interpreter "
        f"(target ≤ {HELP_TARGET:g}× CPU: {'met' if help_cpu <= HELP_TARGET else 'NOT met'})"
    )
    print(
        f"zhuoji demo: first line after {demo_first * 1000:.0f} ms CPU "
        f"(target ≤ {DEMO_TARGET * 1000:.0f} ms: {'met' if demo_first <= DEMO_TARGET else 'NOT met'})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
