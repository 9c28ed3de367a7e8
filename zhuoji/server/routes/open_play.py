"""Open play: a person starts a table from the lobby without the operator — alone against
bots in one click, or a private table for friends with an invite link per seat.

* ``GET /api/open`` — whether open play is allowed, its limits, and what the lobby offers:
  every variant by title with a one-line description in each language (said from the
  variant's own facts: players, tiles, 报听, 定缺, wild), the presets, the bot strengths
  (the bot ladder: greedy, cautious, expert);
* ``POST /api/open/tables`` — a new open table (no credential): the creator's seat link
  and, for friends, one invite link per seat; refused 403 when the operator turned open
  play off, 429 past the tables allowed per client address;
* ``POST /api/open/tables/{id}/seats/{seat}/bot`` — the creator (its seat token) gives a
  friend's seat nobody took to a bot, after creation, even in a round;
* ``GET`` / ``PUT /api/open/policy`` — the operator's choice (operator token): open play
  on or off, tables per client address, idle minutes before an open table expires.

An open table is an ordinary table (:class:`zhuoji.server.manager.TableManager` creates it
and plays it); what open play adds is kept here, in memory: who created which table and
when it last moved.  A table that has not moved for the idle limit expires — its seat
tokens are revoked (persisted), so nobody plays at it again — and it no longer counts
against its creator's address.  Expiry is checked whenever open play is asked for.
Nothing here sees or hands out the operator token.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from zhuoji.server.deps import Operator, SeatHolder, manager_of
from zhuoji.server.manager import SeatSpec, TableManager, TableSpec
from zhuoji.server.models import AUTH_ERRORS, ERRORS, DisplayText
from zhuoji.server.tables import NextRound, SeatKind, Table

router = APIRouter(tags=["open play"], responses=AUTH_ERRORS)

#: the bot ladder a player picks from, weakest first (zhuoji.agents)
STRENGTHS = ("greedy", "cautious", "expert")


@dataclass(frozen=True)
class Preset:
    """A way to play a table, offered by the lobby."""

    id: str
    zh: str
    en: str
    line_zh: str
    line_en: str
    rounds: int | None  # None: the variant's match length
    turn_seconds: int | None


PRESETS = (
    Preset("one", "打一局", "One round", "一局定输赢，不限时", "a single round, no clock", 1, None),
    Preset("four", "四局", "Four rounds", "打四局，不限时", "four rounds, no clock", 4, None),
    Preset("timed", "限时四局", "Four rounds, timed", "四局，每步 20 秒", "four rounds, 20 s a move", 4, 20),
    Preset("match", "整场", "Full match", "打满玩法规定的局数", "as many rounds as the rules say", None, None),
)  # fmt: skip
PRESET_BY_ID = {p.id: p for p in PRESETS}


@dataclass
class OpenPlayPolicy:
    """What the operator allows: open play at all, tables per client address, idle expiry."""

    allowed: bool = True
    tables_per_address: int = 3
    idle_minutes: int = 30


@dataclass
class OpenTable:
    table_id: str
    address: str
    moved: tuple[Any, ...]  # what the table looked like when it last moved
    moved_at: float  # OpenPlay.clock() then


@dataclass
class OpenPlay:
    """Open play's state in the app: the policy and the open tables still alive."""

    policy: OpenPlayPolicy = field(default_factory=OpenPlayPolicy)
    tables: dict[str, OpenTable] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    variants: list[dict[str, Any]] | None = None  # the lobby's variant list (built once)
    clock: Callable[[], float] = time.monotonic  # seconds, for idle expiry (tests set it)

    def held_by(self, address: str) -> int:
        return sum(1 for t in self.tables.values() if t.address == address)

    async def expire_idle(self, manager: TableManager, now: float) -> list[str]:
        """Revoke the seat tokens of every open table idle for the policy's minutes; the
        ids expired."""
        limit = self.policy.idle_minutes * 60.0
        gone = []
        for tid, ot in list(self.tables.items()):
            table = manager.tables.get(tid)
            if table is None:
                del self.tables[tid]
                continue
            moved = activity(table)
            if moved != ot.moved:
                ot.moved, ot.moved_at = moved, now
            elif now - ot.moved_at >= limit:
                for st in table.humans():
                    if st.token_hash:
                        await manager.revoke_token(tid, st.seat)
                del self.tables[tid]
                gone.append(tid)
        return gone


