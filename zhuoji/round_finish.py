"""The end of a round: what it leaves behind (:class:`~zhuoji.outcome.RoundEnd`), the
after-win reveal (翻鸡, ``deal.reveal``), the settlement of the variant, and the end event.

A round ends on a win (a self-draw, claims on a discard, a robbed kong) or drawn, when the
wall has no tile left to draw or to replace a kong with.  Settlement reads the
:class:`RoundEnd` only (:func:`zhuoji.settle.settle`), the same path ``zhuoji settle`` takes
for a round-end file.
"""

from __future__ import annotations

from typing import Any, Final

from zhuoji import tiles as T
from zhuoji.outcome import Reveal, RoundEnd, SeatEnd, Win, WinHow
from zhuoji.round_state import Phase, RoundState
from zhuoji.settle import settle

# a win's kinds as module constants: compiled, a member read off its class goes through the
# enum type's ``__getattr__`` (about 0.9 K instructions a read; issue 29)
_SELF_DRAW: Final = WinHow.SELF_DRAW
_ROB_KONG: Final = WinHow.ROB_KONG


def finish(r: RoundState, wins: list[Win], tile: int | None) -> None:
    """End the round with ``wins`` (none: drawn) on ``tile``: settle it and log the end."""
    r.phase = Phase.END
    r.pending = {}
    r.responses = {}
    reveal = _after_win_reveal(r) if wins else None
    tracker = r.reveal_tracker
    in_play = tracker.final() if tracker is not None else ()
    reveals = in_play + ((Reveal(reveal),) if reveal is not None else ())
    r.end = _round_end(r, wins, tile, reveals)
    ledger = r.ledger = settle(r.ruleset, r.end)
    # an enum's value as its ``_value_``: ``.value`` is a Python property (compiled or not)
    end_event: dict[str, Any] = {
        "type": "end",
        "wins": [{"seat": w.seat, "how": w.how._value_, "from": w.source} for w in wins],
        "tile": T.format([tile]) if tile is not None else None,
        "reveal": T.format([reveal]) if reveal is not None else None,
    }
    if tracker is not None:  # only then, so logs without these reveals still replay
        end_event["reveals"] = [
            {"tile": T.format([x.tile]), "at": x.at._value_, "status": x.status._value_}
            for x in in_play
        ]
    end_event["totals"] = ledger.totals()
    end_event["next_dealer"] = ledger.next_dealer
    end_event["next_streak"] = ledger.next_streak
    r.log_event(end_event)


def _after_win_reveal(r: RoundState) -> int | None:
    """翻鸡: the tile turned over after a win (seed 000 "翻开第一张未摸牌"), from the head or
    the tail of the wall as the variant says; None without one (or with the wall empty)."""
    where = r.ruleset.variant.deal.reveal
    # a flower names no chicken: the reveal passes over it (reading, docs/variants.md 补花)
    if where == "head":
        return r.wall.peek_head(T.FLOWER)
    if where == "tail":
        return r.wall.peek_tail(T.FLOWER)
    return None


def _tiles(counts: list[int]) -> list[int]:
    """:func:`zhuoji.tiles.to_tiles` of a seat's count array, natively (compiled with the
    engine: four calls a round, 12 K instructions each as a call into Python, issue 29)."""
    out: list[int] = []
    for k in range(len(counts)):
        n = counts[k]
        while n > 0:  # (``for _ in range(n)`` boxed its counter every copy)
            out.append(k)
            n -= 1
    return out


def _round_end(
    r: RoundState, wins: list[Win], tile: int | None, reveals: tuple[Reveal, ...]
) -> RoundEnd:
    """The facts settlement reads, as the round leaves them."""
    seats = []
    for s, st in enumerate(r.seats):
        concealed = _tiles(st.hand)
        if any(w.seat == s and w.how is _SELF_DRAW for w in wins) and tile is not None:
            concealed.remove(tile)
        void = st.void_suit if st.void_suit >= 0 else None
        # by position, in field order: a keyword call is matched by name (the records are
        # native classes of another group, issue 29)
        seats.append(
            SeatEnd(
                tuple(concealed),
                tuple(st.melds),
                st.declared,
                st.ever_ready,
                False,  # xianggong
                void,  # void_suit
                st.flowers,
            )
        )
    # readiness the engine already knows: waits kept since each seat's last discard; a
    # winner, and a seat whose kong was just robbed (hand changed since), are left open
    robbed = {w.source for w in wins if w.how is _ROB_KONG}
    known_ready = tuple(
        None if s in robbed or any(w.seat == s for w in wins) else bool(st.waits)
        for s, st in enumerate(r.seats)
    )
    f = r.flags
    # every field, by position in field order (as the seats above)
    return RoundEnd(
        r.players,
        r.dealer,
        r.streak,
        tuple(seats),
        tuple(r.discards),
        tuple(wins),
        tile,  # win_tile
        bool(wins) and f.get("gangkai", False),  # gangkai
        bool(wins) and f.get("repao", False),  # repao
        bool(wins) and f.get("haidi", False),  # haidi
        bool(wins) and f.get("tianhu", False),  # tianhu
        bool(wins) and f.get("dihu", False),  # dihu
        bool(wins) and f.get("renhu", False),  # renhu
        r.kong_tile  # kong_tile
        if (f.get("gangkai") or f.get("repao") or any(w.how is _ROB_KONG for w in wins))
        else None,
        reveals,
        r.wild,
        r.wild_indicator,
        r.round_wind,
        r.weekday,
        r.wall.live(),  # tiles_left
        (),  # notes
        known_ready,  # ready
    )
