"""Hand-analysis speed of zhuoji.hand against compiled and pure-Python peers, in one run.

Usage: ``python bench/hand.py [--hands N] [--seed S] [--repeat R]``

Peers (``pip install -e '.[bench]'``; a peer that is not installed is left out and named):

* ``xiangting`` (Rust): ``calculate_replacement_number`` (shanten + 1, all riichi forms:
  standard, seven pairs, 国士) and ``calculate_necessary_tiles`` (its waits when ready);
* ``riichienv`` (Rust): ``calculate_shanten`` on 136-tile ids (all riichi forms) and
  ``HandEvaluator(tiles).get_waits()``;
* ``PyMahjongGB`` (C++, Chinese official rules): ``RegularShanten``, ``SevenPairsShanten``
  and ``MahjongShanten`` (all GB forms) on 13 tiles; it has no plain win check;
* ``mahjong`` (pure Python, riichi): ``Agari().is_agari`` and ``Shanten().calculate_shanten``.

Every peer gets the same seeded suits-only hands (the 108-tile wall of the Guizhou games),
converted to its own input (tile order m/p/s, 136-tile ids, GB tile names) before timing.
What is timed, per hand:

* **win check, winning 14** / **random 14**: ``zhuoji.hand.is_win`` (standard and seven
  pairs) against each peer's win test (shanten −1, replacement number 0, ``is_agari``);
* **shanten, standard**: ``shanten_standard`` against GB's ``RegularShanten`` and mahjong
  without seven pairs or 国士;
* **shanten, plain forms**: ``shanten`` (standard and seven pairs) against each peer's
  shanten over its forms;
* **shanten, all forms**: ``HandRules`` with every form zhuoji knows (standard, seven
  pairs, 十三烂, 十三幺) against xiangting and GB's ``MahjongShanten``;
* **waits, ready 13**: ``waits`` against riichienv's ``get_waits``, xiangting's necessary
  tiles, GB's useful tiles of its ready standard and seven-pairs forms, and mahjong's
  ``is_agari`` tried on every kind.

Before timing, the answers are compared hand by hand.  Differences the rules explain are
counted under their reason; any other difference is an error (exit status 1):

* **龙七对** — zhuoji (and GB) count a four-of-a-kind as two pairs in seven pairs; riichi
  (xiangting, riichienv, mahjong) needs seven different pairs;
* **十三烂** — a form only zhuoji has (all-forms rows), when it is what decides the answer;
* **GB knitted forms** — 组合龙 and 全不靠 (knitted straight, honors and knitted tiles), GB
  forms zhuoji does not have, when they decide GB's answer;
* **fifth copy** — GB's useful tiles include a kind the hand already holds four times;
  zhuoji leaves it out (there is no fifth copy to draw), as xiangting and riichienv do.

riichi's 国士无双 and zhuoji's 十三幺 (the same thirteen orphans) cannot decide an answer on
suits-only hands (six terminals at most), so they need no exception here.

Each pass over the hands is timed in CPU time (``time.process_time``) and wall time, ours and
each peer's passes alternating so that a busy spell of the shared machine hits all alike;
the best of ``R`` passes is kept.  A ratio is the peer's time over ours (above 1: zhuoji is
faster), shown with its target from issue 15 where it has one.  Last, the cost of a fresh
``import zhuoji.hand`` is measured in a subprocess, and which kernel build ran is named.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from zhuoji import compiled
from zhuoji import hand as zh
from zhuoji.cli import at_least
from zhuoji.tiles import TileSet, wall

Counts = list[int]
SUITED = range(27)
ALL_FORMS = zh.HandRules(forms=frozenset(zh.Form))

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
    ready = [one_removed(rng, w) for w in wins]  # every one waits on the tile taken out
    return {
        "win14": wins,
        "random14": [dealt(rng, 14) for _ in range(n)],
        "thirteen": thirteen,
        "ready13": ready,
    }


# ---------------------------------------------------------------------------------------
# tile conversions: zhuoji's kinds are m 0–8, s 9–17, p 18–26, honors 27–33
# ---------------------------------------------------------------------------------------

#: zhuoji kind → riichi kind (m 0–8, p 9–17, s 18–26, honors 27–33); its own inverse
RIICHI_KIND = tuple(list(range(9)) + list(range(18, 27)) + list(range(9, 18)) + list(range(27, 34)))
GB_NAMES = tuple(
    [f"W{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]  # 东南西北, 中发白
)
GB_KIND = {name: k for k, name in enumerate(GB_NAMES)}


def riichi_counts(c: Counts) -> Counts:
    out = [0] * 34
    for k, x in enumerate(c):
        out[RIICHI_KIND[k]] = x
    return out


def riichi_ids(c: Counts) -> list[int]:
    """136-tile ids (4 × riichi kind + copy), as riichienv takes a hand."""
    return [4 * RIICHI_KIND[k] + i for k in range(34) for i in range(c[k])]


def gb_tiles(c: Counts) -> tuple[str, ...]:
    return tuple(GB_NAMES[k] for k in range(34) for _ in range(c[k]))


def kinds_from_riichi(kinds: Sequence[int]) -> list[int]:
    return sorted(RIICHI_KIND[k] for k in kinds)


# ---------------------------------------------------------------------------------------
# peers: each call takes the hand already in the peer's own input
# ---------------------------------------------------------------------------------------


@dataclass
class Peer:
    """One peer's call for one operation: ``prepare`` converts a hand (not timed), ``call``
    is timed, ``answer`` turns its result into zhuoji's terms for the comparison."""

    name: str
    prepare: Callable[[Counts], Any]
    call: Callable[[Any], Any]
    answer: Callable[[Any], Any] = lambda result: result
    target: float | None = None


