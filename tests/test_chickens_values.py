"""The round's chicken table remembered across rounds (zhuoji.rules.chickens.values
``round_chickens``): keyed by the parameters object, the reveals and the weekday, each part
of the key telling tables apart."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from zhuoji.outcome import Reveal, RevealAt
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import Chicken, chicken_table, round_chickens
from zhuoji.tiles import parse_one
from zhuoji.variant_io import load_variant


def _params(variant: str, **overrides: object) -> ChickenParams:
    stage = load_variant(variant, overrides or None).stage("chickens")
    assert stage is not None and isinstance(stage.params, ChickenParams)
    return stage.params


def _kinds(table: Mapping[int, Chicken]) -> dict[int, int]:
    return {k: c.value for k, c in table.items()}


def test_same_as_the_table_it_remembers() -> None:
    p = _params("guiyang")
    reveals = (Reveal(parse_one("9s"), RevealAt.WIN),)
    assert _kinds(round_chickens(p, reveals, 1)) == _kinds(chicken_table(p, reveals, 1))
    assert round_chickens(p, reveals, 1) is round_chickens(p, list(reveals), 1)


def test_reveals_tell_tables_apart() -> None:
    p = _params("guiyang")
    three = round_chickens(p, (Reveal(parse_one("3p"), RevealAt.WIN),), 1)
    five = round_chickens(p, (Reveal(parse_one("5p"), RevealAt.WIN),), 1)
    assert parse_one("4p") in three and parse_one("4p") not in five
    assert parse_one("6p") in five


def test_parameters_tell_tables_apart() -> None:
    """Two tables differing only in one chicken value: each reads its own parameters."""
    reveals = (Reveal(parse_one("3p"), RevealAt.WIN),)
    one = round_chickens(_params("guiyang"), reveals, 1)
    two = round_chickens(_params("guiyang", **{"settle.chickens.flip.value": 2}), reveals, 1)
    assert one[parse_one("4p")].value == 1 and two[parse_one("4p")].value == 2


def test_weekday_tells_tables_apart() -> None:
    p = _params("guiyang", **{"settle.chickens.weekday": {"value": 1}})
    monday, tuesday = round_chickens(p, (), 1), round_chickens(p, (), 2)
    assert parse_one("1m") in monday and parse_one("1m") not in tuesday
    assert parse_one("2m") in tuesday


def test_remembered_table_cannot_be_changed() -> None:
    table = round_chickens(_params("guiyang"), (), 1)
    with pytest.raises(TypeError):
        table[0] = table[parse_one("1s")]  # type: ignore[index]
