"""Facts about a winning (or waiting) hand that pattern rows may require.

A pattern row in a variant file is data: ``{fan: 15, requires: {all_pungs: true,
one_suit: true}}`` (清大对, seed 000 "同时满足对对胡和清一色").  The facts of one realization of
a hand are computed by :func:`hand_facts` (in :mod:`zhuoji.rules.facts_kernel`, which compiles;
re-exported here); a row matches when every fact it names holds (booleans must be equal,
numbers are minimums).  The hand's value is the best over its realizations.

Every fact is a field of :class:`Requires`, whose descriptions are the rules author's
reference (they go into the JSON Schema).  No fact names a tile: a row that counts one
tile (红中 嘴, seed 003 23) names it as its own ``tile`` and requires ``tile_copies``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from pydantic import BaseModel, ConfigDict, Field

from zhuoji.hand import Form
from zhuoji.rules.facts_kernel import hand_facts

__all__ = [
    "COUNT_FACTS",
    "EVENT_FACTS",
    "Requires",
    "WinContext",
    "hand_facts",
    "matches",
    "with_tile",
]


class Requires(BaseModel):
    """Facts a pattern row requires; omitted facts are not checked."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    form: Form | None = Field(
        None,
        description="winning form: standard, seven_pairs, shisanlan (十三烂) or shisanyao (十三幺)",
    )
    all_pungs: bool | None = Field(
        None, description="大对子: standard form, every set a pung or kong"
    )
    one_suit: bool | None = Field(None, description="清一色: every tile from one suit, no honors")
    mixed_one_suit: bool | None = Field(
        None, description="混一色: one suit plus at least one honor tile"
    )
    quads: int | None = Field(
        None,
        ge=0,
        le=3,
        description="seven pairs with at least this many four-of-a-kinds (龙七对 1, 双龙七对 2)",
    )
    concealed: bool | None = Field(
        None, description="门清/门前清: no meld made with another's tile"
    )
    single_wait: bool | None = Field(None, description="单吊: waited on the pair's tile alone")
    one_wait: bool | None = Field(
        None,
        description="独子 (seed 003 4): the hand waited on exactly one kind; with form: standard "
        "this is 边卡吊 (遵义/仁怀, FW server `bianKaDiao`: no tile but the winning one "
        "completes the hand — an edge, closed or pair wait)",
    )
    wide_wait: bool | None = Field(
        None,
        description="大宽张 (遵义/仁怀, FW server `daKuanZhang`): the hand waited on exactly "
        "three kinds of one suit, three ranks apart (1-4-7, 2-5-8 or 3-6-9)",
    )
    melds: int | None = Field(
        None,
        ge=0,
        le=4,
        description="at least this many melds laid down (单吊 / 金钩钓 of CITIES.md 独山 and "
        "三丁拐: 4, the last tile waited on alone)",
    )
    quad_on_win: bool | None = Field(
        None,
        description="seven pairs whose four-of-a-kind the winning tile completes (龙七对 as FW "
        "`long7Dui` and CITIES.md 独山 read it: the 4-of-a-kind must be the winning tile)",
    )
    pair_runs: int | None = Field(
        None,
        ge=0,
        le=2,
        description="seven pairs holding at least this many runs of three pairs on consecutive "
        "ranks of one suit (112233); 合浦小七对 (金沙) is 2 (FW server `hepu7Dui`)",
    )
    no_wild: bool | None = Field(None, description="无宝: no wild tile in the hand")
    wilds: int | None = Field(
        None, ge=0, le=4, description="at least this many wild tiles held (四宝 4)"
    )
    missing_suit: bool | None = Field(None, description="缺门: at least one of 万条筒 absent")
    no_terminals: bool | None = Field(
        None, description="断幺: no 1, 9 or honor tile (wilds allowed)"
    )
    terminal_pair: bool | None = Field(
        None, description="幺头: the pair is 1, 9 or an honor, with no wild in it"
    )
    kan: int | None = Field(
        None, ge=0, le=4, description="坎: at least this many concealed pungs of real tiles"
    )
    twin_chows: int | None = Field(
        None, ge=0, le=2, description="亲三对: at least this many pairs of identical chows"
    )
    full_straight: bool | None = Field(None, description="通天: 1-9 of one suit as three chows")
    all_honors_lan: bool | None = Field(
        None, description="七风全: 十三烂 holding all seven honors as real tiles"
    )
    wild_single_wait: bool | None = Field(
        None, description="单吊宝: the winning tile paired with a wild"
    )
    wild_pair_wait: bool | None = Field(
        None, description="双吊宝: the winning tile made a pung with two wilds"
    )
    tile_copies: int | None = Field(
        None,
        ge=0,
        le=4,
        description="at least this many copies of the row's own `tile` held, melds included, "
        "wild tiles not (红中 嘴, seed 003 23); a stand-in (红中配) standing for another face "
        "still counts as itself",
    )
    peng_sets: int | None = Field(
        None, ge=0, le=4, description="碰N对: at least this many pungs or exposed kongs claimed"
    )
    concealed_kongs: int | None = Field(
        None, ge=0, le=4, description="暗杠: at least this many concealed kongs"
    )
    exposed_kongs: int | None = Field(
        None, ge=0, le=4, description="明杠: at least this many kongs on a discard or added"
    )
    dragon_pungs: int | None = Field(
        None, ge=0, le=3, description="pungs or kongs of dragons (三元牌刻)"
    )
    seat_wind_pung: bool | None = Field(None, description="pung or kong of the seat wind (门风)")
    round_wind_pung: bool | None = Field(None, description="pung or kong of the round wind (圈风)")
    self_draw: bool | None = Field(None, description="自摸 (a robbed kong is not a self-draw here)")
    rob_kong: bool | None = Field(None, description="抢杠: won by robbing a kong")
    gangkai: bool | None = Field(None, description="杠开: self-draw on a kong's replacement tile")
    repao: bool | None = Field(
        None, description="热炮: won on a discard made right after the discarder's kong"
    )
    haidi: bool | None = Field(None, description="海底捞月: self-draw of the last tile")
    tianhu: bool | None = Field(None, description="天和: dealer complete on the initial hand")
    dihu: bool | None = Field(
        None, description="地和: non-dealer self-draws his first tile, no claim before"
    )
    renhu: bool | None = Field(
        None, description="人和: non-dealer wins on the dealer's first discard"
    )
    declared: bool | None = Field(None, description="the winner declared 报听")
    dealer: bool | None = Field(None, description="the winner is the dealer")


