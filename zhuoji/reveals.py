"""Chicken reveals made during play: 前后鸡, 滚筒鸡 and 开局翻鸡 (``deal.start_reveal``).

CITIES.md "Reveal and chicken mechanisms": 「at round start reveal the top tile of the 3rd
stack from the wall's end (index len−6); each kong moves the reveal one stack toward the
live end and closes the old one; a reveal that gets drawn is lost」 (前后鸡, FW
``chiken/chikenFB.go``); 滚筒鸡 「as 前后鸡, but earlier reveals stay open, so chickens
accumulate per kong」 (FW ``chiken/chikenTumbling.go``).  独山's 开局翻鸡 (DS §3) is one
reveal from the wall's tail that stays in the wall.

Positions follow FW: 前后鸡 steps its position back one stack at every completed kong,
whether or not a tile is still there to show (``fbIndex -= 2``); 滚筒鸡 steps back from the
last tile it showed, and shows nothing when that position is already drawn
(``AppendChikenTumbling``).  The after-win reveal (翻鸡) is the engine's, at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from zhuoji.outcome import Reveal, RevealAt, RevealStatus
from zhuoji.variant import StartReveal
from zhuoji.wall import Wall


@dataclass
class _Shown:
    position: int
    tile: int
    at: RevealAt
    status: RevealStatus = RevealStatus.OPEN


class RevealTracker:
    """The reveals of one round under a :class:`~zhuoji.variant.StartReveal` rule."""

    __slots__ = ("_cursor", "_rule", "_shown", "_wall")

    def __init__(self, rule: StartReveal, wall: Wall) -> None:
        self._rule = rule
        self._wall = wall
        self._shown: list[_Shown] = []
        self._cursor: int | None = None

    def start(self) -> int | None:
        """Reveal at round start; the tile shown, or None when the wall is too short."""
        self._cursor = self._wall.position_from_end(self._rule.stack)
        return self._show(self._cursor, RevealAt.START)

    @property
    def moves_at_kong(self) -> bool:
        return self._rule.reveals_at_kong

    def on_kong(self) -> int | None:
        """A kong was completed: move (前后鸡) or add (滚筒鸡) a reveal; the tile shown, or
        None when its position is already drawn (nothing is shown then)."""
        if self._cursor is None or not self._rule.reveals_at_kong:
            return None
        if self._rule.closes_at_kong:
            for s in self._shown:
                if s.status is RevealStatus.OPEN:
                    s.status = (
                        RevealStatus.DRAWN if self._wall.taken[s.position] else RevealStatus.CLOSED
                    )
            self._cursor -= 2
            return self._show(self._cursor, RevealAt.KONG)
        last = self._shown[-1].position if self._shown else self._cursor
        return self._show(last - 2, RevealAt.KONG)

    def _show(self, position: int | None, at: RevealAt) -> int | None:
        w = self._wall
        if position is None or position < 0 or w.taken[position] or position == w.stop:
            return None
        tile = w.tiles[position]
        self._shown.append(_Shown(position, tile, at))
        return tile

    def counting(self) -> list[int]:
        """Tiles of the reveals that make chickens now."""
        return [r.tile for r in self.final() if self._rule.makes_chickens(r)]

    def final(self) -> tuple[Reveal, ...]:
        """Every reveal in order with what became of it."""
        out = []
        for s in self._shown:
            status = s.status
            if status is RevealStatus.OPEN and self._wall.taken[s.position]:
                status = RevealStatus.DRAWN
            out.append(Reveal(s.tile, s.at, status))
        return tuple(out)
