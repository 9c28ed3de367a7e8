"""Which tiles are chickens right now, for a client marking them in a player's hand.

Under ``guiyang``, once 九条 is revealed after the win, ``chicken_marks`` gives 幺鸡 as
``"golden"``; with 三筒 revealed, 幺鸡 and 四筒 are ``"chicken"`` (``tests/rules``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from zhuoji.outcome import Reveal, RevealAt
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import chicken_table
from zhuoji.tiles import parse_one
from zhuoji.variant import Ruleset

Mark = Literal["chicken", "golden"]


def chicken_marks(
    ruleset: Ruleset,
    reveals: Iterable[int] = (),
    *,
    win_reveal: int | None = None,
    weekday: int = 1,
) -> dict[int, Mark]:
    """Tile kind → ``"chicken"`` or ``"golden"`` under the variant's ``chickens`` stage.

    ``reveals`` are the tiles revealed during play that still make chickens (the engine's
    :meth:`~zhuoji.engine.Round.open_reveals`, the observation's ``reveals``); ``win_reveal``
    the tile revealed after the win, once there is one; ``weekday`` the table's day (星期鸡).
    A variant without a chickens stage marks nothing; after a 吹风鸡 reveal nothing is a
    chicken.
    """
    p = next((b.params for b in ruleset.stages if isinstance(b.params, ChickenParams)), None)
    if p is None:
        return {}
    shown = [Reveal(t, RevealAt.START) for t in reveals]
    if win_reveal is not None:
        if p.chuifeng is not None and win_reveal in {parse_one(t) for t in p.chuifeng.tiles}:
            return {}
        shown.append(Reveal(win_reveal))
    table = chicken_table(p, shown, weekday)
    return {k: "golden" if c.golden else "chicken" for k, c in sorted(table.items())}
