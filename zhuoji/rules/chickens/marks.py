"""Which tiles are chickens right now, for a client marking them in a player's hand.

Under ``guiyang``, once 九条 is revealed after the win, ``chicken_marks`` gives 幺鸡 as
``"golden"``; with 三筒 revealed, 幺鸡 and 四筒 are ``"chicken"`` (``tests/test_chickens.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from zhuoji.contract.bound import BoundRules
from zhuoji.outcome import Reveal, RevealAt
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import chicken_table
from zhuoji.tiles import parse_one

Mark = Literal["chicken", "golden"]


def chicken_marks(
    ruleset: BoundRules,
    reveals: Iterable[Reveal | int] = (),
    weekday: int = 1,
    *,
    win_reveal: int | None = None,
) -> dict[int, Mark]:
    """Tile kind → ``"chicken"`` or ``"golden"`` under the variant's ``chickens`` stage.

    ``reveals``: the round's reveals — :class:`~zhuoji.outcome.Reveal` records
    (``RoundEnd.reveals``; only those that still make chickens count), or tile kinds revealed
    during play that make chickens now (the engine's :meth:`~zhuoji.engine.Round.open_reveals`
    before the end, the observation's ``reveals``).  ``win_reveal``: the tile revealed after
    the win, when given as a kind.  ``weekday``: the table's day (星期鸡).  A variant without
    a chickens stage marks nothing; after a 吹风鸡 reveal nothing is a chicken.
    """
    p = next((b.params for b in ruleset.stages if isinstance(b.params, ChickenParams)), None)
    if p is None:
        return {}
    records = [r for r in reveals if isinstance(r, Reveal)]
    shown = ruleset.variant.deal.counting(records)
    shown += [Reveal(r, RevealAt.START) for r in reveals if not isinstance(r, Reveal)]
    if win_reveal is not None:
        shown.append(Reveal(win_reveal))
    after_win = {r.tile for r in shown if r.at is RevealAt.WIN}
    if p.chuifeng is not None and after_win & {parse_one(t) for t in p.chuifeng.tiles}:
        return {}
    table = chicken_table(p, shown, weekday)
    return {k: "golden" if c.golden else "chicken" for k, c in sorted(table.items())}
