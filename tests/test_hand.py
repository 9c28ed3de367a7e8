"""Hand analysis by example (zhuoji.hand): tables of ``(hand, expected)``.

Regression hands carry an id naming where they come from: ``doc`` (the module docstring),
``seed-003`` (六安 rules: 十三烂, 宝牌, 红中配), ``seed-004`` (双龙七对), ``oracle`` (a
disagreement with the mahjong package, see test_hand_oracle.py) or a classic hand name.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from zhuoji import hand as zh
from zhuoji.hand import Decomposition, Form, Group, GroupKind, HandRules, Wild
from zhuoji.tiles import LETTERS, format, parse, parse_one, rank_of, suit_of

HandFactory = Callable[[str], list[int]]  # the ``hand`` fixture of conftest.py
ALL_FORMS = frozenset(Form)
LAN = HandRules(forms=ALL_FORMS)
NO_QUADS = HandRules(quads_as_two_pairs=False)


def tiles_text(kinds: list[int]) -> str:
    return format(kinds)


def show(d: Decomposition) -> str:
    """``"pair 11m pung 222m chow 6*78p"``: blocks in the decomposition's order, a ``*``
    after each tile a joker stands for."""

    def block(g: Group) -> str:
        ranks = "".join(
            f"{rank_of(t)}{'*' if g.wild >> i & 1 else ''}" for i, t in enumerate(g.tiles)
        )
        return f"{g.kind.value} {ranks}{LETTERS[suit_of(g.first)]}"

    return " ".join(block(g) for g in d.groups)


# ---------------------------------------------------------------------------------------
# complete hands
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("123m456m789m123s55p", True, id="doc"),
        pytest.param("11122233344455m", True, id="four-readings"),
        pytest.param("11123455678999m", True, id="nine-gates-plus-5m"),
        pytest.param("111z222z333z444z55z", True, id="big-four-winds"),
        pytest.param("11223344556677m", True, id="seven-pairs-and-standard"),
        pytest.param("1122m3344s5566p77z", True, id="seven-pairs-only"),
        pytest.param("11112233445566m", True, id="long-seven-pairs"),
        pytest.param("1111m2222s33p44p55p", True, id="seed-004-double-long"),
        pytest.param("123m456s789p1234z", False, id="13-tiles"),
        pytest.param("123m456s789p12345z", False, id="honors-apart"),
        pytest.param("19m19s19p12345677z", False, id="thirteen-orphans-is-no-form"),
        pytest.param("147m258s369p12345z", False, id="seed-003-shisanlan-not-plain"),
        pytest.param("123m456m789m123s56p", False, id="no-pair"),
        pytest.param("789m891s", False, id="no-wrap-9-1"),
        pytest.param("11m", True, id="pair-only"),
        pytest.param("1m", False, id="single"),
        pytest.param("12m", False, id="two-singles"),
        pytest.param("", False, id="empty"),
        pytest.param("11123m", True, id="5-tiles"),
        pytest.param("1112223m", False, id="7-tiles"),
        pytest.param("11122233m", True, id="8-tiles"),
        pytest.param("123456789m99s", True, id="11-tiles"),
        pytest.param("1113m", False, id="4-tiles"),
    ],
)
def test_is_win(hand: HandFactory, text: str, expected: bool) -> None:
    """The plain forms: sets and a pair, or seven pairs (a four-of-a-kind as two pairs)."""
    c = hand(text)
    assert zh.is_win(c) is expected
    assert zh.PLAIN.is_win(c) is expected
    assert bool(zh.decompositions(c)) is expected
    if len(parse(text)) % 3 == 2:
        assert (zh.shanten(c) == -1) is expected


@pytest.mark.parametrize(
    ("text", "standard", "seven_pairs", "riichi_seven_pairs", "quads", "name"),
    [
        ("11223344556677m", True, True, True, 0, "七对"),
        ("1122m3344s5566p77z", False, True, True, 0, "七对"),
        ("11112233445566m", True, True, False, 1, "龙七对"),
        ("1111m2233s4455p66z", False, True, False, 1, "龙七对"),
        ("1111m2222s33p44p55p", False, True, False, 2, "双龙七对"),
        ("1111m2222s3333p44z", False, True, False, 3, "三龙七对"),
        ("1122m3344s5566p7z", False, False, False, 0, "13 tiles"),
        ("111m22s33s44p55p66z", False, False, False, 0, "a pung is no pair"),
    ],
)
def test_seven_pairs_with_quads(
    hand: HandFactory,
    text: str,
    standard: bool,
    seven_pairs: bool,
    riichi_seven_pairs: bool,
    quads: int,
    name: str,
) -> None:
    """A four-of-a-kind counts as two pairs unless quads_as_two_pairs is off; ``quads``
    counts them (1 → 龙七对, 2 → 双龙七对)."""
    c = hand(text)
    assert zh.is_standard_win(c) is standard
    assert zh.is_seven_pairs(c) is seven_pairs
    assert zh.is_seven_pairs(c, quads_as_two_pairs=False) is riichi_seven_pairs
    assert zh.quads(c) == quads
    assert zh.is_win(c) is (standard or seven_pairs)
    assert NO_QUADS.is_win(c) is (standard or riichi_seven_pairs)
    assert (Form.SEVEN_PAIRS in zh.PLAIN.win_forms(c)) is seven_pairs
    if seven_pairs:
        (pairs,) = [d for d in zh.decompositions(c) if d.form is Form.SEVEN_PAIRS]
        assert len(pairs.groups) == 7 and pairs.pair is None


# ---------------------------------------------------------------------------------------
# waits
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "waits"),
    [
        pytest.param("1112345678999m", "123456789m", id="nine-gates"),
        pytest.param("123m456m789m123s5p", "5p", id="single-wait"),
        pytest.param("123m456m789m11s55p", "1s5p", id="two-pairs"),
        pytest.param("123m456m789m55p23s", "14s", id="open-ended"),
        pytest.param("123m456m789m55p13s", "2s", id="closed"),
        pytest.param("123m456m789m55p12s", "3s", id="edge"),
        pytest.param("123m456m789m55p89s", "7s", id="edge-high"),
        pytest.param("1112223334445m", "23456m", id="pungs-and-5m"),
        pytest.param("1122334455667m", "147m", id="seven-pairs-or-standard"),
        pytest.param("1122m3344s5566p7z", "7z", id="seven-pairs-single"),
        pytest.param("1122m3344s5566p1z", "1z", id="seven-pairs-honor"),
        pytest.param("1111m234p567p789s", "", id="oracle-fifth-copy"),
        pytest.param("1111m2233s4455p6z", "6z", id="long-seven-pairs-wait"),
        pytest.param("111m2233s4455p66z", "1m", id="seven-pairs-wait-on-quad"),
        pytest.param("147m258s369p1234z", "", id="seed-003-shisanlan-not-plain"),
        pytest.param("19m19s19p1234567z", "", id="thirteen-orphans-is-no-form"),
    ],
)
def test_waits(hand: HandFactory, text: str, waits: str) -> None:
    """Kinds that complete the hand; a kind held four times is not a wait."""
    c = hand(text)
    assert tiles_text(zh.waits(c)) == waits
    assert zh.PLAIN.waits(c) == zh.waits(c)
    assert zh.is_ready(c) is bool(waits)
    assert (zh.shanten(c) == 0) is bool(waits)


@pytest.mark.parametrize(
    ("text", "waits"),
    [
        # one meld laid down: 10 concealed tiles
        pytest.param("123456789m1z", "1z", id="10-single"),
        pytest.param("111222333m5z", "5z", id="10-honor"),
        pytest.param("1234567m111s", "147m", id="10-three-sided"),
        pytest.param("111234567m9s", "9s", id="10-single-9s"),
        # two melds: 7
        pytest.param("3456777s", "23568s", id="7-five-sided"),
        pytest.param("2345678m", "258m", id="7-258"),
        pytest.param("1234567m", "147m", id="7-147"),
        pytest.param("1112345m", "2356m", id="7-2356"),
        pytest.param("5556777m", "45678m", id="7-45678"),
        pytest.param("123456m1z", "1z", id="7-single"),
        # three melds: 4
        pytest.param("1112m", "23m", id="4-no-fifth-1m"),
        pytest.param("1234m", "14m", id="4-14"),
        pytest.param("1122m", "12m", id="4-two-pairs"),
        pytest.param("1111m", "", id="4-quad-waits-on-nothing"),
        # four melds: 1
        pytest.param("5z", "5z", id="1-honor"),
        pytest.param("5m", "5m", id="1-suited"),
    ],
)
def test_hands_with_melds_removed(hand: HandFactory, text: str, waits: str) -> None:
    """Only the concealed part is passed: 13 − 3k tiles wait, and each wait makes a complete
    14 − 3k-tile hand of sets and a pair."""
    c = hand(text)
    assert tiles_text(zh.waits(c)) == waits
    assert (zh.shanten(c) == 0) is bool(waits)
    for t in zh.waits(c):
        done = list(c)
        done[t] += 1
        assert zh.is_win(done) and zh.shanten(done) == -1
        assert all(d.form is Form.STANDARD for d in zh.decompositions(done))


# ---------------------------------------------------------------------------------------
# shanten
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shanten", "standard", "seven_pairs"),
    [
        pytest.param("147m258s369p1234z", 6, 8, 6, id="doc"),
        pytest.param("19m19s19p1234567z", 6, 8, 6, id="thirteen-orphans"),
        pytest.param("123m456m789m123s5p", 0, 0, 6, id="ready"),
        pytest.param("123m456m789m123s55p", -1, -1, 5, id="complete"),
        pytest.param("1122m3344s5566p7z", 0, 3, 0, id="seven-pairs-ready"),
        pytest.param("1122m3344s5566p77z", -1, 3, -1, id="seven-pairs-complete"),
        pytest.param("1111m2233s4455p6z", 0, 2, 0, id="long-seven-pairs-ready"),
        pytest.param("1111m234p567p789s", 1, 1, 4, id="oracle-fifth-copy"),
        pytest.param("234s1111345777p", 1, 1, 3, id="oracle-fifth-copy-2"),
        pytest.param("444478m9999s1111p", 0, 2, 0, id="oracle-three-quads-seven-pairs"),
        pytest.param("1111m", 1, 1, None, id="4-tiles-quad"),
        pytest.param("1z", 0, 0, None, id="1-tile"),
        pytest.param("1234z", 2, 2, None, id="4-honors"),
        pytest.param("1m4m7m1s4s7s1p", 4, 4, None, id="7-isolated"),
        pytest.param("123m456m789m12s59p", 1, 1, 6, id="14-one-away"),
    ],
)
def test_shanten(
    hand: HandFactory, text: str, shanten: int, standard: int, seven_pairs: int | None
) -> None:
    """Tiles to exchange before being ready (−1: complete); seven pairs only counts for
    13 or 14 tiles (``None``: not applicable)."""
    c = hand(text)
    assert zh.shanten(c) == shanten
    assert zh.PLAIN.shanten(c) == shanten
    assert zh.shanten_standard(c) == standard
    if seven_pairs is None:
        assert zh.seven_pairs_distance(c) == zh.FAR
    else:
        assert zh.shanten_seven_pairs(c) == seven_pairs


def test_too_many_tiles() -> None:
    with pytest.raises(ValueError, match="a concealed hand holds at most 14 tiles, not 15"):
        zh.shanten_standard([4, 4, 4, 3] + [0] * 30)


# ---------------------------------------------------------------------------------------
# 十三烂 (seed 003 "1、4、7+2、5、8+3、6、9+不重复的风牌")
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("147m258s369p12345z", True, id="seed-003"),
        pytest.param("147m258s36p123456z", True, id="two-in-one-suit"),
        pytest.param("14m25s369p1234567z", True, id="all-seven-honors"),
        pytest.param("147m147s147p12345z", True, id="same-ranks-each-suit"),
        pytest.param("148m259s369p12345z", True, id="gaps-wider-than-three"),
        pytest.param("146m258s369p12345z", False, id="4-6-too-close"),
        pytest.param("147m258s369p11234z", False, id="honor-twice"),
        pytest.param("1147m258s369p1234z", False, id="suited-twice"),
        pytest.param("1m258s369p1234567z", True, id="one-tile-in-a-suit"),
        pytest.param("1m258s369p123456z", False, id="13-tiles"),
        pytest.param("1479m25s36p123456z", False, id="four-in-one-suit"),
    ],
)
def test_shisanlan(hand: HandFactory, text: str, expected: bool) -> None:
    """Fourteen distinct tiles, each suit's ranks at least three apart; only with the form."""
    c = hand(text)
    assert zh.is_shisanlan(c) is expected
    assert LAN.is_win(c) is expected
    assert zh.is_win(c) is False
    assert HandRules().is_win(c) is False
    assert (LAN.win_forms(c) == [Form.SHISANLAN]) is expected
    assert (zh.shisanlan_distance(c) == 0) is expected
    decs = LAN.decompositions(c)
    assert [d.form for d in decs] == ([Form.SHISANLAN] if expected else [])
    if expected:
        assert {g.kind for g in decs[0].groups} == {GroupKind.SINGLE}


