"""Variants: a rule set as data, validated, frozen, and resolved into a :class:`Ruleset`.

Data flow (``docs/architecture.md``): ``variants/*.yaml`` → ``extends`` merge → JSON Schema
check (:mod:`zhuoji.variant_io`) → :class:`Variant` (frozen pydantic, this module: what the
file says, as data) → :class:`zhuoji.ruleset.Ruleset` (hooks resolved from the registry with
their own parameter models).  Per-table overrides go through the same merge and checks.

The pydantic models here are the single source of truth: ``schemas/variant.schema.json`` is
generated from them (``python -m zhuoji.schema``) and a test fails when it is stale.
Field descriptions are the rules author's reference; titles are the labels ``zhuoji
variants diff`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from zhuoji import tiles as T
from zhuoji.contract.checks import Problem, rule
from zhuoji.hand import Form, LanRule
from zhuoji.migrations import CURRENT_FORMAT
from zhuoji.outcome import (
    Declaration,
    Meld,
    MeldKind,
    Reveal,
    RevealAt,
    RevealStatus,
    RoundEnd,
    WinHow,
)
from zhuoji.rules.facts import COUNT_FACTS, Requires

# the reveal statuses settlement asks of every reveal of every round, as module constants: a
# member read off its enum class goes through the enum type's ``__getattr__`` (issue 29)
_OPEN = RevealStatus.OPEN
_DRAWN = RevealStatus.DRAWN

NAME_PATTERN = r"^[a-z][a-z0-9_-]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class TilesSection(Strict):
    """The tile set and the table."""

    set: T.TileSet = Field(
        T.TileSet.SUITS,
        title="tile set",
        description="suits: 108 tiles 万条筒; full: 136 with winds and dragons; two-suit: 72 (条筒); "
        "suits+red: 112, 万条筒 and four 红中",
    )
    players: int = Field(4, ge=2, le=4, title="players", description="seats at the table")
    hand_size: Literal[4, 7, 10, 13] = Field(
        13, title="hand size", description="tiles a non-dealer is dealt; the dealer gets one more"
    )
    flowers: int = Field(
        0,
        ge=0,
        le=8,
        title="flower tiles",
        description="flower tiles (红花) added to the wall (黔西: 4, CITIES.md 黔西 tiles "
        "MahjongCards112_FLOWER, 108 + 4).  A flower drawn, at the deal too, is set aside face "
        "up and replaced from where kongs are replaced (补花); it is never held, discarded or "
        "waited on.  0: no flowers",
    )

    @property
    def wall_size(self) -> int:
        """Tiles in the wall: the set's four copies of each kind, and the flowers."""
        return T.COPIES * len(T.kinds_in(self.set)) + self.flowers

    def problems(self, end: RoundEnd) -> list[Problem]:
        """Flowers set aside (补花) beyond what the set has: any where it has none, more in
        all than ``flowers``."""
        out = []
        have = self.flowers
        for s, seat in enumerate(end.seats):
            if seat.flowers and not have:
                out.append(
                    Problem(
                        f"seats[{s}].flowers",
                        rule("tiles.flowers", 0),
                        f"{seat.flowers} flower(s) set aside in a variant without flowers",
                    )
                )
        total = sum(seat.flowers for seat in end.seats)
        if have and total > have:
            out.append(
                Problem(
                    "seats",
                    rule("tiles.flowers", have),
                    f"{total} flowers set aside in all; the set has {have}",
                )
            )
        return out


