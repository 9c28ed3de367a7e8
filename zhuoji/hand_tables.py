"""Precomputed per-suit distance tables for hand analysis, and their generator.

For one suit (nine ranks) or the honors (seven kinds, pungs and pairs only) and every count
pattern ``x`` (each count 0–4, indexed in base 5 with rank 1 as the lowest digit), the table
holds ten bytes: for ``m`` = 0..4 sets and ``h`` = 0..1 pairs, the fewest tiles that must be
added to ``x`` so that ``x`` plus the additions *contains* ``m`` sets and ``h`` pairs.  Tiles of
``x`` that are not used cost nothing (they are the ones a player would discard).

That is the suit-wise distance behind the usual shanten computation: a hand needs ``M`` sets
and one pair, and its distance is the least sum over suits of their distances for a split
``m_0 + … + m_3 = M`` with exactly one pair; shanten is that distance minus one.  A hand
*is* complete exactly when its distance is zero, and with ``w`` wild tiles a hand whose
other tiles have distance ``w`` is complete (every non-wild tile is then used).

The distance is ``3m + 2h`` minus the largest overlap ``Σ min(y_i, x_i)`` with a complete
pattern ``y``; since ``min(a + b, x) = min(a, x) + min(b, x − min(a, x))``, the overlap obeys
``g(x, m, h) = max over a unit u of ov(u, x) + g(x − min(u, x), …)``, which the generator
evaluates for every pattern at once with numpy.

Those vectors may count a fifth copy of a kind (``1111m`` is one tile from ``11111m``, a
pung and a pair), as a wild tile may stand for one.  Without wild tiles no kind goes above
four copies; only a pattern holding a four-of-a-kind can differ then, and for each such
pattern of up to 14 tiles the generator also finds the vector with no kind above four
copies (:func:`_generate_capped`: a pass over the ranks whose state is the chows started
one and two ranks back, again for every pattern at once).

Only a few hundred distinct vectors occur and they are closed under the min-plus product,
so the shipped file (``zhuoji/data/hand_tables.bin``, about 4 MB once loaded) holds each
pattern's *class*, with and without a fifth copy, and a class × class product table: a
hand's distance is three lookups.  ``python -m zhuoji.hand_tables`` rewrites it and a test
checks that it is current.
"""

from __future__ import annotations

import sys
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from zhuoji import pycache

DATA_FILE = Path(__file__).with_name("data") / "hand_tables.bin"
SUIT_PATTERNS = 5**9
HONOR_PATTERNS = 5**7
WIDTH = 10  # (m, h) for m in 0..4, h in 0..1, stored at m * 2 + h
UNREACHABLE = 255


def _units(positions: int, chows: bool) -> list[tuple[list[int], int, int]]:
    """(counts, sets added, pairs added) for every single set or pair within one suit."""
    units: list[tuple[list[int], int, int]] = []
    for i in range(positions):
        pung = [0] * positions
        pung[i] = 3
        units.append((pung, 1, 0))
        pair = [0] * positions
        pair[i] = 2
        units.append((pair, 0, 1))
        if chows and i + 2 < positions:
            chow = [0] * positions
            chow[i] = chow[i + 1] = chow[i + 2] = 1
            units.append((chow, 1, 0))
    return units


