"""A seat's turn: it holds 14 − 3k tiles (after a draw, or after claiming a discard) and
discards, declares 报听 with its first discard, kongs, or wins on its own draw.

:func:`start_turn` lists the turn's legal actions; :func:`discard`, :func:`win_on_own_draw`
and :func:`declare_kong` apply them.  What follows a discard or a kong (the others' answers)
is the claim window's (:mod:`zhuoji.round_claims`), which ends by going on here: the next
draw (:func:`next_draw`), the claimer's turn, a kong's replacement (:func:`complete_kong`).

Sources: 报听 hard for the dealer on the initial hand, soft for a non-dealer after one draw
(seed 000 10), variant ``baoting``; a kong declared on a later turn than it first became
possible is 憨包 (seed 001 豆 4, seed 004 (6)(7)); 海底捞月, a self-draw of the last tile
(seed 002 八 "结果一张牌自摸"); 地和 in the first go-around (seed 002 "第一圈").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Final

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.events import DRAW, FLOWER
from zhuoji.outcome import Discard, Meld, MeldKind, RevealAt, Win, WinHow
from zhuoji.round_checks import (
    can_kong_now,
    declared_may_kong,
    may_win,
    update_waits,
    void_waits,
    win_check,
)
from zhuoji.round_finish import finish
from zhuoji.round_state import Phase, RoundState, SeatState
from zhuoji.rules.win import is_dihu, is_tianhu

#: a flower tile drawn (补花, ``tiles.flowers``): set aside and replaced
_FLOWER: Final = T.FLOWER

#: discard actions by seat and tile, built once
_DISCARDS: Final = [[make(s, ActionKind.DISCARD, k) for k in range(T.NUM_KINDS)] for s in range(4)]
_new_tuple = tuple.__new__

# ----------------------------------------------------------------------------------
# the draw, and the turn's legal actions
# ----------------------------------------------------------------------------------


def draw(r: RoundState, seat: int, *, replacement: bool = False) -> None:
    """``seat`` draws (a kong's replacement: from where the variant says) and its turn
    starts.  A flower drawn is set aside and replaced from where kongs are replaced (补花,
    ``tiles.flowers``); with no tile left to replace it, the round is drawn."""
    st = r.seats[seat]
    tile = replacement_tile(r) if replacement else r.wall.draw_head()
    if tile == _FLOWER:
        r.record((DRAW, seat, tile, replacement))
        while tile == _FLOWER:
            st.flowers += 1
            r.record((FLOWER, seat))
            if r.wall.live() == 0:
                finish(r, [], None)  # no tile left to replace the flower: the round is drawn
                return
            tile = replacement_tile(r)
            # the replacement's draw keeps the turn's flag: after a kong (杠开, 热炮) or not
            r.record((DRAW, seat, tile, replacement))
    else:
        r.record((DRAW, seat, tile, replacement))
    st.hand[tile] = st.hand[tile] + 1
    st.drawn = tile
    st.draws += 1
    st.passed_win = False
    if st.lock_tiles:
        st.lock_tiles.clear()
    st.lock_all = False
    r.current = seat
    r.after_kong = replacement
    start_turn(r, seat)


def next_draw(r: RoundState, after: int) -> None:
    """The seat after ``after`` draws; with no tile left, the round is drawn."""
    if r.wall.live() == 0:
        finish(r, [], None)
        return
    draw(r, (after + 1) % r.players)


def replacement_tile(r: RoundState) -> int:
    """A replacement draw (a kong's, a flower's) from where the variant says."""
    how = r.ruleset.variant.deal.replacement
    if how == "head":
        return r.wall.draw_head()
    if how == "tail_dice":
        a, b = r.roll()
        return r.wall.draw_at_from_end(a + b)
    return r.wall.draw_tail()


def start_turn(r: RoundState, seat: int) -> None:
    """Open ``seat``'s turn: its legal actions are the discards, then kongs and the win."""
    st = r.seats[seat]
    st.turns += 1
    r.phase = Phase.TURN
    if r.responses:
        r.responses = {}
    hand = st.hand
    tile = st.drawn
    extra: list[Action] = []
    # a plain draw completes the hand exactly when it is one of the waits kept since the
    # last discard; after a kong or on the dealer's first turn, it is checked afresh
    complete = tile >= 0 and (
        (tile in st.waits) if (st.draws and not r.after_kong) else r.rules.is_win(hand)
    )
    if complete and may_win(r, win_check(r, seat, tile, WinHow.SELF_DRAW, None)):
        extra.append(make(seat, ActionKind.HU, tile))
    if _holds_four(hand) or (st.pungs and any(map(hand.__getitem__, st.pungs))):
        _kong_options(r, seat, st, extra)
    # a frozen (declared) hand discards its draw
    frozen = st.declared is not None and tile >= 0
    discards: Sequence[Action] = (
        (make(seat, ActionKind.DISCARD, tile),) if frozen else _discards(r, seat)
    )
    # discards (kind 0) sort first; then kongs and the win, in kind order
    r.pending = {seat: (*discards, *sorted(extra)) if extra else tuple(discards)}


def _kong_options(r: RoundState, seat: int, st: SeatState, out: list[Action]) -> None:
    """Concealed and added kongs possible now; records when each first became possible
    (a kong declared on a later turn is 憨包, seed 001 豆 4, seed 004 (6)(7))."""
    hand = st.hand
    concealed = (
        [k for k in range(T.NUM_KINDS) if hand[k] == 4 and _may_conceal(r, st, k)]
        if r.may_concealed_kong
        else []
    )
    added = (
        [m.tile for m in st.melds if m.kind is MeldKind.PENG and hand[m.tile] >= 1]
        if r.may_added_kong
        else []
    )
    if not concealed and not added:
        return
    for k in concealed + added:
        st.kong_seen.setdefault(k, st.turns)
    if not can_kong_now(r):
        return
    for k in concealed:
        if declared_may_kong(r, st, k, 4):
            out.append(make(seat, ActionKind.GANG_CONCEALED, k))
    for k in added:
        if declared_may_kong(r, st, k, 1):
            out.append(make(seat, ActionKind.GANG_ADDED, k))


def _may_conceal(r: RoundState, st: SeatState, k: int) -> bool:
    """Whether ``st`` may make a concealed kong of ``k``: 定缺 (``SeatState.may_meld``) and
    the wild rule (never a concealed kong of the wild, :meth:`zhuoji.variant.WildSection.
    may_meld`)."""
    if not st.may_meld[k]:
        return False
    wild_rule = r.ruleset.variant.wild
    wild = r.wild
    if wild is None or wild_rule is None or k != wild:
        return True
    return wild_rule.may_meld(Meld(MeldKind.GANG_CONCEALED, k), wild)


def _discards(r: RoundState, seat: int) -> Sequence[Action]:
    """The discards: one a kind held (定缺 ``discard_void_first``: the void suit's while
    held; a wild only where the variant lets it go), and 报听 with a first discard that
    leaves the hand ready."""
    st = r.seats[seat]
    hand = st.hand
    void = 9 * st.void_suit if r.void_first and st.void_suit >= 0 else -1
    if void >= 0 and any(hand[void : void + 9]):  # 定缺 discard_void_first
        out = [a for a in compress(_DISCARDS[seat], hand) if void <= a.tile < void + 9]
    elif r.wild is None and st.discards:  # the common case: every kind held, nothing else
        return _held_kinds(_DISCARDS[seat], hand)
    else:
        out = list(compress(_DISCARDS[seat], hand))  # one action per kind held
    wild = r.wild
    if wild is not None and hand[wild]:
        rule = r.ruleset.variant.wild
        if rule is not None and not rule.may_discard(st.discards == 0):
            out = [a for a in out if a.tile != wild] or out  # only wilds left: one must go
    if st.discards == 0 and _may_declare(r, seat) and r.rules.shanten(hand) <= 0:
        b = r.ruleset.variant.baoting
        automatic = b is not None and b.automatic
        for k in [a.tile for a in out]:
            hand[k] = hand[k] - 1
            waits = r.rules.waits(hand)
            if st.void_suit >= 0 and waits:
                waits = void_waits(st, waits)  # 定缺: a hand that cannot win is not ready
            if waits:
                if automatic:  # 自动报叫 (DS §6): a ready first discard declares, no choice
                    out = [a for a in out if a.tile != k or a.declare]
                out.append(make(seat, ActionKind.DISCARD, k, True))
            hand[k] = hand[k] + 1
        out.sort()
    return out


def _may_declare(r: RoundState, seat: int) -> bool:
    """报听: the dealer on the initial hand (hard), a non-dealer after one draw (soft)."""
    b = r.ruleset.variant.baoting
    st = r.seats[seat]
    if b is None or st.declared is not None or st.discards or st.melds:
        return False
    dealer = seat == r.dealer
    return b.declaration(dealer) is not None and (dealer or st.draws == 1)


# ----------------------------------------------------------------------------------
# the turn's actions
# ----------------------------------------------------------------------------------


def discard(r: RoundState, seat: int, tile: int, declare: bool) -> None:
    """``seat`` discards ``tile`` (declaring 报听 with it when ``declare``); the others may
    answer it next (:func:`zhuoji.round_claims.offer_discard`)."""
    st = r.seats[seat]
    st.hand[tile] = st.hand[tile] - 1
    st.discards += 1
    # discarding the tile just drawn (no kong this turn) leaves the hand as it was at the
    # last discard: its waits and shanten floor still hold
    unchanged = tile == st.drawn and st.draws and not r.after_kong and not declare
    st.drawn = -1
    if declare:
        b = r.ruleset.variant.baoting
        assert b is not None  # 报听 is offered only where the variant has it
        st.declared = b.declaration(seat == r.dealer)
    if not unchanged:
        if st.shanten_floor >= 2:  # the common case of update_waits, inline
            st.shanten_floor -= 1
        else:
            update_waits(r, st)
    # tuple.__new__ builds the named tuple in C (Discard's own __new__ is Python code)
    r.discards.append(_new_tuple(Discard, (seat, tile, None, None, r.after_kong, declare)))
    r.table_seen[tile] = r.table_seen[tile] + 1
    # 热炮 needs a kong: this turn's, or one held (the common case, no kong, is decided
    # without calling the variant's rule)
    r.discard_repao = bool(st.kong_count or r.after_kong) and (
        r.ruleset.variant.repao.applies(st.melds, after_kong=r.after_kong, kong=r.kong_meld)
    )


def win_on_own_draw(r: RoundState, seat: int, tile: int) -> None:
    """自摸: ``seat`` wins on its draw, and the round ends."""
    st = r.seats[seat]
    r.flags["gangkai"] = r.after_kong
    # 海底捞月: a self-draw of the last tile (seed 002 八 "结果一张牌自摸")
    r.flags["haidi"] = r.wall.live() == 0 and not r.after_kong
    untouched = r.first_go_around and st.discards == 0
    dealer = seat == r.dealer
    r.flags["tianhu"] = is_tianhu(dealer=dealer, untouched=untouched, draws=st.draws)
    r.flags["dihu"] = is_dihu(dealer=dealer, untouched=untouched, draws=st.draws)
    finish(r, [Win(seat, WinHow.SELF_DRAW, None, False)], tile)


def declare_kong(r: RoundState, seat: int, kind: ActionKind, tile: int) -> MeldKind:
    """A concealed kong is laid down, an added kong's tile taken from the hand; the kong
    is complete once no one robs it (:func:`complete_kong`).  The kind of meld it makes."""
    st = r.seats[seat]
    r.first_go_around = False
    # a kong brings an extra draw, so the one-step shanten bound no longer holds
    st.shanten_floor = 0
    if kind is ActionKind.GANG_CONCEALED:
        late = st.kong_seen.get(tile, st.turns) < st.turns
        st.hand[tile] = st.hand[tile] - 4
        st.melds.append(Meld(MeldKind.GANG_CONCEALED, tile, None, None, late))
        r.table_seen[tile] = r.table_seen[tile] + 4
        st.kong_count += 1
        return MeldKind.GANG_CONCEALED
    st.hand[tile] = st.hand[tile] - 1
    return MeldKind.GANG_ADDED


def complete_kong(r: RoundState, seat: int, tile: int, kind: MeldKind) -> None:
    """The kong stands (no one robbed it): an added kong joins its pung, the reveals move
    (前后鸡, 滚筒鸡), and the seat draws its replacement (none left: the round is drawn)."""
    st = r.seats[seat]
    if kind is MeldKind.GANG_ADDED:
        i = next(i for i, m in enumerate(st.melds) if m.kind is MeldKind.PENG and m.tile == tile)
        late = st.kong_seen.get(tile, st.turns) < st.turns
        old = st.melds[i]
        st.melds[i] = Meld(MeldKind.GANG_ADDED, tile, old.source, None, late)
        r.table_seen[tile] = r.table_seen[tile] + 1
        st.kong_count += 1
        st.pungs.remove(tile)
    kong_made(r, next(m for m in st.melds if m.tile == tile and m.kind is kind))
    replace_kong(r, seat)


def kong_made(r: RoundState, meld: Meld) -> None:
    """A kong is complete: remember it (热炮, 杠上开花) and move the reveals (前后鸡 /
    滚筒鸡)."""
    r.kong_tile = meld.tile
    r.kong_meld = meld
    tracker = r.reveal_tracker
    if tracker is not None and tracker.moves_at_kong:
        r.log_reveal(RevealAt.KONG, tracker.on_kong())


def replace_kong(r: RoundState, seat: int) -> None:
    """The konger draws its replacement; with none left, the round is drawn."""
    if r.wall.live() == 0:
        finish(r, [], None)  # no replacement left: the round is drawn
        return
    draw(r, seat, replacement=True)


# ----------------------------------------------------------------------------------
# loops the compiled build runs natively
# ----------------------------------------------------------------------------------


def _holds_four(hand: list[int]) -> bool:
    """``4 in hand``, as a loop over machine integers in the compiled build (``in`` compares
    Python ints one by one)."""
    return any(n == 4 for n in hand)


def _held_kinds(row: list[Action], hand: list[int]) -> tuple[Action, ...]:
    """``tuple(compress(row, hand))``: the entry of ``row`` for each kind held, as a loop the
    compiled build runs natively."""
    return tuple([row[k] for k in range(len(hand)) if hand[k]])
