"""The claim and rob windows: the other seats answer a discard (win, kong, pung, chow or
pass) or a kong that may be robbed (win or pass), all at once, unseen by each other.

:func:`offer_discard` and :func:`offer_kong` list each seat's legal answers and open the
window (or, when no seat has one, go on at once); :func:`note_answer` applies an answer;
:func:`resolve_claims` and :func:`resolve_rob`, once every seat has answered, apply the
winning answer by priority: win > kong/pung > chow, several winners in turn order where the
variant allows (``claims.multiple_winners``), else the first after the discarder.

Rules applied here, from the variant's ``claims`` section: which claims there are (``peng``,
``chi``, ``kongs.exposed``, ``win_on_discard``, ``rob_kong``); 必胡 (``must_win``: after a 热炮
discard or on a robbable kong the win is the only answer); the pass lock 过水
(``pass_lock``).  Recorded for settlement: 包牌's passed win, 人和 (the dealer's first discard
won on in the first go-around).  A robbed concealed kong is void.
"""

from __future__ import annotations

from zhuoji.actions import Action, ActionKind, make
from zhuoji.outcome import Discard, Meld, MeldKind, Win, WinHow
from zhuoji.round_checks import can_kong_now, can_win_on, declared_may_kong
from zhuoji.round_finish import finish
from zhuoji.round_state import Phase, RoundState
from zhuoji.round_turn import complete_kong, kong_made, next_draw, replace_kong, start_turn
from zhuoji.rules.win import is_renhu

_new_tuple = tuple.__new__
_CLAIM_MELD = {
    ActionKind.CHI: MeldKind.CHI,
    ActionKind.PENG: MeldKind.PENG,
    ActionKind.GANG_EXPOSED: MeldKind.GANG_EXPOSED,
}

# ----------------------------------------------------------------------------------
# opening a window: the legal answers
# ----------------------------------------------------------------------------------


def offer_discard(r: RoundState, seat: int, tile: int) -> None:
    """The others may answer ``seat``'s discard of ``tile``: open the claim window, or, when
    no one may claim it, the next seat draws."""
    must_win = discard_must_be_won(r)
    r.claim_tile = tile
    options: dict[int, tuple[Action, ...]] = {}
    seats = r.seats
    chows_from = r.chows_from
    for o in r.others_of[seat]:
        other = seats[o]
        if other.hand[tile] < 2 and tile not in other.waits and chows_from[o] != seat:
            continue  # nothing to claim (the common case, decided cheaply)
        answers = answers_to(r, o, tile, seat, must_win)
        if answers is not None:
            options[o] = answers
    if options:
        r.phase = Phase.CLAIM
        r.pending = options
        r.responses = {}
    else:
        next_draw(r, seat)


def discard_must_be_won(r: RoundState) -> bool:
    """必胡 on this discard (a 热炮 discard where ``must_win`` names repao): a seat that may
    win on it has the win as its only answer."""
    return r.discard_repao and "repao" in r.must_win


def answers_to(
    r: RoundState, seat: int, tile: int, discarder: int, must_win: bool
) -> tuple[Action, ...] | None:
    """``seat``'s answers in the claim window on ``discarder``'s ``tile``: its claims and a
    pass, or the win alone under 必胡 (``must_win``); None when it has no claim."""
    acts = claims_on(r, seat, tile, discarder)
    if not acts:
        return None
    if must_win and acts[0].kind is ActionKind.HU:
        return (acts[0],)
    acts.append(make(seat, ActionKind.PASS))
    return tuple(acts)