def load(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


XT = load("xiangting")
RV = load("riichienv")
GB = load("MahjongGB")
MJ_AGARI = load("mahjong.agari")
MJ_SHANTEN = load("mahjong.shanten")
MISSING = [
    name
    for name, module in (
        ("xiangting", XT),
        ("riichienv", RV),
        ("PyMahjongGB", GB),
        ("mahjong", MJ_AGARI),
    )
    if module is None
]


def xiangting_peers() -> dict[str, Peer]:
    if XT is None:
        return {}
    four = XT.PlayerCount.FOUR
    rn = XT.calculate_replacement_number

    def necessary(c: Counts) -> tuple[int, int]:
        result: tuple[int, int] = XT.calculate_necessary_tiles(c, four)
        return result

    def waits_of(result: tuple[int, int]) -> list[int]:
        number, bits = result
        return kinds_from_riichi([k for k in range(34) if bits >> k & 1]) if number == 1 else []

    return {
        "win": Peer("xiangting", riichi_counts, lambda c: rn(c, four) == 0, target=1.0),
        "shanten": Peer("xiangting", riichi_counts, lambda c: rn(c, four) - 1, target=0.7),
        "waits": Peer("xiangting", riichi_counts, necessary, waits_of),
    }


def riichienv_peers() -> dict[str, Peer]:
    if RV is None:
        return {}
    shanten = RV.calculate_shanten
    evaluator = RV.HandEvaluator
    return {
        "win": Peer("riichienv", riichi_ids, lambda t: shanten(t) == -1),
        "shanten": Peer("riichienv", riichi_ids, shanten),
        "waits": Peer(
            "riichienv", riichi_ids, lambda t: evaluator(t).get_waits(), kinds_from_riichi, 1.0
        ),
    }


def gb_peers() -> dict[str, Peer]:
    if GB is None:
        return {}

    def regular(t: tuple[str, ...]) -> int:
        number: int = GB.RegularShanten(t)[0]
        return number

    def all_forms(t: tuple[str, ...]) -> int:
        number: int = GB.MahjongShanten((), t)
        return number

    def waits(t: tuple[str, ...]) -> list[str]:
        out: set[str] = set()
        for form in (GB.RegularShanten, GB.SevenPairsShanten):
            number, useful = form(t)
            if number == 0:
                out.update(useful)
        return sorted(out)

    return {
        "standard": Peer("PyMahjongGB", gb_tiles, regular),
        "all": Peer("PyMahjongGB", gb_tiles, all_forms, target=0.7),
        "waits": Peer("PyMahjongGB", gb_tiles, waits, lambda r: sorted(GB_KIND[n] for n in r)),
    }


def mahjong_peers() -> dict[str, Peer]:
    if MJ_AGARI is None or MJ_SHANTEN is None:
        return {}
    agari = MJ_AGARI.Agari()
    shanten = MJ_SHANTEN.Shanten()

    def waits(c: Counts) -> list[int]:
        out = []
        for t in range(34):
            if c[t] < 4:
                c[t] += 1
                if agari.is_agari(c):
                    out.append(t)
                c[t] -= 1
        return out

    return {
        "win": Peer("mahjong", riichi_counts, agari.is_agari),
        "standard": Peer(
            "mahjong",
            riichi_counts,
            lambda c: shanten.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False),
        ),
        "shanten": Peer(
            "mahjong",
            riichi_counts,
            lambda c: shanten.calculate_shanten(c, use_chiitoitsu=True, use_kokushi=True),
        ),
        "waits": Peer("mahjong", riichi_counts, waits, kinds_from_riichi),
    }