@pytest.mark.parametrize(
    ("text", "waits", "shanten"),
    [
        pytest.param("147m258s369p1234z", "567z", 0, id="seed-003-honor-waits"),
        pytest.param("147m258s36p12345z", "9p67z", 0, id="suit-or-honor"),
        pytest.param("14m25s369p123456z", "789m89s7z", 0, id="many"),
        pytest.param("147m258s369p1123z", "", 1, id="pair-blocks"),
        pytest.param("1122m3344s5566p7z", "7z", 0, id="plain-waits-kept"),
    ],
)
def test_shisanlan_waits(hand: HandFactory, text: str, waits: str, shanten: int) -> None:
    c = hand(text)
    assert tiles_text(LAN.waits(c)) == waits
    assert LAN.shanten(c) == shanten


STRICT_LAN = HandRules(forms=ALL_FORMS, shisanlan=zh.LanRule.STRICT)


@pytest.mark.parametrize(
    ("text", "three_apart", "strict"),
    [
        pytest.param("147m258s369p12345z", True, True, id="seed-003-literal"),
        pytest.param("369m147s258p12345z", True, True, id="triples-in-any-suit"),
        pytest.param("14m25s369p1234567z", True, True, id="subsets-of-triples"),
        pytest.param("148m258s369p12345z", True, False, id="1-4-8-three-apart-only"),
        pytest.param("147m147s369p12345z", True, False, id="one-triple-twice"),
        pytest.param("147m147s147p12345z", True, False, id="same-ranks-each-suit"),
        pytest.param("15m258s369p123456z", True, False, id="1-5-not-a-triple"),
        pytest.param("146m258s369p12345z", False, False, id="4-6-too-close"),
    ],
)
def test_shisanlan_strictness(
    hand: HandFactory, text: str, three_apart: bool, strict: bool
) -> None:
    """``forms.shisanlan``: three_apart (each suit's ranks at least three apart) or strict
    (literally 147/258/369, a different triple per suit: seed 003 word for word)."""
    c = hand(text)
    assert LAN.is_win(c) is three_apart
    assert STRICT_LAN.is_win(c) is strict
    assert zh.is_shisanlan(c, strict=True) is strict
    assert (zh.shisanlan_distance(c, strict=True) == 0) is strict
    assert bool(STRICT_LAN.decompositions(c)) is strict


