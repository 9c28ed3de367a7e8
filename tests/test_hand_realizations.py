"""A plain hand's standard realizations come from the hand kernel's search
(``zhuoji.hand_kernel.standard_splits``, compiled): the same list as the exhaustive search
over the whole hand (``zhuoji.hand._search_realizations``, which also serves hands with
jokers)."""

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


def test_kernel_splits_keep_chows_in_a_suit_and_one_pair() -> None:
    """The kernel's blocks: no chow among the honors or across two suits (8-9万 1条 is
    none), exactly one pair, each realization once however the search reached it (a kind
    held four times as a pair and two chows is found twice), sorted as groups sort."""
    from zhuoji import hand_kernel as K

    def hand(*kinds: int) -> list[int]:
        c = [0] * 34
        for k in kinds:
            c[k] += 1
        return c

    assert K.standard_splits(hand(27, 28, 29, 0, 0)) == []
    assert K.standard_splits(hand(7, 8, 9, 0, 0)) == []
    assert K.standard_splits(hand(9, 10, 11, 27, 27)) == [(K.CHOW_BLOCK + 9, K.PAIR_BLOCK + 27)]
    four = hand(0, 0, 0, 0, 1, 1, 2, 2)  # 11112233万: pair 1万 + two 123万 chows, only
    assert K.standard_splits(four) == [(K.CHOW_BLOCK, K.CHOW_BLOCK, K.PAIR_BLOCK)]
    assert K.standard_splits(hand(0, 0, 0, 4, 4)) == [(K.PAIR_BLOCK + 4, K.PUNG_BLOCK)]
    assert K.standard_splits(hand(0, 0)[:33]) == []  # not a hand of 34 kinds
    # the groups made of the blocks are shared objects, equal to new ones
    got = H._plain_standard_realizations(four)
    assert got == [(H.Group(H.GroupKind.CHOW, 0),) * 2 + (H.Group(H.GroupKind.PAIR, 0),)]
    assert got[0][0] is got[0][1]


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


def _reference_search(c: list[int], jokers: int, joker_face: int) -> list[tuple[H.Group, ...]]:
    """The joker search as it was first written (rescanning from the first kind, Groups
    compared as objects), kept to check the faster one against."""
    results: set[tuple[H.Group, ...]] = set()

    def rec(jk: int, has_pair: bool, acc: list[H.Group]) -> None:
        i = 0
        while i < 34 and not c[i]:
            i += 1
        if i == 34:
            rest = jk - (0 if has_pair else 2)
            if rest < 0 or rest % 3:
                return
            tail = list(acc)
            if not has_pair:
                tail.append(H.Group(H.GroupKind.PAIR, joker_face, 0b11))
            tail.extend(H.Group(H.GroupKind.PUNG, joker_face, 0b111) for _ in range(rest // 3))
            results.add(tuple(sorted(tail)))
            return
        for kind, size in ((H.GroupKind.PAIR, 2), (H.GroupKind.PUNG, 3)):
            if kind is H.GroupKind.PAIR and has_pair:
                continue
            for real in range(1, min(c[i], size) + 1):
                need = size - real
                if need > jk:
                    continue
                c[i] -= real
                acc.append(H.Group(kind, i, ((1 << need) - 1) << real))
                rec(jk - need, has_pair or kind is H.GroupKind.PAIR, acc)
                acc.pop()
                c[i] += real
        if i >= 27:
            return
        rank = i % 9
        for p in range(3):
            first = i - p
            if p > rank or first % 9 > 6:
                continue
            for choice in range(1 << (2 - p)):
                mask = (1 << p) - 1
                for q in range(p + 1, 3):
                    if choice >> (q - p - 1) & 1:
                        mask |= 1 << q
                need = mask.bit_count()
                if need > jk:
                    continue
                places = [first + q for q in range(p, 3) if not mask >> q & 1]
                if any(c[t] == 0 for t in places):
                    continue
                for t in places:
                    c[t] -= 1
                acc.append(H.Group(H.GroupKind.CHOW, first, mask))
                rec(jk - need, has_pair, acc)
                acc.pop()
                for t in places:
                    c[t] += 1

    rec(jokers, False, [])
    return sorted(results)


def test_joker_search_matches_the_reference() -> None:
    """The same realizations in the same order, for hands with one to four jokers."""
    rng = random.Random(11)
    found = 0
    for _ in range(600):
        c = _random_hand(rng)
        jokers = rng.randint(1, 4)
        take = min(jokers, sum(c))
        tiles = [k for k in range(34) for _ in range(c[k])]
        for t in rng.sample(tiles, take):
            c[t] -= 1  # the jokers stand in the place of some real tiles
        face = rng.randrange(34)
        want = _reference_search(list(c), jokers, face)
        assert list(H._search_realizations(list(c), jokers, face)) == want, (c, jokers)
        found += bool(want)
    assert found > 200


def test_wild_decompositions_are_sorted_and_distinct() -> None:
    """With jokers and a stand-in (红中配), decompositions come once each, by form name then
    groups (as sorting the Decomposition objects themselves orders them)."""
    rng = random.Random(13)
    rules = H.HandRules(frozenset(H.Form), True, H.Wild(22, 31))
    found = 0
    for _ in range(400):
        c = _random_hand(rng)
        for _ in range(rng.randint(1, 3)):  # a tile becomes a joker (五筒) or a stand-in (红中)
            k = rng.choice([k for k in range(34) if c[k]])
            to = rng.choice((22, 31))
            if c[to] < 4:
                c[k] -= 1
                c[to] += 1
        decs = rules.decompositions(c)
        assert decs == sorted(set(decs), key=lambda d: (d.form.value, d.groups))
        found += bool(decs)
    assert found > 50
