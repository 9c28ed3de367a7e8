"""A round's record counts its actions as the engine does (issue 28: ``record_round``
counted them by formatting every logged action, half of ``zhuoji simulate``'s time with
random bots; it reads ``Round.actions`` now)."""

from __future__ import annotations

from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.sim.runner import record_round
from zhuoji.variant_io import load_variant


def test_a_record_counts_every_action_of_its_round() -> None:
    rs = load_variant("guiyang")
    for seed in range(5):
        r = Round(rs, seed=seed)
        play_round(r, [make_agent("greedy", s) for s in range(4)])
        rec = record_round(r, rs, index=0, match=0, round_in_match=0)
        assert rec.actions == sum(1 for e in r.log if e["type"] == "action") > 0