def claims_on(r: RoundState, seat: int, tile: int, discarder: int) -> list[Action]:
    """``seat``'s claims on ``discarder``'s ``tile``: win, pung, exposed kong, chows."""
    st = r.seats[seat]
    hand = st.hand
    acts: list[Action] = []
    if r.wins_on_discard and can_win_on(r, seat, tile, WinHow.DISCARD, discarder):
        acts.append(make(seat, ActionKind.HU, tile))
    frozen = st.declared is not None
    # 宝牌 (WildSection.may_claim, asked once a round) and 定缺 (SeatState.may_meld)
    claimable = r.claimable_kinds[tile] and st.may_meld[tile]
    if claimable and hand[tile] >= 2 and r.may_peng and (not frozen or r.frozen_may_peng):
        acts.append(make(seat, ActionKind.PENG, tile))
    if (
        claimable
        and hand[tile] == 3
        and r.may_exposed_kong
        and can_kong_now(r)
        and declared_may_kong(r, st, tile, 3)
    ):
        acts.append(make(seat, ActionKind.GANG_EXPOSED, tile))
    if claimable and r.chows_from[seat] == discarder and (not frozen or r.frozen_may_chow):
        acts += _chows(r, seat, tile, discarder)
    return acts


def _chows(r: RoundState, seat: int, tile: int, discarder: int) -> list[Action]:
    """``seat``'s chows of ``discarder``'s suit ``tile``: every run holding it whose other two
    tiles the hand holds (the wild only as the variant lets a chow hold it,
    :meth:`zhuoji.variant.WildSection.may_meld`)."""
    if tile >= 27:
        return []
    hand = r.seats[seat].hand
    out = []
    rank = tile % 9
    for first in (tile - 2, tile - 1, tile):
        fr = first - (tile - rank)
        if fr < 0 or fr > 6:
            continue
        if not all(hand[t] for t in (first, first + 1, first + 2) if t != tile):
            continue
        if r.wild is not None and not _chow_may_hold_wild(r, first, discarder, tile):
            continue
        out.append(make(seat, ActionKind.CHI, first))
    return out


def _chow_may_hold_wild(r: RoundState, first: int, discarder: int, tile: int) -> bool:
    """Whether the chow from ``first`` taking ``tile`` may hold the round's wild where it
    does (:meth:`zhuoji.variant.WildSection.may_meld`)."""
    rule = r.ruleset.variant.wild
    wild = r.wild
    if rule is None or wild is None:
        return True
    return rule.may_meld(Meld(MeldKind.CHI, first, discarder, tile), wild)


def offer_kong(r: RoundState, seat: int, tile: int, kind: MeldKind) -> None:
    """The others may rob ``seat``'s kong of ``tile`` where the variant lets this kind be
    robbed (``claims.rob_kong``): open the rob window, or complete the kong."""
    if kind in r.robbable:
        options: dict[int, tuple[Action, ...]] = {}
        must_win = "rob_kong" in r.must_win  # 必胡: the win is the only answer
        for o in r.others_of[seat]:
            if can_win_on(r, o, tile, WinHow.ROB_KONG, seat):
                hu = make(o, ActionKind.HU, tile)
                options[o] = (hu,) if must_win else (hu, make(o, ActionKind.PASS))
        if options:
            r.phase = Phase.ROB
            r.pending = options
            r.responses = {}
            r.claim_tile = tile
            r.rob_seat = seat
            r.rob_kind = kind
            return
    complete_kong(r, seat, tile, kind)


# ----------------------------------------------------------------------------------
# answers
# ----------------------------------------------------------------------------------


def note_answer(r: RoundState, action: Action) -> None:
    """Passing a possible win: 包牌 fact and the pass lock (过水)."""
    had_win = any(a.kind is ActionKind.HU for a in r.pending[action.seat])
    if had_win and action.kind is not ActionKind.HU:
        st = r.seats[action.seat]
        st.passed_win = True
        lock = r.ruleset.variant.claims.pass_lock
        if lock == "same_tile":
            st.lock_tiles.add(r.claim_tile)
        elif lock == "any_tile":
            st.lock_all = True


def _winners_in_order(r: RoundState, source: int, seats: list[int]) -> list[int]:
    chosen = [s for s in r.others_of[source] if s in seats]
    if not r.ruleset.variant.claims.multiple_winners:
        chosen = chosen[:1]
    return chosen


