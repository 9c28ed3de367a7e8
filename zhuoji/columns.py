"""Aligned text columns for the terminal, aware that CJK characters take two columns.

The one table helper behind every text report (settlements, ``variants``, simulation and
comparison reports).  Standard library only: it is imported on the command's start-up path.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def width(text: str) -> int:
    """Terminal columns of ``text``: wide and full-width characters (汉字, ＋) take two,
    combining marks none."""
    cols = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        cols += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return cols


def pad(text: str, cols: int, right: bool = False) -> str:
    """``text`` filled with spaces to ``cols`` columns, on the right (or the left)."""
    fill = " " * max(0, cols - width(text))
    return fill + text if right else text + fill


def table(
    rows: Sequence[Sequence[str]],
    right: Sequence[bool] = (),
    indent: str = "  ",
    gap: str = "  ",
) -> list[str]:
    """Rows of cells aligned in columns; ``right[i]`` right-aligns column ``i`` (numbers).

    A row may be shorter than the others (a group heading); its cells still align."""
    if not rows:
        return []
    ncols = max(len(r) for r in rows)
    widths = [max((width(r[i]) for r in rows if i < len(r)), default=0) for i in range(ncols)]
    out = []
    for r in rows:
        cells = [pad(c, widths[i], right[i] if i < len(right) else False) for i, c in enumerate(r)]
        out.append((indent + gap.join(cells)).rstrip())
    return out


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 round``, ``2 rounds`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
