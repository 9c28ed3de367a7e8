"""What a client shows a player to help him read the table: his waits (听) with the copies of
each still unseen, the waits each discard would leave, and which tiles are chickens.

Everything here is computed from one seat's :class:`~zhuoji.observation.Observation`, so it
never uses what the seat may not see: another seat's concealed tiles, a concealed kong laid
face down (闷豆) before the round ends, or the wall.  The terminal (``zhuoji play``) and
the table server's views both call these functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from zhuoji import tiles as T
from zhuoji.actions import ActionKind
from zhuoji.observation import Observation
from zhuoji.outcome import MeldKind
from zhuoji.rules.chickens import ChickenParams, _flipped
from zhuoji.tiles import parse_one
from zhuoji.variant import Ruleset

Mark = Literal["chicken", "golden"]


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


def _chicken_params(ruleset: Ruleset) -> ChickenParams | None:
    return next((s.params for s in ruleset.stages if isinstance(s.params, ChickenParams)), None)


def chicken_marks(ruleset: Ruleset, reveals: Iterable[int], weekday: int = 1) -> dict[int, Mark]:
    """Tile kind → "chicken" or "golden" (金鸡), as the variant's ``settle.chickens`` stage
    values them (``zhuoji.rules.chickens``, seeds 000/001/004): its permanent chickens always,
    the chickens a revealed tile makes (翻鸡, by ``flip.mode``) once it is revealed, and the
    golden chickens of ``golden`` when their tile is revealed.  No chickens stage, no marks.

    FOR THE INTEGRATOR: the chickens branch adds ``chicken_marks`` to
    ``zhuoji.rules.chickens``; when it is on main, this function should call it (or go)."""
    p = _chicken_params(ruleset)
    if p is None:
        return {}
    marks: dict[int, Mark] = {parse_one(pc.tile): "chicken" for pc in p.permanent}
    for reveal in reveals:
        if p.flip.mode != "none":
            for k in _flipped(reveal, p.flip.mode, weekday):
                marks.setdefault(k, "chicken")
        for g in p.golden:
            if reveal == parse_one(g.flip):
                marks[parse_one(g.tile)] = "golden"
    return marks


def reveals_of(end: object) -> list[int]:
    """The tiles revealed for 翻鸡 at a round's end: ``RoundEnd.reveals`` where the round end
    has several, else its one ``reveal``."""
    many = getattr(end, "reveals", None)
    if many is not None:
        return [int(k) for k in many]
    one = getattr(end, "reveal", None)
    return [] if one is None else [int(one)]


def marks_text(marks: Mapping[int, Mark]) -> dict[str, Mark]:
    """The marks keyed by notation (``{"1s": "chicken"}``), for JSON."""
    return {T.text(k): v for k, v in sorted(marks.items())}