def resolve_claims(r: RoundState) -> None:
    """Every seat answered the discard: the win(s), else a kong or pung, else a chow, else
    the next seat draws."""
    d = r.discards[-1]
    tile = d.tile
    by_kind: dict[ActionKind, list[Action]] = {}
    for a in r.responses.values():
        by_kind.setdefault(a.kind, []).append(a)
    if ActionKind.HU in by_kind:
        seats = _winners_in_order(r, d.seat, [a.seat for a in by_kind[ActionKind.HU]])
        r.flags["repao"] = r.discard_repao
        r.flags["renhu"] = is_renhu(
            from_dealer=d.seat == r.dealer,
            first_discard=len(r.discards) == 1,
            first_go_around=r.first_go_around,
        )
        wins = [Win(s, WinHow.DISCARD, d.seat, r.seats[s].passed_win) for s in seats]
        r.discards[-1] = _new_tuple(  # d._replace in C
            Discard, (d.seat, d.tile, seats[0], d.claim, d.after_kong, d.declared)
        )
        r.table_seen[tile] = r.table_seen[tile] - 1  # won on: no longer on the table
        finish(r, wins, tile)
        return
    for kind in (ActionKind.GANG_EXPOSED, ActionKind.PENG, ActionKind.CHI):
        if kind in by_kind:
            _claim(r, by_kind[kind][0], d)
            return
    next_draw(r, d.seat)


def _claim(r: RoundState, a: Action, d: Discard) -> None:
    """``a`` takes discard ``d`` into a meld: a chow or pung opens the claimer's turn (no
    draw), an exposed kong its replacement draw."""
    st = r.seats[a.seat]
    r.first_go_around = False
    st.lock_tiles.clear()
    st.lock_all = False
    kind = _CLAIM_MELD[a.kind]
    r.discards[-1] = _new_tuple(  # d._replace in C
        Discard, (d.seat, d.tile, a.seat, kind, d.after_kong, d.declared)
    )
    seen = r.table_seen  # the discard itself is already counted: now in the meld
    if a.kind is ActionKind.CHI:
        for t in (a.tile, a.tile + 1, a.tile + 2):
            if t != d.tile:
                st.hand[t] = st.hand[t] - 1
                seen[t] = seen[t] + 1
        st.melds.append(Meld(MeldKind.CHI, a.tile, d.seat, d.tile))
    elif a.kind is ActionKind.PENG:
        st.hand[d.tile] = st.hand[d.tile] - 2
        seen[d.tile] = seen[d.tile] + 2
        st.melds.append(Meld(MeldKind.PENG, d.tile, d.seat))
        st.pungs.append(d.tile)
    else:
        st.hand[d.tile] = st.hand[d.tile] - 3
        seen[d.tile] = seen[d.tile] + 3
        st.melds.append(Meld(MeldKind.GANG_EXPOSED, d.tile, d.seat))
        st.kong_count += 1
        st.shanten_floor = 0  # the replacement is an extra draw this turn
        kong_made(r, st.melds[-1])
        replace_kong(r, a.seat)  # a kong on the last discard: no replacement, drawn
        return
    r.current = a.seat
    st.drawn = -1
    r.after_kong = False
    start_turn(r, a.seat)


def resolve_rob(r: RoundState) -> None:
    """Every seat answered the kong: robbed (the robbers win), or the kong stands."""
    robbers = [s for s, a in r.responses.items() if a.kind is ActionKind.HU]
    tile = r.claim_tile
    if robbers:
        if r.rob_kind is MeldKind.GANG_CONCEALED:
            # a robbed concealed kong is void: its meld was laid down before the rob
            # window, so its other three tiles go back to the konger's hand
            st = r.seats[r.rob_seat]
            st.melds.pop()
            st.hand[tile] = st.hand[tile] + 3
            r.table_seen[tile] = r.table_seen[tile] - 4
        seats = _winners_in_order(r, r.rob_seat, robbers)
        r.kong_tile = tile
        wins = [Win(s, WinHow.ROB_KONG, r.rob_seat, False) for s in seats]
        finish(r, wins, tile)
        return
    complete_kong(r, r.rob_seat, tile, r.rob_kind)
