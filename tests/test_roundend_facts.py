"""Facts a round-end file states are checked against the variant's rules (issue 11): 海底
only on a self-draw; 热炮 worked out from ``repao.scope`` when left out, refused when the
file contradicts it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from zhuoji import roundend
from zhuoji.errors import ScenarioError
from zhuoji.variant_io import load_variant

#: seat 2 wins 平胡 (on his 点豆 of 7m) on seat 3's 5m; seat 3 owns a 闷豆 of 7s made earlier
BASE: dict[str, Any] = {
    "dealer": 0,
    "seats": [
        {"hand": "1359m2468p24689s"},
        {"hand": "234m99m55p234s345s"},
        {"hand": "34m234p99p123s", "melds": [{"kind": "gang_exposed", "tile": "7m", "from": 0}]},
        {"hand": "1368m1347p25s", "melds": [{"kind": "gang_concealed", "tile": "7s"}]},
    ],
    "discards": [
        {"seat": 0, "tile": "7m", "claimed_by": 2, "claim": "gang_exposed"},
        {"seat": 3, "tile": "5m", "claimed_by": 2},
    ],
    "result": {"wins": [{"seat": 2, "how": "discard", "from": 3}], "tile": "5m"},
}


def build(variant: str, **result: Any) -> Any:
    data = copy.deepcopy(BASE)
    data["result"].update(result)
    return roundend.build(roundend.parse(data, "r.yaml"), load_variant(variant), label="r.yaml")


def error(variant: str, **result: Any) -> str:
    with pytest.raises(ScenarioError) as info:
        build(variant, **result)
    return str(info.value)


def test_repao_worked_out_by_scope() -> None:
    assert build("guiyang").repao  # 000 15): he owns a dou, so any deal-in is 热炮
    assert not build("guiyang-weile").repao  # the won discard is not marked after_kong
    assert build("guiyang-weile", repao=True).repao  # stated: the first discard after it


def test_repao_contradicting_the_scope() -> None:
    assert error("guiyang", repao=False) == (
        "r.yaml: result.repao: under guiyang 热炮 is any deal-in once the discarder owns a dou "
        "(repao.scope: after_dou); seat 3 owns one, so result.repao must be true"
    )


def test_repao_needs_a_kong() -> None:
    data = copy.deepcopy(BASE)
    data["seats"][3] = {"hand": "1368m1347p25s777s"}
    data["result"]["repao"] = True
    with pytest.raises(ScenarioError) as info:
        roundend.build(roundend.parse(data, "r.yaml"), load_variant("guiyang-weile"), "r.yaml")
    assert str(info.value) == ("r.yaml: result.repao: seat 3, the discarder, owns no kong: no 热炮")


def test_haidi_only_on_a_self_draw() -> None:
    assert error("guiyang", haidi=True) == (
        "r.yaml: result.haidi: 海底捞月 is a self-draw of the last tile "
        '(seed 002 八 "结果一张牌自摸"); a win on a discard or a robbed kong is not'
    )
