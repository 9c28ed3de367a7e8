"""Hand analysis against a brute-force reference written here, independently of zhuoji.hand.

The reference is plain recursion over count arrays and never calls ``zhuoji.hand`` (nor its
tables): a standard-win decomposition search, seven pairs, 十三烂, an exact shanten by
enumerating every complete hand, and wild tiles by trying every substitution of the jokers.
The properties checked:

* ``is_win`` ⇔ the reference finds a decomposition (also for other form sets);
* every decomposition returned re-assembles to the hand, and for plain hands the list is
  exactly the reference's enumeration;
* ``waits(h) == {t : h[t] < 4 and is_win(h + t)}``, and ``shanten(h) == 0`` ⇔ ``waits(h)``;
* ``shanten`` equals the brute-force value (7–14 tiles, random and near-complete hands);
* with a wild kind, ``is_win`` ⇔ some substitution of every wild copy by any kind (a fifth
  copy allowed) is a plain win in the rules' forms, and likewise with a stand-in kind
  (each stand-in copy may instead be read as the wild's face).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement, product

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zhuoji import hand as zh
from zhuoji.hand import Decomposition, Form, GroupKind, HandRules, Wild
from zhuoji.tiles import format_counts

NUM_KINDS = 34
ALL_FORMS = frozenset(Form)
PLAIN_FORMS = frozenset({Form.STANDARD, Form.SEVEN_PAIRS})
PROPERTY_SETTINGS = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,  # the same examples on every run and on CI
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

Counts = tuple[int, ...]
Compose = Callable[..., list[int]]  # the ``winning_hand`` fixture of conftest.py
Block = tuple[str, int]  # ("pair" | "pung" | "chow" | "single", lowest kind)

# =======================================================================================
# the reference (no zhuoji.hand inside)
# =======================================================================================


def _chow_can_start(kind: int) -> bool:
    return kind < 27 and kind % 9 <= 6


@cache
def ref_standard_decompositions(c: Counts, pair_left: int = 1) -> frozenset[tuple[Block, ...]]:
    """Every way to split ``c`` into sets and exactly ``pair_left`` pairs.  The lowest held
    kind must start a block (a pair, a pung or a chow), so the recursion sees each multiset
    of blocks once.  Counts may exceed four (wild substitutions)."""
    i = next((k for k in range(NUM_KINDS) if c[k]), None)
    if i is None:
        return frozenset({()}) if pair_left == 0 else frozenset()
    found: set[tuple[Block, ...]] = set()
    options: list[tuple[Block, dict[int, int], int]] = []
    if pair_left and c[i] >= 2:
        options.append((("pair", i), {i: 2}, 1))
    if c[i] >= 3:
        options.append((("pung", i), {i: 3}, 0))
    if _chow_can_start(i) and c[i + 1] and c[i + 2]:
        options.append((("chow", i), {i: 1, i + 1: 1, i + 2: 1}, 0))
    for block, take, pairs in options:
        rest = list(c)
        for k, n in take.items():
            rest[k] -= n
        for tail in ref_standard_decompositions(tuple(rest), pair_left - pairs):
            found.add(tuple(sorted((block, *tail))))
    return frozenset(found)


@cache
def _ref_standard_ok(c: Counts, pair_left: int) -> bool:
    """The same search as a yes/no answer that stops at the first decomposition."""
    i = next((k for k in range(NUM_KINDS) if c[k]), None)
    if i is None:
        return pair_left == 0
    rest = list(c)
    if pair_left and c[i] >= 2:
        rest[i] -= 2
        if _ref_standard_ok(tuple(rest), 0):
            return True
        rest[i] += 2
    if c[i] >= 3:
        rest[i] -= 3
        if _ref_standard_ok(tuple(rest), pair_left):
            return True
        rest[i] += 3
    if _chow_can_start(i) and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            rest[k] -= 1
        if _ref_standard_ok(tuple(rest), pair_left):
            return True
    return False


def ref_is_standard(c: Sequence[int]) -> bool:
    return sum(c) % 3 == 2 and _ref_standard_ok(tuple(c), 1)


def ref_is_seven_pairs(c: Sequence[int], quads_as_two_pairs: bool = True) -> bool:
    if sum(c) != 14:
        return False
    if quads_as_two_pairs:
        return all(x % 2 == 0 for x in c)
    return all(x in (0, 2) for x in c)


def _lan_suit_ok(ranks: Iterable[int]) -> bool:
    """十三烂 inside one suit: any two ranks at least three apart."""
    return all(b - a >= 3 for a, b in combinations(sorted(ranks), 2))


def ref_is_shisanlan(c: Sequence[int]) -> bool:
    """Fourteen distinct tiles, each suit's ranks pairwise ≥ 3 apart (honors distinct)."""
    if sum(c) != 14 or max(c) > 1:
        return False
    return all(_lan_suit_ok(r for r in range(9) if c[9 * s + r]) for s in range(3))


