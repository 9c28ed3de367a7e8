"""Parameters of the ``settle.chickens`` stage (the variant file's ``settle: chickens:``).

Every value a city sets is a field here, documented with its source; the stage and its
helpers read nothing else.  No tile is named in Python: chicken tiles, golden reveals, 冲锋
and 责任 tiles all come from the variant file, and an omitted list means "none".
Sources: the seeds (000, 001, 004) and ``CITIES.md`` ("Reveal and chicken mechanisms";
"Common mechanisms a variant format must express" 1–5), which cites FW, GA, ZA, DS, Q, RL.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from zhuoji.rules.registry import Params

TILE = "^([1-9][msp]|[1-7]z)$"
Tile = Annotated[str, Field(pattern=TILE)]
#: a list of tiles, or ``any``: every chicken known during play (the permanent ones and those
#: of reveals made during play)
TileChoice = list[Tile] | Literal["any"]
Direction = Literal["next", "prev", "same"]
ITEM = r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$"


class PermanentChicken(Params):
    """A tile that is a chicken whatever is revealed (常鸡)."""

    tile: str = Field(
        pattern=TILE,
        description="the chicken tile: 幺鸡 (一条, seed 000 ⑤ 常鸡), 乌骨鸡 (八筒, CITIES.md: FW idx 3, GA, "
        "ZA, Q), 钻石鸡 (红中 in the 112-tile set, FW JS), 意外鸡 (七筒, 九万, FW)",
    )
    value: int = Field(
        1,
        ge=0,
        le=100,
        description="earned per tile from each payer (幺鸡 1, seed 001 (1); 乌骨鸡 2, CITIES.md GA/ZA)",
    )
    item: str = Field("ji.changji", pattern=ITEM, description="ledger item code")
    label: str = Field("常鸡", description="display name (幺鸡, 乌骨鸡 …)")
    fanbei: int = Field(
        1,
        ge=1,
        le=10,
        title="翻倍鸡",
        description="every item on this tile (held, 冲锋, 责任, 横鸡, 包鸡) is multiplied by this "
        "(CITIES.md 翻倍鸡: 「every score item on 幺鸡 ×2」, FW idx 13)",
    )


class RevealItem(Params):
    """A tile whose reveal chicken has its own value and ledger item."""

    tile: str = Field(pattern=TILE, description="the tile (银鸡: 一万, 一筒)")
    value: int = Field(ge=0, le=100, description="earned per tile when a reveal makes it a chicken")
    item: str = Field(pattern=ITEM, description="ledger item code (ji.yinji)")
    label: str = Field(description="display name (银鸡)")


class FlipRule(Params):
    """Which chickens a revealed tile makes."""

    makes: list[Direction] = Field(
        default_factory=lambda: list[Direction](["next"]),
        title="翻鸡 makes",
        description="next: the revealed rank+1 of its suit, 9→1 (seed 000 2) 「顺位加一」, "
        "FW 翻牌鸡); prev: rank−1, 1→9; same: the revealed tile itself (本鸡, FW idx 11, ZA). "
        "FW 上下鸡 and ZA 摇摆鸡 are [prev, next]; DS names them 下鸡 and 上鸡 the other way "
        "round, so the names here say the direction. Empty: reveals make no chicken",
    )
    in_play_makes: list[Direction] | None = Field(
        None,
        title="in-play reveal makes",
        description="for reveals made during play (deal.start_reveal: 开局翻鸡, 前后鸡, 滚筒鸡) "
        "when they differ from `makes` (DS §14.2 sets 开局翻鸡 and 结算翻鸡 apart); null: "
        "`makes`",
    )
    value: int = Field(
        1,
        ge=0,
        le=100,
        title="翻鸡 value",
        description="per revealed chicken, from each payer (seed 001 一(1) 「1倍底分」)",
    )
    own_items: list[RevealItem] = Field(
        default_factory=list,
        title="reveal chickens with their own item",
        description="银鸡 (CITIES.md: 「1万/1筒 when they are reveal chickens get their own "
        "item」, FW QX/JS/RH): these tiles, when a reveal makes them chickens, are worth "
        "their own value under their own item",
    )


class GoldenRule(Params):
    flip: str = Field(pattern=TILE, description="revealing this tile …")
    tile: str = Field(pattern=TILE, description="… makes this chicken golden (金鸡)")
    multiplier: int = Field(
        2,
        ge=1,
        le=100,
        description="its value is multiplied by this (×2 seed 001 一(4); ZA ×3)",
    )
    discards: bool = Field(
        True,
        description="a discarded copy nobody took (内外鸡/满堂鸡, 包鸡) counts golden too (seed "
        "000 ④ with 2)); false: it counts its plain value — the golden multiplier is on held "
        "and melded copies only (DS §7.7 「幺鸡计分 ×2（作用在「手中鸡」上）」)",
    )


class WeekdayRule(Params):
    """星期鸡: the day's rank (Monday 1 … Sunday 7) is a chicken in every suit."""

    value: int = Field(1, ge=0, le=100, description="per tile (GA/ZA: +1)")
    on_top: bool = Field(
        True,
        title="on top",
        description="true: added to any other value the tile has (GA/ZA 「+1 per tile on top of "
        "other chicken value」); false: a tile that is already a chicken gains nothing (FW: "
        "the day's ranks are chickens like any other)",
    )


