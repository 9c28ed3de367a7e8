"""The expert bot's speed-ups answer exactly as the plain computations they replace (issue
16, goal 4): the remembered improving tiles (:mod:`zhuoji.agents.expert_memo`), the Markov
chain's tables (:func:`zhuoji.agents.expert_value._future`) and the context facts
(:func:`zhuoji.agents.expert_value.hand_context`), each against a straightforward reference
on random hands and inputs."""

from __future__ import annotations

import random
from functools import cache

import pytest

from zhuoji import tiles as T
from zhuoji.agents.analysis import HandAnalyzer
from zhuoji.agents.expert_memo import MemoAnalyzer
from zhuoji.agents.expert_value import (
    _MAX_T,
    DRAW_READY,
    DRAW_UNREADY,
    OTHER_READY,
    OTHER_UNREADY,
    READY_FIT,
    WIN_DISCARD,
    WIN_SELF,
    Profile,
    _future,
    hand_context,
    hazard_profile,
    pungs_target,
    typical_rates,
)
from zhuoji.outcome import Meld, MeldKind
from zhuoji.variant import load_variant


def _hand(rng: random.Random, n: int) -> list[int]:
    c = [0] * T.NUM_KINDS
    while sum(c) < n:
        k = rng.randrange(T.NUM_KINDS)
        if c[k] < 4:
            c[k] += 1
    return c


@pytest.mark.parametrize("variant", ["luan", "guiyang", "jinyou"])
def test_remembered_improving_tiles_answer_as_the_analysis(variant: str) -> None:
    """The same hand asked under other live counts (a kind gone, fewer copies) gets the
    analysis's own answer each time: the live counts are no part of what is kept."""
    ruleset = load_variant(variant)
    rng = random.Random(16)
    wild = 31 if variant == "luan" else None  # 六安: a drawn indicator makes one kind wild
    rules = ruleset.hand_rules(wild)
    plain, memo = HandAnalyzer(rules), MemoAnalyzer(rules)
    for _ in range(60):
        c = _hand(rng, 13)
        for _ in range(3):
            live = [max(0, 4 - c[k] - rng.choice((0, 0, 1, 2, 4))) for k in range(T.NUM_KINDS)]
            assert memo.ukeire(c, live) == plain.ukeire(c, live)
        kinds = sorted({k for k in range(T.NUM_KINDS) if c[k]} | {rng.randrange(T.NUM_KINDS)})
        c14 = list(c)
        c14[kinds[-1]] += 1
        if c14[kinds[-1]] <= 4:
            assert memo.options(c14, kinds, live) == plain.options(c14, kinds, live)


@cache
def _future_reference(
    cycles: int, d: int, t: int, prof: Profile, ws: float, wd: float, rates: tuple[float, ...]
) -> tuple[float, ...]:
    """The chain as a plain recursion (the model's own definition, see ``_future``)."""
    if cycles <= 0:
        out = [0.0] * 6
        out[DRAW_READY if d == 1 else DRAW_UNREADY] = 1.0
        return tuple(out)
    hazard = hazard_profile(*prof)[min(t, _MAX_T)]
    out = [0.0] * 6
    alive = 1.0
    if d == 1 and wd > 0:
        out[WIN_DISCARD] += wd
        alive -= wd
    out[OTHER_READY if d == 1 else OTHER_UNREADY] += alive * hazard
    alive *= 1.0 - hazard
    if d == 1:
        out[WIN_SELF] += alive * ws
        nxt = _future_reference(cycles - 1, 1, t + 1, prof, ws, wd, rates)
        stay = alive * (1.0 - ws)
        return tuple(o + stay * x for o, x in zip(out, nxt, strict=True))
    q = rates[min(d, len(rates) - 1)]
    up = _future_reference(cycles - 1, d - 1, t + 1, prof, ws, wd, rates)
    same = _future_reference(cycles - 1, d, t + 1, prof, ws, wd, rates)
    return tuple(o + alive * (q * a + (1.0 - q) * b) for o, a, b in zip(out, up, same, strict=True))


def test_chain_tables_equal_the_recursion_bit_for_bit() -> None:
    """Tables grown by later, larger questions on the same diagonal still answer exactly."""
    rng = random.Random(4)
    prof: Profile = (3, 0, 1, 120, 160, READY_FIT)
    for _ in range(300):
        rates = typical_rates(rng.choice(("standard", "pairs", "suit")), rng.choice((40, 80)))
        ws, wd = rng.choice((0.05, 0.1)), rng.choice((0.0, 0.03))
        cycles, d, t = rng.randrange(0, 25), rng.randrange(1, 9), rng.randrange(0, 45)
        assert _future(cycles, d, t, prof, ws, wd, rates) == _future_reference(
            cycles, d, t, prof, ws, wd, rates
        )


def _context_reference(
    c: list[int], melds: tuple[Meld, ...], wild: int | None, seat_wind: int
) -> dict[str, object]:
    kinds = [k for k in range(T.NUM_KINDS) if c[k] and k != wild]
    meld_tiles = [t for m in melds for t in m.tiles]
    every = set(kinds) | set(meld_tiles)
    pungs = [k for k in kinds if c[k] >= 3] + [m.tile for m in melds if m.kind is not MeldKind.CHI]
    return {
        "missing_suit": len({k // 9 for k in every if k < 27}) < 3,
        "no_terminals": not any(T.is_terminal_or_honor(k) for k in every),
        "kan": sum(1 for k in kinds if c[k] >= 3),
        "dragon_pungs": sum(1 for k in pungs if k >= 31),
        "seat_wind_pung": 27 + seat_wind in pungs,
        "round_wind_pung": 27 in pungs,
        "wilds": c[wild] if wild is not None else 0,
    }


def test_context_facts_match_their_definitions() -> None:
    rng = random.Random(9)
    meld_sets = [
        (),
        (Meld(MeldKind.PENG, 31, 1),),
        (Meld(MeldKind.CHI, 0, 3, 1), Meld(MeldKind.GANG_CONCEALED, 28)),
        (Meld(MeldKind.GANG_EXPOSED, 18, 2),),
    ]
    for _ in range(400):
        melds = rng.choice(meld_sets)
        c = _hand(rng, 13 - 3 * len(melds))
        wild = rng.choice((None, 4, 31))
        seat_wind = rng.randrange(4)
        got = dict(
            hand_context(
                c,
                melds,
                wild=wild,
                dealer=False,
                declared=False,
                seat_wind=seat_wind,
                round_wind=0,
            )
        )
        for fact, want in _context_reference(c, melds, wild, seat_wind).items():
            assert got[fact] == want, fact


def test_pungs_target_reads_the_most_held_kinds_from_counts() -> None:
    """The best ``sets + 1`` kinds for pungs, read from how many kinds are held how often,
    are the sorted hand's first ``sets + 1``."""
    rng = random.Random(5)
    for _ in range(3000):
        c = _hand(rng, rng.randrange(0, 15))
        live = [rng.randrange(5) for _ in range(T.NUM_KINDS)]
        sets = rng.randrange(0, 5)
        held = sorted(c, reverse=True)[: sets + 1]
        cost = sum(3 - min(x, 3) for x in held) - (1 if held[-1] <= 2 else 0)
        low = max(1, held[-1])
        uke = sum(n for x, n in zip(c, live, strict=True) if low <= x <= 2)
        assert pungs_target(c, sets, live) == (cost, uke)
