"""The greedy bot's choices, pinned: a speed-up of the bot or of its analysis must not change
a single decision (issue 15).

Four greedy bots (seeded by seat) play rounds seeded 0, 1, … of variants that cover every
path of :class:`zhuoji.agents.analysis.HandAnalyzer` and of the bot: the plain fast path
with seven pairs (guiyang), 十三幺 (jinyou), wild tiles and 十三烂 (luan), 定缺 with three
players, two players, and pattern tables the screen cannot read (jinsha, zunyi).  The hash of each
variant's action lists was taken before the speed-up; print the current ones with
``python tests/test_agents_greedy.py`` and say why in the commit when a change to the bot is
meant to change play.
"""

from __future__ import annotations

import hashlib
import sys

import pytest

from zhuoji.actions import Action
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.observation import Observation
from zhuoji.variant import load_variant

ROUNDS = 12

#: sha256 (first 16 hex digits) of the action lists, taken before the speed-up (issue 15)
PINNED = {
    "erdingguai": "3ee49b303ae431d2",
    "guiyang": "c42d94ce302c251f",
    "guiyang-dingque": "ca6fc3bf416171e2",
    "jinsha": "f327434cb75b5b6b",
    "jinyou": "1bb02090f088579e",
    "luan": "14ea5699c71552c6",
    "zunyi": "03318ef760a0c053",
}


class Recording:
    """A greedy bot that writes down every action it takes."""

    def __init__(self, seat: int, out: list[str]) -> None:
        self.agent = make_agent("greedy", 7 + seat)
        self.name = self.agent.name
        self.out = out

    def act(self, obs: Observation) -> Action:
        choice = self.agent.act(obs)
        self.out.append(f"{obs.seat}:{choice}")
        return choice


def actions_hash(variant: str) -> str:
    ruleset = load_variant(variant)
    digest = hashlib.sha256()
    for seed in range(ROUNDS):
        out: list[str] = []
        play_round(Round(ruleset, seed=seed), [Recording(s, out) for s in range(ruleset.players)])
        digest.update("\n".join(out).encode())
        digest.update(b"\n--\n")
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_greedy_plays_the_pinned_actions(variant: str) -> None:
    assert actions_hash(variant) == PINNED[variant]


if __name__ == "__main__":  # print the current hashes (after a change meant to change play)
    for name in sys.argv[1:] or sorted(PINNED):
        print(f'    "{name}": "{actions_hash(name)}",')
