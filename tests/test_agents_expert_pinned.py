"""The expert bot's choices, pinned: a speed-up of the bot, of its value model or of the
analysis under it must not change a single decision nor a ledger (issue 16, goal 4).

Four expert bots (seeded by seat) play the first rounds of a match (dealer rotation and
连庄 included) on every shipped variant: the paths of the value model, the search, 报听,
claims, kongs, wild tiles (luan), 定缺 and 换三张 are all on some table.  The hash covers each
round's action lists and its ledger.  The hashes were taken before the speed-up; print the
current ones with ``python tests/test_agents_expert_pinned.py`` and say why in the commit
when a change to the bot is meant to change play.
"""

from __future__ import annotations

import hashlib
import sys

import pytest
from pin_support import Recording

from zhuoji.agents.base import play_round
from zhuoji.match import Match
from zhuoji.variant_io import builtin_names, load_variant

ROUNDS = 3
SEED = 5

#: sha256 (first 16 hex digits) of the action lists and ledgers, taken before the speed-up
PINNED = {
    "anshun": "1da036974a92b7e7",
    "bijie": "59dace01537fda2c",
    "dushan": "ab0df2c344fd8a28",
    "duyun": "6c027fb4d7d1291a",
    "erdingguai": "1995f2413c0e5456",
    "guiyang": "d184a49724265189",
    "guiyang-dingque": "7dff105d3e242435",
    "guiyang-qq": "bd8dad8b0676d0f5",
    "guiyang-shoushang": "102c8cd93192b4ea",
    "guiyang-weile": "9542ce05a29fbf15",
    "jinsha": "86f42db6f4446bff",
    "jinyou": "07a9529ceb1d045a",
    "kaili": "f767f217b9bc9c36",
    "liupanshui": "de7c6a0db568dfaa",
    "luan": "1525cbd66926c81c",
    "qianxi": "0ac4251fc0530488",
    "sandingguai": "7dff105d3e242435",
    "tongren": "f5e82090ed025702",
    "zunyi": "0aab42f8fd83bfb3",
}


def actions_hash(variant: str, rounds: int = ROUNDS) -> str:
    ruleset = load_variant(variant)
    digest = hashlib.sha256()
    out: list[str] = []
    agents = [Recording("expert", s, out) for s in range(ruleset.players)]
    for r in Match(ruleset, seed=SEED, rounds=rounds).rounds():
        play_round(r, agents)
        assert r.ledger is not None
        digest.update("\n".join(out).encode())
        out.clear()
        digest.update(
            repr([(e.payer, e.payee, e.item, e.amount) for e in r.ledger.entries]).encode()
        )
        digest.update(b"\n--\n")
    return digest.hexdigest()[:16]


def test_every_shipped_variant_is_pinned() -> None:
    assert sorted(PINNED) == sorted(builtin_names())


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_expert_plays_the_pinned_actions(variant: str) -> None:
    assert actions_hash(variant) == PINNED[variant]


if __name__ == "__main__":  # print the current hashes (after a change meant to change play)
    for name in sys.argv[1:] or sorted(builtin_names()):
        print(f'    "{name}": "{actions_hash(name)}",')
