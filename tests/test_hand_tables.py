"""The shipped distance tables (zhuoji/data/hand_tables.bin) and what loading them costs.

* Regenerating with ``hand_tables.build()`` + ``encode()`` gives exactly the shipped bytes
  (``python -m zhuoji.hand_tables`` rewrites the file when the generator changes).
* The tables' per-suit (m sets, h pairs) distances equal an independent recursion written
  here, on a seeded sample of patterns, with a fifth copy allowed (the plain tables) and
  with none (the capped ones); with no four-of-a-kind in a suit, capping every kind at four
  copies changes nothing (``zhuoji.hand_kernel`` reads the capped tables only for a hand
  holding a four-of-a-kind).
* ``import zhuoji.hand`` in a fresh interpreter stays cheap: under 0.5 s and 50 MB is the
  target; the assertions keep a margin (1.5 s) so a slow CI machine does not flake.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from zhuoji import hand_tables
from zhuoji.hand_tables import WIDTH

IMPORT_PROBE = """
import json, resource, sys, time, tracemalloc


def peak_rss_kb():
    # VmHWM is this process's own high-water mark; ru_maxrss would carry over the parent's
    # peak across fork + exec on Linux
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


mode = sys.argv[1]
if mode == "memory":
    tracemalloc.start()
before = peak_rss_kb()
start = time.perf_counter()
import zhuoji.hand
seconds = time.perf_counter() - start
after = peak_rss_kb()
traced = tracemalloc.get_traced_memory()[1] if mode == "memory" else 0
print(json.dumps({"seconds": seconds, "rss_before_kb": before, "rss_after_kb": after,
                  "traced_peak": traced}))
