"""The start of a round: the wall, the dealer, the deal, the wild tile and the first reveal;
then, where the variant has them, 换三张 (every seat picks the tiles it passes on) and 定缺
(every seat declares a void suit), both answered by all seats at once, unseen by the others
(CITIES.md 捉鸡 with 定缺); then the dealer's first turn.

Deal: from the dealer round the table, 13 tiles each, then the dealer's 14th.  The first
dealer by dice is counted from the roller, seat 0 (seed 000 4)).  Where the wall has flowers
(``tiles.flowers``, CITIES.md 黔西), each seat then sets its dealt flowers aside and draws
their replacements (补花), from the dealer round the table.

:func:`deal` builds the table and opens the first phase; :func:`exchange_options` and the
void-suit answers are the start phases' legal actions, :func:`pick_exchange` and
:func:`resolve_dingque` their apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.errors import ZhuojiError
from zhuoji.outcome import RevealAt
from zhuoji.reveals import RevealTracker
from zhuoji.round_checks import refresh_waits, update_waits
from zhuoji.round_state import Phase, RoundState
from zhuoji.round_turn import replacement_tile, start_turn
from zhuoji.wall import Wall

#: random 换三张 directions by table size, in the order a dice sum (mod their number) picks
_EXCHANGE_WAYS: Final = {
    2: ("next",),
    3: ("next", "previous"),
    4: ("next", "opposite", "previous"),
}

# ----------------------------------------------------------------------------------
# the deal
# ----------------------------------------------------------------------------------


def deal(r: RoundState, wall: Sequence[int] | str | None, dealer: int | None) -> None:
    """Build the wall (shuffled, or ``wall`` as stacked), pick the dealer (unless given),
    deal, reveal the wild tile and the first chicken reveal; then open the first phase."""
    ruleset = r.ruleset
    v = ruleset.variant
    n = r.players
    tiles, stacked = _wall_tiles(r, wall)
    if dealer is None:
        dealer = _first_dealer(r)
    if not 0 <= dealer < n:
        raise ZhuojiError(f"dealer {dealer} is out of range 0-{n - 1}")
    if not 1 <= r.weekday <= 7:
        raise ZhuojiError(f"weekday {r.weekday} is out of range 1-7 (Monday 1 … Sunday 7)")
    r.dealer = dealer
    if not stacked and v.deal.wall_break == "dice":
        a, b = r.roll()
        cut = (2 * (a + b) * (min(a, b) + 1)) % len(tiles)  # the shuffle already randomizes
        tiles = tiles[cut:] + tiles[:cut]
    r.wall = Wall(tiles)
    streak, round_wind, weekday, seed = r.streak, r.round_wind, r.weekday, r.seed
    r.log.add(
        lambda: {
            "type": "round",
            "variant": ruleset.name,
            "overrides": ruleset.overrides,
            "players": n,
            "dealer": dealer,
            "streak": streak,
            "round_wind": round_wind,
            "weekday": weekday,
            "seed": seed,
            "wall": "".join(T.TILE_TEXT[t] for t in tiles),
            **({} if ruleset.source is None else {"source": ruleset.source}),
        }
    )

    size = v.tiles.hand_size
    need = size * n + 1
    held = len(tiles) - tiles.count(T.FLOWER)
    if held < need:
        raise ZhuojiError(f"the wall holds {held} tiles besides flowers; the deal needs {need}")
    for i in range(n):
        st = r.seats[(dealer + i) % n]
        hand = st.hand
        for t in r.wall.deal(size):
            if t == T.FLOWER:
                st.flowers += 1
            else:
                hand[t] = hand[t] + 1
    last = r.wall.draw_head()
    first = r.seats[dealer]
    if last == T.FLOWER:
        first.flowers += 1
    else:
        first.hand[last] = first.hand[last] + 1
    if v.tiles.flowers:
        last = _replace_dealt_flowers(r, dealer, last)
    first.drawn = last  # the dealer's 14th tile stands for a drawn one (天和)

    r.wild_indicator = None
    # (assigned from a call, not narrowed to None: the compiled build checks the type)
    r.wild = _reveal_wild(r) if v.wild is not None else None
    wild_rule = v.wild
    wild = r.wild
    #: per kind, whether a discard of it may be claimed for a meld (宝牌: WildSection.may_claim)
    r.claimable_kinds = [
        wild_rule is None or wild is None or wild_rule.may_claim(k, wild)
        for k in range(T.NUM_KINDS)
    ]
    r.rules = ruleset.hand_rules(r.wild)
    r.shanten_floor_of = r.rules.shanten_floor_function()
    for st in r.seats:
        update_waits(r, st)
    dealt = [tuple(st.hand) for st in r.seats]
    if v.tiles.flowers:  # only then, so logs of variants without flowers read as before
        aside = [st.flowers for st in r.seats]
        r.log.add(
            lambda: {
                "type": "deal",
                "hands": [T.format_counts(h) for h in dealt],
                "flowers": aside,
            }
        )
    else:
        r.log.add(lambda: {"type": "deal", "hands": [T.format_counts(h) for h in dealt]})
    r.reveal_tracker = None
    if v.deal.start_reveal is not None:
        tracker = r.reveal_tracker = RevealTracker(v.deal.start_reveal, r.wall)
        r.log_reveal(RevealAt.START, tracker.start())

    r.phase = Phase.TURN
    r.current = dealer
    _next_start_phase(r)


def _replace_dealt_flowers(r: RoundState, dealer: int, last: int) -> int:
    """补花 at the deal: from the dealer round the table, each seat sets its dealt flowers
    aside and draws one replacement for each, from where kongs are replaced, until it holds
    none (CITIES.md 黔西: "flower tiles drawn and replaced").  The dealer's last tile: his
    14th, or the replacement that stands for it when that was a flower."""
    n = r.players
    for i in range(n):
        st = r.seats[(dealer + i) % n]
        owed = st.flowers
        while owed:
            owed -= 1
            t = replacement_tile(r)
            if t == T.FLOWER:
                st.flowers += 1
                owed += 1
            else:
                st.hand[t] = st.hand[t] + 1
                if i == 0 and last == T.FLOWER:
                    last = t
    return last


def _wall_tiles(r: RoundState, wall: Sequence[int] | str | None) -> tuple[list[int], bool]:
    """The wall's tiles in draw order, and whether they were stacked (given) rather than
    shuffled."""
    tile_set = r.ruleset.variant.tiles.set
    flowers = r.ruleset.variant.tiles.flowers
    if wall is None:
        # sorting by independent uniform keys is a uniform shuffle, and runs in C
        ordered = T.wall(tile_set, flowers)
        rnd = r.rng.random
        keys = [rnd() for _ in ordered]
        return [ordered[i] for i in sorted(range(len(ordered)), key=keys.__getitem__)], False
    tiles = T.parse(wall) if isinstance(wall, str) else list(wall)
    _check_wall(tiles, tile_set, flowers)
    return tiles, True


def _first_dealer(r: RoundState) -> int:
    """The first dealer as the variant picks one (``deal.first_dealer``)."""
    how = r.ruleset.variant.deal.first_dealer
    if how == "dice":
        a, b = r.roll()
        return (a + b - 1) % r.players  # seed 000 4): counted from the roller (seat 0)
    if how == "random":
        return r.rng.randrange(r.players)
    return 0


def _reveal_wild(r: RoundState) -> int:
    """The round's wild kind, revealed (its indicator kept in ``wild_indicator``)."""
    w = r.ruleset.variant.wild
    assert w is not None
    if w.fixed_kind is not None:  # a fixed wild (红中癞子): nothing is revealed
        r.log_event({"type": "wild", "wild": T.format([w.fixed_kind])})
        return w.fixed_kind
    wall = r.wall
    if w.indicator == "head":
        indicator = wall.draw_head()
    else:
        if w.indicator == "tail_dice":
            a, b = r.roll()
            pos = wall.position_from_end(a + b)
        else:
            pos = None
        if pos is None:
            pos = max(i for i in range(len(wall.tiles)) if not wall.taken[i])
        indicator = wall.tiles[pos]
        if w.live_wall_ends_at_indicator:
            wall.stop = pos
        else:
            wall.taken[pos] = True
            wall._left -= 1
    r.wild_indicator = indicator
    wild = T.next_in_cycle(indicator)
    r.log_event(
        {
            "type": "wild",
            "indicator": T.format([indicator]),
            "wild": T.format([wild]),
        }
    )
    return wild