class WildSection(Strict):
    """六安 宝牌: a wild tile chosen after the deal (seed 003 "确定宝牌")."""

    indicator: Literal["tail_dice", "tail", "head", "fixed"] = Field(
        "tail_dice",
        title="宝牌 indicator",
        description="where the indicator is revealed: counted by dice from the wall's end, the "
        "last tile, or the next tile; the wild is the next kind after it (9→1, 北→东, 白→中); "
        "fixed: no indicator, the wild is `tile` (红中癞子)",
    )
    tile: str | None = Field(
        None,
        pattern=T.TILE_PATTERN,
        title="fixed wild tile",
        description="the wild tile when indicator is fixed (e.g. 5z)",
    )
    stand_in: str | None = Field(
        None,
        pattern=T.TILE_PATTERN,
        title="stand-in tile (红中配)",
        description="a tile that may stand for the wild's own face (红中配: 5z, seed 003; "
        "白板配: 7z); null for none",
    )
    stand_in_when: Literal["suit_wild", "always"] = Field(
        "suit_wild",
        title="stand-in applies",
        description="suit_wild: only while the wild is a suit tile (seed 003 红中配 "
        '"在宝牌不是东、南、西、北、中、发、白的时候"); always: whatever the wild (白板配 standing '
        "for a 红中 wild; a reading, no seed states it)",
    )
    claimable: bool = Field(
        False, title="wild claimable", description="whether a discarded wild may be punged/konged"
    )
    discard: Literal["first_only", "any", "never"] = Field(
        "first_only",
        title="扔宝 discard",
        description="when a wild tile may be discarded: only as a player's first discard (扔宝), any time, never",
    )
    live_wall_ends_at_indicator: bool = Field(
        True,
        title="wall ends at indicator",
        description="the round is drawn when drawing reaches the indicator (seed 003 荒庄)",
    )

    @model_validator(mode="after")
    def _fixed_needs_tile(self) -> WildSection:
        if (self.indicator == "fixed") != (self.tile is not None):
            raise ValueError("give wild.tile exactly when wild.indicator is fixed")
        if self.stand_in is not None and self.stand_in == self.tile:
            raise ValueError(f"the stand-in {self.stand_in} is the fixed wild tile itself")
        return self

    def stand_in_for(self, wild: int) -> int | None:
        """The stand-in kind in a round whose wild kind is ``wild``, if it applies."""
        if self.stand_in is None or (self.stand_in_when == "suit_wild" and T.is_honor(wild)):
            return None
        kind = T.parse_one(self.stand_in)
        return None if kind == wild else kind

    @property
    def fixed_kind(self) -> int | None:
        return T.parse_one(self.tile) if self.indicator == "fixed" and self.tile else None

    def may_claim(self, tile: int, wild: int | None) -> bool:
        """Whether a discarded ``tile`` may be claimed for a meld in a round whose wild kind
        is ``wild``: any tile but the wild, and the wild where it is ``claimable`` (seed 003
        「宝牌不可以碰、杠」)."""
        return tile != wild or self.claimable

    def may_discard(self, first_discard: bool) -> bool:
        """Whether a wild tile may be discarded (``discard``): any time, only as the player's
        first discard (扔宝, seed 003 "只有第一张牌才可以打出宝牌"), or never."""
        return self.discard == "any" or (self.discard == "first_only" and first_discard)

    def may_meld(self, meld: Meld, wild: int) -> bool:
        """Whether ``meld`` may hold the wild kind ``wild``: only where the wild is
        ``claimable``, as a pung or kong claimed on a discarded wild (or added to one) or as
        the tile a chow takes; never in a concealed kong, nor from the hand into a chow."""
        if wild not in meld.tiles:
            return True
        if meld.kind is MeldKind.GANG_CONCEALED:
            return False
        if meld.kind is MeldKind.CHI:
            return self.claimable and meld.claimed in (None, wild)
        return self.claimable

    def problems(self, end: RoundEnd) -> list[Problem]:
        """What a round end under this section may not show: an indicator where the wild is
        fixed, none where one is revealed, a meld holding the wild it may not hold."""
        out = []
        fixed = self.fixed_kind
        if fixed is not None and end.wild_indicator is not None:
            out.append(
                Problem(
                    "wild_indicator",
                    rule("wild.indicator", self.indicator),
                    f"the wild is {T.format([fixed])} in every round: no indicator is revealed",
                )
            )
        if fixed is None and end.wild_indicator is None:
            out.append(
                Problem(
                    "wild_indicator",
                    rule("wild.indicator", self.indicator),
                    "every round reveals a 宝牌 indicator, and the wild follows from it: give it",
                )
            )
        wild = end.wild
        if wild is None:
            return out
        for s, seat in enumerate(end.seats):
            for j, m in enumerate(seat.melds):
                if not self.may_meld(m, wild):
                    how = (
                        "only a discarded wild is claimed, never one from a concealed kong or "
                        "into a chow from the hand"
                        if self.claimable
                        else "the wild is never melded"
                    )
                    out.append(
                        Problem(
                            f"seats[{s}].melds[{j}]",
                            rule("wild.claimable", self.claimable),
                            f"a {m.kind.value} holding the wild {T.format([wild])}: {how}",
                        )
                    )
        return out

    @staticmethod
    def absent(end: RoundEnd) -> list[Problem]:
        """A variant without 宝牌 (``wild: null``) reveals no indicator."""
        if end.wild_indicator is None:
            return []
        return [
            Problem(
                "wild_indicator",
                rule("wild", None),
                "the variant has no 宝牌 (wild tiles), so no indicator is revealed",
            )
        ]