# ---------------------------------------------------------------------------------------
# documented differences
# ---------------------------------------------------------------------------------------


def long_qidui(c: Counts, ours: Any, theirs: Any) -> str | None:
    """A win or shanten that differs on a hand holding a four-of-a-kind, which zhuoji's seven
    pairs count as two pairs and riichi's do not."""
    return "龙七对" if 4 in c and zh.seven_pairs_distance(c) <= zh.standard_distance(c) else None


def long_qidui_waits(c: Counts, ours: Any, theirs: Any) -> str | None:
    """Waits only zhuoji has, each making a four-of-a-kind in a seven-pairs hand."""
    only_ours = set(ours) - set(theirs)
    if set(theirs) <= set(ours) and all(c[t] == 3 or (4 in c and c[t] == 1) for t in only_ours):
        return "龙七对"
    return None


def fifth_copy(c: Counts, ours: Any, theirs: Any) -> str | None:
    """Waits only the peer has, each on a kind the hand already holds four times (there is
    no fifth copy to draw; GB's useful tiles do not leave it out)."""
    only_theirs = set(theirs) - set(ours)
    if set(ours) <= set(theirs) and all(c[t] == 4 for t in only_theirs):
        return "fifth copy"
    return None


def shisanlan_decides(c: Counts, ours: Any, theirs: Any) -> str | None:
    plain = zh.HandRules().shanten(c)
    return "十三烂" if ALL_FORMS.shanten(c) < plain and theirs == plain else None


def gb_knitted(c: Counts, ours: Any, theirs: Any) -> str | None:
    if GB is None:
        return None
    t = gb_tiles(c)
    knitted = min(GB.KnittedStraightShanten(t)[0], GB.HonorsAndKnittedTilesShanten(t)[0])
    return "GB knitted forms" if knitted == theirs and knitted < ours else None


# ---------------------------------------------------------------------------------------
# timing
# ---------------------------------------------------------------------------------------


@dataclass
class Timing:
    cpu: float = float("inf")
    wall: float = float("inf")

    def keep(self, cpu: float, wall: float) -> None:
        self.cpu = min(self.cpu, cpu)
        self.wall = min(self.wall, wall)


def one_pass(fn: Callable[[Any], Any], inputs: Sequence[Any]) -> tuple[float, float]:
    w0, c0 = time.perf_counter(), time.process_time()
    for x in inputs:
        fn(x)
    return time.process_time() - c0, time.perf_counter() - w0


@dataclass
class Row:
    label: str
    ours: Callable[[Counts], Any]
    hands: list[Counts]
    peers: list[Peer]
    explain: list[Callable[[Counts, Any, Any], str | None]] = field(default_factory=list)


def compare(row: Row, peer: Peer) -> tuple[dict[str, int], list[Counts]]:
    """Differences by documented reason, and the hands no reason explains."""
    reasons: dict[str, int] = {}
    unexplained = []
    for c in row.hands:
        ours = row.ours(list(c))
        theirs = peer.answer(peer.call(peer.prepare(list(c))))
        if ours == theirs:
            continue
        why = next((r for f in row.explain if (r := f(c, ours, theirs))), None)
        if why is None:
            unexplained.append(c)
        else:
            reasons[why] = reasons.get(why, 0) + 1
    return reasons, unexplained


def time_row(row: Row, repeat: int) -> tuple[Timing, list[Timing]]:
    """Best CPU and wall time per hand (µs) for ours and each peer, passes alternating."""
    inputs = [[peer.prepare(list(c)) for c in row.hands] for peer in row.peers]
    ours_inputs = [list(c) for c in row.hands]
    ours = Timing()
    theirs = [Timing() for _ in row.peers]
    for _ in range(repeat):
        ours.keep(*one_pass(row.ours, ours_inputs))
        for peer, peer_inputs, timing in zip(row.peers, inputs, theirs, strict=True):
            timing.keep(*one_pass(peer.call, peer_inputs))
    n = len(row.hands) / 1e6
    for t in (ours, *theirs):
        t.cpu /= n
        t.wall /= n
    return ours, theirs


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


