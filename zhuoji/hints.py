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
from zhuoji.ruleset import Ruleset

__all__ = [
    "Mark",
    "discard_waits",
    "marks_now",
    "marks_text",
    "seen_by_all",
    "unseen",
    "waits_left",
]


def unseen(obs: Observation, public: Sequence[int] | None = None) -> list[int]:
    """Per kind, the copies this seat has not seen: the set's four, less its own hand, every
    meld face up, every discard still lying in a pond and the revealed 宝牌 indicator.
    ``public``: :func:`seen_by_all` of this state, when the caller has it already (a server
    building every seat's view of one state computes it once)."""
    in_set = _IN_SET[obs.ruleset.variant.tiles.set]
    everyone = seen_by_all(obs) if public is None else public
    seen = [a + b for a, b in zip(everyone, obs.hand, strict=True)]
    if obs.phase != "end":  # one's own concealed kongs (face down to the others)
        for m in obs.melds(obs.seat):
            if m.kind is MeldKind.GANG_CONCEALED:
                for t in m.tiles:
                    seen[t] += 1
    # a server builds this for every waiting seat after every change: one pass, no calls
    return [
        T.COPIES - b if inside and b < T.COPIES else 0
        for b, inside in zip(seen, in_set, strict=True)
    ]


#: tile set → per kind, whether the set has it
_IN_SET = {
    ts: tuple(k in frozenset(T.kinds_in(ts)) for k in range(T.NUM_KINDS)) for ts in T.TileSet
}


def seen_by_all(obs: Observation) -> list[int]:
    """Per kind, the copies every seat has seen: melds face up (a concealed kong laid face
    down only once the round is over), discards still lying in a pond, the 宝牌 indicator.

    Read from the counts the engine keeps of the table as melds and discards change
    (:meth:`Observation.seen_counts` less the seat's own hand: every meld, and every
    discard not claimed), less the concealed kongs while they lie face down: a server
    builds this after every change, and walking every pond cost a tenth of a view."""
    hand = obs.hand
    seen = [t - h for t, h in zip(obs.seen_counts(), hand, strict=True)]
    if obs.phase != "end":
        for s in range(obs.players):
            for m in obs.melds(s):
                if m.kind is MeldKind.GANG_CONCEALED:  # laid face down: not known yet
                    for t in m.tiles:
                        seen[t] -= 1
    if obs.wild_indicator is not None:
        seen[obs.wild_indicator] += 1
    return seen


def _waits(
    ruleset: Ruleset, wild: int | None, hand: Sequence[int], notation: str | None = None
) -> tuple[int, ...]:
    """The hand's waits, remembered by hand: a server asks for every waiting seat's after
    every change, and a seat's hand stays the same over the other seats' turns.

    ``notation``: the hand's notation (:func:`zhuoji.tiles.format_counts`, which a seat's
    view holds already), a key that hashes and compares as one short string where the
    34 counts' tuple cost about 2.5 K instructions a lookup (docs/server.md, sixth pass).
    A notation names one count array, so either key finds the same waits."""
    rules = ruleset.hand_rules(wild)
    key = (id(rules), notation if notation is not None else tuple(hand))
    found = _WAITS.get(key)
    if found is not None and found[0] is rules:
        return found[1]
    waits = tuple(rules.waits(hand))
    if len(_WAITS) >= 8192:
        _WAITS.clear()
    _WAITS[key] = (rules, waits)
    return waits


#: (id of the hand rules, hand or its notation) → (those rules, the hand's waits); see
#: :func:`_waits`
_WAITS: dict[tuple[int, object], tuple[object, tuple[int, ...]]] = {}


def waits_left(
    obs: Observation, public: Sequence[int] | None = None, notation: str | None = None
) -> list[tuple[int, int]]:
    """(wait, unseen copies) of the seat's hand between its turns (13, 10 … tiles); empty
    when it is not ready or when it is the seat's turn (see :func:`discard_waits`).
    ``public`` as for :func:`unseen`; ``notation``: the hand's notation, when the caller
    has it (a seat's view does), as the key its waits are remembered by."""
    # the count first (compiled, no copy of the hand): most calls stop here
    if obs.concealed_count(obs.seat) % 3 != 1:
        return []
    hand = obs.hand
    waits = _waits(obs.ruleset, obs.wild, hand, notation)
    if not waits:
        return []
    # a server asks this of every waiting seat after every change: the copies left of the
    # waits alone, not of every kind
    counted = _CopiesLeft(obs, public)
    return [(w, counted.of(w)) for w in waits]


class _CopiesLeft:
    """The copies of a kind the seat has not seen, one kind at a time, as :func:`unseen`
    counts them (for the few waits a hint lists, rather than every kind)."""

    def __init__(self, obs: Observation, public: Sequence[int] | None) -> None:
        self.everyone = seen_by_all(obs) if public is None else public
        self.hand = obs.hand
        self.in_set = _IN_SET[obs.ruleset.variant.tiles.set]
        #: per kind, the tiles of the seat's own concealed kongs (face down to the others,
        #: so not in :func:`seen_by_all`), or None when it has none (or the round is over)
        self.own: list[int] | None = None
        if obs.phase != "end":
            for m in obs.melds(obs.seat):
                if m.kind is MeldKind.GANG_CONCEALED:
                    if self.own is None:
                        self.own = [0] * T.NUM_KINDS
                    for t in m.tiles:
                        self.own[t] += 1

    def of(self, kind: int) -> int:
        own = self.own
        seen = self.everyone[kind] + self.hand[kind] + (own[kind] if own is not None else 0)
        return T.COPIES - seen if self.in_set[kind] and seen < T.COPIES else 0


def discard_waits(
    obs: Observation, public: Sequence[int] | None = None
) -> dict[int, list[tuple[int, int]]]:
    """For each tile the seat may discard now, the (wait, unseen copies) the hand would be
    left with; discards that leave it not ready are not listed (听牌提示).  ``public`` as
    for :func:`unseen`."""
    if obs.concealed_count(obs.seat) % 3 != 2:
        return {}
    hand = list(obs.hand)
    rules = obs.ruleset.hand_rules(obs.wild)
    if rules.shanten(hand) > 0:
        # a discard leaving waits w would make the hand one tile (w) from a win: none does
        return {}
    candidates = sorted({a.tile for a in obs.legal if a.kind is ActionKind.DISCARD and a.tile >= 0})
    out: dict[int, list[tuple[int, int]]] = {}
    counted: _CopiesLeft | None = None
    for tile in candidates:
        hand[tile] -= 1
        waits = list(rules.waits(hand))
        hand[tile] += 1
        if waits:
            if counted is None:
                counted = _CopiesLeft(obs, public)
            out[tile] = [(w, counted.of(w)) for w in waits]
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
