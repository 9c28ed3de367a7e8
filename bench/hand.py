"""Hand-analysis speed of zhuoji.hand against the ``mahjong`` package (riichi calculator).

Usage: ``python bench/hand.py [--hands N] [--seed S] [--repeat R]``

Every operation runs on the same seeded suits-only hands (108-tile wall), for both
libraries, in one run; each timing is the best of ``R`` passes over all hands, in µs per
hand.  What is compared:

* **win, winning 14**: ``zhuoji.hand.is_win`` vs ``Agari().is_agari`` on composed winning
  14-tile hands (four sets and a pair);
* **win, random 14**: the same on 14 tiles dealt at random (almost never complete);
* **waits, 13 tiles**: ``zhuoji.hand.waits`` vs ``is_agari`` tried on every candidate kind
  (the 27 suited kinds, fewer than four held) — mahjong has no waits call of its own;
  half the hands are dealt at random, half are winning hands with one tile removed;
* **shanten, standard**: ``shanten_standard`` vs ``Shanten().calculate_shanten(c,
  use_chiitoitsu=False, use_kokushi=False)`` (sets and a pair only, like with like);
* **shanten, + seven pairs**: ``shanten`` (standard and seven pairs) vs ``calculate_shanten(c,
  use_chiitoitsu=True, use_kokushi=False)``, on the same 13-tile hands as waits.

The answers are compared too: a line per operation counts the hands where they differ.
zhuoji's seven pairs count a four-of-a-kind as two pairs (龙七对) and riichi's do not, so
waits and shanten with seven pairs may legitimately differ on hands holding a kind three or
four times; nothing else should differ.
Targets: win ≥ 5×, waits ≥ 10×, shanten ≥ 10× faster.  Last, the cost of a fresh
``import zhuoji.hand`` (time, traced memory, peak RSS) is measured in a subprocess.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from zhuoji import hand as zh
from zhuoji.tiles import TileSet, wall

Counts = list[int]
SUITED = range(27)

IMPORT_PROBE = """
import json, resource, sys, time, tracemalloc
def peak_rss_kb():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if sys.argv[1] == "memory":
    tracemalloc.start()