class StartReveal(Strict):
    """A chicken reveal made at round start from the wall's end, optionally moved or added to
    at each kong (CITIES.md "Reveal and chicken mechanisms": 前后鸡 / 滚筒鸡, FW
    ``chiken/chikenFB.go`` and ``chikenTumbling.go``; 独山 开局翻鸡, DS §3)."""

    stack: int = Field(
        ge=1,
        le=20,
        title="reveal stack",
        description="the top tile of this stack, counted from the wall's end, is revealed at "
        "round start (FW 前后鸡/滚筒鸡: 3, 「倒数第三墩上面那个」, index len−6; DS 开局翻鸡: the wall "
        "tail)",
    )
    on_kong: Literal["stay", "move", "add"] = Field(
        title="at each kong",
        description="stay: the one reveal stays (DS 开局翻鸡); move: 前后鸡, a completed kong turns "
        "the tile one stack further toward the live end face up and closes the old one; add: "
        "滚筒鸡, the same, but earlier reveals stay open so chickens accumulate",
    )
    lost_when_drawn: bool = Field(
        True,
        title="lost when drawn",
        description="a revealed tile a player draws makes no chicken any more (FW "
        "``GetChikenFB``: 「!tileWall.IsDrawn」); false: it still counts (DS §13: 「不移出」, "
        "the reveal stays in the wall and may be drawn)",
    )

    @property
    def reveals_at_kong(self) -> bool:
        """Whether a completed kong turns a tile over (前后鸡 moves the reveal, 滚筒鸡 adds
        one; 开局翻鸡 stays)."""
        return self.on_kong != "stay"

    @property
    def closes_at_kong(self) -> bool:
        """Whether a completed kong closes the open reveals (前后鸡: 「并关闭当前墩」), so one
        reveal is open at a time."""
        return self.on_kong == "move"

    def makes_chickens(self, reveal: Reveal) -> bool:
        """Whether a reveal makes chickens: an open one, or a drawn one where the variant
        keeps it (``lost_when_drawn: false``)."""
        return reveal.status is _OPEN or (not self.lost_when_drawn and reveal.status is _DRAWN)

    def problems(self, reveals: Sequence[Reveal], kongs: int) -> list[Problem]:
        """Reveals made during play (``reveals`` as the round end lists them, ``kongs`` the
        kongs completed) that this rule cannot make: one reveal at round start, before any
        other; one at most per completed kong; under 前后鸡 (``move``) one open reveal at a
        time, the last one made (FW ``GenChikenFB`` moves the one index, 「前后鸡往前走一墩」,
        and ``GetChikenFB`` reads only it)."""
        out = []
        in_play = [(i, r) for i, r in enumerate(reveals) if r.at is not RevealAt.WIN]
        at_start = [i for i, r in in_play if r.at is RevealAt.START]
        for i in at_start:
            if i != in_play[0][0]:
                out.append(
                    Problem(
                        f"reveals[{i}].at",
                        rule("deal.start_reveal.stack", self.stack),
                        "one tile is revealed at round start, before any other",
                    )
                )
        at_kong = [i for i, r in in_play if r.at is RevealAt.KONG]
        if len(at_kong) > (kongs if self.reveals_at_kong else 0):
            out.append(
                Problem(
                    f"reveals[{at_kong[kongs]}].at",
                    rule("deal.start_reveal.on_kong", self.on_kong),
                    f"{len(at_kong)} reveals made at a kong, but {kongs} "
                    f"kong{'' if kongs == 1 else 's'} completed: each kong makes one",
                )
            )
        if self.closes_at_kong:
            for i, r in in_play[:-1]:
                if r.status is RevealStatus.OPEN:
                    out.append(
                        Problem(
                            f"reveals[{i}].status",
                            rule("deal.start_reveal.on_kong", self.on_kong),
                            "前后鸡 keeps one open reveal: each kong closes the one before, "
                            "so only the last reveal made during play can still be open",
                        )
                    )
        return out


class DealSection(Strict):
    """Dealer choice, wall break, replacement draws and the chicken reveal."""

    first_dealer: Literal["dice", "east", "random"] = Field(
        "dice", title="first dealer", description="how the first round's dealer is chosen"
    )
    wall_break: Literal["dice", "none"] = Field(
        "dice", title="wall break", description="whether dice choose where the wall is broken"
    )
    replacement: Literal["head", "tail", "tail_dice"] = Field(
        "tail",
        title="kong replacement",
        description="where a kong's replacement tile comes from: the next tile, the wall's "
        "end, or counted from the end by a dice roll (六安)",
    )
    reveal: Literal["head", "tail", "none"] = Field(
        "head",
        title="chicken reveal",
        description="翻鸡: which undrawn tile is revealed after a win",
    )
    start_reveal: StartReveal | None = Field(
        None,
        title="round-start reveal",
        description="前后鸡 / 滚筒鸡 / 开局翻鸡: a reveal at round start from the wall's end, "
        "moved or added to at each kong; null: none",
    )

    def counting(self, reveals: Iterable[Reveal]) -> list[Reveal]:
        """The reveals that make chickens: open ones, and drawn ones where the variant keeps a
        drawn reveal (``start_reveal.lost_when_drawn: false``, DS §13 「不移出」)."""
        start = self.start_reveal
        if start is None:
            return [r for r in reveals if r.status is _OPEN]
        return [r for r in reveals if start.makes_chickens(r)]

    def problems(self, end: RoundEnd) -> list[Problem]:
        """Reveals the deal cannot make: a tile turned over after a win where none is
        (``reveal: none``) or after a drawn round, or one not the last reveal; and what the
        round-start reveal rule forbids (:meth:`StartReveal.problems`)."""
        out = []
        last = len(end.reveals) - 1
        for i, r in enumerate(end.reveals):
            if r.at is not RevealAt.WIN:
                continue
            why = (
                "the variant turns no tile over after a win"
                if self.reveal == "none"
                else "a tile is turned over after a win, and the round was drawn"
                if not end.wins
                else "the tile turned over after the win is the round's last reveal"
                if i != last
                else None
            )
            if why is not None:
                out.append(Problem(f"reveals[{i}].at", rule("deal.reveal", self.reveal), why))
        if self.start_reveal is not None:
            kongs = sum(1 for seat in end.seats for m in seat.melds if m.is_kong)
            out += self.start_reveal.problems(end.reveals, kongs)
        return out


