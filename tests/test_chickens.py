"""The ``settle.chickens`` stage (zhuoji/rules/chickens/): parameters, defaults, the won tile,
``chicken_marks``, and the test-only variants of tests/golden/variants played by the engine.

The hand-worked cases are golden files (tests/golden/, one per mechanism); these tests check
what goldens cannot: defaults that add no rule, the older spelling, errors, invariants over
random rounds, and the client API.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from conformance.walls import stack

from zhuoji import roundend
from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.agents.base import make_agent
from zhuoji.engine import Round
from zhuoji.errors import VariantError
from zhuoji.match import Match
from zhuoji.outcome import RoundEnd
from zhuoji.rules.chickens import chicken_marks
from zhuoji.rules.chickens.ownership import won_tile
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.ruleset import Ruleset
from zhuoji.settle import settle
from zhuoji.variant_io import load_variant

VARIANTS = Path(__file__).parent / "golden" / "variants"
GUIYANG = load_variant("guiyang")


def _params(rs: Ruleset) -> ChickenParams:
    stage = rs.stage("chickens")
    assert stage is not None and isinstance(stage.params, ChickenParams)
    return stage.params


def _marks(rs: Ruleset, *reveals: str, win: str | None = None, weekday: int = 1) -> dict[str, str]:
    got = chicken_marks(
        rs,
        [T.parse_one(t) for t in reveals],
        win_reveal=T.parse_one(win) if win else None,
        weekday=weekday,
    )
    return {T.TILE_TEXT[k]: v for k, v in got.items()}


# ---------------------------------------------------------------------------------------
# defaults add no rule; tiles come from the variant
# ---------------------------------------------------------------------------------------


def test_defaults_name_no_tile_and_add_no_rule() -> None:
    p = ChickenParams()
    assert p.permanent == [] and p.golden == []  # a city that omits golden gets no 金鸡
    assert p.chongfeng is None and p.zeren is None and p.hengji is None
    assert p.weekday is None and p.standing is None and p.chuifeng is None
    assert p.unready_pays is None


def test_omitting_golden_means_no_jinji(tmp_path: Path) -> None:
    path = tmp_path / "nogold.yaml"
    path.write_text(
        "name: nogold\ntitle: 无金鸡\nsource: test\nsettle:\n  hu: {}\n  chickens:\n"
        "    permanent: [{tile: 1s, value: 1, item: ji.yaoji, label: 幺鸡}]\n",
        encoding="utf-8",
    )
    assert _marks(load_variant(path), win="9s") == {"1s": "chicken"}
    assert _marks(GUIYANG, win="9s") == {"1s": "golden"}  # guiyang states its 金鸡


def test_chongfeng_needs_its_tiles(tmp_path: Path) -> None:
    """A current-format file names 责任鸡's tiles; a format-1 file (no format key) that
    leaves them out is read as before a6c2e8b, on 幺鸡 (zhuoji.migrations, chicken-tiles)."""
    path = tmp_path / "t.yaml"
    body = "name: t\ntitle: 测试\nsource: test\nsettle:\n  hu: {}\n  chickens:\n    zeren: {extra: 1}\n"
    path.write_text("format: 2\n" + body, encoding="utf-8")
    with pytest.raises(VariantError) as err:
        load_variant(path)
    assert err.value.problems == [
        f"{path}:8: settle.chickens.zeren: 'tiles' is a required property"
    ]
    path.write_text(body, encoding="utf-8")
    with pytest.warns(FutureWarning, match="settle.chickens.zeren: relied on the default"):
        zeren = load_variant(path).stage("chickens").params.zeren
    assert zeren is not None and zeren.tiles == ["1s"]


def test_flip_says_its_directions() -> None:
    """flip.makes replaced the older flip.mode (whose 上下鸡 hid that DS and FW name the two
    directions the other way round); an old spelling is migrated, with a warning naming
    both keys (zhuoji.migrations, flip-makes)."""
    with pytest.warns(
        FutureWarning, match="flip.mode: the format-1 spelling of settle.chickens.flip.makes"
    ):
        rules = load_variant("guiyang", {"settle.chickens.flip.mode": "updown"})
    assert rules.stage("chickens").params.flip.makes == ["prev", "next"]


# ---------------------------------------------------------------------------------------
# chicken_marks: what a client marks in a hand
# ---------------------------------------------------------------------------------------


def test_marks_during_play_and_after_the_win() -> None:
    assert _marks(GUIYANG) == {"1s": "chicken"}
    assert _marks(GUIYANG, win="3p") == {"1s": "chicken", "4p": "chicken"}
    ga = load_variant(VARIANTS / "ga-club.yaml")
    # 摇摆鸡 on 7p: 6p, and 8p (乌骨鸡) golden; Sunday: 7m 7s 7p
    assert _marks(ga, win="7p", weekday=7) == {
        "1s": "chicken",
        "6p": "chicken",
        "7m": "chicken",
        "7p": "chicken",
        "7s": "chicken",
        "8p": "golden",
    }
    assert _marks(ga, win="5p") == {}  # 吹风鸡
    qianhou = load_variant(VARIANTS / "fw-qianhou.yaml")
    assert _marks(qianhou, "5m") == {"1s": "chicken", "6m": "chicken"}
    assert chicken_marks(load_variant("luan")) == {}  # no chickens stage


# ---------------------------------------------------------------------------------------
# the won tile (issue 11 item 4)
# ---------------------------------------------------------------------------------------

TWO_WINNERS = {
    "dealer": 0,
    "seats": [
        {"hand": "1m4m7m5m8m2s5s8s9s3p6p9p2p"},
        {"hand": "33m555p777p222s99s"},
        {"hand": "3m666m888p444s666s"},
        {"hand": "4m7m9m2m3s6s7s9s1p4p5p8p6p"},
    ],
    "discards": [{"seat": 0, "tile": "3m", "claimed_by": 1}],
    "result": {
        "wins": [
            {"seat": 2, "how": "discard", "from": 0},
            {"seat": 1, "how": "discard", "from": 0},
        ],
        "tile": "3m",
    },
    "reveal": "2m",
}


def _fanji_from_dealer(option: str) -> dict[int, int]:
    rs = load_variant("guiyang", {"settle.chickens.won_tile": option})
    ledger = settle(rs, roundend.build(roundend.parse(TWO_WINNERS), rs))
    return {e.payee: e.amount for e in ledger.entries if e.item == "ji.fanji" and e.payer == 0}


@pytest.mark.parametrize(
    ("option", "seat1", "seat2"),
    [("every_win", 3, 1), ("self_draw", 2, 1), ("never", 2, 1)],
)
def test_won_tile_options(option: str, seat1: int, seat2: int) -> None:
    """The discard is one tile: the first winner after the discarder holds it (listing
    the wins in another order changes nothing)."""
    assert _fanji_from_dealer(option) == {1: seat1, 2: seat2}


def test_won_tile_without_the_discard_listed() -> None:
    data = dict(TWO_WINNERS, discards=[])
    end = roundend.build(roundend.parse(data), GUIYANG)
    holder = won_tile(end, _params(GUIYANG))
    assert holder is not None and holder.seat == 1  # first after seat 0 in turn order


def _copies_held(end: RoundEnd, p: ChickenParams) -> int:
    """Copies of the winning tile counted as held: hands, melds and the won tile."""
    assert end.win_tile is not None
    k = end.win_tile
    n = sum(s.concealed.count(k) + sum(m.tiles.count(k) for m in s.melds) for s in end.seats)
    held = won_tile(end, p)
    return n + (1 if held is not None else 0)


@pytest.mark.parametrize("variant", ["guiyang", "guiyang-weile"])
def test_never_more_copies_than_exist(variant: str) -> None:
    """Over played rounds, the winning tile's copies counted never exceed four."""
    rs = load_variant(variant)
    p = _params(rs)
    for r in Match(rs, seed=11, rounds=24).play([make_agent("greedy", s) for s in range(4)]).rounds:
        assert r.end is not None
        if r.end.wins:
            assert _copies_held(r.end, p) <= T.COPIES