def _check_wall(tiles: list[int], tile_set: T.TileSet, flowers: int) -> None:
    allowed = set(T.kinds_in(tile_set))
    c = [0] * T.NUM_KINDS
    aside = 0
    for i, t in enumerate(tiles):
        if t == T.FLOWER:
            aside += 1
            if aside > flowers:
                raise ZhuojiError(
                    f"wall position {i}: flower {aside} (1f); the variant has {flowers} "
                    f"(tiles.flowers)"
                )
            continue
        if t not in allowed:
            raise ZhuojiError(
                f"wall position {i}: {T.format([t])} is not in the {tile_set.value} tile set"
            )
        c[t] = c[t] + 1
        if c[t] > T.COPIES:
            raise ZhuojiError(f"wall position {i}: a fifth {T.format([t])}")


# ----------------------------------------------------------------------------------
# 换三张 and 定缺
# ----------------------------------------------------------------------------------


def _next_start_phase(r: RoundState) -> None:
    """Open the next start-of-round phase, or the dealer's first turn."""
    if not r.start_phases:
        start_turn(r, r.current)
        return
    phase = r.phase = r.start_phases.pop(0)
    r.responses = {}
    if phase is Phase.EXCHANGE:
        r.pending = {s: exchange_options(r, s) for s in range(r.players)}
    else:
        r.pending = {
            s: (
                make(s, ActionKind.QUE, 0),
                make(s, ActionKind.QUE, 1),
                make(s, ActionKind.QUE, 2),
            )
            for s in range(r.players)
        }


