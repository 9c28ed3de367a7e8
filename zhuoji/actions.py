"""Actions a seat may take, as frozen value objects whose text form round-trips.

>>> a = Action.parse("2 peng 5m")
>>> a
Action.parse('2 peng 5m')
>>> str(Action(0, ActionKind.DISCARD, 9, declare=True))
'0 declare 1s'
>>> Action.parse("1 que p").label()
'定缺 筒'
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache
from typing import NamedTuple

from zhuoji.errors import IllegalActionError, TileParseError
from zhuoji.tiles import SUIT_LETTERS, TILE_TEXT, parse_one, suit_name
from zhuoji.tiles import format as format_tiles
from zhuoji.tiles import name as tile_name


class ActionKind(IntEnum):
    """Kinds in a fixed order (legal action lists are sorted by seat, kind, tile)."""

    DISCARD = 0
    CHI = 1
    PENG = 2
    GANG_EXPOSED = 3  # 点豆 / 明杠 on a discard
    GANG_CONCEALED = 4  # 闷豆 / 暗杠
    GANG_ADDED = 5  # 转弯豆 / 补杠
    HU = 6
    PASS = 7
    QUE = 8  # 定缺: ``tile`` is the suit declared void, 0 万 1 条 2 筒
    EXCHANGE = 9  # 换三张: one of the tiles a seat passes on at the start

    @property
    def word(self) -> str:
        return _WORDS[self]


_WORDS = {
    ActionKind.DISCARD: "discard",
    ActionKind.CHI: "chi",
    ActionKind.PENG: "peng",
    ActionKind.GANG_EXPOSED: "gang",
    ActionKind.GANG_CONCEALED: "angang",
    ActionKind.GANG_ADDED: "bugang",
    ActionKind.HU: "hu",
    ActionKind.PASS: "pass",
    ActionKind.QUE: "que",
    ActionKind.EXCHANGE: "exchange",
}
_BY_WORD = {w: k for k, w in _WORDS.items()} | {"declare": ActionKind.DISCARD}
_CN = {
    ActionKind.DISCARD: "打",
    ActionKind.CHI: "吃",
    ActionKind.PENG: "碰",
    ActionKind.GANG_EXPOSED: "点杠",
    ActionKind.GANG_CONCEALED: "暗杠",
    ActionKind.GANG_ADDED: "补杠",
    ActionKind.HU: "胡",
    ActionKind.PASS: "过",
    ActionKind.QUE: "定缺",
    ActionKind.EXCHANGE: "换牌",
}


class Action(NamedTuple):
    """``tile`` is the discarded, claimed, konged, exchanged or winning tile; for a chow, the
    lowest tile of the run; for 定缺 (``que``) the suit, 0 万 1 条 2 筒 (text ``m``/``s``/``p``).
    ``declare`` marks a discard that declares 报听.

    A named tuple: immutable, hashable and ordered (by seat, kind, tile) at C speed, which
    matters on the engine's hot path."""

    seat: int
    kind: ActionKind
    tile: int = -1
    declare: bool = False

    def __str__(self) -> str:
        word = "declare" if self.declare else self.kind.word
        if self.tile < 0:
            return f"{self.seat} {word}"
        if self.kind is ActionKind.QUE:
            return f"{self.seat} {word} {SUIT_LETTERS[self.tile]}"
        return f"{self.seat} {word} {TILE_TEXT[self.tile]}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def label(self) -> str:
        """Chinese and notation, for menus: ``碰 五万 (5m)``."""
        if self.tile < 0:
            return _CN[self.kind]
        if self.kind is ActionKind.QUE:
            return f"定缺 {suit_name(self.tile)}"
        verb = "报听 打" if self.declare else _CN[self.kind]
        if self.kind is ActionKind.CHI:
            run = format_tiles([self.tile, self.tile + 1, self.tile + 2])
            return f"{verb} {run}"
        return f"{verb} {tile_name(self.tile)} ({format_tiles([self.tile])})"

    @staticmethod
    def parse(text: str) -> Action:
        """Read ``"SEAT WORD [TILE]"`` (``"1 discard 5m"``, ``"0 pass"``, ``"3 declare 9p"``,
        ``"2 que s"``)."""
        parts = text.split()
        if len(parts) not in (2, 3) or not parts[0].isdigit():
            raise IllegalActionError(f"cannot read action {text!r}; expected 'SEAT WORD [TILE]'")
        word = parts[1].lower()
        if word not in _BY_WORD:
            known = ", ".join(sorted(_BY_WORD))
            raise IllegalActionError(
                f"unknown action word {parts[1]!r} in {text!r}; known: {known}"
            )
        tile = -1
        if _BY_WORD[word] is ActionKind.QUE:
            if len(parts) != 3 or parts[2] not in SUIT_LETTERS:
                raise IllegalActionError(
                    f"cannot read action {text!r}; 定缺 names a suit: 'SEAT que m|s|p'"
                )
            return make(int(parts[0]), ActionKind.QUE, SUIT_LETTERS.index(parts[2]))
        if len(parts) == 3:
            try:
                tile = parse_one(parts[2])
            except TileParseError as exc:
                raise IllegalActionError(f"bad tile in action {text!r}: {exc}") from exc
        return make(int(parts[0]), _BY_WORD[word], tile, word == "declare")


@cache
def make(seat: int, kind: ActionKind, tile: int = -1, declare: bool = False) -> Action:
    """Interned actions: the engine builds many identical ones."""
    return Action(seat, kind, tile, declare)
