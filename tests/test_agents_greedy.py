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
from pin_support import Recording

from zhuoji.actions import Action, ActionKind
from zhuoji.agents.analysis import TableView, analyzer
from zhuoji.agents.base import play_round
from zhuoji.agents.greedy import GreedyAgent
from zhuoji.engine import Round
from zhuoji.observation import Observation
from zhuoji.variant_io import load_variant

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


def actions_hash(variant: str) -> str:
    ruleset = load_variant(variant)
    digest = hashlib.sha256()
    for seed in range(ROUNDS):
        out: list[str] = []
        play_round(
            Round(ruleset, seed=seed), [Recording("greedy", s, out) for s in range(ruleset.players)]
        )
        digest.update("\n".join(out).encode())
        digest.update(b"\n--\n")
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_greedy_plays_the_pinned_actions(variant: str) -> None:
    assert actions_hash(variant) == PINNED[variant]


if __name__ == "__main__":  # print the current hashes (after a change meant to change play)
    for name in sys.argv[1:] or sorted(PINNED):
        print(f'    "{name}": "{actions_hash(name)}",')


def _kong_by_definition(view: TableView, action: Action) -> bool:
    """Kong when the exact shanten after it is no higher than after the best discard."""
    hand = list(view.hand)
    rules = view.rules
    before = min(
        rules.shanten([*hand[:d], hand[d] - 1, *hand[d + 1 :]]) for d in range(34) if hand[d]
    )
    hand[action.tile] -= 4 if action.kind is ActionKind.GANG_CONCEALED else 1
    return rules.shanten(hand) <= before


@pytest.mark.parametrize("variant", ["guiyang", "luan", "jinyou"])
def test_kong_decision_matches_its_definition(variant: str) -> None:
    """:meth:`GreedyAgent.wants_kong` works out exactly only the discards whose analyzer
    shanten (never above the exact one) could beat the kong: it answers as the definition,
    on every kong the bots are offered."""
    ruleset = load_variant(variant)
    checked = 0

    class Checking(GreedyAgent):
        def act(self, obs: Observation) -> Action:
            nonlocal checked
            if obs.phase == "turn":
                view = TableView(obs)
                for a in obs.legal:
                    if a.kind in (ActionKind.GANG_CONCEALED, ActionKind.GANG_ADDED):
                        want = _kong_by_definition(view, a)
                        assert self.wants_kong(view, a, 99) is want
                        checked += 1
            return super().act(obs)

    for seed in range(60):
        play_round(Round(ruleset, seed=seed), [Checking(s) for s in range(ruleset.players)])
    assert checked >= 3


@pytest.mark.parametrize("variant", ["guiyang", "luan", "jinyou"])
def test_analyzer_shanten_bounds_the_exact_one_from_below(variant: str) -> None:
    """What :meth:`GreedyAgent.wants_kong` relies on: with a four-of-a-kind the analyzer's
    shanten after a discard is never above ``HandRules.shanten``, and sometimes below it
    (so the exact one must still be worked out where the bound falls short)."""
    import random

    ruleset = load_variant(variant)
    rules = ruleset.hand_rules()
    an = analyzer(rules)
    rng = random.Random(5)
    below = 0
    for _ in range(1500):
        c = [0] * 34
        suit = 9 * rng.randrange(3)
        c[suit + rng.randrange(9)] = 4
        kinds = range(suit, suit + 9) if rng.random() < 0.7 else range(34)  # 清一色-like
        while sum(c) < 14:
            k = rng.choice(kinds)
            if c[k] < 4:
                c[k] += 1
        held = [d for d in range(34) if c[d]]
        bounds = an.discard_shanten(c, held)
        for d in held:
            c[d] -= 1
            exact = rules.shanten(c)
            c[d] += 1
            assert bounds[d] <= exact, (c, d)
            below += bounds[d] < exact
    assert below > 0
