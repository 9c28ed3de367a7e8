"""The HTTP API's request and response models (the OpenAPI document's schemas), the bounds
on house-rule overrides, and the error responses every route documents."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from zhuoji.server import turn_timer
from zhuoji.server.auth import Role
from zhuoji.server.tables import DEFAULT_CLAIM_WINDOW_MS, NextRound, SeatKind
from zhuoji.server.variants import MAX_SOURCE

MAX_OVERRIDE_BYTES = 4096
MAX_OVERRIDE_KEYS = 64
MAX_OVERRIDE_DEPTH = 6


def _shape(value: Any, depth: int = 1) -> tuple[int, int]:
    """(keys, depth) of a JSON value."""
    if isinstance(value, dict):
        keys, deepest = len(value), depth
        for v in value.values():
            k, d = _shape(v, depth + 1)
            keys, deepest = keys + k, max(deepest, d)
        return keys, deepest
    if isinstance(value, list):
        keys, deepest = 0, depth
        for v in value:
            k, d = _shape(v, depth + 1)
            keys, deepest = keys + k, max(deepest, d)
        return keys, deepest
    return 0, depth - 1


def _bounded_overrides(value: dict[str, Any]) -> dict[str, Any]:
    size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    if size > MAX_OVERRIDE_BYTES:
        raise ValueError(f"overrides take {size} bytes; at most {MAX_OVERRIDE_BYTES}")
    keys, depth = _shape(value)
    if keys > MAX_OVERRIDE_KEYS:
        raise ValueError(f"overrides hold {keys} keys; at most {MAX_OVERRIDE_KEYS}")
    if depth > MAX_OVERRIDE_DEPTH:
        raise ValueError(f"overrides nest {depth} levels deep; at most {MAX_OVERRIDE_DEPTH}")
    return value


Overrides = Annotated[dict[str, Any], AfterValidator(_bounded_overrides)]


def _storable(text: str) -> str:
    """Text a person gave (a table's or a player's name) must be storable and showable: a
    lone surrogate cannot be written to the store (it made a 500), a control character
    would break a line of the table."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("holds a lone surrogate, which is no character") from None
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise ValueError("holds a control character")
    return text


#: a name a person gives: storable text (:func:`_storable`)
DisplayText = Annotated[str, AfterValidator(_storable)]


class WordsOut(BaseModel):
    zh: str
    en: str


class ErrorOut(BaseModel):
    detail: str = Field(description="what was refused and why")
    words: WordsOut | None = Field(
        None, description="the refusal in Chinese and in English, when the table says it in both"
    )


class SeatIn(BaseModel):
    """One seat of a new table."""

    kind: SeatKind = Field(
        SeatKind.HUMAN, description="human: joined with a seat token; bot: played by the server"
    )
    bot: str = Field("greedy", max_length=40, description="for bot seats: the bot (greedy, random)")
    name: DisplayText | None = Field(None, max_length=100, description="display name")


