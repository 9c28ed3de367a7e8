"""Round-engine speed: zhuoji against rlcard's ``mahjong`` environment, random agents.

Usage::

    python bench/engine.py                    # 10 s per side, guiyang, profile of 300 rounds
    python bench/engine.py --seconds 30 --variant guiyang-weile
    python bench/engine.py --rounds 2000      # a fixed number of rounds per side
    python bench/engine.py --json

What is timed, in one run:

* **zhuoji** — ``Round(ruleset, seed=…)`` played to the end by four seeded
  :class:`zhuoji.agents.base.RandomAgent` with :func:`zhuoji.agents.base.play_round`.
  Settlement and the event log are always on in the engine: every round records its log
  (``Round.log``) and settles its ledger at the end; ``--dump-logs`` also serializes each log
  to JSON lines (``eventlog.dumps``).
* **rlcard** — ``rlcard.make("mahjong")`` with four ``rlcard.agents.RandomAgent`` and
  ``env.run(is_training=False)``, one game per call (rlcard's mahjong: 136 tiles, chow, pung,
  kong; zhuoji's 捉鸡: 108 tiles, no chow).

The two sides run in alternating slices of about a second, so a machine whose load changes
during the run slows both alike.  Rates are given per wall-clock second and per CPU second
of this process (``time.process_time``; steadier when other processes share the machine);
the ratio uses CPU time.  Target: zhuoji ≥ 50× rlcard's rate.  Last, a cProfile of
zhuoji's side (``--profile-rounds`` rounds) lists the 15 functions with the most own time.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

TARGET = 50.0
SLICE = 1.0  # seconds per alternating slice


@dataclass
class Side:
    name: str
    rounds: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    steps: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def rate(self, cpu: bool = True) -> float:
        spent = self.cpu if cpu else self.wall
        return self.rounds / spent if spent else 0.0


def zhuoji_player(variant: str, seed: int, dump_logs: bool) -> Callable[[], int]:
    """One call plays one round and returns its number of actions."""
    from zhuoji import eventlog
    from zhuoji.agents.base import RandomAgent, play_round
    from zhuoji.engine import Round
    from zhuoji.variant import load_variant

    ruleset = load_variant(variant)
    agents = [RandomAgent(seed * 10 + s) for s in range(ruleset.players)]
    counter = iter(range(seed * 1_000_000, sys.maxsize))

    def play() -> int:
        r = Round(ruleset, seed=next(counter))
        play_round(r, agents)
        if r.ledger is None:
            raise RuntimeError("a round ended without a ledger")
        if dump_logs:
            eventlog.dumps(r.log)
        return r.actions

    return play


def rlcard_player(seed: int) -> Callable[[], int]:
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(seed)  # rlcard's RandomAgent draws from numpy's global generator
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def play() -> int:
        trajectories, _ = env.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)

    return play


def run_slice(
    side: Side, play: Callable[[], int], *, seconds: float | None, rounds: int | None
) -> None:
    w0, c0 = time.perf_counter(), time.process_time()
    n = 0
    while True:
        side.steps += play()
        n += 1
        if rounds is not None and n >= rounds:
            break
        if seconds is not None and time.perf_counter() - w0 >= seconds:
            break
    side.wall += time.perf_counter() - w0
    side.cpu += time.process_time() - c0
    side.rounds += n


def measure(args: argparse.Namespace) -> tuple[Side, Side]:
    ours = Side("zhuoji")
    theirs = Side("rlcard")
    play_ours = zhuoji_player(args.variant, args.seed, args.dump_logs)
    play_theirs = rlcard_player(args.seed)
    play_ours()  # warm up: imports, tables, first-call caches
    play_theirs()
    if args.rounds is not None:
        chunk = max(1, args.rounds // 10)
        while ours.rounds < args.rounds or theirs.rounds < args.rounds:
            if ours.rounds < args.rounds:
                run_slice(
                    ours, play_ours, seconds=None, rounds=min(chunk, args.rounds - ours.rounds)
                )
            if theirs.rounds < args.rounds:
                run_slice(
                    theirs,
                    play_theirs,
                    seconds=None,
                    rounds=min(chunk, args.rounds - theirs.rounds),
                )
    else:
        while ours.wall < args.seconds or theirs.wall < args.seconds:
            if ours.wall < args.seconds:
                run_slice(
                    ours, play_ours, seconds=min(SLICE, args.seconds - ours.wall), rounds=None
                )
            if theirs.wall < args.seconds:
                run_slice(
                    theirs, play_theirs, seconds=min(SLICE, args.seconds - theirs.wall), rounds=None
                )
    return ours, theirs


def profile(args: argparse.Namespace) -> str:
    play = zhuoji_player(args.variant, args.seed + 1, args.dump_logs)
    play()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(args.profile_rounds):
        play()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(15)
    return out.getvalue()


def machine() -> dict[str, Any]:
    info: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    with contextlib.suppress(OSError):
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    try:
        import rlcard

        info["rlcard"] = getattr(rlcard, "__version__", "?")
    except ImportError:
        pass
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="wall-clock budget per side (default 10)"
    )
    parser.add_argument(
        "--rounds", type=int, help="a fixed number of rounds per side instead of a time budget"
    )
    parser.add_argument("--variant", default="guiyang")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dump-logs", action="store_true", help="also serialize each round's log to JSON lines"
    )
    parser.add_argument(
        "--profile-rounds", type=int, default=300, help="zhuoji rounds under cProfile (0: none)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    random.seed(args.seed)

    ours, theirs = measure(args)
    ratio = ours.rate() / theirs.rate() if theirs.rate() else float("inf")
    wall_ratio = (
        ours.rate(cpu=False) / theirs.rate(cpu=False) if theirs.rate(cpu=False) else float("inf")
    )
    prof = profile(args) if args.profile_rounds else ""
    env = machine()
    if args.json:
        data = {
            "machine": env,
            "variant": args.variant,
            "sides": {
                s.name: {
                    "rounds": s.rounds,
                    "wall_s": round(s.wall, 3),
                    "cpu_s": round(s.cpu, 3),
                    "rounds_per_s_wall": round(s.rate(cpu=False), 1),
                    "rounds_per_s_cpu": round(s.rate(), 1),
                    "actions_per_round": round(s.steps / s.rounds, 1) if s.rounds else 0,
                }
                for s in (ours, theirs)
            },
            "ratio_cpu": round(ratio, 2),
            "ratio_wall": round(wall_ratio, 2),
            "target": TARGET,
            "meets_target": ratio >= TARGET,
            "profile": prof,
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(f"engine speed, random agents — zhuoji {args.variant} vs rlcard mahjong")
    print("machine: " + ", ".join(f"{k} {v}" for k, v in env.items()))
    budget = (
        f"{args.rounds} rounds per side"
        if args.rounds is not None
        else f"{args.seconds:g} s per side"
    )
    print(
        f"budget: {budget}, alternating slices of ~{SLICE:g} s"
        + (", logs serialized" if args.dump_logs else "")
    )
    header = ("rounds", "wall s", "CPU s", "rounds/s wall", "rounds/s CPU", "actions/round")
    widths = (8, 8, 8, 14, 13, 14)
    print(f"{'':8} " + " ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    for s in (ours, theirs):
        per = s.steps / s.rounds if s.rounds else 0.0
        print(
            f"{s.name:8} {s.rounds:>8} {s.wall:>8.2f} {s.cpu:>8.2f} {s.rate(cpu=False):>14.1f} "
            f"{s.rate():>13.1f} {per:>14.1f}"
        )
    verdict = "meets" if ratio >= TARGET else "misses"
    print(
        f"ratio zhuoji/rlcard: {ratio:.1f}× per CPU second ({wall_ratio:.1f}× per wall second); "
        f"target ≥ {TARGET:g}×: {verdict}"
    )
    if prof:
        print(f"\ncProfile of zhuoji, {args.profile_rounds} rounds, top 15 by own time:")
        print(prof.rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
