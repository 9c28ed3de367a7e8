"""Conformance: many rounds of random legal actions under every shipped variant.

At every step an independent referee (``tests/conformance/reference.py``) checks that the
engine's legal actions for every seat are exactly the ones the rules allow (so every offered
action is legal, and every legal win, claim, kong and 报听 is offered), how claims and robs
resolve, that tiles are conserved and every round ends; each finished round must be
reproduced by its seed and actions (identical log) and by replaying its event log (same end,
same ledger), and its ledger must sum to zero.

Rounds per variant: 60 by default; more with ``ZHUOJI_CONFORMANCE_ROUNDS=5000`` or
``pytest tests/conformance tests/test_conformance.py --conformance-rounds=5000``.
"""

from __future__ import annotations

import json
import os
import random
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conformance.reference import FLOWER, KINDS_BY_SET, Referee

from zhuoji import eventlog
from zhuoji.actions import Action, ActionKind
from zhuoji.engine import Round
from zhuoji.hand import shanten
from zhuoji.ruleset import Ruleset
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variant_io import load_variant

VARIANTS = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
#: test-only variants (tests/variants/): mechanisms no shipped variant uses yet (定缺, 换三张)
TEST_VARIANTS = sorted(str(p) for p in (Path(__file__).parent / "variants").glob("*.yaml"))
DEFAULT_ROUNDS = 60
MAX_STEPS = 2000  # far more than any round takes (136 tiles, a few actions each)


@pytest.fixture(scope="module")
def rounds(request: pytest.FixtureRequest) -> int:
    given = request.config.getoption("conformance_rounds", default=None)
    if given is None:
        given = int(os.environ.get("ZHUOJI_CONFORMANCE_ROUNDS", DEFAULT_ROUNDS))
    return int(given)


