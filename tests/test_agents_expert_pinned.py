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
    "anshun": "35eb88c0ef8ba3f4",
    "bijie": "8402fb4a854198a4",
    "dushan": "c13bec8499a86016",
    "duyun": "3aa3881bf9cf6f69",
    "erdingguai": "54b157657481cc33",
    "guiyang": "39bc130e96851ed9",
    "guiyang-dingque": "294281e7cd696697",
    "guiyang-qq": "62f8f38f79a7fa85",
    "guiyang-shoushang": "ed370805afbe7434",
    "guiyang-weile": "90df9be7ea3e0b19",
    "jinsha": "25598887bdccd4ea",
    "jinyou": "192a416b62a71296",
    "kaili": "d9327e3367697570",
    "liupanshui": "9185265b969c10c1",
    "luan": "1525cbd66926c81c",
    "qianxi": "60bf984330abe2ab",  # revision 3: 补花, four flowers in the wall (issue 25)
    "sandingguai": "294281e7cd696697",
    "tongren": "3aa3881bf9cf6f69",
    "zunyi": "a4e78f79add0fb8b",
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