class KongKinds(Strict):
    concealed: bool = Field(True, title="concealed kong", description="闷豆 / 暗杠")
    exposed: bool = Field(True, title="exposed kong", description="点豆 / 明杠 on a discard")
    added: bool = Field(True, title="added kong", description="转弯豆 / 补杠 onto one's own pung")


KongKind = Literal["added", "concealed", "exposed"]


class ClaimsSection(Strict):
    """Which claims exist and how they are resolved."""

    chi: bool = Field(
        False, title="吃 allowed", description="chow from the previous player's discard"
    )
    peng: bool = Field(True, title="碰 allowed", description="pung on any discard")
    kongs: KongKinds = Field(
        default_factory=KongKinds, title="kongs", description="which of the three kong kinds exist"
    )
    win_on_discard: bool = Field(
        True, title="win on discard", description="false: self-draw (or robbing a kong) only (六安)"
    )
    rob_kong: list[KongKind] = Field(
        default_factory=lambda: list[KongKind](["added"]),
        title="robbable kongs",
        description="kong kinds another player may rob (抢杠); empty for none",
    )
    multiple_winners: bool = Field(
        True, title="一炮多响", description="several players may win on one discard"
    )
    pass_lock: Literal["none", "same_tile", "any_tile"] = Field(
        "none",
        title="过水 pass lock",
        description="after passing a win on a discard: no lock, no win on that same tile, or "
        "no discard win at all, until the player's own next draw or claim (seed 002)",
    )
    last_tile_kong: bool = Field(
        False,
        title="kong on the last tile",
        description="whether a kong may be made when no tile is left for its replacement",
    )
    must_win: list[Literal["repao", "rob_kong"]] = Field(
        default_factory=list,
        title="必胡",
        description="wins that are compulsory: a seat that may win on a 热炮 discard (repao) or "
        "on a robbed kong (rob_kong) is offered only the win, no pass (seed 004 (3) "
        '"热炮和抢杠和必胡")',
    )

    def allows(self, kind: MeldKind) -> bool:
        """Whether the variant has melds of ``kind`` at all (``chi``, ``peng``, ``kongs``)."""
        if kind is MeldKind.CHI:
            return self.chi
        if kind is MeldKind.PENG:
            return self.peng
        return bool(getattr(self.kongs, _KONG_KIND[kind]))

    def may_chow(self, seat: int, discarder: int, players: int) -> bool:
        """Whether ``seat`` may chow ``discarder``'s discard: only the next player (下家 takes
        from his 上家), where the variant has 吃."""
        return self.chi and seat == (discarder + 1) % players

    def wins_by(self, how: WinHow) -> bool:
        """Whether a win may come ``how``: a self-draw always; on a discard where
        ``win_on_discard``; by robbing a kong where some kong kind may be robbed."""
        if how is WinHow.DISCARD:
            return self.win_on_discard
        if how is WinHow.ROB_KONG:
            return bool(self.rob_kong)
        return True

    def may_rob(self, kind: MeldKind) -> bool:
        """Whether a kong of ``kind`` may be robbed (``rob_kong``)."""
        return _KONG_KIND.get(kind) in self.rob_kong

    def problems(self, end: RoundEnd) -> list[Problem]:
        """Melds the variant has no claim for (a chow without 吃, a kong kind it lacks), a
        chow not taken from the previous player, a robbed kong it does not let be robbed."""
        out = []
        n = end.players
        for s, seat in enumerate(end.seats):
            for j, m in enumerate(seat.melds):
                if not self.allows(m.kind):
                    key = _CLAIM_KEY[m.kind]
                    out.append(
                        Problem(
                            f"seats[{s}].melds[{j}].kind",
                            rule(key, False),
                            f"a {m.kind.value} meld ({_MELD_LABEL[m.kind]}), which the variant "
                            "does not have",
                        )
                    )
                elif (
                    m.kind is MeldKind.CHI
                    and m.source is not None
                    and not self.may_chow(s, m.source, n)
                ):
                    out.append(
                        Problem(
                            f"seats[{s}].melds[{j}].from",
                            rule("claims.chi", True),
                            f"a chow (吃) takes the previous player's discard: seat "
                            f"{(s - 1) % n}'s, not seat {m.source}'s",
                        )
                    )
        for k, w in enumerate(end.wins):
            if w.how is WinHow.ROB_KONG and w.source is not None and end.win_tile is not None:
                why = self._robbed(end, w.source, end.win_tile)
                if why is not None:
                    out.append(
                        Problem(
                            f"result.wins[{k}].how", rule("claims.rob_kong", self.rob_kong), why
                        )
                    )
        return out

    def _robbed(self, end: RoundEnd, robbed: int, tile: int) -> str | None:
        """Why seat ``robbed``'s kong of ``tile`` cannot have been robbed, or None.  A robbed
        added kong leaves its pung on the table, a robbed concealed kong its three tiles in
        the hand (the kong was never completed)."""
        if not self.rob_kong:
            return "the variant has no 抢杠 (robbing a kong)"
        seat = end.seats[robbed]
        kinds = []
        if any(m.kind is MeldKind.PENG and m.tile == tile for m in seat.melds):
            kinds.append(MeldKind.GANG_ADDED)
        if seat.concealed.count(tile) >= 3:
            kinds.append(MeldKind.GANG_CONCEALED)
        name = T.format([tile])
        if not kinds:
            return (
                f"seat {robbed} holds neither a pung of {name} (an added kong robbed) nor "
                f"three {name} (a concealed kong robbed): no kong of {name} to rob"
            )
        if any(self.may_rob(k) for k in kinds):
            return None
        kong = "added kong (转弯豆)" if kinds[0] is MeldKind.GANG_ADDED else "concealed kong (闷豆)"
        return f"seat {robbed}'s {kong} of {name} may not be robbed"


