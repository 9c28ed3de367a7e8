"""The search bot's worlds: a round copied, and its hidden parts dealt afresh from what one
seat has seen (``docs/agents.md``, the ``search`` bot).

:func:`clone_round` copies a round's state into a new :class:`~zhuoji.engine.Round`, which
then plays on independently; it works on the pure and the compiled engine alike (a mypyc
class cannot be deep-copied) and shares only what never changes during play (the ruleset,
the hand analyser, melds, discards and actions, which are immutable).
:func:`sample_hidden` deals the tiles a seat has not seen; :func:`determinized` is a clone
with them in place of the real ones (in a claim window, the other seats' options asked
again of their sampled hands).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any

from zhuoji.actions import Action
from zhuoji.agents.analysis import TableView, analyzer
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.events import EventLog
from zhuoji.observation import Observation
from zhuoji.reveals import RevealTracker
from zhuoji.round_checks import update_waits
from zhuoji.round_claims import answers_to, discard_must_be_won
from zhuoji.round_state import Phase, RoundState, SeatState
from zhuoji.tiles import NUM_KINDS
from zhuoji.wall import Wall

#: a round's attributes, all of them (``tests/test_agents_search.py`` checks the list
#: against a pure-Python round's): copied shallowly when a list, dict or set, else shared;
#: the seats, the wall, the reveals and the log are rebuilt by :func:`clone_round`
ROUND_FIELDS = (
    "ruleset", "players", "rng", "log", "record", "actions", "answers", "seed", "dice_queue",
    "dice_rolled", "streak", "round_wind", "weekday", "seats", "others_of", "phase",
    "current", "discards", "table_seen", "after_kong", "kong_tile", "kong_meld",
    "discard_repao", "first_go_around", "pending", "responses", "claim_tile", "rob_seat",
    "rob_kind", "flags", "end", "ledger", "exchange_direction", "void_first", "must_win",
    "wins_on_discard", "may_peng", "may_exposed_kong", "may_concealed_kong",
    "may_added_kong", "robbable", "chows_from", "frozen_may_peng", "frozen_may_kong",
    "frozen_may_chow", "start_phases", "view_cache", "ponds_shown", "dealer", "wall",
    "wild_indicator", "wild", "claimable_kinds", "rules", "shanten_floor_of",
    "reveal_tracker",
)  # fmt: skip
_REBUILT = frozenset({"seats", "wall", "reveal_tracker", "log", "record", "rng", "view_cache",
                      "ponds_shown"})  # fmt: skip
_SEAT_FIELDS = tuple(f.name for f in fields(SeatState))
_MUTABLE = (list, dict, set)


def _copy(v: Any) -> Any:
    return v.copy() if isinstance(v, _MUTABLE) else v


def _clone_wall(w: Wall) -> Wall:
    out = Wall(w.tiles)
    out.taken = w.taken.copy()
    out.head, out.tail, out.stop, out._left = w.head, w.tail, w.stop, w._left
    return out


def clone_round(r: RoundState) -> Round:
    """An independent copy of a round in play (a fresh log: the copy's own actions only)."""
    if r.end is not None:
        raise ZhuojiError("search agent: cannot copy a round that is over")
    out = Round(
        r.ruleset,
        seed=0,  # a wall shuffled from a fixed seed: every part of it is replaced below
        dealer=r.dealer,
        streak=r.streak,
        round_wind=r.round_wind,
        weekday=r.weekday,
    )
    for name in ROUND_FIELDS:
        if name not in _REBUILT:
            setattr(out, name, _copy(getattr(r, name)))
    seats = []
    for st in r.seats:
        c = SeatState()
        for name in _SEAT_FIELDS:
            setattr(c, name, _copy(getattr(st, name)))
        seats.append(c)
    out.seats = seats
    out.wall = wall = _clone_wall(r.wall)
    tracker = r.reveal_tracker
    if tracker is not None:
        t = RevealTracker(tracker._rule, wall)
        t._shown = [type(s)(s.position, s.tile, s.at, s.status) for s in tracker._shown]
        t._cursor = tracker._cursor
        out.reveal_tracker = t
    else:
        out.reveal_tracker = None
    out.log = log = EventLog()
    out.record = log.recorder()
    out.rng = rng = random.Random()
    rng.setstate(r.rng.getstate())  # future dice (六安 补牌); determinized() replaces it
    out.view_cache = None
    out.ponds_shown = ([], [])
    return out


def _fixed_positions(r: RoundState) -> dict[int, int]:
    """Undrawn wall positions whose tile is public: the 宝牌 indicator and the revealed
    chicken tiles still in the wall (position → tile)."""
    wall = r.wall
    out: dict[int, int] = {}
    if wall.stop is not None and not wall.taken[wall.stop]:
        out[wall.stop] = wall.tiles[wall.stop]
    tracker = r.reveal_tracker
    if tracker is not None:
        for s in tracker._shown:  # revealed face up: their positions and tiles are public
            if not wall.taken[s.position]:
                out[s.position] = s.tile
    return out


def sample_hidden(
    obs: Observation, state: RoundState, rng: random.Random, tilt: int = 1
) -> tuple[list[list[int]], list[int]]:
    """One deal of the tiles ``obs.seat`` has not seen: each other seat's concealed tiles
    (as many as it holds, sorted; its own seat's list empty) and the wall's undrawn
    positions, the public ones excluded, in position order.  Reads only what the seat may
    see: its view's unseen counts (:attr:`TableView.live`: the wall's copies less its own
    hand, every meld, the discards on the table and the 宝牌 indicator), the revealed
    chicken tiles, the other seats' concealed counts, and which wall positions are drawn.

    ``tilt`` above 1 deals each other seat (in seat order) the closest to a win of ``tilt``
    draws from the tiles left (:func:`_tilted`): a seat that has played on holds a worked
    hand, which a uniform deal of the unseen tiles seldom is, so its threat (a ready hand,
    a wait on this seat's discard) would be missing from the rollouts."""
    me = obs.seat
    view = TableView(obs)
    live = view.live
    fixed = _fixed_positions(state)
    wall = state.wall
    for pos, tile in fixed.items():
        if pos != wall.stop:  # the indicator is out of ``live`` already
            live[tile] -= 1
    pool = [k for k in range(NUM_KINDS) for _ in range(max(live[k], 0))]
    slots = sum(1 for i in range(len(wall.tiles)) if not wall.taken[i] and i not in fixed)
    counts = [0 if s == me else obs.concealed_count(s) for s in range(obs.players)]
    if len(pool) != sum(counts) + slots:
        raise ZhuojiError(
            f"search agent: {len(pool)} unseen tiles for {sum(counts)} concealed and "
            f"{slots} wall positions (seat {me})"
        )
    rng.shuffle(pool)
    if tilt > 1:
        return _tilted(pool, counts, rng, tilt, analyzer(view.rules).distance)
    hands: list[list[int]] = []
    at = 0
    for s in range(obs.players):
        hands.append(sorted(pool[at : at + counts[s]]))
        at += counts[s]
    return hands, pool[at:]


def _tilted(
    pool: list[int],
    counts: Sequence[int],
    rng: random.Random,
    tilt: int,
    distance: Callable[[Sequence[int]], int],
) -> tuple[list[list[int]], list[int]]:
    """Each seat with concealed tiles, in seat order: ``tilt`` draws of its count from
    what is left of ``pool`` (shuffled), the one fewest tiles from a win kept (the first
    on a tie); the rest, shuffled, is the wall's."""
    left = pool
    hands: list[list[int]] = []
    for n in counts:
        if n == 0:
            hands.append([])
            continue
        best: list[int] = []
        best_d = 1 << 30
        for _ in range(tilt):
            picks = rng.sample(range(len(left)), n)
            hist = [0] * NUM_KINDS
            for i in picks:
                hist[left[i]] += 1
            d = distance(hist)
            if d < best_d:
                best, best_d = picks, d
        chosen = set(best)
        hands.append(sorted(left[i] for i in best))
        left = [t for i, t in enumerate(left) if i not in chosen]
    rng.shuffle(left)
    return hands, left


def determinized(obs: Observation, state: RoundState, rng: random.Random, tilt: int = 1) -> Round:
    """A copy of the round with every hidden part replaced by a sample
    (:func:`sample_hidden`, ``tilt`` as there): the other seats' hands and what follows from them (waits,
    passed wins, the turn a kong was first possible), the wall's undrawn tiles, the dice
    and the round's random generator."""
    r = clone_round(state)
    hands, wall_tiles = sample_hidden(obs, state, rng, tilt)
    me = obs.seat
    for s, st in enumerate(r.seats):
        if s == me:
            continue
        hand = [0] * NUM_KINDS
        for t in hands[s]:
            hand[t] += 1
        st.hand = hand
        st.drawn = -1
        st.passed_win = False
        st.lock_tiles = set()
        st.lock_all = False
        st.kong_seen = {}
        st.given, st.received = [], []
        st.ever_ready = False
        st.shanten_floor = 0
        update_waits(r, st)
    wall = r.wall
    fixed = _fixed_positions(r)
    it = iter(wall_tiles)
    for i in range(len(wall.tiles)):
        if not wall.taken[i] and i not in fixed:
            wall.tiles[i] = next(it)
    r.dice_queue = []
    r.seed = None
    r.rng = random.Random(rng.getrandbits(64))
    if r.phase is Phase.CLAIM:
        _reopen_claims(r, me)
    return r


def _reopen_claims(r: Round, me: int) -> None:
    """A claim window asked again of the sampled hands: the other seats' options (and
    answers already given, unseen by ``me``) were the real hands'; ``me`` keeps its own."""
    discarder = r.discards[-1].seat
    tile = r.claim_tile
    must_win = discard_must_be_won(r)
    options: dict[int, tuple[Action, ...]] = {me: r.pending[me]} if me in r.pending else {}
    for o in r.others_of[discarder]:
        if o == me:
            continue
        answers = answers_to(r, o, tile, discarder, must_win)
        if answers is not None:
            options[o] = answers
    r.pending = options
    r.responses = {}
