"""The discard kernel (zhuoji.discard_kernel) against a reference, and its two builds.

Both builds run the same source; the compiled one (``zhuoji._compiled``, built with the hand
kernel's group) is compared with the module run as Python on random hands of 14, 11, 8, 5 and
2 tiles, quads included, with random live counts, under every form set the kernel reads.
Both are compared with :func:`_reference`, which works every discard and every added tile
out one hand at a time from the hand kernel's public distances.  The answers are also
checked against ``HandRules`` by
``tests/test_agents.py::test_discard_options_match_brute_force``.  Without a compiled build
the comparison of the builds skips, unless ``ZHUOJI_REQUIRE_COMPILED=1`` (as CI sets).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

import pytest
from compiled_support import compiled_or_skip

from zhuoji import compiled, discard_kernel, hand_kernel

SP = discard_kernel.SEVEN_PAIRS
YAO = discard_kernel.SHISANYAO
Q2 = discard_kernel.QUADS_AS_TWO_PAIRS
#: every combination of the switches the kernel reads
SWITCHES = [sp | yao | q2 for sp in (0, SP) for yao in (0, YAO) for q2 in (0, Q2)]
SIZES = (14, 11, 8, 5, 2)
FAR = hand_kernel.FAR


@pytest.fixture(scope="module")
def kernels() -> tuple[ModuleType, ModuleType]:
    pure = importlib.import_module("zhuoji.discard_kernel")
    assert not compiled.is_compiled(pure)
    return pure, compiled_or_skip("discard_kernel")


def _builds() -> list[ModuleType]:
    """The pure-Python module, and the compiled one when it was built."""
    fast = compiled.compiled_module("discard_kernel")
    return [discard_kernel] if fast is None else [discard_kernel, fast]


def _random_hand(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles, half of the hands drawn from a few kinds (pairs, sets and quads)."""
    c = [0] * 34
    kinds = rng.sample(range(34), 7) if rng.random() < 0.5 else list(range(34))
    while sum(c) < size:
        k = rng.choice(kinds)
        if c[k] < 4:
            c[k] += 1
    return c


def _random_call(
    rng: random.Random, size: int
) -> tuple[list[int], list[int], list[int], int, bool]:
    """A hand of ``size`` tiles, the discards asked about (every kind held, or now and then
    a few of them), live counts, the switches and ``only_best``."""
    c = _random_hand(rng, size)
    held = [k for k in range(34) if c[k]]
    kinds = held if rng.random() < 0.8 else sorted(rng.sample(held, rng.randint(1, len(held))))
    if rng.random() < 0.5:  # as in play: the copies not held, less some seen
        live = [max(0, 4 - c[k] - rng.randint(0, 3)) for k in range(34)]
    else:  # any live counts (a kind held four times may have some)
        live = [rng.randint(0, 2) * rng.randint(0, 2) for _ in range(34)]
    return c, kinds, live, rng.choice(SWITCHES), rng.random() < 0.5


def _random_calls(seed: int, count: int) -> list[tuple[list[int], list[int], list[int], int, bool]]:
    rng = random.Random(seed)
    return [_random_call(rng, SIZES[i % len(SIZES)]) for i in range(count)]


def _fields(options: list[discard_kernel.DiscardOption]) -> list[tuple[object, ...]]:
    """The options' fields (each build has its own DiscardOption class)."""
    return [(o.tile, o.shanten, o.ukeire, o.improving) for o in options]


