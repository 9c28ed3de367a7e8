"""The expert bot's value model: what a hand is worth from here to the end of the round.

A hand between turns (13 − 3k concealed tiles) is valued as an expectation over how the
round can end for this seat, each end priced by the variant's own rules — the pricers its
hooks register (:mod:`zhuoji.contract.pricing`, :attr:`zhuoji.ruleset.Ruleset.pricing`) —
and its pattern table:

* **win by self-draw / on a discard** — the hand's pattern value (the variant's own rows,
  :func:`zhuoji.rules.patterns.value_of`) times the payers, 报听, the dealer's part, plus
  the chickens and dou it then collects and any 杀报 owed to it;
* **someone else wins while this seat is ready / not ready** — chickens and dou collected
  only when ready (叫嘴, seed 001), 包鸡 and paid-back dou when not, 杀报 owed when declared;
* **a draw (荒庄) ready / not ready** — 查叫 (seed 000 17)).

The chances of these ends come from a small Markov chain over this seat's remaining draws
(:func:`outlook`): each cycle the other seats may end the round (a hazard from the
opponents' readiness) or discard a tile this seat may win on (通行证 decides whether it
may, seed 000 特殊玩法规则 1), then this seat draws: a ready hand wins on one of its live
waits, an unready one moves a step closer with its live improving tiles.  The first draw
uses the hand's own counts; later draws use typical rates for the target shape.  The
chain is memoized on rounded inputs, so valuing a discard costs a few table look-ups.

Targets: a hand may aim at several shapes — the standard form, 大对子 (all pungs), 七对,
清一色 in its strongest suit, 混一色, 十三烂 — each with its own distance, improving tiles and
pattern value; the hand is worth its best target.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from typing import Any, ClassVar, NamedTuple, cast

from zhuoji import hand as H
from zhuoji import tiles as T
from zhuoji.agents.analysis import TableView
from zhuoji.contract.pricing import Decision, Ends, Pricing, SeatPricing
from zhuoji.outcome import Meld, MeldKind
from zhuoji.rules.facts import EVENT_FACTS
from zhuoji.rules.patterns import value_of
from zhuoji.ruleset import Ruleset

FAR = H.FAR

#: terminal kinds of the outlook, in the order of its probability vectors
WIN_SELF, WIN_DISCARD, OTHER_READY, OTHER_UNREADY, DRAW_READY, DRAW_UNREADY = range(6)

#: typical live improving tiles by distance (tiles to add; 1 = ready) for each target
#: shape, measured on greedy play; distance 1 means the live waits of a future ready hand
_TYPICAL = {
    "standard": (0.0, 5.5, 17.0, 30.0, 42.0, 50.0, 55.0),
    "pairs": (0.0, 2.6, 8.0, 13.0, 18.0, 22.0, 26.0),
    "pungs": (0.0, 3.5, 6.0, 9.0, 12.0, 15.0, 18.0),
    "suit": (0.0, 4.5, 10.0, 14.0, 17.0, 20.0, 22.0),
    "lan": (0.0, 3.0, 12.0, 20.0, 26.0, 30.0, 34.0),
}


# ---------------------------------------------------------------------------------------
# the Markov outlook
# ---------------------------------------------------------------------------------------


#: opponents' progress (their discards) up to which hazard profiles are tabulated
_MAX_T = 40


#: an undeclared opponent's chance to be ready, a logistic ``slope × (discards − middle) +
#: per_meld × melds``, as (slope, middle, per_meld).  ``READY_FIT``: fit to greedy play on
#: guiyang, where a 通行证 keeps most ready hands from winning on discards (about 16 %
#: ready after 4 discards, 54 % after 8, 82 % after 12; a meld counts like 1.3 discards);
#: refit by maximum likelihood on 30 rounds × 8 of expert and cautious play it is
#: (0.42, 8.7, 0.72), a log-likelihood of −0.419 against −0.428.
READY_FIT = (0.45, 7.6, 0.6)
#: ``READY_FIT_OPEN``: where any ready hand may win on a discard (no 通行证), a ready hand
#: rarely lives long, so a seat still playing is far less often ready: fit the same way on
#: jinyou (40 match pairs, 17,655 opponent-turns, expert against cautious: (0.354, 13.5,
#: 0.87); 20 other pairs: (0.359, 14.3, 1.15)); the guiyang fit there predicted 37 % ready
#: where 17 % were (log-likelihood −0.472 against −0.300).
READY_FIT_OPEN = (0.355, 13.9, 1.0)

Fit = tuple[float, float, float]


def ready_chance(discards: float, melds: float, fit: Fit) -> float:
    """An undeclared opponent's chance to be ready (see :data:`READY_FIT`)."""
    slope, middle, per_meld = fit
    return 1.0 / (1.0 + math.exp(-(slope * (discards - middle) + per_meld * melds)))


@lru_cache(maxsize=4096)
def hazard_profile(
    undeclared: int, declared: int, melds_q: int, rate_q: int, rate_declared_q: int, fit: Fit
) -> tuple[float, ...]:
    """Chance per cycle that another seat ends the round by winning, by the undeclared
    opponents' progress ``t`` (their mean number of discards): each is ready with the
    chance :func:`ready_chance` gives for ``t`` and its melds (``melds_q``/2), and a ready
    seat wins a cycle with chance ``rate_q``/1000; declared seats are ready from the start
    (``rate_declared_q``/1000)."""
    r, rd = rate_q / 1000.0, rate_declared_q / 1000.0
    out = []
    for t in range(_MAX_T + 1):
        p = ready_chance(t, melds_q / 2.0, fit)
        keep = (1.0 - p * r) ** undeclared * (1.0 - rd) ** declared
        out.append(1.0 - keep)
    return tuple(out)


Profile = tuple[int, int, int, int, int, Fit]


Chain = tuple[Profile, float, float, tuple[float, ...], int]
#: the chain's tables (:func:`_grow_chain`) by (profile, ws, wd, rates, cycles + t)
_CHAINS: dict[Chain, list[list[tuple[float, ...]]]] = {}
#: tables kept before the store is emptied (each a few hundred vectors)
_CHAINS_KEPT = 5_000


def _future(
    cycles: int, d: int, t: int, prof: Profile, ws: float, wd: float, rates: tuple[float, ...]
) -> tuple[float, ...]:
    """End probabilities from the start of a cycle (others' turns first) with the hand at
    distance ``d`` (at least 1), ``cycles`` own draws left and the opponents at progress
    ``t``; ``ws`` and ``wd`` are the self-draw and discard-win chances once ready,
    ``rates[d]`` the chance a draw improves distance ``d``.

    Each cycle uses one draw and moves the opponents one step, so ``cycles + t`` stays
    fixed along the chain: its values are one table (:func:`_grow_chain`), kept and grown
    as larger questions come."""
    return _chain(prof, ws, wd, rates, cycles + t, cycles, d)[cycles][d]


def _chain(
    prof: Profile,
    ws: float,
    wd: float,
    rates: tuple[float, ...],
    diagonal: int,
    cycles: int,
    d: int,
) -> list[list[tuple[float, ...]]]:
    """The chain's table of this diagonal (:func:`_future`), grown to hold ``[cycles][d]``."""
    table = _chain_table(prof, ws, wd, rates, diagonal)
    _grown(table, prof, ws, wd, rates, diagonal, cycles, d)
    return table