# three players wait on 5p alone with four pungs (大对子 passes the 通行证); the dealer
# discards 9p, seat 1 draws and discards 9s, seat 2 draws and discards 5p
THREE_ON_5P = [
    "111m222m333m444m5p9p",
    "555m666m777m888m5p",
    "9m9m5s5s6s6s1p1p2p2p3p3p7p",
    "111s222s333s444s5p",
]


def test_engine_shared_discard_counts_once() -> None:
    """一炮三响 on a chicken tile: four 5p in play (three held, one discarded), four paid."""
    five = {"tile": "5p", "value": 1, "item": "ji.wutong", "label": "五筒"}
    rs = load_variant("guiyang-weile", {"settle.chickens.permanent": [five]})
    r = Round(rs, wall=stack(rs, THREE_ON_5P, "9s5p"), dealer=0)
    for text in ("0 discard 9p", "1 discard 9s", "2 discard 5p", "1 hu 5p", "0 hu 5p", "3 hu 5p"):
        r.apply(Action.parse(text))
    assert r.end is not None and r.ledger is not None
    assert [w.seat for w in r.end.wins] == [3, 0, 1]
    assert r.end.discards[-1].claimed_by == 3  # the first winner after the discarder
    from_discarder = {
        e.payee: e.amount for e in r.ledger.entries if e.item == "ji.wutong" and e.payer == 2
    }
    assert from_discarder == {3: 2, 0: 1, 1: 1}