start = time.perf_counter()
import zhuoji.hand
seconds = time.perf_counter() - start
traced = tracemalloc.get_traced_memory()[1] if sys.argv[1] == "memory" else 0
print(json.dumps({"seconds": seconds, "traced": traced, "rss_kb": peak_rss_kb()}))
"""


# ---------------------------------------------------------------------------------------
# hands
# ---------------------------------------------------------------------------------------


def dealt(rng: random.Random, size: int) -> Counts:
    c = [0] * 34
    for k in rng.sample(wall(TileSet.SUITS), size):
        c[k] += 1
    return c


def winning(rng: random.Random) -> Counts:
    """Four random sets (a third pungs, the rest chows) and a pair, at most four of a kind."""
    while True:
        c = [0] * 34
        for _ in range(4):
            if rng.random() < 0.35:
                c[rng.choice(SUITED)] += 3
            else:
                first = rng.choice([k for k in SUITED if k % 9 <= 6])
                for k in (first, first + 1, first + 2):
                    c[k] += 1
        c[rng.choice(SUITED)] += 2
        if max(c) <= 4:
            return c


def one_removed(rng: random.Random, c: Counts) -> Counts:
    out = list(c)
    out[rng.choice([k for k in range(34) for _ in range(c[k])])] -= 1
    return out


def make_hands(n: int, seed: int) -> dict[str, list[Counts]]:
    rng = random.Random(seed)
    wins = [winning(rng) for _ in range(n)]
    thirteen = [dealt(rng, 13) if i % 2 else one_removed(rng, wins[i]) for i in range(n)]
    return {"win14": wins, "random14": [dealt(rng, 14) for _ in range(n)], "thirteen": thirteen}


# ---------------------------------------------------------------------------------------
# the operations, ours and theirs
# ---------------------------------------------------------------------------------------

AGARI = Agari()
SHANTEN = Shanten()


def mahjong_waits(c: Counts) -> list[int]:
    out = []
    for t in SUITED:
        if c[t] < 4:
            c[t] += 1
            if AGARI.is_agari(c):
                out.append(t)
            c[t] -= 1
    return out


def mahjong_shanten_standard(c: Counts) -> int:
    return SHANTEN.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)


def mahjong_shanten_with_pairs(c: Counts) -> int:
    return SHANTEN.calculate_shanten(c, use_chiitoitsu=True, use_kokushi=False)


def one_pass(fn: Callable[[Counts], object], hands: Sequence[Counts]) -> float:
    start = time.perf_counter()
    for c in hands:
        fn(c)
    return time.perf_counter() - start


def best_times(
    ours: Callable[[Counts], object],
    theirs: Callable[[Counts], object],
    hands: Sequence[Counts],
    repeat: int,
) -> tuple[float, float]:
    """µs per hand for both, best of ``repeat`` passes each; the passes alternate, so a
    slow spell of a shared machine hits both sides alike."""
    best_ours = best_theirs = float("inf")
    for _ in range(repeat):
        best_ours = min(best_ours, one_pass(ours, hands))
        best_theirs = min(best_theirs, one_pass(theirs, hands))
    return best_ours / len(hands) * 1e6, best_theirs / len(hands) * 1e6


def disagreements(
    ours: Callable[[Counts], object], theirs: Callable[[Counts], object], hands: Sequence[Counts]
) -> tuple[int, int]:
    """(hands where the answers differ, how many of those hold a kind three or four times,
    where a four-of-a-kind seven pairs can explain the difference)."""
    differ = [c for c in hands if ours(list(c)) != theirs(list(c))]
    return len(differ), sum(1 for c in differ if max(c) >= 3)


def import_cost() -> str:
    def probe(mode: str) -> dict[str, float]:
        done = subprocess.run(
            [sys.executable, "-c", IMPORT_PROBE, mode], capture_output=True, text=True, check=True
        )
        result: dict[str, float] = json.loads(done.stdout)
        return result

    seconds = min(probe("time")["seconds"] for _ in range(5))
    memory = probe("memory")
    return (
        f"import zhuoji.hand: {seconds * 1000:.0f} ms (best of 5; target < 500 ms), "
        f"traced peak {memory['traced'] / 2**20:.1f} MB, "
        f"process peak RSS {memory['rss_kb'] / 1024:.1f} MB (target < 50 MB)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per set (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--repeat", type=int, default=7, help="passes per timing, best kept")
    args = parser.parse_args(argv)

    hands = make_hands(args.hands, args.seed)
    Operation = Callable[[Counts], object]
    # the issue sets targets for winning hands, waits and shanten; random 14 is for context
    rows: list[tuple[str, Operation, Operation, list[Counts], int | None]] = [
        ("win, winning 14", zh.is_win, AGARI.is_agari, hands["win14"], 5),
        ("win, random 14", zh.is_win, AGARI.is_agari, hands["random14"], None),
        ("waits, 13 tiles", zh.waits, mahjong_waits, hands["thirteen"], 10),
        (
            "shanten, standard",
            zh.shanten_standard,
            mahjong_shanten_standard,
            hands["thirteen"],
            10,
        ),
        ("shanten, + seven pairs", zh.shanten, mahjong_shanten_with_pairs, hands["thirteen"], 10),
    ]
    print(
        f"zhuoji.hand vs mahjong — {args.hands} hands per set, seed {args.seed}, "
        f"best of {args.repeat}; Python {platform.python_version()} on {platform.machine()}"
    )
    header = f"{'operation':24} {'ours µs/op':>11} {'theirs µs/op':>13} {'ratio':>8} {'target':>7}"
    print(header)
    print("-" * len(header))
    notes = []
    for label, ours, theirs, sample, target in rows:
        ours_us, theirs_us = best_times(ours, theirs, sample, args.repeat)
        ratio = theirs_us / ours_us
        goal = "    —" if target is None else f"{target:>5}×"
        met = "" if target is None else ("ok" if ratio >= target else "MISSED")
        print(f"{label:24} {ours_us:11.2f} {theirs_us:13.2f} {ratio:7.1f}× {goal} {met}")
        differ, with_triples = disagreements(ours, theirs, sample)
        notes.append(
            f"{label}: answers differ on {differ} of {len(sample)} hands"
            + (f" ({with_triples} hold a kind 3-4 times)" if differ else "")
        )
    print()
    for note in notes:
        print(note)
    print()
    print(import_cost())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