_CLAIM_KEY: dict[MeldKind, str] = {
    MeldKind.CHI: "claims.chi",
    MeldKind.PENG: "claims.peng",
    MeldKind.GANG_EXPOSED: "claims.kongs.exposed",
    MeldKind.GANG_CONCEALED: "claims.kongs.concealed",
    MeldKind.GANG_ADDED: "claims.kongs.added",
}
_MELD_LABEL: dict[MeldKind, str] = {
    MeldKind.CHI: "吃",
    MeldKind.PENG: "碰",
    MeldKind.GANG_EXPOSED: "点豆",
    MeldKind.GANG_CONCEALED: "闷豆",
    MeldKind.GANG_ADDED: "转弯豆",
}


class BaotingSection(Strict):
    """报听: declaring ready, after which the hand is frozen."""

    hard: bool = Field(
        True, title="硬报", description="the dealer may declare on the initial 14 tiles"
    )
    soft: bool = Field(
        True, title="软报", description="a non-dealer may declare with his first discard"
    )
    allow_peng: bool = Field(False, title="碰 after 报听", description="a declared player may pung")
    allow_kong: bool = Field(
        False, title="杠 after 报听", description="a declared player may kong (waits unchanged)"
    )
    automatic: bool = Field(
        False,
        title="自动报叫",
        description="a first discard that leaves the hand ready declares it, with no choice "
        "(DS §6 「你打出自己的第一张牌之后，如果这时已经听牌，就自动报叫」, CITIES.md 独山 "
        "「automatic if ready after one's first discard」); false: declaring is the player's "
        "choice",
    )

    def declaration(self, dealer: bool) -> Declaration | None:
        """The 报听 a seat may make: 硬报 for the dealer on his first 14 tiles, 软报 for a
        non-dealer with his first discard (RULES.md 报听 「dealer ready on the initial 14 /
        non-dealer ready after the first draw」); None where the variant has no such one."""
        if dealer:
            return Declaration.HARD if self.hard else None
        return Declaration.SOFT if self.soft else None

    def may_meld(self, kind: MeldKind) -> bool:
        """Whether a declared (frozen) hand may make a ``kind`` meld: a pung where
        ``allow_peng``, a kong where ``allow_kong`` (waits unchanged), never a chow."""
        if kind is MeldKind.CHI:
            return False
        if kind is MeldKind.PENG:
            return self.allow_peng
        return self.allow_kong

    def problems(self, end: RoundEnd) -> list[Problem]:
        """A declaration the seat could not make (硬报 is the dealer's, 软报 a non-dealer's,
        each where the variant has it), and a declared seat's melds its frozen hand could
        not make (a declaration comes before any meld, so every meld came after it)."""
        out = []
        for s, seat in enumerate(end.seats):
            made = seat.declared
            if made is None:
                continue
            if made is not self.declaration(s == end.dealer):
                out.append(self._wrong(s, made, end.dealer))
            for j, m in enumerate(seat.melds):
                # an added kong's pung was made after the declaration too
                made_after = [MeldKind.PENG, m.kind] if m.kind is MeldKind.GANG_ADDED else [m.kind]
                refused = next((k for k in made_after if not self.may_meld(k)), None)
                if refused is not None:
                    out.append(
                        Problem(
                            f"seats[{s}].melds[{j}]",
                            self._freezes(refused),
                            f"seat {s} declared 报听, which freezes his hand before any meld: "
                            f"no {m.kind.value} after it",
                        )
                    )
        return out

    def _freezes(self, kind: MeldKind) -> str:
        """The rule that keeps a declared hand from a ``kind`` meld."""
        if kind is MeldKind.CHI:
            return "baoting (a declared hand never chows)"
        if kind is MeldKind.PENG:
            return rule("baoting.allow_peng", self.allow_peng)
        return rule("baoting.allow_kong", self.allow_kong)

    def _wrong(self, seat: int, made: Declaration, the_dealer: int) -> Problem:
        """A declaration seat ``seat`` could not make."""
        key = f"baoting.{made.value}"
        label = "硬报" if made is Declaration.HARD else "软报"
        offered = getattr(self, made.value)
        if not offered:
            return Problem(
                f"seats[{seat}].declared", rule(key, False), f"the variant has no {label}"
            )
        whose = (
            f"硬报 is the dealer's declaration, on his first 14 tiles; seat {seat} is not the "
            f"dealer (seat {the_dealer} is)"
            if made is Declaration.HARD
            else f"软报 is a non-dealer's declaration, after his first draw; seat {seat} is the "
            "dealer, whose declaration is 硬报"
        )
        return Problem(
            f"seats[{seat}].declared",
            f"{key} ({label})",
            whose,
            "RULES.md 报听 「dealer ready on the initial 14 / non-dealer ready after the first draw」",
        )

    @staticmethod
    def absent(end: RoundEnd) -> list[Problem]:
        """A variant without 报听 (``baoting: null``) has no declared seat."""
        return [
            Problem(f"seats[{s}].declared", rule("baoting", None), "the variant has no 报听")
            for s, seat in enumerate(end.seats)
            if seat.declared is not None
        ]


