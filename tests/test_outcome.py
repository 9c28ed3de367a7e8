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


def test_frozen_from_is_the_outcome_kernels_record_and_takes_the_dict() -> None:
    """``frozen_from`` is the ``outcome`` group's ``record`` (compiled when that group is: no
    Python frame a record, issue 29), and the dict it is given becomes the ``__dict__``."""
    from zhuoji import outcome_kernel

    assert frozen_from is outcome_kernel.record
    given: dict[str, object] = {"concealed": (), "melds": (), "declared": None,
                                "ever_ready": False, "xianggong": False, "void_suit": None,
                                "flowers": 0}  # fmt: skip
    made = frozen_from(SeatEnd, given)
    assert made.__dict__ is given
    assert type(made) is SeatEnd and made == SeatEnd((), (), None, False, False, None, 0)


def test_the_outcome_kernel_imports_nothing_of_the_package() -> None:
    """It sits in the lowest layer beside ``outcome.py``, which imports it: an import of the
    package from it would climb (the seventh round's ``record`` in the ledger kernel did)."""
    import ast
    from pathlib import Path

    from zhuoji import outcome_kernel

    source = Path(outcome_kernel.__file__).with_suffix(".py")
    if not source.is_file():  # the compiled build: its source beside the package's
        source = Path(__file__).resolve().parent.parent / "zhuoji" / "outcome_kernel.py"
    imported = {
        n.module if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }
    assert not any(str(m).startswith("zhuoji") for m in imported)


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
