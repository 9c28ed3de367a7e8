"""The round engine: one generic state machine that plays a round under any variant.

OpenSpiel-style API: :meth:`Round.to_act` names the seats that must act now (several in a
claim window), :meth:`Round.legal_actions` lists a seat's actions (sorted, stable),
:meth:`Round.apply` changes the state or raises :class:`IllegalActionError` leaving it
untouched, :meth:`Round.observation` is what one seat may see.  Randomness (shuffle, dice)
comes from a seeded generator or an explicit wall and dice list, so a seed (or a wall) and
an action list reproduce a round exactly; :attr:`Round.log` records it (see
``docs/event-log.md``).

Phases: ``exchange`` and ``dingque`` at the start where the variant has them (换三张: every
seat picks the tiles it passes on; 定缺: every seat declares a void suit; both answered by
all seats at once, unseen by the others), ``turn`` (a seat holding 14 − 3k tiles discards,
kongs, declares or wins), ``claim`` (other seats answer a discard: win > kong/pung > chow),
``rob`` (others may rob an added kong), ``end``.  Deal: from the dealer round the table,
13 tiles each, then the dealer's 14th.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from itertools import compress
from typing import Any, Final

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind, make
from zhuoji.contract.ledger import Ledger
from zhuoji.errors import IllegalActionError, ZhuojiError
from zhuoji.events import DRAW, EventLog
from zhuoji.observation import Observation
from zhuoji.outcome import (
    Declaration,
    Discard,
    Meld,
    MeldKind,
    Reveal,
    RevealAt,
    RoundEnd,
    SeatEnd,
    Win,
    WinHow,
)
from zhuoji.reveals import RevealTracker
from zhuoji.rules.screen import pattern_fan
from zhuoji.rules.win import WinCheck, void_suit_clear
from zhuoji.ruleset import Ruleset
from zhuoji.settle import settle
from zhuoji.wall import Wall


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
    kongs: int = 0  # kong melds among ``melds`` (kept as they are made)

    def has_kong(self) -> bool:
        return self.kongs > 0


class Round:
    """One round.  Build with a ``seed`` (shuffled wall, dice) or a stacked ``wall`` (draw
    order) and optional ``dice`` (pairs consumed in order)."""

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        seed: int | None = None,
        wall: Sequence[int] | str | None = None,
        dealer: int | None = None,
        streak: int = 0,
        dice: Sequence[tuple[int, int]] | None = None,
        round_wind: int = 0,
        weekday: int = 1,
    ) -> None:
        v = ruleset.variant
        self.ruleset = ruleset
        self.players = n = v.tiles.players
        self.rng = random.Random(seed)
        self.log = EventLog()
        self._record = self.log.recorder()
        self.actions = 0  # actions applied so far
        self.answers = 0  # window answers not public (see public_seq)
        self._public_cache: tuple[tuple[int, int], dict[str, Any]] | None = None
        self._discards_shown: tuple[list[Discard], list[dict[str, Any]]] = ([], [])
        self.seed = seed
        self._dice_queue = list(dice or [])
        self.dice_rolled: list[tuple[int, int]] = []
        self.streak = streak
        self.round_wind = round_wind
        self.weekday = weekday

        if wall is None:
            # sorting by independent uniform keys is a uniform shuffle, and runs in C
            ordered = T.wall(v.tiles.set)
            rnd = self.rng.random
            keys = [rnd() for _ in ordered]
            tiles = [ordered[i] for i in sorted(range(len(ordered)), key=keys.__getitem__)]
            stacked = False
        else:
            tiles = T.parse(wall) if isinstance(wall, str) else list(wall)
            _check_wall(tiles, v.tiles.set)
            stacked = True

        if dealer is None:
            if v.deal.first_dealer == "dice":
                a, b = self._roll()
                dealer = (a + b - 1) % n  # seed 000 4): counted from the roller (seat 0)
            elif v.deal.first_dealer == "random":
                dealer = self.rng.randrange(n)
            else:
                dealer = 0
        if not 0 <= dealer < n:
            raise ZhuojiError(f"dealer {dealer} is out of range 0-{n - 1}")
        if not 1 <= weekday <= 7:
            raise ZhuojiError(f"weekday {weekday} is out of range 1-7 (Monday 1 … Sunday 7)")
        self.dealer = dealer
        if not stacked and v.deal.wall_break == "dice":
            a, b = self._roll()
            cut = (2 * (a + b) * (min(a, b) + 1)) % len(tiles)  # the shuffle already randomizes
            tiles = tiles[cut:] + tiles[:cut]
        self.wall = Wall(tiles)
        self.log.add(
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

        self.seats = [SeatState() for _ in range(n)]
        self._others_of = [[(s + i) % n for i in range(1, n)] for s in range(n)]
        self._chi = v.claims.chi
        size = v.tiles.hand_size
        need = size * n + 1
        if len(tiles) < need:
            raise ZhuojiError(f"the wall holds {len(tiles)} tiles; the deal needs {need}")
        for i in range(n):
            hand = self.seats[(dealer + i) % n].hand
            for t in self.wall.deal(size):
                hand[t] = hand[t] + 1
        last = self.wall.draw_head()
        self.seats[dealer].hand[last] += 1
        self.seats[dealer].drawn = last  # the dealer's 14th tile stands for a drawn one (天和)

        self.wild_indicator: int | None = None
        # (assigned from a call, not narrowed to None: the compiled build checks the type)
        self.wild: int | None = self._reveal_wild() if v.wild is not None else None
        self.rules = ruleset.hand_rules(self.wild)
        self._shanten_floor = self.rules.shanten_floor_function()
        for st in self.seats:
            self._update_waits(st)
        dealt = [tuple(st.hand) for st in self.seats]
        self.log.add(lambda: {"type": "deal", "hands": [T.format_counts(h) for h in dealt]})
        self._reveals: RevealTracker | None = None
        if v.deal.start_reveal is not None:
            self._reveals = RevealTracker(v.deal.start_reveal, self.wall)
            self._log_reveal(RevealAt.START, self._reveals.start())

        self.phase = Phase.TURN
        self.current = dealer
        self.discards: list[Discard] = []
        #: copies of each kind in every meld and among the discards left on the table (a
        #: claimed or won-on discard counts in its meld or not at all): what every seat sees
        #: besides its own hand, kept as melds and discards change (Observation.seen_counts)
        self.table_seen: list[int] = [0] * T.NUM_KINDS
        self.after_kong = False  # the current turn began with a kong's replacement
        self.kong_tile: int | None = None
        self.kong_meld: Meld | None = None  # the last kong made (热炮: its kind, 憨包)
        self.discard_repao = False  # the last discard deals a 热炮 (variant repao section)
        self._must_win = frozenset(v.claims.must_win)  # 必胡: "repao", "rob_kong"
        self.first_go_around = True  # no meld made yet (地和, seed 002 "第一圈")
        self.pending: dict[int, tuple[Action, ...]] = {}
        self.responses: dict[int, Action] = {}
        self.claim_tile = -1
        self.rob_seat = -1
        self.result_wins: list[Win] = []
        self.flags: dict[str, bool] = {}
        self.end: RoundEnd | None = None
        self.ledger: Ledger | None = None
        self.exchange_direction: str | None = None
        q = v.dingque
        self._meld_void = q is None or q.meld_void
        self._void_first = q is not None and q.discard_void_first
        self._start_phases = [
            phase
            for phase, on in ((Phase.EXCHANGE, v.exchange), (Phase.DINGQUE, q))
            if on is not None
        ]
        self._next_start_phase()

    # ------------------------------------------------------------------------------
    # public API
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

    def apply(self, action: Action) -> None:
        """Apply one action; an illegal one raises and changes nothing."""
        if type(action) is not Action:
            raise IllegalActionError(
                f"not an action: {action!r} (use Action.parse or legal_actions)"
            )
        seat, kind, tile, declare = action
        phase = self.phase
        legal = self.pending.get(seat)
        if phase is Phase.END:
            raise IllegalActionError(f"action {action} refused: the round is over")
        if legal is None or seat in self.responses:
            raise IllegalActionError(
                f"action {action} refused: seat {seat} is not to act now (phase {phase.value})"
            )
        if not _listed(action, legal):
            shown = ", ".join(str(a) for a in legal[:12]) + (" …" if len(legal) > 12 else "")
            raise IllegalActionError(
                f"action {action} is not legal for seat {seat} in phase {phase.value}; legal: {shown}"
            )
        self._record(action)
        self.actions += 1
        if phase is Phase.TURN:
            if kind is ActionKind.DISCARD:
                self._discard(seat, tile, declare)
            else:
                self._apply_turn(action)
            return
        if phase is Phase.EXCHANGE:
            self._exchange_pick(action)
            return
        answered = self.responses
        answered[seat] = action
        self.answers += 1
        self._note_response(action)
        if len(answered) == len(self.pending):
            if phase is Phase.CLAIM:
                self._resolve_claims()
            elif phase is Phase.ROB:
                self._resolve_rob()
            else:
                self._resolve_dingque()
            self.answers -= self._answers_taken(phase, answered)

    def public_seq(self) -> int:
        """Events everyone may count: the log's length less the answers of claim and rob
        windows, except the answers that took effect (a claim, a win).  A seat that had no
        option in a window sees the count it would see had there been no window."""
        return len(self.log) - self.answers

    def _answers_taken(self, phase: Phase, answered: dict[int, Action]) -> int:
        """How many of a resolved window's answers became public (claimed or won)."""
        if self.end is not None:
            winners = {w.seat for w in self.end.wins}
            return sum(1 for s in answered if s in winners)
        if phase is Phase.CLAIM and self.discards[-1].claimed_by is not None:
            return 1
        return 0

    def observe(self, seat: int) -> Observation:
        return Observation(self, seat)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, every meld and discard, counts; never another
        seat's concealed tiles or the wall order."""
        me = self.seats[seat]
        public = self._public_view()
        # in a claim window, who else may claim is not public: only one's own turn shows
        to_act = public["to_act"]
        if self.phase is not Phase.TURN:
            to_act = [seat] if seat in to_act else []
        void_suits = public["void_suits"]
        if self.phase is Phase.DINGQUE and seat in self.responses:  # its own pick, unseen
            void_suits = list(void_suits)
            void_suits[seat] = T.SUIT_LETTERS[self.responses[seat].tile]
        melds = public["melds"]
        if public["hidden_melds"]:  # one's own concealed kongs show their tiles to oneself
            melds = list(melds)
            melds[seat] = public["own_melds"][seat]
        return {
            "seat": seat,
            "phase": public["phase"],
            "to_act": to_act,
            "dealer": self.dealer,
            "streak": self.streak,
            "hand": _hand_text(tuple(me.hand)),
            "drawn": T.TILE_TEXT[me.drawn] if me.drawn >= 0 else None,
            "melds": melds,
            "discards": public["discards"],
            "declared": public["declared"],
            # 定缺: another seat's void suit shows once every seat has chosen
            "void_suits": void_suits,
            "exchange": {
                "given": T.format(me.given),
                "received": T.format(me.received),
                "direction": self.exchange_direction,
            }
            if self.ruleset.variant.exchange is not None
            else None,
            "concealed_counts": public["concealed_counts"],
            "wall": public["wall"],
            "wild": public["wild"],
            "wild_indicator": public["wild_indicator"],
            "claim_tile": public["claim_tile"],
            "claim_from": public["claim_from"],
            "legal_actions": [_action_text(a) for a in self.legal_actions(seat)],
            "reveal": public["reveal"],
            "reveals": public["reveals"],
            "result": public["result"],
        }

    def _public_view(self) -> dict[str, Any]:
        """The parts of every seat's observation that are the same for all, built once per
        state (a server sends every seat its view after each change).  Shared lists: read
        them, never change them."""
        key = (len(self.log), self.answers)
        cached = self._public_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        text = T.TILE_TEXT
        window = self.phase in (Phase.CLAIM, Phase.ROB)
        melds = [[_meld_text(m, not self.end) for m in st.melds] for st in self.seats]
        own_melds = [[_meld_text(m, False) for m in st.melds] for st in self.seats]
        public = {
            "phase": self.phase.value,
            "to_act": self.to_act(),
            "melds": melds,
            "own_melds": own_melds,
            "hidden_melds": melds != own_melds,
            "discards": self._discard_texts(),
            "declared": [s.declared.value if s.declared else None for s in self.seats],
            # 定缺: a seat's void suit is set for everyone once every seat has chosen
            "void_suits": [
                T.SUIT_LETTERS[s.void_suit] if s.void_suit >= 0 else None for s in self.seats
            ],
            "concealed_counts": [sum(s.hand) for s in self.seats],
            "wall": self.wall.live(),
            "wild": text[self.wild] if self.wild is not None else None,
            "wild_indicator": text[self.wild_indicator]
            if self.wild_indicator is not None
            else None,
            "claim_tile": text[self.claim_tile] if window else None,
            "claim_from": self.observe(0).claim_source if window else None,
            "reveal": text[self.end.reveal] if self.end and self.end.reveal is not None else None,
            "reveals": [text[t] for t in self.open_reveals()],
            "result": self.result_summary() if self.end else None,
        }
        self._public_cache = (key, public)
        return public

    def _discard_texts(self) -> list[dict[str, Any]]:
        """The ponds as the views show them.  The entries of the last list built are reused
        for the discards that have not changed since: discards are only appended, and only
        the latest one can change (when it is claimed), so all but the latest are kept when
        the one before it is still the same object."""
        ds = self.discards
        n = len(ds)
        src, shown = self._discards_shown
        keep = n - 1 if len(src) in (n - 1, n) and n >= 2 and src[n - 2] is ds[n - 2] else 0
        text = T.TILE_TEXT
        out = shown[:keep] + [
            {"seat": d.seat, "tile": text[d.tile], "claimed_by": d.claimed_by} for d in ds[keep:]
        ]
        self._discards_shown = (ds[:], out)
        return out

    def open_reveals(self) -> list[int]:
        """Revealed tiles that make chickens now, in reveal order (前后鸡, 滚筒鸡, 开局翻鸡
        during play; with the after-win 翻鸡 once the round is over)."""
        if self.end is not None:
            return [r.tile for r in self.ruleset.variant.deal.counting(self.end.reveals)]
        return self._reveals.counting() if self._reveals is not None else []

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
    # randomness and the wall
    # ------------------------------------------------------------------------------

    def _roll(self) -> tuple[int, int]:
        d = (
            self._dice_queue.pop(0)
            if self._dice_queue
            else (self.rng.randint(1, 6), self.rng.randint(1, 6))
        )
        self.dice_rolled.append(d)
        if self.log:  # rolls before the round event are implied by its wall and dealer
            self._log({"type": "dice", "dice": list(d)})
        return d

    def _reveal_wild(self) -> int:
        """The round's wild kind, revealed (its indicator kept in ``wild_indicator``)."""
        w = self.ruleset.variant.wild
        assert w is not None
        if w.fixed_kind is not None:  # a fixed wild (红中癞子): nothing is revealed
            self._log({"type": "wild", "wild": T.format([w.fixed_kind])})
            return w.fixed_kind
        if w.indicator == "head":
            self.wild_indicator = self.wall.draw_head()
        else:
            if w.indicator == "tail_dice":
                a, b = self._roll()
                pos = self.wall.position_from_end(a + b)
            else:
                pos = None
            if pos is None:
                pos = max(i for i in range(len(self.wall.tiles)) if not self.wall.taken[i])
            self.wild_indicator = self.wall.tiles[pos]
            if w.live_wall_ends_at_indicator:
                self.wall.stop = pos
            else:
                self.wall.taken[pos] = True
                self.wall._left -= 1
        indicator = self.wild_indicator
        wild = T.next_in_cycle(indicator)
        self._log(
            {
                "type": "wild",
                "indicator": T.format([indicator]),
                "wild": T.format([wild]),
            }
        )
        return wild

    def _replacement(self) -> int:
        how = self.ruleset.variant.deal.replacement
        if how == "head":
            return self.wall.draw_head()
        if how == "tail_dice":
            a, b = self._roll()
            return self.wall.draw_at_from_end(a + b)
        return self.wall.draw_tail()

    def _log(self, event: dict[str, Any]) -> None:
        self.log.add(event)

    def _log_reveal(self, at: RevealAt, tile: int | None) -> None:
        """A reveal during play; ``tile`` None: its position was already drawn."""
        self._log(
            {
                "type": "reveal",
                "at": at.value,
                "tile": T.format([tile]) if tile is not None else None,
            }
        )

    def _kong_reveal(self) -> None:
        """前后鸡 / 滚筒鸡: a completed kong moves or adds a reveal."""
        if self._reveals is not None and self._reveals.moves_at_kong:
            self._log_reveal(RevealAt.KONG, self._reveals.on_kong())

    # ------------------------------------------------------------------------------
    # the start of the round: 换三张, then 定缺 (CITIES.md 捉鸡 with 定缺)
    # ------------------------------------------------------------------------------

    def _next_start_phase(self) -> None:
        """Open the next start-of-round phase, or the dealer's first turn."""
        if not self._start_phases:
            self._start_turn(self.current)
            return
        phase = self.phase = self._start_phases.pop(0)
        self.responses = {}
        if phase is Phase.EXCHANGE:
            self.pending = {s: self._exchange_options(s) for s in range(self.players)}
        else:
            self.pending = {
                s: (
                    make(s, ActionKind.QUE, 0),
                    make(s, ActionKind.QUE, 1),
                    make(s, ActionKind.QUE, 2),
                )
                for s in range(self.players)
            }

    def _exchange_options(self, seat: int) -> tuple[Action, ...]:
        """The tiles ``seat`` may pick next: any held, or with ``same_suit`` those of a suit
        (honors one group) holding enough, then only that suit's."""
        x = self.ruleset.variant.exchange
        assert x is not None
        st = self.seats[seat]
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

    def _exchange_pick(self, action: Action) -> None:
        x = self.ruleset.variant.exchange
        assert x is not None
        st = self.seats[action.seat]
        st.hand[action.tile] = st.hand[action.tile] - 1
        st.given.append(action.tile)
        if len(st.given) < x.tiles:
            self.pending[action.seat] = self._exchange_options(action.seat)
            return
        del self.pending[action.seat]
        if not self.pending:
            self._exchange()

    def _exchange(self) -> None:
        """Every seat has picked: pass the tiles on (the direction drawn now, when random)."""
        x = self.ruleset.variant.exchange
        assert x is not None
        n = self.players
        direction: str = x.direction
        if direction == "random":
            ways = _EXCHANGE_WAYS[n]
            a, b = self._roll() if len(ways) > 1 else (0, 0)
            direction = ways[(a + b) % len(ways)]
        self.exchange_direction = direction
        step = {"next": 1, "opposite": 2, "previous": n - 1}[direction]
        for s, st in enumerate(self.seats):
            to = self.seats[(s + step) % n]
            to.received = list(st.given)
            for t in st.given:
                to.hand[t] = to.hand[t] + 1
        self._log({"type": "exchange", "direction": direction})
        dealer = self.seats[self.dealer]
        if dealer.drawn >= 0 and not dealer.hand[dealer.drawn]:
            dealer.drawn = dealer.received[-1]  # the 14th tile went away: a received one stands
        self._refresh_waits()
        self._next_start_phase()

    def _resolve_dingque(self) -> None:
        for seat, action in self.responses.items():
            self.seats[seat].void_suit = action.tile
        self.responses = {}
        self._refresh_waits()
        self._next_start_phase()

    def _refresh_waits(self) -> None:
        for st in self.seats:
            st.shanten_floor = 0
            self._update_waits(st)

    def _void_waits(self, st: SeatState, waits: list[int]) -> list[int]:
        """定缺: a hand holding its void suit cannot win, so waits on nothing; nor can a
        wait of the void suit complete it (GA Table_GY_TWO; the FW server skips such waits)."""
        b = 9 * st.void_suit
        if any(st.hand[b : b + 9]) or any(T.suit_of(m.tile) == st.void_suit for m in st.melds):
            return []
        return [w for w in waits if T.suit_of(w) != st.void_suit]

    def _meldable(self, st: SeatState, tile: int) -> bool:
        """定缺 ``meld_void``: whether ``st`` may pung or kong ``tile``."""
        return self._meld_void or st.void_suit < 0 or T.suit_of(tile) != st.void_suit

    # ------------------------------------------------------------------------------
    # turns
    # ------------------------------------------------------------------------------

    def _draw(self, seat: int, *, replacement: bool = False) -> None:
        st = self.seats[seat]
        tile = self._replacement() if replacement else self.wall.draw_head()
        st.hand[tile] = st.hand[tile] + 1
        st.drawn = tile
        st.draws += 1
        st.passed_win = False
        if st.lock_tiles:
            st.lock_tiles.clear()
        st.lock_all = False
        self._record((DRAW, seat, tile, replacement))
        self.current = seat
        self.after_kong = replacement
        self._start_turn(seat)

    def _can_kong_now(self) -> bool:
        return self.wall.live() > 0 or self.ruleset.variant.claims.last_tile_kong

    def _start_turn(self, seat: int) -> None:
        st = self.seats[seat]
        st.turns += 1
        self.phase = Phase.TURN
        if self.responses:
            self.responses = {}
        hand = st.hand
        tile = st.drawn
        extra: list[Action] = []
        # a plain draw completes the hand exactly when it is one of the waits kept since the
        # last discard; after a kong or on the dealer's first turn, it is checked afresh
        complete = tile >= 0 and (
            (tile in st.waits) if (st.draws and not self.after_kong) else self.rules.is_win(hand)
        )
        if complete and self._may_win(self._check(seat, tile, WinHow.SELF_DRAW, None)):
            extra.append(make(seat, ActionKind.HU, tile))
        if _holds_four(hand) or (st.pungs and any(map(hand.__getitem__, st.pungs))):
            self._kong_options(seat, st, extra)
        discards: Sequence[Action]
        if st.declared is not None and tile >= 0:
            discards = (make(seat, ActionKind.DISCARD, tile),)  # a frozen hand discards its draw
        else:
            discards = self._discards(seat)
        # discards (kind 0) sort first; then kongs and the win, in kind order
        self.pending = {seat: (*discards, *sorted(extra)) if extra else tuple(discards)}

    def _kong_options(self, seat: int, st: SeatState, out: list[Action]) -> None:
        """Concealed and added kongs possible now; records when each first became possible
        (a kong declared on a later turn is 憨包, seed 001 豆 4, seed 004 (6)(7))."""
        v = self.ruleset.variant
        hand = st.hand
        kongs = v.claims.kongs
        concealed = (
            [
                k
                for k in range(T.NUM_KINDS)
                if hand[k] == 4 and k != self.wild and self._meldable(st, k)
            ]
            if kongs.concealed
            else []
        )
        added = (
            [m.tile for m in st.melds if m.kind is MeldKind.PENG and hand[m.tile] >= 1]
            if kongs.added
            else []
        )
        if not concealed and not added:
            return
        for k in concealed + added:
            st.kong_seen.setdefault(k, st.turns)
        frozen = st.declared is not None
        if not self._can_kong_now() or (frozen and (v.baoting is None or not v.baoting.allow_kong)):
            return
        for k in concealed:
            if not frozen or self._kong_keeps_waits(st, k, 4):
                out.append(make(seat, ActionKind.GANG_CONCEALED, k))
        for k in added:
            if not frozen or self._kong_keeps_waits(st, k, 1):
                out.append(make(seat, ActionKind.GANG_ADDED, k))

    def _discards(self, seat: int) -> Sequence[Action]:
        st = self.seats[seat]
        hand = st.hand
        void = 9 * st.void_suit if self._void_first and st.void_suit >= 0 else -1
        if void >= 0 and any(hand[void : void + 9]):  # 定缺 discard_void_first
            out = [a for a in compress(_DISCARDS[seat], hand) if void <= a.tile < void + 9]
        elif self.wild is None and st.discards:  # the common case: every kind held, nothing else
            return _held_kinds(_DISCARDS[seat], hand)
        else:
            out = list(compress(_DISCARDS[seat], hand))  # one action per kind held
        wild = self.wild
        if wild is not None and hand[wild]:
            rule = self.ruleset.variant.wild
            if rule is not None and not (
                rule.discard == "any" or (rule.discard == "first_only" and st.discards == 0)
            ):
                out = [a for a in out if a.tile != wild] or out  # only wilds left: one must go
        if st.discards == 0 and self._may_declare(seat) and self.rules.shanten(hand) <= 0:
            for k in [a.tile for a in out]:
                hand[k] = hand[k] - 1
                waits = self.rules.waits(hand)
                if st.void_suit >= 0 and waits:
                    waits = self._void_waits(st, waits)  # 定缺: a hand that cannot win is not ready
                if waits:
                    out.append(make(seat, ActionKind.DISCARD, k, True))
                hand[k] = hand[k] + 1
            out.sort()
        return out

    def _may_declare(self, seat: int) -> bool:
        b = self.ruleset.variant.baoting
        st = self.seats[seat]
        if b is None or st.declared is not None or st.discards or st.melds:
            return False
        return b.hard if seat == self.dealer else (b.soft and st.draws == 1)

    def _kong_keeps_waits(self, st: SeatState, k: int, tiles: int) -> bool:
        """A declared (frozen) hand may kong only if its waits stay the same."""
        before = list(st.hand)
        if st.drawn >= 0:
            before[st.drawn] = before[st.drawn] - 1
        after = list(st.hand)
        after[k] = after[k] - tiles
        return self.rules.waits(before) == self.rules.waits(after)

    def _apply_turn(self, action: Action) -> None:
        seat = action.seat
        st = self.seats[seat]
        kind = action.kind
        if kind is ActionKind.DISCARD:
            self._discard(seat, action.tile, action.declare)
        elif kind is ActionKind.HU:
            self.flags["gangkai"] = self.after_kong
            # 海底捞月: a self-draw of the last tile (seed 002 八 "结果一张牌自摸")
            self.flags["haidi"] = self.wall.live() == 0 and not self.after_kong
            untouched = self.first_go_around and st.discards == 0
            self.flags["tianhu"] = seat == self.dealer and untouched and st.draws == 0
            self.flags["dihu"] = seat != self.dealer and untouched and st.draws == 1
            self._finish([Win(seat, WinHow.SELF_DRAW, None, False)], action.tile)
        elif kind is ActionKind.GANG_CONCEALED:
            late = st.kong_seen.get(action.tile, st.turns) < st.turns
            st.hand[action.tile] = st.hand[action.tile] - 4
            st.melds.append(Meld(MeldKind.GANG_CONCEALED, action.tile, None, None, late))
            self.table_seen[action.tile] = self.table_seen[action.tile] + 4
            st.kongs += 1
            self.first_go_around = False
            self._after_kong_declared(seat, action.tile, MeldKind.GANG_CONCEALED)
        elif kind is ActionKind.GANG_ADDED:
            st.hand[action.tile] = st.hand[action.tile] - 1
            self.first_go_around = False
            self._after_kong_declared(seat, action.tile, MeldKind.GANG_ADDED)

    def _after_kong_declared(self, seat: int, tile: int, kind: MeldKind) -> None:
        """Open a rob window where the kong kind may be robbed, else complete the kong."""
        # a kong brings an extra draw, so the one-step shanten bound no longer holds
        self.seats[seat].shanten_floor = 0
        robbable = (
            "added" if kind is MeldKind.GANG_ADDED else "concealed"
        ) in self.ruleset.variant.claims.rob_kong
        if robbable:
            options: dict[int, tuple[Action, ...]] = {}
            must_win = "rob_kong" in self._must_win  # 必胡: the win is the only answer
            for o in self._others(seat):
                if self._can_win_on(o, tile, WinHow.ROB_KONG, seat):
                    hu = make(o, ActionKind.HU, tile)
                    options[o] = (hu,) if must_win else (hu, make(o, ActionKind.PASS))
            if options:
                self.phase = Phase.ROB
                self.pending = options
                self.responses = {}
                self.claim_tile = tile
                self.rob_seat = seat
                self.rob_kind = kind
                return
        self._complete_kong(seat, tile, kind)

    def _complete_kong(self, seat: int, tile: int, kind: MeldKind) -> None:
        st = self.seats[seat]
        if kind is MeldKind.GANG_ADDED:
            i = next(
                i for i, m in enumerate(st.melds) if m.kind is MeldKind.PENG and m.tile == tile
            )
            late = st.kong_seen.get(tile, st.turns) < st.turns
            old = st.melds[i]
            st.melds[i] = Meld(MeldKind.GANG_ADDED, tile, old.source, None, late)
            self.table_seen[tile] = self.table_seen[tile] + 1
            st.kongs += 1
            st.pungs.remove(tile)
        self.kong_tile = tile
        self.kong_meld = next(m for m in st.melds if m.tile == tile and m.kind is kind)
        self._kong_reveal()
        if self.wall.live() == 0:
            self._finish([], None)  # no replacement left: the round is drawn
            return
        self._draw(seat, replacement=True)

    def _discard(self, seat: int, tile: int, declare: bool) -> None:
        st = self.seats[seat]
        st.hand[tile] = st.hand[tile] - 1
        st.discards += 1
        # discarding the tile just drawn (no kong this turn) leaves the hand as it was at the
        # last discard: its waits and shanten floor still hold
        unchanged = tile == st.drawn and st.draws and not self.after_kong and not declare
        st.drawn = -1
        if declare:
            st.declared = Declaration.HARD if seat == self.dealer else Declaration.SOFT
        if not unchanged:
            if st.shanten_floor >= 2:  # the common case of _update_waits, inline
                st.shanten_floor -= 1
            else:
                self._update_waits(st)
        # tuple.__new__ builds the named tuple in C (Discard's own __new__ is Python code)
        self.discards.append(
            _new_tuple(Discard, (seat, tile, None, None, self.after_kong, declare))
        )
        self.table_seen[tile] = self.table_seen[tile] + 1
        # 热炮 needs a kong: this turn's, or one held (the common case, no kong, is decided
        # without calling the variant's rule)
        repao = self.discard_repao = bool(st.kongs or self.after_kong) and (
            self.ruleset.variant.repao.applies(
                st.melds, after_kong=self.after_kong, kong=self.kong_meld
            )
        )
        must_win = repao and "repao" in self._must_win  # 必胡: the win is the only answer
        self.claim_tile = tile
        options: dict[int, tuple[Action, ...]] = {}
        chi_seat = (seat + 1) % self.players if self._chi else -1
        seats = self.seats
        for o in self._others_of[seat]:
            other = seats[o]
            if other.hand[tile] < 2 and tile not in other.waits and o != chi_seat:
                continue  # nothing to claim (the common case, decided cheaply)
            acts = self._claims_on(o, tile, seat)
            if acts:
                if must_win and acts[0].kind is ActionKind.HU:
                    options[o] = (acts[0],)
                    continue
                acts.append(make(o, ActionKind.PASS))
                options[o] = tuple(acts)
        if options:
            self.phase = Phase.CLAIM
            self.pending = options
            self.responses = {}
        elif self.wall.live():
            self._draw((seat + 1) % self.players)
        else:
            self._finish([], None)

    def _update_waits(self, st: SeatState) -> None:
        """Waits of a hand between turns; claims on discards only test membership."""
        if st.shanten_floor >= 2:
            st.shanten_floor -= 1
            st.waits = _NO_WAITS
            return
        st.shanten_floor = self._shanten_floor(st.hand)
        if st.shanten_floor <= 0:
            waits = self.rules.waits(st.hand)
            if st.void_suit >= 0 and waits:
                waits = self._void_waits(st, waits)
            st.waits = frozenset(waits)
            st.ever_ready = st.ever_ready or bool(st.waits)
        else:
            st.waits = _NO_WAITS

    def _next_draw(self, after: int) -> None:
        if self.wall.live() == 0:
            self._finish([], None)
            return
        self._draw((after + 1) % self.players)

    # ------------------------------------------------------------------------------
    # claims
    # ------------------------------------------------------------------------------

    def _others(self, seat: int) -> list[int]:
        return self._others_of[seat]

    def _claims_on(self, seat: int, tile: int, discarder: int) -> list[Action]:
        v = self.ruleset.variant
        st = self.seats[seat]
        hand = st.hand
        acts: list[Action] = []
        if v.claims.win_on_discard and self._can_win_on(seat, tile, WinHow.DISCARD, discarder):
            acts.append(make(seat, ActionKind.HU, tile))
        frozen = st.declared is not None
        b = v.baoting
        claimable = (tile != self.wild or (v.wild is not None and v.wild.claimable)) and (
            self._meldable(st, tile)
        )
        if (
            claimable
            and hand[tile] >= 2
            and v.claims.peng
            and (not frozen or (b is not None and b.allow_peng))
        ):
            acts.append(make(seat, ActionKind.PENG, tile))
        if (
            claimable
            and hand[tile] == 3
            and v.claims.kongs.exposed
            and self._can_kong_now()
            # a declared hand may kong only if its waits stay the same (baoting.allow_kong)
            and (
                not frozen
                or (b is not None and b.allow_kong and self._kong_keeps_waits(st, tile, 3))
            )
        ):
            acts.append(make(seat, ActionKind.GANG_EXPOSED, tile))
        if v.claims.chi and not frozen and seat == (discarder + 1) % self.players and tile < 27:
            r = tile % 9
            for first in (tile - 2, tile - 1, tile):
                fr = first - (tile - r)
                if fr < 0 or fr > 6:
                    continue
                need = [t for t in (first, first + 1, first + 2) if t != tile]
                if all(hand[t] and t != self.wild for t in need) and claimable:
                    acts.append(make(seat, ActionKind.CHI, first))
        return acts

    def _check(self, seat: int, tile: int, how: WinHow, source: int | None) -> WinCheck:
        st = self.seats[seat]
        src = self.seats[source] if source is not None else None
        counts = list(st.hand)
        if how is not WinHow.SELF_DRAW:
            counts[tile] = counts[tile] + 1

        def base_fan() -> int:  # the table's value, read as the bots read it (rules.screen)
            return pattern_fan(
                self.ruleset, self.rules, counts, tuple(st.melds), tile, dealer=seat == self.dealer
            )

        repao = how is WinHow.DISCARD and self.discard_repao
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

    def _may_win(self, check: WinCheck) -> bool:
        if check.void_suit is not None and not void_suit_clear(check):
            return False  # 定缺: no win holding the void suit
        return all(h(check) for h in self.ruleset.may_win)

    def _can_win_on(self, seat: int, tile: int, how: WinHow, source: int) -> bool:
        st = self.seats[seat]
        if tile not in st.waits or st.lock_all or tile in st.lock_tiles:
            return False
        return self._may_win(self._check(seat, tile, how, source))

    def _note_response(self, action: Action) -> None:
        """Passing a possible win: 包牌 fact and the pass lock (过水)."""
        had_win = any(a.kind is ActionKind.HU for a in self.pending[action.seat])
        if had_win and action.kind is not ActionKind.HU:
            st = self.seats[action.seat]
            st.passed_win = True
            lock = self.ruleset.variant.claims.pass_lock
            if lock == "same_tile":
                st.lock_tiles.add(self.claim_tile)
            elif lock == "any_tile":
                st.lock_all = True

    def _winners_in_order(self, source: int, seats: list[int]) -> list[int]:
        order = self._others(source)
        chosen = [s for s in order if s in seats]
        if not self.ruleset.variant.claims.multiple_winners:
            chosen = chosen[:1]
        return chosen

    def _resolve_claims(self) -> None:
        d = self.discards[-1]
        tile = d.tile
        by_kind: dict[ActionKind, list[Action]] = {}
        for a in self.responses.values():
            by_kind.setdefault(a.kind, []).append(a)
        if ActionKind.HU in by_kind:
            seats = self._winners_in_order(d.seat, [a.seat for a in by_kind[ActionKind.HU]])
            self.flags["repao"] = self.discard_repao
            self.flags["renhu"] = (
                d.seat == self.dealer and len(self.discards) == 1 and self.first_go_around
            )
            wins = [Win(s, WinHow.DISCARD, d.seat, self.seats[s].passed_win) for s in seats]
            self.discards[-1] = _new_tuple(  # d._replace in C
                Discard, (d.seat, d.tile, seats[0], d.claim, d.after_kong, d.declared)
            )
            self.table_seen[tile] = self.table_seen[tile] - 1  # won on: no longer on the table
            self._finish(wins, tile)
            return
        for kind in (ActionKind.GANG_EXPOSED, ActionKind.PENG, ActionKind.CHI):
            if kind in by_kind:
                a = by_kind[kind][0]
                self._claim(a, d)
                return
        self._next_draw(d.seat)

    def _claim(self, a: Action, d: Discard) -> None:
        st = self.seats[a.seat]
        self.first_go_around = False
        st.lock_tiles.clear()
        st.lock_all = False
        kind = _CLAIM_MELD[a.kind]
        self.discards[-1] = _new_tuple(  # d._replace in C
            Discard, (d.seat, d.tile, a.seat, kind, d.after_kong, d.declared)
        )
        seen = self.table_seen  # the discard itself is already counted: now in the meld
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
            st.kongs += 1
            st.shanten_floor = 0  # the replacement is an extra draw this turn
            self.kong_tile = d.tile
            self.kong_meld = st.melds[-1]
            self._kong_reveal()
            if self.wall.live() == 0:
                self._finish(
                    [], None
                )  # a kong on the last discard: no replacement, the round is drawn
                return
            self._draw(a.seat, replacement=True)
            return
        self.current = a.seat
        st.drawn = -1
        self.after_kong = False
        self._start_turn(a.seat)

    def _resolve_rob(self) -> None:
        robbers = [s for s, a in self.responses.items() if a.kind is ActionKind.HU]
        tile = self.claim_tile
        if robbers:
            if self.rob_kind is MeldKind.GANG_CONCEALED:
                # a robbed concealed kong is void: its meld was laid down before the rob
                # window, so its other three tiles go back to the konger's hand
                st = self.seats[self.rob_seat]
                st.melds.pop()
                st.hand[tile] = st.hand[tile] + 3
                self.table_seen[tile] = self.table_seen[tile] - 4
            seats = self._winners_in_order(self.rob_seat, robbers)
            self.kong_tile = tile
            wins = [Win(s, WinHow.ROB_KONG, self.rob_seat, False) for s in seats]
            self._finish(wins, tile)
            return
        self._complete_kong(self.rob_seat, tile, self.rob_kind)

    # ------------------------------------------------------------------------------
    # the end
    # ------------------------------------------------------------------------------

    def _finish(self, wins: list[Win], tile: int | None) -> None:
        self.phase = Phase.END
        self.pending = {}
        self.responses = {}
        v = self.ruleset.variant
        reveal = None
        if wins and v.deal.reveal == "head":
            reveal = self.wall.peek_head()
        elif wins and v.deal.reveal == "tail":
            reveal = self.wall.peek_tail()
        in_play = self._reveals.final() if self._reveals is not None else ()
        reveals = in_play + ((Reveal(reveal),) if reveal is not None else ())
        seats = []
        for s, st in enumerate(self.seats):
            concealed = T.to_tiles(st.hand)
            if any(w.seat == s and w.how is WinHow.SELF_DRAW for w in wins) and tile is not None:
                concealed.remove(tile)
            void = st.void_suit if st.void_suit >= 0 else None
            seats.append(
                SeatEnd(tuple(concealed), tuple(st.melds), st.declared, st.ever_ready, False, void)
            )
        # readiness the engine already knows: waits kept since each seat's last discard; a
        # winner, and a seat whose kong was just robbed (hand changed since), are left open
        robbed = {w.source for w in wins if w.how is WinHow.ROB_KONG}
        known_ready = tuple(
            None if s in robbed or any(w.seat == s for w in wins) else bool(st.waits)
            for s, st in enumerate(self.seats)
        )
        f = self.flags
        self.end = RoundEnd(
            players=self.players,
            dealer=self.dealer,
            streak=self.streak,
            seats=tuple(seats),
            discards=tuple(self.discards),
            wins=tuple(wins),
            win_tile=tile,
            gangkai=bool(wins) and f.get("gangkai", False),
            repao=bool(wins) and f.get("repao", False),
            haidi=bool(wins) and f.get("haidi", False),
            tianhu=bool(wins) and f.get("tianhu", False),
            dihu=bool(wins) and f.get("dihu", False),
            renhu=bool(wins) and f.get("renhu", False),
            kong_tile=self.kong_tile
            if (f.get("gangkai") or f.get("repao") or any(w.how is WinHow.ROB_KONG for w in wins))
            else None,
            reveals=reveals,
            wild=self.wild,
            wild_indicator=self.wild_indicator,
            round_wind=self.round_wind,
            weekday=self.weekday,
            tiles_left=self.wall.live(),
            ready=known_ready,
        )
        self.ledger = settle(self.ruleset, self.end)
        end_event: dict[str, Any] = {
            "type": "end",
            "wins": [{"seat": w.seat, "how": w.how.value, "from": w.source} for w in wins],
            "tile": T.format([tile]) if tile is not None else None,
            "reveal": T.format([reveal]) if reveal is not None else None,
        }
        if self._reveals is not None:  # only then, so logs without these reveals still replay
            end_event["reveals"] = [
                {"tile": T.format([r.tile]), "at": r.at.value, "status": r.status.value}
                for r in in_play
            ]
        end_event["totals"] = self.ledger.totals()
        end_event["next_dealer"] = self.ledger.next_dealer
        end_event["next_streak"] = self.ledger.next_streak
        self._log(end_event)


