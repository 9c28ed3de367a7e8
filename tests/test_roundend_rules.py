"""Round ends the variant could not have produced are refused by the rules' owners (issue 24
item 3, issue 25 "Impossible round-end files are accepted and settled").

Each case starts from a valid file, which ``zhuoji settle`` settles, changes one thing, and
holds the exact line ``zhuoji settle`` prints instead: where in the file, what is wrong,
the rule with its source; exit status 2 and nothing on stdout (no ledger).  The checks are
the rule owners' own (``zhuoji/contract/checks.py``): the variant's section models
(``ClaimsSection``, ``WildSection``, ``BaotingSection``, ``DingqueSection``,
``StartReveal``), ``zhuoji.rules.win`` (how a win came, and every ``may_win`` hook asked as
the engine asks it) and the checks hooks register (``register(..., checks=...)``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from plugin_support import installed_plugin

from zhuoji import cli, roundend
from zhuoji.contract.checks import Problem
from zhuoji.errors import ScenarioError
from zhuoji.variant_io import load_variant

GOLDEN_VARIANTS = Path(__file__).resolve().parent / "golden" / "variants"
QIANHOU = str(GOLDEN_VARIANTS / "fw-qianhou.yaml")

#: guiyang (seed 000): seat 2 (a 点豆 of 7m fed by seat 3) wins 平胡 on the dealer's 5m
#: (tests/test_settle_cli.py)
DISCARD_WIN: dict[str, Any] = {
    "variant": "guiyang",
    "dealer": 0,
    "streak": 1,
    "seats": [
        {"hand": "1359m2468p24689s"},
        {"hand": "234m99m55p234s345s"},
        {"hand": "34m234p99p123s", "melds": [{"kind": "gang_exposed", "tile": "7m", "from": 3}]},
        {"hand": "1368m13479p2579s"},
    ],
    "discards": [
        {"seat": 3, "tile": "7m", "claimed_by": 2, "claim": "gang_exposed"},
        {"seat": 0, "tile": "5m", "claimed_by": 2},
    ],
    "result": {"wins": [{"seat": 2, "how": "discard", "from": 0}], "tile": "5m"},
    "reveal": "4p",
}

#: guiyang: the same table drawn (荒庄): the dealer's 5m stays on the table
DRAWN: dict[str, Any] = {
    **DISCARD_WIN,
    "discards": [DISCARD_WIN["discards"][0], {"seat": 0, "tile": "5m"}],
    "result": {},
    "reveal": None,
}

#: zunyi (定缺): the dealer self-draws 4s on his first 14 tiles, nothing discarded or melded
DEALER_SELF_DRAW: dict[str, Any] = {
    "variant": "zunyi",
    "dealer": 0,
    "seats": [
        {"hand": "123m456m789m23s55s", "void_suit": "p"},
        {"hand": "1199m2288s337p46p", "void_suit": "m"},
        {"hand": "147m258s369p1357s", "void_suit": "s"},
        {"hand": "235m678m33s46s678p", "void_suit": "p"},
    ],
    "result": {"wins": [{"seat": 0, "how": "self_draw"}], "tile": "4s"},
}

#: guiyang: seat 2, no kong, robs seat 1's 转弯豆 of 5m (抢杠 needs no pass, seed 000 16))
ROB_KONG: dict[str, Any] = {
    "variant": "guiyang",
    "dealer": 0,
    "seats": [
        {"hand": "1369m2468p24689s"},
        {"hand": "99m55p234s345s", "melds": [{"kind": "peng", "tile": "5m", "from": 3}]},
        {"hand": "34m234p99p123s777m"},
        {"hand": "1368m13479p2579s"},
    ],
    "discards": [{"seat": 3, "tile": "5m", "claimed_by": 1, "claim": "peng"}],
    "result": {
        "wins": [{"seat": 2, "how": "rob_kong", "from": 1}],
        "tile": "5m",
        "kong_tile": "5m",
    },
}

#: 六盘水 (seed 004): seat 2 wins 平胡 on the dealer's 5m; his 闷豆 of 7m is his pass
LIUPANSHUI: dict[str, Any] = {
    "variant": "liupanshui",
    "dealer": 0,
    "seats": [
        {"hand": "1359m2468p24689s"},
        {"hand": "234m99m55p234s345s"},
        {"hand": "34m234p99p123s", "melds": [{"kind": "gang_concealed", "tile": "7m"}]},
        {"hand": "1368m13479p2579s"},
    ],
    "discards": [{"seat": 0, "tile": "5m", "claimed_by": 2}],
    "result": {"wins": [{"seat": 2, "how": "discard", "from": 0}], "tile": "5m"},
}

#: 六安 (seed 003): seat 0 self-draws 9p; seat 1 chowed 123s from seat 0 (his 上家)
LUAN_CHOW: dict[str, Any] = {
    "variant": "luan",
    "dealer": 0,
    "wild_indicator": "4z",
    "seats": [
        {"hand": "123456789m111p9p"},
        {"hand": "1479m258p36s1z", "melds": [{"kind": "chi", "tile": "1s", "from": 0}]},
        {"hand": "2358m469p147s567z"},
        {"hand": "4567m2358p258s56z"},
    ],
    "discards": [{"seat": 0, "tile": "2s", "claimed_by": 1, "claim": "chi"}],
    "result": {"wins": [{"seat": 0, "how": "self_draw"}], "tile": "9p"},
}

#: 前后鸡 (test variant fw-qianhou): two kongs moved the reveal twice; the last is open
QIANHOU_REVEALS: dict[str, Any] = {
    "variant": QIANHOU,
    "dealer": 0,
    "seats": [
        {"hand": "333p456m789m22s56p"},
        {"hand": "66m123s789s34p", "melds": [{"kind": "gang_concealed", "tile": "7p"}]},
        {"hand": "1m2m4m5m7m8m2s5s8s1p4p6p9p"},
        {"hand": "1m2m3m4m7m8m9m3s6s7s", "melds": [{"kind": "gang_concealed", "tile": "4s"}]},
    ],
    "result": {"wins": [{"seat": 1, "how": "self_draw"}], "tile": "5p"},
    "reveals": [
        {"tile": "2p", "at": "start", "status": "closed"},
        {"tile": "5m", "at": "kong", "status": "closed"},
        {"tile": "7s", "at": "kong"},
        {"tile": "8s", "at": "win"},
    ],
}

GUIYANG_SOURCE = "variant guiyang: seeds/000_a55fa0a86a54b22d.txt"
QIANHOU_SOURCE = "variant fw-qianhou: CITIES.md 前后鸡 (FW chiken/chikenFB.go)"
TIANHU = "tianhu (天和); seed 002 天和 「只有庄家独占的权柄，庄家起牌后即成和牌牌型」"
GANGKAI = "gangkai (杠开); RULES.md 杠开 「self-draw on the replacement tile after a kong」"
BAOTING = "RULES.md 报听 「dealer ready on the initial 14 / non-dealer ready after the first draw」"

Change = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Case:
    """A valid round end (``base`` under ``base_sets``), one change, and the line refusing it."""

    base: dict[str, Any]
    change: Change
    message: str
    base_sets: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()


def _at(path: str, value: Any) -> Change:
    """Set ``a.b.0.c`` to ``value`` (list indexes as integers)."""
    parts: list[Any] = [int(p) if p.isdigit() else p for p in path.split(".")]

    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for part in parts[:-1]:
            node = node[part]
        node[parts[-1]] = value

    return change


def _same(data: dict[str, Any]) -> None:
    """No change to the file (the change is in the rules: ``base_sets`` dropped)."""


CASES = {
    # --- claims (ClaimsSection) ---------------------------------------------------------
    # seed 000 3) 「可以碰牌、可以杠牌、可以胡牌，但就是不能吃牌」: valid only with 吃 set on
    "chow-in-guiyang": Case(
        DISCARD_WIN,
        _at(
            "seats.1",
            {"hand": "99m55p234s345s", "melds": [{"kind": "chi", "tile": "2m", "from": 0}]},
        ),
        "seats[1].melds[0].kind: a chi meld (吃), which the variant does not have "
        f"(claims.chi: false; {GUIYANG_SOURCE})",
        base_sets=("claims.chi=true",),
    ),
    # seed 003 「不可以吃牌，可以碰牌、杠牌」: the file is valid with 吃 on, not under 六安
    "chow-in-luan": Case(
        LUAN_CHOW,
        _same,
        "seats[1].melds[0].kind: a chi meld (吃), which the variant does not have "
        "(claims.chi: false; variant luan: seeds/003_b25087a0650384a0.txt)",
        base_sets=("claims.chi=true",),
    ),
    "chow-from-across": Case(
        LUAN_CHOW,
        lambda d: (_at("seats.1.melds.0.from", 2)(d), _at("discards.0.seat", 2)(d)),
        "seats[1].melds[0].from: a chow (吃) takes the previous player's discard: seat 0's, "
        "not seat 2's (claims.chi: true; set for this table (--set))",
        base_sets=("claims.chi=true",),
        sets=("claims.chi=true",),
    ),
    "robbed-kong-kind": Case(
        ROB_KONG,
        _same,
        "result.wins[0].how: seat 1's added kong (转弯豆) of 5m may not be robbed "
        "(claims.rob_kong: [concealed]; set for this table (--set))",
        sets=("claims.rob_kong=[concealed]",),
    ),
    # --- may_win (rules.win): the pass (通行证) -------------------------------------------
    # seed 004 (6)(7) 「算普通补张」: a late (憨包) kong is no pass under 六盘水
    "late-kong-is-no-pass": Case(
        LIUPANSHUI,
        _at("seats.2.melds.0.late", True),
        "result.wins[0]: seat 2's win on seat 0's discard (5m) needs a pass (通行证): his hand "
        "is worth 1, less than the 2 that needs none; his kong of 7m is late (憨包), no pass "
        "here; he did not declare 报听 (may_win.pass.late_kong: false; "
        "variant liupanshui: seeds/004_c438e3ce9b1ddd7e.txt)",
    ),
    "discard-win-without-a-pass": Case(
        DISCARD_WIN,
        lambda d: (
            d["seats"][2].update(hand="34m234p99p123s777m", melds=[]),
            d["discards"].pop(0),
        ),
        "result.wins[0]: seat 2's win on seat 0's discard (5m) needs a pass (通行证): his hand "
        "is worth 1, less than the 2 that needs none; he owns no kong (豆); he did not "
        f"declare 报听 (may_win.pass.min_pattern_fan: 2; {GUIYANG_SOURCE})",
    ),
    "robbed-kong-without-a-pass": Case(
        ROB_KONG,
        _same,
        "result.wins[0]: seat 2's win on seat 1's robbed kong (5m) needs a pass (通行证): his "
        "hand is worth 1, less than the 2 that needs none; he owns no kong (豆); he did not "
        "declare 报听 (may_win.pass.rob_kong: false; set for this table (--set))",
        sets=("may_win.pass.rob_kong=false",),
    ),
    # --- reveals (StartReveal, DealSection) -----------------------------------------------
    "qianhou-two-open": Case(
        QIANHOU_REVEALS,
        _at("reveals.1.status", "open"),
        "reveals[1].status: 前后鸡 keeps one open reveal: each kong closes the one before, so "
        "only the last reveal made during play can still be open "
        f"(deal.start_reveal.on_kong: move; {QIANHOU_SOURCE})",
    ),
    "qianhou-three-open": Case(
        QIANHOU_REVEALS,
        lambda d: [r.update(status="open") for r in d["reveals"]],
        "reveals[0].status: 前后鸡 keeps one open reveal: each kong closes the one before, so "
        "only the last reveal made during play can still be open "
        f"(deal.start_reveal.on_kong: move; {QIANHOU_SOURCE}) (and 1 more problem)",
    ),
    "more-kong-reveals-than-kongs": Case(
        QIANHOU_REVEALS,
        lambda d: d["reveals"].insert(2, {"tile": "3m", "at": "kong", "status": "closed"}),
        "reveals[3].at: 3 reveals made at a kong, but 2 kongs completed: each kong makes one "
        f"(deal.start_reveal.on_kong: move; {QIANHOU_SOURCE})",
    ),
    "reveal-after-a-drawn-round": Case(
        DRAWN,
        _at("reveal", "4p"),
        "reveal.at: a tile is turned over after a win, and the round was drawn "
        f"(deal.reveal: head; {GUIYANG_SOURCE})",
    ),
    # --- 定缺 (DingqueSection; rules.win.void_suit_clear) --------------------------------
    "void-suit-melded": Case(
        {
            **DEALER_SELF_DRAW,
            "seats": [
                DEALER_SELF_DRAW["seats"][0],
                {
                    "hand": "1199m2s337p46p",
                    "melds": [{"kind": "peng", "tile": "8s", "from": 0}],
                    "void_suit": "m",
                },
                *DEALER_SELF_DRAW["seats"][2:],
            ],
        },
        _at("seats.1.void_suit", "s"),
        "seats[1].melds[0]: seat 1 melds 888s, of his void suit (s): no claim or kong on it "
        "(定缺) (dingque.meld_void: false; variant zunyi: CITIES.md 遵义 (ZA Table_ZYZJ; FW "
        "NewMahjongZY); seed 000 where they are silent (extends guiyang))",
    ),
    "winner-holds-the-void-suit": Case(
        DEALER_SELF_DRAW,
        _at("seats.0.void_suit", "s"),
        "result.wins[0].seat: seat 0 holds its void suit (s) and cannot win (定缺)",
    ),
    # --- 宝牌 (WildSection) ---------------------------------------------------------------
    # guiyang has no 宝牌: an indicator would make 6m wild and could pay a hand that does not win
    "wild-indicator-without-wilds": Case(
        DISCARD_WIN,
        _at("wild_indicator", "5m"),
        "wild_indicator: the variant has no 宝牌 (wild tiles), so no indicator is revealed "
        f"(wild: null; {GUIYANG_SOURCE})",
    ),
    "wild-indicator-missing": Case(
        LUAN_CHOW,
        lambda d: d.pop("wild_indicator"),
        "wild_indicator: every round reveals a 宝牌 indicator, and the wild follows from it: "
        "give it (wild.indicator: tail_dice; variant luan: seeds/003_b25087a0650384a0.txt)",
        base_sets=("claims.chi=true",),
        sets=("claims.chi=true",),
    ),
    # seed 003 「宝牌不可以碰、杠」: indicator 4z makes 1z wild
    "wild-punged": Case(
        {
            **LUAN_CHOW,
            "seats": [
                *LUAN_CHOW["seats"][:3],
                {"hand": "4567m2358p56z", "melds": [{"kind": "peng", "tile": "9s", "from": 2}]},
            ],
        },
        _at("seats.3.melds.0.tile", "1z"),
        "seats[3].melds[0]: a peng holding the wild 1z: the wild is never melded "
        "(wild.claimable: false; variant luan: seeds/003_b25087a0650384a0.txt)",
        base_sets=("claims.chi=true",),
        sets=("claims.chi=true",),
    ),
    # --- claimed discards (the file's own bookkeeping) ------------------------------------
    # a discard claimed with no meld would put a sixth 1s on the table and pay 责任鸡
    "claimed-discard-without-its-meld": Case(
        DISCARD_WIN,
        lambda d: d["discards"].insert(
            0, {"seat": 1, "tile": "1s", "claimed_by": 0, "claim": "peng"}
        ),
        "discards[0].claim: seat 0 took seat 1's 1s for a peng, but holds no peng with it "
        "from seat 1 (give the meld in seats[0].melds)",
    ),
    # --- how the win came (rules.win) -----------------------------------------------------
    # zunyi's 天和 row pays 30 (CITIES.md 遵义): a non-dealer's 天和 would be paid
    "tianhu-for-a-non-dealer": Case(
        {**DEALER_SELF_DRAW, "result": {**DEALER_SELF_DRAW["result"], "tianhu": True}},
        _at("dealer", 1),
        "result.tianhu: 天和 is the dealer's self-draw on his first 14 tiles; seat 0 is not "
        f"the dealer (seat 1 is) ({TIANHU})",
    ),
    "tianhu-after-a-discard": Case(
        {**DEALER_SELF_DRAW, "result": {**DEALER_SELF_DRAW["result"], "tianhu": True}},
        _at("discards", [{"seat": 0, "tile": "9s"}]),
        f"result.tianhu: 天和 comes before any discard or meld: the round lists discards ({TIANHU})",
    ),
    "dihu-for-the-dealer": Case(
        DEALER_SELF_DRAW,
        _at("result.dihu", True),
        "result.dihu: 地和 is a non-dealer's self-draw of his first tile; seat 0 is the dealer "
        "(dihu (地和); seed 002 地和 「起牌后，第一圈里闲家自摸的第一张牌和牌」)",
    ),
    "renhu-on-a-non-dealer-discard": Case(
        {**DISCARD_WIN, "dealer": 3, "discards": [DISCARD_WIN["discards"][1]]},
        _at("result.renhu", True),
        "result.renhu: 人和 is a non-dealer's win on the dealer's first discard; seat 2 won on "
        "seat 0's discard (seat 3 deals) "
        "(renhu (人和); seed 002 人和 「起牌后，庄家打出的第一张牌，闲家吃和」)",
    ),
    # guiyang-weile's 杠开 pays +3 (seed 001): 杠开 on a discard win would be paid
    "gangkai-on-a-discard-win": Case(
        {**DISCARD_WIN, "variant": "guiyang-weile"},
        _at("result.gangkai", True),
        "result.gangkai: 杠开 is a self-draw on a kong's replacement tile; this is a win on "
        f"another's tile ({GANGKAI})",
    ),
    "gangkai-without-a-kong": Case(
        DEALER_SELF_DRAW,
        _at("result.gangkai", True),
        "result.gangkai: 杠开 is a self-draw on a kong's replacement tile; seat 0 made no kong "
        f"({GANGKAI})",
    ),
    "kong-tile-naming-no-kong": Case(
        DISCARD_WIN,
        _at("result.kong_tile", "3p"),
        "result.kong_tile: no kong of 3p was made (kong_tile (杠); docs/round-end.md kong_tile: "
        "the kong behind 杠开 / 热炮 / 抢杠)",
    ),
    # --- 报听 (BaotingSection) ------------------------------------------------------------
    "hard-declaration-of-a-non-dealer": Case(
        {
            **DISCARD_WIN,
            "seats": [
                *DISCARD_WIN["seats"][:1],
                {**DISCARD_WIN["seats"][1], "declared": "soft"},
                *DISCARD_WIN["seats"][2:],
            ],
        },
        _at("seats.1.declared", "hard"),
        "seats[1].declared: 硬报 is the dealer's declaration, on his first 14 tiles; seat 1 is "
        f"not the dealer (seat 0 is) (baoting.hard (硬报); {BAOTING})",
    ),
    "soft-declaration-of-the-dealer": Case(
        {
            **DISCARD_WIN,
            "seats": [{**DISCARD_WIN["seats"][0], "declared": "hard"}, *DISCARD_WIN["seats"][1:]],
        },
        _at("seats.0.declared", "soft"),
        "seats[0].declared: 软报 is a non-dealer's declaration, after his first draw; seat 0 is "
        f"the dealer, whose declaration is 硬报 (baoting.soft (软报); {BAOTING})",
    ),
    "declared-then-punged": Case(
        ROB_KONG,
        _at("seats.1.declared", "soft"),
        "seats[1].melds[0]: seat 1 declared 报听, which freezes his hand before any meld: no "
        f"peng after it (baoting.allow_peng: false; {GUIYANG_SOURCE})",
    ),
    "declaration-without-baoting": Case(
        LUAN_CHOW,
        _at("seats.2.declared", "soft"),
        "seats[2].declared: the variant has no 报听 (baoting: null; variant luan: "
        "seeds/003_b25087a0650384a0.txt)",
        base_sets=("claims.chi=true",),
        sets=("claims.chi=true",),
    ),
    # --- hooks' own checks (register(..., checks=...)) ------------------------------------
    "passed-win-on-a-self-draw": Case(
        {
            **DEALER_SELF_DRAW,
            "variant": "guiyang",
            "seats": [{"hand": s["hand"]} for s in DEALER_SELF_DRAW["seats"]],
        },
        _at("result.wins.0.passed_win", True),
        "result.wins[0].passed_win: seat 0 self-drew, so he drew since any win he passed "
        "(settle.baopai (包牌); seed 000 18) 「还没有等到再次摸牌，又有一名玩家来点炮」)",
    ),
}


def _write(tmp_path: Path, data: dict[str, Any], name: str) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _settle(path: Path, sets: tuple[str, ...]) -> list[str]:
    return ["settle", str(path), *(arg for s in sets for arg in ("--set", s))]


@pytest.mark.parametrize("name", CASES)
def test_refused_with_the_rule_and_nothing_settled(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    good = _write(tmp_path, copy.deepcopy(case.base), "good.yaml")
    assert cli.main(_settle(good, case.base_sets)) == 0, capsys.readouterr().err
    capsys.readouterr()
    data = copy.deepcopy(case.base)
    case.change(data)
    bad = _write(tmp_path, data, "bad.yaml")
    assert cli.main(_settle(bad, case.sets)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"zhuoji settle: error: {bad}: {case.message}\n"


def test_every_problem_is_kept_with_its_rule() -> None:
    """The message gives the first problem and their number; the error keeps them all."""
    data = copy.deepcopy(QIANHOU_REVEALS)
    for r in data["reveals"]:
        r["status"] = "open"
    with pytest.raises(roundend.RuleRefusal) as err:
        roundend.settle_file(roundend.parse(data))
    assert [(p.where, p.rule, p.source) for p in err.value.found] == [
        (f"reveals[{i}].status", "deal.start_reveal.on_kong: move", QIANHOU_SOURCE) for i in (0, 1)
    ]


def test_a_problem_reads_as_one_line() -> None:
    p = Problem("seats[1].melds[0].kind", "claims.chi: false", "a chi meld", "variant v: seed")
    assert p.line() == "seats[1].melds[0].kind: a chi meld (claims.chi: false; variant v: seed)"
    assert p.cited("other") is p
    assert Problem("x", "", "m").line() == "x: m"


# ------------------------------------------------------------------------------------------
# a plug-in's rules are asked too
# ------------------------------------------------------------------------------------------

PLUGIN = '''
"""A plug-in with a round-end check of its own and a may_win hook without one."""
from zhuoji.contract.checks import Problem
from zhuoji.outcome import WinHow
from zhuoji.rules.registry import Params, Phase, Point, register


class NoParams(Params):
    pass


def no_streak_past_two(end, rules, p):
    if end.streak > 2:
        yield Problem("streak", "settle.streak_cap", "a dealer keeps the deal twice at most")


@register(Point.SETTLE, "streak_cap", NoParams, phase=Phase.SIDE, checks=(no_streak_past_two,))
def streak_cap(ctx, p):
    """Pays nothing; forbids a third 连庄."""


@register(Point.MAY_WIN, "self_draw_only", NoParams, title="只许自摸")
def self_draw_only(check, p):
    """A win needs a self-draw. Discards are never won on."""
    return check.how is WinHow.SELF_DRAW
'''


@pytest.fixture
def plugin(tmp_path: Path) -> Iterator[None]:
    with installed_plugin(tmp_path / "site", "zhuoji_checks_plugin", PLUGIN):
        yield


def test_a_plugin_hooks_checks_run(plugin: None) -> None:
    data = {**copy.deepcopy(DISCARD_WIN), "streak": 3}
    with pytest.raises(ScenarioError) as err:
        roundend.settle_file(roundend.parse(data), overrides={"settle.streak_cap": {}})
    assert str(err.value) == (
        "round-end: streak: a dealer keeps the deal twice at most "
        "(settle.streak_cap; set for this table (--set))"
    )


def test_a_may_win_hook_without_checks_is_asked_as_the_engine_asks(plugin: None) -> None:
    ruleset = load_variant("guiyang", {"may_win.only_self": {"id": "self_draw_only"}})
    with pytest.raises(ScenarioError) as err:
        roundend.build(roundend.parse(copy.deepcopy(DISCARD_WIN)), ruleset)
    assert str(err.value) == (
        "round-end: result.wins[0]: seat 2's win on seat 0's discard (5m) is refused by "
        "may_win.only_self (只许自摸): A win needs a self-draw "
        "(may_win.only_self; set for this table (--set))"
    )
