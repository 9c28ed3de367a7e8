"""A plain hand's standard realizations come from each group of kinds' own ones (remembered
by the group's counts): the same list as the exhaustive search over the whole hand
(``zhuoji.hand._search_realizations``, which also serves hands with jokers)."""

from __future__ import annotations

import random

from zhuoji import hand as H


def _random_hand(rng: random.Random) -> list[int]:
    """Fourteen (or 11, 8, 5, 2) tiles, often complete: sets and a pair from few kinds."""
    c = [0] * 34
    size = rng.choice([14, 14, 14, 11, 8, 5, 2])
    kinds = rng.sample(range(34), rng.choice([4, 5, 8, 34]))  # 4 kinds hold 16 tiles
    while sum(c) < size:
        k = rng.choice(kinds)
        run = rng.random() < 0.5 and k < 27 and k % 9 <= 6 and sum(c) + 3 <= size
        if run and all(c[k + i] < 4 for i in range(3)):
            for i in range(3):
                c[k + i] += 1
            continue
        if c[k] < 4:
            c[k] += 1
    return c


def test_plain_realizations_match_the_search() -> None:
    rng = random.Random(3)
    found = 0
    for _ in range(3000):
        c = _random_hand(rng)
        want = list(H._search_realizations(list(c), 0, 0))
        got = list(H._standard_realizations(list(c), 0, 0))
        assert got == want, c
        found += bool(want)
    assert found > 200  # many complete hands


def test_group_realizations_are_keyed_by_group_and_pair() -> None:
    """The same counts in another group (or among the honors, where no chow is) and with or
    without the pair are other entries of the memo."""
    run = (1, 1, 1, 0, 0, 0, 0)
    assert H._group_realizations(0, (*run, 0, 0), False) == ((H.Group(H.GroupKind.CHOW, 0),),)
    assert H._group_realizations(9, (*run, 0, 0), False) == ((H.Group(H.GroupKind.CHOW, 9),),)
    assert H._group_realizations(27, run, False) == ()
    assert H._group_realizations(0, (2, 0, 0, 0, 0, 0, 0, 0, 0), True) == (
        (H.Group(H.GroupKind.PAIR, 0),),
    )
    assert H._group_realizations(0, (2, 0, 0, 0, 0, 0, 0, 0, 0), False) == ()


def test_plain_decompositions_match_the_general_path() -> None:
    """Without jokers :meth:`HandRules.decompositions` takes a shorter path (no stand-ins to
    try, so no set to gather them in): the same list, in the same order, as the general
    path gives with a wild kind the hand does not hold, under every form setting."""
    rng = random.Random(5)
    settings = [
        (frozenset(H.Form), True, H.LanRule.THREE_APART),
        (frozenset(H.Form), False, H.LanRule.STRICT),
        (frozenset({H.Form.STANDARD, H.Form.SEVEN_PAIRS}), True, H.LanRule.THREE_APART),
        (frozenset({H.Form.SEVEN_PAIRS, H.Form.SHISANLAN}), True, H.LanRule.STRICT),
    ]
    found = 0
    for i in range(3000):
        c = _random_hand(rng)
        if i % 7 == 0:  # pairs, and 十三烂 / 十三幺 shapes
            c = [0] * 34
            for k in rng.sample(range(34), 7):
                c[k] = 2
        elif i % 7 == 1:
            c = [0] * 34
            for k in (*rng.sample(H.ORPHANS, 13), rng.choice(H.ORPHANS)):
                c[k] += 1
        elif i % 7 == 2:
            c = [0] * 34
            for k in (0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 28, 29, 30, 31):
                c[k] = 1
        absent = next(k for k in range(34) if not c[k]) if 0 in c else None
        if absent is None:
            continue
        for forms, quads, lan in settings:
            plain = H.HandRules(forms, quads, None, lan)
            general = H.HandRules(forms, quads, H.Wild(absent), lan)
            got = plain.decompositions(c)
            assert got == general.decompositions(c), c
            found += bool(got)
    assert found > 1000