_NO_WAITS: frozenset[int] = frozenset()
#: random 换三张 directions by table size, in the order a dice sum (mod their number) picks
_EXCHANGE_WAYS = {2: ("next",), 3: ("next", "previous"), 4: ("next", "opposite", "previous")}
_new_tuple = tuple.__new__
_CLAIM_MELD = {
    ActionKind.CHI: MeldKind.CHI,
    ActionKind.PENG: MeldKind.PENG,
    ActionKind.GANG_EXPOSED: MeldKind.GANG_EXPOSED,
}

#: discard actions by seat and tile, built once
_DISCARDS: Final = [[make(s, ActionKind.DISCARD, k) for k in range(T.NUM_KINDS)] for s in range(4)]


def _holds_four(hand: list[int]) -> bool:
    """``4 in hand``, as a loop over machine integers in the compiled build (``in`` compares
    Python ints one by one)."""
    return any(n == 4 for n in hand)


def _held_kinds(row: list[Action], hand: list[int]) -> tuple[Action, ...]:
    """``tuple(compress(row, hand))``: the entry of ``row`` for each kind held, as a loop the
    compiled build runs natively."""
    return tuple([row[k] for k in range(len(hand)) if hand[k]])


def _listed(action: Action, legal: Sequence[Action]) -> bool:
    """``action in legal``, by identity first: an agent answering with an element of
    ``legal`` (the common case) costs no tuple comparisons."""
    for a in legal:
        if a is action:
            return True
    return action in legal