def activity(table: Table) -> tuple[Any, ...]:
    """What changes whenever anything happens at a table: rounds, the live round's
    sequence number, the ready flags, who is connected."""
    last = table.rounds[-1].status if table.rounds else None
    seq = table.current.public_seq() if table.current is not None else 0
    return (
        len(table.rounds),
        last,
        seq,
        tuple(s.ready for s in table.seats),
        tuple(len(s.listeners) for s in table.seats),
    )


def open_play_of(request: Request) -> OpenPlay:
    """The app's open-play state (made on first use)."""
    state = request.app.state
    found: OpenPlay | None = getattr(state, "open_play", None)
    if found is None:
        found = OpenPlay()
        state.open_play = found
    return found


# -- what the lobby offers -------------------------------------------------------------------


def variant_line(manager: TableManager, name: str) -> dict[str, Any]:
    """A variant for the lobby: its titles and a one-line description in each language,
    said from its own facts."""
    v = manager.rules.ruleset(name, None).variant
    tiles = v.tiles.wall_size
    zh = [f"{v.tiles.players} 人", f"{tiles} 张"]
    en = [f"{v.tiles.players} players", f"{tiles} tiles"]
    if v.baoting is not None:
        zh.append("可报听")
        en.append("declaring ready")
    if v.dingque is not None:
        zh.append("定缺")
        en.append("a void suit")
    if v.exchange is not None:
        zh.append("换三张")
        en.append("three tiles passed on")
    if v.wild is not None:
        zh.append("有宝牌")
        en.append("a wild tile")
    if v.tiles.flowers:
        zh.append("补花")
        en.append("flowers set aside and replaced")
    return {
        "name": name,
        "title": v.title,
        "title_en": v.title_en or v.title,
        "players": v.tiles.players,
        "line_zh": "，".join(zh),
        "line_en": ", ".join(en),
    }


def lobby_variants(manager: TableManager) -> list[dict[str, Any]]:
    lib = manager.rules.library
    return [variant_line(manager, n) for n in sorted(lib.shipped)]


class PolicyIO(BaseModel):
    allowed: bool = Field(True, description="whether anyone may open a table from the lobby")
    tables_per_address: int = Field(
        3, ge=0, le=1000, description="open tables one client address may hold at once"
    )
    idle_minutes: int = Field(
        30, ge=1, le=7 * 24 * 60, description="minutes without a move before an open table expires"
    )


class OpenTableIn(BaseModel):
    """A table opened from the lobby."""

    variant: str = Field("guiyang", max_length=80, description="a shipped variant")
    preset: str = Field("one", max_length=20, description="one of GET /api/open's presets")
    bot: Literal["greedy", "cautious", "expert"] = Field(
        "cautious", description="the bots' strength"
    )
    seats: list[Literal["me", "friend", "bot"]] | None = Field(
        None,
        max_length=4,
        description="the table's seats in play order, the first `me`; default: me and bots",
    )
    name: DisplayText | None = Field(None, max_length=40, description="the creator's name")
    friend_names: list[Annotated[DisplayText, Field(max_length=40)]] = Field(
        default_factory=list, max_length=3, description="names of the friend seats, in order"
    )
    bot_delay_ms: int = Field(
        800, ge=300, le=3000, description="pause before each bot move (pacing)"
    )


@router.get("/api/open")
async def open_offer(request: Request) -> dict[str, Any]:
    """What the lobby offers: whether open play is allowed and its limits, the variants
    (titles and a line in each language), the presets and the bot strengths."""
    op = open_play_of(request)
    manager = manager_of(request)
    async with op.lock:
        await op.expire_idle(manager, op.clock())
    if op.variants is None:
        op.variants = await asyncio.to_thread(lobby_variants, manager)
    p = op.policy
    return {
        "allowed": p.allowed,
        "tables_per_address": p.tables_per_address,
        "idle_minutes": p.idle_minutes,
        "variants": op.variants,
        "presets": [p_.__dict__ for p_ in PRESETS],
        "bots": list(STRENGTHS),
    }


