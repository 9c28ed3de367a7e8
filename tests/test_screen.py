"""The pattern screen (:mod:`zhuoji.rules.screen`): the 通行证 value read from the counts
equals ``evaluate``'s ``HandValue.base`` (seed 000 特殊玩法规则 1: "如果玩家做到了平胡以上的牌,
也可以胡其他人的牌"), for every shipped table it accepts, and its caches never return the value
of another context."""

from __future__ import annotations

import random

import pytest

from zhuoji import tiles as T
from zhuoji.outcome import Meld, MeldKind
from zhuoji.rules.facts import WinContext
from zhuoji.rules.patterns import evaluate
from zhuoji.rules.screen import PatternScreen, pattern_fan, screen_for
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import builtin_names, load_variant

SCREENED = [n for n in builtin_names() if screen_for(load_variant(n)) is not None]

#: rows that read the context (no shipped table has them): a value that depends on it
CONTEXT_ROWS = {
    "patterns.rows.zhuang": {
        "name": "庄",
        "name_en": "dealer",
        "fan": 3,
        "requires": {"dealer": True},
    },
    "patterns.rows.ting": {
        "name": "听",
        "name_en": "declared",
        "fan": 4,
        "requires": {"declared": True},
    },
}


def _random_meld(rng: random.Random) -> Meld:
    kind = rng.choice([MeldKind.PENG, MeldKind.GANG_EXPOSED, MeldKind.GANG_CONCEALED, MeldKind.CHI])
    if kind is MeldKind.CHI:
        return Meld(kind, rng.choice([k for k in range(27) if k % 9 <= 6]))
    return Meld(kind, rng.randrange(27))


def _hands(rng: random.Random, winning_hand, n: int):  # type: ignore[no-untyped-def]
    """Complete hands with melds: seven pairs (a four-of-a-kind now and then), pung-rich and
    one-suit standard hands."""
    for i in range(n):
        k = rng.choice([0, 0, 1, 2])
        if i % 5 == 0 and k == 0:
            ks = rng.sample(range(9) if i % 2 else range(27), 7)
            c = [0] * T.NUM_KINDS
            for x in ks:
                c[x] = 2
            if i % 3 == 0:
                c[ks[0]], c[ks[1]] = 4, 0
        else:
            c = winning_hand(
                rng,
                sets=4 - k,
                kinds=range(9) if rng.random() < 0.3 else range(27),
                pung_share=rng.random(),
            )
        melds = tuple(_random_meld(rng) for _ in range(k))
        tile = rng.choice([t for t in range(T.NUM_KINDS) if c[t]])
        yield c, melds, tile


def _evaluated(
    ruleset: Ruleset, c: list[int], melds: tuple[Meld, ...], tile: int, **ctx: bool
) -> int:
    rules = ruleset.hand_rules()
    v = evaluate(ruleset.variant.patterns, rules, c, melds, tile, WinContext(**ctx))
    return v.base if v else 0


@pytest.mark.parametrize("variant", SCREENED)
def test_pattern_screen_matches_evaluate(variant: str, winning_hand) -> None:  # type: ignore[no-untyped-def]
    ruleset = load_variant(variant)
    screen = screen_for(ruleset)
    assert screen is not None
    rules = ruleset.hand_rules()
    rng = random.Random(23)
    for c, melds, tile in _hands(rng, winning_hand, 200):
        dealer, declared = rng.random() < 0.5, rng.random() < 0.5
        want = _evaluated(ruleset, c, melds, tile, dealer=dealer, declared=declared)
        got = screen.base_fan(rules, c, melds, dealer=dealer, declared=declared)
        assert got == want, (T.format_counts(c), melds)
        assert pattern_fan(ruleset, rules, c, melds, tile, dealer=dealer, declared=declared) == want


def test_screen_covers_the_zhuoji_tables() -> None:
    assert {"guiyang", "guiyang-weile", "liupanshui"} <= set(SCREENED)


def test_screen_is_refused_for_additive_tables() -> None:
    assert PatternScreen.build(load_variant("jinyou")) is None
    assert PatternScreen.build(load_variant("luan")) is None


@pytest.mark.parametrize("variant", ["guiyang", "zunyi"])  # screened; evaluated
def test_cached_values_follow_the_context(variant: str, winning_hand) -> None:  # type: ignore[no-untyped-def]
    """The same hand valued for the dealer and not, declared and not, in any order: each
    answer is its own context's (a cache keyed on the counts alone would fail)."""
    ruleset = load_variant(variant, CONTEXT_ROWS)
    assert (screen_for(ruleset) is not None) is (variant == "guiyang")
    rules = ruleset.hand_rules()
    rng = random.Random(5)
    changed = 0
    for c, melds, tile in _hands(rng, winning_hand, 40):
        seen = set()
        for dealer, declared in [(False, False), (True, False), (False, True), (True, True)] * 2:
            want = _evaluated(ruleset, c, melds, tile, dealer=dealer, declared=declared)
            got = pattern_fan(ruleset, rules, c, melds, tile, dealer=dealer, declared=declared)
            assert got == want
            seen.add(got)
        changed += len(seen) > 1
    assert changed >= 10  # the context rows did change the value of many hands


def test_rulesets_do_not_share_values(winning_hand) -> None:  # type: ignore[no-untyped-def]
    """Two rulesets of one variant with different tables get their own values."""
    plain, extra = load_variant("guiyang"), load_variant("guiyang", CONTEXT_ROWS)
    c = winning_hand(random.Random(1), sets=4, kinds=range(27), pung_share=0.0)
    args = (c, (), next(t for t in range(T.NUM_KINDS) if c[t]))
    a = pattern_fan(plain, plain.hand_rules(), *args, dealer=True)
    b = pattern_fan(extra, extra.hand_rules(), *args, dealer=True)
    assert (a, b) == (_evaluated(plain, *args, dealer=True), _evaluated(extra, *args, dealer=True))
    assert a != b