"""


@pytest.fixture(scope="module")
def shipped() -> hand_tables.Tables:
    return hand_tables.load()


def test_regenerated_tables_match_shipped_bytes() -> None:
    """build() + encode() reproduces the shipped file byte for byte."""
    built = hand_tables.build()
    data = hand_tables.encode(built)
    shipped_bytes = hand_tables.DATA_FILE.read_bytes()
    # first the content, so a stale table and a different zlib are told apart
    assert hand_tables.decode(shipped_bytes) == built, (
        "the shipped tables are stale: run python -m zhuoji.hand_tables"
    )
    assert data == shipped_bytes, "same tables, different compressed bytes (zlib version?)"


def test_table_shape(shipped: hand_tables.Tables) -> None:
    n = len(shipped.vectors)
    assert 0 < n <= 255
    assert len(shipped.suit_class) == hand_tables.SUIT_PATTERNS == 5**9
    assert len(shipped.honor_class) == hand_tables.HONOR_PATTERNS == 5**7
    assert all(len(v) == WIDTH for v in shipped.vectors)
    assert len(shipped.product) == n and all(len(row) == n for row in shipped.product)
    assert max(shipped.suit_class) < n and max(shipped.honor_class) < n
    assert len(shipped.suit_capped) == len(shipped.suit_class)
    assert len(shipped.honor_capped) == len(shipped.honor_class)
    assert max(shipped.suit_capped) < n and max(shipped.honor_capped) < n
    # the empty pattern: nothing to add for no sets and no pair
    empty = shipped.vectors[shipped.suit_class[0]]
    assert list(empty) == [0, 2, 3, 5, 6, 8, 9, 11, 12, 14]


def test_decode_rejects_damage() -> None:
    import zlib

    raw = zlib.decompress(hand_tables.DATA_FILE.read_bytes())
    with pytest.raises(RuntimeError) as info:
        hand_tables.decode(zlib.compress(raw + b"\0"))
    expected = f"{hand_tables.DATA_FILE} is damaged; run python -m zhuoji.hand_tables"
    assert str(info.value) == expected


def reference_vector(pattern: tuple[int, ...], chows: bool, cap: int) -> list[int]:
    """For m = 0..4 sets and h = 0..1 pairs, the fewest tiles to add to ``pattern`` so that
    it contains them (unused tiles cost nothing), no kind above ``cap`` copies: every
    target is built rank by rank (chows starting here, a pung, the pair) and costs
    ``Σ max(target − held, 0)``."""
    n = len(pattern)

    @cache
    def best(i: int, sets: int, pair: int, back1: int, back2: int) -> int:
        if i == n:
            return 0 if sets == pair == back1 == back2 == 0 else 10**6
        answer = 10**6
        for starts in range(sets + 1 if chows and i + 2 < n else 1):
            for pungs in range(sets - starts + 1):
                for pairs in range(pair + 1):
                    total = back1 + back2 + starts + 3 * pungs + 2 * pairs
                    if total > cap:
                        continue
                    rest = best(i + 1, sets - starts - pungs, pair - pairs, starts, back1)
                    answer = min(answer, max(total - pattern[i], 0) + rest)
        return answer

    return [best(0, m, h, 0, 0) for m in range(5) for h in range(2)]


def _patterns(rng: random.Random, size: int, count: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    while len(out) < count:
        pattern = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(size))
        if sum(pattern) <= 14:
            out.append(pattern)
    return out


def _index(pattern: tuple[int, ...]) -> int:
    return sum(x * 5**i for i, x in enumerate(pattern))


@pytest.mark.parametrize(("size", "chows", "count"), [(9, True, 600), (7, False, 300)])
def test_table_vectors_match_reference(
    shipped: hand_tables.Tables, size: int, chows: bool, count: int
) -> None:
    """Table vector = the reference with a fifth copy allowed; the capped table's = the
    reference with none, and the same class as the plain table's when the pattern holds no
    four-of-a-kind (so capping changes only those)."""
    rng = random.Random(size)
    classes = shipped.suit_class if chows else shipped.honor_class
    capped = shipped.suit_capped if chows else shipped.honor_capped
    quads = 0
    for pattern in _patterns(rng, size, count):
        index = _index(pattern)
        table = list(shipped.vectors[classes[index]])
        assert table == reference_vector(pattern, chows, cap=99), pattern
        assert list(shipped.vectors[capped[index]]) == reference_vector(pattern, chows, cap=4)
        if 4 not in pattern:
            assert capped[index] == classes[index], pattern
        quads += 4 in pattern
    assert quads > count // 4  # the sample holds four-of-a-kinds enough


def test_capped_tables_differ_only_where_a_fifth_copy_helped(
    shipped: hand_tables.Tables,
) -> None:
    """Every pattern whose capped class differs holds a four-of-a-kind and at most 14 tiles,
    and its capped vector is nowhere nearer than the plain one."""
    for classes, capped, size in (
        (shipped.suit_class, shipped.suit_capped, 9),
        (shipped.honor_class, shipped.honor_capped, 7),
    ):
        differ = [i for i in range(len(classes)) if classes[i] != capped[i]]
        assert differ
        for index in differ[:: max(1, len(differ) // 2000)]:
            pattern = [index // 5**i % 5 for i in range(size)]
            assert 4 in pattern and sum(pattern) <= 14, pattern
            plain, no_fifth = shipped.vectors[classes[index]], shipped.vectors[capped[index]]
            assert all(a <= b for a, b in zip(plain, no_fifth, strict=True)), pattern


def _probe(mode: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE, mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def test_import_is_cheap() -> None:
    """A fresh ``import zhuoji.hand``: target < 0.5 s and < 50 MB; asserted with margin."""
    seconds = min(_probe("time")["seconds"] for _ in range(3))
    memory = _probe("memory")
    traced_mb = memory["traced_peak"] / 2**20
    rss_mb = memory["rss_after_kb"] / 1024
    rss_growth_mb = (memory["rss_after_kb"] - memory["rss_before_kb"]) / 1024
    report = (
        f"import zhuoji.hand: {seconds * 1000:.0f} ms, traced peak {traced_mb:.1f} MB, "
        f"peak RSS {rss_mb:.1f} MB (+{rss_growth_mb:.1f} MB)"
    )
    print(report)
    assert seconds < 1.5, report
    assert traced_mb < 50, report
    assert rss_mb < 50 + 30, report  # the interpreter itself takes 10–30 MB
    assert rss_growth_mb < 50, report


def test_the_inflated_tables_are_kept_and_used_by_the_file_they_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shipped: hand_tables.Tables
) -> None:
    """load() keeps the inflated bytes in data/__pycache__ (zhuoji.pycache) and uses them
    while the shipped file keeps its size and modification time; a damaged or stale cache
    is inflated again from the file, and a damaged file is still reported."""
    import os
    import zlib

    from zhuoji import pycache

    data = tmp_path / "hand_tables.bin"
    data.write_bytes(hand_tables.DATA_FILE.read_bytes())
    monkeypatch.setattr(hand_tables, "DATA_FILE", data)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    load = hand_tables.load.__wrapped__
    cache = tmp_path / "__pycache__" / f"hand_tables.bin.{sys.implementation.cache_tag}.inflated"

    assert load() == shipped
    assert cache.exists()
    assert load() == shipped  # from the cache
    # the cache is what is read: a cache with other (well-formed) tables is believed...
    raw = bytearray(zlib.decompress(data.read_bytes()))
    raw[1] = (raw[1] + 1) % raw[0]
    key = (hand_tables.INFLATED_FORMAT, pycache.stamp([data]))
    pycache.store(cache, key, bytes(raw))
    assert load().suit_class[0] == raw[1] != shipped.suit_class[0]
    # ...until the file changes: a new modification time inflates the file again
    st = data.stat()
    os.utime(data, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert load() == shipped
    # a damaged cache (cut short) is inflated again too
    cache.write_bytes(cache.read_bytes()[:1000])
    assert load() == shipped
    # and a damaged file is an error naming it, cache or not
    data.write_bytes(zlib.compress(zlib.decompress(data.read_bytes()) + b"\0"))
    with pytest.raises(RuntimeError, match="is damaged"):
        load()