#: facts a row may multiply its fan by (``per:``)
COUNT_FACTS = (
    "kan",
    "twin_chows",
    "tile_copies",
    "peng_sets",
    "concealed_kongs",
    "exposed_kongs",
    "dragon_pungs",
    "quads",
    "wilds",
    "melds",
    "pair_runs",
)


#: the facts of how the winning tile came (:class:`WinContext`), apart from the winner's
#: own standing: all false for a hand valued before its win, as the bots value them
EVENT_FACTS = ("self_draw", "rob_kong", "gangkai", "repao", "haidi", "tianhu", "dihu", "renhu")


@dataclass(frozen=True)
class WinContext:
    """How the tile came: facts that do not depend on the hand's shape."""

    self_draw: bool = False
    rob_kong: bool = False
    gangkai: bool = False
    repao: bool = False
    haidi: bool = False
    tianhu: bool = False
    dihu: bool = False
    renhu: bool = False
    declared: bool = False
    dealer: bool = False
    seat_wind: int = 0
    round_wind: int = 0


def with_tile(facts: dict[str, object], tile: int) -> dict[str, object]:
    """The facts as a row naming ``tile`` sees them: ``tile_copies`` counts that tile."""
    held = cast(Sequence[int], facts["held"])  # (an isinstance check on an ABC costs more)
    return {**facts, "tile_copies": held[tile]}


@lru_cache(maxsize=4096)
def _conditions(req: Requires) -> tuple[tuple[str, object], ...]:
    """The facts a row names, once per row (iterating a pydantic model is slow)."""
    return tuple((name, want) for name, want in req if want is not None)


def matches(req: Requires, facts: dict[str, object]) -> bool:
    for name, want in _conditions(req):
        have = facts[name]
        if isinstance(want, bool):
            if bool(have) is not want:
                return False
        elif isinstance(want, int):
            if not isinstance(have, int) or have < want:
                return False
        elif have != want:
            return False
    return True
