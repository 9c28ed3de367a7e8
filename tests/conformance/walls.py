"""Stacked walls for scenario tests: chosen hands, then chosen draws."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from zhuoji import tiles as T
from zhuoji.ruleset import Ruleset


def stack(
    ruleset: Ruleset,
    hands: Sequence[str],
    draws: str = "",
    *,
    dealer: int = 0,
    tail: str = "",
    at: Mapping[int, str] | None = None,
) -> list[int]:
    """A wall in draw order that deals ``hands[s]`` to seat ``s`` and then draws ``draws``.

    The deal goes from the dealer round the table, thirteen tiles each, then the dealer's
    fourteenth: the dealer's hand has 14 tiles and its last one is dealt last (his "drawn"
    tile).  ``draws`` are the head draws in order.  ``tail`` fills the wall from its end
    (``tail[0]`` is the last tile: the first replacement draw where replacements come from
    the tail); ``at`` fixes absolute positions (六安 indicator and dice-counted replacements).
    Every other position gets the tiles left over, in kind order; the flowers a hand, the
    draws or the tail do not place (``tiles.flowers``, ``1f``) come first among them, right
    after the head draws (place them in ``tail`` or ``at`` to have them elsewhere).
    """
    n = ruleset.players
    size = ruleset.variant.tiles.hand_size
    full = T.wall(ruleset.variant.tiles.set, ruleset.variant.tiles.flowers)
    parsed = [T.parse(h) for h in hands]
    for s, h in enumerate(parsed):
        want = size + (1 if s == dealer else 0)
        if len(h) != want:
            raise ValueError(f"seat {s} is dealt {len(h)} tiles, not {want}")
    order: list[int] = []
    for i in range(n):
        s = (dealer + i) % n
        order += parsed[s][:size]
    order.append(parsed[dealer][size])
    order += T.parse(draws)
    fixed: dict[int, int] = {len(full) - 1 - i: t for i, t in enumerate(T.parse(tail))}
    for pos, tile in (at or {}).items():
        fixed[pos] = T.parse_one(tile)
    if min(fixed, default=len(full)) < len(order):
        raise ValueError("fixed positions overlap the deal and the head draws")
    left = Counter(full)
    left.subtract(Counter(order + list(fixed.values())))
    if any(c < 0 for c in left.values()):
        raise ValueError(f"more than four of {[T.format([k]) for k, c in left.items() if c < 0]}")
    filler = iter(sorted(left.elements(), key=lambda k: (k != T.FLOWER, k)))
    wall = list(order)
    for pos in range(len(order), len(full)):
        wall.append(fixed[pos] if pos in fixed else next(filler))
    return wall