def _chain_table(
    prof: Profile, ws: float, wd: float, rates: tuple[float, ...], diagonal: int
) -> list[list[tuple[float, ...]]]:
    """The kept table of this chain and diagonal (:func:`_chain`), as far as it is grown."""
    key = (prof, ws, wd, rates, diagonal)
    table = _CHAINS.get(key)
    if table is None:
        if len(_CHAINS) >= _CHAINS_KEPT:
            _CHAINS.clear()
        table = _CHAINS[key] = []
    return table


def _grown(
    table: list[list[tuple[float, ...]]],
    prof: Profile,
    ws: float,
    wd: float,
    rates: tuple[float, ...],
    diagonal: int,
    cycles: int,
    d: int,
) -> None:
    """Grow ``table`` (:func:`_chain_table`) to hold ``[cycles][d]``."""
    if len(table) <= cycles or len(table[0]) <= d:
        rows = max(cycles + 1, len(table))
        cols = max(d + 1, len(table[0]) if table else 0)
        _grow_chain(table, prof, ws, wd, rates, diagonal, rows, cols)


_DRAWN_READY = tuple(1.0 if i == DRAW_READY else 0.0 for i in range(6))
_DRAWN_UNREADY = tuple(1.0 if i == DRAW_UNREADY else 0.0 for i in range(6))


def _grow_chain(
    table: list[list[tuple[float, ...]]],
    prof: Profile,
    ws: float,
    wd: float,
    rates: tuple[float, ...],
    diagonal: int,
    rows: int,
    cols: int,
) -> None:
    """Fill ``table[cycles][d]`` = :func:`_future` for every ``cycles`` below ``rows`` and
    distance ``1 ≤ d < cols`` with ``t = diagonal − cycles`` (column 0 is unused), from no
    draw left upwards; the entries already there are kept."""
    hazards = hazard_profile(*prof)
    last = len(rates) - 1
    if not table:
        table.append([])
    bottom = table[0]
    bottom.extend(_DRAWN_READY if d == 1 else _DRAWN_UNREADY for d in range(len(bottom), cols))
    for cycles in range(1, rows):
        if cycles == len(table):
            table.append([_DRAWN_UNREADY])
        row = table[cycles]
        if len(row) >= cols:
            continue
        hazard = hazards[min(diagonal - cycles, _MAX_T)]
        nxt = table[cycles - 1]
        if len(row) == 1:
            # d = 1: ready, waiting on a discard or a self-draw (the vectors are written
            # out in the order of WIN_SELF … DRAW_UNREADY)
            alive = 1.0
            won_discard = 0.0
            if wd > 0:
                won_discard += wd
                alive -= wd
            other_ready = alive * hazard
            alive *= 1.0 - hazard
            won_self = alive * ws
            stay = alive * (1.0 - ws)
            x = nxt[1]
            row.append(
                (
                    won_self + stay * x[0],
                    won_discard + stay * x[1],
                    other_ready + stay * x[2],
                    stay * x[3],
                    stay * x[4],
                    stay * x[5],
                )
            )
        # d > 1: a draw improves the hand with the chance of its distance
        alive = 1.0 - hazard
        for d in range(len(row), cols):
            q = rates[min(d, last)]
            p = 1.0 - q
            a, b = nxt[d - 1], nxt[d]
            row.append(
                (
                    alive * (q * a[0] + p * b[0]),
                    alive * (q * a[1] + p * b[1]),
                    alive * (q * a[2] + p * b[2]),
                    hazard + alive * (q * a[3] + p * b[3]),
                    alive * (q * a[4] + p * b[4]),
                    alive * (q * a[5] + p * b[5]),
                )
            )


def outlook(
    cycles: int,
    d: int,
    q1: float,
    t: int,
    prof: Profile,
    ws: float,
    wd: float,
    rates: tuple[float, ...],
) -> tuple[float, ...]:
    """:func:`_future` with this hand's own first-draw improvement chance ``q1`` (chances
    rounded to 1/200 so chains are shared between calls and decisions)."""
    return _outlook(
        max(0, cycles),
        max(1, min(d, len(rates) + 2)),
        round(q1 * 200) / 200,
        max(0, min(t, _MAX_T)),
        prof,
        round(ws * 200) / 200,
        round(wd * 200) / 200,
        rates,
    )


def _outlook(
    cycles: int,
    d: int,
    q1: float,
    t: int,
    prof: Profile,
    ws: float,
    wd: float,
    rates: tuple[float, ...],
) -> tuple[float, ...]:
    """The first cycle with ``q1``, then the chain (both next states lie on the diagonal
    ``cycles + t``: one table).  Not memoized: a few products cost less than a look-up."""
    if cycles <= 0 or d == 1:
        return _future(cycles, d, t, prof, ws, wd, rates)
    hz = hazard_profile(*prof)[t]
    nxt = _chain(prof, ws, wd, rates, cycles + t, cycles - 1, d)[cycles - 1]
    return _first_cycle(hz, nxt, d, q1)


def _first_cycle(hz: float, nxt: list[tuple[float, ...]], d: int, q1: float) -> tuple[float, ...]:
    """The first cycle of :func:`_outlook` (hazard ``hz``, improvement chance ``q1``) over
    the chain's row ``nxt`` of one draw fewer."""
    alive = 1.0 - hz
    a = nxt[d - 1]
    b = nxt[d]
    p = 1.0 - q1
    return (
        alive * (q1 * a[0] + p * b[0]),
        alive * (q1 * a[1] + p * b[1]),
        alive * (q1 * a[2] + p * b[2]),
        hz + alive * (q1 * a[3] + p * b[3]),
        alive * (q1 * a[4] + p * b[4]),
        alive * (q1 * a[5] + p * b[5]),
    )


def _round200(x: float) -> float:
    """``round(x * 200) / 200`` (:func:`outlook`'s rounding, ties to even) in machine
    arithmetic for ``x >= 0`` (``y - floor(y)`` is exact below 2**52)."""
    y = x * 200
    if not 0.0 <= y < 4503599627370496.0:
        return round(y) / 200
    r = int(y)
    diff = y - r
    if diff > 0.5 or (diff == 0.5 and r % 2 == 1):
        r += 1
    return r / 200


@lru_cache(maxsize=4096)
def typical_rates(shape: str, unseen_bucket: int) -> tuple[float, ...]:
    """Per-draw improvement chances of the typical hand of a shape, by distance."""
    u = max(unseen_bucket, 8)
    return tuple(min(0.9, x / u) for x in _TYPICAL[shape])


# ---------------------------------------------------------------------------------------
# pattern values through the variant's own rows
# ---------------------------------------------------------------------------------------

Facts = tuple[tuple[str, object], ...]
#: a hand's context facts and the pattern values looked up in it, by shape

_NEUTRAL: dict[str, object] = {
    "form": H.Form.STANDARD,
    "all_pungs": False,
    "one_suit": False,
    "mixed_one_suit": False,
    "quads": 0,
    "concealed": True,
    "single_wait": False,
    "one_wait": False,
    "wide_wait": False,
    "melds": 0,
    "quad_on_win": False,
    "pair_runs": 0,
    "no_wild": True,
    "wilds": 0,
    "missing_suit": False,
    "no_terminals": False,
    "terminal_pair": False,
    "kan": 0,
    "twin_chows": 0,
    "full_straight": False,
    "all_honors_lan": False,
    "wild_single_wait": False,
    "wild_pair_wait": False,
    "held": (0,) * T.NUM_KINDS,
    "peng_sets": 0,
    "concealed_kongs": 0,
    "exposed_kongs": 0,
    "dragon_pungs": 0,
    "seat_wind_pung": False,
    "round_wind_pung": False,
    **dict.fromkeys(EVENT_FACTS, False),
    "declared": False,
    "dealer": False,
}


