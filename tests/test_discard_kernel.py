"""The compiled discard kernel gives the pure-Python one's answers (zhuoji.discard_kernel).

Both builds run the same source; the compiled one (``zhuoji._compiled``, built with the hand
kernel's group) is compared with the module run as Python on random hands of 14, 11, 8 and 5
tiles, quads included, with random live counts, under every form set the kernel reads.  The
answers themselves are checked against ``HandRules`` by
``tests/test_agents.py::test_discard_options_match_brute_force``.  Without a compiled build
the comparison skips, unless ``ZHUOJI_REQUIRE_COMPILED=1`` (as CI sets).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

import pytest
from compiled_support import compiled_or_skip

from zhuoji import compiled, discard_kernel

SWITCHES = [
    forms | q2
    for forms in (0, discard_kernel.SEVEN_PAIRS, discard_kernel.SHISANYAO)
    for q2 in (0, discard_kernel.QUADS_AS_TWO_PAIRS)
] + [discard_kernel.SEVEN_PAIRS | discard_kernel.SHISANYAO]


@pytest.fixture(scope="module")
def kernels() -> tuple[ModuleType, ModuleType]:
    pure = importlib.import_module("zhuoji.discard_kernel")
    assert not compiled.is_compiled(pure)
    return pure, compiled_or_skip("discard_kernel")


def _random_hand(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles, half of the hands drawn from a few kinds (pairs, sets and quads)."""
    c = [0] * 34
    kinds = rng.sample(range(34), 7) if rng.random() < 0.5 else list(range(34))
    while sum(c) < size:
        k = rng.choice(kinds)
        if c[k] < 4:
            c[k] += 1
    return c


def _fields(options: list[discard_kernel.DiscardOption]) -> list[tuple[object, ...]]:
    """The options' fields (each build has its own DiscardOption class)."""
    return [(o.tile, o.shanten, o.ukeire, o.improving) for o in options]


def test_compiled_discard_kernel_matches_pure(kernels: tuple[ModuleType, ModuleType]) -> None:
    pure, fast = kernels
    rng = random.Random(11)
    for _ in range(1500):
        c = _random_hand(rng, rng.choice([14, 14, 11, 8, 5]))
        live = [max(0, 4 - c[k] - rng.randint(0, 3)) for k in range(34)]
        kinds = [k for k in range(34) if c[k]]
        switches = rng.choice(SWITCHES)
        only_best = rng.random() < 0.5
        before = list(c)
        got = _fields(fast.discard_options(c, kinds, live, switches, only_best))
        assert got == _fields(pure.discard_options(c, kinds, live, switches, only_best)), c
        assert c == before  # the caller's counts are left as they were
        assert [o[0] for o in got] == kinds
        shanten = fast.discard_shanten(c, kinds, switches)
        assert shanten == pure.discard_shanten(c, kinds, switches) == [o[1] for o in got]


def test_unseen_is_the_copies_less_the_seen(kernels: tuple[ModuleType, ModuleType]) -> None:
    rng = random.Random(12)
    for kernel in kernels:
        for _ in range(200):
            copies = [rng.choice([0, 4]) for _ in range(34)]
            seen = [rng.randint(0, 5) for _ in range(34)]
            want = [max(0, x - v) for x, v in zip(copies, seen, strict=True)]
            assert kernel.unseen(copies, seen) == want


def test_memoized_improving_tiles_match_a_cold_memo() -> None:
    """The per-group improving tiles are memoized across hands (``_GROUP_IMPROVING``), keyed
    by everything the answer reads: a warm memo answers as a cleared one, for every build,
    on hands of every size (distance slot), honors included, whose groups repeat in other
    company (the product class of the other groups)."""
    builds = [discard_kernel]
    fast = compiled.compiled_module("discard_kernel")
    if fast is not None:
        builds.append(fast)
    for kernel in builds:
        rng = random.Random(13)
        cases = []
        for _ in range(600):
            c = _random_hand(rng, rng.choice([14, 11, 8, 5]))
            live = [max(0, 4 - c[k] - rng.randint(0, 2)) for k in range(34)]
            cases.append((c, [k for k in range(34) if c[k]], live, rng.choice(SWITCHES)))
        kernel._GROUP_IMPROVING.clear()
        warm = [_fields(kernel.discard_options(c, k, lv, s, False)) for c, k, lv, s in cases]
        assert len(kernel._GROUP_IMPROVING) > 0
        for (c, kinds, live, switches), got in zip(cases, warm, strict=True):
            kernel._GROUP_IMPROVING.clear()
            assert got == _fields(kernel.discard_options(c, kinds, live, switches, False)), c