def _generate_one(positions: int, chows: bool) -> bytes:
    import numpy as np

    n = 5**positions
    idx = np.arange(n, dtype=np.int64)
    digits = np.stack([(idx // 5**i) % 5 for i in range(positions)])
    units = _units(positions, chows)
    # overlap[(m, h)] = best overlap with a pattern of m sets and h pairs
    best: dict[tuple[int, int], Any] = {(0, 0): np.zeros(n, dtype=np.int16)}
    for h in (0, 1):
        for m in range(5):
            if (m, h) == (0, 0):
                continue
            acc = np.zeros(n, dtype=np.int16)
            for shape, dm, dh in units:
                prev = (m - dm, h - dh)
                if prev[0] < 0 or prev[1] < 0 or prev not in best:
                    continue
                used = np.zeros(n, dtype=np.int64)
                ov = np.zeros(n, dtype=np.int16)
                for i, c in enumerate(shape):
                    if c:
                        take = np.minimum(digits[i], c)
                        used += take * 5**i
                        ov += take.astype(np.int16)
                cand = ov + best[prev][idx - used]
                np.maximum(acc, cand, out=acc)
            best[(m, h)] = acc
    table = np.full((n, WIDTH), UNREACHABLE, dtype=np.uint8)
    for (m, h), overlap in best.items():
        table[:, m * 2 + h] = (3 * m + 2 * h - overlap).astype(np.uint8)
    return bytes(table.tobytes())


def _generate_capped(positions: int, chows: bool) -> dict[int, bytes]:
    """The vectors of :func:`_generate_one` with no kind above four copies, for every
    pattern of up to 14 tiles holding a four-of-a-kind (the others cannot differ), by
    pattern index.

    For each pattern at once: ranks left to right, the state the chows started one and two
    ranks back, and for each (m, h) the largest overlap of the pattern with m sets and h
    pairs so far; at a rank, the chows started there, a pung and the pair may add up to
    four copies at most.  The distance is ``3m + 2h`` less the overlap at the end."""
    import numpy as np

    index = np.arange(5**positions, dtype=np.int64)
    digits = np.stack([(index // 5**i) % 5 for i in range(positions)], axis=1)
    keep = (digits.max(axis=1) == 4) & (digits.sum(axis=1) <= 14)
    index, digits = index[keep], digits[keep]
    count = len(index)
    none = -1000  # no way to have these sets and pairs yet
    start = np.full((count, 5, 2), none, dtype=np.int16)
    start[:, 0, 0] = 0
    states = {(0, 0): start}  # (chows started one rank back, two back) -> overlaps
    for rank in range(positions):
        held = digits[:, rank].astype(np.int16)
        after: dict[tuple[int, int], Any] = {}
        for (back1, back2), overlap in states.items():
            carry = back1 + back2
            for starts in range(5 - carry if chows and rank + 2 < positions else 1):
                for pung in range(2):
                    for pair in range(2):
                        used = carry + starts + 3 * pung + 2 * pair
                        sets = starts + pung
                        if used > 4 or sets > 4:
                            continue
                        out = after.get((starts, back1))
                        if out is None:
                            out = after[(starts, back1)] = np.full_like(start, none)
                        gain = np.minimum(held, used)[:, None, None]
                        moved = overlap[:, : 5 - sets, : 2 - pair] + gain
                        np.maximum(out[:, sets:, pair:], moved, out=out[:, sets:, pair:])
        states = after
    overlap = states[(0, 0)]
    m = np.arange(5)[None, :, None]
    h = np.arange(2)[None, None, :]
    distance = np.where(overlap < 0, UNREACHABLE, 3 * m + 2 * h - overlap)
    rows = distance.astype(np.uint8).reshape(count, WIDTH)
    return {int(i): bytes(row) for i, row in zip(index, rows, strict=True)}


def _product(a: bytes, b: bytes) -> bytes:
    """Min-plus product of two (m, h) vectors, truncated at four sets."""
    out = [UNREACHABLE] * WIDTH
    for i in range(5):
        for j in range(5 - i):
            k = 2 * (i + j)
            out[k] = min(out[k], a[2 * i] + b[2 * j])
            out[k + 1] = min(out[k + 1], a[2 * i + 1] + b[2 * j], a[2 * i] + b[2 * j + 1])
    return bytes(min(v, UNREACHABLE) for v in out)


@dataclass(frozen=True)
class Tables:
    """Class-compressed distance tables.

    Only a few hundred distinct distance vectors occur, and the set is closed under the
    min-plus product, so a whole hand's vector is ``product[product[product[a][b]][c]][d]``
    for the classes ``a``–``d`` of its three suits and honors.
    """

    suit_class: bytes  # class of each suit pattern (base-5 index)
    honor_class: bytes  # class of each honor pattern
    vectors: tuple[bytes, ...]  # the distance vector of each class
    product: tuple[bytes, ...]  # product[a][b] = class of the product of classes a and b
    #: class of each suit (honor) pattern with no kind above four copies; for a pattern of
    #: more than 14 tiles (no hand holds one) its ``suit_class`` (``honor_class``)
    suit_capped: bytes
    honor_capped: bytes


def build() -> Tables:
    suit = _generate_one(9, chows=True)
    honor = _generate_one(7, chows=False)
    suit_vecs = [suit[i : i + WIDTH] for i in range(0, len(suit), WIDTH)]
    honor_vecs = [honor[i : i + WIDTH] for i in range(0, len(honor), WIDTH)]
    suit_capped = _generate_capped(9, chows=True)
    honor_capped = _generate_capped(7, chows=False)
    capped = set(suit_capped.values()) | set(honor_capped.values())
    classes = sorted(set(suit_vecs) | set(honor_vecs) | capped)
    known = set(classes)
    frontier = list(classes)
    while frontier:
        fresh = sorted({_product(a, b) for a in frontier for b in classes} - known)
        known.update(fresh)
        classes.extend(fresh)
        frontier = fresh
    if len(classes) > 255:
        raise RuntimeError(f"{len(classes)} distance classes do not fit a byte")
    ids = {v: i for i, v in enumerate(classes)}
    product = tuple(bytes(ids[_product(a, b)] for b in classes) for a in classes)
    suit_class = bytes(ids[v] for v in suit_vecs)
    honor_class = bytes(ids[v] for v in honor_vecs)
    return Tables(
        suit_class=suit_class,
        honor_class=honor_class,
        vectors=tuple(classes),
        product=product,
        suit_capped=_patched(suit_class, suit_capped, ids),
        honor_capped=_patched(honor_class, honor_capped, ids),
    )


def _patched(classes: bytes, vectors: dict[int, bytes], ids: dict[bytes, int]) -> bytes:
    out = bytearray(classes)
    for index, vector in vectors.items():
        out[index] = ids[vector]
    return bytes(out)


def encode(t: Tables) -> bytes:
    n = len(t.vectors)
    raw = bytes([n]) + t.suit_class + t.honor_class + b"".join(t.vectors) + b"".join(t.product)
    return zlib.compress(raw + t.suit_capped + t.honor_capped, 9)


def decode(data: bytes) -> Tables:
    """The tables from the shipped file's bytes (:func:`encode`'s output)."""
    return layout(zlib.decompress(data))


def layout(raw: bytes) -> Tables:
    """The tables from their inflated bytes."""
    n = raw[0]
    at = 1
    suit_class = raw[at : at + SUIT_PATTERNS]
    at += SUIT_PATTERNS
    honor_class = raw[at : at + HONOR_PATTERNS]
    at += HONOR_PATTERNS
    vectors = tuple(raw[at + i * WIDTH : at + (i + 1) * WIDTH] for i in range(n))
    at += n * WIDTH
    product = tuple(raw[at + i * n : at + (i + 1) * n] for i in range(n))
    at += n * n
    suit_capped = raw[at : at + SUIT_PATTERNS]
    at += SUIT_PATTERNS
    honor_capped = raw[at : at + HONOR_PATTERNS]
    if at + HONOR_PATTERNS != len(raw):
        raise RuntimeError(f"{DATA_FILE} is damaged; run python -m zhuoji.hand_tables")
    return Tables(suit_class, honor_class, vectors, product, suit_capped, honor_capped)


#: the layout of the inflated tables kept in ``data/__pycache__``; change it with :func:`layout`
INFLATED_FORMAT = 1


@lru_cache(maxsize=1)
def load() -> Tables:
    """The shipped tables, read once per process (every user shares the same copy).

    Inflating the file is about 30 M instructions, a tenth of a bare interpreter's start:
    the inflated bytes are kept beside it as bytecode is (:mod:`zhuoji.pycache`), for this
    file by its size and modification time."""
    cache = pycache.cache_file(DATA_FILE, "inflated")
    key = (INFLATED_FORMAT, pycache.stamp([DATA_FILE]))
    raw = pycache.load(cache, key) if cache is not None else None
    if isinstance(raw, bytes):
        try:
            return layout(raw)
        except (IndexError, RuntimeError):
            pass  # a damaged cache: inflate the file again
    raw = zlib.decompress(DATA_FILE.read_bytes())
    tables = layout(raw)
    if cache is not None:
        pycache.store(cache, key, raw)
    return tables


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    data = encode(build())
    if "--check" in args:
        same = DATA_FILE.exists() and DATA_FILE.read_bytes() == data
        print("tables are current" if same else "tables are stale")
        return 0 if same else 1
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    DATA_FILE.write_bytes(data)
    print(f"wrote {DATA_FILE} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
