"""The wall: tiles in draw order, drawn from the head, replacements from the tail.

Positions are fixed once the wall is built; drawn tiles are marked, so a tile taken from
the middle (六安 replacement counted by dice, seed 003 补牌) leaves the others in place.
Stacks are two tiles, the upper one first: position ``2k`` is the top of stack ``k``.

An optional *stop* position (the 宝牌 indicator, seed 003 "抓至翻开用来确定宝牌的那张牌之前无人
胡牌,则此局荒庄") ends the live wall: head draws never reach it, and the tiles behind it only
serve replacements.
"""

from __future__ import annotations

from collections.abc import Sequence


class Wall:
    __slots__ = ("_left", "head", "stop", "tail", "taken", "tiles")

    def __init__(self, tiles: Sequence[int]) -> None:
        self.tiles = list(tiles)
        self.taken = [False] * len(self.tiles)
        self.head = 0  # next head position (may point at a taken tile)
        self.tail = len(self.tiles)  # one past the last position not known to be taken
        self.stop: int | None = None
        self._left = len(self.tiles)

    # --- counting -------------------------------------------------------------------

    def live(self) -> int:
        """Tiles still drawable from the head."""
        if self.stop is None:
            return self._left
        return sum(1 for i in range(self.head, self.stop) if not self.taken[i])

    def __len__(self) -> int:
        return self._left

    # --- drawing --------------------------------------------------------------------

    def _take(self, i: int) -> int:
        self.taken[i] = True
        self._left -= 1
        return self.tiles[i]

    def deal(self, count: int) -> list[int]:
        """The next ``count`` tiles from the head of a fresh wall (the deal)."""
        start = self.head
        if any(self.taken[start : start + count]):
            return [self.draw_head() for _ in range(count)]
        self.head = start + count
        self.taken[start : start + count] = [True] * count
        self._left -= count
        return self.tiles[start : start + count]

    def draw_head(self) -> int:
        taken = self.taken
        i = self.head
        while taken[i]:
            i += 1
        if self.stop is not None and i >= self.stop:
            self.head = i
            raise IndexError("the live wall is exhausted")
        taken[i] = True
        self.head = i + 1
        self._left -= 1
        return self.tiles[i]

    def peek_head(self, skip: int = -1) -> int | None:
        """The next undrawn tile (翻鸡 reveal, seed 000 "翻开第一张未摸牌"), passing over
        tiles of kind ``skip`` (the flowers: a flower names no chicken)."""
        i = self.head
        end = self.stop if self.stop is not None else len(self.tiles)
        tiles = self.tiles
        while i < end and (self.taken[i] or tiles[i] == skip):
            i += 1
        return tiles[i] if i < end else None

    def _last(self) -> int | None:
        i = self.tail - 1
        while i >= self.head and (self.taken[i] or i == self.stop):
            i -= 1
        return i if i >= self.head else None

    def draw_tail(self) -> int:
        i = self._last()
        if i is None:
            raise IndexError("the wall is exhausted")
        self.tail = i + (1 if i + 1 == self.stop else 0)
        return self._take(i)

    def peek_tail(self, skip: int = -1) -> int | None:
        """The last undrawn tile, passing over tiles of kind ``skip``."""
        i = self._last()
        while i is not None and self.tiles[i] == skip:
            i -= 1
            while i >= self.head and (self.taken[i] or i == self.stop):
                i -= 1
            if i < self.head:
                return None
        return self.tiles[i] if i is not None else None

    def position_from_end(self, stacks: int) -> int | None:
        """The top tile of the ``stacks``-th stack (with tiles left) counted from the wall's
        end, or the tile below it when the top is gone or is the indicator; None when fewer
        stacks remain."""
        count = 0
        last_stack = -1
        for i in range(len(self.tiles) - 1, self.head - 1, -1):
            if self.taken[i]:
                continue
            stack = i // 2
            if stack != last_stack:
                count += 1
                last_stack = stack
            if count == stacks:
                for j in (2 * stack, 2 * stack + 1):
                    if (
                        j >= self.head
                        and j < len(self.tiles)
                        and not self.taken[j]
                        and j != self.stop
                    ):
                        return j
                return None
        return None

    def draw_at_from_end(self, stacks: int) -> int:
        """六安 补牌: the top tile of stack ``stacks`` from the end; past the indicator, the
        one below it (seed 003 "如上面那张牌是翻开用来确定宝牌的那张牌,则补它下面那张牌")."""
        i = self.position_from_end(stacks)
        if i is None or i < self.head:
            return self.draw_tail()
        return self._take(i)
