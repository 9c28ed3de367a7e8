"""Hand-analysis speed of zhuoji.hand against compiled and pure-Python peers, in one run.

Usage: ``python bench/hand.py [--hands N] [--seed S] [--repeat R] [--rows TEXT]
[--instructions [--instruction-hands M]]``

Peers (``pip install -e '.[bench]'``; a peer that is not installed is left out and named):

* ``xiangting`` (Rust): ``calculate_replacement_number`` (shanten + 1) and
  ``calculate_necessary_tiles`` (its waits when ready), over the riichi forms;
* ``riichienv`` (Rust): ``calculate_shanten`` on 136-tile ids and
  ``HandEvaluator(tiles).get_waits()``, over the riichi forms;
* ``PyMahjongGB`` (C++, Chinese official rules): ``MahjongShanten``, its one call that
  computes a shanten and nothing else, over the GB forms; for waits, the useful tiles of
  ``RegularShanten`` and ``SevenPairsShanten`` when they are ready (it has no waits call);
* ``mahjong`` (pure Python, riichi): ``Agari().is_agari``, ``Shanten().calculate_shanten``
  and ``calculate_shanten_for_regular_hand``.

**The same forms on both sides.**  Each row names the forms each side checks:

* ``std`` standard (sets and a pair);
* ``7p`` seven pairs, a four-of-a-kind counting as two pairs (zhuoji's rule, and GB's);
  ``7p≠`` seven pairs of seven different kinds (riichi);
* ``13y`` thirteen orphans (十三幺, riichi's 国士无双);
* ``13l`` 十三烂 (three apart), which only zhuoji has; ``gbk`` GB's 全不靠 and 组合龙.

Against the riichi peers zhuoji runs ``HandRules`` with the riichi forms exactly (``std 7p≠
13y``: standard, seven pairs with ``quads_as_two_pairs`` off, 十三幺); the "all forms" rows
run every form zhuoji knows (``std 7p 13l 13y``), one more than the riichi peers check and
one fewer than GB.  GB has no shanten-only call for the standard form alone, so the standard
row leaves it out (its ``RegularShanten`` also lists the useful tiles, a hundred times the
work).

Every peer gets the same seeded suits-only hands (the 108-tile wall of the Guizhou games),
converted to its own input (tile order m/p/s, 136-tile ids, GB tile names) before timing.
Hand sets: **winning 14** (four sets and a pair), **random 14**, **random 13**, **ready 13**
(a winning hand less one tile, so every one waits on the tile taken out).

Before timing, the answers are compared hand by hand.  Differences a rule explains are
counted under it, with the first such hand; any other difference is an error (exit status
1):

* **龙七对** — zhuoji's seven pairs (all-forms rows) count a four-of-a-kind as two pairs;
  riichi needs seven different pairs;
* **十三烂** — a form only zhuoji has, when it is what decides the answer;
* **GB knitted forms** — 全不靠 and 组合龙, GB forms zhuoji does not have, when they decide
  GB's answer;
* **fifth copy** — GB's useful tiles include a kind the hand already holds four times;
  zhuoji leaves it out (there is no fifth copy to draw), as xiangting and riichienv do.

**Timing.**  A pass calls the side's function on every hand through ``collections.deque(
itertools.starmap(fn, inputs), maxlen=0)`` (the same C loop for every side, no Python frame
of the bench's own), timed in CPU time (``time.process_time``) and wall time, zhuoji's and
each peer's passes alternating so that a busy spell of the shared machine hits all alike.
A round runs each side twice in a row and the best of the ``2R`` passes is kept: a pass
right after another side's runs slower (after the pure-Python peer the caches and the
branch predictor are cold; in a fixed order the same side always came after it), and the
second pass finds them as the side's own first left them.  A ratio is the peer's time over zhuoji's (above 1: zhuoji
is faster), with its target where an issue set one (issue 15's, issue 29's).  The
comparison runs first, so the timed passes find zhuoji's tables (and the peers' memory)
warm; below the table, zhuoji's first pass over hands the run has not seen is printed
beside its second.

**Instructions** (``--instructions``): the script runs itself once more under ``valgrind
--tool=callgrind``, every side of every row alone on the first ``M`` hands of the same set
(two warm-up passes, then one counted pass).  Only the ``starmap`` loop is counted
(``--toggle-collect=starmap_next``), and after each pass a call of ``os.getppid()`` makes
callgrind write that pass's count to a file of its own (``--dump-after=os_getppid``):
instructions a call and the ratio, which a busy machine does not change.  A minute or two
(one valgrind run); the default run does not do it.  The CPU-time ratios carry the targets;
the instruction ratios are printed against the same targets, to tell a regression from a
busy machine.

Last, the cost of a fresh ``import zhuoji.hand`` is measured in a subprocess, and which
kernel build ran is named.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import starmap
from pathlib import Path
from typing import Any

from zhuoji import compiled
from zhuoji import hand as zh
from zhuoji.cli import at_least
from zhuoji.tiles import TileSet, format_counts, wall

Counts = list[int]
Args = tuple[Any, ...]
#: a documented difference: (hand, our answer, the peer's) → its name, or None
Explain = Callable[[list[int], Any, Any], str | None]
SUITED = range(27)

#: zhuoji's form sets: exactly the riichi forms, and every form zhuoji knows
RIICHI_FORMS = zh.HandRules(
    forms=frozenset({zh.Form.STANDARD, zh.Form.SEVEN_PAIRS, zh.Form.SHISANYAO}),
    quads_as_two_pairs=False,
)
ALL_FORMS = zh.HandRules(forms=frozenset(zh.Form))
#: the forms each side checks, as the rows print them (legend in the docstring)
F_STD = "std"
F_PLAIN = "std 7p"
F_RIICHI = "std 7p≠ 13y"
F_ALL = "std 7p 13l 13y"
F_GB = "std 7p 13y gbk"

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
# hands: each set from its own seeded stream, so its first M hands do not depend on N
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


HAND_SETS = ("win14", "random14", "random13", "ready13")


def make_hands(n: int, seed: int, only: str | None = None) -> dict[str, list[Counts]]:
    """The hand sets (or only one), ``n`` hands each."""

    def stream(name: str) -> random.Random:
        return random.Random(f"{seed}/{name}")

    out: dict[str, list[Counts]] = {}
    for name in HAND_SETS if only is None else (only,):
        if name in ("win14", "ready13"):
            wins, cut = stream("win14"), stream("ready13")
            hands = [winning(wins) for _ in range(n)]
            out[name] = hands if name == "win14" else [one_removed(cut, w) for w in hands]
        else:
            rng = stream(name)
            out[name] = [dealt(rng, 14 if name == "random14" else 13) for _ in range(n)]
    return out


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
# sides: zhuoji's or a peer's call for one operation
# ---------------------------------------------------------------------------------------


def _same(result: Any) -> Any:
    return result


@dataclass
class Side:
    """One side of a row: ``prepare`` turns a hand into the call's arguments (not timed),
    ``call`` is timed, ``answer`` turns its result into zhuoji's terms for the comparison;
    ``forms`` are the forms it checks."""

    name: str
    forms: str
    call: Callable[..., Any]
    prepare: Callable[[Counts], Args] = lambda c: (c,)
    answer: Callable[[Any], Any] = _same


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


def xiangting_sides() -> dict[str, Side]:
    if XT is None:
        return {}
    four = XT.PlayerCount.FOUR

    def counts_four(c: Counts) -> Args:
        return (riichi_counts(c), four)

    def waits_of(result: tuple[int, int]) -> list[int]:
        number, bits = result
        return kinds_from_riichi([k for k in range(34) if bits >> k & 1]) if number == 1 else []

    rn = XT.calculate_replacement_number
    return {
        "win": Side("xiangting", F_RIICHI, rn, counts_four, lambda r: r == 0),
        "shanten": Side("xiangting", F_RIICHI, rn, counts_four, lambda r: r - 1),
        "waits": Side("xiangting", F_RIICHI, XT.calculate_necessary_tiles, counts_four, waits_of),
    }


def riichienv_sides() -> dict[str, Side]:
    if RV is None:
        return {}
    evaluator = RV.HandEvaluator

    def ids(c: Counts) -> Args:
        return (riichi_ids(c),)

    def waits(tiles: list[int]) -> list[int]:
        result: list[int] = evaluator(tiles).get_waits()
        return result

    shanten = RV.calculate_shanten
    return {
        "win": Side("riichienv", F_RIICHI, shanten, ids, lambda r: r == -1),
        "shanten": Side("riichienv", F_RIICHI, shanten, ids),
        "waits": Side("riichienv", F_RIICHI, waits, ids, kinds_from_riichi),
    }


def gb_sides() -> dict[str, Side]:
    if GB is None:
        return {}

    def no_packs(c: Counts) -> Args:
        return ((), gb_tiles(c))

    def tiles(c: Counts) -> Args:
        return (gb_tiles(c),)

    def waits(t: tuple[str, ...]) -> list[str]:
        out: set[str] = set()
        for form in (GB.RegularShanten, GB.SevenPairsShanten):
            number, useful = form(t)
            if number == 0:
                out.update(useful)
        return sorted(out)

    return {
        "all": Side("PyMahjongGB", F_GB, GB.MahjongShanten, no_packs),
        "waits": Side(
            "PyMahjongGB", F_PLAIN, waits, tiles, lambda r: sorted(GB_KIND[n] for n in r)
        ),
    }


def mahjong_sides() -> dict[str, Side]:
    if MJ_AGARI is None or MJ_SHANTEN is None:
        return {}
    agari = MJ_AGARI.Agari()
    shanten = MJ_SHANTEN.Shanten()

    def counts(c: Counts) -> Args:
        return (riichi_counts(c),)

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
        "win": Side("mahjong", F_RIICHI, agari.is_agari, counts),
        "standard": Side("mahjong", F_STD, shanten.calculate_shanten_for_regular_hand, counts),
        "shanten": Side("mahjong", F_RIICHI, shanten.calculate_shanten, counts),
        "waits": Side("mahjong", F_RIICHI, waits, counts, kinds_from_riichi),
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
    without = zh.HandRules(forms=ALL_FORMS.forms - {zh.Form.SHISANLAN})
    if zh.Form.SHISANLAN in ALL_FORMS.forms:
        plain = without.is_win(c) if isinstance(ours, bool) else without.shanten(c)
        if plain == theirs:
            return "十三烂"
    return None


def gb_knitted(c: Counts, ours: Any, theirs: Any) -> str | None:
    if GB is None:
        return None
    t = gb_tiles(c)
    knitted = min(GB.KnittedStraightShanten(t)[0], GB.HonorsAndKnittedTilesShanten(t)[0])
    return "GB knitted forms" if knitted == theirs and knitted < ours else None


# ---------------------------------------------------------------------------------------
# rows
# ---------------------------------------------------------------------------------------


@dataclass
class Row:
    key: str  # names the row on the command line (--rows) and to a callgrind child
    label: str
    hands: str  # one of HAND_SETS
    ours: Side
    peers: list[Side]
    #: peer name → (target ratio, the issue that set it)
    targets: dict[str, tuple[float, int]] = field(default_factory=dict)
    explain: list[Explain] = field(default_factory=list)

    @property
    def sides(self) -> list[Side]:
        return [self.ours, *self.peers]


def rows() -> list[Row]:
    xt, rv, gb, mj = xiangting_sides(), riichienv_sides(), gb_sides(), mahjong_sides()

    def pick(*pairs: tuple[dict[str, Side], str]) -> list[Side]:
        return [table[key] for table, key in pairs if key in table]

    ours_riichi_win = Side("zhuoji", F_RIICHI, RIICHI_FORMS.is_win)
    ours_all_win = Side("zhuoji", F_ALL, ALL_FORMS.is_win)
    ours_riichi = Side("zhuoji", F_RIICHI, RIICHI_FORMS.shanten)
    ours_all = Side("zhuoji", F_ALL, ALL_FORMS.shanten)
    riichi_wins = pick((xt, "win"), (rv, "win"), (mj, "win"))
    riichi_shanten = pick((rv, "shanten"), (xt, "shanten"), (mj, "shanten"))
    all_shanten = pick((rv, "shanten"), (xt, "shanten"), (gb, "all"))
    all_explain: list[Explain] = [shisanlan_decides, long_qidui, gb_knitted]
    i15, i29 = 15, 29
    return [
        Row("win-winning14", "win check, winning 14", "win14", ours_riichi_win, riichi_wins,
            {"xiangting": (1.0, i15)}),
        Row("win-random14", "win check, random 14", "random14", ours_riichi_win, riichi_wins,
            {"xiangting": (1.0, i15), "riichienv": (1.0, i29)}),
        Row("win-random14-all", "win check, random 14", "random14", ours_all_win, riichi_wins,
            explain=all_explain),
        Row("shanten-standard", "shanten, random 13", "random13",
            Side("zhuoji", F_STD, zh.shanten_standard), pick((mj, "standard"))),
        Row("shanten-random13", "shanten, random 13", "random13", ours_riichi, riichi_shanten,
            {"riichienv": (1.0, i29), "xiangting": (0.7, i15)}),
        Row("shanten-ready13", "shanten, ready 13", "ready13", ours_riichi, riichi_shanten,
            {"riichienv": (1.0, i29), "xiangting": (0.7, i15)}),
        Row("shanten-all-random13", "shanten, random 13", "random13", ours_all, all_shanten,
            {"riichienv": (1.0, i29), "xiangting": (0.7, i15), "PyMahjongGB": (0.7, i15)},
            all_explain),
        Row("shanten-all-ready13", "shanten, ready 13", "ready13", ours_all, all_shanten,
            {"riichienv": (1.0, i29), "xiangting": (0.7, i15), "PyMahjongGB": (0.7, i15)},
            all_explain),
        Row("waits-ready13", "waits, ready 13", "ready13",
            Side("zhuoji", F_RIICHI, RIICHI_FORMS.waits),
            pick((rv, "waits"), (xt, "waits"), (mj, "waits")), {"riichienv": (1.0, i15)}),
        Row("waits-ready13-gb", "waits, ready 13", "ready13", Side("zhuoji", F_PLAIN, zh.waits),
            pick((gb, "waits")), explain=[fifth_copy]),
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------
# comparison and timing
# ---------------------------------------------------------------------------------------


@dataclass
class Timing:
    cpu: float = float("inf")
    wall: float = float("inf")

    def keep(self, cpu: float, wall: float) -> None:
        self.cpu = min(self.cpu, cpu)
        self.wall = min(self.wall, wall)


def run_pass(fn: Callable[..., Any], inputs: list[Args]) -> None:
    """One call a hand, in C: the loop the timings and the instruction counts measure."""
    deque(starmap(fn, inputs), maxlen=0)


def one_pass(fn: Callable[..., Any], inputs: list[Args]) -> tuple[float, float]:
    w0, c0 = time.perf_counter(), time.process_time()
    run_pass(fn, inputs)
    return time.process_time() - c0, time.perf_counter() - w0


def compare(
    row: Row, peer: Side, hands: list[Counts]
) -> tuple[dict[str, list[Counts]], list[Counts]]:
    """Hands that differ, by documented reason, and the hands no reason explains."""
    reasons: dict[str, list[Counts]] = {}
    unexplained: list[Counts] = []
    for c in hands:
        ours = row.ours.answer(row.ours.call(*row.ours.prepare(list(c))))
        theirs = peer.answer(peer.call(*peer.prepare(list(c))))
        if ours == theirs:
            continue
        why = next((r for f in row.explain if (r := f(c, ours, theirs))), None)
        if why is None:
            unexplained.append(c)
        else:
            reasons.setdefault(why, []).append(c)
    return reasons, unexplained


def time_row(row: Row, hands: list[Counts], repeat: int) -> list[Timing]:
    """Best CPU and wall time per hand (µs) of each side, zhuoji first, passes alternating.

    Each round runs each side twice in a row, and the best of all its passes is kept: a
    pass right after another side's runs slower (the pure-Python peer leaves the caches
    and the branch predictor cold), so the second finds them as the side's own first left
    them, whichever side ran before."""
    inputs = [[side.prepare(list(c)) for c in hands] for side in row.sides]
    timings = [Timing() for _ in row.sides]
    for _ in range(repeat):
        for side, side_inputs, timing in zip(row.sides, inputs, timings, strict=True):
            for _twice in range(2):
                timing.keep(*one_pass(side.call, side_inputs))
    for t in timings:
        t.cpu *= 1e6 / len(hands)
        t.wall *= 1e6 / len(hands)
    return timings


def first_pass(hands: list[Counts]) -> str:
    """Two passes of the all-forms shanten over hands this run has not seen: the first
    finds the table entries they read cold."""
    inputs = [(c,) for c in hands]
    cold = one_pass(ALL_FORMS.shanten, inputs)[0]
    warm = one_pass(ALL_FORMS.shanten, inputs)[0]
    quads = sum(4 in c for c in hands)
    return (
        f"shanten, all forms, {len(hands)} ready hands not seen before ({quads} holding a "
        f"four-of-a-kind): {cold * 1e6 / len(hands):.2f} µs a hand the first pass, "
        f"{warm * 1e6 / len(hands):.2f} the next"
    )


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


def target_text(row: Row, side: Side, ratio: float) -> str:
    goal = row.targets.get(side.name)
    if goal is None:
        return "—"
    low, issue = goal
    return f"≥{low:.1f}× #{issue} {'ok' if ratio >= low else 'MISSED'}"


# ---------------------------------------------------------------------------------------
# instructions (callgrind)
# ---------------------------------------------------------------------------------------

#: the C function that runs one call of the measured loop (run_pass): only it is counted
LOOP_SYMBOL = "starmap_next"
#: called after each measured pass: callgrind writes the pass's count to a file of its own
#: (``--dump-after``) and starts the next from zero
DUMP_SYMBOL = "os_getppid"
TOTALS = re.compile(r"^totals:\s+(\d+)", re.MULTILINE)


def count_child(table: list[Row], hands: int, seed: int) -> None:
    """Under callgrind: every side of every row on the first ``hands`` hands of its set, two
    warm-up passes (not counted), one counted pass, then a dump; last the loop alone (len
    on the first row's arguments)."""
    hand_sets = make_hands(hands, seed)
    for row in table:
        for side in row.sides:
            inputs = [side.prepare(list(c)) for c in hand_sets[row.hands]]
            for _ in range(2):  # outside starmap_next, so not counted
                for args in inputs:
                    side.call(*args)
            run_pass(side.call, inputs)
            os.getppid()
    run_pass(len, [(c,) for c in hand_sets[table[0].hands]])
    os.getppid()


def instruction_table(table: list[Row], hands: int, seed: int, argv: list[str]) -> None:
    """Runs :func:`count_child` under callgrind and prints instructions a call."""
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed (apt-get install valgrind)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--collect-atstart=no",
            f"--toggle-collect={LOOP_SYMBOL}",
            f"--dump-after={DUMP_SYMBOL}",
            sys.executable,
            os.path.abspath(__file__),
            *argv,
            "--count-instructions",
        ]
        env = dict(os.environ, PYTHONHASHSEED="0")
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        passes = sum(len(row.sides) for row in table) + 1
        dumps = [Path(f"{out}.{part}") for part in range(1, passes + 2)]
        found = [TOTALS.search(d.read_text()) if d.exists() else None for d in dumps[:-1]]
        if done.returncode or dumps[-1].exists() or not all(found):
            raise RuntimeError(f"callgrind run failed: {' '.join(command)}\n{done.stderr[-3000:]}")
        totals = [int(m.group(1)) / hands for m in found if m is not None]
    print()
    print(
        f"instructions a call (callgrind: the first {hands} hands of each set, two warm-up "
        f"passes, then one counted inside {LOOP_SYMBOL}; a busy machine does not change them)"
    )
    header = f"{'operation':21} {'side':12} {'forms':15} {'instr':>9} {'ratio':>8}  target"
    print(header)
    print("-" * len(header))
    at = 0
    for row in table:
        ours = totals[at]
        label = row.label
        for side in row.sides:
            n = totals[at]
            at += 1
            if side is row.ours:
                print(f"{label:21} {side.name:12} {side.forms:15} {n:9,.0f}")
            else:
                ratio = n / ours
                goal = target_text(row, side, ratio)
                print(f"{'':21} {side.name:12} {side.forms:15} {n:9,.0f} {ratio:7.2f}×  {goal}")
            label = ""
    print(f"(the loop alone, calling len: {totals[at]:,.0f} instructions a call, in every count)")


