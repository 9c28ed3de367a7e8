"""Tile kinds, text notation and wall composition.

Kinds (docs/architecture.md, "Tiles"): 0–8 = 1–9万 (``m``), 9–17 = 1–9条 (``s``),
18–26 = 1–9筒 (``p``), 27–33 = 东南西北中发白 (``1z``–``7z``).

A flower tile (花牌, 红花: CITIES.md 黔西 ``MahjongCards112_FLOWER``) is :data:`FLOWER`, kind 34,
written ``1f``: it is in a wall that has flowers (``tiles.flowers``), never in a hand — a drawn
flower is set aside and replaced (补花) — so hands stay 34-long count arrays.

Notation is the usual run-length form: digits followed by their suit letter,
``"123m456s789p11z"``; spaces are ignored.  :func:`format` writes the same form back,
grouping consecutive tiles of one suit, so ``parse(format(tiles)) == tiles`` for any list.

>>> parse("19m 1s")
[0, 8, 9]
>>> format([0, 8, 9])
'19m1s'
>>> name(9), name(22), name(31)
('幺鸡', '五筒', '红中')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import lru_cache
from itertools import compress

from zhuoji.errors import TileParseError

NUM_KINDS = 34
COPIES = 4
SUIT_LETTERS = "msp"
LETTERS = "mspz"
#: one tile in notation, as variant and round-end files write it (``5m``, ``1s``, ``7z``)
TILE_PATTERN = "^([1-9][msp]|[1-7]z)$"

#: a flower tile (红花, 补花): outside the 34 kinds, only ever in a wall or set aside
FLOWER = 34
#: its notation
FLOWER_TEXT = "1f"

#: the permanent chicken, 幺鸡 (1条)
YAOJI = 9
#: 红中
HONG_ZHONG = 31

_RANK_CN = "一二三四五六七八九"
_SUIT_CN = ("万", "条", "筒")
_HONOR_CN = ("东风", "南风", "西风", "北风", "红中", "发财", "白板")
_HONOR_EN = ("east", "south", "west", "north", "red", "green", "white")
_SUIT_EN = ("characters", "bamboo", "dots")


class TileSet(StrEnum):
    """Which tiles make up the wall (four copies of each kind)."""

    SUITS = "suits"  # 108: 万条筒, as in every Guizhou seed
    FULL = "full"  # 136: suits, winds and dragons (六安, 金游)
    TWO_SUIT = "two-suit"  # 72: 条 and 筒 only (二丁拐 / 三丁拐)
    SUITS_RED = "suits+red"  # 112: 万条筒 and four 红中 (黔西 / 金沙)


def suit_of(kind: int) -> int:
    """0 万, 1 条, 2 筒, 3 honors."""
    return kind // 9


def rank_of(kind: int) -> int:
    """Rank 1–9 for suited tiles, 1–7 for honors."""
    return kind % 9 + 1


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_dragon(kind: int) -> bool:
    """中, 发, 白 (三元牌)."""
    return kind >= 31


def wind(index: int) -> int:
    """The wind tile of a seat or round wind: 0 东 … 3 北."""
    return 27 + index


def is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


#: every kind that is a terminal (1 or 9) or an honor, in kind order
TERMINALS_AND_HONORS = tuple(k for k in range(NUM_KINDS) if is_terminal_or_honor(k))


def kind_of(rank: int, letter: str) -> int:
    """Kind for a rank and suit letter; ``kind_of(1, "s") == YAOJI``."""
    return LETTERS.index(letter) * 9 + rank - 1


#: the longest tile notation read: a whole wall of 136 tiles written one by one, with a
#: space between tiles, is 407 characters (a longer text is refused before it is read)
MAX_NOTATION = 1000


def parse(text: str) -> list[int]:
    """Read tile notation into a list of kinds, in the order written.

    Raises :class:`TileParseError` naming the position (0-based) of the offending character,
    or, for a text longer than :data:`MAX_NOTATION` characters, its length.
    """
    if len(text) > MAX_NOTATION:
        raise TileParseError(
            f"notation of {len(text):,} characters is too long (at most {MAX_NOTATION:,}: a "
            f"whole wall); it starts {text[:20]!r}"
        )
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if "0" <= ch <= "9":
            pending.append((int(ch), pos))
            continue
        if ch == "f":  # a flower (红花): rank 1 only
            for digit, dpos in pending:
                if digit != 1:
                    raise TileParseError(
                        f"rank {digit} at position {dpos} in {text!r}: a flower is written 1f"
                    )
                out.append(FLOWER)
            if not pending:
                raise TileParseError(f"suit letter 'f' at position {pos} in {text!r} has no digits")
            pending.clear()
            continue
        if ch not in LETTERS:
            raise TileParseError(
                f"unknown character {ch!r} at position {pos} in {text!r}; "
                f"expected a digit or one of m, s, p, z"
            )
        if not pending:
            raise TileParseError(f"suit letter {ch!r} at position {pos} in {text!r} has no digits")
        top = 7 if ch == "z" else 9
        for digit, dpos in pending:
            if not 1 <= digit <= top:
                raise TileParseError(
                    f"rank {digit} at position {dpos} in {text!r} is out of range 1-{top} for {ch!r}"
                )
            out.append(kind_of(digit, ch))
        pending.clear()
    if pending:
        raise TileParseError(f"digits at position {pending[0][1]} in {text!r} have no suit letter")
    return out


@lru_cache(maxsize=256)
def parse_one(text: str) -> int:
    """Read exactly one tile (``"5m"``).  Remembered by its text (the tiles a variant names
    are read again every round; a bad text raises every time, it is not remembered)."""
    kinds = parse(text)
    if len(kinds) != 1:
        raise TileParseError(f"expected one tile, got {len(kinds)} in {text!r}")
    if kinds[0] == FLOWER:  # only a wall holds flowers: no rule, hand or action names one
        raise TileParseError(f"{text!r} is a flower: expected a tile of the 34 kinds")
    return kinds[0]


def counts(text_or_tiles: str | Iterable[int], max_copies: int = COPIES) -> list[int]:
    """A 34-long count array.  A copy beyond ``max_copies`` raises, naming its position."""
    if isinstance(text_or_tiles, str):
        text = text_or_tiles
        kinds = parse(text)  # first: it refuses a text past the length limit
        positions = _positions(text)
    else:
        kinds = list(text_or_tiles)
        positions = list(range(len(kinds)))
        text = format(kinds)
    c = [0] * NUM_KINDS
    for kind, pos in zip(kinds, positions, strict=True):
        if kind == FLOWER:
            raise TileParseError(
                f"a flower (1f) at position {pos} in {text!r}: a flower is never held, it is set "
                f"aside when drawn (补花)"
            )
        if not 0 <= kind < NUM_KINDS:
            raise TileParseError(f"tile kind {kind} at position {pos} is out of range 0-33")
        c[kind] += 1
        if c[kind] > max_copies:
            raise TileParseError(
                f"copy {c[kind]} of {format([kind])} at position {pos} in {text!r}; "
                f"a hand holds at most {max_copies}"
            )
    return c


def _positions(text: str) -> list[int]:
    """Character position of each tile's digit, in the order :func:`parse` returns them."""
    pos: list[int] = []
    pending: list[int] = []
    for i, ch in enumerate(text):
        if ch.isdigit():
            pending.append(i)
        elif ch in LETTERS or ch == "f":
            pos.extend(pending)
            pending.clear()
    return pos


