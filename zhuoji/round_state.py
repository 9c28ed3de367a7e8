"""The state of one round: what its phases read and change, and what anyone may ask of it.

A round (:class:`zhuoji.engine.Round`) is this state and the phases that change it, one module
each, with its legal actions and its apply: :mod:`zhuoji.round_deal` (the deal, 换三张 and 定缺),
:mod:`zhuoji.round_turn` (draw, discard, kongs, 报听, the self-draw win),
:mod:`zhuoji.round_claims` (the answers to a discard or to a kong that may be robbed: win >
kong/pung > chow) and :mod:`zhuoji.round_finish` (the end: the after-win reveal, settlement,
the result).  :mod:`zhuoji.round_checks` answers the questions several phases ask of a hand
(its waits, whether it may win on a tile, meld it, kong now).  :mod:`zhuoji.observation` reads
this state to show a seat its view; it never sees the engine.

The queries here (:meth:`RoundState.to_act`, :meth:`~RoundState.legal_actions`, …) are the
engine's public API, OpenSpiel style (``docs/event-log.md`` describes :attr:`RoundState.log`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.contract.ledger import Ledger
from zhuoji.events import EventLog
from zhuoji.hand import HandRules
from zhuoji.outcome import Declaration, Discard, Meld, MeldKind, RevealAt, RoundEnd, WinHow
from zhuoji.reveals import RevealTracker
from zhuoji.ruleset import Ruleset
from zhuoji.wall import Wall

_KONGS = (MeldKind.GANG_CONCEALED, MeldKind.GANG_EXPOSED, MeldKind.GANG_ADDED)


class Phase(StrEnum):
    EXCHANGE = "exchange"  # 换三张
    DINGQUE = "dingque"  # 定缺
    TURN = "turn"
    CLAIM = "claim"
    ROB = "rob"
    END = "end"


@dataclass(slots=True)
class SeatState:
    hand: list[int] = field(default_factory=lambda: [0] * T.NUM_KINDS)
    melds: list[Meld] = field(default_factory=list)
    declared: Declaration | None = None
    discards: int = 0
    draws: int = 0
    drawn: int = -1  # tile drawn this turn (-1 after a claim, or the dealer's first turn)
    passed_win: bool = False  # passed a win on a discard since the last draw (包牌)
    lock_tiles: set[int] = field(default_factory=set)  # 过水: tiles not to win on
    lock_all: bool = False
    kong_seen: dict[int, int] = field(default_factory=dict)  # kind → turn a kong was first possible
    turns: int = 0
    ever_ready: bool = False
    pungs: list[int] = field(default_factory=list)  # tiles of claimed pungs (added-kong checks)
    waits: frozenset[int] = frozenset()  # of the hand as it stands between own turns
    void_suit: int = -1  # 定缺: the suit declared void (0 万, 1 条, 2 筒), -1 for none
    given: list[int] = field(default_factory=list)  # 换三张: tiles picked to pass on
    received: list[int] = field(default_factory=list)  # 换三张: tiles passed to this seat
    # a lower bound on the shanten between turns: one turn (a draw or claim, then a
    # discard) lowers shanten by at most one, so a hand two or more away needs no check
    shanten_floor: int = 0
    kong_count: int = 0  # kong melds among ``melds`` (kept as they are made)
    flowers: int = 0  # flower tiles set aside face up (补花, ``tiles.flowers``)
    #: per kind, whether this seat may pung or kong it (定缺 ``meld_void``: set once the void
    #: suit is declared, by :meth:`zhuoji.variant.DingqueSection.may_meld`)
    may_meld: list[bool] = field(default_factory=lambda: [True] * T.NUM_KINDS)

    def has_kong(self) -> bool:
        return self.kong_count > 0


class RoundState:
    """One round's state, before the deal: the seats' empty hands, the log, the dice.  The
    deal (:func:`zhuoji.round_deal.deal`) builds the wall, picks the dealer and sets the
    attributes declared below."""

    # --- set by the deal ----------------------------------------------------------------
    wall: Wall
    dealer: int
    wild: int | None  # the round's wild kind, if the variant has one
    wild_indicator: int | None  # the revealed tile that names it (宝牌 indicator)
    rules: HandRules  # the hand analyser, with the round's wild kind
    shanten_floor_of: Callable[[Sequence[int]], int]  # rules.shanten_floor, as one callable
    reveal_tracker: RevealTracker | None  # 前后鸡, 滚筒鸡, 开局翻鸡 (deal.start_reveal)
    claimable_kinds: list[bool]  # per kind, whether a discard of it may be claimed (宝牌)

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        seed: int | None,
        dice: Sequence[tuple[int, int]] | None,
        streak: int,
        round_wind: int,
        weekday: int,
    ) -> None:
        v = ruleset.variant
        self.ruleset = ruleset
        self.players = n = v.tiles.players
        self.rng = random.Random(seed)
        self.log = EventLog()
        self.record = self.log.recorder()  # the log's own append: draws and actions
        self.actions = 0  # actions applied so far
        self.answers = 0  # window answers not public (see public_seq)
        self.seed = seed
        self.dice_queue = list(dice or [])  # dice given to the constructor, not rolled yet
        self.dice_rolled: list[tuple[int, int]] = []
        self.streak = streak
        self.round_wind = round_wind
        self.weekday = weekday

        self.seats = [SeatState() for _ in range(n)]
        self.others_of = [[(s + i) % n for i in range(1, n)] for s in range(n)]  # in turn order
        self.phase = Phase.TURN
        self.current = 0  # the seat whose turn it is (the dealer's, once dealt)
        self.discards: list[Discard] = []
        #: copies of each kind in every meld and among the discards left on the table (a
        #: claimed or won-on discard counts in its meld or not at all): what every seat sees
        #: besides its own hand, kept as melds and discards change (Observation.seen_counts)
        self.table_seen: list[int] = [0] * T.NUM_KINDS
        self.after_kong = False  # the current turn began with a kong's replacement
        self.kong_tile: int | None = None
        self.kong_meld: Meld | None = None  # the last kong made (热炮: its kind, 憨包)
        self.discard_repao = False  # the last discard deals a 热炮 (variant repao section)
        self.first_go_around = True  # no meld made yet (地和, seed 002 "第一圈")
        self.pending: dict[int, tuple[Action, ...]] = {}  # each seat's legal actions now
        self.responses: dict[int, Action] = {}  # answers given in a window
        self.claim_tile = -1  # the discard, or the kong tile, a window answers
        self.rob_seat = -1  # the seat whose kong may be robbed (rob window)
        self.rob_kind = MeldKind.GANG_ADDED  # the kind of that kong
        self.flags: dict[str, bool] = {}  # how the win came: gangkai, haidi, tianhu, …
        self.end: RoundEnd | None = None
        self.ledger: Ledger | None = None
        self.exchange_direction: str | None = None

        # the variant's rules the phases ask at every action, asked of their owners once (the
        # section models of zhuoji.variant, which the round-end checks ask too)
        q = v.dingque
        claims = v.claims
        self.void_first = q is not None and q.discard_void_first  # 定缺: void suit first
        self.must_win = frozenset(claims.must_win)  # 必胡: "repao", "rob_kong"
        self.wins_on_discard = claims.wins_by(WinHow.DISCARD)
        self.may_peng = claims.allows(MeldKind.PENG)
        self.may_exposed_kong = claims.allows(MeldKind.GANG_EXPOSED)
        self.may_concealed_kong = claims.allows(MeldKind.GANG_CONCEALED)
        self.may_added_kong = claims.allows(MeldKind.GANG_ADDED)
        #: the kong kinds another seat may rob (抢杠)
        self.robbable = frozenset(k for k in _KONGS if claims.may_rob(k))
        #: per seat, the seat whose discards it may chow (-1: none; 下家 takes from 上家)
        self.chows_from = [
            next((d for d in range(n) if claims.may_chow(s, d, n)), -1) for s in range(n)
        ]
        b = v.baoting
        #: what a declared (报听, frozen) hand may still meld
        self.frozen_may_peng = b is not None and b.may_meld(MeldKind.PENG)
        self.frozen_may_kong = b is not None and b.may_meld(MeldKind.GANG_CONCEALED)
        self.frozen_may_chow = b is not None and b.may_meld(MeldKind.CHI)
        self.start_phases = [
            phase
            for phase, on in ((Phase.EXCHANGE, v.exchange), (Phase.DINGQUE, q))
            if on is not None
        ]

        # the views' caches (zhuoji.observation.seat_view): one public part per state, and
        # the pond as last shown
        self.view_cache: tuple[tuple[int, int], dict[str, Any]] | None = None
        self.ponds_shown: tuple[list[Discard], list[dict[str, Any]]] = ([], [])

    # ------------------------------------------------------------------------------
    # the public queries
    # ------------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        """Seats that must act now."""
        if self.phase is Phase.END:
            return []
        if self.phase is Phase.TURN:
            return [self.current]
        return [s for s in sorted(self.pending) if s not in self.responses]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The seat's legal actions, sorted (an immutable sequence; empty when not to act)."""
        if self.phase is Phase.END or seat in self.responses:
            return ()
        return self.pending.get(seat, ())

    def is_terminal(self) -> bool:
        return self.phase is Phase.END

    def returns(self) -> list[int]:
        """Per-seat totals of the settlement (zeros before the end)."""
        return self.ledger.totals() if self.ledger else [0] * self.players

    def public_seq(self) -> int:
        """Events everyone may count: the log's length less the answers of claim and rob
        windows, except the answers that took effect (a claim, a win).  A seat that had no
        option in a window sees the count it would see had there been no window."""
        return len(self.log) - self.answers

    def open_reveals(self) -> list[int]:
        """Revealed tiles that make chickens now, in reveal order (前后鸡, 滚筒鸡, 开局翻鸡
        during play; with the after-win 翻鸡 once the round is over)."""
        if self.end is not None:
            return [r.tile for r in self.ruleset.variant.deal.counting(self.end.reveals)]
        tracker = self.reveal_tracker
        return tracker.counting() if tracker is not None else []

    def result_summary(self) -> dict[str, Any]:
        assert self.end is not None and self.ledger is not None
        e = self.end
        return {
            "wins": [{"seat": w.seat, "how": w.how.value, "from": w.source} for w in e.wins],
            "tile": T.format([e.win_tile]) if e.win_tile is not None else None,
            "draw": e.is_draw,
            "totals": self.ledger.totals(),
            "next_dealer": self.ledger.next_dealer,
            "next_streak": self.ledger.next_streak,
        }

    # ------------------------------------------------------------------------------
    # the log and the dice, as every phase uses them
    # ------------------------------------------------------------------------------

    def log_event(self, event: dict[str, Any]) -> None:
        self.log.add(event)

    def log_reveal(self, at: RevealAt, tile: int | None) -> None:
        """A reveal during play; ``tile`` None: its position was already drawn."""
        self.log_event(
            {
                "type": "reveal",
                "at": at.value,
                "tile": T.format([tile]) if tile is not None else None,
            }
        )

    def roll(self) -> tuple[int, int]:
        """Two dice: the next of those given to the constructor, else rolled."""
        d = (
            self.dice_queue.pop(0)
            if self.dice_queue
            else (self.rng.randint(1, 6), self.rng.randint(1, 6))
        )
        self.dice_rolled.append(d)
        if self.log:  # rolls before the round event are implied by its wall and dealer
            self.log_event({"type": "dice", "dice": list(d)})
        return d
