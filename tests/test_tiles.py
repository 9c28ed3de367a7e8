"""Tile notation, names, walls and rank cycles (zhuoji.tiles)."""

from __future__ import annotations

import random

import pytest

from zhuoji import tiles
from zhuoji.errors import TileParseError
from zhuoji.tiles import TileSet

# ---------------------------------------------------------------------------------------
# parse / format
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("", []),
        ("1m", [0]),
        ("9m", [8]),
        ("1s", [9]),
        ("9s", [17]),
        ("1p", [18]),
        ("9p", [26]),
        ("1z", [27]),
        ("7z", [33]),
        ("19m1s", [0, 8, 9]),
        ("123m456s789p11z", [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27]),
        ("1234567z", list(range(27, 34))),
        ("321m", [2, 1, 0]),  # written order is kept
        ("1m1s1m", [0, 9, 0]),
        ("5z9p1m", [31, 26, 0]),
    ],
)
def test_parse(text: str, kinds: list[int]) -> None:
    """Notation reads to kinds in the order written; format writes the same text back."""
    assert tiles.parse(text) == kinds
    assert tiles.format(kinds) == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("1m2m3m", "123m"),
        ("1 2 3 m", "123m"),
        ("  123m 456s\t789p 11z ", "123m456s789p11z"),
        ("12m 3m", "123m"),
        ("1m\n1s", "1m1s"),
        ("11m11m", "1111m"),
        ("5z 5z", "55z"),
    ],
)
def test_format_of_parse_is_canonical(text: str, canonical: str) -> None:
    """Spaces are ignored and runs of one suit are merged under one letter."""
    assert tiles.format(tiles.parse(text)) == canonical


@pytest.mark.parametrize(
    "kinds",
    [
        [],
        [0],
        [33],
        [33, 0],
        [0, 9, 0],
        [26, 27, 26],
        list(range(34)),
        list(range(33, -1, -1)),
        [31, 31, 31, 9, 9, 18, 0, 27],
    ],
)
def test_round_trip_tables(kinds: list[int]) -> None:
    """``parse(format(x)) == x`` for sorted, unsorted and honor lists."""
    assert tiles.parse(tiles.format(kinds)) == kinds


def test_round_trip_random_lists() -> None:
    """``parse(format(x)) == x`` for 2,000 random lists (any order, any kinds)."""
    rng = random.Random(20240601)
    for _ in range(2000):
        kinds = [rng.randrange(tiles.NUM_KINDS) for _ in range(rng.randrange(20))]
        assert tiles.parse(tiles.format(kinds)) == kinds
        assert tiles.format(tiles.parse(tiles.format(kinds))) == tiles.format(kinds)


@pytest.mark.parametrize(
    ("text", "sorted_text"),
    [
        ("321m", "123m"),
        ("5z 9p 1m", "1m9p5z"),
        ("1m1s1m", "11m1s"),
        ("7z1z", "17z"),
    ],
)
def test_counts_and_format_counts(text: str, sorted_text: str) -> None:
    """``counts`` is a 34-long array; ``format_counts`` writes it back sorted."""
    c = tiles.counts(text)
    assert len(c) == tiles.NUM_KINDS
    assert sum(c) == len(tiles.parse(text))
    assert tiles.format_counts(c) == sorted_text
    assert tiles.to_tiles(c) == sorted(tiles.parse(text))
    assert tiles.counts(tiles.parse(text)) == c


@pytest.mark.parametrize(
    ("text", "kind"),
    [("5m", 4), ("1s", tiles.YAOJI), ("5z", tiles.HONG_ZHONG), (" 8p ", 25)],
)
def test_parse_one(text: str, kind: int) -> None:
    assert tiles.parse_one(text) == kind