class Player:
    """Random legal actions, with a per-seat taste for claims, kongs, wins and 报听 (so the
    rare rules get exercised) and for discards that keep the hand close to ready (so hands
    get ready at all)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.take = rng.choice([0.0, 0.3, 0.7, 1.0])
        self.smart = rng.choice([0.0, 0.7, 1.0])

    def choose(self, r: Round, legal: list[Action]) -> Action:
        rng = self.rng
        if legal[0].kind is ActionKind.QUE and rng.random() < self.smart:
            hand = r.observe(legal[0].seat).hand  # 定缺: the suit with the fewest tiles
            return min(legal, key=lambda a: sum(hand[9 * a.tile : 9 * a.tile + 9]))
        void = r.observe(legal[0].seat).void_suit(legal[0].seat)
        if void is not None and rng.random() < self.smart:  # shed the void suit first
            shed = [a for a in legal if a.kind is ActionKind.DISCARD and a.tile // 9 == void]
            legal = shed or legal
        special = [
            a for a in legal if a.kind not in (ActionKind.DISCARD, ActionKind.PASS) or a.declare
        ]
        if special and rng.random() < self.take:
            return rng.choice(special)
        plain = [a for a in legal if a.kind is ActionKind.DISCARD and not a.declare]
        if not plain:  # a claim window: pass (or, rarely, anything)
            passes = [a for a in legal if a.kind is ActionKind.PASS]
            return passes[0] if passes and rng.random() < 0.9 else rng.choice(legal)
        if rng.random() < self.smart:
            hand = list(r.observe(plain[0].seat).hand)
            scored = []
            for a in plain:  # plain-form shanten (wild tiles ignored): a cheap heuristic
                hand[a.tile] -= 1
                scored.append((shanten(hand), a))
                hand[a.tile] += 1
            best = min(s for s, _ in scored)
            return rng.choice([a for s, a in scored if s == best])
        return rng.choice(plain)


def ready_hand(
    rng: random.Random, kinds: list[int], pool: Counter[int], seven_pairs: bool
) -> list[int] | None:
    """Thirteen tiles one away from a random complete hand, taken from ``pool``; sometimes
    one suit only or pungs only (hands that pass the 通行证)."""
    if rng.random() < 0.3:
        suit = rng.randrange(3)
        kinds = [k for k in kinds if k // 9 == suit] or kinds
    pungs_only = rng.random() < 0.3
    need = Counter[int]()
    if seven_pairs and rng.random() < 0.25:
        for k in rng.sample(kinds, 7):
            need[k] += 2
    else:
        for _ in range(4):
            starts = [k for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kinds]
            if pungs_only or not starts or rng.random() < 0.4:
                need[rng.choice(kinds)] += 3
            else:
                first = rng.choice(starts)
                need.update((first, first + 1, first + 2))
        need[rng.choice(kinds)] += 2
    if any(pool[k] < n for k, n in need.items()):
        return None
    tiles = list(need.elements())
    tiles.remove(rng.choice(tiles))
    pool.subtract(Counter(tiles))
    return tiles


def rigged_wall(ruleset: Ruleset, rng: random.Random, dealer: int) -> list[int]:
    """A shuffled wall in which some seats are dealt ready hands, so that 报听, wins on
    discards, several winners, passes and pass locks, robbed kongs … happen often."""
    v = ruleset.variant
    n = v.tiles.players
    kinds = list(KINDS_BY_SET[v.tiles.set.value])
    pool = Counter({k: 4 for k in kinds})
    seven = any(f.value == "seven_pairs" for f in v.forms.allowed)
    hands = [ready_hand(rng, kinds, pool, seven) if rng.random() < 0.6 else None for _ in range(n)]
    rest = list(pool.elements()) + [FLOWER] * v.tiles.flowers  # flowers dealt and drawn too
    rng.shuffle(rest)
    deal: list[int] = []
    for i in range(n):
        seat = (dealer + i) % n
        hand = hands[seat] if hands[seat] is not None else [rest.pop() for _ in range(13)]
        assert hand is not None
        rng.shuffle(hand)
        deal += hand
    return deal + rest


def replay_events(text: str, validate: bool) -> list[dict[str, Any]]:
    """``eventlog.parse`` (schema-checked, slow), or the same events without the schema."""
    if validate:
        return eventlog.parse(text)
    return [dict(json.loads(line), _line=n) for n, line in enumerate(text.splitlines(), 1)]


def play_checked(ruleset: Ruleset, index: int) -> Counter[str]:
    """Play one refereed round; check determinism and replay; return what happened.

    Rounds come in three kinds: a seeded wall with the dealer chosen by the variant; a
    seeded wall with a given dealer and 连庄 streak; a rigged wall (ready hands dealt)."""
    seed = zlib.crc32(ruleset.name.encode()) % 100_000 * 100_000 + index
    rng = random.Random(seed)
    kwargs: dict[str, Any] = {}
    if index % 3 == 1:
        kwargs = {"dealer": rng.randrange(ruleset.players), "streak": rng.randrange(3)}
    elif index % 3 == 2:
        dealer = rng.randrange(ruleset.players)
        kwargs = {"dealer": dealer, "wall": rigged_wall(ruleset, rng, dealer)}
    r = Round(ruleset, seed=seed, **kwargs)
    ref = Referee(r)
    players = [Player(random.Random(rng.random())) for _ in range(ruleset.players)]
    actions: list[Action] = []
    while not r.is_terminal():
        assert len(actions) < MAX_STEPS, f"{ruleset.name} seed {index}: the round does not end"
        seat = rng.choice(r.to_act())  # claim answers come in any order
        action = players[seat].choose(r, r.legal_actions(seat))
        ref.step(action)
        actions.append(action)

    again = Round(ruleset, seed=seed, **kwargs)
    for a in actions:
        again.apply(a)
    assert again.log == r.log, f"{ruleset.name} seed {index}: same seed and actions, different log"

    # the schema check (jsonschema) and loading the variant by name are slow: every 20th
    # round; tests/test_eventlog.py checks logs of every variant against the schema too
    checked = index % 20 == 0
    events = replay_events(eventlog.dumps(r.log), validate=checked)
    # a log names its variant; a test-only file is not found by that name, so it is given
    by_name = checked and ruleset.name in VARIANTS
    replayed = eventlog.replay(events, None if by_name else ruleset)
    assert replayed.end == r.end, f"{ruleset.name} seed {index}: replay ends differently"
    assert replayed.ledger is not None and r.ledger is not None
    assert replayed.ledger.entries == r.ledger.entries, (
        f"{ruleset.name} seed {index}: replay settles differently"
    )
    assert (replayed.ledger.next_dealer, replayed.ledger.next_streak) == (
        r.ledger.next_dealer,
        r.ledger.next_streak,
    )
    assert replayed.log == r.log

    stats = ref.stats
    stats["rounds"] += 1
    stats["rigged"] += "wall" in kwargs
    stats["steps"] += len(actions)
    assert r.end is not None
    for seat_end in r.end.seats:
        for m in seat_end.melds:
            stats[f"meld.{m.kind.value}"] += 1
            stats["meld.late"] += m.late
    return stats


#: rule options no shipped variant takes, played by the referee too (fewer rounds)
OPTIONS = {
    "guiyang+options": (
        "guiyang",
        {
            "claims.rob_kong": ["added", "concealed"],
            "claims.last_tile_kong": True,
            "claims.pass_lock": "any_tile",
            "claims.multiple_winners": False,
            "baoting.allow_kong": True,
        },
    ),
    "jinyou+options": ("jinyou", {"claims.pass_lock": "any_tile", "claims.kongs.exposed": False}),
    "luan+strict": ("luan", {"forms.shisanlan": "strict"}),
    "guiyang+dingque": (
        "guiyang",
        {
            "dingque": {"meld_void": True, "discard_void_first": True},
            "may_win.pass.dou_kinds": ["concealed", "added"],
            "may_win.pass.first_turn": True,
        },
    ),
    # CITIES.md mechanism 10: table shapes no shipped variant has yet
    "guiyang+2p-72": ("guiyang", {"tiles.players": 2, "tiles.set": "two-suit"}),
    "guiyang+3p-112-dingque": (
        "guiyang",
        {"tiles.players": 3, "tiles.set": "suits+red", "dingque": {}, "exchange": {}},
    ),
    "dingque-3p+exchange4": (
        str(Path(__file__).parent / "variants" / "dingque-3p.yaml"),
        {"exchange": {"tiles": 4, "same_suit": False, "direction": "previous"}},
    ),
}


def check_coverage(ruleset: Ruleset, stats: Counter[str], rounds: int) -> None:
    """The random players must reach the rules under test, not only discard."""
    v = ruleset.variant
    assert stats["win.self_draw"] > 0, stats
    assert stats["claim.peng"] > 0, stats
    assert stats["gang_concealed"] + stats["gang_added"] > 0, stats
    if v.claims.kongs.exposed:
        assert stats["claim.gang"] > 0, stats
    if v.claims.win_on_discard:
        assert stats["win.discard.1"] > 0, stats
    if v.claims.chi:
        assert stats["claim.chi"] > 0, stats
    if v.baoting is not None:
        assert stats["declare.soft"] > 0, stats
        # a hard 报听 needs the dealer ready on his 14 tiles; after a random 换三张 that is rare
        assert stats["declare.hard"] > 0 or v.exchange is not None, stats
    if v.claims.pass_lock != "none":
        assert stats["pass_on_win"] > 0, stats
    # a rare event; several winners on one discard are rarer still (tests/test_scenarios.py)
    if rounds >= 1000 and v.claims.rob_kong:
        assert stats["window.rob"] > 0, stats
    if v.exchange is not None:
        assert stats["exchange.pick"] == stats["rounds"] * v.tiles.players * v.exchange.tiles
    if v.dingque is not None:
        assert stats["que"] == stats["rounds"] * v.tiles.players, stats
        for stage in ("huazhu", "dajiao"):
            if ruleset.stage(stage) is not None:
                assert stats[f"item.{stage}"] > 0, stats


@pytest.mark.parametrize("variant", VARIANTS + TEST_VARIANTS)
def test_random_rounds(variant: str, rounds: int) -> None:
    ruleset = load_variant(variant)
    stats: Counter[str] = Counter()
    for i in range(rounds):
        stats.update(play_checked(ruleset, i))
    assert stats["rounds"] == rounds
    if rounds >= DEFAULT_ROUNDS:
        check_coverage(ruleset, stats, rounds)


@pytest.mark.parametrize("config", sorted(OPTIONS))
def test_random_rounds_with_options(config: str, rounds: int) -> None:
    name, overrides = OPTIONS[config]
    ruleset = load_variant(name, overrides)
    count = max(1, rounds // 3)
    stats: Counter[str] = Counter()
    for i in range(count):
        stats.update(play_checked(ruleset, i))
    assert stats["rounds"] == count


def test_shipped_variants_are_all_covered() -> None:
    assert {"guiyang", "guiyang-shoushang", "guiyang-weile", "liupanshui", "luan", "jinyou"} <= set(
        VARIANTS
    )
