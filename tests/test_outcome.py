"""The round-end objects settlement reads (:mod:`zhuoji.outcome`): the engine builds them with
:func:`~zhuoji.outcome.frozen_from` (issue 29: without the frozen dataclass's field-by-field
``__init__``), and what it builds must be the object ``RoundEnd(...)`` would be."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields

import pytest

from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.outcome import RoundEnd, SeatEnd, frozen_from
from zhuoji.variant_io import load_variant


def _rebuilt(end: RoundEnd) -> RoundEnd:
    seats = tuple(
        SeatEnd(**{f.name: getattr(s, f.name) for f in fields(SeatEnd)}) for s in end.seats
    )
    kw = {f.name: getattr(end, f.name) for f in fields(RoundEnd) if f.name != "seats"}
    return RoundEnd(seats=seats, **kw)


def test_frozen_from_equals_the_constructor() -> None:
    made = frozen_from(SeatEnd, {"concealed": (1, 2), "melds": (), "declared": None,
                                 "ever_ready": True, "xianggong": False, "void_suit": 2,
                                 "flowers": 1})  # fmt: skip
    assert made == SeatEnd((1, 2), (), None, True, False, 2, 1)
    assert hash(made) == hash(SeatEnd((1, 2), (), None, True, False, 2, 1))
    with pytest.raises(FrozenInstanceError):
        made.flowers = 3  # type: ignore[misc]


@pytest.mark.parametrize("variant", ["guiyang", "luan"])
def test_engine_round_end_holds_every_field(variant: str) -> None:
    """Every field is set on the instance (none read from a class default), in field order,
    and the object equals the one the dataclass's own constructor makes."""
    rs = load_variant(variant)
    agents = [make_agent("greedy", 10 + s) for s in range(rs.players)]
    for seed in range(3):
        r = Round(rs, seed=seed)
        play_round(r, agents)
        end = r.end
        assert end is not None
        assert list(vars(end)) == [f.name for f in fields(RoundEnd)]
        for s in end.seats:
            assert list(vars(s)) == [f.name for f in fields(SeatEnd)]
        assert end == _rebuilt(end)
        assert repr(end) == repr(_rebuilt(end))
