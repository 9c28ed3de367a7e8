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
from zhuoji.hand import Form, LanRule
from zhuoji.migrations import CURRENT_FORMAT
from zhuoji.outcome import Meld, MeldKind, Reveal, RevealStatus
from zhuoji.rules.facts import COUNT_FACTS, Requires

NAME_PATTERN = r"^[a-z][a-z0-9_-]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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

    def makes_chickens(self, reveal: Reveal) -> bool:
        """Whether a reveal makes chickens: an open one, or a drawn one where the variant
        keeps it (``lost_when_drawn: false``)."""
        return reveal.status is RevealStatus.OPEN or (
            not self.lost_when_drawn and reveal.status is RevealStatus.DRAWN
        )


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
        rule = self.start_reveal
        if rule is None:
            return [r for r in reveals if r.status is RevealStatus.OPEN]
        return [r for r in reveals if rule.makes_chickens(r)]


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


VARIANTS_DIR = Path(__file__).with_name("variants")