_KONG_KIND: dict[MeldKind, KongKind] = {
    MeldKind.GANG_CONCEALED: "concealed",
    MeldKind.GANG_EXPOSED: "exposed",
    MeldKind.GANG_ADDED: "added",
}


class RepaoSection(Strict):
    """热炮: which deal-ins count as a discard after a kong."""

    scope: Literal["after_kong", "after_dou"] = Field(
        "after_kong",
        title="热炮 scope",
        description="after_kong: the discarder's first discard after his own kong (seeds "
        '001/004 "杠后,打出去的第一张牌"); after_dou: any discard once the discarder owns a '
        'dou (seed 000 15) "所有成豆后打出的牌点炮都被称作是点热炮")',
    )
    late_kongs: bool = Field(
        True,
        title="憨包 kong counts",
        description="a late (憨包) kong makes 热炮 like any kong; false: it is an ordinary "
        'replacement draw (seed 004 (6)(7) "算普通补张")',
    )
    kong_kinds: list[KongKind] = Field(
        default_factory=lambda: list[KongKind](["concealed", "exposed", "added"]),
        title="kongs that make 热炮",
        description="which kong kinds make their owner's deal-ins 热炮 (安顺: [concealed, "
        "added], a discard after an exposed kong 点豆 is no 热炮, CITIES.md 安顺 FW "
        "EnableKongHotPao=false)",
    )

    def counts(self, kong: Meld) -> bool:
        """Whether ``kong`` (a kong meld) makes its owner's deal-ins 热炮."""
        return _KONG_KIND.get(kong.kind) in self.kong_kinds and (self.late_kongs or not kong.late)

    def applies(self, melds: Sequence[Meld], *, after_kong: bool, kong: Meld | None) -> bool:
        """Whether a discard deals a 热炮: by a player holding ``melds``; ``after_kong``: it is
        his first discard after his kong ``kong``."""
        if self.scope == "after_kong":
            return after_kong and kong is not None and self.counts(kong)
        return any(m.is_kong and self.counts(m) for m in melds)


class FormsSection(Strict):
    allowed: list[Form] = Field(
        default_factory=lambda: [Form.STANDARD, Form.SEVEN_PAIRS],
        title="winning forms",
        description="standard (sets and a pair), seven_pairs, shisanlan (十三烂), shisanyao (十三幺)",
    )
    quads_as_two_pairs: bool = Field(
        True,
        title="quad as two pairs",
        description="a four-of-a-kind counts as two pairs in seven pairs (龙七对)",
    )
    shisanlan: LanRule = Field(
        LanRule.THREE_APART,
        title="十三烂 strictness",
        description="how a 十三烂 hand's suits may lie (honors always all different): "
        "three_apart — each suit's tiles pairwise at least three ranks apart (1-4-8 allowed); "
        "strict — literally within 147, 258 and 369, a different one per suit (seed 003 "
        '"1、4、7+2、5、8+3、6、9+不重复的风牌" read word for word; CITIES.md common mechanisms)',
    )


class ExchangeSection(Strict):
    """换三张 / 换四张: at the start every seat passes tiles to another, all at once, before
    定缺 (CITIES.md 捉鸡 with 定缺: FW setting idx 27–28, ZA; the order, the one-suit rule and
    the random direction as a public server's ``HuansanzhangState`` plays them: three tiles,
    "花色不一致" refused, direction clockwise/opposite/anticlockwise at random)."""

    tiles: Literal[3, 4] = Field(
        3, title="tiles exchanged", description="3: 换三张; 4: 换四张 (FW setting idx 27–28)"
    )
    same_suit: bool = Field(
        True,
        title="one suit",
        description="the tiles a seat passes are all of one suit (honors count as one group)",
    )
    direction: Literal["next", "previous", "opposite", "random"] = Field(
        "random",
        title="exchange direction",
        description="to whom each seat passes: the next seat to play (下家), the previous one "
        "(上家), the one opposite (对家, four players only), or random: chosen after every seat "
        "has chosen, by a roll of two dice (the sum modulo the number of directions the table "
        "has, in the order next, opposite, previous; the roll is a reading, the source draws "
        "at random)",
    )