@pytest.mark.parametrize(
    ("text", "three_apart", "strict"),
    [
        pytest.param("1m258s369p123456z", "456789m7z", "47m7z", id="one-m-tile"),
        pytest.param("47m258s369p12345z", "1m67z", "1m67z", id="same-either-way"),
        pytest.param("48m258s369p12345z", "1m67z", "", id="4-8-not-strict"),
    ],
)
def test_shisanlan_strict_waits(
    hand: HandFactory, text: str, three_apart: str, strict: str
) -> None:
    c = hand(text)
    assert tiles_text(LAN.waits(c)) == three_apart
    assert tiles_text(STRICT_LAN.waits(c)) == strict
    assert (STRICT_LAN.shanten(c) == 0) is bool(strict)


# ---------------------------------------------------------------------------------------
# decompositions
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "11122233344455m",
            [
                "chow 123m chow 123m chow 123m pair 55m pung 444m",
                "chow 234m chow 234m chow 234m pair 55m pung 111m",
                "chow 234m chow 345m chow 345m pair 22m pung 111m",
                "pair 55m pung 111m pung 222m pung 333m pung 444m",
            ],
            id="four-readings",
        ),
        pytest.param(
            "11223344556677m",
            [
                "pair 11m pair 22m pair 33m pair 44m pair 55m pair 66m pair 77m",
                "chow 123m chow 123m chow 456m chow 456m pair 77m",
                "chow 123m chow 123m chow 567m chow 567m pair 44m",
                "chow 234m chow 234m chow 567m chow 567m pair 11m",
            ],
            id="seven-pairs-and-three-standard",
        ),
        pytest.param(
            "11112222333344m",
            [
                "pair 11m pair 11m pair 22m pair 22m pair 33m pair 33m pair 44m",
                "chow 123m chow 123m chow 123m chow 123m pair 44m",
                "chow 123m chow 123m chow 234m chow 234m pair 11m",
                "chow 123m pair 44m pung 111m pung 222m pung 333m",
            ],
            id="three-quads",
        ),
        pytest.param(
            "11112233445566m",
            [
                "pair 11m pair 11m pair 22m pair 33m pair 44m pair 55m pair 66m",
                "chow 123m chow 123m chow 456m chow 456m pair 11m",
            ],
            id="long-seven-pairs",
        ),
        pytest.param(
            "11123455678999m",
            ["chow 234m chow 678m pair 55m pung 111m pung 999m"],
            id="nine-gates-plus-5m",
        ),
        pytest.param(
            "123m456m789m123s55p",
            ["chow 123m chow 456m chow 789m chow 123s pair 55p"],
            id="doc",
        ),
        pytest.param("11122233m", ["pair 33m pung 111m pung 222m"], id="8-tiles"),
        pytest.param("11123m", ["chow 123m pair 11m"], id="5-tiles"),
        pytest.param("11m", ["pair 11m"], id="2-tiles"),
        pytest.param("123m456m789m123s56p", [], id="not-complete"),
    ],
)
def test_decompositions(hand: HandFactory, text: str, expected: list[str]) -> None:
    """Every realization, each once, sorted (form name, then blocks)."""
    decs = zh.decompositions(hand(text))
    assert [show(d) for d in decs] == expected
    for d in decs:
        if d.form is Form.STANDARD:
            assert d.pair is not None and d.pair.kind is GroupKind.PAIR


