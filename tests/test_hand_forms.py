"""Every form from one read of the counts (zhuoji.hand_kernel, issue 29).

``forms_distance`` and ``forms_is_win`` (and ``HandRules``' methods over them) read a hand's
counts once and derive every switched-on form's part from them, instead of asking each form
in turn.  Here they are held to the per-form answers on hands built to sit near every form:
random hands of the full set, sets and pairs, seven pairs with four-of-a-kinds, 十三幺 and
十三烂 (three apart and the literal 147/258/369) hands and near misses, hands full of
four-of-a-kinds.  The references are independent of the one-pass code: the least of
``seven_pairs_distance``, ``shisanlan_distance`` and ``shisanyao_distance`` (each its own
pass), and for the standard form the per-group vectors multiplied out, a group holding a
four-of-a-kind recomputed here with no fifth copy.  Both builds run these (the selected
kernel; ``ZHUOJI_PURE=1`` for the Python one).
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

import pytest

from zhuoji import compiled, hand_tables
from zhuoji import hand as zh
from zhuoji.tiles import counts

if TYPE_CHECKING:
    from zhuoji import hand_kernel as K
else:  # the kernel zhuoji.hand runs: compiled, or Python under ZHUOJI_PURE=1
    K = compiled.select("hand_kernel")
FORMS = (K.STANDARD, K.SEVEN_PAIRS, K.SHISANLAN, K.SHISANYAO)
#: every form set, none included, with every way of reading the forms
SWITCHES = [
    sum(form for i, form in enumerate(FORMS) if chosen >> i & 1) | options
    for chosen in range(1 << len(FORMS))
    for options in (0, K.STRICT_LAN, K.QUADS_AS_TWO_PAIRS, K.STRICT_LAN | K.QUADS_AS_TWO_PAIRS)
]
SUITED = range(27)


# ---------------------------------------------------------------------------------------
# hands near every form
# ---------------------------------------------------------------------------------------


def _random(rng: random.Random) -> list[int]:
    c = [0] * 34
    for k in rng.sample([k for k in range(34) for _ in range(4)], rng.choice([13, 14])):
        c[k] += 1
    return c


def _sets(rng: random.Random) -> list[int]:
    """Sets and a pair of up to 14 tiles, maybe a tile short or swapped."""
    size = rng.choice([2, 5, 8, 11, 13, 14, 14])
    c = [0] * 34
    while sum(c) + 3 <= size:
        k = rng.randrange(34)
        if k < 27 and k % 9 <= 6 and rng.random() < 0.6:
            if max(c[k], c[k + 1], c[k + 2]) < 4:
                for t in (k, k + 1, k + 2):
                    c[t] += 1
        elif c[k] <= 1:
            c[k] += 3
    while sum(c) < size:
        k = rng.randrange(34)
        if c[k] < 4:
            c[k] += 1
    if rng.random() < 0.3:
        _swap(rng, c)
    return c


def _pairs(rng: random.Random) -> list[int]:
    """Seven pairs, some of them merged into four-of-a-kinds, maybe a tile short or swapped."""
    c = [0] * 34
    kinds = rng.sample(range(34), 7)
    for k in kinds:
        c[k] = 2
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        a, b = rng.sample(kinds, 2)
        if c[a] == 2 and c[b] == 2:
            c[a], c[b] = 4, 0
    if rng.random() < 0.5:
        c[rng.choice([k for k in range(34) if c[k]])] -= 1
    if rng.random() < 0.3:
        _swap(rng, c)
    return c


def _orphans(rng: random.Random) -> list[int]:
    """Eleven to thirteen orphan kinds and up to three more tiles, mostly orphans."""
    c = [0] * 34
    for k in rng.sample(K.ORPHANS, rng.choice([11, 12, 13, 13])):
        c[k] = 1
    while sum(c) < 14 and rng.random() < 0.8:
        k = rng.choice(K.ORPHANS) if rng.random() < 0.85 else rng.randrange(34)
        c[k] = min(c[k] + 1, 4)
    return c


def _lan(rng: random.Random) -> list[int]:
    """十三烂 shapes: distinct kinds, three apart or within 147/258/369, honors; near misses."""
    c = [0] * 34
    if rng.random() < 0.5:
        triples = rng.sample(range(3), 3)
        pool = [9 * s + r for s, t in enumerate(triples) for r in range(t, 9, 3)]
    else:  # three apart, 1-4-8 style
        pool = []
        for s in range(3):
            ranks = rng.choice([(0, 3, 7), (0, 4, 8), (1, 4, 7), (0, 5, 8), (2, 5, 8), (1, 6)])
            pool += [9 * s + r for r in ranks]
    kinds = rng.sample(pool + list(range(27, 34)), min(len(pool) + 7, rng.choice([12, 13, 14])))
    for k in kinds:
        c[k] = 1
    if sum(c) < 14 and rng.random() < 0.4:
        c[rng.choice([k for k in range(34) if not c[k]])] += 1
    if sum(c) < 14 and rng.random() < 0.2:
        c[rng.choice(kinds)] += 1
    return c


def _quads(rng: random.Random) -> list[int]:
    """Four-of-a-kinds wherever they fit, filled up with single tiles."""
    size = rng.choice([8, 10, 11, 13, 13, 14])
    c = [0] * 34
    while sum(c) + 4 <= size and rng.random() < 0.75:
        c[rng.choice(SUITED) if rng.random() < 0.85 else rng.randrange(34)] = 4
    while sum(c) < size:
        k = rng.randrange(34)
        if c[k] < 4:
            c[k] += 1
    return c


def _swap(rng: random.Random, c: list[int]) -> None:
    held = [k for k in range(34) if c[k]]
    if held:
        c[rng.choice(held)] -= 1
        c[rng.choice([k for k in range(34) if c[k] < 4])] += 1


def hands(seed: int, count: int) -> Iterator[list[int]]:
    rng = random.Random(seed)
    makers = (_random, _sets, _pairs, _orphans, _lan, _quads)
    for i in range(count):
        c = makers[i % len(makers)](rng)
        assert all(0 <= x <= 4 for x in c) and sum(c) <= 14, c
        yield c


# ---------------------------------------------------------------------------------------
# references, one form at a time
# ---------------------------------------------------------------------------------------


@cache
def _capped_group_vector(pattern: tuple[int, ...], chows: bool) -> bytes:
    """For m = 0..4 sets and h = 0..1 pairs, the fewest tiles added to ``pattern`` for it to
    contain them, no kind above four copies: every target pattern built rank by rank."""
    n = len(pattern)

    @cache
    def best(i: int, sets: int, pair: int, back1: int, back2: int) -> int:
        if i == n:
            return 0 if sets == pair == back1 == back2 == 0 else 10**6
        out = 10**6
        for starts in range(sets + 1 if chows and i + 2 < n else 1):
            for pungs in range(min(sets - starts, 1) + 1):
                for pairs in range(pair + 1):
                    total = back1 + back2 + starts + 3 * pungs + 2 * pairs
                    if total <= 4:
                        rest = best(i + 1, sets - starts - pungs, pair - pairs, starts, back1)
                        out = min(out, max(total - pattern[i], 0) + rest)
        return out

    return bytes(min(best(0, m, h, 0, 0), 255) for m in range(5) for h in range(2))


def standard_reference(c: list[int]) -> int:
    """The standard distance with no fifth copy: each group's vector (the table's, or the
    capped one above for a group holding a four-of-a-kind), multiplied out."""
    tables = hand_tables.load()
    vec = b""
    for first, size, classes in ((0, 9, 0), (9, 9, 0), (18, 9, 0), (27, 7, 1)):
        part = tuple(c[first : first + size])
        if 4 in part:
            group = _capped_group_vector(part, size == 9)
        else:
            index = sum(x * 5**i for i, x in enumerate(part))
            table = tables.honor_class if classes else tables.suit_class
            group = tables.vectors[table[index]]
        vec = group if not vec else hand_tables._product(vec, group)
    return vec[2 * (sum(c) // 3) + 1]


def least_form_distance(c: list[int], switches: int) -> int:
    best = K.FAR
    if switches & K.STANDARD:
        best = min(best, standard_reference(c))
    if switches & K.SEVEN_PAIRS:
        quads = bool(switches & K.QUADS_AS_TWO_PAIRS)
        best = min(best, K.seven_pairs_distance(c, quads_as_two_pairs=quads))
    if switches & K.SHISANLAN:
        best = min(best, K.shisanlan_distance(c, 0, bool(switches & K.STRICT_LAN)))
    if switches & K.SHISANYAO:
        best = min(best, K.shisanyao_distance(c))
    return best


def any_form_wins(c: list[int], switches: int) -> bool:
    return (
        (bool(switches & K.STANDARD) and K.is_standard_win(c))
        or (
            bool(switches & K.SEVEN_PAIRS)
            and K.is_seven_pairs(c, quads_as_two_pairs=bool(switches & K.QUADS_AS_TWO_PAIRS))
        )
        or (bool(switches & K.SHISANYAO) and K.is_shisanyao(c))
        or (bool(switches & K.SHISANLAN) and K.is_shisanlan(c, bool(switches & K.STRICT_LAN)))
    )


# ---------------------------------------------------------------------------------------
# the one pass against them
# ---------------------------------------------------------------------------------------


def test_one_pass_distance_is_the_least_form_distance() -> None:
    checked = 0
    for c in hands(29, 3000):
        for switches in SWITCHES:
            assert K.forms_distance(c, switches) == least_form_distance(c, switches), (
                c,
                switches,
            )
        assert K.shanten(c) == least_form_distance(c, K.PLAIN) - 1, c
        assert K.shanten_standard(c) == standard_reference(c) - 1, c
        assert K.standard_distance(c) == standard_reference(c), c
        checked += 1
    assert checked == 3000


def test_one_pass_win_is_any_form_win() -> None:
    wins = 0
    for c in hands(30, 3000):
        for switches in SWITCHES:
            won = K.forms_is_win(c, switches)
            assert won == any_form_wins(c, switches), (c, switches)
            wins += won
        assert K.is_win(c) == any_form_wins(c, K.PLAIN), c
    assert wins > 1000  # every form wins somewhere in the set


def test_every_form_wins_and_loses_in_the_sample() -> None:
    """The hands above reach each form's win and each form's distance 1 (else the two tests
    above would say little about it)."""
    reached: set[tuple[str, int]] = set()
    for c in hands(31, 3000):
        reached.add(("standard", standard_reference(c)))
        reached.add(("pairs", K.seven_pairs_distance(c)))
        reached.add(("riichi pairs", K.seven_pairs_distance(c, quads_as_two_pairs=False)))
        reached.add(("lan", K.shisanlan_distance(c)))
        reached.add(("strict lan", K.shisanlan_distance(c, 0, True)))
        reached.add(("yao", K.shisanyao_distance(c)))
    for form in ("standard", "pairs", "riichi pairs", "lan", "strict lan", "yao"):
        assert (form, 0) in reached and (form, 1) in reached, form


def test_too_many_tiles_fail_as_the_form_checks_did() -> None:
    """Five sets' worth: the standard form's errors, whatever else is switched on."""
    c = [0] * 34
    for k in range(17):
        c[k] = 1
    assert K.forms_is_win(c, K.SEVEN_PAIRS | K.SHISANYAO) is False
    for switches in (K.STANDARD, K.PLAIN, sum(FORMS)):
        with pytest.raises(IndexError):
            K.forms_is_win(c, switches)
        with pytest.raises(ValueError, match="at most 14 tiles, not 17"):
            K.forms_distance(c, switches)


def test_read_gives_the_counts_whatever_objects_hold_them() -> None:
    """``_read`` (the compiled build's reading of the counts) compares each count with the
    interpreter's objects for 0–4; anything else (a bool, a count above four, a big int, an
    int subclass) makes it read the list the ordinary way, with the same values."""

    class Count(int):
        pass

    assert compiled.is_compiled(K) == K._COMPILED
    rng = random.Random(4)
    odd_values: list[int] = [True, False, 5, 7, 2**40, Count(3), Count(0)]
    for c in hands(33, 600):
        assert K._read(c) == tuple(c), c
        odd = list(c)
        odd[rng.randrange(34)] = rng.choice(odd_values)
        assert K._read(odd) == tuple(int(x) for x in odd), odd
        if max(odd) <= 4 and sum(odd) <= 14:
            assert K.forms_distance(odd, K.PLAIN) == K.forms_distance(
                [int(x) for x in odd], K.PLAIN
            )


def test_lan_kept_is_the_best_of_the_ten_splits() -> None:
    """``_lan_kept`` reads the best split of a 十三烂 hand off the all-threes one; the ten
    splits of ``_LAN_SPLITS`` (parts of the three suits, room for the honors) tried one by
    one agree, for every honor count and every triple of suits.  A suit enters only through
    its four best overlaps (``_LAN``), so one rank mask per distinct overlap row covers all
    512³ triples."""
    lan, splits = K._LAN, K._LAN_SPLITS
    rows: dict[bytes, int] = {}
    for mask in range(512):
        rows.setdefault(lan[4 * mask : 4 * mask + 4], mask)
    assert 1 < len(rows) < 512

    def tried(b0: int, b1: int, b2: int, honors: int) -> int:
        return max(
            lan[4 * b0 + splits[i]]
            + lan[4 * b1 + splits[i + 1]]
            + lan[4 * b2 + splits[i + 2]]
            + min(honors, splits[i + 3])
            for i in range(0, len(splits), 4)
        )

    for b0, b1, b2 in itertools.product(rows.values(), repeat=3):
        for honors in range(8):
            assert K._lan_kept(b0, b1, b2, honors, False) == tried(b0, b1, b2, honors)
    rng = random.Random(3)
    for _ in range(3000):
        b0, b1, b2, honors = (*rng.sample(range(512), 3), rng.randrange(8))
        strict = K._lan_strict_suited(b0, b1, b2) + honors
        assert K._lan_kept(b0, b1, b2, honors, True) == min(strict, 14)
        assert K._lan_kept(b0, b1, b2, honors, False) == tried(b0, b1, b2, honors)


# ---------------------------------------------------------------------------------------
# HandRules: the kernel's methods bound in place of its own
# ---------------------------------------------------------------------------------------

RULES = [
    zh.HandRules(),
    zh.HandRules(forms=frozenset(zh.Form)),
    zh.HandRules(forms=frozenset(zh.Form), shisanlan=zh.LanRule.STRICT),
    zh.HandRules(
        forms=frozenset({zh.Form.STANDARD, zh.Form.SEVEN_PAIRS, zh.Form.SHISANYAO}),
        quads_as_two_pairs=False,
    ),
    zh.HandRules(forms=frozenset({zh.Form.SHISANLAN})),
]


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_hand_rules_bound_methods_give_the_methods_answers(rules: zh.HandRules) -> None:
    """``rules.shanten`` … are the kernel's ``Forms`` methods, with the answers of the
    ``HandRules`` methods they stand in for."""
    assert rules._forms is not None
    for name in ("shanten", "is_win", "waits", "is_ready"):
        bound = getattr(rules, name)
        assert bound.__self__ is rules._forms, name
    for c in hands(32, 1200):
        for name in ("shanten", "is_win", "waits", "is_ready"):
            method = getattr(zh.HandRules, name)
            assert getattr(rules, name)(c) == method(rules, c), (name, c)
        assert rules.distance_function()(c) == rules.distance(c), c
        assert rules.shanten(c) == rules.distance(c) - 1, c


def test_hand_rules_with_wild_tiles_keep_their_methods() -> None:
    rules = zh.HandRules(wild=zh.Wild(4, 31))
    assert rules._forms is None
    assert "shanten" not in vars(rules)
    assert rules.shanten.__func__ is zh.HandRules.shanten  # type: ignore[attr-defined]


@pytest.mark.parametrize("rules", [*RULES, zh.HandRules(wild=zh.Wild(4, 31))], ids=repr)
def test_hand_rules_copy_and_pickle_by_their_fields(rules: zh.HandRules) -> None:
    c = counts("1112345678999m")
    for other in (copy.copy(rules), copy.deepcopy(rules), pickle.loads(pickle.dumps(rules))):
        assert other == rules and hash(other) == hash(rules)
        assert other.shanten(c) == rules.shanten(c)
        assert other.waits(c) == rules.waits(c)
