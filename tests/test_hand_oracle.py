"""Hand analysis against an outside oracle: the ``mahjong`` package (riichi calculator).

On about 13,000 seeded suits-only hands (108-tile wall) of 13 and 14 tiles — random, composed
winning hands, near-winning hands (one tile dropped or swapped), seven-pairs shapes and
hands holding a four-of-a-kind — plus 1,500 smaller concealed hands (melds laid down):

* ``is_standard_win`` vs ``Agari.is_agari``.  ``is_agari`` also accepts seven *distinct*
  pairs (no kokushi without honors), so it is compared with ``is_standard_win or
  is_seven_pairs(quads_as_two_pairs=False)``, and with ``is_standard_win`` alone on every
  hand that is not all pairs;
* ``shanten_standard`` vs ``Shanten.calculate_shanten(use_chiitoitsu=False,
  use_kokushi=False)``;
* ``shanten_seven_pairs(quads_as_two_pairs=False)`` vs
  ``Shanten.calculate_shanten_for_chiitoitsu_hand`` (13 and 14 tiles).

Every disagreement is collected and reported with the hand and both answers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

mahjong_agari = pytest.importorskip("mahjong.agari")
mahjong_shanten = pytest.importorskip("mahjong.shanten")

from zhuoji import hand as zh  # noqa: E402
from zhuoji.tiles import TileSet, format_counts, wall  # noqa: E402

SEED = 20240607
SUITS = range(27)


def _tile_list(c: list[int]) -> list[int]:
    return [k for k in range(34) for _ in range(c[k])]


def _swap_one(rng: random.Random, c: list[int]) -> None:
    c[rng.choice(_tile_list(c))] -= 1
    c[rng.choice([k for k in SUITS if c[k] < 4])] += 1


def _dealt(rng: random.Random, size: int) -> list[int]:
    c = [0] * 34
    for k in rng.sample(wall(TileSet.SUITS), size):
        c[k] += 1
    return c


def _seven_pairs_shape(rng: random.Random, size: int) -> list[int]:
    """Seven pairs of distinct kinds (sometimes a four-of-a-kind), cut to ``size``, maybe
    with a tile swapped."""
    c = [0] * 34
    kinds = rng.sample(SUITS, 7)
    for k in kinds:
        c[k] = 2
    if rng.random() < 0.3:
        c[kinds[0]] = 4
        c[kinds[1]] = 0
    while sum(c) > size:
        c[rng.choice(_tile_list(c))] -= 1
    if rng.random() < 0.5:
        _swap_one(rng, c)
    return c


def _four_of_a_kind_hand(rng: random.Random, size: int) -> list[int]:
    """One to three four-of-a-kinds filled up with chows, pairs, pungs and singles."""
    c = [0] * 34
    for k in rng.sample(SUITS, rng.choice((1, 1, 2, 3))):
        c[k] = 4
    while sum(c) < size:
        roll = rng.random()
        if roll < 0.5:
            first = rng.choice([k for k in SUITS if k % 9 <= 6])
            block = [first, first + 1, first + 2]
        elif roll < 0.75:
            block = [rng.choice(SUITS)] * rng.choice((2, 3))
        else:
            block = [rng.choice(SUITS)]
        for k in block:
            if c[k] < 4 and sum(c) < size:
                c[k] += 1
    return c


def oracle_hands(compose: Callable[..., list[int]]) -> list[list[int]]:
    """The seeded sample, about 14,500 hands in all."""
    rng = random.Random(SEED)
    out: list[list[int]] = []
    for _ in range(2000):
        out.append(_dealt(rng, 14))
        out.append(_dealt(rng, 13))
        out.append(compose(rng, sets=4, kinds=SUITS))  # complete
        near = compose(rng, sets=4, kinds=SUITS)
        _swap_one(rng, near)  # 14 tiles, usually one away
        out.append(near)
        ready = compose(rng, sets=4, kinds=SUITS)
        ready[rng.choice(_tile_list(ready))] -= 1  # 13 tiles, ready
        out.append(ready)
        if rng.random() < 0.5:
            ready = list(ready)
            _swap_one(rng, ready)  # 13 tiles, usually one from ready
            out.append(ready)
    for _ in range(1000):
        out.append(_seven_pairs_shape(rng, rng.choice((13, 14))))
        out.append(_four_of_a_kind_hand(rng, rng.choice((13, 14))))
    for _ in range(1500):  # concealed part after 1–4 melds
        size = rng.choice((2, 4, 5, 7, 8, 10, 11))
        c = compose(rng, sets=(size - 1) // 3, kinds=SUITS)
        while sum(c) > size:
            c[rng.choice(_tile_list(c))] -= 1
        if rng.random() < 0.5:
            _swap_one(rng, c)
        out.append(c)
    return out


@pytest.fixture(scope="module")
def hands(winning_hand: Callable[..., list[int]]) -> list[list[int]]:
    sample = oracle_hands(winning_hand)
    assert all(max(c) <= 4 and not any(c[27:]) for c in sample)
    return sample


def _report(problems: list[str], what: str) -> str:
    shown = "\n".join(problems[:25])
    return f"{len(problems)} {what} disagreements with the mahjong package:\n{shown}"


def test_sample_is_varied(hands: list[list[int]]) -> None:
    """The sample is large and covers complete, ready and far hands of every size."""
    assert len(hands) >= 14000
    sizes = Counter(sum(c) for c in hands)
    assert sizes[13] >= 5500 and sizes[14] >= 5500
    shanten = Counter(zh.shanten_standard(c) for c in hands if sum(c) in (13, 14))
    assert shanten[-1] >= 2000 and shanten[0] >= 3000 and shanten[1] >= 1500
    assert sum(n for s, n in shanten.items() if s >= 2) >= 2000
    assert sum(1 for c in hands if 4 in c) >= 1000


def test_standard_win_matches_is_agari(hands: list[list[int]]) -> None:
    agari = mahjong_agari.Agari()
    problems = []
    for c in hands:
        if sum(c) % 3 != 2:
            continue
        theirs = agari.is_agari(c)
        ours = zh.is_standard_win(c) or zh.is_seven_pairs(c, quads_as_two_pairs=False)
        all_pairs = all(x in (0, 2) for x in c)
        if theirs != ours or (not all_pairs and theirs != zh.is_standard_win(c)):
            problems.append(f"{format_counts(c)}: ours {ours}, is_agari {theirs}")
    assert not problems, _report(problems, "win")


def test_shanten_standard_matches(hands: list[list[int]]) -> None:
    shanten = mahjong_shanten.Shanten()
    problems = []
    for c in hands:
        theirs = shanten.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)
        ours = zh.shanten_standard(c)
        if theirs != ours:
            problems.append(f"{format_counts(c)}: ours {ours}, mahjong {theirs}")
    assert not problems, _report(problems, "regular shanten")


def test_shanten_seven_pairs_matches(hands: list[list[int]]) -> None:
    problems = []
    for c in hands:
        if sum(c) not in (13, 14):
            continue
        theirs = mahjong_shanten.Shanten.calculate_shanten_for_chiitoitsu_hand(c)
        ours = zh.shanten_seven_pairs(c, quads_as_two_pairs=False)
        if theirs != ours:
            problems.append(f"{format_counts(c)}: ours {ours}, mahjong {theirs}")
    assert not problems, _report(problems, "seven-pairs shanten")


@pytest.mark.parametrize(
    ("text", "shanten"),
    [
        # regressions found against the oracle: the tables counted a fifth copy
        ("1111m234p567p789s", 1),  # looked ready on a fifth 1m
        ("234s1111345777p", 1),
        ("9999m566667888p", 1),
        ("444478m9999s1111p", 2),
    ],
)
def test_oracle_regressions(text: str, shanten: int) -> None:
    from zhuoji.tiles import counts

    c = counts(text)
    theirs = mahjong_shanten.Shanten().calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)
    assert zh.shanten_standard(c) == theirs == shanten