# ---------------------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------------------


def load_text() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load average unknown"
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=at_least(1), default=2000, help="hands per set (default 2000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--repeat", type=at_least(1), default=7, help="rounds of two passes a side, best kept"
    )
    parser.add_argument(
        "--rows", default="", help="only the rows whose key contains this text (e.g. win-)"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions a call under callgrind (valgrind; a minute or two)",
    )
    parser.add_argument(
        "--instruction-hands",
        type=at_least(1),
        default=200,
        help="hands a side runs under callgrind (default 200)",
    )
    parser.add_argument("--count-instructions", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    table = [row for row in rows() if args.rows in row.key]
    if not table:
        parser.error(f"--rows: no row key contains {args.rows!r}")
    instruction_hands = min(args.instruction_hands, args.hands)
    if args.count_instructions:
        count_child(table, instruction_hands, args.seed)
        return 0
    hand_sets = make_hands(args.hands, args.seed)
    kernel = compiled.select("hand_kernel")
    build = "compiled (mypyc)" if compiled.is_compiled(kernel) else "pure Python"
    print(
        f"zhuoji.hand vs peers — {args.hands} hands per set, seed {args.seed}, best of "
        f"{args.repeat} alternating rounds of two passes a side; kernel {build}; Python "
        f"{platform.python_version()}"
        f" on {platform.machine()}; {load_text()}"
    )
    print(
        "forms: std standard, 7p seven pairs (a four-of-a-kind as two pairs), 7p≠ seven "
        "different pairs, 13y thirteen orphans, 13l 十三烂, gbk GB's 全不靠 and 组合龙"
    )
    if MISSING:
        print(f"not installed, left out: {', '.join(MISSING)} (pip install -e '.[bench]')")

    notes: list[str] = []
    failed = False
    for row in table:
        for peer in row.peers:
            reasons, unexplained = compare(row, peer, hand_sets[row.hands])
            where = f"{row.label} ({row.ours.forms}) vs {peer.name} ({peer.forms})"
            for why, cases in sorted(reasons.items()):
                notes.append(
                    f"{where}: {len(cases)} differ by {why}, first {format_counts(cases[0])}"
                )
            if unexplained:
                failed = True
                notes.append(
                    f"{where}: {len(unexplained)} differ UNEXPLAINED, first "
                    f"{format_counts(unexplained[0])} {unexplained[0]}"
                )

    header = (
        f"{'operation':21} {'side':12} {'forms':15} {'µs CPU':>7} {'ratio CPU':>9} "
        f"{'ratio wall':>10}  target"
    )
    print()
    print(header)
    print("-" * len(header))
    for row in table:
        timings = time_row(row, hand_sets[row.hands], args.repeat)
        ours = timings[0]
        label = row.label
        print(f"{label:21} {row.ours.name:12} {row.ours.forms:15} {ours.cpu:7.2f}")
        for peer, t in zip(row.peers, timings[1:], strict=True):
            ratio, wall_ratio = t.cpu / ours.cpu, t.wall / ours.wall
            print(
                f"{'':21} {peer.name:12} {peer.forms:15} {t.cpu:7.2f} {ratio:8.2f}× "
                f"{wall_ratio:9.2f}×  {target_text(row, peer, ratio)}"
            )
        if not row.peers:
            print(f"{'':21} (no peer installed)")
    print("(µs a hand in CPU time; ratio = their time / ours, above 1 zhuoji is faster)")
    print()
    print("answers compared before timing:")
    for note in notes or ["every answer agrees"]:
        print(f"  {note}")
    print()
    print(first_pass(make_hands(args.hands, args.seed + 1, only="ready13")["ready13"]))
    print(import_cost())
    if args.instructions:
        same = ["--hands", str(args.hands), "--seed", str(args.seed), "--rows", args.rows]
        same += ["--instruction-hands", str(instruction_hands)]
        instruction_table(table, instruction_hands, args.seed, same)
    print(f"at the end: {load_text()}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