def rows(hands: dict[str, list[Counts]]) -> list[Row]:
    xt, rv, gb, mj = xiangting_peers(), riichienv_peers(), gb_peers(), mahjong_peers()

    def pick(*pairs: tuple[dict[str, Peer], str]) -> list[Peer]:
        return [table[key] for table, key in pairs if key in table]

    riichi_pairs = [long_qidui]
    return [
        Row("win check, winning 14", zh.is_win, hands["win14"],
            pick((xt, "win"), (rv, "win"), (mj, "win")), riichi_pairs),
        Row("win check, random 14", zh.is_win, hands["random14"],
            pick((xt, "win"), (rv, "win"), (mj, "win")), riichi_pairs),
        Row("shanten, standard", zh.shanten_standard, hands["thirteen"],
            pick((gb, "standard"), (mj, "standard"))),
        Row("shanten, std + 7 pairs", zh.shanten, hands["thirteen"],
            pick((xt, "shanten"), (rv, "shanten"), (mj, "shanten")), riichi_pairs),
        Row("shanten, all forms", ALL_FORMS.shanten, hands["thirteen"],
            pick((xt, "shanten"), (gb, "all")),
            [shisanlan_decides, gb_knitted, long_qidui]),
        Row("waits, ready 13", zh.waits, hands["ready13"],
            pick((rv, "waits"), (xt, "waits"), (gb, "waits"), (mj, "waits")),
            [long_qidui_waits, fifth_copy]),
    ]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=at_least(1), default=2000, help="hands per set (default 2000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--repeat", type=at_least(1), default=7, help="passes per timing, best kept"
    )
    args = parser.parse_args(argv)

    table = rows(make_hands(args.hands, args.seed))
    kernel = compiled.select("hand_kernel")
    build = "compiled (mypyc)" if compiled.is_compiled(kernel) else "pure Python"
    print(
        f"zhuoji.hand vs peers — {args.hands} hands per set, seed {args.seed}, best of "
        f"{args.repeat} alternating passes; kernel {build}; Python {platform.python_version()}"
        f" on {platform.machine()}"
    )
    if MISSING:
        print(f"not installed, left out: {', '.join(MISSING)} (pip install -e '.[bench]')")

    notes: list[str] = []
    failed = False
    for row in table:
        for peer in row.peers:
            reasons, unexplained = compare(row, peer)
            if reasons or unexplained:
                parts = [f"{n} {why}" for why, n in sorted(reasons.items())]
                if unexplained:
                    failed = True
                    parts.append(f"{len(unexplained)} UNEXPLAINED (first: {unexplained[0]})")
                notes.append(f"{row.label} vs {peer.name}: differ on " + ", ".join(parts))

    header = (
        f"{'operation':23} {'peer':12} {'ours µs':>8} {'theirs µs':>9} "
        f"{'ratio CPU':>9} {'ratio wall':>10} {'target':>7}"
    )
    print()
    print(header)
    print("-" * len(header))
    for row in table:
        ours, theirs = time_row(row, args.repeat)
        label = row.label
        if not row.peers:
            print(f"{label:23} {'—':12} {ours.cpu:8.2f}")
        for peer, t in zip(row.peers, theirs, strict=True):
            ratio, wall_ratio = t.cpu / ours.cpu, t.wall / ours.wall
            goal = "—" if peer.target is None else f"≥{peer.target:.1f}×"
            verdict = "" if peer.target is None else ("ok" if ratio >= peer.target else "MISSED")
            print(
                f"{label:23} {peer.name:12} {ours.cpu:8.2f} {t.cpu:9.2f} {ratio:8.2f}× "
                f"{wall_ratio:9.2f}× {goal:>7} {verdict}"
            )
            label = ""
    print("(µs per hand in CPU time; ratio = their time / ours, above 1 zhuoji is faster)")
    print()
    print("answers compared before timing:")
    for note in notes or ["every answer agrees"]:
        print(f"  {note}")
    print()
    print(import_cost())
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