@router.post("/api/open/tables", status_code=201, responses=ERRORS)
async def open_table(body: OpenTableIn, request: Request) -> dict[str, Any]:
    """Open a table without the operator: the creator's seat and the others' (bots of the
    chosen strength, or friends with an invite link each).  403 when open play is off,
    429 when the caller's address holds as many open tables as allowed."""
    op = open_play_of(request)
    manager = manager_of(request)
    address = request.client.host if request.client else "?"
    preset = PRESET_BY_ID.get(body.preset)
    if preset is None:
        raise HTTPException(422, f"no preset {body.preset!r}; known: {', '.join(PRESET_BY_ID)}")
    if body.variant not in manager.rules.library.shipped:
        raise HTTPException(422, f"no shipped variant {body.variant!r}")
    players = (await asyncio.to_thread(manager.rules.ruleset, body.variant, None)).players
    kinds = body.seats or ["me"] + ["bot"] * (players - 1)
    if len(kinds) != players or kinds[0] != "me" or kinds.count("me") != 1:
        raise HTTPException(
            422, f"seats: {players} are needed, the first and only one `me` ({kinds})"
        )
    async with op.lock:
        if not op.policy.allowed:
            raise HTTPException(403, "open play is turned off on this server")
        await op.expire_idle(manager, op.clock())
        if op.held_by(address) >= op.policy.tables_per_address:
            raise HTTPException(
                429,
                f"this address holds {op.held_by(address)} open tables; at most "
                f"{op.policy.tables_per_address} at once",
            )
        friends = iter(body.friend_names)
        seats = []
        for k in kinds:
            if k == "bot":
                seats.append(SeatSpec(SeatKind.BOT, body.bot, None))
            else:
                name = body.name if k == "me" else next(friends, None)
                seats.append(SeatSpec(SeatKind.HUMAN, "greedy", (name or "").strip() or None))
        spec = TableSpec(
            variant=body.variant,
            seats=seats,
            rounds=preset.rounds,
            next_round=NextRound.READY,
            bot_delay_ms=body.bot_delay_ms,
            turn_seconds=preset.turn_seconds,
        )
        table, tokens = await manager.create_table(spec)
        op.tables[table.id] = OpenTable(table.id, address, activity(table), op.clock())
    link = f"/table/{table.id}#token="
    return {
        "table": table.id,
        "play": link + tokens[0],
        "invites": [
            {"friend": i + 1, "seat": s, "name": table.seats[s].name, "url": link + tokens[s]}
            for i, s in enumerate(s for s in sorted(tokens) if s != 0)
        ],
    }


class SeatBotIn(BaseModel):
    """A bot for an empty seat."""

    bot: Literal["greedy", "cautious", "expert"] = Field(
        "cautious", description="the bot's strength"
    )


@router.post("/api/open/tables/{table_id}/seats/{seat}/bot", responses=ERRORS)
async def open_seat_bot(
    table_id: str, seat: int, body: SeatBotIn, p: SeatHolder, request: Request
) -> dict[str, Any]:
    """The creator of a private table (its first seat's token) gives a friend's seat that
    nobody took to a bot: the friend's link stops working and the bot plays the seat from
    now on.  403 for another seat's token or a table not opened from the lobby; 409 while
    someone is at the seat."""
    op = open_play_of(request)
    if table_id not in op.tables:
        raise HTTPException(403, "only a table opened from the lobby gives its seats to bots")
    if p.seat != 0:
        raise HTTPException(403, "only the player who opened the table gives seats to bots")
    if seat == 0:
        raise HTTPException(409, "the opener's own seat stays the opener's")
    await manager_of(request).seat_to_bot(table_id, seat, body.bot)
    return {"table": table_id, "seat": seat, "bot": body.bot}


@router.get("/api/open/policy", response_model=PolicyIO, responses=ERRORS)
async def get_policy(_op: Operator, request: Request) -> dict[str, Any]:
    """The operator's open-play policy."""
    return dict(open_play_of(request).policy.__dict__)


@router.put("/api/open/policy", response_model=PolicyIO, responses=ERRORS)
async def put_policy(body: PolicyIO, _op: Operator, request: Request) -> dict[str, Any]:
    """Allow or forbid open play and set its limits (from now on; open tables already
    held stay until they expire)."""
    op = open_play_of(request)
    async with op.lock:
        op.policy = OpenPlayPolicy(body.allowed, body.tables_per_address, body.idle_minutes)
    return dict(op.policy.__dict__)