@lru_cache(maxsize=8192)
def _hand_text(hand: tuple[int, ...]) -> str:
    """A hand's notation (a seat's hand stays the same over the other seats' turns, and
    its view is built after each of them)."""
    return T.format_counts(hand)


@lru_cache(maxsize=4096)
def _action_text(a: Action) -> str:
    """An action's text (a view lists the legal ones after every change)."""
    return str(a)


@lru_cache(maxsize=4096)
def _meld_text(m: Meld, hidden: bool = False) -> str:
    """A meld as text; another seat's concealed kong (闷豆, laid face down) hides its tile
    until the round ends (seed 003 "暗杠1嘴(不翻开)")."""
    if hidden and m.kind is MeldKind.GANG_CONCEALED:
        return f"{m.kind.value} ????"
    return f"{m.kind.value} {T.format(m.tiles)}" + (
        f" from {m.source}" if m.source is not None else ""
    )


def _check_wall(tiles: list[int], tile_set: T.TileSet) -> None:
    allowed = set(T.kinds_in(tile_set))
    c = [0] * T.NUM_KINDS
    for i, t in enumerate(tiles):
        if t not in allowed:
            raise ZhuojiError(
                f"wall position {i}: {T.format([t])} is not in the {tile_set.value} tile set"
            )
        c[t] = c[t] + 1
        if c[t] > T.COPIES:
            raise ZhuojiError(f"wall position {i}: a fifth {T.format([t])}")
