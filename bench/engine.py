"""Round-engine speed: zhuoji against rlcard and riichienv, every shipped variant, greedy bots.

Usage::

    python bench/engine.py                    # 6 s per side, guiyang, profile of 300 rounds
    python bench/engine.py --seconds 20 --variant guiyang-weile
    python bench/engine.py --rounds 2000      # a fixed number of rounds per side
    python bench/engine.py --json

What is timed, in one run (each part's sides alternate in slices of about a second, so a
machine whose load changes during the run slows them alike; rates are rounds per CPU second
of this process, ``time.process_time``, and per wall-clock second):

1. **peers, random agents** —
   * **zhuoji**: ``Round(ruleset, seed=…)`` played to the end by four seeded
     :class:`zhuoji.agents.base.RandomAgent` with :func:`zhuoji.agents.base.play_round`.
     Settlement and the event log are always on in the engine (``--dump-logs`` also
     serializes each log to JSON lines);
   * **rlcard**: ``rlcard.make("mahjong")``, four ``rlcard.agents.RandomAgent``, one game per
     ``env.run`` (136 tiles, chow, pung, kong; zhuoji's 捉鸡: 108 tiles, no chow);
   * **riichienv** (Rust): ``RiichiEnv(game_mode=0)`` (one riichi round), four
     ``riichienv.agents.RandomAgent``, ``reset`` then ``step`` until ``done``.
   Targets (issue 15): zhuoji ≥ 3,000 rounds per CPU second, ≥ 4× riichienv, ≥ 50× rlcard.
2. **every shipped variant**, random agents: target no variant below half of guiyang's rate.
3. **four greedy bots** (``make_agent("greedy")``) on ``--variant``: target ≥ 600 rounds per
   CPU second.

The engine group (``zhuoji/engine.py``, its state and phases ``round_*``, ``wall``,
``reveals``, ``events``, ``observation``, ``autoplay``: the loop and the random agent) runs
compiled when the install built it (``docs/build.md``; the header says which build runs);
the other bots run as Python.  Last, a cProfile of zhuoji's side (``--profile-rounds``
rounds) lists the 15 functions with the most own time.  A peer that is not installed is
left out and named (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import importlib.metadata
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

from zhuoji.cli import at_least, loadable_variant, positive_number

SLICE = 1.0  # seconds per alternating slice
RATE_TARGET = 3000.0  # zhuoji random self-play, rounds per CPU second
PEER_TARGETS = {"rlcard": 50.0, "riichienv": 4.0}  # zhuoji's rate over the peer's
VARIANT_FLOOR = 0.5  # every variant at least this share of guiyang's rate
GREEDY_TARGET = 600.0  # four greedy bots, rounds per CPU second


@dataclass
class Side:
    name: str
    play: Callable[[], int]  # plays one round, returns its number of actions
    rounds: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    steps: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def rate(self, cpu: bool = True) -> float:
        spent = self.cpu if cpu else self.wall
        return self.rounds / spent if spent else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "wall_s": round(self.wall, 3),
            "cpu_s": round(self.cpu, 3),
            "rounds_per_s_wall": round(self.rate(cpu=False), 1),
            "rounds_per_s_cpu": round(self.rate(), 1),
            "actions_per_round": round(self.steps / self.rounds, 1) if self.rounds else 0,
        }


def zhuoji_player(
    variant: str, seed: int, dump_logs: bool, agent: str = "random"
) -> Callable[[], int]:
    """One call plays one round and returns its number of actions."""
    from zhuoji import eventlog
    from zhuoji.agents.base import make_agent, play_round
    from zhuoji.engine import Round
    from zhuoji.variant_io import load_variant

    ruleset = load_variant(variant)
    agents = [make_agent(agent, seed * 10 + s) for s in range(ruleset.players)]
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


def rlcard_player(seed: int) -> Callable[[], int] | None:
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None

    np.random.seed(seed)  # rlcard's RandomAgent draws from numpy's global generator
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def play() -> int:
        trajectories, _ = env.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)

    return play


def riichienv_player(seed: int) -> Callable[[], int] | None:
    try:
        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None

    env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=seed)  # 0: one round, 4 players
    agents = [RandomAgent(seed * 10 + s) for s in range(4)]

    def play() -> int:
        obs = env.reset()
        actions = 0
        while not env.done():
            chosen = {seat: agents[seat].act(o) for seat, o in obs.items()}
            actions += len(chosen)
            obs = env.step(chosen)
        return actions

    return play


def run_slice(side: Side, *, seconds: float | None, rounds: int | None) -> None:
    w0, c0 = time.perf_counter(), time.process_time()
    n = 0
    while True:
        side.steps += side.play()
        n += 1
        if rounds is not None and n >= rounds:
            break
        if seconds is not None and time.perf_counter() - w0 >= seconds:
            break
    side.wall += time.perf_counter() - w0
    side.cpu += time.process_time() - c0
    side.rounds += n


def alternate(sides: list[Side], *, seconds: float | None, rounds: int | None) -> None:
    """Run every side to its budget (wall seconds or rounds) in alternating slices."""
    for side in sides:
        side.play()  # warm up: imports, tables, first-call caches
    if rounds is not None:
        chunk = max(1, rounds // 10)
        while any(s.rounds < rounds for s in sides):
            for s in sides:
                if s.rounds < rounds:
                    run_slice(s, seconds=None, rounds=min(chunk, rounds - s.rounds))
        return
    assert seconds is not None
    while any(s.wall < seconds for s in sides):
        for s in sides:
            if s.wall < seconds:
                run_slice(s, seconds=min(SLICE, seconds - s.wall), rounds=None)


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
    from zhuoji import compiled

    info: dict[str, Any] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        **{
            f"{group} group": "compiled"
            if compiled.is_compiled(compiled.select(members[0]))
            else "pure Python"
            for group, members in compiled.GROUPS.items()
        },
    }
    with contextlib.suppress(OSError):
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    for package in ("rlcard", "riichienv"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            info[package] = importlib.metadata.version(package)
    return info


def verdict(value: float, target: float) -> str:
    return "ok" if value >= target else "MISSED"


def print_sides(sides: list[Side]) -> None:
    header = ("rounds", "wall s", "CPU s", "rounds/s wall", "rounds/s CPU", "actions/round")
    widths = (8, 8, 8, 14, 13, 14)
    print(f"{'':18} " + " ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    for s in sides:
        per = s.steps / s.rounds if s.rounds else 0.0
        print(
            f"{s.name:18} {s.rounds:>8} {s.wall:>8.2f} {s.cpu:>8.2f} {s.rate(cpu=False):>14.1f} "
            f"{s.rate():>13.1f} {per:>14.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    from zhuoji.variant_io import builtin_names

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds",
        type=positive_number,
        default=6.0,
        help="wall-clock budget per side (default 6)",
    )
    parser.add_argument(
        "--rounds",
        type=at_least(1),
        help="a fixed number of rounds per side instead of a time budget",
    )
    parser.add_argument(
        "--variant-seconds",
        type=positive_number,
        default=3.0,
        help="budget per shipped variant (default 3)",
    )
    parser.add_argument(
        "--greedy-seconds",
        type=positive_number,
        default=6.0,
        help="budget for greedy bots (default 6)",
    )
    parser.add_argument("--variant", type=loadable_variant, default="guiyang")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dump-logs", action="store_true", help="also serialize each round's log to JSON lines"
    )
    parser.add_argument(
        "--profile-rounds",
        type=at_least(0),
        default=300,
        help="zhuoji rounds under cProfile (0: none)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    random.seed(args.seed)

    # 1. zhuoji and the peers, random agents
    ours = Side("zhuoji", zhuoji_player(args.variant, args.seed, args.dump_logs))
    peers = []
    missing = []
    for name, make in (("rlcard", rlcard_player), ("riichienv", riichienv_player)):
        play = make(args.seed)
        if play is None:
            missing.append(name)
        else:
            peers.append(Side(name, play))
    alternate([ours, *peers], seconds=args.seconds, rounds=args.rounds)
    ratios = {
        p.name: (ours.rate() / p.rate(), ours.rate(cpu=False) / p.rate(cpu=False)) for p in peers
    }

    # 2. every shipped variant, random agents
    variants = [
        Side(name, zhuoji_player(name, args.seed, args.dump_logs)) for name in builtin_names()
    ]
    alternate(
        variants,
        seconds=None if args.rounds else args.variant_seconds,
        rounds=args.rounds and max(1, args.rounds // 4),
    )
    base = next((v for v in variants if v.name == "guiyang"), variants[0])

    # 3. four greedy bots
    greedy = Side(
        f"greedy ×4 {args.variant}", zhuoji_player(args.variant, args.seed, False, "greedy")
    )
    alternate(
        [greedy],
        seconds=None if args.rounds else args.greedy_seconds,
        rounds=args.rounds and max(1, args.rounds // 10),
    )

    prof = profile(args) if args.profile_rounds else ""
    env = machine()
    if args.json:
        data = {
            "machine": env,
            "variant": args.variant,
            "sides": {s.name: s.as_json() for s in (ours, *peers)},
            "ratios_cpu": {k: round(v[0], 2) for k, v in ratios.items()},
            "ratios_wall": {k: round(v[1], 2) for k, v in ratios.items()},
            "targets": {
                "rounds_per_cpu_s": RATE_TARGET,
                "peer_ratio": PEER_TARGETS,
                "variant_share_of_guiyang": VARIANT_FLOOR,
                "greedy_rounds_per_cpu_s": GREEDY_TARGET,
            },
            "variants": {v.name: v.as_json() for v in variants},
            "greedy": greedy.as_json(),
            "missing_peers": missing,
            "profile": prof,
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0

    print(f"engine speed — zhuoji {args.variant} vs peers, random agents")
    print("machine: " + ", ".join(f"{k} {v}" for k, v in env.items()))
    if missing:
        print(f"not installed, left out: {', '.join(missing)} (pip install -e '.[bench]')")
    budget = (
        f"{args.rounds} rounds per side"
        if args.rounds is not None
        else f"{args.seconds:g} s per side"
    )
    print(
        f"budget: {budget}, alternating slices of ~{SLICE:g} s"
        + (", logs serialized" if args.dump_logs else "")
    )
    print_sides([ours, *peers])
    print(
        f"zhuoji: {ours.rate():.0f} rounds per CPU second; target ≥ {RATE_TARGET:,.0f}: "
        f"{verdict(ours.rate(), RATE_TARGET)}"
    )
    for name, (cpu_ratio, wall_ratio) in ratios.items():
        target = PEER_TARGETS[name]
        print(
            f"ratio zhuoji/{name}: {cpu_ratio:.1f}× per CPU second ({wall_ratio:.1f}× per wall "
            f"second); target ≥ {target:g}×: {verdict(cpu_ratio, target)}"
        )

    print(f"\nevery shipped variant, random agents (target: ≥ {VARIANT_FLOOR:g}× guiyang's rate)")
    print_sides(variants)
    for v in variants:
        share = v.rate() / base.rate()
        print(
            f"  {v.name:18} {share:.2f}× {base.name}'s rate; target ≥ {VARIANT_FLOOR:g}×: "
            f"{verdict(share, VARIANT_FLOOR)}"
        )

    print(f"\nfour greedy bots (target ≥ {GREEDY_TARGET:g} rounds per CPU second)")
    print_sides([greedy])
    print(
        f"greedy: {greedy.rate():.0f} rounds per CPU second; target ≥ {GREEDY_TARGET:g}: "
        f"{verdict(greedy.rate(), GREEDY_TARGET)}"
    )
    if prof:
        print(f"\ncProfile of zhuoji, {args.profile_rounds} rounds, top 15 by own time:")
        print(prof.rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
