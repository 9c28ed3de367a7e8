"""What a client shows a player to help him read the table: his waits (听) with the copies of
each still unseen, the waits each discard would leave, and which tiles are chickens.

Everything here is computed from one seat's :class:`~zhuoji.observation.Observation`, so it
never uses what the seat may not see: another seat's concealed tiles, a concealed kong laid
face down (闷豆) before the round ends, or the wall.  The terminal (``zhuoji play``) and
the table server's views both call these functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zhuoji import tiles as T
from zhuoji.actions import ActionKind
from zhuoji.observation import Observation
from zhuoji.outcome import MeldKind
from zhuoji.rules.chickens import chicken_marks
from zhuoji.rules.chickens.marks import Mark
from zhuoji.variant import Ruleset

__all__ = ["Mark", "discard_waits", "marks_now", "marks_text", "unseen", "waits_left"]


def unseen(obs: Observation) -> list[int]:
    """Per kind, the copies this seat has not seen: the set's four, less its own hand, every
    meld face up, every discard still lying in a pond and the revealed 宝牌 indicator."""
    in_set = set(T.kinds_in(obs.ruleset.variant.tiles.set))
    left = [T.COPIES if k in in_set else 0 for k in range(T.NUM_KINDS)]
    seen = list(obs.hand)
    for s in range(obs.players):
        for m in obs.melds(s):
            if m.kind is MeldKind.GANG_CONCEALED and s != obs.seat and obs.phase != "end":
                continue  # laid face down: its tile is not known
            for t in m.tiles:
                seen[t] += 1
    for _by, tile, claimed in obs.discards:
        if claimed is None:  # a claimed discard is counted in its meld
            seen[tile] += 1
    if obs.wild_indicator is not None:
        seen[obs.wild_indicator] += 1
    return [max(0, a - b) for a, b in zip(left, seen, strict=True)]


def _waits(ruleset: Ruleset, wild: int | None, hand: Sequence[int]) -> list[int]:
    return list(ruleset.hand_rules(wild).waits(hand))


def waits_left(obs: Observation) -> list[tuple[int, int]]:
    """(wait, unseen copies) of the seat's hand between its turns (13, 10 … tiles); empty
    when it is not ready or when it is the seat's turn (see :func:`discard_waits`)."""
    hand = list(obs.hand)
    if sum(hand) % 3 != 1:
        return []
    left = unseen(obs)
    return [(w, left[w]) for w in _waits(obs.ruleset, obs.wild, hand)]


def discard_waits(obs: Observation) -> dict[int, list[tuple[int, int]]]:
    """For each tile the seat may discard now, the (wait, unseen copies) the hand would be
    left with; discards that leave it not ready are not listed (听牌提示)."""
    hand = list(obs.hand)
    if sum(hand) % 3 != 2:
        return {}
    candidates = sorted({a.tile for a in obs.legal if a.kind is ActionKind.DISCARD and a.tile >= 0})
    left = unseen(obs)
    out: dict[int, list[tuple[int, int]]] = {}
    for tile in candidates:
        hand[tile] -= 1
        waits = _waits(obs.ruleset, obs.wild, hand)
        hand[tile] += 1
        if waits:
            out[tile] = [(w, left[w]) for w in waits]
    return out


# -------------------------------------------------------------------------------------------
# chickens
# -------------------------------------------------------------------------------------------


def marks_now(obs: Observation) -> dict[int, Mark]:
    """The chickens this seat knows of now: the variant's permanent ones and those the tiles
    revealed during play make (开局翻鸡, 前后鸡, 滚筒鸡); the after-win 翻鸡 once the round is
    over (:func:`zhuoji.rules.chickens.chicken_marks`)."""
    end = obs.round_end
    if end is not None:
        return chicken_marks(obs.ruleset, end.reveals, end.weekday)
    return chicken_marks(obs.ruleset, obs.reveals, obs.weekday)


def marks_text(marks: Mapping[int, Mark]) -> dict[str, Mark]:
    """The marks keyed by notation (``{"1s": "chicken"}``), for JSON."""
    return {T.text(k): v for k, v in sorted(marks.items())}
