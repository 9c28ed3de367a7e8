"""What the table page shows beyond the engine's observation: seat winds, chickens, waits,
the turn timer and the settlement in words.

:func:`client_extras` adds these keys to a seat's view (``zhuoji.server.tables.Table.view``;
a broadcast computes the part every seat shares once, :func:`common_extras`, and each
seat's own, :func:`seat_extras`);
every one is computed from what that seat may see (:mod:`zhuoji.hints`), so the view keeps
its promise of hiding other seats' tiles:

* ``seat_winds`` — each seat's wind (0 东 … 3 北; the dealer sits East), ``round_wind``;
* ``marks`` — tile → ``chicken`` / ``golden`` (金鸡) for the chickens known now: permanent
  ones and those made by tiles revealed during play, and the after-win 翻鸡's once the
  round is over (:func:`zhuoji.rules.chickens.chicken_marks`);
* ``waits`` — ``[{"tile", "left"}]``: the seat's waits (听) between its turns and the copies of
  each it has not seen; ``discard_waits`` — in its turn, for each discard that leaves the
  hand ready, the waits it would leave (听牌提示);
* ``turn_seconds`` and ``deadline_ms`` (epoch milliseconds) — the table's turn timer
  (:mod:`zhuoji.server.turn_timer`), the deadline of the round as this seat is shown it
  (a seat a claim window hides sees the discarder's deadline from before the discard);
  the WebSocket ``hello`` carries the server's clock (``now_ms``) so a client can count
  down on its own;
* in ``settlement``: each entry's and remark's ``why`` / ``why_en`` (a voided entry's
  ``void_why`` / ``void_why_en``), in the words of the hook that wrote it, with seats as
  placeholders the page fills (``{payer}``, ``{payee}``, ``{seat}``, ``{for}``), and the
  round's ``chickens`` rules (:mod:`zhuoji.explain`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.explain import explain_settlement
from zhuoji.hints import discard_waits, marks_now, marks_text, seen_by_all, waits_left
from zhuoji.observation import Observation, seat_view

if TYPE_CHECKING:
    from zhuoji.engine import Round
    from zhuoji.server.store import RoundRow
    from zhuoji.server.turn_timer import TurnClock


class Table(Protocol):
    """What the extras read of a table (:class:`zhuoji.server.tables.Table` has it; this
    module sits below the table, which builds its views with it)."""

    @property
    def clock(self) -> TurnClock:
        """The table's turn timer."""

    @property
    def current(self) -> Round | None:
        """The latest round, live or over."""

    @property
    def rounds(self) -> Sequence[RoundRow]:
        """One row per round played."""

    @property
    def shared_extras(self) -> SharedExtras:
        """The extras every seat's view of a state shares."""


