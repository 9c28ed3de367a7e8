"""What one seat may see of a round: its own hand, every meld and discard, counts.

:class:`Observation` is a read-only view used by in-process bots (no copying on the hot
path); :func:`seat_view` (:meth:`Observation.to_dict`, ``Round.observation``) is the
serializable form the terminal, the server and logs use.  Neither exposes another seat's
concealed tiles or the wall order.  Both read the round's state
(:class:`zhuoji.round_state.RoundState`), never the engine that changes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.outcome import Meld, MeldKind, RoundEnd
from zhuoji.round_state import Phase, RoundState

if TYPE_CHECKING:
    from mypy_extensions import i64  # mypyc's unboxed 64-bit int; plain int as Python

    from zhuoji.ruleset import Ruleset


class Observation:
    __slots__ = ("_state", "seat")

    def __init__(self, state: RoundState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def ruleset(self) -> Ruleset:
        return self._state.ruleset

    @property
    def players(self) -> int:
        return self._state.players

    @property
    def phase(self) -> str:
        # a StrEnum's str() is its value, without the enum's (slow) ``value`` property
        return str(self._state.phase)

    @property
    def legal(self) -> Sequence[Action]:
        r = self._state
        if r.is_terminal() or self.seat in r.responses:  # (not phase.value: a Python call)
            return ()
        return r.pending.get(self.seat, ())

    @property
    def hand(self) -> tuple[int, ...]:
        """Own concealed tiles as 34 counts."""
        return tuple(self._state.seats[self.seat].hand)

    @property
    def drawn(self) -> int:
        return self._state.seats[self.seat].drawn

    @property
    def waits(self) -> frozenset[int]:
        """Own waits as of the last discard (the hand between turns)."""
        return self._state.seats[self.seat].waits

    def melds(self, seat: int) -> tuple[Meld, ...]:
        return tuple(self._state.seats[seat].melds)

    @property
    def discards(self) -> tuple[tuple[int, int, int | None], ...]:
        """(seat, tile, claimed_by) for every discard in table order."""
        return tuple((d.seat, d.tile, d.claimed_by) for d in self._state.discards)

    def seen_counts(self) -> list[int]:
        """Copies of each kind among own concealed tiles, every meld (``melds``) and the
        discards left on the table (a claimed discard is counted in its meld): what
        :class:`zhuoji.agents.analysis.TableView` counts as seen: the hand plus the table's
        counts, which the engine keeps as melds and discards change (``RoundState.table_seen``)."""
        r = self._state
        hand = r.seats[self.seat].hand
        table = r.table_seen
        return [hand[k] + table[k] for k in range(len(hand))]

    def live_counts(self, copies: list[int]) -> list[int]:
        """Per kind, the wall's ``copies`` less what :meth:`seen_counts` says this seat has
        seen, never below 0: the live counts a bot weighs improving tiles by (one pass)."""
        r = self._state
        hand = r.seats[self.seat].hand
        table = r.table_seen
        n = len(hand)
        # the copies as they are where none is seen (most kinds early on), the difference in
        # machine integers where some are (the kinds with no copies in the wall read 0)
        out = copies[:n]
        for k in range(n):
            seen: i64 = hand[k]
            seen += table[k]
            if seen:
                x: i64 = copies[k]
                x -= seen
                out[k] = x if x > 0 else 0
        return out

    def flowers(self, seat: int) -> int:
        """Flower tiles ``seat`` has set aside face up (补花, ``tiles.flowers``): public."""
        return self._state.seats[seat].flowers

    def discard_count(self, seat: int) -> int:
        """How many discards ``seat`` has made this round (claimed ones included)."""
        return self._state.seats[seat].discards

    def declared(self, seat: int) -> bool:
        return self._state.seats[seat].declared is not None

    def void_suit(self, seat: int) -> int | None:
        """定缺: the suit ``seat`` declared void (0 万, 1 条, 2 筒), or None: none declared
        yet, or another seat's choice while the 定缺 window is still open (all choose unseen)."""
        r = self._state
        void = r.seats[seat].void_suit
        if void >= 0:
            return void
        if seat == self.seat and seat in r.responses and r.phase == "dingque":
            return r.responses[seat].tile
        return None

    @property
    def exchange_given(self) -> tuple[int, ...]:
        """换三张: the tiles this seat picked to pass on (so far)."""
        return tuple(self._state.seats[self.seat].given)

    @property
    def exchange_direction(self) -> str | None:
        """换三张: next, previous or opposite once the tiles have been passed on."""
        return self._state.exchange_direction

    @property
    def exchange_received(self) -> tuple[int, ...]:
        """换三张: the tiles passed to this seat (empty until every seat has picked)."""
        return tuple(self._state.seats[self.seat].received)

    @property
    def reveals(self) -> list[int]:
        """Revealed tiles that make chickens now, in reveal order (RoundState.open_reveals)."""
        return self._state.open_reveals()

    @property
    def weekday(self) -> int:
        """The round's day (星期鸡): 1 Monday … 7 Sunday."""
        return self._state.weekday

    @property
    def round_end(self) -> RoundEnd | None:
        """What the round left behind, once it is over (every hand is shown then)."""
        return self._state.end

    def concealed_count(self, seat: int) -> int:
        """How many concealed tiles ``seat`` holds (public: the table shows their backs)."""
        return tile_count(self._state.seats[seat].hand)

    @property
    def wall_left(self) -> int:
        return self._state.wall.live()

    @property
    def wild(self) -> int | None:
        return self._state.wild

    @property
    def wild_indicator(self) -> int | None:
        """The revealed 宝牌 indicator (六安)."""
        return self._state.wild_indicator

    @property
    def streak(self) -> int:
        """The dealer's 连庄 count."""
        return self._state.streak

    @property
    def claim_source(self) -> int:
        """Who discarded the tile being answered, or who is adding the kong that may be
        robbed; -1 outside a claim window."""
        r = self._state
        if r.phase == "claim":  # (a StrEnum member equals its value)
            return r.discards[-1].seat
        if r.phase == "rob":
            return r.rob_seat
        return -1

    @property
    def claim_tile(self) -> int:
        """The discard (or kong tile) being answered, -1 outside a claim window."""
        return self._state.claim_tile if self._state.phase in ("claim", "rob") else -1

    @property
    def dealer(self) -> int:
        return self._state.dealer

    def to_dict(self) -> dict[str, Any]:
        return seat_view(self._state, self.seat)