#: 十三幺 kinds: 1 and 9 of each suit, the seven honors
ORPHAN_KINDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def ref_is_shisanyao(c: Sequence[int]) -> bool:
    """十三幺: every orphan kind once, one of them twice, nothing else."""
    return sorted(c[k] for k in ORPHAN_KINDS) == [1] * 12 + [2] and sum(c) == 14


def ref_shisanyao_distance(c: Sequence[int]) -> int:
    """Fewest tiles to add: 14 less the most tiles kept toward one 十三幺 target."""
    if sum(c) < 13:
        return 99
    return 14 - max(
        sum(min(c[k], 2 if k == pair else 1) for k in ORPHAN_KINDS) for pair in ORPHAN_KINDS
    )


def ref_is_win(
    c: Sequence[int], forms: frozenset[Form] = PLAIN_FORMS, quads_as_two_pairs: bool = True
) -> bool:
    return (
        (Form.STANDARD in forms and ref_is_standard(c))
        or (Form.SEVEN_PAIRS in forms and ref_is_seven_pairs(c, quads_as_two_pairs))
        or (Form.SHISANLAN in forms and ref_is_shisanlan(c))
        or (Form.SHISANYAO in forms and ref_is_shisanyao(c))
    )


def ref_decompositions(
    c: Sequence[int], forms: frozenset[Form] = PLAIN_FORMS
) -> set[tuple[str, tuple[Block, ...]]]:
    """(form, sorted blocks) for every realization of a hand without wild tiles."""
    out: set[tuple[str, tuple[Block, ...]]] = set()
    if Form.STANDARD in forms and sum(c) % 3 == 2:
        out.update(("standard", d) for d in ref_standard_decompositions(tuple(c)))
    if Form.SEVEN_PAIRS in forms and ref_is_seven_pairs(c):
        pairs = tuple(("pair", k) for k in range(NUM_KINDS) for _ in range(c[k] // 2))
        out.add(("seven_pairs", pairs))
    if Form.SHISANLAN in forms and ref_is_shisanlan(c):
        out.add(("shisanlan", tuple(("single", k) for k in range(NUM_KINDS) if c[k])))
    if Form.SHISANYAO in forms and ref_is_shisanyao(c):
        blocks = [("pair" if c[k] == 2 else "single", k) for k in ORPHAN_KINDS]
        out.add(("shisanyao", tuple(sorted(blocks))))
    return out


def ref_standard_distance(c: Sequence[int], cap: int = 4) -> int:
    """Fewest tiles to draw so that the hand contains ``len // 3`` sets and a pair.

    Why this is exact: a complete target ``H`` is a multiset of blocks; listing the blocks by
    their lowest kind, the recursion chooses at each kind how many chows start there, how
    many pungs sit there and whether the pair does, so it visits every ``H`` (with no kind
    above ``cap`` copies).  Tiles of the hand outside ``H`` are discarded, so drawing ``H``
    costs ``Σ max(H_i − c_i, 0)``, which is what the recursion adds up; the minimum over all
    ``H`` is the distance by definition, and shanten is that minus one.
    """
    held = tuple(c)

    @cache
    def best(i: int, sets: int, pair: int, back1: int, back2: int) -> int:
        # back1 / back2: chows started one / two kinds back, still needing kind i
        if i == NUM_KINDS:
            return 0 if sets == pair == back1 == back2 == 0 else 10**6
        if i % 9 == 0 and (back1 or back2):
            return 10**6  # a chow may not run past rank 9
        answer = 10**6
        for starts in range(sets + 1 if _chow_can_start(i) else 1):
            for pungs in range(sets - starts + 1):
                for pairs in range(pair + 1):
                    total = back1 + back2 + starts + 3 * pungs + 2 * pairs
                    if total > cap:
                        continue
                    cost = max(total - held[i], 0)
                    rest = best(i + 1, sets - starts - pungs, pair - pairs, starts, back1)
                    answer = min(answer, cost + rest)
        return answer

    return best(0, sum(c) // 3, 1, 0, 0)


def ref_seven_pairs_distance(c: Sequence[int], quads_as_two_pairs: bool = True) -> int:
    """Fewest draws to seven pairs: try every target with counts in {0, 2} (or {0, 2, 4})
    summing to 14, kind by kind."""
    if sum(c) < 13:
        return 10**6
    sizes = (0, 2, 4) if quads_as_two_pairs else (0, 2)

    @cache
    def best(i: int, pairs_left: int) -> int:
        if i == NUM_KINDS:
            return 0 if pairs_left == 0 else 10**6
        return min(
            max(size - c[i], 0) + best(i + 1, pairs_left - size // 2)
            for size in sizes
            if size // 2 <= pairs_left
        )

    return best(0, 7)


def _lan_patterns() -> np.ndarray:
    """Every fourteen-tile 十三烂, one row of 34 zeros and ones each."""
    suit_parts = [
        part for size in range(4) for part in combinations(range(9), size) if _lan_suit_ok(part)
    ]
    rows = []
    for parts in product(suit_parts, repeat=3):
        suited = sum(len(p) for p in parts)
        if not 7 <= suited <= 9:
            continue
        for honors in combinations(range(27, 34), 14 - suited):
            row = [0] * NUM_KINDS
            for s, part in enumerate(parts):
                for r in part:
                    row[9 * s + r] = 1
            for k in honors:
                row[k] = 1
            rows.append(row)
    return np.array(rows, dtype=np.int16)


LAN_PATTERNS = _lan_patterns()


def ref_shisanlan_distance(c: Sequence[int]) -> int:
    """14 minus the best overlap with any 十三烂 (a target needs one of each of its kinds)."""
    if sum(c) < 13:
        return 10**6
    present = np.array([1 if x else 0 for x in c], dtype=np.int16)
    return 14 - int((LAN_PATTERNS @ present).max())


def ref_wild_win_forms(c: Sequence[int], rules: HandRules) -> set[Form]:
    """The forms of ``rules`` in which some reading of the stand-ins and some substitution
    of every wild copy by any kind (a fifth copy allowed) is a plain win."""
    assert rules.wild is not None
    wild, stand_in = rules.wild.kind, rules.wild.stand_in
    base = list(c)
    jokers = base[wild]
    base[wild] = 0
    readings = [base]
    if stand_in is not None and stand_in != wild:
        for moved in range(1, base[stand_in] + 1):
            reading = list(base)
            reading[stand_in] -= moved
            reading[wild] += moved
            readings.append(reading)
    checks = {
        Form.STANDARD: ref_is_standard,
        Form.SEVEN_PAIRS: lambda h: ref_is_seven_pairs(h, rules.quads_as_two_pairs),
        Form.SHISANLAN: ref_is_shisanlan,
        Form.SHISANYAO: ref_is_shisanyao,
    }
    size = sum(c)
    # forms that a hand of this size can take at all (the rest never win)
    possible = {f for f in rules.forms if (size == 14 if f is not Form.STANDARD else size % 3 == 2)}
    found: set[Form] = set()
    for reading in readings:
        for substitution in combinations_with_replacement(range(NUM_KINDS), jokers):
            full = list(reading)
            for k in substitution:
                full[k] += 1
            for form in possible - found:
                if checks[form](full):
                    found.add(form)
            if found == possible:
                return found
    return found


def ref_wild_win(c: Sequence[int], rules: HandRules) -> bool:
    return bool(ref_wild_win_forms(c, rules))


def ref_contains_complete(c: list[int], sets: int, pair: int) -> bool:
    """Does ``c`` contain ``sets`` sets and ``pair`` pairs (other tiles left over)?"""
    if sets == pair == 0:
        return True
    i = next((k for k in range(NUM_KINDS) if c[k]), None)
    if i is None:
        return False
    c[i] -= 1  # the lowest tile is left over ...
    found = ref_contains_complete(c, sets, pair)
    c[i] += 1
    if found:
        return True
    uses = []  # ... or it starts a block
    if pair and c[i] >= 2:
        uses.append(({i: 2}, 0, 1))
    if sets and c[i] >= 3:
        uses.append(({i: 3}, 1, 0))
    if sets and _chow_can_start(i) and c[i + 1] and c[i + 2]:
        uses.append(({i: 1, i + 1: 1, i + 2: 1}, 1, 0))
    for take, ds, dp in uses:
        for k, n in take.items():
            c[k] -= n
        found = ref_contains_complete(c, sets - ds, pair - dp)
        for k, n in take.items():
            c[k] += n
        if found:
            return True
    return False


def literal_standard_distance(c: Sequence[int]) -> int:
    """The definition read literally: the fewest tiles (at most four of a kind in all) whose
    addition makes the hand contain ``len // 3`` sets and a pair.  Only for small hands."""
    for drawn in range(6):
        for extra in combinations_with_replacement(range(NUM_KINDS), drawn):
            full = list(c)
            for k in extra:
                full[k] += 1
            if max(full) <= 4 and ref_contains_complete(full, sum(c) // 3, 1):
                return drawn
    raise AssertionError("no hand is more than five tiles from complete")


# =======================================================================================
# hands
# =======================================================================================


def _counts(kinds: Iterable[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for k in kinds:
        c[k] += 1
    return c


def _tile_list(c: Sequence[int]) -> list[int]:
    return [k for k in range(NUM_KINDS) for _ in range(c[k])]


def random_hand(rng: random.Random, size: int, kinds: Sequence[int] = range(27)) -> list[int]:
    """``size`` tiles dealt from a wall of four copies of each of ``kinds``."""
    return _counts(rng.sample([k for k in kinds for _ in range(4)], size))


def near_win(
    rng: random.Random,
    size: int,
    compose: Callable[..., list[int]],
    kinds: Sequence[int] = range(27),
    swaps: int = 1,
) -> list[int]:
    """A composed winning hand cut to ``size`` tiles (drop tiles), then ``swaps`` tiles
    replaced by random ones (never a fifth copy)."""
    c = compose(rng, sets=(size - 1) // 3, kinds=kinds)
    while sum(c) > size:
        c[rng.choice(_tile_list(c))] -= 1
    for _ in range(swaps):
        c[rng.choice(_tile_list(c))] -= 1
        k = rng.choice([k for k in kinds if c[k] < 4])
        c[k] += 1
    return c


def sample_hands(
    rng: random.Random,
    sizes: Sequence[int],
    count: int,
    compose: Callable[..., list[int]],
    kinds: Sequence[int] = range(27),
) -> list[list[int]]:
    """A mix of winning, near-winning and random hands of the given sizes."""
    out = []
    for i in range(count):
        size = rng.choice(sizes)
        if i % 3 == 0:
            out.append(random_hand(rng, size, kinds))
        else:
            out.append(near_win(rng, size, compose, kinds, swaps=rng.choice((0, 0, 1, 2))))
    return out


def fifth_copy_hands(rng: random.Random, count: int) -> list[list[int]]:
    """A four-of-a-kind next to 0–3 complete sets of other kinds (``1111m`` + sets), often
    with a tile swapped or added: the shapes whose table distance counts a fifth copy."""
    out: list[list[int]] = []
    while len(out) < count:
        quad = rng.randrange(27)
        c = [0] * NUM_KINDS
        c[quad] = 4
        for _ in range(rng.randint(0, 3)):
            if rng.random() < 0.3:
                block = [rng.randrange(27)] * 3
            else:
                first = rng.choice([k for k in range(27) if _chow_can_start(k)])
                block = [first, first + 1, first + 2]
            if quad not in block:
                for k in block:
                    c[k] += 1
        others = [k for k in _tile_list(c) if k != quad]
        if others and rng.random() < 0.3:
            c[rng.choice(others)] -= 1
            c[rng.randrange(27)] += 1
        if rng.random() < 0.3:
            c[rng.randrange(27)] += 1  # a 3k + 2 hand
        if max(c) <= 4 and sum(c) % 3:
            out.append(c)
    return out


@st.composite
def hands(
    draw: st.DrawFn, sizes: Sequence[int] = (2, 5, 8, 11, 14), honors: bool = True
) -> list[int]:
    """Hypothesis hands: blocks (sets, pairs, partial sets) of one suit each, then some
    tiles swapped; never a fifth copy."""
    size = draw(st.sampled_from(sizes))
    top = 34 if honors else 27
    c = [0] * NUM_KINDS
    while sum(c) < size:
        k = draw(st.integers(0, top - 1))
        shape = draw(st.sampled_from(["single", "pair", "pung", "chow", "two"]))
        take = {"single": [k], "pair": [k, k], "pung": [k, k, k]}.get(shape)
        if take is None:
            if not _chow_can_start(k):
                take = [k]
            else:
                take = [k, k + 1, k + 2] if shape == "chow" else [k, k + draw(st.integers(1, 2))]
        for t in take[: size - sum(c)]:
            if c[t] < 4:
                c[t] += 1
    for _ in range(draw(st.integers(0, 2))):
        held = _tile_list(c)
        c[held[draw(st.integers(0, len(held) - 1))]] -= 1
        k = draw(st.integers(0, top - 1).filter(lambda t: c[t] < 4))
        c[k] += 1
    return c


# =======================================================================================
# decompositions: shape and re-assembly
# =======================================================================================


def _blocks(d: Decomposition) -> tuple[str, tuple[Block, ...]]:
    assert all(g.wild == 0 for g in d.groups), d
    return d.form.value, tuple(sorted((g.kind.value, g.first) for g in d.groups))


def check_decomposition(c: Sequence[int], d: Decomposition, wild: Wild | None = None) -> None:
    """The blocks have the form's shape and give back exactly the hand's tiles (jokers as
    the wild kind, a real tile of the wild's face as a stand-in)."""
    sizes = [len(g.tiles) for g in d.groups]
    kinds = [g.kind for g in d.groups]
    if d.form is Form.STANDARD:
        assert kinds.count(GroupKind.PAIR) == 1 and GroupKind.SINGLE not in kinds
        assert len(d.groups) == 1 + (sum(c) - 2) // 3
        assert d.pair is not None
    elif d.form is Form.SEVEN_PAIRS:
        assert kinds == [GroupKind.PAIR] * 7
    else:
        assert kinds == [GroupKind.SINGLE] * 14
    for g in d.groups:
        assert 0 <= g.wild < 1 << len(g.tiles)
        if g.kind is GroupKind.CHOW:
            assert _chow_can_start(g.first)
    real = [0] * NUM_KINDS
    jokers = 0
    for g in d.groups:
        for i, t in enumerate(g.tiles):
            if g.wild >> i & 1:
                jokers += 1
            else:
                real[t] += 1
    assert sum(sizes) == sum(c)
    if wild is None:
        assert jokers == 0
    else:
        if wild.stand_in is not None and wild.stand_in != wild.kind:
            real[wild.stand_in] += real[wild.kind]
        else:
            assert real[wild.kind] == 0, "a real tile shown as the wild face without a stand-in"
        real[wild.kind] = jokers
    assert real == list(c), (format_counts(c), d)


# =======================================================================================
# properties
# =======================================================================================


def test_reference_shanten_is_the_literal_definition(winning_hand: Compose) -> None:
    """The reference recursion equals 'fewest tiles to add' read literally (small hands)."""
    rng = random.Random(11)
    for c in sample_hands(rng, (1, 2, 4, 5), 150, winning_hand, range(34)):
        assert ref_standard_distance(c) == literal_standard_distance(c), format_counts(c)


@PROPERTY_SETTINGS
@given(hands())
def test_is_win_matches_reference(c: list[int]) -> None:
    """is_win and every form predicate agree with the reference search."""
    assert zh.is_standard_win(c) == ref_is_standard(c)
    assert zh.is_seven_pairs(c) == ref_is_seven_pairs(c)
    assert zh.is_seven_pairs(c, quads_as_two_pairs=False) == ref_is_seven_pairs(c, False)
    assert zh.is_shisanlan(c) == ref_is_shisanlan(c)
    assert zh.is_win(c) == ref_is_win(c)
    assert HandRules().is_win(c) == ref_is_win(c)
    assert HandRules(forms=ALL_FORMS).is_win(c) == ref_is_win(c, ALL_FORMS)
    no_quads = HandRules(quads_as_two_pairs=False)
    assert no_quads.is_win(c) == ref_is_win(c, PLAIN_FORMS, quads_as_two_pairs=False)


def test_is_win_on_sampled_hands(winning_hand: Compose) -> None:
    """The same on 3,000 seeded hands (winning, near-winning and random, with honors)."""
    rng = random.Random(7)
    for c in sample_hands(rng, (2, 5, 8, 11, 14, 14, 14), 3000, winning_hand, range(34)):
        expected = ref_is_win(c)
        assert zh.is_win(c) == expected, format_counts(c)
        assert HandRules(forms=ALL_FORMS).is_win(c) == ref_is_win(c, ALL_FORMS)


def test_shisanlan_hands() -> None:
    """十三烂: every fourteen-tile pattern wins under all forms; dropping one of its tiles
    leaves a hand waiting on (at least) that tile."""
    rng = random.Random(3)
    rules = HandRules(forms=ALL_FORMS)
    rows = rng.sample(range(len(LAN_PATTERNS)), 300)
    for row in rows:
        c = [int(x) for x in LAN_PATTERNS[row]]
        assert rules.is_win(c) and zh.is_shisanlan(c) and not zh.is_win(c)
        assert rules.win_forms(c) == [Form.SHISANLAN]
        dropped = rng.choice(_tile_list(c))
        c[dropped] -= 1
        waits = rules.waits(c)
        assert dropped in waits
        assert waits == [t for t in range(NUM_KINDS) if c[t] < 4 and _plus_wins(rules, c, t)]


def _plus_wins(rules: HandRules, c: list[int], t: int) -> bool:
    c[t] += 1
    won = ref_is_win(c, rules.forms, rules.quads_as_two_pairs)
    c[t] -= 1
    return won


@PROPERTY_SETTINGS
@given(hands(sizes=(2, 5, 8, 11, 14)))
def test_decompositions_match_reference(c: list[int]) -> None:
    """Every decomposition re-assembles to the hand; for complete plain hands the list is
    exactly the reference enumeration (no duplicates), and empty otherwise."""
    for forms in (PLAIN_FORMS, ALL_FORMS):
        decs = HandRules(forms=forms).decompositions(c)
        assert len(set(decs)) == len(decs)
        for d in decs:
            check_decomposition(c, d)
        assert sorted(_blocks(d) for d in decs) == sorted(ref_decompositions(c, forms))
        assert bool(decs) == ref_is_win(c, forms)


def test_decompositions_of_winning_hands(winning_hand: Compose) -> None:
    """The same on 1,500 composed winning hands (where decompositions are plentiful)."""
    rng = random.Random(5)
    for _ in range(1500):
        c = winning_hand(
            rng, sets=rng.choice((1, 2, 3, 4, 4)), kinds=rng.choice((range(9), range(34)))
        )
        decs = zh.decompositions(c)
        for d in decs:
            check_decomposition(c, d)
        assert sorted(_blocks(d) for d in decs) == sorted(ref_decompositions(c)), format_counts(c)


@PROPERTY_SETTINGS
@given(hands(sizes=(1, 4, 7, 10, 13)))
def test_waits_are_the_winning_draws(c: list[int]) -> None:
    """``waits(h) == {t : h[t] < 4 and is_win(h + t)}``; shanten 0 ⇔ ready."""
    expected = [t for t in range(NUM_KINDS) if c[t] < 4 and _plus_wins(zh.PLAIN, c, t)]
    assert zh.waits(c) == expected
    assert zh.is_ready(c) == bool(expected)
    assert (zh.shanten(c) == 0) == bool(expected)
    for rules in (HandRules(forms=ALL_FORMS), HandRules(quads_as_two_pairs=False)):
        expected = [t for t in range(NUM_KINDS) if c[t] < 4 and _plus_wins(rules, c, t)]
        assert rules.waits(c) == expected
        assert (rules.shanten(c) == 0) == bool(expected)


def test_waits_on_sampled_hands(winning_hand: Compose) -> None:
    """The same on 2,000 seeded hands of 13 tiles, 1,000 of 1, 4, 7, 10 tiles and some
    holding a four-of-a-kind."""
    rng = random.Random(13)
    sampled = sample_hands(rng, (13,), 2000, winning_hand, range(34))
    sampled += sample_hands(rng, (1, 4, 7, 10), 1000, winning_hand, range(34))
    sampled += [c for c in fifth_copy_hands(rng, 600) if sum(c) % 3 == 1]
    for c in sampled:
        expected = [t for t in range(NUM_KINDS) if c[t] < 4 and _plus_wins(zh.PLAIN, c, t)]
        assert zh.waits(c) == expected, format_counts(c)
        assert (zh.shanten(c) == 0) == bool(expected), format_counts(c)


def test_shanten_matches_brute_force(winning_hand: Compose) -> None:
    """shanten, shanten_standard, shanten_seven_pairs and the 十三烂 distance equal the
    reference on 600 seeded hands of 4–14 tiles (a third with a four-of-a-kind)."""
    rng = random.Random(17)
    sampled = sample_hands(rng, (7, 8, 10, 11, 13, 14), 340, winning_hand)
    sampled += sample_hands(rng, (13, 14), 80, winning_hand, range(34))
    sampled += fifth_copy_hands(rng, 180)
    quads = 0
    for c in sampled:
        text = format_counts(c)
        quads += 4 in c
        standard = ref_standard_distance(c)
        pairs = ref_seven_pairs_distance(c)
        assert zh.shanten_standard(c) == standard - 1, text
        assert zh.shanten(c) == min(standard, pairs) - 1, text
        if sum(c) >= 13:
            lan = ref_shisanlan_distance(c)
            assert zh.shanten_seven_pairs(c) == pairs - 1, text
            riichi_pairs = ref_seven_pairs_distance(c, quads_as_two_pairs=False)
            assert zh.shanten_seven_pairs(c, quads_as_two_pairs=False) == riichi_pairs - 1, text
            assert zh.shisanlan_distance(c) == lan, text
            yao = ref_shisanyao_distance(c)
            assert zh.shisanyao_distance(c) == yao, text
            assert HandRules(forms=ALL_FORMS).shanten(c) == min(standard, pairs, lan, yao) - 1, text
    assert quads >= 180  # the fifth-copy cases are exercised


def test_shanten_with_wild_in_play_counts_a_fifth_copy() -> None:
    """With a wild kind in play (none held), a drawn joker may be a fifth copy: the distance
    is the reference's with no cap on copies."""
    rng = random.Random(19)
    rules = HandRules(forms=frozenset({Form.STANDARD}), wild=Wild(33))
    for _ in range(200):
        quad = rng.randrange(27)
        c = random_hand(rng, rng.choice((3, 6, 9)), [k for k in range(27) if k != quad])
        c[quad] = 4
        assert rules.shanten(c) == ref_standard_distance(c, cap=99) - 1, format_counts(c)


# --- wild tiles ----------------------------------------------------------------------


def wild_hands(
    rng: random.Random, count: int, wild: Wild, compose: Callable[..., list[int]]
) -> list[list[int]]:
    """Winning or near-winning hands (136 tiles) with some tiles turned into the wild kind
    and, with a stand-in, some copies of the wild's face turned into the stand-in."""
    out: list[list[int]] = []
    while len(out) < count:
        size = rng.choice((2, 5, 8, 11, 14, 14))
        c = near_win(rng, size, compose, range(34), swaps=rng.choice((0, 1, 1, 2)))
        # four jokers only in small hands: 52,360 substitutions per 14-tile non-win is slow
        jokers = rng.choice((0, 1, 1, 2, 2, 3) if size > 8 else (0, 1, 2, 3, 4))
        for _ in range(jokers):
            held = [k for k in _tile_list(c) if k != wild.kind]
            if not held or c[wild.kind] >= 4:
                break
            c[rng.choice(held)] -= 1
            c[wild.kind] += 1
        if wild.stand_in is not None and rng.random() < 0.7:
            # 红中配: some tiles of the wild's face (jokers here) turn into the stand-in
            for _ in range(rng.randint(1, 2)):
                if c[wild.kind] and c[wild.stand_in] < 4:
                    c[wild.kind] -= 1
                    c[wild.stand_in] += 1
        if max(c) <= 4:
            out.append(c)
    return out


@pytest.mark.parametrize(
    ("wild", "forms"),
    [
        (Wild(22), PLAIN_FORMS),  # 五筒 wild
        (Wild(9), ALL_FORMS),  # 幺鸡 wild, with 十三烂
        (Wild(31), PLAIN_FORMS),  # 红中 wild
        (Wild(22, stand_in=31), PLAIN_FORMS),  # 红中配
        (Wild(4, stand_in=31), ALL_FORMS),
    ],
    ids=["5p", "1s-all-forms", "5z", "5p-hongzhong-pei", "5m-hongzhong-pei-all-forms"],
)
def test_wild_win_is_some_substitution(
    wild: Wild, forms: frozenset[Form], winning_hand: Compose
) -> None:
    """is_win with a wild kind ⇔ some substitution of every joker (and reading of the
    stand-ins) is a plain win; decompositions exist exactly then and re-assemble."""
    rng = random.Random(f"{wild}/{sorted(forms)}")  # str seeds do not depend on hashing
    rules = HandRules(forms=forms, wild=wild)
    wins = 0
    for c in wild_hands(rng, 150, wild, winning_hand):
        forms_won = ref_wild_win_forms(c, rules)
        wins += bool(forms_won)
        assert rules.is_win(c) == bool(forms_won), format_counts(c)
        assert set(rules.win_forms(c)) == forms_won, format_counts(c)
        decs = rules.decompositions(c)
        assert {d.form for d in decs} == forms_won, format_counts(c)
        for d in decs:
            check_decomposition(c, d, wild)
    print(f"{wild}: {wins} wins")
    assert 40 <= wins <= 115  # both answers are well represented


def test_wild_waits_are_the_winning_draws(winning_hand: Compose) -> None:
    """With a wild kind: waits are the kinds (held < 4) whose draw makes a win."""
    rng = random.Random(23)
    for wild in (Wild(22), Wild(22, stand_in=31)):
        rules = HandRules(wild=wild)
        for _ in range(40):
            c = near_win(rng, rng.choice((4, 7, 13)), winning_hand, range(34))
            if c[wild.kind] < 4 and rng.random() < 0.5:
                c[wild.kind] += 1
                c[rng.choice([k for k in _tile_list(c) if k != wild.kind])] -= 1
            expected = []
            for t in range(NUM_KINDS):
                if c[t] < 4:
                    c[t] += 1
                    if ref_wild_win(c, rules):
                        expected.append(t)
                    c[t] -= 1
            assert rules.waits(c) == expected, format_counts(c)