def test_kind_of_and_rank_of() -> None:
    """kind_of, suit_of and rank_of agree with the notation for every kind."""
    for kind in range(tiles.NUM_KINDS):
        letter = tiles.LETTERS[tiles.suit_of(kind)]
        assert tiles.kind_of(tiles.rank_of(kind), letter) == kind
        assert tiles.parse(f"{tiles.rank_of(kind)}{letter}") == [kind]
        assert tiles.is_honor(kind) == (kind >= 27)
    assert [k for k in range(34) if tiles.is_terminal_or_honor(k)] == [
        0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33,
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------
# bad notation: exact messages, naming the character position
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0m", "rank 0 at position 0 in '0m' is out of range 1-9 for 'm'"),
        ("123m405s", "rank 0 at position 5 in '123m405s' is out of range 1-9 for 's'"),
        ("8z", "rank 8 at position 0 in '8z' is out of range 1-7 for 'z'"),
        ("12 9z", "rank 9 at position 3 in '12 9z' is out of range 1-7 for 'z'"),
        (
            "12x",
            "unknown character 'x' at position 2 in '12x'; expected a digit or one of m, s, p, z",
        ),
        (
            "1M",
            "unknown character 'M' at position 1 in '1M'; expected a digit or one of m, s, p, z",
        ),
        ("m", "suit letter 'm' at position 0 in 'm' has no digits"),
        ("123mp", "suit letter 'p' at position 4 in '123mp' has no digits"),
        ("123m45", "digits at position 4 in '123m45' have no suit letter"),
        ("5", "digits at position 0 in '5' have no suit letter"),
        ("1m 2", "digits at position 3 in '1m 2' have no suit letter"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(TileParseError) as info:
        tiles.parse(text)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11111m", "copy 5 of 1m at position 4 in '11111m'; a hand holds at most 4"),
        ("1111 1m", "copy 5 of 1m at position 5 in '1111 1m'; a hand holds at most 4"),
        ("5z 55z 5z 5z", "copy 5 of 5z at position 10 in '5z 55z 5z 5z'; a hand holds at most 4"),
        ("0m", "rank 0 at position 0 in '0m' is out of range 1-9 for 'm'"),
    ],
)
def test_counts_errors(text: str, message: str) -> None:
    """A fifth copy names the position of its digit; parse errors come through unchanged."""
    with pytest.raises(TileParseError) as info:
        tiles.counts(text)
    assert str(info.value) == message


def test_counts_max_copies_and_bad_kinds() -> None:
    assert tiles.counts("11111m", max_copies=5)[0] == 5
    with pytest.raises(TileParseError) as info:
        tiles.counts([0, 35])
    assert str(info.value) == "tile kind 35 at position 1 is out of range 0-33"
    with pytest.raises(TileParseError) as info:
        tiles.counts("2m1f")  # a flower is never held (补花)
    assert str(info.value) == (
        "a flower (1f) at position 2 in '2m1f': a flower is never held, it is set aside when "
        "drawn (补花)"
    )


def test_flowers_in_notation_and_walls() -> None:
    """A flower (红花, CITIES.md 黔西 MahjongCards112_FLOWER) is written 1f, kind FLOWER, outside
    the 34 kinds; a wall with flowers adds them after the set."""
    assert tiles.parse("11f 1s") == [tiles.FLOWER, tiles.FLOWER, 9]
    assert tiles.format([9, tiles.FLOWER, tiles.FLOWER, 0]) == "1s11f1m"
    wall = tiles.wall(tiles.TileSet.SUITS, 4)
    assert len(wall) == 112 and wall.count(tiles.FLOWER) == 4
    assert tiles.parse(tiles.format(wall)) == wall
    assert tiles.name(tiles.FLOWER) == "红花" and tiles.name_en(tiles.FLOWER) == "flower"
    with pytest.raises(
        TileParseError, match="rank 2 at position 0 in '2f': a flower is written 1f"
    ):
        tiles.parse("2f")
    with pytest.raises(TileParseError) as info:
        tiles.parse_one("12m")
    assert str(info.value) == "expected one tile, got 2 in '12m'"


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        tiles.parse("0m")


# ---------------------------------------------------------------------------------------
# names
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "chinese", "english"),
    [
        ("1s", "幺鸡", "1 bamboo"),
        ("2s", "二条", "2 bamboo"),
        ("9s", "九条", "9 bamboo"),
        ("1m", "一万", "1 characters"),
        ("9m", "九万", "9 characters"),
        ("8p", "八筒", "8 dots"),
        ("5p", "五筒", "5 dots"),
        ("1z", "东风", "east"),
        ("2z", "南风", "south"),
        ("3z", "西风", "west"),
        ("4z", "北风", "north"),
        ("5z", "红中", "red"),
        ("6z", "发财", "green"),
        ("7z", "白板", "white"),
    ],
)
def test_names(text: str, chinese: str, english: str) -> None:
    kind = tiles.parse_one(text)
    assert tiles.name(kind) == chinese
    assert tiles.name_en(kind) == english