def format(tiles: Iterable[int]) -> str:
    """Write kinds as notation, one suit letter per run of same-suit tiles."""
    parts: list[str] = []
    run_suit = -1
    for kind in tiles:
        suit = 4 if kind == FLOWER else suit_of(kind)
        if suit != run_suit and run_suit >= 0:
            parts.append(_RUN_LETTERS[run_suit])
        parts.append("1" if kind == FLOWER else str(rank_of(kind)))
        run_suit = suit
    if run_suit >= 0:
        parts.append(_RUN_LETTERS[run_suit])
    return "".join(parts)


def format_counts(c: Sequence[int]) -> str:
    """Notation of a count array, sorted: each suit's ranks, then its letter (the text of
    :func:`format` for the sorted kinds; a server shows every seat its hand after each
    change, so this is written per suit from precomputed runs rather than per tile)."""
    if min(c) < 0 or max(c) > COPIES:  # not a hand: tile by tile
        return format(k for k in range(NUM_KINDS) for _ in range(c[k]))
    out = ""
    for letter, kinds in _SUIT_KINDS:
        digits = "".join([_RUNS[k][c[k]] for k in kinds])
        if digits:
            out += digits + letter
    return out


def to_tiles(c: Sequence[int]) -> list[int]:
    """The kinds of a count array, sorted, each as often as it is counted."""
    out: list[int] = []
    for k in compress(range(len(c)), c):  # held kinds only, found in C
        n = c[k]
        if n == 1:
            out.append(k)
        else:
            out.extend([k] * n)
    return out


