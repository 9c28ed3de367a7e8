"""The questions several phases of a round ask of a seat's hand: its waits (kept between
turns), whether it may win on a tile, meld a tile, kong now, kong under 报听.

The deal, the turn and the claim window all ask these, so they live here, once.  What a win
needs is the variant's ``may_win`` hooks (:mod:`zhuoji.rules.win`, the 通行证 rule); the rest
reads the variant's sections directly: 定缺 (``dingque``: a hand holding its void suit waits
on nothing: :func:`zhuoji.rules.win.holds_void`), ``claims.last_tile_kong`` and 报听's
``allow_kong`` (:meth:`zhuoji.variant.BaotingSection.may_meld`, asked once a round).
"""

from __future__ import annotations

from zhuoji import tiles as T
from zhuoji.outcome import WinHow
from zhuoji.round_state import RoundState, SeatState
from zhuoji.rules.screen import pattern_fan
from zhuoji.rules.win import WinCheck, holds_void, void_suit_clear

NO_WAITS: frozenset[int] = frozenset()


# ----------------------------------------------------------------------------------
# waits
# ----------------------------------------------------------------------------------


def update_waits(r: RoundState, st: SeatState) -> None:
    """Waits of a hand between turns; claims on discards only test membership."""
    if st.shanten_floor >= 2:
        st.shanten_floor -= 1
        st.waits = NO_WAITS
        return
    st.shanten_floor = r.shanten_floor_of(st.hand)
    if st.shanten_floor <= 0:
        waits = r.rules.waits(st.hand)
        if st.void_suit >= 0 and waits:
            waits = void_waits(st, waits)
        st.waits = frozenset(waits)
        st.ever_ready = st.ever_ready or bool(st.waits)
    else:
        st.waits = NO_WAITS


def refresh_waits(r: RoundState) -> None:
    """Every seat's waits afresh (after the hands changed outside a turn: 换三张, 定缺)."""
    for st in r.seats:
        st.shanten_floor = 0
        update_waits(r, st)


def void_waits(st: SeatState, waits: list[int]) -> list[int]:
    """定缺: a hand holding its void suit cannot win (:func:`zhuoji.rules.win.holds_void`),
    so waits on nothing; nor can a wait of the void suit complete it (GA Table_GY_TWO; the FW
    server skips such waits)."""
    if holds_void(st.hand, st.melds, st.void_suit):
        return []
    return [w for w in waits if T.suit_of(w) != st.void_suit]


# ----------------------------------------------------------------------------------
# wins
# ----------------------------------------------------------------------------------


def win_check(r: RoundState, seat: int, tile: int, how: WinHow, source: int | None) -> WinCheck:
    """The candidate win the ``may_win`` hooks judge."""
    st = r.seats[seat]
    src = r.seats[source] if source is not None else None
    counts = list(st.hand)
    if how is not WinHow.SELF_DRAW:
        counts[tile] = counts[tile] + 1

    def base_fan() -> int:  # the table's value, read as the bots read it (rules.screen)
        return pattern_fan(
            r.ruleset, r.rules, counts, tuple(st.melds), tile, dealer=seat == r.dealer
        )

    repao = how is WinHow.DISCARD and r.discard_repao
    return WinCheck(
        seat=seat,
        tile=tile,
        how=how,
        has_kong=st.has_kong(),
        declared=st.declared is not None,
        source_declared=src is not None and src.declared is not None,
        repao=repao,
        base_fan=base_fan,
        counts=tuple(counts),
        melds=tuple(st.melds),
        void_suit=st.void_suit if st.void_suit >= 0 else None,
        first_turn=not st.discards and not st.melds,
    )


def may_win(r: RoundState, check: WinCheck) -> bool:
    if check.void_suit is not None and not void_suit_clear(check):
        return False  # 定缺: no win holding the void suit
    return all(h(check) for h in r.ruleset.may_win)


def can_win_on(r: RoundState, seat: int, tile: int, how: WinHow, source: int) -> bool:
    """Whether ``seat`` may win on another seat's tile (a discard, a kong to rob)."""
    st = r.seats[seat]
    if tile not in st.waits or st.lock_all or tile in st.lock_tiles:
        return False
    return may_win(r, win_check(r, seat, tile, how, source))


# ----------------------------------------------------------------------------------
# melds
# ----------------------------------------------------------------------------------


def can_kong_now(r: RoundState) -> bool:
    """A kong needs a replacement, unless the variant allows a kong on the last tile."""
    return r.wall.live() > 0 or r.ruleset.variant.claims.last_tile_kong


def declared_may_kong(r: RoundState, st: SeatState, k: int, tiles: int) -> bool:
    """报听 (``baoting.allow_kong``): a seat that declared may kong ``k`` (taking ``tiles``
    from its hand) only where the variant allows it, and only if its waits stay the same;
    a seat that did not declare, always."""
    if st.declared is None:
        return True
    return r.frozen_may_kong and _kong_keeps_waits(r, st, k, tiles)


def _kong_keeps_waits(r: RoundState, st: SeatState, k: int, tiles: int) -> bool:
    """A declared (frozen) hand may kong only if its waits stay the same."""
    before = list(st.hand)
    if st.drawn >= 0:
        before[st.drawn] = before[st.drawn] - 1
    after = list(st.hand)
    after[k] = after[k] - tiles
    return r.rules.waits(before) == r.rules.waits(after)