class Standing(Params):
    """站鸡 (CITIES.md, FW idx 12, RL): chickens still standing in the hand score extra."""

    multiplier: int = Field(
        2, ge=1, le=10, description="a standing chicken is worth its value × this (RL ×2)"
    )
    bonus: int = Field(0, ge=0, le=100, description="… plus this per tile (another server: +1)")
    tiles: Literal["permanent", "all"] = Field(
        "permanent",
        description="permanent: only permanent chickens (RL: 幺鸡/乌骨); all: reveal chickens too",
    )
    won_tile: bool = Field(True, description="the winning tile stands too (RL 「won」)")
    concealed_kongs: bool = Field(
        True, description="tiles of a concealed kong stand too (RL 「concealed-kong」)"
    )


class Shouquan(Params):
    """首圈鸡 (CITIES.md, FW idx 14): made during the first go-round, paid as its own item."""

    multiplier: int = Field(ge=1, le=100, description="instead of the usual multiplier or extra")
    golden_multiplier: int | None = Field(
        None, ge=1, le=100, description="when the tile is golden (冲锋 only); null: `multiplier`"
    )
    label: str = Field("首圈鸡", description="display name")


class Chongfeng(Params):
    """冲锋鸡 / 英雄鸡: a first discard of a chicken tile pays extra."""

    tiles: TileChoice = Field(
        title="冲锋 tiles",
        description="the tiles it applies to, each on its own (seed 000 ① 幺鸡; 冲锋乌骨 八筒, "
        "CITIES.md GA/ZA/Q); any: every chicken known during play (DS §7.3)",
    )
    label: str = Field("冲锋鸡", description="冲锋鸡 (seed 000) or 英雄鸡 (seed 001)")
    multiplier: int = Field(
        2,
        ge=1,
        le=100,
        title="冲锋鸡 multiplier",
        description="the tile's value × this (seed 000 ① 「加倍」 2; seed 001 3; DS 3)",
    )
    golden_multiplier: int = Field(
        4,
        ge=1,
        le=100,
        title="冲锋鸡 golden multiplier",
        description="the tile's value × this when it is golden (seed 000 ① 「翻四番」 4; 001 6)",
    )
    first: Literal["round", "own", "round_any"] = Field(
        "round",
        title="whose first discard",
        description="round: the round's first discarded copy of the tile, each tile on its own "
        "(seed 000 ① 「玩家打出的第一张幺鸡」); own: each player's own first discard, when it is a "
        "chicken (DS §7.3); round_any: one 冲锋鸡 a round, shared by the tiles — the round's "
        "first discard of any of them (幺鸡 or 八筒, whichever comes first; issue 25 "
        '"一局只有这一只"); a later discard of another of the tiles is no 冲锋',
    )
    claimed: Literal["none", "claimer"] = Field(
        "none",
        title="when claimed",
        description="none: a punged or konged 冲锋 tile is no 冲锋 (seed 000 ② makes it 责任鸡); "
        "claimer: it becomes the claimer's 冲锋鸡 when he is ready, else stays the "
        "discarder's (CITIES.md common mechanism 4 reading)",
    )
    also_discard: bool = Field(
        False,
        title="also a discarded chicken",
        description="the 冲锋 tile also counts as an ordinary discarded chicken (CITIES.md common "
        "mechanism 4: 「the round's first 幺鸡 counts as 冲锋鸡 **and** as an ordinary discard "
        "chicken」)",
    )
    shouquan: Shouquan | None = Field(
        None,
        title="首圈冲锋鸡",
        description="a 冲锋 discarded in the first go-round is paid as 首圈鸡 at these "
        "multipliers (FW idx 14; values not found: a reading when used); null: no difference",
    )


