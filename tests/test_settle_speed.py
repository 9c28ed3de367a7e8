"""Settlement made cheaper (issue 29, item 4) computes the same facts and ledgers.

:func:`zhuoji.rules.facts.hand_facts` reads each group's and meld's fields once instead of
building their tile tuples; here every fact it derives that way is worked out again the plain
way, from :attr:`Group.tiles` and :attr:`Meld.tiles`, on every realization settlement and the
通行证 check value in rounds of every shipped variant (wild tiles, melds, seven pairs,
十三烂 included).  The ledgers themselves are held by the pins, the golden cases and the
determinism fingerprints.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from zhuoji import tiles as T
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.hand import Decomposition, Form, GroupKind
from zhuoji.outcome import Meld, MeldKind
from zhuoji.rules import facts as F
from zhuoji.rules import patterns as P
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variant_io import load_variant

VARIANTS = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


def plain_facts(
    dec: Decomposition, melds: tuple[Meld, ...], waits: Sequence[int], held: Sequence[int]
) -> dict[str, object]:
    """The facts :func:`hand_facts` derives from the blocks and melds, read off their tiles."""
    real: list[int] = []
    wilds = 0
    for g in dec.groups:
        for i, t in enumerate(g.tiles):
            if g.wild >> i & 1:
                wilds += 1
            else:
                real.append(t)
    laid = [t for m in melds for t in m.tiles]
    suits = {T.suit_of(t) for t in real + laid}
    honors = T.suit_of(T.NUM_KINDS - 1) in suits
    suits.discard(T.suit_of(T.NUM_KINDS - 1))
    chows = sorted(g.first for g in dec.groups if g.kind is GroupKind.CHOW) + sorted(
        m.tile for m in melds if m.kind is MeldKind.CHI
    )
    pungs = [g.first for g in dec.groups if g.kind is GroupKind.PUNG and not g.wild]
    all_pungs = pungs + [m.tile for m in melds if m.kind is not MeldKind.CHI]
    straight = any(
        all(b + 3 * i in chows for i in range(3))
        for b in range(T.NUM_KINDS)
        if b % 9 == 0 and not T.is_honor(b)
    )
    wide = (
        len(waits) == 3
        and len({T.suit_of(w) for w in waits}) == 1
        and not T.is_honor(max(waits))
        and sorted(waits)[1] - min(waits) == 3 == max(waits) - sorted(waits)[1]
    )
    return {
        "all_pungs": dec.form is Form.STANDARD and not chows,
        "one_suit": len(suits) == 1 and not honors,
        "mixed_one_suit": len(suits) == 1 and honors,
        "missing_suit": len(suits) < 3,
        "concealed": all(not m.kind.claimed for m in melds),
        "wilds": wilds,
        "no_wild": wilds == 0,
        "kan": len(pungs),
        "twin_chows": sum(chows.count(c) // 2 for c in set(chows)),
        "full_straight": straight,
        "no_terminals": not any(held[k] for k in T.TERMINALS_AND_HONORS),
        "dragon_pungs": sum(1 for k in all_pungs if T.is_dragon(k)),
        "peng_sets": sum(1 for m in melds if m.kind not in (MeldKind.CHI, MeldKind.GANG_CONCEALED)),
        "concealed_kongs": sum(1 for m in melds if m.kind is MeldKind.GANG_CONCEALED),
        "exposed_kongs": sum(
            1 for m in melds if m.kind in (MeldKind.GANG_EXPOSED, MeldKind.GANG_ADDED)
        ),
        "wide_wait": wide,
    }


def _realizations(variant: str, rounds: int) -> Iterator[tuple[Any, ...]]:
    """Every ``hand_facts`` call settlement and the bots make in some rounds of ``variant``."""
    seen: list[tuple[Any, ...]] = []
    real = F.hand_facts

    def spy(*args: Any) -> dict[str, object]:
        seen.append(args)
        return real(*args)

    rs = load_variant(variant)
    setattr(P, "hand_facts", spy)  # what patterns.evaluate calls  # noqa: B010
    try:
        for kind in ("greedy", "random"):
            agents = [make_agent(kind, 10 + s) for s in range(rs.players)]
            for i in range(rounds):
                play_round(Round(rs, seed=i), agents)
    finally:
        setattr(P, "hand_facts", real)  # noqa: B010
    yield from seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_facts_read_off_the_fields_equal_the_facts_read_off_the_tiles(variant: str) -> None:
    checked = 0
    for dec, melds, win_tile, waits, ctx, held in _realizations(variant, 12):
        facts = F.hand_facts(dec, melds, win_tile, waits, ctx, held)
        plain = plain_facts(dec, melds, waits, held)
        assert {k: facts[k] for k in plain} == plain, (dec, melds, waits)
        checked += 1
    assert checked > 0  # every variant's rounds value some hand