class DingqueSection(Strict):
    """定缺: at the start every seat declares a suit void, all at once and unseen until all
    have chosen; a player may not win while holding a tile of it (CITIES.md 捉鸡 with 定缺,
    三丁拐: GA ``Table_GY_TWO`` "cannot claim or win holding the void suit"; the FW server
    skips every wait that leaves a void tile in the hand).  查花猪 / 查大叫 after a draw are
    the settlement stages ``huazhu`` and ``dajiao``."""

    meld_void: bool = Field(
        False,
        title="meld the void suit",
        description="whether a player may pung or kong tiles of his void suit (GA "
        "Table_GY_TWO: no claim on the void suit; concealed kongs follow the same rule, a reading)",
    )
    discard_void_first: bool = Field(
        False,
        title="discard the void suit first",
        description="while a player holds tiles of his void suit he may discard only those "
        "(a common 血战 table rule; off in every Guizhou source read)",
    )

    def may_meld(self, void_suit: int | None, tile: int) -> bool:
        """Whether a seat whose void suit is ``void_suit`` may pung, kong (or chow) ``tile``
        (``meld_void``; GA Table_GY_TWO: no claim on the void suit)."""
        return self.meld_void or void_suit is None or T.suit_of(tile) != void_suit

    def problems(self, end: RoundEnd) -> list[Problem]:
        """Melds of a seat's void suit where the variant forbids them.  (A win holding the
        void suit is refused by :func:`zhuoji.rules.win.void_suit_clear`, with every win
        check.)"""
        out = []
        for s, seat in enumerate(end.seats):
            for j, m in enumerate(seat.melds):
                if not self.may_meld(seat.void_suit, m.tile):
                    assert seat.void_suit is not None
                    out.append(
                        Problem(
                            f"seats[{s}].melds[{j}]",
                            rule("dingque.meld_void", False),
                            f"seat {s} melds {T.format(m.tiles)}, of his void suit "
                            f"({T.SUIT_LETTERS[seat.void_suit]}): no claim or kong on it (定缺)",
                        )
                    )
        return out


class PatternRow(Strict):
    """One scoring pattern: its fan and the facts it requires."""

    name: str = Field(description="Chinese label")
    name_en: str = Field("", description="English label")
    fan: int = Field(ge=0, le=1000, title="fan", description="value (fan, or 嘴 for 六安)")
    item: str = Field(
        "hu.pattern",
        pattern=r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$",
        description="ledger item code for this row's payment",
    )
    requires: Requires = Field(default_factory=Requires, description="facts that must hold")
    tile: str | None = Field(
        None,
        pattern=T.TILE_PATTERN,
        description="the tile the row's `tile_copies` fact counts (红中 嘴: 5z, seed 003 23); "
        "only for rows that use tile_copies",
    )
    per: Literal[COUNT_FACTS] | None = Field(  # type: ignore[valid-type]
        None, description="multiply fan by this count fact (e.g. kan: 1 嘴 per 坎)"
    )
    values_by_count: list[int] | None = Field(
        None,
        description="value for a count of 0, 1, 2, … of the `per` fact (红中: [0, 2, 4, 6, 10])",
    )
    additive: bool = Field(
        False,
        description="added on top of the hand's pattern even when only the highest pattern counts",
    )
    excludes: list[str] = Field(
        default_factory=list, description="pattern ids this one replaces when both match"
    )
    exclusive: bool = Field(
        False,
        description="when it matches, it is the hand's only pattern: every other row that is "
        "not additive is dropped, whatever it is worth (杠上开花 as a stand-alone pattern, "
        'FW server EnableKongAfterDraw "杠上开花时，不计其他牌型", CITIES.md 遵义/仁怀)',
    )

    @model_validator(mode="after")
    def _tile_for_tile_copies(self) -> PatternRow:
        uses = self.requires.tile_copies is not None or self.per == "tile_copies"
        if uses and self.tile is None:
            raise ValueError("a row that counts tile_copies names the tile it counts (tile: 5z)")
        if self.tile is not None and not uses:
            raise ValueError("tile is read only by tile_copies (in requires or per)")
        return self


class PatternsSection(Strict):
    combine: Literal["highest", "additive"] = Field(
        "highest",
        title="pattern combination",
        description="highest: only the best non-additive pattern counts (捉鸡); additive: all "
        "matching patterns add up (六安 嘴, 金游 fan)",
    )
    cap: int | None = Field(None, ge=1, title="爆和 cap", description="most fan a hand may count")
    rows: dict[str, PatternRow] = Field(default_factory=dict, description="patterns by id")

    @field_validator("rows")
    @classmethod
    def _ids(cls, rows: dict[str, PatternRow]) -> dict[str, PatternRow]:
        for pid, row in rows.items():
            for other in row.excludes:
                if other not in rows:
                    raise ValueError(f"pattern {pid!r} excludes unknown pattern {other!r}")
        return rows