class Hengji(Params):
    """横鸡 (DS §7.3): the first discarded copy of a chicken kind, and same-kind follow-ups
    until one who joined that 横鸡 round discards again."""

    tiles: TileChoice = Field(
        "any", description="the chicken tiles it applies to; any: every chicken known during play"
    )
    multiplier: int = Field(2, ge=1, le=100, description="the tile's value × this (DS 2)")
    label: str = Field("横鸡", description="display name")


class Zeren(Params):
    """责任鸡: a claimed chicken discard makes its discarder pay the claimer extra."""

    tiles: TileChoice = Field(
        title="责任 tiles",
        description="the tiles it applies to (seed 000 ② 幺鸡; GA/ZA 乌骨鸡 too); any: every "
        "chicken known during play (DS §7.4)",
    )
    extra: int = Field(
        1,
        ge=0,
        le=100,
        title="责任鸡 extra",
        description="the discarder pays the claimer the tile's value × this (seed 000 ② 「多赔"
        "付一番」 1; seed 001 (2) 2; GA 幺鸡 1, 乌骨 2)",
    )
    premium: bool = Field(
        False,
        description="DS §7.4: pay instead the claimed discard's 冲锋/横鸡 value less its plain "
        "value (冲锋 2, 横鸡 1, plain 0)",
    )
    claims: Literal["first", "every"] = Field(
        "first",
        description="first: only the round's first discarded copy of the tile, punged or konged "
        "(seed 000 ②); every: every claimed copy (DS; CITIES.md common mechanism 4 reading)",
    )
    discarder: Literal["any", "unready"] = Field(
        "any",
        description="unready: only when the discarder is not ready at the end (CITIES.md common "
        "mechanism 4: 「only when its discarder is unready」)",
    )
    claimer_unready: Literal["none", "reversed", "reversed_to_any"] = Field(
        "none",
        title="claimer not ready",
        description="none: nothing is paid when the claimer does not collect; reversed: the "
        "claimer pays the ready discarder instead (GA ``process_reponsibility_ji_fen``); "
        "reversed_to_any: he pays the discarder, ready or not — the premium joins the "
        "unready claimer's 包鸡 to the original discarder (DS §11.2 「还要向原打出者另赔这笔鸡的"
        "面值 + 溢价」)",
    )
    claimer_pays_back: Literal["amount", "face_and_amount"] = Field(
        "amount",
        title="reversed 责任 paid back",
        description="what an unready claimer pays the discarder where ``claimer_unready`` "
        "reverses a 责任鸡: amount — the 责任 itself (the extra, or the premium); "
        "face_and_amount — the claimed chicken's face value on top, for every claimed "
        "chicken of the 责任 tiles (a plain one's premium is 0, its face is still paid), "
        "besides his 包鸡 share (DS §11.2 「还要向原打出者另赔这笔鸡的面值 + 溢价」)",
    )
    shouquan: Shouquan | None = Field(
        None,
        title="首圈责任鸡",
        description="a claim made in the first go-round pays the tile's value × its multiplier "
        "as 首圈鸡 (FW idx 14; values not found: a reading when used); null: no difference",
    )


class UnreadyPays(Params):
    """包鸡: a player not ready at the end pays for the chickens he showed."""

    tiles: Literal["permanent", "all"] = Field(
        "permanent",
        description="which chickens: permanent ones (and those known during play), or "
        "after-win reveal chickens too",
    )
    of: list[Literal["discards", "melds", "chongfeng"]] = Field(
        default_factory=lambda: ["discards", "melds", "chongfeng"],  # type: ignore[arg-type]
        description="what he pays for: his discarded chickens, his melded chickens, his 冲锋鸡 "
        "(倒赔); seed 001 (5) 「打出去的幺雞或碰杠幺雞」, GA/ZA without melds",
    )
    payees: Literal["ready", "others"] = Field(
        "ready",
        description="ready: each collecting (ready) player (seed 001 (5) 「賠付叫嘴玩家」; GA); "
        "others: every other player, ready or not (DS §11.2, ZA, FW QX/JS "
        "``BaoChikenNeedTing=false``)",
    )
    discards_paid_by: Literal["owner", "every_unready"] = Field(
        "owner",
        title="discards paid by",
        description="owner: the unready discarder; every_unready: every unready player pays for "
        "each unready player's discarded chickens (CITIES.md common mechanism 4 reading)",
    )


