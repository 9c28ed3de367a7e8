"""十三幺 (thirteen orphans): seed 002 五–七 value 天和/人和/地和 "当十三幺盘算推算,9番"; the
form is one of each terminal and honor plus a second of one of them (issue 11, item 11)."""

from __future__ import annotations

import itertools

import pytest

from zhuoji import hand as H
from zhuoji.hand import Form, HandRules, Wild
from zhuoji.tiles import NUM_KINDS, counts, parse_one

YAO = HandRules(frozenset({Form.STANDARD, Form.SHISANYAO}), quads_as_two_pairs=False)
PLAIN = HandRules(frozenset({Form.STANDARD}), quads_as_two_pairs=False)


def ref_distance(c: list[int]) -> int:
    """Brute force: fewest tiles to add (any kinds) to reach a 十三幺 hand, over 14 tiles."""
    if sum(c) < 13:
        return H.FAR
    best = H.FAR
    for pair in H.ORPHANS:
        target = [0] * NUM_KINDS
        for k in H.ORPHANS:
            target[k] = 1
        target[pair] = 2
        have = sum(min(c[k], target[k]) for k in range(NUM_KINDS))
        best = min(best, 14 - have)
    return best


@pytest.mark.parametrize(
    ("text", "win"),
    [
        ("19m19s19p12345677z", True),
        ("119m19s19p1234567z", True),
        ("19m19s19p1234567z5m", False),  # a non-orphan
        ("19m19s19p11234566z", False),  # 1z and 6z twice, 7z missing
        ("119m199s19p123456z", False),  # two pairs
    ],
)
def test_is_win(text: str, win: bool) -> None:
    c = counts(text)
    assert YAO.is_win(c) is win
    assert H.is_shisanyao(c) is win
    assert not PLAIN.is_win(c) or not win  # not a plain hand
    assert (YAO.win_forms(c) == [Form.SHISANYAO]) is win
    decs = YAO.decompositions(c)
    assert [d.form for d in decs] == ([Form.SHISANYAO] if win else [])
    if win:
        groups = decs[0].groups
        assert len(groups) == 13 and [g.kind for g in groups].count(H.GroupKind.PAIR) == 1


def test_waits() -> None:
    assert YAO.waits(counts("19m19s19p1234567z")) == sorted(H.ORPHANS)  # 十三面
    assert YAO.waits(counts("19m19s19p1234566z")) == [parse_one("7z")]
    assert YAO.shanten(counts("19m19s19p1234566z")) == 0
    assert not PLAIN.waits(counts("19m19s19p1234566z"))


def test_distance_against_brute_force() -> None:
    """Every hand of orphans (and one outsider) of 13 or 14 tiles up to a few copies."""
    kinds = [*H.ORPHANS, parse_one("5m")]
    for counts_ in itertools.islice(itertools.product(range(3), repeat=len(kinds)), 0, None, 97):
        c = [0] * NUM_KINDS
        for k, n in zip(kinds, counts_, strict=True):
            c[k] = n
        if sum(c) not in (13, 14):
            continue
        assert H.shisanyao_distance(c) == ref_distance(c), c


def test_with_wild_tiles() -> None:
    """六安-style jokers stand for missing kinds or the pair's second tile."""
    wild = HandRules(frozenset({Form.STANDARD, Form.SHISANYAO}), wild=Wild(parse_one("5m")))
    c = counts("19m19s19p123456z55m")  # two jokers: 7z and the pair
    assert wild.is_win(c)
    (dec,) = [d for d in wild.decompositions(c) if d.form is Form.SHISANYAO]
    assert sum(g.wild_count for g in dec.groups) == 2
    assert parse_one("5m") in wild.waits(counts("19m19s19p123456z5m"))
