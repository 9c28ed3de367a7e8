"""The ledger's entries (zhuoji.contract.ledger): built by :meth:`Ledger.pay` without the frozen
dataclass's own ``__init__``, yet the same entries, as frozen, as a plain ``LedgerEntry(...)``;
and every entry of real rounds carries the structured facts behind its units (issue 24
item 2): its rule, tiles, counts and multipliers, parties."""

from __future__ import annotations

import dataclasses

import pytest

from zhuoji import tiles as T
from zhuoji.agents.base import make_agent, play_round
from zhuoji.contract.ledger import NO_FACT, Fact, Ledger, LedgerEntry, Remark, fact, with_fact
from zhuoji.engine import Round
from zhuoji.rules.catalog import hooks
from zhuoji.rules.hu import FACTOR_WORDS
from zhuoji.rules.registry import Point
from zhuoji.variant_io import builtin_names, load_variant


def test_paid_entry_is_the_plain_entry() -> None:
    ledger = Ledger(4, stake=5)
    f = fact(tiles=(T.parse_one("1s"),), count=3, each=1, kind="permanent")
    assert ledger.pay(1, 2, 3, "ji.yaoji", "", f, "chickens") == 0
    got = ledger.record[0]
    want = LedgerEntry(1, 2, 15, "ji.yaoji", 3, "chickens", f)
    assert got == want and hash(got) == hash(want) and repr(got) == repr(want)
    assert dataclasses.asdict(got) == dataclasses.asdict(want)
    assert dataclasses.replace(got, void="x") == dataclasses.replace(want, void="x")
    assert dataclasses.astuple(got)[:6] == (1, 2, 15, "ji.yaoji", 3, "chickens")
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.amount = 1  # type: ignore[misc]


def test_cheap_facts_are_the_plain_facts() -> None:
    """:func:`fact` stores only the given fields, yet equals, hashes and prints as ``Fact``."""
    f = fact(tiles=(25,), count=2, each=1, kind="flip", revealed=24)
    want = Fact(tiles=(25,), count=2, each=1, kind="flip", revealed=24)
    assert f == want and hash(f) == hash(want) and repr(f) == repr(want)
    assert f.as_dict() == {"tiles": ["8p"], "count": 2, "each": 1, "kind": "flip", "revealed": "7p"}
    g = with_fact(f, factors=(("self_draw", 2), ("dealer_wins", 2)))
    assert g.factor == 4 and f.factor == 1 and g.count == 2
    assert g.as_dict()["factors"] == [
        {"why": "self_draw", "times": 2},
        {"why": "dealer_wins", "times": 2},
    ]
    assert NO_FACT.as_dict() == {} and fact() == NO_FACT


def test_negative_units_pay_the_other_way_and_void_keeps_the_entry() -> None:
    ledger = Ledger(4)
    ledger.pay(0, 1, -2, "hu.pattern", "x")
    assert ledger.pay(2, 2, 4, "hu.pattern", "self") is None
    assert ledger.pay(0, 1, 0, "hu.pattern", "zero") is None
    (e,) = ledger.record
    assert (e.payer, e.payee, e.amount, e.units) == (1, 0, 2, 2)
    assert e.detail == "x"  # free text a hook gave (no words)
    assert ledger.void([0], "包牌") == [e]
    assert ledger.record[0] == dataclasses.replace(e, void="包牌")
    assert ledger.totals() == [0, 0, 0, 0] and ledger.as_dict()["entries"][0]["void"] == "包牌"
    reason = Remark("peng_sets", "liability", fact(kind="peng_sets", seat=2, tags=("instead",)))
    ledger.pay(0, 1, 1, "hu.pattern")
    ledger.void([1], by=reason)
    assert ledger.record[1].voided_by == reason and ledger.record[1].void == reason.text


def _rounds(variant: str, n: int) -> list[Round]:
    ruleset = load_variant(variant)
    out = []
    for seed in range(n):
        r = Round(ruleset, seed=seed)
        play_round(r, [make_agent("greedy", seed * 4 + s) for s in range(r.players)])
        out.append(r)
    return out


@pytest.mark.parametrize("variant", builtin_names())
def test_every_entry_names_its_rule_and_its_facts(variant: str) -> None:
    """Each entry of played rounds names the hook that paid it (a stage of the variant), and
    its fact accounts for its units: a win part's fan × its factors, a chicken's copies × its
    per-tile value, a pairwise net's difference, the tiles it is about."""
    settle_hooks = hooks(Point.SETTLE)
    for r in _rounds(variant, 8):
        assert r.ledger is not None
        stages = {b.hook.id for b in r.ruleset.stages}
        for e in r.ledger.record:
            f = e.fact
            assert e.rule in stages and settle_hooks[e.rule].words is not None, e
            assert f != NO_FACT, e
            if f.kind == "win":
                assert f.pattern is not None and f.fan is not None and f.seat == e.payee
                assert e.units == f.fan * f.factor and f.tiles == (r.end.win_tile,), e
                assert {w for w, _ in f.factors} <= set(FACTOR_WORDS)
                assert all(n > 1 for _, n in f.factors), e
            elif f.kind in ("permanent", "flip", "reveal", "golden", "weekday", "standing"):
                assert e.units == f.count * f.each and len(f.tiles) == 1, e  # type: ignore[operator]
            elif f.kind == "net":
                assert f.netted is not None and e.units == f.netted[0] - f.netted[1] > 0
            elif e.item.startswith("dou."):
                assert f.kind and f.kind.startswith("gang_") and f.fan == e.units
                assert f.seat in (e.payer, e.payee) and len(f.tiles) == 1
            elif e.item == "shabao":
                assert f.seat == e.payer and f.fan == e.units
            if f.for_seat is not None:
                assert f.for_seat not in (e.payer, e.payee)