class Chuifeng(Params):
    """吹风鸡 (CITIES.md; GA ``process_ji_fen``): an after-win reveal of one of these tiles
    voids the round's chickens."""

    tiles: list[Tile] = Field(
        min_length=1, description="the revealed tiles that void chickens (五筒)"
    )


class ChickenParams(Params):
    permanent: list[PermanentChicken] = Field(
        default_factory=list,
        title="permanent chickens",
        description="tiles that are always chickens (常鸡 幺鸡; 乌骨鸡 八筒 where played); empty: none",
    )
    flip: FlipRule = Field(
        default_factory=FlipRule, title="翻鸡", description="which chickens a revealed tile makes"
    )
    golden: list[GoldenRule] = Field(
        default_factory=list,
        title="金鸡",
        description="revealed tiles that make a chicken golden (9条 → 幺鸡 ×2, seed 000 2); "
        "empty: no 金鸡",
    )
    weekday: WeekdayRule | None = Field(
        None,
        title="星期鸡",
        description="the day's rank is a chicken in every suit (FW, GA, ZA); the day comes from "
        "the table (RoundEnd.weekday); null: off",
    )
    kong_counts: int = Field(
        4,
        ge=4,
        le=8,
        title="kong counts as",
        description="tiles a kong of a chicken counts as (4; ZA 5, 「满鸡加1」); a pung counts 3",
    )
    standing: Standing | None = Field(
        None,
        title="站鸡",
        description="chickens still standing in the hand earn extra (FW idx 12, RL); null: off",
    )
    scope: Literal["hand", "permanent", "all"] = Field(
        "all",
        title="scope",
        description="which undiscarded-and-unclaimed discards count for their discarder: hand: "
        "none (手上鸡, seed 000 ③); permanent: permanent chickens and those known during "
        "play (FW/GA/ZA without 满堂鸡, DS); all: every chicken (内外鸡, seed 000 ④; 满堂鸡)",
    )
    won_tile: Literal["every_win", "self_draw", "never"] = Field(
        "every_win",
        title="won tile",
        description="whether the winning tile counts as the winner's chicken: on every win, on "
        "self-draws only (「点炮的鸡不算」), never. A discard (or robbed kong tile) won by "
        "several players (一炮多响) is one tile: it counts once, for the winner its discard "
        "names as claimed_by (the engine: the first winner after the discarder)",
    )
    zhuopao: bool = Field(
        False,
        title="捉炮鸡",
        description="DS §7.5: a won-on discard keeps its 冲锋/横鸡/plain discard value, and the "
        "winner collects it",
    )
    chongfeng: Chongfeng | None = Field(
        None, title="冲锋鸡 / 英雄鸡", description="a first discarded chicken pays extra; null: off"
    )
    hengji: Hengji | None = Field(
        None,
        title="横鸡",
        description="the first discard of each chicken kind, and follow-ups in its round, pay "
        "extra (DS §7.3); null: off",
    )
    zeren: Zeren | None = Field(
        None,
        title="责任鸡",
        description="the discarder of a claimed chicken pays extra; null: off",
    )
    collectors: Literal["ready", "all"] = Field(
        "ready",
        title="who collects",
        description="ready: only ready or winning players (seed 001 一(3) 叫嘴); all: every holder",
    )
    payers: Literal["others", "unready"] = Field(
        "others",
        title="who pays a collector",
        description="others: every other player (seed 001 一(1)); unready: only players not "
        "ready, ready players do not pay each other (CITIES.md common mechanism 4 reading); "
        "冲锋鸡 is paid by every other player either way",
    )
    payment: Literal["each", "pairwise"] = Field(
        "each",
        title="payment",
        description="each: every chicken item is paid on its own; pairwise: DS §11.1 「鸡数两两"
        "互减」, each pair of players settles the difference of their chicken totals in one "
        "entry (the same amounts netted)",
    )
    unready_pays: UnreadyPays | None = Field(
        None,
        title="包鸡",
        description="unready players pay for chickens they discarded or melded; null: off",
    )
    chuifeng: Chuifeng | None = Field(
        None,
        title="吹风鸡",
        description="GA reading: a round whose after-win reveal is one of these tiles scores no "
        "chickens (win and dou still paid); null: off",
    )