# ---------------------------------------------------------------------------------------
# the test-only variants play and settle
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.yaml")), ids=lambda p: p.stem)
def test_test_variants_play(path: Path) -> None:
    rs = load_variant(path)
    result = Match(rs, seed=5, rounds=4, weekday=3).play(
        [make_agent("greedy", s) for s in range(rs.players)]
    )
    assert sum(result.totals) == 0
    for r in result.rounds:
        assert r.ledger is not None and sum(r.ledger.totals()) == 0


def test_in_play_reveals_may_make_other_chickens() -> None:
    """DS §14.2 sets 开局翻鸡 and 结算翻鸡 apart: flip.in_play_makes for reveals made during play."""
    rs = load_variant(
        VARIANTS / "ds-dushan.yaml",
        {
            "deal.start_reveal": {"stack": 1, "on_kong": "stay"},
            "settle.chickens.flip.in_play_makes": ["next"],
        },
    )
    assert _marks(rs, "4p") == {"1s": "chicken", "5p": "chicken"}
    assert _marks(rs, win="4p") == {"1s": "chicken", "3p": "chicken", "5p": "chicken"}
    assert _marks(rs, win="2s") == {"1s": "golden", "3s": "chicken"}  # 下鸡 on 二条: 金鸡


def test_marks_from_a_round_end() -> None:
    """A client may pass ``RoundEnd.reveals`` as they are: closed and lost reveals make none."""
    rs = load_variant(VARIANTS / "fw-qianhou.yaml")
    seats = copy.deepcopy(TWO_WINNERS["seats"])
    # seat 1's 7p is a 闷豆, the kong that moved the reveal from 2p to 5m
    seats[1] = {"hand": "33m555p222s99s", "melds": [{"kind": "gang_concealed", "tile": "7p"}]}
    end = roundend.build(
        roundend.parse(
            {
                **TWO_WINNERS,
                "seats": seats,
                "reveal": None,
                "reveals": [
                    {"tile": "2p", "at": "start", "status": "closed"},
                    {"tile": "5m", "at": "kong"},
                    {"tile": "8s"},
                ],
            }
        ),
        rs,
    )
    got = {T.TILE_TEXT[k]: v for k, v in chicken_marks(rs, end.reveals, 1).items()}
    assert got == {"1s": "chicken", "6m": "chicken", "9s": "chicken"}