# ---------------------------------------------------------------------------------------
# wild tiles (seed 003 宝牌) and the 红中配 stand-in
# ---------------------------------------------------------------------------------------

WILD_5P = HandRules(wild=Wild(parse_one("5p")))


@pytest.mark.parametrize(
    ("text", "expected", "decompositions"),
    [
        pytest.param(
            "123m456s78p11z5p",
            True,
            ["chow 123m chow 456s chow 6*78p pair 11z", "chow 123m chow 456s chow 789*p pair 11z"],
            id="joker-ends-a-chow",
        ),
        pytest.param("1z5p", True, ["pair 11*z"], id="joker-pairs"),
        pytest.param("55p", True, ["pair 5*5*p"], id="two-jokers-pair"),
        pytest.param(
            "1111m234s567s789s5p",
            True,
            [
                "chow 234s chow 567s chow 789s pair 11m pung 111*m",
                "chow 234s chow 567s chow 789s pair 11*m pung 111m",
            ],
            id="joker-is-a-fifth-copy",
        ),
        pytest.param(
            "1122m3344s6677p1z5p",
            True,
            ["pair 11m pair 22m pair 33s pair 44s pair 66p pair 77p pair 11*z"],
            id="joker-completes-seven-pairs",
        ),
        pytest.param("123m456s789p1234z5p", False, [], id="three-honors-one-joker"),
        pytest.param("123m456s789p123z5p", False, [], id="13-tiles"),
        pytest.param("5555p", False, [], id="4-tiles"),
        pytest.param("123m456s789p34p5z11z", False, [], id="no-stand-in"),
    ],
)
def test_wild(hand: HandFactory, text: str, expected: bool, decompositions: list[str]) -> None:
    """Every copy of the wild kind stands for any kind, even a fifth copy."""
    c = hand(text)
    assert WILD_5P.is_win(c) is expected
    assert [show(d) for d in WILD_5P.decompositions(c)] == decompositions
    if len(parse(text)) % 3 == 2:
        assert (WILD_5P.shanten(c) == -1) is expected