@lru_cache(maxsize=65536)
def table_value(ruleset: Ruleset, shape: Facts, context: Facts = ()) -> tuple[int, int]:
    """(pattern part, total) the variant's pattern table gives a hand with these facts
    (:func:`zhuoji.rules.patterns.value_of`: excludes, ``combine`` and the cap apply); the
    pattern part (non-additive rows) is what the 通行证 threshold reads."""
    f = dict(_NEUTRAL)
    f.update(context)
    f.update(shape)
    comps = value_of(ruleset.variant.patterns, f)
    return sum(c.fan for c in comps if not c.bonus), sum(c.fan for c in comps)


def table_fan(ruleset: Ruleset, shape: Facts, context: Facts = ()) -> int:
    """The total value of a hand with these facts (see :func:`table_value`)."""
    return table_value(ruleset, shape, context)[1]


class _Context:
    """A hand's context facts (:meth:`Evaluator.context`) with the pattern values looked up
    in it so far: ``fans`` by shape (:meth:`Evaluator.fans`), and ``wins``, the best value
    of a ready hand completed by each wait (by the ready hand's counts, melds, whether it
    had one wait and the round's wild kind, then by the wait) that
    :meth:`Evaluator._ready_rates` chose.  Kept by table and facts across decisions: the
    facts (a few dozen) are hashed once per hand valued, each look-up is then a small one."""

    __slots__ = ("facts", "fans", "wins")
    #: values stored in every kept context (counted where they are stored)
    stored: ClassVar[int] = 0

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.fans: dict[Facts, tuple[int, int, int]] = {}
        self.wins: dict[
            tuple[tuple[int, ...], tuple[Meld, ...], bool, int | None],
            dict[int, tuple[int, int, int]],
        ] = {}


_CONTEXTS: dict[tuple[Ruleset, Facts], _Context] = {}
#: contexts, and values kept in them, before the store is emptied (a long run meets new
#: completed hands for ever)
_CONTEXTS_KEPT = 20_000
_VALUES_KEPT = 100_000


def _context_of(ruleset: Ruleset, facts: Facts) -> _Context:
    """The kept :class:`_Context` of these facts on this table."""
    if _Context.stored >= _VALUES_KEPT or len(_CONTEXTS) >= _CONTEXTS_KEPT:
        _CONTEXTS.clear()
        _Context.stored = 0
    key = (ruleset, facts)
    got = _CONTEXTS.get(key)
    if got is None:
        got = _CONTEXTS[key] = _Context(facts)
    return got


_CLAIMED_SETS = (MeldKind.PENG, MeldKind.GANG_EXPOSED, MeldKind.GANG_ADDED)
#: the melds a context key holds where the facts read do not depend on the melds
_NO_MELDS: tuple[Meld, ...] = ()


def _held(
    c: Sequence[int], meld_tiles: Sequence[int], wild: int | None, counted: frozenset[int]
) -> tuple[int, ...]:
    """The ``held`` fact: tiles physically held, melds included, wild tiles not, for the
    kinds a pattern row counts (``counted``: e.g. 红中 嘴); other kinds read 0, so values
    stay cacheable."""
    out = [0] * T.NUM_KINDS
    for k in counted:
        if k != wild:
            out[k] = c[k] + meld_tiles.count(k)
    return tuple(out)


@lru_cache(maxsize=64)
def read_facts(ruleset: Ruleset) -> frozenset[str]:
    """The facts the variant's pattern rows read (:func:`zhuoji.rules.patterns.value_of`):
    the ones a row requires, counts by (``per``), and ``held`` for a row's own ``tile``.
    A context keeps only these: the others cannot move a value, and leaving them out lets
    hands that differ only in them share their looked-up values."""
    out: set[str] = set()
    for row in ruleset.variant.patterns.rows.values():
        out.update(name for name, want in row.requires if want is not None)
        if row.per is not None:
            out.add(row.per)
        if row.tile:
            out.add("held")
    return frozenset(out)


#: the facts :func:`hand_context` gives, in its order
CONTEXT_FACTS = (
    "concealed",
    "no_wild",
    "wilds",
    "missing_suit",
    "no_terminals",
    "kan",
    "held",
    "melds",
    "peng_sets",
    "concealed_kongs",
    "exposed_kongs",
    "dragon_pungs",
    "seat_wind_pung",
    "round_wind_pung",
    "declared",
    "dealer",
)


@lru_cache(maxsize=64)
def context_reader(ruleset: Ruleset) -> Callable[[Facts], Facts]:
    """A function keeping the facts of a :func:`hand_context` the variant's pattern rows
    read (:func:`read_facts`), by their places in :data:`CONTEXT_FACTS`."""
    reads = read_facts(ruleset)
    places = [i for i, name in enumerate(CONTEXT_FACTS) if name in reads]
    if len(places) >= 2:
        return cast("Callable[[Facts], Facts]", operator.itemgetter(*places))
    return lambda ctx: tuple(ctx[i] for i in places)


@lru_cache(maxsize=64)
def counted_tiles(ruleset: Ruleset) -> frozenset[int]:
    """The kinds the variant's pattern rows count (a row's own ``tile``)."""
    return frozenset(T.parse_one(r.tile) for r in ruleset.variant.patterns.rows.values() if r.tile)


#: kinds that are terminals or honors (``no_terminals``)
_TERMINALS_HONORS = tuple(k for k in range(T.NUM_KINDS) if T.is_terminal_or_honor(k))
_terminals_honors = operator.itemgetter(*_TERMINALS_HONORS)
#: the dragons (``dragon_pungs``: honor kinds from 31)
_DRAGONS = tuple(range(31, T.NUM_KINDS))


@dataclass(frozen=True, slots=True)
class _MeldFacts:
    """What a seat's melds contribute to :func:`hand_context` (read once per meld tuple)."""

    tiles: tuple[int, ...]
    suits: frozenset[int]
    terminals: bool
    pungs: frozenset[int]  # kinds melded as a pung or kong
    dragon_pungs: int
    concealed: bool
    peng_sets: int
    concealed_kongs: int
    exposed_kongs: int