def test_names_of_list() -> None:
    assert tiles.names(tiles.parse("1s8p5z")) == "幺鸡 八筒 红中"


# ---------------------------------------------------------------------------------------
# walls
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tile_set", "size", "first", "last"),
    [
        (TileSet.SUITS, 108, 0, 26),
        (TileSet.FULL, 136, 0, 33),
        (TileSet.TWO_SUIT, 72, 9, 26),
    ],
)
def test_wall(tile_set: TileSet, size: int, first: int, last: int) -> None:
    """Four copies of each kind of the set, sorted."""
    wall = tiles.wall(tile_set)
    assert len(wall) == size
    assert wall == sorted(wall)
    assert wall[0] == first and wall[-1] == last
    c = tiles.counts(wall)
    assert set(c[k] for k in tiles.kinds_in(tile_set)) == {tiles.COPIES}
    assert sum(c) == size


def test_tile_set_values() -> None:
    assert TileSet("suits") is TileSet.SUITS
    assert TileSet("two-suit") is TileSet.TWO_SUIT


# ---------------------------------------------------------------------------------------
# rank cycles (翻鸡, 宝牌)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "after"),
    [
        ("1m", "2m"),
        ("8m", "9m"),
        ("9m", "1m"),
        ("9s", "1s"),  # 九条 → 幺鸡 (金鸡)
        ("1s", "2s"),
        ("9p", "1p"),
        ("5p", "6p"),
        ("1z", "2z"),  # 东 → 南
        ("2z", "3z"),  # 南 → 西
        ("3z", "4z"),  # 西 → 北
        ("4z", "1z"),  # 北 → 东
        ("5z", "6z"),  # 中 → 发
        ("6z", "7z"),  # 发 → 白
        ("7z", "5z"),  # 白 → 中
    ],
)
def test_next_in_cycle(tile: str, after: str) -> None:
    kind = tiles.parse_one(tile)
    assert tiles.next_in_cycle(kind) == tiles.parse_one(after)
    assert tiles.prev_in_cycle(tiles.parse_one(after)) == kind


def test_cycles_are_permutations() -> None:
    """next/prev are inverse permutations that stay within each suit, winds and dragons."""
    groups = [range(0, 9), range(9, 18), range(18, 27), range(27, 31), range(31, 34)]
    for group in groups:
        assert sorted(tiles.next_in_cycle(k) for k in group) == list(group)
        for k in group:
            assert tiles.prev_in_cycle(tiles.next_in_cycle(k)) == k
            orbit = {k}
            step = tiles.next_in_cycle(k)
            while step != k:
                orbit.add(step)
                step = tiles.next_in_cycle(step)
            assert orbit == set(group)  # one cycle through the whole group


def test_text_of_each_kind() -> None:
    """``text(kind)`` is the one-tile notation, and it parses back."""
    assert tiles.text(tiles.YAOJI) == "1s"
    assert tiles.text(tiles.HONG_ZHONG) == "5z"
    for kind in range(tiles.NUM_KINDS):
        assert tiles.parse(tiles.text(kind)) == [kind]
        assert tiles.TILE_TEXT[kind] == tiles.format([kind])


def test_format_counts_writes_the_sorted_tiles() -> None:
    """format_counts (built per suit from precomputed runs) writes exactly what format
    writes for the sorted tiles, hands and non-hands (a count over four) alike."""
    rng = random.Random(5)
    for _ in range(3000):
        c = [0] * tiles.NUM_KINDS
        for _ in range(rng.randint(0, 18)):
            c[rng.randrange(tiles.NUM_KINDS)] += 1
        assert tiles.format_counts(c) == tiles.format(tiles.to_tiles(c)), c
    assert tiles.format_counts([0] * tiles.NUM_KINDS) == ""