@pytest.mark.parametrize(
    ("text", "rules", "waits"),
    [
        pytest.param("123m456s789p12z55p", WILD_5P, "5p12z", id="two-honors-two-jokers"),
        pytest.param("123m456s789p1z", WILD_5P, "5p1z", id="draw-the-joker"),
        pytest.param("1111m234s567s789s", WILD_5P, "5p", id="only-the-joker"),
        pytest.param(
            "123m5p", WILD_5P, "123456789m123456789s123456789p1234567z", id="anything-goes"
        ),
        pytest.param(
            "147m258s369p1234z",
            HandRules(forms=ALL_FORMS, wild=Wild(parse_one("5z"))),
            "567z",
            id="seed-003-shisanlan-wild-is-a-wait",
        ),
    ],
)
def test_wild_waits(hand: HandFactory, text: str, rules: HandRules, waits: str) -> None:
    assert tiles_text(rules.waits(hand(text))) == waits


HONG_ZHONG_PEI = HandRules(wild=Wild(parse_one("5p"), stand_in=parse_one("5z")))


@pytest.mark.parametrize(
    ("text", "plain_wild", "with_stand_in", "decompositions"),
    [
        pytest.param(
            "123m456s789p34p5z11z",
            False,
            True,
            ["chow 123m chow 456s chow 345p chow 789p pair 11z"],
            id="seed-003-hong-zhong-as-5p",
        ),
        pytest.param(
            "123m456s789p555z11z",
            True,
            True,
            [
                "chow 123m chow 456s chow 789p pair 11z pung 555p",
                "chow 123m chow 456s chow 789p pair 11z pung 555z",
            ],
            id="hong-zhong-as-itself",
        ),
        pytest.param(
            "123m456s789p34p555z",
            False,
            True,
            [
                "chow 123m chow 456s chow 345p chow 789p pair 55p",
                "chow 123m chow 456s chow 345p chow 789p pair 55z",
            ],
            id="one-read-as-5p-the-pair-either-way",
        ),
        pytest.param(
            "123m456s789p34p5z1z5p",
            False,
            True,
            ["chow 123m chow 456s chow 345p chow 789p pair 11*z"],
            id="stand-in-and-joker",
        ),
        pytest.param("123m456s789p34p6z11z", False, False, [], id="fa-cai-is-no-stand-in"),
    ],
)
def test_hong_zhong_pei(
    hand: HandFactory,
    text: str,
    plain_wild: bool,
    with_stand_in: bool,
    decompositions: list[str],
) -> None:
    """红中配: a 红中 may stand for the wild's own face (a real 5p here, not a joker)."""
    c = hand(text)
    assert WILD_5P.is_win(c) is plain_wild
    assert HONG_ZHONG_PEI.is_win(c) is with_stand_in
    assert [show(d) for d in HONG_ZHONG_PEI.decompositions(c)] == decompositions


