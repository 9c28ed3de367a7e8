"""The round-end objects settlement reads (:mod:`zhuoji.outcome`): :class:`RoundEnd` and
:class:`SeatEnd` are the ``outcome`` group's native classes (issue 29 item 4, eleventh round:
no ``__dict__``, not tracked by the collector, still frozen dataclasses to every reader, and
pickles made before load as they read then); the other frozen records are built with
:func:`~zhuoji.outcome.frozen_from` (without the frozen dataclass's field-by-field
``__init__``), which must make the object the constructor would."""

from __future__ import annotations

import base64
import copy
import dataclasses
import gc
import importlib.util
import json
import pickle
from dataclasses import FrozenInstanceError, fields
from pathlib import Path
from typing import Any

import pytest

from zhuoji import compiled
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.outcome import RoundEnd, SeatEnd, Win, WinHow, frozen_from
from zhuoji.variant_io import load_variant

OLD = Path(__file__).parent / "outcome_old"


def _rebuilt(end: RoundEnd) -> RoundEnd:
    seats = tuple(
        SeatEnd(**{f.name: getattr(s, f.name) for f in fields(SeatEnd)}) for s in end.seats
    )
    kw = {f.name: getattr(end, f.name) for f in fields(RoundEnd) if f.name != "seats"}
    return RoundEnd(seats=seats, **kw)


def test_frozen_from_equals_the_constructor() -> None:
    made = frozen_from(Win, {"seat": 2, "how": WinHow.DISCARD, "source": 1, "passed_win": True})
    assert made == Win(2, WinHow.DISCARD, 1, True)
    assert hash(made) == hash(Win(2, WinHow.DISCARD, 1, True))
    with pytest.raises(FrozenInstanceError):
        made.seat = 3  # type: ignore[misc]


def test_frozen_from_is_the_outcome_kernels_record_and_takes_the_dict() -> None:
    """``frozen_from`` is the ``outcome`` group's ``record`` (compiled when that group is: no
    Python frame a record, issue 29), and the dict it is given becomes the ``__dict__``."""
    from zhuoji import outcome_kernel

    assert frozen_from is outcome_kernel.record
    given: dict[str, object] = {"seat": 0, "how": WinHow.SELF_DRAW, "source": None,
                                "passed_win": False}  # fmt: skip
    made = frozen_from(Win, given)
    assert made.__dict__ is given
    assert type(made) is Win and made == Win(0, WinHow.SELF_DRAW)


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
    """The engine's round end equals (and reads as) the one the constructor makes from its
    fields by name; compiled, it and its seats hold no ``__dict__``."""
    rs = load_variant(variant)
    agents = [make_agent("greedy", 10 + s) for s in range(rs.players)]
    for seed in range(3):
        r = Round(rs, seed=seed)
        play_round(r, agents)
        end = r.end
        assert end is not None
        assert type(end) is RoundEnd and all(type(s) is SeatEnd for s in end.seats)
        assert end == _rebuilt(end) and hash(end) == hash(_rebuilt(end))
        assert repr(end) == repr(_rebuilt(end))


def _old() -> dict[str, Any]:
    """``tests/outcome_old/records.json``: round ends pickled by main's code at 18fbff0, when
    they were frozen dataclasses with a ``__dict__`` (``tests/outcome_old/make.py``)."""
    data: dict[str, Any] = json.loads((OLD / "records.json").read_text("utf-8"))
    return data


def _today() -> list[RoundEnd]:
    """The same rounds played by today's code."""
    spec = importlib.util.spec_from_file_location("outcome_old_make", OLD / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ends: list[RoundEnd] = module.round_ends()
    return ends


@pytest.mark.parametrize("proto", sorted(_old()["pickles"]))
def test_old_pickles_load_and_read_as_before(proto: str) -> None:
    old = _old()
    ends = pickle.loads(base64.b64decode(old["pickles"][proto]))
    assert [repr(e) for e in ends] == old["repr"]
    assert [e.reveal for e in ends] == old["reveal"]
    assert [e.is_draw for e in ends] == old["is_draw"]
    assert [[s.void_tiles() for s in e.seats] for e in ends] == old["void_tiles"]
    assert [[s.concealed_counts() for s in e.seats] for e in ends] == old["concealed_counts"]
    assert all(type(e) is RoundEnd and type(e.seats[0]) is SeatEnd for e in ends)
    # and they equal today's engine's round ends of the same rounds, field for field
    assert ends == _today()


def test_round_ends_pickle_copy_and_read_as_dataclasses() -> None:
    end = _today()[1]
    data = pickle.dumps(end)
    assert b"zhuoji.outcome" in data and b"outcome_kernel" not in data  # both builds' name
    assert pickle.loads(data) == end and copy.deepcopy(end) == end and copy.copy(end) == end
    assert dataclasses.is_dataclass(RoundEnd) and dataclasses.is_dataclass(SeatEnd)
    assert [f.name for f in fields(RoundEnd)][:4] == ["players", "dealer", "streak", "seats"]
    assert dataclasses.replace(end, streak=5).streak == 5 and end.streak != 5
    assert dataclasses.asdict(end)["seats"][0]["concealed"] == end.seats[0].concealed
    assert end.seat_wind(end.dealer) == 0 and not end.is_draw and end.reveal == 25
    with pytest.raises(FrozenInstanceError):
        end.streak = 1  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        end.seats[0].flowers = 1  # type: ignore[misc]


def test_compiled_round_ends_are_native_and_untracked() -> None:
    from zhuoji import outcome_kernel

    if not compiled.is_compiled(outcome_kernel):
        pytest.skip("the outcome group runs as Python")
    end = _today()[1]
    for x in (end, end.seats[0]):
        assert not hasattr(x, "__dict__")
        assert not gc.is_tracked(x)