def test_robbed_player_pays_for_the_others_by_field() -> None:
    """seed 000 16) 「被抢杠的玩家需要赔付三家的牌」: each entry the robbed player pays says
    whose share it is (``for_seat``); his own share has none."""
    from zhuoji.outcome import Meld, MeldKind, RoundEnd, SeatEnd, Win, WinHow
    from zhuoji.settle import settle

    peng = (Meld(MeldKind.GANG_ADDED, T.parse_one("4p"), 0),)
    seats = (
        SeatEnd(tuple(T.parse("123m456m789m23p55s"))),
        SeatEnd(tuple(T.parse("1112223335m")), melds=peng),
        SeatEnd(tuple(T.parse("1234567899m123s"))),
        SeatEnd(tuple(T.parse("1234567899m123s"))),
    )
    end = RoundEnd(
        4,
        dealer=2,
        streak=0,
        seats=seats,
        wins=(Win(0, WinHow.ROB_KONG, 1),),
        win_tile=T.parse_one("4p"),
    )
    ledger = settle(load_variant("guiyang"), end)
    wins = [e for e in ledger.record if e.fact.kind == "win"]
    assert wins and {e.payer for e in wins} == {1} and {e.payee for e in wins} == {0}
    assert {e.fact.for_seat for e in wins} == {None, 2, 3}
    own = [e for e in wins if e.fact.for_seat is None]
    assert own and all("for" not in e.as_dict()["fields"] for e in own)  # type: ignore[operator]


def test_every_golden_settlement_matches_the_output_schema() -> None:
    """``zhuoji settle --json``'s document (schemas/settlement.output.schema.json) with the new
    fields — rule, fields, voided_by, remarks — for every golden case."""
    import json

    import goldenlib  # tests/golden/goldenlib.py, on the path by conftest.py
    import jsonschema

    from zhuoji import roundend
    from zhuoji.report import settlement_json
    from zhuoji.schema import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / "settlement.output.schema.json").read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    seen: set[str] = set()
    for path in goldenlib.case_files(goldenlib.GOLDEN_DIR):
        case = goldenlib.load_case(path)
        variant = goldenlib.variant_files().get(path.parent.name)
        _, end, ledger = roundend.settle_file(
            roundend.parse(case.data), str(variant) if variant else None, list(case.overrides)
        )
        doc = json.loads(json.dumps(settlement_json(ledger, end), ensure_ascii=False))
        validator.validate(doc)
        for e in doc["entries"]:
            seen.update(e["fields"])
            if e["voided_by"]:
                seen.add("voided_by")
        seen.update(k for r in doc["remarks"] for k in r["fields"])
    assert {"tiles", "factors", "for_seat", "revealed", "netted", "mark", "voided_by"} <= seen


def _reference_tally(ledger: Ledger) -> tuple[list[int], dict[str, int], LedgerEntry | None]:
    """The sums as the ledger's Python loop made them before the kernel took them (issue 29)."""
    totals = [0] * ledger.players
    items: dict[str, int] = {}
    top: LedgerEntry | None = None
    for e in ledger.record:
        if e.void is None:
            totals[e.payer] -= e.amount
            totals[e.payee] += e.amount
            items[e.item] = items.get(e.item, 0) + e.amount
            if top is None or e.amount > top.amount:
                top = e
    return totals, items, top


def test_totals_and_tally_leave_void_entries_out_and_keep_the_first_largest() -> None:
    ledger = Ledger(3, stake=2)
    ledger.pay(0, 1, 4, "hu", "", NO_FACT, "hu")
    ledger.pay(2, 1, 4, "hu", "", NO_FACT, "hu")  # as large: the first stays the top
    ledger.pay(1, 2, 9, "dou", "", NO_FACT, "dou")  # voided below, the largest
    ledger.pay(1, 0, -3, "ji", "", NO_FACT, "chickens")  # paid the other way: 0 pays 1
    ledger.void([2], "liability")
    totals, items, top = ledger.tally()
    assert totals == ledger.totals() == [-8 - 6, 8 + 8 + 6, -8]
    assert (totals, items, top) == _reference_tally(ledger)
    assert items == {"hu": 16, "ji": 6}
    assert top is ledger.record[0]
    assert Ledger(4).tally() == ([0, 0, 0, 0], {}, None) and Ledger(4).totals() == [0, 0, 0, 0]


@pytest.mark.parametrize("variant", ["guiyang", "liupanshui", "luan"])
def test_totals_and_tally_of_played_rounds_are_the_reference_sums(variant: str) -> None:
    rs = load_variant(variant)
    agents = [make_agent("greedy", 10 + s) for s in range(rs.players)]
    for seed in range(12):
        ledger = play_round(Round(rs, seed=seed), agents).ledger
        assert ledger is not None
        want = _reference_tally(ledger)
        assert ledger.tally() == want and ledger.tally()[2] is want[2]
        assert ledger.totals() == want[0]