@pytest.mark.parametrize(
    ("indicator", "stand_in", "wild"),
    [
        pytest.param("4p", "5z", Wild(parse_one("5p"), parse_one("5z")), id="4p-gives-5p"),
        pytest.param("9s", None, Wild(parse_one("1s")), id="9s-wraps-to-yaoji"),
        pytest.param("9m", "5z", Wild(parse_one("1m"), parse_one("5z")), id="9m-wraps"),
        pytest.param("4z", "5z", Wild(parse_one("1z")), id="north-to-east-no-stand-in"),
        pytest.param("7z", "5z", Wild(parse_one("5z")), id="white-to-red-no-stand-in"),
        pytest.param("5z", "5z", Wild(parse_one("6z")), id="red-to-green-no-stand-in"),
    ],
)
def test_wild_from_indicator(indicator: str, stand_in: str | None, wild: Wild) -> None:
    """Seed 003 "确定宝牌": the next kind in the indicator's cycle; 红中配 only when the wild
    is not an honor."""
    si = parse_one(stand_in) if stand_in else None
    assert zh.wild_from_indicator(parse_one(indicator), si) == wild


def test_four_jokers() -> None:
    """Four jokers with ten real tiles: many realizations, the all-joker pung among them."""
    c = [0] * 34
    for k in parse("123m456s789p1z5555p"):
        c[k] += 1
    decs = [show(d) for d in WILD_5P.decompositions(c)]
    assert "chow 123m chow 456s chow 789p pair 11*z pung 5*5*5*p" in decs
    assert "chow 123m chow 4*56s chow 456s chow 7*8*9p pair 11*z" not in decs  # 456s is once
    assert len(decs) == len(set(decs)) > 10