class TableIn(BaseModel):
    """A new table."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "name": "evening table",
                    "variant": "guiyang",
                    "overrides": {"settle.chickens.chongfeng.multiplier": 3},
                    "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
                    "rounds": 8,
                    "next_round": "ready",
                }
            ]
        }
    )

    name: DisplayText | None = Field(None, max_length=200)
    variant: str = Field(
        "guiyang",
        max_length=80,
        description="a shipped variant, or a stored one as NAME (its latest version, pinned "
        "now) or NAME@VERSION (GET /api/variants)",
    )
    overrides: Overrides = Field(
        default_factory=dict,
        description="house rules: overrides, nested or dotted keys "
        '(`{"settle.chickens.chongfeng.multiplier": 3}`); validated like `--set`; at most '
        f"{MAX_OVERRIDE_BYTES} bytes, {MAX_OVERRIDE_KEYS} keys, {MAX_OVERRIDE_DEPTH} levels",
    )
    seats: list[SeatIn] | None = Field(
        None, description="one per player; default: every seat human"
    )
    seed: int | None = Field(
        None, ge=0, lt=2**62, description="match seed (default: random); kept secret"
    )
    rounds: int | None = Field(
        None, ge=1, le=1000, description="rounds in the match (default: the variant's)"
    )
    next_round: NextRound = Field(
        NextRound.OPERATOR,
        description="operator: the operator starts each round; ready: a round starts when "
        "every human seat is ready (bot-only tables play on by themselves)",
    )
    bot_delay_ms: int = Field(
        0, ge=0, le=60_000, description="pause before each bot move (0: bots answer at once)"
    )
    turn_seconds: int | None = Field(
        None,
        ge=turn_timer.MIN_SECONDS,
        le=turn_timer.MAX_SECONDS,
        description="turn timer: seconds a human seat has for each decision, after which the "
        "server passes a claim or discards the drawn tile for it; null: no timer",
    )
    claim_window_ms: int | None = Field(
        None,
        ge=0,
        le=60_000,
        description="fixed-length claim window: after every discard and kong, answers are "
        "taken for exactly this long and nothing is shown before it ends, so thinking time "
        "tells nothing of who may claim (0: a window lasts until every seat with an option "
        "has answered, which timing gives away); default: "
        f"{DEFAULT_CLAIM_WINDOW_MS} ms where two or more people sit, 0 at a table of bots "
        "and one person",
    )


class RulesIn(BaseModel):
    """New rules, from the next round on."""

    variant: str | None = Field(
        None, max_length=80, description="default: the table's current variant"
    )
    overrides: Overrides = Field(
        default_factory=dict,
        description="the complete set of overrides (replaces the previous set)",
    )


class VariantIn(BaseModel):
    """A variant to store: YAML that sets its ``name`` and ``extends`` a shipped or stored
    variant."""

    source: str = Field(max_length=MAX_SOURCE, description="the variant's YAML text")
    author: str | None = Field(
        None, max_length=100, description="who is storing it (default: operator)"
    )


class VariantVersionOut(BaseModel):
    name: str
    version: int
    ref: str = Field(description="NAME@VERSION: what a table names to use this version")
    parent: str = Field(description="the pinned variant it extends")
    title: str
    sha256: str = Field(description="SHA-256 of the YAML text")
    author: str
    created_at: str
    differences: list[str] = Field(
        description="what it changes from its parent, in words (as `zhuoji variants diff`)"
    )
    differences_words: list[dict[str, str]] = Field(
        default_factory=list, description="the same, one language at a time: `[{zh, en}]`"
    )


class VariantCheckOut(BaseModel):
    ok: bool
    problems: list[str] = Field(description="LABEL:LINE: path: message, as `variants validate`")
    name: str | None = None
    version: int | None = None
    differences: list[str] = Field(default_factory=list)
    differences_words: list[dict[str, str]] = Field(default_factory=list)


class RulesDescribeIn(BaseModel):
    variant: str = Field(max_length=80)
    overrides: Overrides = Field(default_factory=dict)


class RulesOut(BaseModel):
    variant: str
    title: str
    overrides: dict[str, Any]
    house_rules: list[str] = Field(description="the overrides in words (`variants diff`)")
    house_rules_words: list[dict[str, str]] = Field(
        default_factory=list,
        description="the same, one language at a time: `[{zh, en}]` (zhuoji.server.rule_words)",
    )


class ActionIn(BaseModel):
    action: str = Field(
        max_length=40, description="`discard 5m`, `peng 5m`, `hu 5m`, `pass`, … (seat optional)"
    )
    seq: int | None = Field(
        None,
        description="the view's `seq` the action answers; refused (409) if the round has moved on",
    )


class SeatOut(BaseModel):
    seat: int
    kind: SeatKind
    bot: str | None
    name: str
    connected: int = Field(
        description="the seat's open WebSocket connections, else 1 if it made a request over "
        "HTTP in the last two minutes (never whether a long poll is open now: that would tell "
        "who is deciding)"
    )
    ready: bool


class RuleChangeOut(BaseModel):
    seq: int = Field(description="1 for the rules the table was created with")
    from_round: int = Field(description="the first round these rules apply to")
    variant: str
    title: str
    overrides: dict[str, Any]
    house_rules: list[str] = Field(description="the overrides in words (`variants diff`)")
    house_rules_words: list[dict[str, str]] = Field(
        default_factory=list,
        description="the same, one language at a time: `[{zh, en}]` (zhuoji.server.rule_words)",
    )
    changed_at: str


class RoundOut(BaseModel):
    number: int
    status: str = Field(description="live or ended")
    variant: str
    overrides: dict[str, Any]
    dealer: int
    streak: int
    round_wind: int
    started_at: str
    ended_at: str | None
    totals: list[int] | None
    next_dealer: int | None
    next_streak: int | None
    settlement: dict[str, Any] | None = Field(
        description="itemized ledger (entries with Chinese/English labels), totals, every hand"
    )


class TableOut(BaseModel):
    id: str
    name: str
    created_at: str
    players: int
    variant: str = Field(description="the variant of the next (or current) round")
    title: str
    overrides: dict[str, Any]
    house_rules: list[str] = Field(description="the overrides in words (`variants diff`)")
    house_rules_words: list[dict[str, str]] = Field(
        default_factory=list,
        description="the same, one language at a time: `[{zh, en}]` (zhuoji.server.rule_words)",
    )
    rounds_total: int
    rounds_played: int
    current_round: int | None
    phase: str | None = Field(description="turn, claim, rob, end; null before the first round")
    next_round: NextRound
    bot_delay_ms: int
    turn_seconds: int | None = Field(description="the turn timer; null: none")
    claim_window_ms: int
    seats: list[SeatOut]
    scores: list[int] = Field(description="match totals per seat over finished rounds")
    rules_history: list[RuleChangeOut]


class TableCreated(TableOut):
    tokens: dict[int, str] = Field(
        description="seat → seat token, for human seats; shown only here"
    )


class TokenOut(BaseModel):
    table: str
    seat: int
    token: str


class LogOut(BaseModel):
    table: str
    round: int
    events: list[dict[str, Any]] = Field(
        description="the event log (schemas/event-log.schema.json)"
    )


class SeatView(BaseModel):
    """What one seat may see: its own hand, every meld and discard, counts; never another
    seat's concealed tiles or the wall (see zhuoji.engine.Round.observation)."""

    model_config = ConfigDict(extra="allow")

    table: str
    seat: int
    round: int | None
    seq: int = Field(description="events in the round so far; grows with every change")
    phase: str = Field(description="waiting, turn, claim, rob, end")
    to_act: list[int]
    hand: str = Field(description="own concealed tiles in notation")
    hand_names: str | None = None
    legal: list[dict[str, str]] = Field(description="legal actions: {action, label}")
    names: list[str]
    scores: list[int]
    settlement: dict[str, Any] | None = None