def round_view(r: Round, seat: int, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """The round part of ``seat``'s view of ``r`` as the engine shows it
    (:meth:`zhuoji.engine.Round.observation`), with names and the legal actions' menu;
    written into ``into`` (after the keys it has) and returned, else in a new dict."""
    # in a window, its to_act names only this seat
    obs = seat_view(r, seat, into) if into is not None else r.observation(seat)
    obs["seq"] = r.public_seq()
    own = r.seats[seat]
    obs["hand_names"] = _hand_names(obs["hand"], own.hand)
    obs["drawn_name"] = _NAMES[own.drawn] if obs["drawn"] else None
    legal = r.legal_actions(seat)
    obs["legal"] = [_menu_entry(a) for a in legal] if legal else []
    return obs


_NAMES = [T.name(k) for k in range(T.NUM_KINDS)]


#: kind → copies → that many of its name, spaced ("九筒 九筒")
_NAME_RUNS = [[" ".join([name] * n) for n in range(T.COPIES + 1)] for name in _NAMES]
_HAND_NAMES: dict[str, str] = {}  # a hand's notation → its names (bounded: see below)


def _hand_names(notation: str, hand: Sequence[int]) -> str:
    """The names of a hand's tiles (``hand`` a count array, ``notation`` its sorted
    notation, which the view already has) in sorted order; remembered by the notation, as a
    seat's hand stays the same from one of its turns to the next."""
    found = _HAND_NAMES.get(notation)
    if found is None:
        if len(_HAND_NAMES) >= 8192:
            _HAND_NAMES.clear()
        found = " ".join([_NAME_RUNS[k][n] for k, n in enumerate(hand) if n])
        _HAND_NAMES[notation] = found
    return found


#: action → its menu entry (bounded: a table has a few hundred distinct actions)
_MENU: dict[Action, dict[str, str]] = {}


def _menu_entry(action: Action) -> dict[str, str]:
    """A legal action with its label, remembered.  Views share these dicts: they are
    serialized, never changed."""
    found = _MENU.get(action)
    if found is None:
        if len(_MENU) >= 4096:
            _MENU.clear()
        found = {"action": str(action), "label": action.label()}
        _MENU[action] = found
    return found


def quiet(view: dict[str, Any]) -> dict[str, Any]:
    """A view whose seat may not act (it has acted, or answers are held)."""
    return {**view, "legal": [], "legal_actions": [], "to_act": []}


def _left(pairs: list[tuple[int, int]]) -> list[dict[str, Any]]:
    return [{"tile": T.TILE_TEXT[w], "left": n} for w, n in pairs] if pairs else []


class SharedExtras:
    """The extras every seat's view of one round state has in common: the chickens marked,
    the tiles every seat has seen (:func:`zhuoji.hints.seen_by_all`, from which each seat's
    copies left are counted) and the explained settlement (they depend only on what the
    table shows everyone).  Built once per state, when the first seat's view needs them, so a
    broadcast to four seats computes them once; views are never changed, so the seats share
    these objects."""

    __slots__ = ("_marks", "_rounds")

    def __init__(self) -> None:
        #: id(round) → (round, its state key, the shared keys)
        self._rounds: dict[int, tuple[Round, tuple[int, int], dict[str, Any]]] = {}
        #: id(round) → (round, the reveals that make chickens, the marks): they change
        #: only when a tile is revealed, not with every state
        self._marks: dict[int, tuple[Round, tuple[tuple[int, ...], bool], dict[str, Any]]] = {}

    def of(self, r: Round) -> dict[str, Any]:
        """The shared keys for ``r`` as it is now (a state is the log's length and the
        number of window answers in it: every change to a round logs an event)."""
        key = (len(r.log), r.answers)
        found = self._rounds.get(id(r))
        if found is not None and found[0] is r and found[1] == key:
            return found[2]
        everyone = Observation(r, 0)  # what these read is the same for every seat
        n = r.players
        shared = {
            "marks": self._marks_of(r, everyone),
            "seen": seen_by_all(everyone),
            "seat_winds": [(s - r.dealer) % n for s in range(n)],
        }
        if len(self._rounds) >= 4:  # the current round and a window's frozen one
            self._rounds.clear()
        self._rounds[id(r)] = (r, key, shared)
        return shared

    def _marks_of(self, r: Round, everyone: Observation) -> dict[str, Any]:
        """The chickens marked: within a round they depend only on the tiles revealed that
        make chickens (:meth:`Round.open_reveals`) and on whether it is over."""
        reveals = (tuple(r.open_reveals()), r.end is not None)
        found = self._marks.get(id(r))
        if found is not None and found[0] is r and found[1] == reveals:
            return found[2]
        marks: dict[str, Any] = dict(marks_text(marks_now(everyone)))
        if len(self._marks) >= 4:
            self._marks.clear()
        self._marks[id(r)] = (r, reveals, marks)
        return marks


def client_extras(
    table: Table, seat: int, view: dict[str, Any], shown: Round | None = None
) -> dict[str, Any]:
    """The extra view keys for ``seat`` (see the module docstring), computed from the
    round as this seat is shown it: ``shown`` when a claim window hides the latest action
    from it (the round before that action), else the table's current round."""
    r = shown if shown is not None else table.current
    common, shared = common_extras(table, r)
    if r is None or shared is None:
        return common
    return {**common, **seat_extras(table, seat, view, r, shared)}


def common_extras(table: Table, r: Round | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The extra keys every seat shown ``r`` has alike, and the shared parts the seats'
    own keys are computed from (:class:`SharedExtras`; None before the first round).  A
    broadcast computes these once for all its seats."""
    if r is None:
        return {"turn_seconds": table.clock.seconds}, None
    shared = table.shared_extras.of(r)
    common = {
        "turn_seconds": table.clock.seconds,
        "seat_winds": shared["seat_winds"],
        "round_wind": table.rounds[-1].round_wind if table.rounds else 0,
        "marks": shared["marks"],
    }
    return common, shared


def live_view(
    table: Table,
    seat: int,
    head: dict[str, Any],
    r: Round,
    settlement: Any,
    common: dict[str, Any],
    shared: dict[str, Any],
    held: bool,
) -> dict[str, Any]:
    """``seat``'s whole view of the current round ``r`` (one no window hides it from):
    ``head`` (the table facts, the seat, whether it may say ready), :func:`round_view`
    (quieted when its answer is ``held``), the round's ``settlement``, the ``common``
    extras and the seat's own (:func:`seat_extras`), in that order, the order of its keys
    on the wire.  The table builds every such view with this, after every change."""
    out = round_view(r, seat, head)  # one dict a view: the round written after the head
    if held:  # quiet (:func:`quiet`), in place: these keys are already in their places
        out["legal"] = []
        out["legal_actions"] = []
        out["to_act"] = []
    out["settlement"] = settlement
    out.update(common)
    _add_seat_extras(out, table, seat, out, r, shared)
    return out


def seat_extras(
    table: Table, seat: int, view: dict[str, Any], r: Round, shared: dict[str, Any]
) -> dict[str, Any]:
    """The extra keys of ``seat``'s own: its turn deadline, its waits and the waits each
    discard would leave, the settlement explained (``r``: the round as it is shown it)."""
    out: dict[str, Any] = {}
    _add_seat_extras(out, table, seat, view, r, shared)
    return out


def _add_seat_extras(
    out: dict[str, Any],
    table: Table,
    seat: int,
    view: dict[str, Any],
    r: Round,
    shared: dict[str, Any],
) -> None:
    """:func:`seat_extras`, written into ``out``."""
    clock = table.clock
    # a table without a turn timer has no deadline to show (TurnClock.shown_to says None
    # too): not asked, it is a Python call a view (7 % of the views' samples, fifth pass)
    deadline = clock.shown_to(seat, r, live=r is table.current) if clock.seconds else None
    out["deadline_ms"] = int(deadline * 1000) if deadline is not None else None
    if r.end is None:
        obs = Observation(r, seat)
        # the view's hand notation (of this round and seat) keys the hand's waits
        out["waits"] = _left(waits_left(obs, shared["seen"], view.get("hand")))
        hints = discard_waits(obs, shared["seen"]) if view.get("legal") else {}
        out["discard_waits"] = (
            {T.TILE_TEXT[t]: _left(ws) for t, ws in hints.items()} if hints else {}
        )
    elif view.get("settlement"):
        explained = shared.get("settlement")
        if explained is None or explained[0] is not view["settlement"]:
            assert r.ledger is not None
            explained = (view["settlement"], explain_settlement(view["settlement"], r.ledger))
            shared["settlement"] = explained
        out["settlement"] = explained[1]