@lru_cache(maxsize=4096)
def _meld_facts(melds: tuple[Meld, ...]) -> _MeldFacts:
    tiles = tuple(t for m in melds for t in m.tiles)
    pungs = [m.tile for m in melds if m.kind is not MeldKind.CHI]
    return _MeldFacts(
        tiles,
        frozenset(k // 9 for k in tiles if k < 27),
        any(T.is_terminal_or_honor(k) for k in tiles),
        frozenset(pungs),
        sum(1 for k in pungs if k >= 31),
        not any(m.kind.claimed for m in melds),
        sum(1 for m in melds if m.kind in _CLAIMED_SETS),
        sum(1 for m in melds if m.kind is MeldKind.GANG_CONCEALED),
        sum(1 for m in melds if m.kind in (MeldKind.GANG_EXPOSED, MeldKind.GANG_ADDED)),
    )


def hand_context(
    c: Sequence[int],
    melds: Sequence[Meld],
    *,
    wild: int | None,
    dealer: bool,
    declared: bool,
    seat_wind: int,
    round_wind: int,
    counted: frozenset[int] = frozenset(),
) -> Facts:
    """Facts the current hand already shows, as the completed hand would likely keep them
    (claimed melds, kongs, concealed pungs, dragons, suits present, terminals, wilds).

    The wild tiles held count as ``wilds`` only: no suit, terminal or pung of theirs."""
    m = _meld_facts(tuple(melds))
    x = list(c)  # the kinds held, wild tiles apart
    wilds = 0
    if wild is not None:
        wilds = x[wild]
        x[wild] = 0
    suits = len(m.suits | {s for s in range(3) if any(x[9 * s : 9 * s + 9])})
    seat_k, round_k = 27 + seat_wind, 27 + round_wind
    return (
        ("concealed", m.concealed),
        ("no_wild", wilds == 0),
        ("wilds", wilds),
        ("missing_suit", suits < 3),
        ("no_terminals", not (m.terminals or any(_terminals_honors(x)))),
        ("kan", x.count(3) + x.count(4)),
        ("held", _held(c, m.tiles, wild, counted)),
        ("melds", len(melds)),
        ("peng_sets", m.peng_sets),
        ("concealed_kongs", m.concealed_kongs),
        ("exposed_kongs", m.exposed_kongs),
        ("dragon_pungs", m.dragon_pungs + sum(1 for k in _DRAGONS if x[k] >= 3)),
        ("seat_wind_pung", x[seat_k] >= 3 or seat_k in m.pungs),
        ("round_wind_pung", x[round_k] >= 3 or round_k in m.pungs),
        ("declared", declared),
        ("dealer", dealer),
    )


#: the facts of :data:`CONTEXT_FACTS` that read the concealed counts, and those that read
#: the melds
_FROM_HAND = frozenset(
    (
        "no_wild",
        "wilds",
        "missing_suit",
        "no_terminals",
        "kan",
        "held",
        "dragon_pungs",
        "seat_wind_pung",
        "round_wind_pung",
    )
)
_FROM_MELDS = frozenset(
    (
        "concealed",
        "missing_suit",
        "no_terminals",
        "held",
        "melds",
        "peng_sets",
        "concealed_kongs",
        "exposed_kongs",
        "dragon_pungs",
        "seat_wind_pung",
        "round_wind_pung",
    )
)
#: the terminal and honor kinds as marks by kind (``no_terminals``)
_IS_TERMINAL_HONOR = [T.is_terminal_or_honor(k) for k in range(T.NUM_KINDS)]


class ContextReader:
    """:func:`hand_context` kept to the facts one table's pattern rows read
    (:func:`read_facts`, as :func:`context_reader` keeps them), worked out in one pass over
    the counts: a 捉鸡-style additive table reads a few facts (独山: the melds alone), where
    the whole context cost a tenth of a four-expert round.  :attr:`hand` and :attr:`melds`
    say whether the facts read depend on the concealed counts and on the melds at all
    (a context that reads neither is the same for every option of a decision)."""

    def __init__(self, ruleset: Ruleset) -> None:
        reads = read_facts(ruleset)
        #: the facts read, in the order of :data:`CONTEXT_FACTS`, and their places there
        self.names: list[str] = [name for name in CONTEXT_FACTS if name in reads]
        self.places: list[int] = [CONTEXT_FACTS.index(name) for name in self.names]
        self.hand = any(name in _FROM_HAND for name in self.names)
        self.melds = any(name in _FROM_MELDS for name in self.names)
        self.counted: list[int] = sorted(counted_tiles(ruleset))
        # the melds last read and their facts: most options of a decision keep the melds
        # of now (the same tuple), whose hash is the dataclass's Python ``__hash__``
        self._last_melds: tuple[Meld, ...] | None = None
        self._last_facts: _MeldFacts | None = None

    def read(
        self,
        c: list[int],
        melds: tuple[Meld, ...],
        wild: int,
        dealer: bool,
        declared: bool,
        seat_wind: int,
    ) -> Facts:
        """``context_reader(ruleset)(hand_context(c, melds, ...))`` with ``wild`` -1 for
        none and the round wind 0, as :class:`Evaluator` asks it."""
        m = self._last_facts
        if m is None or melds is not self._last_melds:
            m = self._last_facts = _meld_facts(melds)
            self._last_melds = melds
        wilds = c[wild] if wild >= 0 else 0
        suits = 0  # bit s: suit s held (the wild tiles apart)
        terminals = m.terminals
        kan = 0
        dragons = m.dragon_pungs
        seat_k, round_k = 27 + seat_wind, 27
        seat_pung = seat_k in m.pungs
        round_pung = round_k in m.pungs
        if self.hand:
            marks = _IS_TERMINAL_HONOR
            for k in range(T.NUM_KINDS):
                x = c[k]
                if x == 0 or k == wild:
                    continue
                if k < 27:
                    suits |= 1 << (k // 9)
                if marks[k]:
                    terminals = True
                if x >= 3:
                    kan += 1
                    if k >= 31:
                        dragons += 1
                    if k == seat_k:
                        seat_pung = True
                    if k == round_k:
                        round_pung = True
        for s in m.suits:
            suits |= 1 << s
        out: list[tuple[str, object]] = []
        names = self.names
        places = self.places
        for i in range(len(places)):
            # by the fact's place in CONTEXT_FACTS (compared as machine integers)
            place = places[i]
            value: object
            if place == 0:  # concealed
                value = m.concealed
            elif place == 1:  # no_wild
                value = wilds == 0
            elif place == 2:  # wilds
                value = wilds
            elif place == 3:  # missing_suit
                value = suits != 7
            elif place == 4:  # no_terminals
                value = not terminals
            elif place == 5:  # kan
                value = kan
            elif place == 6:  # held
                value = self._held(c, m.tiles, wild)
            elif place == 7:  # melds
                value = len(melds)
            elif place == 8:  # peng_sets
                value = m.peng_sets
            elif place == 9:  # concealed_kongs
                value = m.concealed_kongs
            elif place == 10:  # exposed_kongs
                value = m.exposed_kongs
            elif place == 11:  # dragon_pungs
                value = dragons
            elif place == 12:  # seat_wind_pung
                value = seat_pung
            elif place == 13:  # round_wind_pung
                value = round_pung
            elif place == 14:  # declared
                value = declared
            else:  # dealer
                value = dealer
            out.append((names[i], value))
        return tuple(out)

    def _held(self, c: list[int], meld_tiles: tuple[int, ...], wild: int) -> tuple[int, ...]:
        """:func:`_held` over the counted kinds."""
        out = [0] * T.NUM_KINDS
        for k in self.counted:
            if k != wild:
                out[k] = c[k] + meld_tiles.count(k)
        return tuple(out)


@lru_cache(maxsize=64)
def context_facts_reader(ruleset: Ruleset) -> ContextReader:
    """One :class:`ContextReader` per table."""
    return ContextReader(ruleset)


#: the forms, read once (an enum member read off its class is an attribute look-up each)
_FORM_STANDARD = H.Form.STANDARD
_FORM_PAIRS = H.Form.SEVEN_PAIRS
_FORM_LAN = H.Form.SHISANLAN
_FORM_YAO = H.Form.SHISANYAO


@lru_cache(maxsize=64)
def _complete_forms(ruleset: Ruleset) -> tuple[bool, bool, bool, bool, bool]:
    """(standard, 七对, 十三烂, 十三幺 allowed; four-of-a-kind as two pairs) of a table, for
    :func:`complete_shapes` (its model's fields read once)."""
    forms = ruleset.variant.forms
    allowed = forms.allowed
    return (
        _FORM_STANDARD in allowed,
        _FORM_PAIRS in allowed,
        _FORM_LAN in allowed,
        _FORM_YAO in allowed,
        forms.quads_as_two_pairs,
    )


@lru_cache(maxsize=65536)
def complete_shapes(
    full: tuple[int, ...], melds: tuple[Meld, ...], ruleset: Ruleset, wild: int | None
) -> tuple[Facts, ...]:
    """Shape facts of each form a complete hand takes, decided from counts as
    :class:`~zhuoji.agents.analysis.PatternScreen` decides them: the form, all pungs, one
    suit, mixed one suit, seven pairs' four-of-a-kinds."""
    c = list(full)
    jokers = 0
    if wild is not None:
        jokers = c[wild]
        c[wild] = 0
    standard, pairs, lan, yao, q2 = _complete_forms(ruleset)
    n = sum(c) + jokers
    kinds = [k for k in range(T.NUM_KINDS) if c[k]] + [t for m in melds for t in m.tiles]
    suits = {k // 9 for k in kinds if k < 27}
    honors = any(k >= 27 for k in kinds)
    suit: Facts = (
        ("one_suit", len(suits) == 1 and not honors),
        ("mixed_one_suit", len(suits) == 1 and honors),
    )
    out: list[Facts] = []
    if standard and H.standard_distance(c, jokers, wild_in_play=wild is not None) - jokers <= 0:
        chi = any(m.kind is MeldKind.CHI for m in melds)
        pungs = not chi and not jokers and all(x in (0, 2, 3) for x in c) and c.count(2) == 1
        out.append((("form", _FORM_STANDARD), ("all_pungs", pungs), *suit))
    if (
        pairs
        and n == 14
        and not melds
        and H.seven_pairs_distance(c, jokers, quads_as_two_pairs=q2) - jokers <= 0
    ):
        quads = c.count(4) if not jokers else 0
        out.append((("form", _FORM_PAIRS), ("quads", quads), *suit))
    if lan and not melds and n == 14 and H.shisanlan_distance(c, jokers) - jokers <= 0:
        out.append((("form", _FORM_LAN), *suit))
    if yao and not melds and n == 14 and H.shisanyao_distance(c, jokers) - jokers <= 0:
        out.append((("form", _FORM_YAO), *suit))
    return tuple(out) or ((("form", _FORM_STANDARD), *suit),)


# ---------------------------------------------------------------------------------------
# target shapes and their distances
# ---------------------------------------------------------------------------------------


class Target(NamedTuple):
    """A shape a hand may complete: its distance (tiles to add), the live tiles that bring
    it closer (-1: unknown), and the facts that decide its pattern value.  (A named tuple:
    several are made for every hand valued.)"""

    shape: str  # key of _TYPICAL
    distance: int
    ukeire: int
    facts: Facts


_STANDARD: Facts = (("form", H.Form.STANDARD),)
_PUNGS: Facts = (("form", H.Form.STANDARD), ("all_pungs", True))
_PAIRS: Facts = (("form", H.Form.SEVEN_PAIRS),)
_LAN: Facts = (("form", H.Form.SHISANLAN),)
_YAO: Facts = (("form", H.Form.SHISANYAO),)


def _orphan_ukeire(c: Sequence[int], live: Sequence[int]) -> int:
    """Live tiles that bring 十三幺 closer: the orphan kinds missing, and while no orphan is
    held twice, the ones held."""
    paired = any(c[k] >= 2 for k in H.ORPHANS)
    return sum(live[k] for k in H.ORPHANS if not c[k] or (not paired and c[k] == 1))


def pungs_target(c: Sequence[int], sets: int, live: Sequence[int]) -> tuple[int, int]:
    """(distance, live improving tiles) to ``sets`` pungs and a pair from concealed counts:
    the best pick is the ``sets + 1`` most-held kinds, the pair on one held at most twice;
    the improving tiles are those of the picked kinds held once or twice."""
    b = bytes(c)  # counts as bytes: counted and masked in C
    cost, low = _pungs_distance(b, sets)
    return cost, _pungs_ukeire(b, low, live)


def _pungs_distance(b: bytes, sets: int) -> tuple[int, int]:
    """:func:`pungs_target`'s distance, and the lowest count picked (at least 1), from the
    counts as bytes: the sets + 1 highest counts, read from how many kinds are held 4, 3,
    2 and 1 times."""
    return _pungs_cost(b.count(1), b.count(2), b.count(3), b.count(4), sets)


def _pungs_ukeire(b: bytes, low: int, live: Sequence[int]) -> int:
    """:func:`pungs_target`'s improving tiles: the live copies of kinds held ``low`` to 2
    times."""
    if low > 2:
        return 0
    return sum(compress(live, b.translate(_ONE_OR_TWO if low == 1 else _TWO)))


#: (count held, tiles missing for a pung) from the most held
#: byte tables marking the counts 1 or 2, 2, and 1 or 3 (bytes.translate)
_ONE_OR_TWO = bytes(1 if x in (1, 2) else 0 for x in range(256))
_TWO = bytes(1 if x == 2 else 0 for x in range(256))
_ODD = bytes(1 if x in (1, 3) else 0 for x in range(256))


def pairs_target(c: Sequence[int], quads_as_two: bool, live: Sequence[int]) -> tuple[int, int]:
    """(distance, live improving tiles) to seven pairs from the held tiles (13 concealed,
    no melds; tiles not counted in ``c`` are thrown away along the way)."""
    b = bytes(c)
    d = H.pairs_distance(b.count(1), b.count(2), b.count(3), b.count(4), quads_as_two)
    return d, _pairs_ukeire(b, live)


def _pairs_ukeire(b: bytes, live: Sequence[int]) -> int:
    """:func:`pairs_target`'s improving tiles: the live copies of kinds held once or three
    times (counts as bytes)."""
    return sum(compress(live, b.translate(_ODD)))


def _histogram(c: list[int], lo: int, hi: int) -> tuple[int, int, int, int]:
    """How many kinds of ``c[lo:hi]`` are held exactly once, twice, three and four times
    (one pass of machine integers compiled, where ``bytes.count`` was a method call each)."""
    n1 = n2 = n3 = n4 = 0
    for k in range(lo, hi):
        x = c[k]
        if x == 1:
            n1 += 1
        elif x == 2:
            n2 += 1
        elif x == 3:
            n3 += 1
        elif x == 4:
            n4 += 1
    return n1, n2, n3, n4


def _pungs_cost(ones: int, twos: int, threes: int, fours: int, sets: int) -> tuple[int, int]:
    """:func:`_pungs_distance` from the histogram of counts (:func:`_histogram`)."""
    left = sets + 1
    cost = 0
    last = 0  # the lowest count picked
    for held, missing, kinds in ((4, 0, fours), (3, 0, threes), (2, 1, twos), (1, 2, ones)):
        if kinds and left:
            take = min(kinds, left)
            cost += take * missing
            left -= take
            last = held
    if left:  # kinds not held at all
        cost += 3 * left
        last = 0
    cost -= 1 if last <= 2 else 0
    return cost, max(1, last)


def _live_held(c: list[int], live: list[int], lo: int, hi: int, least: int, most: int) -> int:
    """Live copies of the kinds of ``c[lo:hi]`` held ``least`` to ``most`` times (none when
    ``least > most``): :func:`_pungs_ukeire` with ``least = low``, ``most = 2``."""
    total = 0
    if least > most:
        return 0
    for k in range(lo, hi):
        x = c[k]
        if least <= x <= most:
            total += live[k]
    return total


def _live_odd(c: list[int], live: list[int], lo: int, hi: int) -> int:
    """Live copies of the kinds of ``c[lo:hi]`` held once or three times
    (:func:`_pairs_ukeire`)."""
    total = 0
    for k in range(lo, hi):
        x = c[k]
        if x == 1 or x == 3:
            total += live[k]
    return total


@lru_cache(maxsize=65536)
def suit_target(
    cs: tuple[int, ...], sets: int, live: tuple[int, ...], base: int, honors: tuple[int, ...] = ()
) -> tuple[int, int]:
    """(distance, live improving tiles of the suit) to ``sets`` sets and a pair from one
    suit's tiles (``cs``, nine counts from kind ``base``) and, for 混一色, the honors held."""
    c = [0] * T.NUM_KINDS
    c[base : base + 9] = cs
    if honors:
        c[27:] = honors
    slot = 2 * sets + 1
    d = H.hand_vector(c)[slot]
    uke = 0
    for r in range(9):
        k = base + r
        if not live[r] or c[k] >= 4:
            continue
        c[k] += 1
        if H.hand_vector(c)[slot] < d:
            uke += live[r]
        c[k] -= 1
    return d, uke


# ---------------------------------------------------------------------------------------
# one decision's situation
# ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class HandState:
    """A hand between turns, as one option would leave it."""

    c: list[int]  # concealed counts (13 − 3k)
    melds: tuple[Meld, ...]
    declared: bool = False
    discarded: int = -1  # the tile this option discards (-1: none)
    shanten: int | None = None  # the shanten over every form, when known
    ukeire: int = -1  # its live improving tiles (-1: unknown)
    waits: tuple[int, ...] = ()  # when ready: the kinds it waits on
    cycles_off: int = 0  # own draws used up before this state (-1: a kong's replacement)
    quick: bool = False  # value the standard target only


@dataclass(slots=True)
class Valued:
    """An option's value, the end probabilities of its best target, and this seat's price
    if the round ended now by another seat's win."""

    value: float
    probs: tuple[float, ...]
    ready_now: bool
    end_now: float
    target: str = ""


class Evaluator:
    """Values hands between turns (:meth:`value`) for one decision of one seat: the
    wall, the hazard that another seat ends the round, and the prices of every end, which
    the variant's pricers give (:attr:`prices`; see the module docstring)."""

    #: per-cycle win chance of a ready opponent, without and with a 通行证 to win on
    #: discards (greedy play on guiyang wins about 8 % of its draws once ready; a hand
    #: that may win on discards about twice as often)
    ready_win_self = 0.10
    ready_win_any = 0.16
    #: share of the other seats' wins that are self-draws (杀报 on a self-draw)
    other_self_draw_share = 0.7
    #: how far above the standard target's distance other targets are still considered
    target_slack = 2
    #: an opponent's discard hits a ready hand's waits this often relative to a random tile
    discard_hit = 0.8

    def __init__(self, view: TableView) -> None:
        self.view = view
        rs = view.ruleset
        self.ruleset = rs
        #: the variant's pricers (what each rule is worth), for every seat and decision
        self.pricing: Pricing = rs.pricing
        self.win_on_discard = self.pricing.win_on_discard
        obs = view.obs
        self.seat = me = view.seat
        self.players = n = view.players
        self.dealer = view.dealer == me
        self.streak = obs.streak
        self.live = live = view.live
        self.unseen = max(1, sum(live))
        self.unseen_bucket = round(self.unseen / 4.0) * 4
        self.cycles = max(0, obs.wall_left // n)
        self.table = view.table
        open_table = self.win_on_discard and not self.pricing.limited
        #: the readiness fit of this table (see :data:`READY_FIT`)
        self.ready_fit = READY_FIT_OPEN if open_table else READY_FIT
        self.p_ready = [0.0] * n
        self.hazard = self._hazard()
        self.ready_opponents = sum(self.p_ready)
        self.highest = rs.variant.patterns.combine == "highest"
        self.forms = rs.variant.forms.allowed
        self.pairs_form = H.Form.SEVEN_PAIRS in self.forms
        self.lan_form = H.Form.SHISANLAN in self.forms
        self.yao_form = H.Form.SHISANYAO in self.forms
        self.quads_as_two = rs.variant.forms.quads_as_two_pairs
        self.wild = view.wild
        self.seat_wind = (me - view.dealer) % n
        self.honors_in_set = rs.variant.tiles.set.value != "suits"
        self._win_cache: dict[tuple[int, int, bool], tuple[float, float]] = {}
        #: per-decision scratch space for callers (search caches)
        self.scratch: dict[str, dict[Any, float]] = {}
        #: each state's context facts, with the pattern values already looked up for it: by
        #: the melds tuple's identity (held here with its states' contexts, so its id stays
        #: its own), then by the counts and the declaration — a Meld's hash is a Python
        #: call, and most options of a decision share one melds tuple
        self._ctx_cache: dict[
            int, tuple[tuple[Meld, ...], dict[tuple[tuple[int, ...], bool], _Context]]
        ] = {}
        self._outlooks: dict[tuple[int, int, float, int, float, float, str], tuple[float, ...]] = {}
        self._rates: dict[str, tuple[float, ...]] = {}  # typical_rates by shape
        #: the chain's kept tables this decision reads, by (shape, ws, wd, diagonal)
        self._tables: dict[tuple[str, float, float, int], list[list[tuple[float, ...]]]] = {}
        self._reader = context_facts_reader(rs)
        self.opp_fan = self._typical_opponent_fan()
        #: the variant's pricers bound to this decision
        self.prices: SeatPricing = self.pricing.decide(
            Decision(
                seat=me,
                players=n,
                dealer=view.dealer,
                streak=obs.streak,
                weekday=obs.weekday,
                reveals=tuple(obs.reveals),
                table=self.table,
                live=live,
                unseen=self.unseen,
                declared=view.declared,
                own_melds=view.own_melds(),
                wild=view.wild,
                claim_source=obs.claim_source,
                p_ready=self.p_ready,
                ready_opponents=self.ready_opponents,
                typical_loss=self.opp_fan,
                other_self_draw_share=self.other_self_draw_share,
                flowers=obs.flowers(me),
            )
        )

    # --- the other seats ------------------------------------------------------------------

    def _hazard(self) -> float:
        """The opponents' hazard profile and progress (see :func:`hazard_profile`); returns
        the chance another seat ends the round in the coming cycle."""
        v = self.view
        pricing = self.pricing
        undeclared: list[int] = []
        declared = 0
        any_rate = 0
        melds = 0
        for o in range(self.players):
            if o == self.seat:
                continue
            any_ok = self.win_on_discard and pricing.exempt(v.declared[o], v.has_kong(o))
            if v.declared[o]:
                declared += 1
                self.p_ready[o] = 1.0
                continue
            undeclared.append(len(v.discards_by[o]))
            melds += len(v.melds[o])
            any_rate += any_ok
            self.p_ready[o] = ready_chance(len(v.discards_by[o]), len(v.melds[o]), self.ready_fit)
        k = max(1, len(undeclared))
        share_any = any_rate / k
        rate = self.ready_win_self + (self.ready_win_any - self.ready_win_self) * share_any
        if not self.win_on_discard:
            rate = self.ready_win_self
        self.t0 = round(sum(undeclared) / k) if undeclared else _MAX_T
        self.profile: Profile = (
            len(undeclared),
            declared,
            round(2 * melds / k),
            round(rate * 1000),
            round((self.ready_win_any if self.win_on_discard else self.ready_win_self) * 1000),
            self.ready_fit,
        )
        #: the chance another seat ends the round in a cycle, by the opponents' progress
        self.hazards = hazard_profile(*self.profile)
        return self.hazards[min(self.t0, _MAX_T)]

    def _typical_opponent_fan(self) -> float:
        """An opponent's plain win as this seat pays it (查叫, 包付)."""
        fan = table_fan(self.ruleset, _STANDARD)
        return self.pricing.share(
            fan, self_draw=False, winner_dealer=False, payer_dealer=self.dealer, streak=self.streak
        )

    # --- prices of the ends ----------------------------------------------------------------

    def end_prices(self, state: HandState) -> Ends:
        """(collected as a winner besides the hand, another wins while ready, another wins
        while not ready, a draw while ready, a draw while not ready): what every rule's
        pricer adds (:meth:`zhuoji.contract.pricing.SeatPricing.ends`)."""
        return self.prices.ends(state.c, state.melds, state.discarded, state.declared)

    def win_values(self, fan_sd: int, fan_disc: int, declared: bool) -> tuple[float, float]:
        """(self-draw, discard win) payments to this seat for a hand of these values."""
        key = (fan_sd, fan_disc, declared)
        got = self._win_cache.get(key)
        if got is not None:
            return got
        out = self.prices.win_values(fan_sd, fan_disc, declared)
        self._win_cache[key] = out
        return out

    # --- pattern values of a state -------------------------------------------------------

    def context(self, state: HandState) -> Facts:
        """Facts besides the shape: for a 捉鸡 table only the dealer and 报听; for additive
        tables (嘴, 金游 fan) what the hand already shows."""
        return self._context(state).facts

    def _context(self, state: HandState) -> _Context:
        """:meth:`context`, with the pattern values of this context looked up so far (by
        shape: see :meth:`_fans`)."""
        # a 捉鸡 table's context reads 报听 alone; an additive one the facts its rows read,
        # so the key leaves out the counts or the melds where none of those facts reads them
        reader = self._reader
        hand: tuple[int, ...] = () if self.highest or not reader.hand else tuple(state.c)
        melds = _NO_MELDS if self.highest or not reader.melds else state.melds
        entry = self._ctx_cache.get(id(melds))
        if entry is None or entry[0] is not melds:
            entry = self._ctx_cache[id(melds)] = (melds, {})
        by_hand = entry[1]
        key = (hand, state.declared)
        got = by_hand.get(key)
        if got is not None:
            return got
        if self.highest:
            ctx: Facts = (("declared", state.declared), ("dealer", self.dealer))
        else:
            wild = self.wild
            ctx = reader.read(
                state.c,
                state.melds,
                wild if wild is not None else -1,
                self.dealer,
                state.declared,
                self.seat_wind,
            )
        got = by_hand[key] = _context_of(self.ruleset, ctx)
        return got

    def _fans(self, shape: Facts, context: _Context) -> tuple[int, int, int]:
        """:meth:`fans` of ``shape`` in a context from :meth:`_context`, remembered there."""
        memo = context.fans
        got = memo.get(shape)
        if got is None:
            got = memo[shape] = self.fans(shape, context.facts)
            _Context.stored += 1
        return got

    def fans(self, shape: Facts, ctx: Facts) -> tuple[int, int, int]:
        """(pattern part for the 通行证, total on a self-draw, total on a discard)."""
        base, disc = table_value(self.ruleset, shape, ctx)
        sd = table_value(self.ruleset, (*shape, ("self_draw", True)), ctx)[1]
        return base, sd, disc

    # --- targets -------------------------------------------------------------------------

    def targets(self, state: HandState) -> list[Target]:
        """The shapes this hand may still complete."""
        return [Target(*t) for t in self._targets(state)]

    def _targets(self, state: HandState) -> list[tuple[str, int, int, Facts]]:
        """:meth:`targets` as plain tuples, which :meth:`value` reads: compiled, a named
        tuple is made by its Python ``__new__`` (a frame each), a plain tuple natively (the
        named tuples were a quarter of this method's instructions)."""
        c = state.c
        melds = state.melds
        sets = 4 - len(melds)
        live = self.live
        std_d = (state.shanten + 1) if state.shanten is not None else FAR
        out: list[tuple[str, int, int, Facts]] = (
            [("standard", std_d, state.ukeire, _STANDARD)] if std_d < FAR else []
        )
        if state.declared or state.quick:
            return out
        slack = std_d + self.target_slack
        jokers = 0
        base = c
        if self.wild is not None and c[self.wild]:
            jokers = c[self.wild]
            base = list(c)
            base[self.wild] = 0
        ones, twos, threes, fours = _histogram(base, 0, T.NUM_KINDS)
        chows = any(m.kind is MeldKind.CHI for m in melds)
        # each target's distance first, its improving tiles only when it is kept
        if not chows and twos + threes + fours >= sets:
            d, low = _pungs_cost(ones, twos, threes, fours, sets)
            d = max(1, d - jokers)
            if d <= slack:
                u = _live_held(base, live, 0, T.NUM_KINDS, low, 2)
                out.append(("pungs", d, u, _PUNGS))
        concealed13 = not melds and sum(c) == 13
        if concealed13 and self.pairs_form and twos + threes + 2 * fours >= 3:
            d = H.pairs_distance(ones, twos, threes, fours, self.quads_as_two)
            d = max(1, d - jokers)
            if d <= slack:
                facts = (*_PAIRS, ("quads", fours if not jokers else 0))
                out.append(("pairs", d, _live_odd(base, live, 0, T.NUM_KINDS), facts))
        if concealed13 and self.lan_form:
            d = H.shisanlan_distance(base, jokers) - jokers
            if d <= slack:
                out.append(("lan", max(d, 1), -1, _LAN))
        if concealed13 and self.yao_form:
            d = H.shisanyao_distance(base, jokers) - jokers
            if d <= slack:
                out.append(("lan", max(d, 1), _orphan_ukeire(base, live), _YAO))
        suit = self.lean_suit(base, melds)
        if suit >= 0:
            b = 9 * suit
            cs = tuple(base[b : b + 9])
            lv = tuple(live[b : b + 9])
            honors = self.honors_in_set and (any(base[27:]) or any(m.tile >= 27 for m in melds))
            key = "mixed_one_suit" if honors else "one_suit"
            d, u = suit_target(cs, sets, lv, b, tuple(base[27:]) if honors else ())
            d = max(1, d - jokers)
            if d <= slack:
                out.append(("suit", d, u, (*_STANDARD, (key, True))))
            # the suit's tiles alone (and the honors, for 混一色): counted in place, the
            # other kinds as not held
            s1, s2, s3, s4 = _histogram(base, b, b + 9)
            if not chows:
                h1, h2, h3, h4 = _histogram(base, 27, T.NUM_KINDS) if honors else (0, 0, 0, 0)
                d2, low = _pungs_cost(s1 + h1, s2 + h2, s3 + h3, s4 + h4, sets)
                d2 = max(1, d2 - jokers)
                if d2 <= slack:
                    u2 = _live_held(base, live, b, b + 9, low, 2)
                    if honors:
                        u2 += _live_held(base, live, 27, T.NUM_KINDS, low, 2)
                    out.append(("pungs", d2, u2, (*_PUNGS, (key, True))))
            if concealed13 and self.pairs_form and not honors:
                q2 = self.quads_as_two
                d3 = H.pairs_distance(s1, s2, s3, s4, q2)
                d3 = max(1, d3 - jokers)
                if d3 <= slack:
                    u3 = _live_odd(base, live, b, b + 9)
                    out.append(("pairs", d3, u3, (*_PAIRS, (key, True))))
        return out

    @staticmethod
    def lean_suit(c: Sequence[int], melds: Sequence[Meld]) -> int:
        """The suit a one-suit hand would use: the most tiles, at least 7 with melds
        counted, every meld in it (or honors); -1 when none."""
        # loops and a mask rather than slices, sums, a set and ``max`` with a key: compiled,
        # those were 5 % of a four-expert guiyang round's instructions (callgrind, 6 rounds);
        # the counts read as a list (a generic sequence's items are looked up as objects)
        cl: list[int] = c if isinstance(c, list) else list(c)
        m0 = m1 = m2 = 0
        for k in range(9):
            m0 += cl[k]
            m1 += cl[9 + k]
            m2 += cl[18 + k]
        suits = 0  # bit s: a meld in suit s
        for m in melds:
            t = m.tile
            if t < 9:
                m0 += 3
                suits |= 1
            elif t < 18:
                m1 += 3
                suits |= 2
            elif t < 27:
                m2 += 3
                suits |= 4
        top, most = 0, m0  # the first of the largest, as max over 0, 1, 2 takes it
        if m1 > most:
            top, most = 1, m1
        if m2 > most:
            top, most = 2, m2
        if most < 7 or suits & ~(1 << top):
            return -1
        return top

    # --- the value ----------------------------------------------------------------------

    def value(self, state: HandState) -> Valued:
        """The hand's expected points to this seat (see the module docstring)."""
        win_extra, ready, unready, draw_ready, draw_unready = self.end_prices(state)
        cycles = max(0, self.cycles - state.cycles_off)
        has_kong = any(m.kind.is_kong for m in state.melds)
        ctx = self._context(state)
        fans = ctx.fans
        outlooks = self._outlooks
        rates_of = self._rates
        t = self.t0 + state.cycles_off
        declared = state.declared
        best: Valued | None = None
        best_v = 0.0
        has_waits = bool(state.waits)
        for shape, distance, ukeire, facts in self._targets(state):
            if has_waits and distance == 1 and shape != "standard":
                # a ready hand's waits are valued exactly, each by the best shape it
                # completes (:meth:`_ready_rates`): a one-away target is one of them, and its
                # typical rates would price waits that are dead
                continue
            rates = rates_of.get(shape)
            if rates is None:
                rates = rates_of[shape] = typical_rates(shape, self.unseen_bucket)
            if shape == "standard" and distance == 1 and has_waits:
                ws, wd, w_sd, w_dc = self._ready_rates(state, ctx, has_kong)
            else:
                f = fans.get(facts)
                if f is None:
                    f = fans[facts] = self.fans(facts, ctx.facts)
                    _Context.stored += 1
                base, fsd, fdc = f
                got = self._win_cache.get((fsd, fdc, declared))
                w_sd, w_dc = got if got is not None else self.win_values(fsd, fdc, declared)
                ws = rates[1]
                wd = self._wd(_TYPICAL[shape][1], self._may_pass(base, declared, has_kong))
            q1 = (
                min(0.9, ukeire / self.unseen)
                if ukeire >= 0
                else rates[min(distance, len(rates) - 1)]
            )
            # the chain depends on these and on what is fixed for the decision (the hazard
            # profile; the rates, by shape)
            key = (cycles, distance, q1, t, ws, wd, shape)
            probs = outlooks.get(key)
            if probs is None:
                probs = outlooks[key] = self._outlook(cycles, distance, q1, t, ws, wd, shape)
            v = (
                probs[WIN_SELF] * (w_sd + win_extra)
                + probs[WIN_DISCARD] * (w_dc + win_extra)
                + probs[OTHER_READY] * ready
                + probs[OTHER_UNREADY] * unready
                + probs[DRAW_READY] * draw_ready
                + probs[DRAW_UNREADY] * draw_unready
            )
            if best is None or v > best_v:
                best = Valued(v, probs, False, 0.0, shape)
                best_v = v
        if best is None:
            best = Valued(unready, (0.0, 0.0, 0.0, 1.0, 0.0, 0.0), False, 0.0, "")
        best.ready_now = bool(state.waits) or state.shanten == 0
        best.end_now = ready if best.ready_now else unready
        return best

    def _outlook(
        self, cycles: int, d: int, q1: float, t: int, ws: float, wd: float, shape: str
    ) -> tuple[float, ...]:
        """:func:`outlook` with this decision's hazard profile and ``shape``'s typical
        rates: the same rounding, arithmetic and kept tables, each table found by shape
        here once a decision, where :func:`outlook` hashes the profile and the rates at
        every look-up."""
        rates = self._rates[shape]
        cycles = max(0, cycles)
        d = max(1, min(d, len(rates) + 2))
        q1 = _round200(q1)
        t = max(0, min(t, _MAX_T))
        ws = _round200(ws)
        wd = _round200(wd)
        diagonal = cycles + t
        key = (shape, ws, wd, diagonal)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _chain_table(self.profile, ws, wd, rates, diagonal)
        if cycles <= 0 or d == 1:
            _grown(table, self.profile, ws, wd, rates, diagonal, cycles, d)
            return table[cycles][d]
        _grown(table, self.profile, ws, wd, rates, diagonal, cycles - 1, d)
        return _first_cycle(self.hazards[t], table[cycles - 1], d, q1)

    def _may_pass(self, base_fan: int, declared: bool, has_kong: bool) -> bool:
        """Whether a hand of this pattern value may win on another seat's discard (通行证)."""
        return self.pricing.may_win_on_discard(base_fan, declared, has_kong)

    def _wd(self, live_waits: float, may_pass: bool) -> float:
        """Chance per cycle that another seat discards one of the waits."""
        if not may_pass or live_waits <= 0:
            return 0.0
        per = min(1.0, live_waits / self.unseen) * self.discard_hit
        return 1.0 - (1.0 - per) ** (self.players - 1)

    def _ready_rates(
        self, state: HandState, ctx: _Context, has_kong: bool
    ) -> tuple[float, float, float, float]:
        """(self-draw chance, discard-win chance, self-draw value, discard-win value) of a
        ready hand from its actual waits, each valued by the pattern table."""
        live = self.live
        total = passable = 0
        v_sd = v_dc = 0.0
        full = list(state.c)
        melds = state.melds
        one_wait = len(state.waits) == 1
        priced: dict[tuple[int, int, int], tuple[float, float, bool]] = {}
        key = (tuple(full), melds, one_wait, self.wild)
        wins = ctx.wins.get(key)
        if wins is None:
            wins = ctx.wins[key] = {}
        for t in state.waits:
            n = live[t]
            if n <= 0:
                continue
            got = wins.get(t)
            if got is None:
                full[t] += 1
                base = fsd = fdc = 0
                for shape in complete_shapes(tuple(full), melds, self.ruleset, self.wild):
                    if not self.highest:
                        shape = (*shape, ("one_wait", one_wait))
                    b, sd, dc = self._fans(shape, ctx)
                    if dc > fdc or (dc == fdc and b > base):
                        base, fsd, fdc = b, sd, dc
                full[t] -= 1
                got = wins[t] = (base, fsd, fdc)
                _Context.stored += 1
            paid = priced.get(got)
            if paid is None:  # (self-draw value, discard-win value, may win on a discard)
                base, fsd, fdc = got
                w_sd, w_dc = self.win_values(fsd, fdc, state.declared)
                paid = priced[got] = (w_sd, w_dc, self._may_pass(base, state.declared, has_kong))
            w_sd, w_dc, may_pass = paid
            total += n
            v_sd += n * w_sd
            if may_pass:
                passable += n
                v_dc += n * w_dc
        if total == 0:
            return 0.0, 0.0, 0.0, 0.0
        return (
            total / self.unseen,
            self._wd(passable, True),
            v_sd / total,
            v_dc / passable if passable else 0.0,
        )