def test_group_repr_marks_jokers() -> None:
    assert repr(Group(GroupKind.CHOW, parse_one("6p"), 0b001)) == "Group(chow 678p*)"
    assert repr(Group(GroupKind.PUNG, 0)) == "Group(pung 111m)"
    assert Group(GroupKind.PAIR, 0, 0b11).wild_count == 2


@pytest.mark.parametrize("variant", ["guiyang", "luan", "liupanshui", "jinyou"])
def test_the_bound_distance_and_shanten_functions_agree_with_the_methods(variant: str) -> None:
    """``HandRules.distance_function`` / ``shanten_floor_function`` (the kernel with the
    table's wild tile and forms bound, as the engine and the bots call them) give what
    ``distance`` / ``shanten`` give, wild tiles and stand-ins included."""
    import random

    from zhuoji.tiles import kinds_in
    from zhuoji.variant_io import load_variant

    ruleset = load_variant(variant)
    rng = random.Random(variant)
    kinds = kinds_in(ruleset.variant.tiles.set)
    for wild in (None, *rng.sample(kinds, 3)):
        rules = ruleset.hand_rules(wild)
        distance, floor = rules.distance_function(), rules.shanten_floor_function()
        for _ in range(400):
            c = [0] * 34
            for t in rng.sample([k for k in kinds for _ in range(4)], rng.choice([13, 14])):
                c[t] += 1
            assert distance(c) == rules.distance(c), (variant, wild, c)
            if rules.wild is not None:
                assert floor(c) == rules.shanten(c), (variant, wild, c)


@pytest.mark.parametrize("variant", ["luan", "liupanshui"])
def test_the_wild_ukeire_function_is_its_definition(variant: str) -> None:
    """``HandRules.ukeire_function`` (one kernel call, as the bots' analyser makes it): the
    shanten, then every kind with live copies, held fewer than four times, one more of
    which lowers the shanten, and their live copies summed."""
    import random

    from zhuoji.tiles import kinds_in
    from zhuoji.variant_io import load_variant

    ruleset = load_variant(variant)
    rng = random.Random(variant)
    kinds = kinds_in(ruleset.variant.tiles.set)
    assert ruleset.hand_rules(None).ukeire_function() is None
    for wild in rng.sample(kinds, 3):
        rules = ruleset.hand_rules(wild)
        ukeire = rules.ukeire_function()
        assert ukeire is not None
        for _ in range(200):
            c = [0] * 34
            for t in rng.sample([k for k in kinds for _ in range(4)], rng.choice([4, 7, 13])):
                c[t] += 1
            live = [max(0, 4 - c[k] - rng.randrange(3)) for k in range(34)]
            s = rules.shanten(c)
            want = [k for k in kinds if live[k] and c[k] < 4 and _one_more(rules, c, k) < s]
            assert ukeire(c, live) == (s, sum(live[k] for k in want), want), (variant, wild, c)


def _one_more(rules: HandRules, c: list[int], kind: int) -> int:
    more = list(c)
    more[kind] += 1
    return rules.shanten(more)