class ActionOut(BaseModel):
    ok: bool
    view: SeatView


class HealthOut(BaseModel):
    ok: bool
    version: str
    backend: str
    tables: int
    live_rounds: int
    actions: int
    commits: int
    writes: int
    broken_tables: dict[str, str] = Field(
        description="tables that could not be resumed at start, and why"
    )


class QuarantinedTable(BaseModel):
    id: str
    reason: str


class QuarantinedVariant(BaseModel):
    name: str
    reason: str


class QuarantineOut(BaseModel):
    """What is not served because its stored records are damaged (``*``: a whole list
    that cannot be read)."""

    tables: list[QuarantinedTable]
    variants: list[QuarantinedVariant]


class WhoAmI(BaseModel):
    role: Role
    table: str | None
    seat: int | None


class VariantArchivedOut(BaseModel):
    name: str
    archived_at: str
    versions: int = Field(description="stored versions, all kept (tables pinned to one keep it)")


class VariantOut(BaseModel):
    name: str
    title: str
    kind: str = Field(
        description="shipped, stored (by an operator), or archived (stored, not offered to new tables)"
    )
    latest: str = Field(description="the reference a new table takes: NAME or NAME@VERSION")
    versions: int = Field(description="stored versions (0 for a shipped variant)")


#: the error responses every API route documents: no or an unknown token, or one that may
#: not do this (each router of zhuoji.server.routes declares them for its routes)
AUTH_ERRORS: dict[int | str, dict[str, Any]] = {401: {"model": ErrorOut}, 403: {"model": ErrorOut}}

#: the error responses a route documents besides 401 and 403
ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut},
    409: {"model": ErrorOut},
    422: {"model": ErrorOut},
}
