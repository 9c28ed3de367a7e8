"""Writes ``records.json``: ledger records pickled and written as JSON by the code *before*
``Fact`` and ``LedgerEntry`` became native classes (issue 29, eighth round), which
``tests/test_ledger_old_forms.py`` loads with the code of today.

Made once, with main at 3407b23 (the last commit with the dataclass records)::

    /work/main/.venv/bin/python tests/ledger_old/make.py   # run from outside the worktree

Run again with today's code it would write today's forms, which is not what the test is for:
keep the file as made.
"""

from __future__ import annotations

import base64
import json
import pickle
import sys
from pathlib import Path

from zhuoji.agents.base import make_agent, play_round
from zhuoji.contract.ledger import Fact, Ledger, LedgerEntry, Remark, fact
from zhuoji.engine import Round
from zhuoji.variant_io import load_variant


def records() -> dict[str, object]:
    rs = load_variant("guiyang")
    ledgers = []
    for seed in range(6):  # rounds with wins, chickens, 冲锋鸡 and a draw among them
        r = Round(rs, seed=seed)
        play_round(r, [make_agent("greedy", 10 + s) for s in range(r.players)])
        assert r.ledger is not None
        ledgers.append(r.ledger)
    by_hand = Ledger(4, stake=2)
    by_hand.pay(0, 1, 3, "hu.pattern", "", fact(tiles=(3,), pattern="qing", fan=3), "hu")
    by_hand.pay(2, 1, 1, "ji.yaoji", "free text", fact(count=1, each=1), "chickens")
    why = Remark("liability", "baopai", fact(kind="peng_sets", seat=2, tags=("instead",)))
    by_hand.void([0], by=why)
    by_hand.remarks.append(why)
    ledgers.append(by_hand)
    singles = [
        fact(tiles=(25,), count=2, each=1, kind="flip", revealed=24),  # only the given fields
        Fact(tiles=(1, 2), factors=(("self_draw", 2),), netted=(3, 1), tags=("back",)),
        Fact(),
        LedgerEntry(1, 2, 15, "ji.yaoji", 3, "chickens", fact(count=3), "", "void", why),
        LedgerEntry(0, 3, 4, "hu.pattern", 4),
        why,
    ]
    out: dict[str, object] = {
        "made_with": sys.version.split()[0],
        "repr": [repr(x) for x in singles],
        "ledgers_json": [lg.as_dict() for lg in ledgers],
        "ledgers_repr": [repr(lg) for lg in ledgers],
    }
    pickles = {}
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        pickles[str(proto)] = base64.b64encode(pickle.dumps((singles, ledgers), proto)).decode()
    out["pickles"] = pickles
    return out


if __name__ == "__main__":
    path = Path(__file__).with_name("records.json")
    path.write_text(json.dumps(records(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