def _reference(
    c: list[int], kinds: list[int], live: list[int], switches: int, only_best: bool
) -> list[tuple[object, ...]]:
    """What ``discard_options`` answers, one discard and one added tile at a time.

    The distance after a discard is the least of the forms that apply: the standard form
    always, from the raw tables (a kind held four times reads as one more copy away) at the
    slot of the hand's size; seven pairs and 十三幺 as ``switches`` say, when the hand holds
    fourteen tiles.  A live kind held fewer than four times after the discard improves it
    when it lowers a form whose distance is the least; but not seven pairs with the
    discarded kind itself when it was held four times and the hand lacks no kinds (the
    kernel counts only kinds held once or three times then; in play such a kind has no live
    copy)."""
    n = sum(c)
    slot = 2 * (n // 3) + 1
    pairs = bool(switches & SP) and n >= 14
    yao = bool(switches & YAO) and n >= 14
    q2 = bool(switches & Q2)

    def forms(h: list[int]) -> tuple[int, int, int]:
        return (
            hand_kernel.hand_vector(h)[slot],
            hand_kernel.seven_pairs_distance(h, quads_as_two_pairs=q2) if pairs else FAR,
            hand_kernel.shisanyao_distance(h) if yao else FAR,
        )

    after = {}
    for d in kinds:
        h = list(c)
        h[d] -= 1
        after[d] = (h, forms(h))
    best = min(min(f) for _, f in after.values())
    out: list[tuple[object, ...]] = []
    for d in kinds:
        h, (s, p, y) = after[d]
        dist = min(s, p, y)
        if only_best and dist > best:
            out.append((d, dist - 1, -1, ()))
            continue
        hist = [sum(1 for x in h if x == times) for times in range(5)]
        lacking = 7 - min(hist[2] + hist[3] + 2 * hist[4], 7) > hist[1] + hist[3]
        improving = []
        for t in range(34):
            if live[t] <= 0 or h[t] >= 4:
                continue
            h[t] += 1
            s2, p2, y2 = forms(h)
            h[t] -= 1
            if (
                (s == dist and s2 < dist)
                or (p == dist and p2 < dist and not (t == d and c[d] == 4 and q2 and not lacking))
                or (y == dist and y2 < dist)
            ):
                improving.append(t)
        out.append((d, dist - 1, sum(live[t] for t in improving), tuple(improving)))
    return out


@pytest.mark.parametrize("size", SIZES)
def test_discard_options_match_the_reference(size: int) -> None:
    """Every build, on random hands of one size under every switch combination."""
    for kernel in _builds():
        rng = random.Random(20 + size)
        for i in range(320):
            c, kinds, live, _, only_best = _random_call(rng, size)
            switches = SWITCHES[i % len(SWITCHES)]
            before = list(c)
            got = _fields(kernel.discard_options(c, kinds, live, switches, only_best))
            assert got == _reference(c, kinds, live, switches, only_best), (c, kinds, switches)
            assert c == before  # the caller's counts are left as they were
            shanten = kernel.discard_shanten(c, kinds, switches)
            assert shanten == [o[1] for o in got]


def test_compiled_discard_kernel_matches_pure(kernels: tuple[ModuleType, ModuleType]) -> None:
    pure, fast = kernels
    for c, kinds, live, switches, only_best in _random_calls(11, 2500):
        before = list(c)
        got = _fields(fast.discard_options(c, kinds, live, switches, only_best))
        assert got == _fields(pure.discard_options(c, kinds, live, switches, only_best)), c
        assert c == before  # the caller's counts are left as they were
        assert [o[0] for o in got] == kinds
        shanten = fast.discard_shanten(c, kinds, switches)
        assert shanten == pure.discard_shanten(c, kinds, switches) == [o[1] for o in got]


def test_tables_are_those_of_the_hand_kernel() -> None:
    """The kernel's own tables are read off the hand kernel's: the 十三幺 kinds, every kind,
    and each distance slot's column of the class vectors."""
    for kernel in _builds():
        assert sum(1 << k for k in hand_kernel.ORPHANS) == kernel._ORPHAN_BITS
        assert kernel._ALL_BITS == (1 << hand_kernel.NUM_KINDS) - 1
        vectors = hand_kernel._VEC
        for slot, column in enumerate(kernel._COLUMNS):
            assert list(column) == [v[slot] for v in vectors]


def test_part_kinds_are_keyed_by_group_and_bits() -> None:
    """``_part_kinds`` remembers each group's kinds of a nine-bit part of a kind mask (a
    fixed table of 4 × 512 slots, filled when first asked, keyed by the group and the bits):
    asked in a random order, cold and then warm, it answers the kinds of that group."""
    rng = random.Random(14)
    asks = [(g, part) for g in range(4) for part in range(1, 1 << (7 if g == 3 else 9))]
    for kernel in _builds():
        table = kernel._PART_KINDS
        for i in range(len(table)):
            table[i] = None
        for _ in range(2):
            rng.shuffle(asks)
            for g, part in asks:
                want = tuple(9 * g + r for r in range(9) if part >> r & 1)
                assert kernel._part_kinds(g, part) == want
        assert len(table) == 4 << 9


#: form switches of wild-tile tables (六安: standard, seven pairs, 十三烂), with and without
#: the options, and every form alone
_WILD_SWITCHES = [
    hand_kernel.STANDARD | hand_kernel.SEVEN_PAIRS | hand_kernel.SHISANLAN,
    hand_kernel.STANDARD | hand_kernel.SEVEN_PAIRS | hand_kernel.SHISANLAN | Q2,
    hand_kernel.STANDARD
    | hand_kernel.SEVEN_PAIRS
    | hand_kernel.SHISANLAN
    | hand_kernel.SHISANYAO
    | hand_kernel.STRICT_LAN,
    hand_kernel.STANDARD,
    hand_kernel.STANDARD | hand_kernel.SEVEN_PAIRS | Q2,
    hand_kernel.SHISANLAN | hand_kernel.STRICT_LAN,
    hand_kernel.SHISANYAO,
]


def _wild_reference(
    c: list[int],
    kinds: list[int],
    live: list[int],
    wild: int,
    stand_in: int,
    switches: int,
    only_best: bool,
) -> list[tuple[object, ...]]:
    """What ``wild_discard_options`` answers, from its definition: each discard's shanten
    is ``forms_shanten_wild`` of the hand less it, and a live kind held fewer than four
    times then improves it when one more copy lowers that shanten (one
    ``forms_shanten_wild`` a discard and added kind)."""
    k = hand_kernel
    shanten = []
    for d in kinds:
        less = list(c)
        less[d] -= 1
        shanten.append(k.forms_shanten_wild(less, wild, stand_in, switches))
    best = min(shanten, default=FAR)
    out: list[tuple[object, ...]] = []
    for d, s in zip(kinds, shanten, strict=True):
        if only_best and s > best:
            out.append((d, s, -1, ()))
            continue
        less = list(c)
        less[d] -= 1
        improving = []
        for t in range(34):
            if live[t] > 0 and less[t] < 4:
                less[t] += 1
                if k.forms_shanten_wild(less, wild, stand_in, switches) < s:
                    improving.append(t)
                less[t] -= 1
        out.append((d, s, sum(live[t] for t in improving), tuple(improving)))
    return out


def _wild_call(rng: random.Random, size: int) -> tuple[list[int], list[int], list[int], int, int]:
    """A hand of ``size`` tiles holding the wild kind or its stand-in often (up to four
    copies), the discards asked about, live counts, the wild kind and the stand-in (-1,
    the wild itself, 红中 as in 六安, or any kind)."""
    wild = rng.randrange(34)
    stand_in = rng.choice([-1, wild, 31, 31, rng.randrange(34)])
    c = _random_hand(rng, size)
    for _ in range(rng.randrange(4)):
        k = rng.choice([wild, stand_in if stand_in >= 0 else wild])
        held = [t for t in range(34) if c[t] and t != k]
        if held and c[k] < 4:
            c[rng.choice(held)] -= 1
            c[k] += 1
    held = [k for k in range(34) if c[k]]
    kinds = held if rng.random() < 0.8 else sorted(rng.sample(held, rng.randint(1, len(held))))
    live = [max(0, 4 - c[k] - rng.randint(0, 3)) for k in range(34)]
    return c, kinds, live, wild, stand_in


@pytest.mark.parametrize("size", SIZES)
def test_wild_discard_options_are_their_definition(size: int) -> None:
    """``wild_discard_options`` (every discard of a hand holding wild tiles at once, each
    distance from one pass and each discard's improving kinds from one read of each reading
    of the stand-ins) gives what one ``forms_shanten_wild`` per discard and added kind
    gives — the bots' answers before, when each best discard asked ``forms_ukeire_wild`` —
    in every build, on random hands under wild-tile form switches, with and without
    ``only_best``; the caller's counts are left as they were."""
    for kernel in _builds():
        rng = random.Random(40 + size)
        for i in range(150):
            c, kinds, live, wild, stand_in = _wild_call(rng, size)
            switches = _WILD_SWITCHES[i % len(_WILD_SWITCHES)]
            only_best = i % 3 != 0
            before = list(c)
            got = _fields(
                kernel.wild_discard_options(c, kinds, live, wild, stand_in, switches, only_best)
            )
            want = _wild_reference(c, kinds, live, wild, stand_in, switches, only_best)
            assert got == want, (c, kinds, wild, stand_in, switches, only_best)
            assert c == before
            for d, s, count, improving in got:
                if count >= 0:  # the same as forms_ukeire_wild of the hand less d
                    less = list(c)
                    less[d] -= 1
                    ukeire = hand_kernel.forms_ukeire_wild(less, live, wild, stand_in, switches)
                    assert (s, count, improving) == (ukeire[0], ukeire[1], tuple(ukeire[2]))


def test_wild_discard_options_fail_on_a_hand_too_large() -> None:
    """A hand of 15 tiles fails as asking ``forms_ukeire_wild`` of its best discard did
    (the hand less it is too large to add a kind to), in every build."""
    c = [0] * 34
    for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 31, 31, 5):
        c[k] += 1
    live = [2] * 34
    kinds = [k for k in range(34) if c[k]]
    less = list(c)
    less[5] -= 1  # the best discard
    with pytest.raises(ValueError) as want:
        hand_kernel.forms_ukeire_wild(less, live, 4, 31, hand_kernel.STANDARD)
    for kernel in _builds():
        with pytest.raises(ValueError) as got:
            kernel.wild_discard_options(c, kinds, live, 4, 31, hand_kernel.STANDARD, True)
        assert str(got.value) == str(want.value)
