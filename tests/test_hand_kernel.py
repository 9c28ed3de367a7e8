"""The compiled hand kernel gives the pure-Python kernel's answers (zhuoji.hand_kernel).

Both builds run the same source; this checks the compiled one (``zhuoji._compiled``, made by
mypyc at install) against the module run as Python, function by function, on random hands of
every size, with honors, quads and jokers.  Without a compiled build the comparison skips,
unless ``ZHUOJI_REQUIRE_COMPILED=1`` (as CI sets), where a missing or stale build fails.
"""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from zhuoji import compiled, hand, hand_kernel

REQUIRE = os.environ.get("ZHUOJI_REQUIRE_COMPILED", "") not in ("", "0")
HANDS = 3000


def _compiled_kernel() -> ModuleType:
    module = compiled.compiled_module("hand_kernel")
    if module is None:
        if REQUIRE:
            pytest.fail(
                "ZHUOJI_REQUIRE_COMPILED is set but zhuoji._compiled.hand_kernel is missing"
            )
        pytest.skip("no compiled build (pure-Python install)")
    return module


@pytest.fixture(scope="module")
def kernels() -> tuple[ModuleType, ModuleType]:
    pure = importlib.import_module("zhuoji.hand_kernel")
    assert not compiled.is_compiled(pure)
    return pure, _compiled_kernel()


def random_hands(seed: int, count: int) -> list[list[int]]:
    """Hands of 0–14 tiles from the full 136-tile set, half of them built from sets and
    pairs (so complete, ready and quad-holding hands are common)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        c = [0] * 34
        size = rng.choice([1, 2, 4, 5, 7, 8, 10, 11, 13, 13, 13, 14, 14, 14])
        if i % 2:
            pool = [k for k in range(34) for _ in range(4)]
            for k in rng.sample(pool, size):
                c[k] += 1
        else:
            while sum(c) + 3 <= size:
                k = rng.randrange(34)
                if k < 27 and k % 9 <= 6 and rng.random() < 0.5:
                    if max(c[k], c[k + 1], c[k + 2]) < 4:
                        c[k] += 1
                        c[k + 1] += 1
                        c[k + 2] += 1
                elif c[k] <= 1:
                    c[k] += 3
            while sum(c) < size:
                k = rng.randrange(34)
                if c[k] < 4:
                    c[k] += 1
        out.append(c)
    return out


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> object:
    """The value, or the exception's type and message (both builds must fail alike)."""
    try:
        return fn(*args, **kwargs)
    except (ValueError, IndexError) as error:
        return (type(error).__name__, str(error))


FLAGS = [
    (s, p, lan, q)
    for s in (False, True)
    for p in (False, True)
    for lan in (False, True)
    for q in (False, True)
    if s or p or lan
]


def test_compiled_kernel_matches_pure_on_random_hands(
    kernels: tuple[ModuleType, ModuleType],
) -> None:
    pure, fast = kernels
    checked = 0
    for c in random_hands(15, HANDS):
        as_tuple = tuple(c)
        for name in (
            "is_win",
            "waits",
            "shanten",
            "shanten_standard",
            "hand_vector",
            "is_standard_win",
            "is_seven_pairs",
            "is_shisanlan",
            "quads",
            "is_ready",
        ):
            assert outcome(getattr(fast, name), c) == outcome(getattr(pure, name), c), (name, c)
            assert outcome(getattr(fast, name), as_tuple) == outcome(getattr(pure, name), c)
        for jokers in (0, 1, 2):
            for wild in (False, True):
                assert outcome(fast.standard_distance, c, jokers, wild_in_play=wild) == outcome(
                    pure.standard_distance, c, jokers, wild_in_play=wild
                ), (c, jokers, wild)
            for q in (False, True):
                assert fast.seven_pairs_distance(
                    c, jokers, quads_as_two_pairs=q
                ) == pure.seven_pairs_distance(c, jokers, quads_as_two_pairs=q)
            assert fast.shisanlan_distance(c, jokers) == pure.shisanlan_distance(c, jokers)
        for flags in FLAGS:
            for name in ("forms_distance", "forms_is_win", "forms_waits"):
                assert outcome(getattr(fast, name), c, *flags) == outcome(
                    getattr(pure, name), c, *flags
                ), (name, c, flags)
        for q in (False, True):
            assert outcome(fast.forms_shanten_floor, c, q) == outcome(
                pure.forms_shanten_floor, c, q
            )
        for group in range(4):
            assert fast.group_index(c, group) == pure.group_index(c, group)
        assert c == list(as_tuple)  # nothing wrote to the caller's list
        checked += 1
    assert checked == HANDS


def test_shisanlan_hands_match(kernels: tuple[ModuleType, ModuleType]) -> None:
    """十三烂 needs fourteen distinct kinds, which random hands rarely hold."""
    pure, fast = kernels
    rng = random.Random(7)
    for _ in range(2000):
        c = [0] * 34
        for k in rng.sample(range(34), rng.choice([13, 14])):
            c[k] = 1
        for flags in FLAGS:
            for name in ("forms_distance", "forms_is_win", "forms_waits"):
                assert getattr(fast, name)(c, *flags) == getattr(pure, name)(c, *flags)
        assert fast.shisanlan_distance(c) == pure.shisanlan_distance(c)


def test_hand_runs_the_selected_kernel() -> None:
    """zhuoji.hand's functions are the selected kernel's own (no wrapper in between)."""
    chosen = compiled.select("hand_kernel")
    assert hand.is_win is chosen.is_win
    assert hand.waits is chosen.waits
    assert hand.shanten is chosen.shanten
    if REQUIRE:
        assert compiled.is_compiled(chosen), "CI expects the compiled kernel to be selected"


def test_compiled_build_is_current() -> None:
    """The build records its source's hash; a stale build is never run (and CI rebuilds)."""
    module = _compiled_kernel()
    source = compiled.source_path("hand_kernel")
    assert source == Path(hand_kernel.__file__)
    assert getattr(module, compiled.HASH_ATTR) == compiled.source_hash(source)