def exchange_options(r: RoundState, seat: int) -> tuple[Action, ...]:
    """The tiles ``seat`` may pick next: any held, or with ``same_suit`` those of a suit
    (honors one group) holding enough, then only that suit's."""
    x = r.ruleset.variant.exchange
    assert x is not None
    st = r.seats[seat]
    held = [k for k in range(T.NUM_KINDS) if st.hand[k]]
    if x.same_suit:
        if st.given:
            group = T.suit_of(st.given[0])
            held = [k for k in held if T.suit_of(k) == group]
        else:
            size = [0, 0, 0, 0]
            for k in held:
                suit = T.suit_of(k)
                size[suit] = size[suit] + st.hand[k]
            held = [k for k in held if size[T.suit_of(k)] >= x.tiles]
    return tuple(make(seat, ActionKind.EXCHANGE, k) for k in held)


def pick_exchange(r: RoundState, action: Action) -> None:
    """换三张: a seat picks one tile to pass on; once every seat has picked all of them,
    the tiles are passed."""
    x = r.ruleset.variant.exchange
    assert x is not None
    st = r.seats[action.seat]
    st.hand[action.tile] = st.hand[action.tile] - 1
    st.given.append(action.tile)
    if len(st.given) < x.tiles:
        r.pending[action.seat] = exchange_options(r, action.seat)
        return
    del r.pending[action.seat]
    if not r.pending:
        _exchange(r)


def _exchange(r: RoundState) -> None:
    """Every seat has picked: pass the tiles on (the direction drawn now, when random)."""
    x = r.ruleset.variant.exchange
    assert x is not None
    n = r.players
    direction: str = x.direction
    if direction == "random":
        ways = _EXCHANGE_WAYS[n]
        a, b = r.roll() if len(ways) > 1 else (0, 0)
        direction = ways[(a + b) % len(ways)]
    r.exchange_direction = direction
    step = {"next": 1, "opposite": 2, "previous": n - 1}[direction]
    for s, st in enumerate(r.seats):
        to = r.seats[(s + step) % n]
        to.received = list(st.given)
        for t in st.given:
            to.hand[t] = to.hand[t] + 1
    r.log_event({"type": "exchange", "direction": direction})
    dealer = r.seats[r.dealer]
    if dealer.drawn >= 0 and not dealer.hand[dealer.drawn]:
        dealer.drawn = dealer.received[-1]  # the 14th tile went away: a received one stands
    refresh_waits(r)
    _next_start_phase(r)


def resolve_dingque(r: RoundState) -> None:
    """定缺: every seat has declared its void suit; it shows to all now."""
    rule = r.ruleset.variant.dingque
    assert rule is not None  # the 定缺 window opens only where the variant has it
    for seat, action in r.responses.items():
        st = r.seats[seat]
        st.void_suit = action.tile
        st.may_meld = [rule.may_meld(action.tile, k) for k in range(T.NUM_KINDS)]
    r.responses = {}
    refresh_waits(r)
    _next_start_phase(r)
