"""Parameters of the ``settle.chickens`` stage (the variant file's ``settle: chickens:``).

Every value a city sets is a field here, documented with its source; the stage and its
helpers read nothing else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from zhuoji.rules.registry import Params

TILE = "^([1-9][msp]|[1-7]z)$"


class PermanentChicken(Params):
    tile: str = Field(pattern=TILE, description="the chicken tile (幺鸡 1s, 乌骨鸡 8p)")
    value: int = Field(1, ge=0, le=100, description="earned from each other player per tile")
    item: str = Field("ji.yaoji", description="ledger item code")
    label: str = Field("幺鸡", description="display name")


class FlipRule(Params):
    mode: Literal["next", "same", "updown", "weekday", "none"] = Field(
        "next",
        title="翻鸡 mode",
        description="next: revealed rank+1 (9→1, seeds 000/001/004); same: 本鸡; updown: ±1 "
        "(上下鸡/摇摆鸡); weekday: 星期鸡, the weekday's rank in every suit; none",
    )
    value: int = Field(
        1,
        ge=0,
        le=100,
        title="翻鸡 value",
        description="per flipped chicken, from each other player",
    )


class GoldenRule(Params):
    flip: str = Field(pattern=TILE, description="revealing this tile …")
    tile: str = Field(pattern=TILE, description="… makes this chicken golden (金鸡)")
    multiplier: int = Field(2, ge=1, le=100, description="its value is multiplied by this")


class Chongfeng(Params):
    label: str = Field("冲锋鸡", description="冲锋鸡 (seed 000) or 英雄鸡 (seed 001)")
    multiplier: int = Field(
        2, ge=1, le=100, title="冲锋鸡 multiplier", description="value of the first discarded 幺鸡"
    )
    golden_multiplier: int = Field(
        4,
        ge=1,
        le=100,
        title="冲锋鸡 golden multiplier",
        description="its value when 幺鸡 is golden",
    )


class Zeren(Params):
    extra: int = Field(
        1,
        ge=0,
        le=100,
        title="责任鸡 extra",
        description="the discarder pays the claimer this much more",
    )


class UnreadyPays(Params):
    tiles: Literal["permanent", "all"] = Field(
        "permanent",
        description="which chickens an unready player pays for: permanent ones only, or flipped too",
    )


class ChickenParams(Params):
    permanent: list[PermanentChicken] = Field(
        default_factory=lambda: [PermanentChicken(tile="1s")],
        title="permanent chickens",
        description="tiles that are always chickens (常鸡 幺鸡; 乌骨鸡 8p where played)",
    )
    flip: FlipRule = Field(
        default_factory=FlipRule, title="翻鸡", description="which chicken the revealed tile makes"
    )
    golden: list[GoldenRule] = Field(
        default_factory=lambda: [GoldenRule(flip="9s", tile="1s")],
        title="金鸡",
        description="revealed tiles that make a chicken golden (9条 → 幺鸡 ×2); empty for none",
    )
    chongfeng: Chongfeng | None = Field(
        None,
        title="冲锋鸡 / 英雄鸡",
        description="the round's first discarded 幺鸡 pays extra; null: off",
    )
    zeren: Zeren | None = Field(
        None,
        title="责任鸡",
        description="the discarder of a claimed first 幺鸡 pays extra; null: off",
    )
    scope: Literal["hand", "all"] = Field(
        "all",
        title="scope",
        description="hand: 手上鸡, only undiscarded tiles; all: 内外鸡, discards too",
    )
    collectors: Literal["ready", "all"] = Field(
        "ready",
        title="who collects",
        description="ready: only ready or winning players (叫嘴); all: every holder",
    )
    unready_pays: UnreadyPays | None = Field(
        None,
        title="包鸡",
        description="unready players pay each collector for chickens they discarded or melded; null: off",
    )
