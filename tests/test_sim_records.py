"""A round's record counts its actions as the engine does (issue 28: ``record_round``
counted them by formatting every logged action, half of ``zhuoji simulate``'s time with
random bots; it reads ``Round.actions`` now)."""

from __future__ import annotations

import dataclasses
import pickle

from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.sim.records import RoundRecord
from zhuoji.sim.runner import record_round
from zhuoji.variant_io import load_variant


def test_a_record_counts_every_action_of_its_round() -> None:
    rs = load_variant("guiyang")
    for seed in range(5):
        r = Round(rs, seed=seed)
        play_round(r, [make_agent("greedy", s) for s in range(4)])
        rec = record_round(r, rs, index=0, match=0, round_in_match=0)
        assert rec.actions == sum(1 for e in r.log if e["type"] == "action") > 0


def test_a_record_is_the_dataclass_its_fields_make() -> None:
    """``record_round`` builds the frozen record as its ``__dict__`` (``frozen_from``): it is
    equal to, hashes, replaces and pickles as the record the class's constructor makes,
    and stays frozen — the SQLite store and worker processes keep and send it."""
    rs = load_variant("liupanshui")
    for seed in range(4):
        r = Round(rs, seed=seed)
        play_round(r, [make_agent("greedy", s) for s in range(4)])
        rec = record_round(r, rs, index=seed, match=0, round_in_match=seed)
        made = RoundRecord(
            **{f.name: getattr(rec, f.name) for f in dataclasses.fields(RoundRecord)}
        )
        assert rec == made and hash(rec) == hash(made)
        assert list(rec.__dict__) == list(made.__dict__)
        assert pickle.dumps(rec) == pickle.dumps(made) and pickle.loads(pickle.dumps(rec)) == rec
        assert dataclasses.replace(rec, index=9) == dataclasses.replace(made, index=9)
        assert RoundRecord.from_row(rec.row()) == rec
        try:
            rec.index = 1  # type: ignore[misc]
        except dataclasses.FrozenInstanceError:
            pass
        else:
            raise AssertionError("a record built by record_round must stay frozen")


def test_deal_ins_are_counted_by_risk_context() -> None:
    """Seat 0 owns a kong and deals in with its first discard after it (热炮) to seat 2,
    undeclared: one deal-in after a kong, by a kong owner, none to a declared hand."""
    from zhuoji.outcome import Discard, Meld, MeldKind, RoundEnd, SeatEnd, Win, WinHow
    from zhuoji.sim.behaviour import round_behaviour, stat_specs

    end = RoundEnd(
        players=4,
        dealer=0,
        streak=0,
        seats=(
            SeatEnd((), (Meld(MeldKind.GANG_CONCEALED, 0),)),
            SeatEnd(()),
            SeatEnd(()),
            SeatEnd(()),
        ),
        discards=(
            Discard(0, 3),
            Discard(1, 4),
            Discard(2, 5),
            Discard(3, 6),
            Discard(0, 8, None, None, True),
        ),
        wins=(Win(2, WinHow.DISCARD, 0),),
        win_tile=8,
    )
    got = dict(round_behaviour(end, load_variant("jinyou")))
    assert got["dealins"] == 1
    assert got["dealins.after_kong"] == 1
    assert got["dealins.kong_owner"] == 1
    assert "dealins.declared" not in got
    keys = {spec[3] for spec in stat_specs(4)}
    assert {"beh.dealins.after_kong", "beh.dealins.kong_owner", "beh.dealins.declared"} <= keys
