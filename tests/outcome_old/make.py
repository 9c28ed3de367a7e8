"""Writes ``records.json``: round ends (:class:`~zhuoji.outcome.RoundEnd` and its seats)
pickled by main's code at 18fbff0, before they became native classes (issue 29 item 4,
eleventh round), with their reprs; ``tests/test_outcome.py`` loads them.

Run from the repository root: ``python tests/outcome_old/make.py`` (not by the tests: the
pickles are old code's, kept as written)."""

from __future__ import annotations

import base64
import json
import pickle
from pathlib import Path
from typing import Any

from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.outcome import RoundEnd
from zhuoji.variant_io import load_variant

#: (variant, seed) of the rounds kept: a drawn round, a win with a reveal, and a
#: variant with void suits (定缺)
ROUNDS = (("guiyang", 0), ("guiyang", 1), ("guiyang-dingque", 2))


def round_ends() -> list[RoundEnd]:
    """The round ends of :data:`ROUNDS`, four greedy bots (the bench's seeds)."""
    out = []
    for variant, seed in ROUNDS:
        rs = load_variant(variant)
        agents = [make_agent("greedy", 10 + s) for s in range(rs.players)]
        r = Round(rs, seed=seed)
        play_round(r, agents)
        assert r.end is not None
        out.append(r.end)
    return out


def main() -> None:
    ends = round_ends()
    data: dict[str, Any] = {
        "pickles": {
            str(proto): base64.b64encode(pickle.dumps(ends, protocol=proto)).decode()
            for proto in range(2, pickle.HIGHEST_PROTOCOL + 1)
        },
        "repr": [repr(e) for e in ends],
        "reveal": [e.reveal for e in ends],
        "is_draw": [e.is_draw for e in ends],
        "void_tiles": [[s.void_tiles() for s in e.seats] for e in ends],
        "concealed_counts": [[s.concealed_counts() for s in e.seats] for e in ends],
    }
    path = Path(__file__).with_name("records.json")
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