def text(kind: int) -> str:
    """Notation of one tile: ``text(9) == "1s"``."""
    return TILE_TEXT[kind]


def name(kind: int) -> str:
    """Chinese display name: ``幺鸡`` for 1条, ``八筒``, ``红中``."""
    if kind == YAOJI:
        return "幺鸡"
    if kind == FLOWER:
        return "红花"
    if is_honor(kind):
        return _HONOR_CN[kind - 27]
    return _RANK_CN[kind % 9] + _SUIT_CN[suit_of(kind)]


def suit_name(suit: int) -> str:
    """万, 条 or 筒 for suit 0, 1, 2 (:func:`suit_of`)."""
    return _SUIT_CN[suit]


def suit_name_en(suit: int) -> str:
    """characters, bamboo or dots for suit 0, 1, 2 (:func:`suit_of`)."""
    return _SUIT_EN[suit]


def name_en(kind: int) -> str:
    if kind == FLOWER:
        return "flower"
    if is_honor(kind):
        return _HONOR_EN[kind - 27]
    return f"{rank_of(kind)} {_SUIT_EN[suit_of(kind)]}"


def names(tiles: Iterable[int]) -> str:
    return " ".join(name(k) for k in tiles)


def kinds_in(tile_set: TileSet) -> list[int]:
    """The kinds a tile set contains."""
    if tile_set is TileSet.SUITS:
        return list(range(27))
    if tile_set is TileSet.FULL:
        return list(range(NUM_KINDS))
    if tile_set is TileSet.SUITS_RED:
        return [*range(27), HONG_ZHONG]
    return list(range(9, 27))


def describe_set(tile_set: TileSet) -> str:
    """The tile set in words, for error messages: ``"万条筒 and 红中, 112 tiles"``."""
    return _SET_WORDS[tile_set]


_SET_WORDS = {
    TileSet.SUITS: "万条筒, 108 tiles",
    TileSet.FULL: "万条筒, winds and dragons, 136 tiles",
    TileSet.TWO_SUIT: "条筒, 72 tiles",
    TileSet.SUITS_RED: "万条筒 and 红中, 112 tiles",
}


def wall(tile_set: TileSet, flowers: int = 0) -> list[int]:
    """Every tile of the set, four copies of each kind, sorted (108 / 136 / 72 / 112), then
    ``flowers`` flower tiles (黔西: 108 + 4, CITIES.md ``MahjongCards112_FLOWER``)."""
    return [*_WALLS[tile_set], *([FLOWER] * flowers)]


def next_in_cycle(kind: int) -> int:
    """The tile one rank up in its own cycle: 9→1 within a suit, 东→南→西→北→东, 中→发→白→中.

    Used for 翻鸡 (seed 000 "顺位加一", 九条→幺鸡) and the 六安 宝牌 (seed 003 "确定宝牌").
    """
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


def prev_in_cycle(kind: int) -> int:
    """Inverse of :func:`next_in_cycle`."""
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 8) % 9
    if kind < 31:
        return 27 + (kind - 27 + 3) % 4
    return 31 + (kind - 31 + 2) % 3


#: notation of each kind, ``TILE_TEXT[9] == "1s"``, and of the flower (``TILE_TEXT[FLOWER]``)
TILE_TEXT: tuple[str, ...] = (
    *(f"{k % 9 + 1}{LETTERS[k // 9]}" for k in range(NUM_KINDS)),
    FLOWER_TEXT,
)
#: format: the letter closing a run of each group (m, s, p, z, and f for flowers)
_RUN_LETTERS = LETTERS + "f"

_WALLS = {ts: tuple(k for k in kinds_in(ts) for _ in range(COPIES)) for ts in TileSet}


#: format_counts: each suit's letter and kinds; a kind's rank digit written 0-4 times
_SUIT_KINDS = [(LETTERS[s], range(s * 9, s * 9 + (9 if s < 3 else 7))) for s in range(4)]
_RUNS = [[str(rank_of(k)) * n for n in range(COPIES + 1)] for k in range(NUM_KINDS)]