class MatchSection(Strict):
    rounds: int = Field(8, ge=1, le=1000, title="rounds per match", description="rounds in a match")


#: a hook reference as written: ``{id: <hook id>, <param>: <value>, …}``; ``id`` defaults to
#: the entry's own key
HookRefData = dict[str, Any]


class Variant(Strict):
    """A complete rule set."""

    format: int = Field(
        CURRENT_FORMAT,
        ge=1,
        le=CURRENT_FORMAT,
        title="file format",
        description="the variant file format the file is written in (docs/variants.md "
        '"Format versions"); a file without it is format 1, the format before versioning '
        "began. A file of an older format is read through its migrations: `zhuoji variants "
        "migrate FILE --write` rewrites it in the current format",
    )
    revision: int | None = Field(
        None,
        ge=1,
        le=999_999,
        title="revision",
        description="this variant's revision: a shipped variant's is raised whenever its rules "
        "change, and `extends: NAME@REVISION` pins a parent at one (earlier ones are kept in "
        "zhuoji/variants/history/); a file's own, not inherited by its children",
    )
    name: str = Field(pattern=NAME_PATTERN, description="short id, the file name")
    title: str = Field(description="Chinese title")
    title_en: str = Field("", description="English title")
    source: str = Field(description="where the rules come from (seed file, public text)")
    description: str = Field("", description="what distinguishes this variant")
    family: str | None = Field(
        None,
        pattern=NAME_PATTERN,
        title="family",
        description="the rules family the variant belongs to: guizhou (贵州捉鸡 and the cities "
        "that play it), luan (六安), jinyou (金游世界), or a new one; `zhuoji variants list` "
        "groups variants by it.  A variant that extends another inherits its family",
    )
    extends: str | None = Field(
        None,
        description="the parent variant: a shipped name (its current revision), a shipped name "
        "pinned at a revision (guiyang@3), or a relative path",
    )
    tiles: TilesSection = Field(
        default_factory=TilesSection, description="the tile set and the table"
    )
    wild: WildSection | None = Field(None, description="宝牌 wild tiles; null for none")
    deal: DealSection = Field(
        default_factory=DealSection,
        description="dealer choice, wall break, replacement draws, chicken reveal",
    )
    claims: ClaimsSection = Field(
        default_factory=ClaimsSection, description="which claims exist and how they are resolved"
    )
    baoting: BaotingSection | None = Field(None, description="报听 declarations; null for none")
    repao: RepaoSection = Field(
        default_factory=RepaoSection, description="热炮: which deal-ins count as 热炮"
    )
    exchange: ExchangeSection | None = Field(
        None, description="换三张: tiles passed on at the start of the round; null for none"
    )
    dingque: DingqueSection | None = Field(
        None, description="定缺: each seat declares a void suit at the start; null for none"
    )
    forms: FormsSection = Field(default_factory=FormsSection, description="the winning forms")
    patterns: PatternsSection = Field(
        default_factory=PatternsSection,
        description="the fan (or 嘴) table: rows of data and how they combine",
    )
    may_win: dict[str, HookRefData] = Field(
        default_factory=dict,
        description="conditions for winning on a tile, by name (all must allow)",
    )
    dealer: HookRefData = Field(
        default_factory=lambda: {"id": "winner_deals"},
        description="who deals next, the 连庄 streak",
    )
    settle: dict[str, HookRefData] = Field(
        default_factory=dict, description="settlement stages, by name; they run by phase"
    )
    match: MatchSection = Field(
        default_factory=MatchSection, description="how many rounds a match has"
    )
    stake: int = Field(
        1,
        ge=1,
        le=1_000_000,
        title="底注 stake",
        description="底注 / 基础银子: the table's stake.  Every ledger amount is the rule's units "
        "(番, 分, 鸡 or 嘴) times the stake, applied once by the ledger (seed 003 结算规则 "
        '"*基础银子"); a per-table setting (--set stake=5).  The old spelling '
        "settle.hu.stake is read as this key",
    )

    def problems(self, end: RoundEnd) -> list[Problem]:
        """What the variant's sections forbid in a round end (:mod:`zhuoji.contract.checks`):
        claims, 宝牌, 报听, 定缺 and the deal's reveals, each stated by its section's model.
        The problems name the variant keys; the caller cites the variant's ``source``."""
        out = self.tiles.problems(end)
        out += self.claims.problems(end)
        out += self.wild.problems(end) if self.wild is not None else WildSection.absent(end)
        out += (
            self.baoting.problems(end) if self.baoting is not None else BaotingSection.absent(end)
        )
        if self.dingque is not None:
            out += self.dingque.problems(end)
        out += self.deal.problems(end)
        return out


VARIANTS_DIR = Path(__file__).with_name("variants")