# ----------------------------------------------------------------------------------
# the serializable view
# ----------------------------------------------------------------------------------


def seat_view(r: RoundState, seat: int, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """What ``seat`` may see, as plain data: its own hand, every meld and discard, counts;
    never another seat's concealed tiles or the wall order.

    ``into``: a dict to write these keys into, in this order (a key it holds already keeps
    its place and takes the new value), returned; else a new dict.  The server writes each
    seat's view of a state into the dict it sends, its table facts first, instead of
    building this one and copying it over (docs/server.md, fifth pass)."""
    me = r.seats[seat]
    public = _public_view(r)
    # in a claim window, who else may claim is not public: only one's own turn shows
    to_act = public["to_act"]
    if r.phase is not Phase.TURN:
        to_act = [seat] if seat in to_act else []
    void_suits = public["void_suits"]
    if r.phase is Phase.DINGQUE and seat in r.responses:  # its own pick, unseen
        void_suits = list(void_suits)
        void_suits[seat] = T.SUIT_LETTERS[r.responses[seat].tile]
    melds = public["melds"]
    if public["hidden_melds"]:  # one's own concealed kongs show their tiles to oneself
        melds = list(melds)
        melds[seat] = public["own_melds"][seat]
    view: dict[str, Any] = {} if into is None else into
    view["seat"] = seat
    view["phase"] = public["phase"]
    view["to_act"] = to_act
    view["dealer"] = r.dealer
    view["streak"] = r.streak
    view["hand"] = _hand_text(me.hand)
    view["drawn"] = T.TILE_TEXT[me.drawn] if me.drawn >= 0 else None
    view["melds"] = melds
    view["discards"] = public["discards"]
    view["declared"] = public["declared"]
    # 定缺: another seat's void suit shows once every seat has chosen
    view["void_suits"] = void_suits
    view["exchange"] = (
        {
            "given": T.format(me.given),
            "received": T.format(me.received),
            "direction": r.exchange_direction,
        }
        if r.ruleset.variant.exchange is not None
        else None
    )
    view["concealed_counts"] = public["concealed_counts"]
    view["wall"] = public["wall"]
    view["wild"] = public["wild"]
    view["wild_indicator"] = public["wild_indicator"]
    view["claim_tile"] = public["claim_tile"]
    view["claim_from"] = public["claim_from"]
    view["legal_actions"] = [_action_text(a) for a in r.legal_actions(seat)]
    view["reveal"] = public["reveal"]
    view["reveals"] = public["reveals"]
    view["result"] = public["result"]
    # 补花: each seat's flowers set aside, face up (only where the wall has flowers)
    flowers = public["flowers"]
    if flowers:
        view.update(flowers)
    return view


def _public_view(r: RoundState) -> dict[str, Any]:
    """The parts of every seat's view that are the same for all, built once per state (a
    server sends every seat its view after each change).  Shared lists: read them, never
    change them."""
    key = (len(r.log), r.answers)
    cached = r.view_cache
    if cached is not None and cached[0] == key:
        return cached[1]
    text = T.TILE_TEXT
    window = r.phase in (Phase.CLAIM, Phase.ROB)
    hide = not r.end
    melds = [[_meld_text_of(m, hide) for m in st.melds] for st in r.seats]
    own_melds = [[_meld_text_of(m, False) for m in st.melds] for st in r.seats]
    public = {
        "phase": r.phase.value,
        "to_act": r.to_act(),
        "melds": melds,
        "own_melds": own_melds,
        "hidden_melds": melds != own_melds,
        "flowers": {"flowers": [st.flowers for st in r.seats]}
        if r.ruleset.variant.tiles.flowers
        else {},
        "discards": _discard_texts(r),
        "declared": [s.declared.value if s.declared else None for s in r.seats],
        # 定缺: a seat's void suit is set for everyone once every seat has chosen
        "void_suits": [T.SUIT_LETTERS[s.void_suit] if s.void_suit >= 0 else None for s in r.seats],
        "concealed_counts": [tile_count(s.hand) for s in r.seats],
        "wall": r.wall.live(),
        "wild": text[r.wild] if r.wild is not None else None,
        "wild_indicator": text[r.wild_indicator] if r.wild_indicator is not None else None,
        "claim_tile": text[r.claim_tile] if window else None,
        "claim_from": Observation(r, 0).claim_source if window else None,
        "reveal": text[r.end.reveal] if r.end and r.end.reveal is not None else None,
        "reveals": [text[t] for t in r.open_reveals()],
        "result": r.result_summary() if r.end else None,
    }
    r.view_cache = (key, public)
    return public


def _discard_texts(r: RoundState) -> list[dict[str, Any]]:
    """The ponds as the views show them.  The entries of the last list built are reused
    for the discards that have not changed since: discards are only appended, and only
    the latest one can change (when it is claimed), so all but the latest are kept when
    the one before it is still the same object."""
    ds = r.discards
    n = len(ds)
    src, shown = r.ponds_shown
    keep = n - 1 if len(src) in (n - 1, n) and n >= 2 and src[n - 2] is ds[n - 2] else 0
    text = T.TILE_TEXT
    out = shown[:keep] + [
        {"seat": d.seat, "tile": text[d.tile], "claimed_by": d.claimed_by} for d in ds[keep:]
    ]
    r.ponds_shown = (ds[:], out)
    return out


def tile_count(hand: list[int]) -> int:
    """The tiles of a count array (``sum(hand)``): a loop mypyc compiles over native ints,
    where the builtin ``sum`` walks the list through Python's iterator and adds boxed ints,
    about 1.9 K instructions for a hand of 34 kinds.  Every state's public view counts four
    hands and every seat's hints ask its own (docs/server.md, sixth pass)."""
    n = 0
    for c in hand:
        n += c
    return n


def _hand_text(hand: list[int]) -> str:
    """A hand's notation: the text of :func:`zhuoji.tiles.format_counts` (each suit's rank
    digits, then its letter), written here from each kind's precomputed run of digits.
    Every seat's view holds its hand and a server builds every seat's view after each
    change; about half the hands are new (the discarder's, the next drawer's), and those
    were written by ``format_counts`` in Python behind an ``lru_cache``: 15 K instructions a
    view on average, against 4.6 K for this loop compiled (docs/server.md, fifth pass).  It
    reads only native values in the loop (module constants are ``Final``: no attribute or
    global lookups a kind)."""
    if len(hand) != _KINDS:  # not a count array of the tile kinds: format_counts says it
        return T.format_counts(hand)
    runs = _DIGIT_RUNS
    parts: list[str] = []
    for s in range(_SUITS):
        start = s * 9
        end = start + (9 if s < 3 else 7)
        held = len(parts)
        for k in range(start, end):
            n = hand[k]
            if n:
                if n < 0 or n > _COPIES:  # not a hand: as format_counts writes it
                    return T.format_counts(hand)
                parts.append(runs[k][n])
        if len(parts) > held:
            parts.append(_LETTERS[s])
    return "".join(parts)


#: the tile kinds, copies of each and suits (with honours) :func:`_hand_text` writes: the
#: values of :data:`zhuoji.tiles.NUM_KINDS`, :data:`~zhuoji.tiles.COPIES` and
#: :data:`~zhuoji.tiles.LETTERS`, as literals mypyc compiles in (tests check they agree)
_KINDS: Final = 34
_COPIES: Final = 4
_SUITS: Final = 4
_LETTERS: Final = "mspz"
#: kind → its rank digit written 0 to 4 times (:func:`_hand_text`)
_DIGIT_RUNS: Final[list[list[str]]] = [
    [str(T.rank_of(k)) * n for n in range(_COPIES + 1)] for k in range(_KINDS)
]


#: action → its text (bounded: a table has a few hundred distinct actions)
_ACTION_TEXT: Final[dict[Action, str]] = {}


def _action_text(a: Action) -> str:
    """An action's text, remembered (a view lists the legal ones after every change): a
    dict compiled in, not an ``lru_cache``, which a compiled caller reaches through a
    Python call, a key tuple and its recency list (docs/server.md, fifth pass)."""
    found = _ACTION_TEXT.get(a)
    if found is None:
        if len(_ACTION_TEXT) >= 4096:
            _ACTION_TEXT.clear()
        found = str(a)
        _ACTION_TEXT[a] = found
    return found


#: (id of a meld, hidden) → (the meld, its text): a meld stays the same object on the table
#: from the action that made it to the round's end (an added kong replaces its pung), and a
#: key by identity costs a small int's hash where the ``lru_cache`` on the meld hashed the
#: dataclass in Python, about 2 K instructions a meld each state (docs/server.md, sixth
#: pass).  Holding the meld keeps its id from being reused while it is here.
_MELD_TEXTS: Final[dict[tuple[int, bool], tuple[Meld, str]]] = {}


def _meld_text_of(m: Meld, hidden: bool) -> str:
    """:func:`_meld_text`, remembered by the meld's identity (see :data:`_MELD_TEXTS`)."""
    key = (id(m), hidden)
    found = _MELD_TEXTS.get(key)
    if found is not None and found[0] is m:
        return found[1]
    if len(_MELD_TEXTS) >= 4096:
        _MELD_TEXTS.clear()
    text = _meld_text(m, hidden)
    _MELD_TEXTS[key] = (m, text)
    return text


@lru_cache(maxsize=4096)
def _meld_text(m: Meld, hidden: bool = False) -> str:
    """A meld as text; another seat's concealed kong (闷豆, laid face down) hides its tile
    until the round ends (seed 003 "暗杠1嘴(不翻开)")."""
    if hidden and m.kind is MeldKind.GANG_CONCEALED:
        return f"{m.kind.value} ????"
    return f"{m.kind.value} {T.format(m.tiles)}" + (
        f" from {m.source}" if m.source is not None else ""
    )
