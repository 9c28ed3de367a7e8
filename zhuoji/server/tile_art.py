"""Draws the tile faces of the browser client: ``python -m zhuoji.server.tile_art``.

Writes ``zhuoji/server/static/tiles.svg``, one ``<symbol id="t-5m">`` per tile kind in a
60 × 80 box (the face only: the client draws the tile's body with CSS), made here from
shapes — dots, bamboo sticks, the 幺鸡 bird — and, for the written characters (一 … 九, 萬,
東南西北, 中, 發), the glyph outlines of Noto Serif CJK TC Bold (SIL Open Font License 1.1)
turned into paths, so the page needs no font for its tiles and nothing is downloaded at run
time.  Glyphs are read with fontTools (``pip install fonttools``; it comes with the ``sim``
extra) from the Debian package ``fonts-noto-cjk``, or from ``--font``.

``tests/test_tile_art.py`` checks that the committed file is what this script writes.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from zhuoji import tiles as T

FONT = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
FONT_NAME = "Noto Serif CJK TC"
OUT = Path(__file__).with_name("static") / "tiles.svg"

W, H = 60, 80
RED, GREEN, BLUE, NAVY = "#c8102e", "#0b7a3e", "#1f4fa3", "#1b2a4a"
NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"


def _num(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


# -------------------------------------------------------------------------------------------
# written characters
# -------------------------------------------------------------------------------------------


class Glyphs:
    """Outlines of one CJK font as SVG path data, placed in a box."""

    def __init__(self, path: Path, family: str) -> None:
        try:
            from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]
        except ModuleNotFoundError:
            sys.exit("tile_art: fontTools is needed: pip install fonttools")
        if not path.exists():
            sys.exit(f"tile_art: no font at {path}; install fonts-noto-cjk or give --font")
        fonts = TTCollection(str(path)).fonts if path.suffix == ".ttc" else [TTFont(str(path))]
        found = [f for f in fonts if f["name"].getDebugName(1) == family]
        if not found:
            names = ", ".join(str(f["name"].getDebugName(1)) for f in fonts)
            sys.exit(f"tile_art: {path} has no {family!r} (it has {names})")
        self.font = found[0]
        self.cmap = self.font.getBestCmap()
        self.glyphs = self.font.getGlyphSet()

    def path(self, char: str, box: tuple[float, float, float, float]) -> str:
        """``char``'s outline with its ideographic em square (1000 units, baseline 120 up
        from the bottom) fitted into ``box`` = (x, y, width, height), keeping proportions."""
        from fontTools.pens.svgPathPen import SVGPathPen  # type: ignore[import-untyped]
        from fontTools.pens.transformPen import TransformPen  # type: ignore[import-untyped]

        x, y, w, h = box
        scale = min(w, h) / 1000
        ox = x + (w - 1000 * scale) / 2
        oy = y + (h - 1000 * scale) / 2 + 880 * scale  # em top is 880 above the baseline
        pen = SVGPathPen(self.glyphs, ntos=_num)
        self.glyphs[self.cmap[ord(char)]].draw(TransformPen(pen, (scale, 0, 0, -scale, ox, oy)))
        return str(pen.getCommands())


def _glyph(g: Glyphs, char: str, box: tuple[float, float, float, float], color: str) -> str:
    return f'<path fill="{color}" d="{g.path(char, box)}"/>'


def characters(g: Glyphs, rank: int) -> str:
    """万: the numeral over 萬 in red, as on the tiles."""
    return _glyph(g, NUMERALS[rank - 1], (10, 1, 40, 34), NAVY) + _glyph(
        g, "萬", (5, 35, 50, 44), RED
    )


def honor(g: Glyphs, index: int) -> str:
    """東南西北 in dark blue, 中 red, 發 green, 白 an empty blue frame."""
    if index < 4:
        return _glyph(g, WINDS[index], (4, 10, 52, 60), NAVY)
    if index == 4:
        return _glyph(g, "中", (4, 10, 52, 60), RED)
    if index == 5:
        return _glyph(g, "發", (4, 10, 52, 60), GREEN)
    return (
        f'<rect x="10" y="13" width="40" height="54" rx="3" fill="none" stroke="{BLUE}" '
        'stroke-width="4"/><rect x="16" y="19" width="28" height="42" rx="2" fill="none" '
        f'stroke="{BLUE}" stroke-width="1.6"/>'
    )


# -------------------------------------------------------------------------------------------
# dots 筒
# -------------------------------------------------------------------------------------------


def _dot(x: float, y: float, r: float, color: str) -> str:
    """One coin: a coloured disc, a white ring, a coloured centre."""
    return (
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" fill="{color}"/>'
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r * 0.68)}" fill="#fffdf3"/>'
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r * 0.46)}" fill="{color}"/>'
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r * 0.16)}" fill="#fffdf3"/>'
    )


def _big_dot() -> str:
    """一筒: the large ornamented coin."""
    parts = [
        f'<circle cx="30" cy="40" r="25" fill="{GREEN}"/>',
        '<circle cx="30" cy="40" r="21.5" fill="#fffdf3"/>',
        f'<circle cx="30" cy="40" r="19" fill="none" stroke="{BLUE}" stroke-width="2.4" '
        'stroke-dasharray="3 2.2"/>',
        f'<circle cx="30" cy="40" r="13" fill="{RED}"/>',
        '<circle cx="30" cy="40" r="9" fill="#fffdf3"/>',
    ]
    for i in range(8):
        a = i * math.pi / 4
        parts.append(
            f'<circle cx="{_num(30 + 6 * math.cos(a))}" cy="{_num(40 + 6 * math.sin(a))}" '
            f'r="1.6" fill="{GREEN}"/>'
        )
    parts.append(f'<circle cx="30" cy="40" r="2.4" fill="{RED}"/>')
    return "".join(parts)


#: rank → dots as (x, y, colour); 60 × 80 box
_DOTS: dict[int, list[tuple[int, int, str]]] = {
    2: [(30, 22, GREEN), (30, 58, BLUE)],
    3: [(14, 16, BLUE), (30, 40, RED), (46, 64, GREEN)],
    4: [(16, 22, BLUE), (44, 22, GREEN), (16, 58, GREEN), (44, 58, BLUE)],
    5: [(15, 17, BLUE), (45, 17, GREEN), (30, 40, RED), (15, 63, GREEN), (45, 63, BLUE)],
    6: [(17, 14, GREEN), (43, 14, GREEN)]
    + [(17, y, RED) for y in (42, 66)]
    + [(43, y, RED) for y in (42, 66)],
    7: [(12, 10, GREEN), (30, 19, GREEN), (48, 28, GREEN)]
    + [(18, y, RED) for y in (48, 68)]
    + [(42, y, RED) for y in (48, 68)],
    8: [(18, y, BLUE) for y in (11, 30, 50, 69)] + [(42, y, BLUE) for y in (11, 30, 50, 69)],
    9: [(x, 14, BLUE) for x in (12, 30, 48)]
    + [(x, 40, RED) for x in (12, 30, 48)]
    + [(x, 66, GREEN) for x in (12, 30, 48)],
}
_DOT_R = {2: 13, 3: 10, 4: 11, 5: 9.5, 6: 9.5, 7: 8, 8: 8.5, 9: 8}


def dots(rank: int) -> str:
    if rank == 1:
        return _big_dot()
    r = _DOT_R[rank]
    return "".join(_dot(x, y, r, c) for x, y, c in _DOTS[rank])


# -------------------------------------------------------------------------------------------
# bamboo 条
# -------------------------------------------------------------------------------------------


def _stick(x: float, y: float, length: float, color: str, angle: float = 0) -> str:
    """One bamboo stick centred at (x, y): a rounded stem with three nodes."""
    w = 7.2
    top = y - length / 2
    body = (
        f'<rect x="{_num(x - w / 2)}" y="{_num(top)}" width="{_num(w)}" height="{_num(length)}" '
        f'rx="2.6" fill="{color}"/>'
        f'<rect x="{_num(x - 1)}" y="{_num(top + 2)}" width="2" height="{_num(length - 4)}" '
        'rx="1" fill="#fffdf3" opacity="0.5"/>'
    )
    nodes = "".join(
        f'<rect x="{_num(x - w / 2 - 0.7)}" y="{_num(top + length * f - 0.9)}" '
        f'width="{_num(w + 1.4)}" height="1.8" rx="0.9" fill="{color}"/>'
        for f in (0.0, 0.5, 1.0)
    )
    g = body + nodes
    if angle:
        return f'<g transform="rotate({_num(angle)} {_num(x)} {_num(y)})">{g}</g>'
    return g


#: rank → sticks as (x, y, length, colour, angle)
_STICKS: dict[int, list[tuple[int, int, int, str, int]]] = {
    2: [(30, 21, 30, BLUE, 0), (30, 59, 30, GREEN, 0)],
    3: [(30, 21, 30, BLUE, 0), (18, 59, 30, GREEN, 0), (42, 59, 30, GREEN, 0)],
    4: [
        (18, 21, 30, BLUE, 0),
        (42, 21, 30, GREEN, 0),
        (18, 59, 30, GREEN, 0),
        (42, 59, 30, BLUE, 0),
    ],
    5: [
        (14, 21, 30, GREEN, 0),
        (46, 21, 30, BLUE, 0),
        (30, 40, 30, RED, 0),
        (14, 59, 30, BLUE, 0),
        (46, 59, 30, GREEN, 0),
    ],
    6: [(x, 21, 30, GREEN, 0) for x in (14, 30, 46)] + [(x, 59, 30, BLUE, 0) for x in (14, 30, 46)],
    7: [(30, 13, 20, RED, 0)]
    + [(x, 38, 22, GREEN, 0) for x in (14, 30, 46)]
    + [(x, 65, 22, BLUE, 0) for x in (14, 30, 46)],
    8: [(x, 21, 30, GREEN, a) for x, a in ((10, 0), (23, 22), (37, -22), (50, 0))]
    + [(x, 59, 30, BLUE, a) for x, a in ((10, 0), (23, -22), (37, 22), (50, 0))],
    9: [(x, y, 22, c, 0) for y in (13, 40, 67) for x, c in ((14, GREEN), (30, RED), (46, BLUE))],
}


def bamboo(rank: int) -> str:
    if rank == 1:
        return bird()
    return "".join(_stick(x, y, length, c, a) for x, y, length, c, a in _STICKS[rank])


def bird() -> str:
    """幺鸡: a rooster standing on a bamboo stick — red comb, green body, blue and red tail."""
    return "".join(
        [
            # tail plumes
            f'<path d="M36 44 C44 24 54 20 56 10 C50 20 44 26 38 40 Z" fill="{BLUE}"/>',
            f'<path d="M36 46 C48 34 57 34 58 24 C52 34 44 38 37 44 Z" fill="{GREEN}"/>',
            f'<path d="M35 49 C47 44 55 48 57 40 C51 46 44 45 36 46 Z" fill="{RED}"/>',
            # body and wing
            f'<path d="M16 36 C12 46 18 58 30 58 C40 58 44 50 40 42 C36 36 26 38 22 30 Z" '
            f'fill="{GREEN}"/>',
            '<path d="M22 44 C28 40 36 42 38 48 C32 52 25 51 22 44 Z" fill="#e0a100"/>',
            f'<path d="M24 46 C29 44 34 45 36 48" stroke="{NAVY}" stroke-width="1" fill="none"/>',
            # neck and head
            f'<path d="M16 36 C14 28 15 20 20 16 C25 14 28 19 26 25 C24 29 24 32 22 34 Z" '
            f'fill="{GREEN}"/>',
            f'<path d="M18 15 C18 10 20 8 22 10 C23 7 26 7 26 10 C28 9 30 11 28 14 Z" '
            f'fill="{RED}"/>',
            '<path d="M16 19 L9 21 L16 23 Z" fill="#e0a100"/>',
            f'<path d="M17 24 C15 27 16 30 18 29 C19 27 19 25 18 24 Z" fill="{RED}"/>',
            '<circle cx="20" cy="19" r="1.9" fill="#fffdf3"/>',
            f'<circle cx="20.3" cy="19" r="1" fill="{NAVY}"/>',
            # legs on a bamboo perch
            '<path d="M26 57 L24 68 M32 57 L33 68" stroke="#e0a100" stroke-width="2" '
            'stroke-linecap="round"/>',
            f'<rect x="8" y="68" width="44" height="5" rx="2.5" fill="{GREEN}"/>',
            '<rect x="8" y="69.6" width="44" height="1.4" fill="#fffdf3" opacity="0.5"/>',
        ]
    )


def flower() -> str:
    """红花, the flower tile (补花, CITIES.md 黔西): five red petals round a gold heart on a
    green stem, drawn from shapes."""
    cx, cy, ring, petal = 30.0, 34.0, 9.5, 7.5
    parts = [
        f'<path d="M30 44V66" stroke="{GREEN}" stroke-width="3" fill="none"/>',
        f'<path d="M30 58C24 52 17 54 14 57C20 60 26 60 30 58Z" fill="{GREEN}"/>',
    ]
    for i in range(5):
        a = math.radians(-90 + 72 * i)
        x, y = cx + ring * math.cos(a), cy + ring * math.sin(a)
        parts.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(petal)}" fill="{RED}"/>')
    parts.append(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="5" fill="#e0a800"/>')
    return "".join(parts)


# -------------------------------------------------------------------------------------------
# the sprite
# -------------------------------------------------------------------------------------------


def faces(g: Glyphs) -> Iterable[tuple[int, str]]:
    draw: list[Callable[[int], str]] = [
        lambda rank: characters(g, rank),
        bamboo,
        dots,
    ]
    for kind in range(T.NUM_KINDS):
        if T.is_honor(kind):
            yield kind, honor(g, kind - 27)
        else:
            yield kind, draw[T.suit_of(kind)](T.rank_of(kind))
    yield T.FLOWER, flower()


def sprite(g: Glyphs) -> str:
    lines = [
        '<svg xmlns="http://www.w3.org/2000/svg" style="display:none">',
        "<!-- zhuoji tile faces, written by `python -m zhuoji.server.tile_art`: do not edit.",
        f"     Characters: glyph outlines of {FONT_NAME} Bold (SIL Open Font License 1.1). -->",
    ]
    for kind, art in faces(g):
        lines.append(
            f'<symbol id="t-{T.text(kind)}" viewBox="0 0 {W} {H}"><title>{T.name(kind)}</title>'
            f"{art}</symbol>"
        )
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m zhuoji.server.tile_art", description=__doc__)
    p.add_argument("--font", type=Path, default=FONT, help=f"font file (default {FONT})")
    p.add_argument("--out", type=Path, default=OUT, help=f"where to write (default {OUT})")
    p.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = p.parse_args(argv)
    text = sprite(Glyphs(args.font, FONT_NAME))
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(
                f"{args.out} is not current: run python -m zhuoji.server.tile_art", file=sys.stderr
            )
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
