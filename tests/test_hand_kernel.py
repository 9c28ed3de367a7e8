"""The compiled hand kernel gives the pure-Python kernel's answers (zhuoji.hand_kernel).

Both builds run the same source; this checks the compiled one (``zhuoji._compiled``, made by
mypyc at install) against the module run as Python, function by function, on random hands of
every size, with honors, quads and jokers.  Without a compiled build the comparison skips,
unless ``ZHUOJI_REQUIRE_COMPILED=1`` (as CI sets), where a missing or stale build fails.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from compiled_support import REQUIRE, compiled_or_skip

from zhuoji import compiled, hand, hand_kernel

HANDS = 3000


def _compiled_kernel() -> ModuleType:
    return compiled_or_skip("hand_kernel")


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


FORMS = (
    hand_kernel.STANDARD,
    hand_kernel.SEVEN_PAIRS,
    hand_kernel.SHISANLAN,
    hand_kernel.SHISANYAO,
)
#: every form set (none included: FAR, nothing wins), with every way of reading the forms
SWITCHES = [
    sum(form for i, form in enumerate(FORMS) if chosen >> i & 1) | options
    for chosen in range(1 << len(FORMS))
    for options in (
        0,
        hand_kernel.STRICT_LAN,
        hand_kernel.QUADS_AS_TWO_PAIRS,
        hand_kernel.STRICT_LAN | hand_kernel.QUADS_AS_TWO_PAIRS,
    )
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
            "is_shisanyao",
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
            for strict in (False, True):
                assert fast.shisanlan_distance(c, jokers, strict) == pure.shisanlan_distance(
                    c, jokers, strict
                )
            assert fast.shisanyao_distance(c, jokers) == pure.shisanyao_distance(c, jokers)
            for switches in SWITCHES[:: 1 + jokers]:
                assert outcome(fast.forms_distance_jokers, c, jokers, switches) == outcome(
                    pure.forms_distance_jokers, c, jokers, switches
                ), (c, jokers, switches)
        assert fast.is_shisanlan(c, True) == pure.is_shisanlan(c, True)
        for switches in SWITCHES:
            for name in ("forms_distance", "forms_is_win", "forms_waits"):
                assert outcome(getattr(fast, name), c, switches) == outcome(
                    getattr(pure, name), c, switches
                ), (name, c, switches)
        for q in (False, True):
            assert outcome(fast.forms_shanten_floor, c, q) == outcome(
                pure.forms_shanten_floor, c, q
            )
        for group in range(4):
            assert fast.group_index(c, group) == pure.group_index(c, group)
        assert c == list(as_tuple)  # nothing wrote to the caller's list
        checked += 1
    assert checked == HANDS


def test_compiled_forms_methods_match_pure(kernels: tuple[ModuleType, ModuleType]) -> None:
    """``Forms`` (a form set's checks as methods, which ``HandRules`` binds) in both builds,
    and each method against the entry point it stands for."""
    pure, fast = kernels
    for switches in SWITCHES:
        mine, theirs = fast.Forms(switches), pure.Forms(switches)
        for c in random_hands(19, 150):
            for name, entry in (
                ("distance", "forms_distance"),
                ("is_win", "forms_is_win"),
                ("waits", "forms_waits"),
            ):
                want = outcome(getattr(pure, entry), c, switches)
                assert outcome(getattr(mine, name), c) == want, (name, c, switches)
                assert outcome(getattr(theirs, name), tuple(c)) == want, (name, c, switches)
            want = outcome(pure.forms_distance, c, switches)
            shanten = want - 1 if isinstance(want, int) else want
            assert outcome(mine.shanten, c) == outcome(theirs.shanten, c) == shanten
            assert mine.is_ready(c) == theirs.is_ready(c) == bool(pure.forms_waits(c, switches))


def _least_form_distance(c: list[int], jokers: int, switches: int) -> int:
    """What ``HandRules.distance`` computed with wild tiles, form by form, before
    ``forms_distance_jokers``: the least of each switched-on form's own distance."""
    k = hand_kernel
    best = k.FAR
    if switches & k.STANDARD:
        best = min(best, k.standard_distance(c, jokers, wild_in_play=True))
    if switches & k.SEVEN_PAIRS:
        q2 = bool(switches & k.QUADS_AS_TWO_PAIRS)
        best = min(best, k.seven_pairs_distance(c, jokers, quads_as_two_pairs=q2))
    if switches & k.SHISANLAN:
        best = min(best, k.shisanlan_distance(c, jokers, bool(switches & k.STRICT_LAN)))
    if switches & k.SHISANYAO:
        best = min(best, k.shisanyao_distance(c, jokers))
    return best


def test_forms_distance_jokers_is_the_least_form_distance() -> None:
    for c in random_hands(16, 400):
        for jokers in (0, 1, 2, 3):
            for switches in SWITCHES:
                assert outcome(hand_kernel.forms_distance_jokers, c, jokers, switches) == outcome(
                    _least_form_distance, c, jokers, switches
                ), (c, jokers, switches)


def test_shisanlan_hands_match(kernels: tuple[ModuleType, ModuleType]) -> None:
    """十三烂 needs fourteen distinct kinds, which random hands rarely hold; half of these
    are built from the literal triples 147/258/369 (strict hands and near misses)."""
    pure, fast = kernels
    rng = random.Random(7)
    for i in range(2000):
        c = [0] * 34
        if i % 2:
            kinds = rng.sample(range(34), rng.choice([13, 14]))
        else:
            triples = rng.sample(range(3), 3)
            suited = [9 * s + r for s, t in enumerate(triples) for r in range(t, 9, 3)]
            kinds = rng.sample(suited + list(range(27, 34)), rng.choice([13, 14]))
            if rng.random() < 0.3:  # one tile off its triple
                kinds[0] = rng.choice([k for k in range(34) if k not in kinds])
        for k in kinds:
            c[k] = 1
        for switches in SWITCHES:
            for name in ("forms_distance", "forms_is_win", "forms_waits"):
                assert getattr(fast, name)(c, switches) == getattr(pure, name)(c, switches)
        for strict in (False, True):
            assert fast.shisanlan_distance(c, 0, strict) == pure.shisanlan_distance(c, 0, strict)
            assert fast.is_shisanlan(c, strict) == pure.is_shisanlan(c, strict)


def test_shisanyao_hands_match(kernels: tuple[ModuleType, ModuleType]) -> None:
    """十三幺 needs the thirteen orphan kinds, which random hands rarely hold: the thirteen
    less up to two, plus up to three tiles (orphans nine times in ten)."""
    pure, fast = kernels
    rng = random.Random(13)
    for _ in range(2000):
        c = [0] * 34
        for k in rng.sample(hand_kernel.ORPHANS, 13 - rng.randrange(3)):
            c[k] = 1
        for _extra in range(rng.randrange(4)):
            k = rng.choice(hand_kernel.ORPHANS) if rng.random() < 0.9 else rng.randrange(34)
            c[k] = min(c[k] + 1, 4)
        for switches in SWITCHES:
            for name in ("forms_distance", "forms_is_win", "forms_waits"):
                assert outcome(getattr(fast, name), c, switches) == outcome(
                    getattr(pure, name), c, switches
                ), (name, c, switches)
        for jokers in (0, 1, 2):
            assert fast.shisanyao_distance(c, jokers) == pure.shisanyao_distance(c, jokers)
        assert fast.is_shisanyao(c) == pure.is_shisanyao(c)


def test_lan_table_is_the_generated_one() -> None:
    """The 十三烂 table ships precomputed (building it cost ~50 ms of every import as
    Python); it is what its generator makes, in both builds."""
    assert hand_kernel._lan_table() == hand_kernel._LAN
    module = compiled.compiled_module("hand_kernel")
    if module is not None:
        assert module._LAN == module._lan_table() == hand_kernel._LAN


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


def test_wild_entry_points_match_pure_and_the_readings(
    kernels: tuple[ModuleType, ModuleType],
) -> None:
    """The ``*_wild`` functions (a wild kind, a 红中配 stand-in or none) against the pure
    build, and the distance against its definition: the least over the readings of the
    stand-in copies, each with the wild's copies as jokers."""
    pure, fast = kernels
    rng = random.Random(17)
    for c in random_hands(18, 600):
        wild = rng.randrange(34)
        stand_in = rng.choice([-1, wild, rng.randrange(34)])
        for switches in SWITCHES[::3]:
            for name in (
                "forms_distance_wild",
                "forms_shanten_wild",
                "forms_is_win_wild",
                "forms_waits_wild",
            ):
                args = (c, wild, stand_in, switches)
                assert outcome(getattr(fast, name), *args) == outcome(getattr(pure, name), *args), (
                    name,
                    c,
                    wild,
                    stand_in,
                    switches,
                )
            held = [k for k in range(34) if c[k]]
            live = [max(0, 4 - c[k] - rng.randrange(3)) for k in range(34)]
            for name, args in (
                ("forms_ukeire_wild", (c, live, wild, stand_in, switches)),
                ("forms_discard_distances_wild", (c, held, wild, stand_in, switches)),
            ):
                assert outcome(getattr(fast, name), *args) == outcome(getattr(pure, name), *args), (
                    name,
                    c,
                    wild,
                    stand_in,
                    switches,
                )
            base = list(c)
            jokers = base[wild]
            base[wild] = 0
            readings = [list(base)]
            if stand_in >= 0 and stand_in != wild:
                for j in range(1, base[stand_in] + 1):
                    moved = list(base)
                    moved[stand_in] -= j
                    moved[wild] += j
                    readings.append(moved)
            least = min(pure.forms_distance_jokers(b, jokers, switches) for b in readings)
            assert pure.forms_distance_wild(c, wild, stand_in, switches) == least - jokers


def _ukeire_wild(
    k: ModuleType, c: list[int], live: list[int], wild: int, stand_in: int, switches: int
) -> tuple[int, int, list[int]]:
    """``forms_ukeire_wild`` by its definition: one ``forms_distance_wild`` per kind."""
    s = k.forms_shanten_wild(c, wild, stand_in, switches)
    kinds = []
    for t in range(34):
        if live[t] > 0 and c[t] < 4:
            more = list(c)
            more[t] += 1
            if k.forms_shanten_wild(more, wild, stand_in, switches) < s:
                kinds.append(t)
    return s, sum(live[t] for t in kinds), kinds


def _waits_wild(k: ModuleType, c: list[int], wild: int, stand_in: int, switches: int) -> list[int]:
    """``forms_waits_wild`` by its definition: the kinds one more copy of which completes."""
    if (sum(c) + 1) % 3 != 2:
        return []
    out = []
    for t in range(34):
        if c[t] < 4:
            more = list(c)
            more[t] += 1
            if k.forms_distance_wild(more, wild, stand_in, switches) == 0:
                out.append(t)
    return out


def _discard_distances_wild(
    k: ModuleType, c: list[int], kinds: list[int], wild: int, stand_in: int, switches: int
) -> list[int]:
    """``forms_discard_distances_wild`` by its definition: one distance per discard."""
    out = []
    for t in kinds:
        less = list(c)
        less[t] -= 1
        out.append(k.forms_distance_wild(less, wild, stand_in, switches))
    return out


def _wild_hands(seed: int, count: int) -> list[tuple[list[int], int, int]]:
    """(hand, wild, stand-in) with the wild and the stand-in held often: random hands of
    1–14 tiles and hands built from sets and a pair, one tile taken away (mostly ready)."""
    rng = random.Random(seed)
    out = []
    for i, c in enumerate(random_hands(seed, count)):
        wild = rng.randrange(34)
        stand_in = rng.choice([-1, wild, rng.randrange(34), 31])
        if i % 2:
            c = [0] * 34
            tiles: list[int] = []
            for _ in range(rng.choice([1, 2, 3, 4, 4, 4])):
                k = rng.randrange(34)
                tiles += (
                    [k, k + 1, k + 2] if k < 27 and k % 9 < 7 and rng.random() < 0.6 else [k] * 3
                )
            tiles += [rng.randrange(34)] * 2
            for _ in range(rng.randrange(4)):
                spare = stand_in if stand_in >= 0 else wild
                tiles[rng.randrange(len(tiles))] = rng.choice([wild, spare, rng.randrange(34)])
            tiles.pop(rng.randrange(len(tiles)))
            for k in tiles:
                c[k] += 1
            if max(c) > 4:
                continue
        else:
            for _ in range(rng.randrange(3)):  # the wild or the stand-in held, up to four
                k = rng.choice([wild, stand_in if stand_in >= 0 else wild])
                held = [t for t in range(34) if c[t] and t != k]
                if held and c[k] < 4:
                    c[rng.choice(held)] -= 1
                    c[k] += 1
        out.append((c, wild, stand_in))
    return out


def test_wild_batch_functions_are_their_definitions(
    kernels: tuple[ModuleType, ModuleType],
) -> None:
    """``forms_ukeire_wild``, ``forms_waits_wild`` and ``forms_discard_distances_wild``
    work each added or taken-away tile out from one read of each reading of the stand-ins
    (the wild and the stand-in themselves whole); they give what one ``forms_distance_wild``
    per tile gives, the bots' answers before (and fail alike on a hand too large), in both
    builds."""
    pure, fast = kernels
    rng = random.Random(23)
    ready = 0
    for c, wild, stand_in in _wild_hands(24, 1500):
        live = [max(0, 4 - c[k] - rng.randrange(3)) for k in range(34)]
        held = [k for k in range(34) if c[k]]
        for switches in SWITCHES[::5]:
            args = (wild, stand_in, switches)
            want = outcome(_ukeire_wild, pure, c, live, *args)
            for k in (pure, fast):
                assert outcome(k.forms_ukeire_wild, c, live, *args) == want, (c, args)
                waits = k.forms_waits_wild(c, *args)
                assert waits == _waits_wild(pure, c, *args), (c, args)
                assert k.forms_discard_distances_wild(c, held, *args) == _discard_distances_wild(
                    pure, c, held, *args
                ), (c, args)
            ready += bool(waits)
    assert ready > 1000  # ready hands, with wild tiles and stand-ins, were among them
