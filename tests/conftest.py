"""Shared test factories.

Hands are 34-long count arrays (``zhuoji.tiles.counts``); tests write them in notation.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from zhuoji import tiles

# the golden-case library (tests/golden/goldenlib.py), importable as ``goldenlib`` by every
# test module and by tests/golden/show.py run as a script from its folder
sys.path.insert(0, str(Path(__file__).parent / "golden"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--conformance-rounds",
        type=int,
        default=None,
        help="random rounds per shipped variant in tests/test_conformance.py "
        "(default: $ZHUOJI_CONFORMANCE_ROUNDS or 60)",
    )
    parser.addoption("--slow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow; run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


HandFactory = Callable[[str], list[int]]
WinFactory = Callable[..., list[int]]


@pytest.fixture(scope="session")
def hand() -> HandFactory:
    """``hand("123m 456s 11z")`` → count array (raises ``TileParseError`` on bad notation)."""
    return tiles.counts


def compose_win(
    rng: random.Random,
    sets: int = 4,
    kinds: Sequence[int] = range(27),
    pung_share: float = 0.35,
) -> list[int]:
    """A complete standard hand: ``sets`` random pungs or chows and one pair, all drawn from
    ``kinds``, never more than four copies of a kind (retries until that holds)."""
    chow_starts = [k for k in kinds if k < 27 and k % 9 <= 6 and k + 1 in kinds and k + 2 in kinds]
    kinds = list(kinds)
    while True:
        c = [0] * tiles.NUM_KINDS
        for _ in range(sets):
            if not chow_starts or rng.random() < pung_share:
                c[rng.choice(kinds)] += 3
            else:
                first = rng.choice(chow_starts)
                for k in (first, first + 1, first + 2):
                    c[k] += 1
        c[rng.choice(kinds)] += 2
        if max(c) <= tiles.COPIES:
            return c


@pytest.fixture(scope="session")
def winning_hand() -> WinFactory:
    """Factory for :func:`compose_win`: ``winning_hand(rng, sets=4, kinds=range(27))``."""
    return compose_win
