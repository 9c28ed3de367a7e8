"""The stake is the table's and the ledger's (issue 11, item 1).

Stages pay in units; the ledger alone multiplies by the table's stake (the variant's
top-level ``stake``, a per-table override).  So settling any round at stake ``k`` must give
exactly ``k`` × every entry at stake 1 — chickens, 包牌, 相公 and every other item alike.
Checked over every golden case and over rounds the engine plays under every shipped
variant (``builtin_names()``: a variant added later is covered without touching this file).
"""

from __future__ import annotations

import functools
from pathlib import Path

import goldenlib  # tests/golden/goldenlib.py, on the path by conftest.py
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zhuoji import roundend
from zhuoji.agents.base import play_round
from zhuoji.agents.greedy import GreedyAgent
from zhuoji.contract.ledger import Ledger
from zhuoji.engine import Round
from zhuoji.errors import VariantError
from zhuoji.outcome import RoundEnd
from zhuoji.ruleset import Ruleset
from zhuoji.settle import settle
from zhuoji.variant_io import builtin_names, load_variant

GOLDEN = Path(__file__).parent / "golden"

CASES = goldenlib.case_files(GOLDEN)
STAKES = st.integers(min_value=1, max_value=1_000_000)
FEW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _scaled(one: Ledger, k: int) -> list[tuple[int, int, int, int, str, str, str | None]]:
    return [(e.payer, e.payee, e.amount * k, e.units, e.item, e.detail, e.void) for e in one.record]


def _as_is(led: Ledger) -> list[tuple[int, int, int, int, str, str, str | None]]:
    return [(e.payer, e.payee, e.amount, e.units, e.item, e.detail, e.void) for e in led.record]


def _check(one: Ledger, at_k: Ledger, k: int) -> None:
    assert one.stake == 1 and at_k.stake == k
    assert _as_is(at_k) == _scaled(one, k)
    assert at_k.totals() == [t * k for t in one.totals()]
    assert (at_k.next_dealer, at_k.next_streak) == (one.next_dealer, one.next_streak)


@functools.cache
def _case(path: Path) -> tuple[Ruleset, RoundEnd, Ledger]:
    """A golden case's rules (with its overrides), round and ledger at stake 1."""
    case = goldenlib.load_case(path)
    f = roundend.parse(case.data, str(path))
    ruleset, end, one = roundend.settle_file(f, _variant_of(path), [*case.overrides, "stake=1"])
    return ruleset, end, one


def _variant_of(path: Path) -> str | None:
    """The test-only variant file a case runs under, if any (``goldenlib.variant_files``)."""
    variant = goldenlib.variant_files(path.parents[1]).get(path.parent.name)
    return str(variant) if variant is not None else None


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_golden_case_at_a_table_stake(path: Path) -> None:
    """Through the per-table override, as ``zhuoji settle --set stake=3`` does."""
    case = goldenlib.load_case(path)
    _, _, one = _case(path)
    f = roundend.parse(case.data, str(path))
    _, _, at_3 = roundend.settle_file(f, _variant_of(path), [*case.overrides, "stake=3"])
    _check(one, at_3, 3)


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
@FEW
@given(k=STAKES)
def test_golden_case_at_any_stake(path: Path, k: int) -> None:
    ruleset, end, one = _case(path)
    at_k = Ruleset(ruleset.variant.model_copy(update={"stake": k}), ruleset.origin)
    _check(one, settle(at_k, end), k)


@pytest.mark.parametrize("name", builtin_names())
def test_every_shipped_variant_has_golden_cases(name: str) -> None:
    """So the golden property above covers it (a new variant ships with its cases)."""
    assert any(p.parent.name == name for p in CASES), f"no golden case for {name}"


@pytest.mark.parametrize("name", builtin_names())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_played_rounds_settle_at_the_stake(name: str, seed: int) -> None:
    """The engine's own settlement uses the table's stake: the same round (same seed, same
    deterministic agents) at stake 7 pays 7 × what it pays at stake 1."""
    rounds = []
    for k in (1, 7):
        rs = load_variant(name, {"stake": k})
        players = rs.players
        rounds.append(play_round(Round(rs, seed=seed), [GreedyAgent(s) for s in range(players)]))
    one, seven = rounds
    assert one.ledger is not None and seven.ledger is not None
    assert one.log[1:-1] == seven.log[1:-1]  # the same play (the header and end differ)
    _check(one.ledger, seven.ledger, 7)
    # and settling the finished round again gives the same ledger
    assert seven.end is not None
    again = settle(load_variant(name, {"stake": 7}), seven.end)
    assert _as_is(again) == _as_is(seven.ledger)


def test_old_key_settle_hu_stake_still_sets_the_stake() -> None:
    """``--set settle.hu.stake=N`` (and old event logs carrying it) map to ``stake``."""
    assert load_variant("guiyang", ["settle.hu.stake=5"]).stake == 5
    assert load_variant("guiyang", {"settle": {"hu": {"stake": 4}}}).stake == 4
    with pytest.raises(VariantError) as err:
        load_variant("guiyang", ["settle.hu.stake=0"])
    assert err.value.problems == ["--set settle.hu.stake: stake: 0 is less than the minimum of 1"]
    with pytest.raises(VariantError) as err:
        load_variant("guiyang", {"settle": {"hu": {"stake": 2}}, "stake": 3})
    assert err.value.problems == [
        "--set settle.hu.stake: settle.hu.stake: the old spelling of stake, which --set stake "
        "gives too: write only stake"
    ]
