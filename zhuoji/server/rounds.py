"""Rounds that rebuild exactly from their event log, and the settlement shown at a round's end.

A live round is never stored whole: the table server stores its events and, after a
restart (or a failed write), rebuilds the round by re-applying its logged actions
(:func:`rebuild_round`).  It goes on exactly where it stopped — including the random
generator, because rounds are built so that their first event determines everything
(:func:`new_round`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.report import describe_end, settlement_json
from zhuoji.ruleset import Ruleset
from zhuoji.server import store as S


def new_round(
    ruleset: Ruleset, seed: int, dealer: int | None, streak: int, round_wind: int, weekday: int = 1
) -> Round:
    """A round whose ``round`` event determines it completely.

    The engine picks the first dealer and breaks the wall with the seeded generator; the
    round actually played is then built from that wall and dealer with the same seed, so
    :func:`rebuild_round` constructs the very same object (same generator state, hence the
    same later dice) from the logged ``round`` event alone.
    """
    probe = Round(
        ruleset, seed=seed, dealer=dealer, streak=streak, round_wind=round_wind, weekday=weekday
    )
    head = probe.log[0]
    return Round(
        ruleset,
        seed=seed,
        wall=head["wall"],
        dealer=head["dealer"],
        streak=streak,
        round_wind=round_wind,
        weekday=weekday,
    )


def normalized(event: Mapping[str, Any]) -> Any:
    """An event as the store gives it back (JSON types: tuples become lists)."""
    return json.loads(S.dumps(event))


def rebuild_round(ruleset: Ruleset, events: list[dict[str, Any]], label: str = "round") -> Round:
    """The round as it stood after ``events`` (a prefix of a log written by a round made
    with :func:`new_round`): every action is re-applied through the engine's checks and
    every event the engine writes must equal the stored one."""
    if not events or events[0].get("type") != "round":
        raise S.StoreError(f"{label}: the log does not start with a round event")
    head = events[0]
    try:
        r = Round(
            ruleset,
            seed=head.get("seed"),
            wall=head["wall"],
            dealer=head["dealer"],
            streak=head["streak"],
            round_wind=head.get("round_wind", 0),
            weekday=head.get("weekday", 1),
        )
        checked = 0
        for i, event in enumerate(events):
            if event.get("type") != "action":
                continue
            while checked < i:
                if checked >= len(r.log) or normalized(r.log[checked]) != events[checked]:
                    raise S.StoreError(f"{label}: event {checked} does not match the replay")
                checked += 1
            if len(r.log) != i:
                raise S.StoreError(
                    f"{label}: event {i} is an action where the replay has more events"
                )
            r.apply(Action.parse(event["action"]))
    except ZhuojiError as exc:
        if isinstance(exc, S.StoreError):
            raise
        raise S.StoreError(f"{label}: cannot replay: {exc}") from exc
    if len(r.log) != len(events) or any(
        normalized(a) != b for a, b in zip(r.log, events, strict=True)
    ):
        raise S.StoreError(f"{label}: the stored events do not match the replay")
    return r


def settlement_of(r: Round) -> dict[str, Any]:
    """The itemized settlement with every hand shown (摊牌), for the end of a round."""
    assert r.end is not None and r.ledger is not None
    end = r.end
    out = settlement_json(r.ledger, end)
    out["result"]["reveal_name"] = T.name(end.reveal) if end.reveal is not None else None
    out["result"]["tile_name"] = T.name(end.win_tile) if end.win_tile is not None else None
    out["showdown"] = [
        {
            "seat": s,
            "concealed": T.format(sorted(seat.concealed)),
            "concealed_names": T.names(sorted(seat.concealed)),
            "melds": [f"{m.kind.value} {T.format(m.tiles)}" for m in seat.melds],
            "declared": seat.declared.value if seat.declared else None,
        }
        for s, seat in enumerate(end.seats)
    ]
    out["lines"] = describe_end(end)
    return out
