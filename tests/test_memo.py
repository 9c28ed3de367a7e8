"""Work done once per rules object (zhuoji.rules.memo) and the pattern table prepared once
per table (zhuoji.rules.patterns): a value is keyed by its object, never shared by another."""

from __future__ import annotations

from zhuoji.hand import HandRules
from zhuoji.rules.facts import WinContext
from zhuoji.rules.memo import Identity, PerObject
from zhuoji.rules.patterns import evaluate, value_of
from zhuoji.tiles import counts
from zhuoji.variant import PatternsSection


def _table(fan: int, tile: str = "5z") -> PatternsSection:
    return PatternsSection.model_validate(
        {
            "combine": "additive",
            "rows": {
                "pinghu": {"name": "平胡", "fan": fan, "requires": {"form": "standard"}},
                "hongzhong": {
                    "name": "红中",
                    "fan": 2,
                    "tile": tile,
                    "per": "tile_copies",
                    "requires": {"tile_copies": 1},
                },
            },
        }
    )


def test_per_object_computes_once_per_object_and_keeps_it_alive() -> None:
    calls: list[object] = []

    def fn(obj: list[int]) -> int:
        calls.append(obj)
        return sum(obj)

    memo = PerObject(fn, maxsize=2)
    a, b = [1, 2], [1, 2]  # equal, not the same object
    assert memo(a) == 3 and memo(a) == 3 and len(calls) == 1
    assert memo(b) == 3 and len(calls) == 2  # keyed by identity, not equality
    a.append(10)  # (a real caller passes frozen objects; this shows the key is the object)
    assert memo(a) == 3
    memo([5])  # a third object: the store is full, it starts again
    assert len(memo) == 1


def test_identity_key() -> None:
    a, b = [1], [1]
    assert Identity(a) == Identity(a) and Identity(a) != Identity(b)
    assert hash(Identity(a)) == id(a)


def test_value_of_reads_each_table_its_own_rows() -> None:
    """Two tables differing in one fan, or in a row's tile, value the same facts apart (the
    prepared rows are the table's own)."""
    hand = counts("123m456m789m234s55z")
    rules = HandRules()
    ctx = WinContext()
    one = evaluate(_table(1), rules, hand, (), 31, ctx)
    three = evaluate(_table(3), rules, hand, (), 31, ctx)
    other_tile = evaluate(_table(1, tile="6z"), rules, hand, (), 31, ctx)
    assert one is not None and three is not None and other_tile is not None
    assert [(c.pattern, c.fan) for c in one.components] == [("pinghu", 1), ("hongzhong", 4)]
    assert [(c.pattern, c.fan) for c in three.components] == [("pinghu", 3), ("hongzhong", 4)]
    assert [(c.pattern, c.fan) for c in other_tile.components] == [("pinghu", 1)]
    assert value_of(_table(2), one.facts)[0].fan == 2
